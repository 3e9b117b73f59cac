//! Full games between strategies (`crokinole::play`, `crokinole play`): every strategy pair
//! plays a game whose log adds up (discs per round, turns, 20s, board scores, round totals
//! and points, game score, winner); the strategies make the decisions they promise; games
//! and summaries are the same for every thread count and repeatable; bad flags are refused.
//!
//! Kept fast: tournament games (4 rounds), small K and M, and a single traditional game
//! (to 100) with small K and M.

use crate::binary;

use binary::ok;
use crokinole::io::{game_log_json, games_summary_json};
use crokinole::montecarlo::{Noise, PlayerFlick};
use crokinole::play::strategy::candidate;
use crokinole::play::{
    AnyStrategy, GameStats, Greedy, MonteCarlo, PlayConfig, RandomFlick, Strategy, SummaryTally,
    Turn, parse_noise, parse_strategies,
};
use crokinole::rules::{Game, Ruleset};
use crokinole::{Board, Flick, Physics};
use glam::DVec2;
use serde_json::Value;

const NOISE: &str = "offset=0.003,aim=0.01,speed=0.03,spin=0.5";

fn config(players: u8, ruleset: Ruleset, strategies: &str, seed: u64) -> PlayConfig {
    config_with_noise(players, ruleset, strategies, seed, NOISE)
}

/// A checked configuration of `strategies` with the players' error `noise` (a spec).
pub(crate) fn config_with_noise(
    players: u8,
    ruleset: Ruleset,
    strategies: &str,
    seed: u64,
    noise: &str,
) -> PlayConfig {
    let noise = parse_noise(noise).unwrap();
    let config = PlayConfig {
        board: Board::tournament(),
        physics: Physics::default(),
        players,
        ruleset,
        strategies: parse_strategies(strategies, noise)
            .unwrap()
            .into_iter()
            .map(|s| Box::new(s) as Box<dyn Strategy>)
            .collect(),
        noise,
        seed,
        max_rounds: 100,
    };
    config.check().unwrap();
    config
}

/// A game log as JSON, as the CLI prints it (one key a line, one shot a line).
fn log_json(config: &PlayConfig, game: u64) -> Value {
    let text = game_log_json(&config.play(game).unwrap());
    assert!(text.ends_with("}\n"));
    serde_json::from_str(&text).unwrap()
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not an integer: {v}"))
}

fn pair(v: &Value) -> [u64; 2] {
    [u(&v[0]), u(&v[1])]
}

fn seats_in_play(players: u64) -> Vec<u64> {
    if players == 2 {
        vec![0, 2]
    } else {
        vec![0, 1, 2, 3]
    }
}

fn next_seat(seat: u64, players: u64) -> u64 {
    let seats = seats_in_play(players);
    let k = seats.iter().position(|&s| s == seat).unwrap();
    seats[(k + 1) % seats.len()]
}

