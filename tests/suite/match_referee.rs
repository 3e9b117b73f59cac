//! The match referee (`crokinole::referee`, docs/match.md) with real player programs:
//! a full game between two stdio programs replayed bit for bit, tampered logs refused
//! naming the line, every forfeit path (bad flick twice, shot clock, total clock, exit,
//! garbage, a line over 1 MiB, a hang, a flood), the same seed and answers giving the
//! same game, and the executed flicks following the noise model.

use crate::binary::scratch;
use crokinole::cancel::Cancel;
use crokinole::io::match_protocol::Clock;
use crokinole::montecarlo::{Noise, PlayerFlick};
use crokinole::referee::{
    End, MatchConfig, MatchError, MatchOutcome, PlayerSpec, SeatConfig, Table, play_match,
    replay_log,
};
use crokinole::rules::Ruleset;
use crokinole::{Board, Physics};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The standard-library Python player of `examples/players/`.
pub fn simple_py(seed: u32) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/players/simple.py");
    format!("python3 {} {seed}", path.display())
}

/// A shell player written to `dir/NAME.sh`: answers `hello` with `ready`, then runs
/// `body` (which reads the referee's lines with `read l`).
fn sh_player(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(format!("{name}.sh"));
    let script = format!("read l\necho '{{\"type\":\"ready\",\"name\":\"{name}\"}}'\n{body}\n");
    std::fs::write(&path, script).unwrap();
    format!("sh {}", path.display())
}

/// A match between `players` (commands, or `builtin:NAME`) under `ruleset`.
pub fn config(players: &[&str], ruleset: Ruleset, noise: Noise, seed: u64) -> MatchConfig {
    MatchConfig {
        board: Board::tournament(),
        physics: Physics::default(),
        players: players.len() as u8,
        ruleset,
        seats: players
            .iter()
            .map(|p| SeatConfig {
                player: PlayerSpec::parse(p, noise).unwrap(),
                noise,
            })
            .collect(),
        clock: Clock {
            total_s: 60.0,
            per_shot_s: 10.0,
        },
        seed,
        max_rounds: 1,
        game_id: format!("test-{seed}"),
        ready_timeout_s: 10.0,
    }
}

/// Plays `config`, its log at `dir/match.jsonl`: the outcome, the log's text and its path.
pub fn play(
    config: &MatchConfig,
    dir: &Path,
) -> (Result<MatchOutcome, MatchError>, String, PathBuf) {
    let path = dir.join("match.jsonl");
    let file = std::fs::File::create(&path).unwrap();
    let cancel = Cancel::never();
    let out = play_match(
        config,
        Vec::new(),
        Box::new(std::io::BufWriter::new(file)),
        Some(&path),
        Box::new(|_| {}),
        &cancel,
    );
    let text = std::fs::read_to_string(&path).unwrap();
    (out, text, path)
}

/// The messages of a log (its entries' `msg`), with their direction and seat.
pub fn messages(log: &str) -> Vec<(String, u64, Value)> {
    log.lines()
        .filter_map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            let msg = v.get("msg")?.clone();
            Some((v["dir"].as_str()?.to_string(), v["seat"].as_u64()?, msg))
        })
        .collect()
}

/// The `shot` messages sent to seat 0 (one per shot).
fn shots(log: &str) -> Vec<Value> {
    messages(log)
        .into_iter()
        .filter(|(d, s, m)| d == "to" && *s == 0 && m["type"] == "shot")
        .map(|(_, _, m)| m)
        .collect()
}

fn forfeit_of(out: &MatchOutcome) -> (u8, String) {
    match &out.end {
        End::Forfeit { seat, why } => (*seat, why.clone()),
        e => panic!("expected a forfeit, got {e:?}"),
    }
}