/// Checks that a game log adds up.
fn check_log(log: &Value) {
    let players = u(&log["players"]);
    let ruleset = log["ruleset"].as_str().unwrap();
    let per = match (ruleset, players) {
        ("traditional", 2) => 12,
        ("traditional", 4) => 6,
        ("tournament", 2) => 8,
        ("tournament", 4) => 6,
        other => panic!("{other:?}"),
    };
    let team_of = |s: u64| if players == 2 { s / 2 } else { s % 2 };
    let seats = seats_in_play(players);
    assert_eq!(
        log["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| (u(&s["seat"]), u(&s["team"])))
            .collect::<Vec<_>>(),
        seats.iter().map(|&s| (s, team_of(s))).collect::<Vec<_>>()
    );
    let shots = log["shots"].as_array().unwrap();
    let rounds = log["rounds"].as_array().unwrap();
    assert!(!rounds.is_empty());
    let count = per * players;
    let mut first = u(&log["first_seat"]);
    assert!(seats.contains(&first));
    let mut score = [0u64; 2];
    let mut k = 0usize;
    for (r, round) in rounds.iter().enumerate() {
        assert_eq!(u(&round["round"]), r as u64);
        assert_eq!(
            u(&round["first_seat"]),
            first,
            "round {r} starts left of the last"
        );
        assert_eq!(u(&round["shots"]), count, "every disc of every player");
        let mut seat = first;
        let mut twenties = [0u64; 2];
        let mut left = [0u64; 4];
        for &s in &seats {
            left[s as usize] = per;
        }
        let mut on_board = 0u64;
        let mut last_board_score = [0u64; 2];
        for i in 0..count as usize {
            let s = &shots[k + i];
            let last = i + 1 == count as usize;
            assert_eq!(
                (u(&s["round"]), u(&s["shot"]), u(&s["number"])),
                (r as u64, i as u64, (k + i) as u64)
            );
            assert_eq!(u(&s["seat"]), seat, "clockwise turns");
            let team = team_of(seat);
            assert_eq!(u(&s["team"]), team);
            assert_eq!(u(&s["start"]["team"]), team);
            assert_eq!(s["intended"]["target"], s["executed"]["target"]);
            let v = &s["verdict"];
            assert_eq!((u(&v["seat"]), u(&v["team"])), (seat, team));
            assert_eq!(v["ruleset"], ruleset);
            let shooter = u(&v["shooter"]);
            assert_eq!(shooter, on_board, "the position is the last shot's");
            assert_eq!(
                s["outcome"]["discs"].as_array().unwrap().len() as u64,
                shooter + 1
            );
            // Every disc ends in exactly one of position, twenties, removed.
            let mut ids: Vec<u64> = Vec::new();
            let mut board_score = [0u64; 2];
            for d in v["position"].as_array().unwrap() {
                ids.push(u(&d["id"]));
                let points = u(&d["points"]);
                assert!([5, 10, 15].contains(&points), "{d}");
                board_score[u(&d["team"]) as usize] += points;
            }
            for t in v["twenties"].as_array().unwrap() {
                ids.push(u(&t["id"]));
                twenties[u(&t["team"]) as usize] += 1;
            }
            for g in v["removed"].as_array().unwrap() {
                ids.push(u(&g["id"]));
            }
            ids.sort();
            assert_eq!(ids, (0..=shooter).collect::<Vec<_>>(), "each disc once");
            assert_eq!(pair(&v["board_score"]), board_score);
            assert_eq!(pair(&s["twenties"]), twenties, "20s add up");
            assert_eq!(
                pair(&s["round_totals"]),
                [
                    20 * twenties[0] + board_score[0],
                    20 * twenties[1] + board_score[1]
                ]
            );
            left[seat as usize] -= 1;
            let got: Vec<u64> = s["discs_left"].as_array().unwrap().iter().map(u).collect();
            assert_eq!(got, left);
            assert_eq!(s["round_end"], last);
            if !last {
                assert_eq!(pair(&s["score"]), score);
                seat = next_seat(seat, players);
                assert_eq!(s["next_turn"].as_u64(), Some(seat));
            }
            on_board = v["position"].as_array().unwrap().len() as u64;
            last_board_score = board_score;
        }
        assert!(left.iter().all(|&n| n == 0));
        assert_eq!(pair(&round["twenties"]), twenties);
        assert_eq!(pair(&round["board_score"]), last_board_score);
        let totals = pair(&round["totals"]);
        assert_eq!(
            totals,
            [
                20 * twenties[0] + last_board_score[0],
                20 * twenties[1] + last_board_score[1]
            ]
        );
        let points = pair(&round["points"]);
        let want = if ruleset == "traditional" {
            [
                totals[0].saturating_sub(totals[1]),
                totals[1].saturating_sub(totals[0]),
            ]
        } else {
            match totals[0].cmp(&totals[1]) {
                std::cmp::Ordering::Greater => [2, 0],
                std::cmp::Ordering::Less => [0, 2],
                std::cmp::Ordering::Equal => [1, 1],
            }
        };
        assert_eq!(points, want, "round {r}");
        if ruleset == "traditional" && r + 1 < rounds.len() {
            assert!(score[0].max(score[1]) < 100, "the game went on after 100");
        }
        score = [score[0] + points[0], score[1] + points[1]];
        assert_eq!(pair(&round["score"]), score);
        assert_eq!(pair(&shots[k + count as usize - 1]["score"]), score);
        first = next_seat(first, players);
        k += count as usize;
    }
    assert_eq!(k, shots.len(), "no shot outside a round");
    assert_eq!(pair(&log["score"]), score);
    assert!(shots.last().unwrap()["next_turn"].is_null());
    let leader = match score[0].cmp(&score[1]) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    };
    if log["capped"] == true {
        assert_eq!(rounds.len() as u64, u(&log["max_rounds"]));
        assert!(log["result"].is_null() && log["winner"].is_null());
        return;
    }
    assert_eq!(log["winner"].as_u64(), leader, "the winner leads");
    match leader {
        Some(t) => assert_eq!(log["result"], serde_json::json!({"won": t})),
        None => assert_eq!(log["result"], "draw"),
    }
    if ruleset == "tournament" {
        assert_eq!(rounds.len(), 4);
    } else {
        assert!(score[0].max(score[1]) >= 100);
        assert!(leader.is_some());
    }
}

/// Which seats' shots carry a strategy's value (greedy and Monte Carlo do, random not).
fn valued_seats(log: &Value) -> Vec<(u64, bool)> {
    let mut seen: Vec<(u64, bool)> = log["shots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (u(&s["seat"]), !s["value"].is_null()))
        .collect();
    seen.sort();
    seen.dedup();
    seen
}

#[test]
fn random_against_greedy() {
    let log = log_json(&config(2, Ruleset::Tournament, "random,greedy:k=4", 1), 0);
    check_log(&log);
    assert_eq!(valued_seats(&log), [(0, false), (2, true)]);
    assert_eq!(log["seats"][1]["strategy"], "greedy:k=4:spin=0");
}

#[test]
fn greedy_against_montecarlo() {
    let log = log_json(
        &config(2, Ruleset::Tournament, "greedy:k=4,montecarlo:k=3:m=3", 2),
        0,
    );
    check_log(&log);
    assert_eq!(valued_seats(&log), [(0, true), (2, true)]);
}

#[test]
fn random_against_montecarlo_with_spin() {
    let log = log_json(
        &config(2, Ruleset::Tournament, "random:spin=5,mc:k=3:m=2:spin=5", 3),
        0,
    );
    check_log(&log);
    assert_eq!(valued_seats(&log), [(0, false), (2, true)]);
    let spins = log["shots"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["intended"]["spin"] != 0.0)
        .count();
    assert!(spins > 0, "candidates with spin");
}

#[test]
fn a_four_player_game() {
    let log = log_json(
        &config(
            4,
            Ruleset::Tournament,
            "random,greedy:k=3,montecarlo:k=2:m=2,greedy:k=2",
            4,
        ),
        0,
    );
    check_log(&log);
    let names: Vec<&str> = log["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["strategy"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "random:spin=0",
            "greedy:k=3:spin=0",
            "montecarlo:k=2:m=2:spin=0",
            "greedy:k=2:spin=0"
        ]
    );
    // Two strategies with four players: one per team.
    let c = config(4, Ruleset::Tournament, "random,greedy:k=2", 4);
    assert_eq!(c.strategy_of(2).name(), "random:spin=0");
    assert_eq!(c.strategy_of(3).name(), "greedy:k=2:spin=0");
}

#[test]
fn a_traditional_game_to_100() {
    let log = log_json(
        &config(2, Ruleset::Traditional, "greedy:k=8,montecarlo:k=4:m=4", 5),
        0,
    );
    assert_eq!(log["capped"], false);
    check_log(&log);
}