#[test]
fn a_full_game_between_two_programs_replays_bit_for_bit() {
    let dir = scratch("full");
    let mut c = config(
        &[&simple_py(1), &simple_py(2)],
        Ruleset::Tournament,
        Noise {
            offset: 0.003,
            aim: 0.01,
            speed: 0.03,
            spin: 0.5,
        },
        42,
    );
    c.max_rounds = 4;
    let (out, log, _) = play(&c, &dir);
    let out = out.unwrap();
    assert_eq!(out.end, End::Rounds, "{out:?}");
    assert_eq!(out.shots, 64);
    assert_eq!(shots(&log).len(), 64);
    assert!(shots(&log).iter().all(|s| s.get("forfeit").is_none()));
    let report = replay_log(&log).unwrap();
    assert_eq!(report.shots, 64);
    assert_eq!(report.scores, out.scores);
    assert_eq!(report.seed, 42);
    let last: Value = serde_json::from_str(log.lines().last().unwrap()).unwrap();
    assert_eq!(last["type"], "seed");
    assert_eq!(last["seed"], 42);
}

/// Rewrites line `k` (from 0) of `log` with `edit`.
fn tamper(log: &str, k: usize, edit: impl Fn(&mut Value)) -> String {
    let mut lines: Vec<String> = log.lines().map(String::from).collect();
    let mut v: Value = serde_json::from_str(&lines[k]).unwrap();
    edit(&mut v);
    lines[k] = v.to_string();
    lines.join("\n") + "\n"
}

/// Index (from 0) of the first log line whose message is a `shot` with `key`.
fn first_shot_line(log: &str) -> usize {
    log.lines()
        .position(|l| l.contains("\"type\":\"shot\"") && l.contains("\"executed\":{"))
        .unwrap()
}

#[test]
fn tampered_logs_are_refused_naming_the_line() {
    let dir = scratch("tamper");
    let c = config(
        &[&simple_py(3), "builtin:greedy:k=2"],
        Ruleset::Tournament,
        Noise {
            aim: 0.01,
            ..Noise::NONE
        },
        7,
    );
    let (out, log, _) = play(&c, &dir);
    out.unwrap();
    replay_log(&log).unwrap();
    let k = first_shot_line(&log);
    // An executed flick.
    let bad = tamper(&log, k, |v| {
        let a = v["msg"]["executed"]["speed"].as_f64().unwrap();
        v["msg"]["executed"]["speed"] = (a + 1e-9).into();
    });
    let e = replay_log(&bad).unwrap_err();
    assert_eq!(e.line, k + 1, "{e}");
    assert!(e.problem.contains("executed.speed"), "{e}");
    // An intended flick that is not the one the player sent.
    let bad = tamper(&log, k, |v| {
        let a = v["msg"]["intended"]["aim"].as_f64().unwrap();
        v["msg"]["intended"]["aim"] = (a + 1e-3).into();
    });
    let e = replay_log(&bad).unwrap_err();
    assert_eq!(e.line, k + 1, "{e}");
    assert!(e.problem.contains("intended"), "{e}");
    // An outcome.
    let bad = tamper(&log, k, |v| {
        let x = v["msg"]["outcome"]["discs"][0]["pos"][0].as_f64().unwrap();
        v["msg"]["outcome"]["discs"][0]["pos"][0] = (x + 1e-12).into();
    });
    let e = replay_log(&bad).unwrap_err();
    assert_eq!(e.line, k + 1, "{e}");
    assert!(e.problem.contains("outcome.discs[0].pos[0]"), "{e}");
    // A good shot passed off as forfeited.
    let bad = tamper(&log, k, |v| v["msg"]["forfeit"] = "bad flick".into());
    let e = replay_log(&bad).unwrap_err();
    assert_eq!(e.line, k + 1, "{e}");
    assert!(e.problem.contains("forfeit"), "{e}");
    // The seed.
    let n = log.lines().count();
    let bad = tamper(&log, n - 1, |v| v["seed"] = 8.into());
    let e = replay_log(&bad).unwrap_err();
    assert_eq!(e.line, n, "{e}");
    assert!(e.problem.contains("seed_commitment"), "{e}");
    // A score.
    let j = log
        .lines()
        .position(|l| l.contains("\"type\":\"round_end\""))
        .unwrap();
    let bad = tamper(&log, j, |v| v["msg"]["scores"][0] = 99.into());
    assert_eq!(replay_log(&bad).unwrap_err().line, j + 1);
}