/// A forfeited shot ([`PlayConfig::forfeit`]) is logged with its reason, draws no noise
/// (the next shot's execution is the one the unforfeited game would have drawn for that
/// number) and the game goes on to a log that adds up.
#[test]
fn a_forfeited_shot_is_logged_and_the_game_goes_on() {
    let c = config(2, Ruleset::Tournament, "greedy:k=2,greedy:k=2", 11);
    let mut game = c.start(0).unwrap();
    let first = c.decide(&game).unwrap();
    let intended = first.flick;
    let shot = c
        .forfeit(&mut game, Some(intended), "bad flick twice")
        .unwrap();
    assert_eq!(shot.forfeit.as_deref(), Some("bad flick twice"));
    assert_eq!(shot.verdict.removed.len(), 1);
    assert!(shot.verdict.position.is_empty());
    while c.turn(&game).is_some() {
        let d = c.decide(&game).unwrap();
        c.execute(&mut game, d).unwrap();
    }
    let log = c.finish(game);
    let json: Value = serde_json::from_str(&game_log_json(&log)).unwrap();
    assert_eq!(json["shots"][0]["forfeit"], "bad flick twice");
    assert!(json["shots"][1].get("forfeit").is_none());
    check_log(&json);
    // A replay plays the forfeited start (a disc at rest on the shooting line): the rules
    // remove it and the position after is the logged one.
    let replay = crokinole::io::parse_game_log(&game_log_json(&log)).unwrap();
    let entry = &replay.shot_entries()[0];
    let verdict = crokinole::rules::judge_shot(
        &c.board,
        &c.physics,
        &entry.shot.discs,
        entry.seat.unwrap(),
        2,
        Ruleset::Tournament,
        entry.shot.shooter,
    )
    .unwrap();
    assert_eq!(verdict.remaining(), replay.shots[0].after);
    assert_eq!(verdict.removed.len(), 1);
}

#[test]
fn a_capped_game_stops_at_a_round_boundary() {
    let mut c = config(2, Ruleset::Traditional, "random,random", 6);
    c.max_rounds = 1;
    let log = log_json(&c, 0);
    assert_eq!(log["capped"], true);
    assert_eq!(log["rounds"].as_array().unwrap().len(), 1);
    assert_eq!(log["shots"].as_array().unwrap().len(), 24);
    check_log(&log);
}

/// A game, and a run's summary, do not depend on the thread count; the summary is the
/// serial fold of the games' own logs.
#[test]
fn games_and_summaries_do_not_depend_on_threads() {
    let c = config(2, Ruleset::Tournament, "random,greedy:k=2", 8);
    let pool = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
    };
    let one = pool(1).install(|| c.play(1).unwrap());
    let two = pool(2).install(|| c.play(1).unwrap());
    assert_eq!(game_log_json(&one), game_log_json(&two));
    let s1 = pool(1).install(|| c.play_many(3).unwrap());
    let s2 = pool(2).install(|| c.play_many(3).unwrap());
    assert_eq!(games_summary_json(&s1), games_summary_json(&s2));
    let mut tally = SummaryTally::default();
    for g in 0..3 {
        tally.add(&GameStats::of(&c.play(g).unwrap()));
    }
    assert_eq!(tally.summary(&c), s1);
    assert_eq!(s1.games, 3);
    let wins = s1.teams[0].wins.count + s1.teams[1].wins.count;
    assert_eq!(wins + s1.draws.count + s1.unfinished, 3);
    assert_eq!(s1.rounds, 12);
    assert_eq!(s1.shots, 3 * 4 * 16);
}

fn empty_game() -> Game {
    Game::new(2, Ruleset::Tournament, 0).unwrap()
}