#[test]
fn the_same_seed_and_answers_give_the_same_game() {
    let noise = Noise {
        offset: 0.003,
        aim: 0.02,
        speed: 0.05,
        spin: 0.5,
    };
    let game = |seed, test: &str| {
        let dir = scratch(test);
        let c = config(
            &[&simple_py(5), "builtin:random"],
            Ruleset::Tournament,
            noise,
            seed,
        );
        let (out, log, _) = play(&c, &dir);
        out.unwrap();
        shots(&log)
    };
    let (a, b, other) = (game(11, "a"), game(11, "b"), game(12, "c"));
    assert_eq!(a, b);
    assert_ne!(a, other);
}

#[test]
fn a_flick_bad_twice_forfeits_the_shot() {
    let dir = scratch("bad_flick");
    let bad = r#"{"type":"flick","offset":9,"aim":0,"speed":1,"spin":0}"#;
    let body = format!(
        "while read l; do case \"$l\" in *'\"turn\"'*|*'\"fatal\":false'*) echo '{bad}';; esac; done"
    );
    let p = sh_player(&dir, "bad", &body);
    let c = config(
        &[&p, "builtin:greedy:k=2"],
        Ruleset::Tournament,
        Noise::NONE,
        1,
    );
    let (out, log, _) = play(&c, &dir);
    let out = out.unwrap();
    assert_eq!(out.end, End::Rounds);
    let mine: Vec<Value> = shots(&log).into_iter().filter(|s| s["seat"] == 0).collect();
    assert_eq!(mine.len(), 8);
    assert!(mine.iter().all(|s| s["forfeit"] == "bad flick"), "{mine:?}");
    let errors = messages(&log)
        .into_iter()
        .filter(|(d, s, m)| d == "to" && *s == 0 && m["type"] == "error")
        .count();
    assert!(errors >= 16, "{errors} errors");
    replay_log(&log).unwrap();
}

#[test]
fn the_shot_clock_forfeits_the_shot_and_the_total_clock_the_game() {
    let dir = scratch("clocks");
    let silent = sh_player(&dir, "silent", "while read l; do :; done");
    let mut c = config(
        &[&silent, "builtin:random"],
        Ruleset::Tournament,
        Noise::NONE,
        2,
    );
    c.clock = Clock {
        total_s: 60.0,
        per_shot_s: 0.2,
    };
    let t = Instant::now();
    let (out, log, _) = play(&c, &dir);
    let out = out.unwrap();
    assert_eq!(out.end, End::Rounds);
    let mine: Vec<Value> = shots(&log).into_iter().filter(|s| s["seat"] == 0).collect();
    assert!(
        mine.iter().all(|s| s["forfeit"] == "shot clock"),
        "{mine:?}"
    );
    assert!(t.elapsed() < Duration::from_secs(10));
    replay_log(&log).unwrap();

    let dir = scratch("total_clock");
    c.clock = Clock {
        total_s: 0.5,
        per_shot_s: 0.3,
    };
    let (out, log, _) = play(&c, &dir);
    let out = out.unwrap();
    assert_eq!(forfeit_of(&out), (0, "its total clock ran out".into()));
    assert_eq!(out.winner, Some(1));
    replay_log(&log).unwrap();
}

/// A match of `player` (seat 0) against a built-in; the forfeit, checked to be seat 0's
/// and replayable, and how long the match took.
fn forfeit_game(dir: &Path, player: &str, ready_timeout_s: f64) -> (String, Duration) {
    let mut c = config(
        &[player, "builtin:random"],
        Ruleset::Tournament,
        Noise::NONE,
        3,
    );
    c.ready_timeout_s = ready_timeout_s;
    let t = Instant::now();
    let (out, log, _) = play(&c, dir);
    let took = t.elapsed();
    let out = out.unwrap();
    let (seat, why) = forfeit_of(&out);
    assert_eq!((seat, out.winner), (0, Some(1)), "{why}");
    let end = messages(&log)
        .into_iter()
        .rev()
        .find(|(_, _, m)| m["type"] == "game_end");
    assert_eq!(end.unwrap().2["reason"], "forfeit");
    replay_log(&log).unwrap();
    (why, took)
}

#[test]
fn a_player_that_exits_forfeits() {
    let dir = scratch("exit");
    let p = sh_player(&dir, "quitter", "read l\nexit 0");
    let (why, _) = forfeit_game(&dir, &p, 10.0);
    assert!(why.contains("exited"), "{why}");
}

#[test]
fn garbage_forfeits() {
    let dir = scratch("garbage");
    let p = sh_player(
        &dir,
        "garbage",
        "read l\necho 'this is not JSON'\nwhile read l; do :; done",
    );
    let (why, _) = forfeit_game(&dir, &p, 10.0);
    assert!(why.contains("not JSON"), "{why}");
}

#[test]
fn a_line_over_one_mebibyte_forfeits() {
    let dir = scratch("long");
    let p = sh_player(
        &dir,
        "long",
        "read l\nhead -c 1100000 /dev/zero | tr '\\0' a\necho\nwhile read l; do :; done",
    );
    let (why, _) = forfeit_game(&dir, &p, 10.0);
    assert!(why.contains("1 MiB"), "{why}");
}

#[test]
fn a_hanging_player_forfeits_and_is_killed() {
    let dir = scratch("hang");
    let pid_file = dir.join("pid");
    let p = format!("sh -c 'echo $$ > {}; exec sleep 1000'", pid_file.display());
    let (why, took) = forfeit_game(&dir, &p, 1.0);
    assert!(why.contains("no ready"), "{why}");
    assert!(took < Duration::from_secs(5), "{took:?}");
    // The program was killed and reaped: its pid names no process any more.
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let alive = Path::new(&format!("/proc/{}", pid.trim())).exists();
    assert!(!alive, "the hanging player {} still runs", pid.trim());
}

#[test]
fn a_flooding_player_forfeits_its_shots_without_stalling_the_referee() {
    let dir = scratch("flood");
    let p = sh_player(&dir, "flood", "yes '{\"type\":\"pong\"}'");
    let t = Instant::now();
    let c = config(&[&p, "builtin:random"], Ruleset::Tournament, Noise::NONE, 4);
    let (out, log, _) = play(&c, &dir);
    let out = out.unwrap();
    assert_eq!(out.end, End::Rounds);
    let mine: Vec<Value> = shots(&log).into_iter().filter(|s| s["seat"] == 0).collect();
    assert!(mine.iter().all(|s| s["forfeit"] == "bad flick"));
    assert!(t.elapsed() < Duration::from_secs(20));
    replay_log(&log).unwrap();
}

#[test]
fn four_players_and_traditional_rules() {
    let dir = scratch("four");
    let c = config(
        &[
            &simple_py(1),
            "builtin:greedy:k=2",
            &simple_py(2),
            "builtin:random",
        ],
        Ruleset::Traditional,
        Noise {
            aim: 0.01,
            ..Noise::NONE
        },
        9,
    );
    let (out, log, _) = play(&c, &dir);
    let out = out.unwrap();
    assert_eq!(out.names.len(), 4);
    assert_eq!(out.shots, 24);
    assert!(matches!(out.end, End::Rounds | End::Score));
    replay_log(&log).unwrap();
}