#[test]
fn greedy_keeps_the_best_candidate_and_montecarlo_without_noise_agrees() {
    let (board, physics) = (Board::tournament(), Physics::default());
    let mut game = empty_game();
    // Seat 0 leaves a disc in the 15 zone; then seat 2 must hit it.
    let f = Flick {
        team: 0,
        pos: DVec2::new(0.0, -0.3048),
        vel: DVec2::new(0.0, 0.76),
        spin: 0.0,
    };
    game.play(0, f, &board, &physics).unwrap();
    assert_eq!(game.position().len(), 1);
    for g in [&empty_game(), &game] {
        let turn = Turn::new(&board, &physics, g, 42).unwrap();
        let greedy = Greedy { k: 8, spin: 0.0 };
        let d = greedy.choose(&turn).unwrap();
        let cands: Vec<(PlayerFlick, Flick)> =
            (0..8).filter_map(|c| candidate(&turn, c, 0.0)).collect();
        assert_eq!(d.candidates as usize, cands.len());
        let values = turn.evaluate(&cands.iter().map(|c| c.1).collect::<Vec<_>>());
        let best = values.iter().flatten().copied().max().unwrap();
        let first = values.iter().position(|v| *v == Some(best)).unwrap();
        assert_eq!(d.value, Some(best as f64));
        assert_eq!(d.flick, cands[first].0, "ties go to the lowest index");
        assert!(best > 0, "a good shot among 8: {values:?}");
        // Monte Carlo without noise: every sample is the candidate itself.
        let mc = MonteCarlo {
            k: 8,
            m: 2,
            spin: 0.0,
            noise: Noise::NONE,
        };
        let m = mc.choose(&turn).unwrap();
        assert_eq!((m.flick, m.value), (d.flick, d.value));
        // Same turn and seed: the same decision.
        assert_eq!(greedy.choose(&turn).unwrap(), d);
    }
}

#[test]
fn the_random_strategy_is_legal_and_seeded() {
    let (board, physics) = (Board::tournament(), Physics::default());
    let game = empty_game();
    let random = RandomFlick { spin: 0.0 };
    let mut seen = Vec::new();
    for seed in 0..20 {
        let turn = Turn::new(&board, &physics, &game, seed).unwrap();
        let d = random.choose(&turn).unwrap();
        assert!(turn.legal(&d.flick).is_some());
        assert_eq!(random.choose(&turn).unwrap(), d);
        assert!(d.value.is_none());
        seen.push(d.flick.offset);
    }
    seen.sort_by(f64::total_cmp);
    seen.dedup();
    assert_eq!(seen.len(), 20, "different seeds, different flicks");
    assert_eq!(
        AnyStrategy::Random(random).name().parse::<AnyStrategy>(),
        Ok(AnyStrategy::Random(random))
    );
}

// ---------------------------------------------------------------------------------------
// The command line.

fn run(args: &[&str]) -> binary::Run {
    binary::run(args, None)
}

/// `crokinole play` on tournament rules with small K and M: `seed`, `strategies`, then
/// `extra` flags.
fn play_with(seed: &str, strategies: &str, extra: &[&str]) -> Vec<u8> {
    let mut args = vec![
        "play",
        "--ruleset",
        "tournament",
        "--strategies",
        strategies,
        "--seed",
        seed,
    ];
    args.extend_from_slice(extra);
    ok(&args)
}

const STRATEGIES: &str = "greedy:k=3,montecarlo:k=2:m=2";

fn ok_with(extra: &[&str]) -> Vec<u8> {
    play_with("11", STRATEGIES, extra)
}

#[test]
fn the_cli_log_is_the_library_game_and_thread_independent() {
    let a = ok_with(&["--threads", "1"]);
    let b = ok_with(&["--threads", "2"]);
    assert_eq!(a, b, "--threads 1 and 2");
    assert_eq!(ok_with(&["--threads", "2"]), a, "repeatable");
    assert_ne!(
        play_with("12", STRATEGIES, &[]),
        a,
        "another seed, another game"
    );
    let c = config(2, Ruleset::Tournament, "greedy:k=3,montecarlo:k=2:m=2", 11);
    assert_eq!(
        String::from_utf8(a.clone()).unwrap(),
        game_log_json(&c.play(0).unwrap())
    );
    let log: Value = serde_json::from_slice(&a).unwrap();
    check_log(&log);
    // --games 1 is game 0 of every run.
    let s = ok_with(&["--games", "2", "--threads", "1"]);
    assert_eq!(ok_with(&["--games", "2", "--threads", "2"]), s);
    let summary: Value = serde_json::from_slice(&s).unwrap();
    assert_eq!(summary["games"], 2);
    assert_eq!(summary["rounds"], 8);
    assert_eq!(
        String::from_utf8(s).unwrap(),
        games_summary_json(&c.play_many(2).unwrap())
    );
}

#[test]
fn the_summary_has_its_documented_shape() {
    let s: Value =
        serde_json::from_slice(&play_with("11", "random,greedy:k=2", &["--games", "3"])).unwrap();
    let keys: Vec<&str> = s.as_object().unwrap().keys().map(String::as_str).collect();
    let mut want = vec![
        "games",
        "seed",
        "players",
        "ruleset",
        "noise",
        "max_rounds",
        "seats",
        "teams",
        "draws",
        "unfinished",
        "rounds",
        "mean_rounds_per_game",
        "shots",
        "cut_off",
        "player_rounds",
        "twenties_per_player_round",
        "twenties_histogram",
        "hammer",
    ];
    want.sort();
    let mut keys = keys;
    keys.sort();
    assert_eq!(keys, want);
    for (t, team) in s["teams"].as_array().unwrap().iter().enumerate() {
        assert_eq!(u(&team["team"]), t as u64);
        let wins = &team["wins"];
        let p = wins["p"].as_f64().unwrap();
        let ci = wins["ci95"].as_array().unwrap();
        assert!(ci[0].as_f64().unwrap() <= p && p <= ci[1].as_f64().unwrap());
        for key in [
            "mean_round_points",
            "mean_round_total",
            "twenties_per_round",
            "mean_game_score",
        ] {
            assert!(team[key].as_f64().unwrap() >= 0.0, "{key}");
        }
        for key in ["twenties_per_player_round", "points_per_round"] {
            assert_mean_with_interval(&team[key]);
        }
        // In singles a team is one player: its 20s per player-round are its 20s per round.
        assert_eq!(
            team["twenties_per_player_round"]["mean"],
            team["twenties_per_round"]
        );
        assert_hammer(&team["hammer"]);
    }
    assert_eq!(s["mean_rounds_per_game"], 4.0);
    assert_eq!(s["player_rounds"], 24);
    assert_mean_with_interval(&s["twenties_per_player_round"]);
    let histogram = s["twenties_histogram"].as_array().unwrap();
    let counted: u64 = histogram.iter().map(|b| u(&b[1])).sum();
    assert_eq!(counted, 24, "a bin per player-round: {histogram:?}");
    assert!(histogram.iter().all(|b| u(&b[1]) > 0), "no empty bins");
    assert_hammer(&s["hammer"]);
    assert_eq!(u(&s["hammer"]["rounds"]), 12, "every round has a hammer");
    let team_hammers: u64 = (0..2).map(|t| u(&s["teams"][t]["hammer"]["rounds"])).sum();
    assert_eq!(team_hammers, 12);
    assert_eq!(s["strategies"], Value::Null);
    assert_eq!(s["seats"][0]["strategy"], "random:spin=0");
}

/// `{"mean": m, "ci95": [lo, hi]}` with `lo <= m <= hi`.
fn assert_mean_with_interval(v: &Value) {
    let m = v["mean"].as_f64().unwrap();
    let ci = v["ci95"].as_array().unwrap();
    let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
    assert!(lo <= m && m <= hi, "{v}");
}

/// `{"rounds": n, "won": p, "tied": p, "lost": p}`, the three counts adding up to `n`.
fn assert_hammer(v: &Value) {
    let n = u(&v["rounds"]);
    let counts: u64 = ["won", "tied", "lost"]
        .iter()
        .map(|k| u(&v[k]["count"]))
        .sum();
    assert_eq!(counts, n, "{v}");
}