#[test]
fn executed_flicks_follow_the_noise_model() {
    // Every shot of many games from one intended flick: the executed aim and speed
    // scatter around it with the seat's widths (the truncation at the noise model's
    // bounds is far out at these widths).
    let noise = Noise {
        offset: 0.0,
        aim: 0.02,
        speed: 0.05,
        spin: 0.0,
    };
    let mut aims = Vec::new();
    let mut speeds = Vec::new();
    for seed in 0..12 {
        let mut c = config(
            &["builtin:random", "builtin:random"],
            Ruleset::Tournament,
            noise,
            seed,
        );
        c.max_rounds = 4;
        let mut table = Table::new(&c).unwrap();
        let cancel = Cancel::never();
        while table.to_shoot().is_some() {
            let intended = [0.0, 0.05, -0.05, 0.1, -0.1]
                .iter()
                .map(|&offset| PlayerFlick {
                    offset,
                    aim: 0.0,
                    target: None,
                    speed: 0.8,
                    spin: 0.0,
                })
                .find(|f| table.check_flick(f).is_ok())
                .unwrap();
            let msgs = table.play(intended, &cancel).unwrap();
            let e = &msgs[0]["executed"];
            aims.push(e["aim"].as_f64().unwrap());
            speeds.push(e["speed"].as_f64().unwrap() / 0.8 - 1.0);
        }
    }
    let moments = |x: &[f64]| {
        let n = x.len() as f64;
        let mean = x.iter().sum::<f64>() / n;
        let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
        (n, mean, var.sqrt())
    };
    for (x, width) in [(&aims, 0.02), (&speeds, 0.05)] {
        let (n, mean, sd) = moments(x);
        assert!(n >= 700.0);
        assert!(mean.abs() < 4.0 * width / n.sqrt(), "mean {mean}");
        assert!((sd / width - 1.0).abs() < 0.1, "sd {sd} for width {width}");
    }
}

#[test]
fn a_refereed_game_between_builtins_is_the_game_crokinole_play_plays() {
    use crokinole::play::{AnyStrategy, PlayConfig, Strategy};
    let noise = Noise {
        offset: 0.003,
        aim: 0.01,
        speed: 0.03,
        spin: 0.5,
    };
    let dir = scratch("same_as_play");
    let mut c = config(
        &["builtin:greedy:k=2", "builtin:random"],
        Ruleset::Tournament,
        noise,
        31,
    );
    c.max_rounds = 4;
    let (out, log, _) = play(&c, &dir);
    let out = out.unwrap();
    let strategies: Vec<Box<dyn Strategy>> = ["greedy:k=2", "random"]
        .iter()
        .map(|s| Box::new(AnyStrategy::parse(s, noise).unwrap()) as Box<dyn Strategy>)
        .collect();
    let game = PlayConfig {
        board: Board::tournament(),
        physics: Physics::default(),
        players: 2,
        ruleset: Ruleset::Tournament,
        strategies,
        noise,
        seed: 31,
        max_rounds: 4,
    }
    .play(0)
    .unwrap();
    let refereed = shots(&log);
    assert_eq!(refereed.len(), game.shots.len());
    for (m, s) in refereed.iter().zip(&game.shots) {
        let e = &m["executed"];
        let got = [
            e["offset"].as_f64(),
            e["aim"].as_f64(),
            e["speed"].as_f64(),
            e["spin"].as_f64(),
        ];
        let want = [
            s.executed.offset,
            s.executed.aim,
            s.executed.speed,
            s.executed.spin,
        ];
        assert_eq!(got, want.map(Some));
        assert_eq!(m["seat"], s.seat);
    }
    assert_eq!(out.scores, game.score);
}

#[test]
fn the_observer_sees_every_log_line_as_it_is_written() {
    let dir = scratch("observer");
    let c = config(
        &["builtin:random", "builtin:greedy:k=2"],
        Ruleset::Tournament,
        Noise::NONE,
        6,
    );
    let path = dir.join("m.jsonl");
    let seen = std::cell::RefCell::new(Vec::new());
    let cancel = Cancel::never();
    let out = play_match(
        &c,
        Vec::new(),
        Box::new(std::fs::File::create(&path).unwrap()),
        None,
        Box::new(|v: &str| seen.borrow_mut().push(v.to_string())),
        &cancel,
    )
    .unwrap();
    let log = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<String> = log.lines().map(String::from).collect();
    assert_eq!(*seen.borrow(), lines);
    assert_eq!(out.shots, 16);
}