/// The summary's real-game statistics are what `crokinole stats` counts from the match
/// records of the same games (`crokinole::play::stats`, the definitions of the published
/// tournament figures): 20s per player-round, their histogram, the hammer's rounds, round
/// points per round. Singles and doubles, tournament and traditional rules.
#[test]
fn the_summary_counts_rounds_as_match_records_do() {
    use crokinole::play::stats::{RoundFacts, RoundStatsTally};
    for (players, ruleset, strategies, games) in [
        (2, Ruleset::Tournament, "random,greedy:k=2", 6),
        (4, Ruleset::Tournament, "greedy:k=2,random", 3),
        (2, Ruleset::Traditional, "greedy:k=2,greedy:k=2", 2),
    ] {
        let c = PlayConfig {
            max_rounds: 6,
            ..config(players, ruleset, strategies, 21)
        };
        let summary = c.play_many(games).unwrap();
        let names: [Vec<String>; 2] = [0, 1].map(|t| {
            c.seats()
                .iter()
                .filter(|s| s.team == t)
                .map(|s| format!("seat {}", s.seat))
                .collect()
        });
        let mut records = RoundStatsTally::default();
        for g in 0..games {
            let facts = RoundFacts::of_game(&c.play(g).unwrap());
            records.add_match(&facts, [&names[0], &names[1]]);
        }
        let stats = records.stats();
        let all = records.stats().all;
        let what = format!("{players} players, {}", ruleset.name());
        assert_eq!(summary.rounds, all.rounds, "{what}");
        assert_eq!(summary.hammer.rounds, all.hammer_rounds, "{what}");
        assert_eq!(summary.hammer.won, all.hammer_won, "{what}");
        assert_eq!(summary.hammer.tied, all.hammer_tied, "{what}");
        assert_eq!(summary.hammer.lost, all.hammer_lost, "{what}");
        assert_eq!(summary.twenties_histogram, all.twenties_histogram, "{what}");
        let per_player = all.twenties_per_player_round.unwrap();
        assert!(
            (summary.twenties_per_player_round.mean - per_player).abs() < 1e-12,
            "{what}: {} vs {per_player}",
            summary.twenties_per_player_round.mean
        );
        for t in 0..2 {
            // A player's line: its team's rounds, and the hammer when its team had it.
            let first = format!(
                "seat {}",
                c.seats().iter().find(|s| s.team == t as u8).unwrap().seat
            );
            let line = stats
                .players
                .iter()
                .find(|l| l.name.as_deref() == Some(first.as_str()))
                .unwrap();
            let s = &summary.teams[t];
            assert_eq!(
                Some(s.points_per_round.mean),
                line.points_per_round,
                "{what}, team {t}"
            );
            assert_eq!(s.hammer.rounds, line.hammer_rounds, "{what}, team {t}");
            assert_eq!(s.hammer.won, line.hammer_won, "{what}, team {t}");
            assert_eq!(s.hammer.lost, line.hammer_lost, "{what}, team {t}");
            let size = f64::from(players / 2);
            let tw = line.twenties_per_player_round.unwrap() / size;
            assert!(
                (s.twenties_per_player_round.mean - tw).abs() < 1e-12,
                "{what}, team {t}"
            );
        }
    }
}

#[test]
fn a_noise_file_equals_the_inline_noise() {
    let dir = std::env::temp_dir().join(format!("crokinole-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("noise.json");
    std::fs::write(&path, r#"{"offset": 0.002, "aim": 0.02, "speed": 0.05}"#).unwrap();
    let file = ok_with(&["--noise", path.to_str().unwrap()]);
    let inline = ok_with(&["--noise", "offset=0.002,aim=0.02,speed=0.05"]);
    assert_eq!(file, inline);
    let none = ok_with(&["--noise", "none"]);
    let log: Value = serde_json::from_slice(&none).unwrap();
    for s in log["shots"].as_array().unwrap() {
        assert_eq!(s["intended"], s["executed"], "no noise: played as meant");
    }
    // --output writes the same bytes to a file.
    let out = dir.join("log.json");
    assert!(ok_with(&["--noise", "none", "-o", out.to_str().unwrap()]).is_empty());
    assert_eq!(std::fs::read(&out).unwrap(), none);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_flags_are_refused() {
    let cases: &[(&[&str], &str)] = &[
        (&["play", "--players", "3"], "--players"),
        (
            &["play", "--ruleset", "house"],
            "possible values: traditional, tournament",
        ),
        (
            &["play", "--strategies", "greedy"],
            "field `strategies`: expected 2 strategies",
        ),
        (
            &[
                "play",
                "--players",
                "4",
                "--strategies",
                "random,random,random",
            ],
            "4 strategies (one per seat) or 2 (one per team)",
        ),
        (
            &["play", "--strategies", "greedy,smart"],
            "field `strategies[1]`: unknown strategy `smart`",
        ),
        (
            &["play", "--strategies", "greedy:k=0,random"],
            "field `strategies[0]`",
        ),
        (
            &["play", "--strategies", "random:k=3,random"],
            "unknown key `k`",
        ),
        (
            &["play", "--strategies", "greedy:spin=1e9,random"],
            "`spin` must be between 0",
        ),
        (
            &["play", "--noise", "aim=-0.1"],
            "field `noise.aim`: a width must not be negative",
        ),
        (&["play", "--noise", "wobble=1"], "unknown key `wobble`"),
        (&["play", "--noise", "aim=x"], "field `noise.aim`"),
        (&["play", "--noise", "no-such-file.json"], "field `noise`"),
        (&["play", "--games", "0"], "--games"),
        (&["play", "--max-rounds", "0"], "--max-rounds"),
        (&["play", "--seed=-1"], "--seed"),
    ];
    for (args, fragment) in cases {
        let r = run(args);
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}");
        assert!(r.stderr.contains(fragment), "{args:?}: {}", r.stderr);
    }
}

/// More games than one run plays (`play::MAX_GAMES`) is bad input like every other refused
/// flag: exit 2 with the field named, nothing printed; not 1, the exit of a read or write
/// failure.
#[test]
fn too_many_games_are_refused_as_bad_input() {
    run(&["play", "--games", "2e6"]).assert_refused(
        "--games 2e6",
        &["field `games`", "must be 1 to 1e6", "got 2000000"],
    );
}

/// Issue #42, item 1: `montecarlo:k=65536:m=65536` (153 bytes over HTTP) built 4.3 billion
/// flicks in one vector before any work; the product is now bounded and refused up front.
#[test]
fn a_montecarlo_strategy_over_the_sample_bound_is_refused_before_any_work() {
    use crokinole::play::MAX_MONTECARLO_SAMPLES;
    let noise = Noise::NONE;
    let err = AnyStrategy::parse("montecarlo:k=65536:m=65536", noise).unwrap_err();
    assert!(
        err.contains("4294967296 samples a decision")
            && err.contains(&format!("bound of {MAX_MONTECARLO_SAMPLES}")),
        "{err}"
    );
    assert!(AnyStrategy::parse("mc:k=257:m=256", noise).is_err());
    assert!(AnyStrategy::parse("montecarlo:k=256:m=256", noise).is_ok());
    assert!(
        AnyStrategy::parse("montecarlo:k=65536", noise).is_err(),
        "k x the default m"
    );
    assert!(AnyStrategy::parse("montecarlo:k=8192", noise).is_ok());
    // A library caller building the strategy directly is refused by its check.
    let direct = MonteCarlo {
        k: 65_536,
        m: 2,
        ..MonteCarlo::default()
    };
    let e = direct.check(&Physics::default()).unwrap_err();
    assert!(e.to_string().contains("k x m"), "{e}");

    // The command line refuses it at once, exit 2, naming the bound (it grew to 3-4 GB).
    let r = binary::run(
        &[
            "play",
            "--strategies",
            "montecarlo:k=65536:m=65536,greedy",
            "--games",
            "1",
        ],
        None,
    );
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("samples a decision"), "{}", r.stderr);
}
