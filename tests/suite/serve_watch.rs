//! The page's match endpoints as plain functions: `POST /api/match/watch` plays a match of
//! built-ins up to the shots asked for, the same match each time (a request for one more
//! shot repeats the earlier ones bit for bit), its log replays (the library and `crokinole
//! match replay`); `POST /api/match/replay` turns a match log into shot files whose
//! simulation gives the logged outcomes, says whether the log verified and names the line
//! of a tampered one; programs are refused naming the field; every bound holds.

use crate::binary::scratch;
use crokinole::cancel::Cancel;
use crokinole::referee::{MatchError, parse_watch, watch_match};
use crokinole::serve::Limits;
use crokinole::serve::api::{Query, simulate};
use crokinole::serve::watch::{MAX_WATCH_SHOTS, replay, watch};
use serde_json::{Value, json};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_crokinole");

/// Two built-ins, one round of the tournament rules (16 shots).
fn request() -> Value {
    json!({
        "players": 2,
        "ruleset": "tournament",
        "seats": [
            {"player": "builtin:greedy:k=2", "skill": "club"},
            {"player": "builtin:random", "noise": {"aim": 0.01, "speed": 0.02}}
        ],
        "seed": 7,
        "max_rounds": 1
    })
}

/// Four built-ins of every kind, one round (24 shots).
fn four_players() -> Value {
    let mut r = request();
    r["players"] = json!(4);
    r["seats"] = json!([
        {"player": "builtin:greedy", "skill": "elite"},
        {"player": "builtin:random"},
        {"player": "builtin:greedy:k=2", "skill": "casual"},
        {"player": "builtin:random", "skill": "club"}
    ]);
    r
}

fn call(
    endpoint: fn(&Query, &[u8], &Limits, &Cancel) -> crokinole::serve::api::Reply,
    query: &str,
    body: &str,
    limits: &Limits,
) -> (u16, Value) {
    let reply = endpoint(
        &Query::parse(query),
        body.as_bytes(),
        limits,
        &Cancel::never(),
    );
    let v = serde_json::from_slice(&reply.body).unwrap_or(Value::Null);
    (reply.status, v)
}

fn watched(shots: u64) -> Value {
    let (status, v) = call(
        watch,
        &format!("shots={shots}&log"),
        &request().to_string(),
        &Limits::default(),
    );
    assert_eq!(status, 200, "{v}");
    v
}

/// The logged outcome's disc positions of every shot and their replays'.
fn positions(v: &Value) -> Vec<Value> {
    v["discs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["pos"].clone())
        .collect()
}

#[test]
fn a_watched_match_grows_a_shot_at_a_time_the_same_match_each_time() {
    let one = watched(1);
    assert_eq!(one["over"], false);
    assert_eq!(one["view"]["log"]["shots"].as_array().unwrap().len(), 1);
    assert_eq!(one["view"]["verified"], true, "{}", one["view"]["problem"]);
    assert_eq!(one["view"]["stopped"], true);
    let two = watched(2);
    let s = &two["view"]["log"]["shots"];
    assert_eq!(s.as_array().unwrap().len(), 2);
    for key in ["seat", "intended", "executed", "outcome", "scores"] {
        assert_eq!(s[0][key], one["view"]["log"]["shots"][0][key], "{key}");
    }
    // With `seen`, only the new shots (and no log while the game goes on).
    let (status, new) = call(
        watch,
        "shots=2&seen=1",
        &request().to_string(),
        &Limits::default(),
    );
    assert_eq!(status, 200);
    assert_eq!(new["view"]["from"], 1);
    assert_eq!(new["view"]["shots"].as_array().unwrap().len(), 1);
    assert_eq!(new["view"]["shots"][0], two["view"]["shots"][1]);
    assert_eq!(new["view"]["log"]["shots"][0]["outcome"], s[1]["outcome"]);
    assert!(new.get("log").is_none());
    // Players' names come from their `ready`.
    let name = two["view"]["seats"][0]["name"].as_str().unwrap();
    assert!(name.starts_with("builtin:greedy:k=2"), "{name}");
    assert_eq!(two["view"]["seats"][1]["name"], "builtin:random:spin=0");
}

#[test]
fn a_watched_match_to_its_end_replays_with_crokinole_match_replay() {
    let all = watched(MAX_WATCH_SHOTS);
    assert_eq!(all["over"], true);
    let view = &all["view"];
    assert_eq!(view["verified"], true, "{}", view["problem"]);
    assert_eq!(view["log"]["shots"].as_array().unwrap().len(), 16);
    assert_eq!(view["end"]["reason"], "rounds");
    let last = &view["log"]["shots"][15];
    assert_eq!(last["round_end"]["scores"], view["end"]["scores"]);
    let path = scratch("watch-end").join("watched.jsonl");
    std::fs::write(&path, all["log"].as_str().unwrap()).unwrap();
    let out = Command::new(BIN)
        .args(["match", "replay", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("ok: "));
}

#[test]
fn a_match_logs_shots_simulated_again_give_the_logged_outcomes() {
    let log = watched(MAX_WATCH_SHOTS)["log"]
        .as_str()
        .unwrap()
        .to_string();
    let limits = Limits::default();
    let (status, v) = call(replay, "", &log, &limits);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["kind"], "match");
    assert_eq!(v["verified"], true);
    assert_eq!(v["problem"], Value::Null);
    let files = v["shots"].as_array().unwrap();
    let logged = v["log"]["shots"].as_array().unwrap();
    assert_eq!(files.len(), 16);
    for (k, (file, shot)) in files.iter().zip(logged).enumerate() {
        let (status, out) = call(simulate, "rules=tournament", &file.to_string(), &limits);
        assert_eq!(status, 200, "shot {k}: {out}");
        let o = &out["outcomes"][0];
        assert_eq!(positions(o), positions(&shot["outcome"]), "shot {k}");
        assert_eq!(o["rules"]["scores"], shot["verdict"]["scores"], "shot {k}");
    }
}

#[test]
fn a_four_player_match_is_watched_to_its_end() {
    let (status, v) = call(
        watch,
        "shots=240",
        &four_players().to_string(),
        &Limits::default(),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["over"], true);
    assert_eq!(v["view"]["verified"], true, "{}", v["view"]["problem"]);
    let seats: Vec<u64> = v["view"]["log"]["shots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["seat"].as_u64().unwrap())
        .collect();
    // One round of the tournament rules: six discs a seat.
    assert_eq!(seats.len(), 24);
    for seat in 0..4 {
        assert_eq!(seats.iter().filter(|&&s| s == seat).count(), 6, "{seats:?}");
    }
    crokinole::referee::replay_log(v["log"].as_str().unwrap()).unwrap();
}

#[test]
fn a_tampered_match_log_is_shown_not_verified_naming_the_line() {
    let log = watched(4)["log"].as_str().unwrap().to_string();
    let (bad, k) = crate::match_cli::tampered(&log);
    let (status, v) = call(replay, "", &bad, &Limits::default());
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["verified"], false);
    assert_eq!(v["problem"]["line"], k + 1, "{}", v["problem"]);
    // The first shot's lines (its turn to the next turn) hold the tampered line.
    let lines = &v["log"]["shots"][0]["lines"];
    let line = k as u64 + 1;
    assert!(
        (lines[0].as_u64().unwrap()..=lines[1].as_u64().unwrap()).contains(&line),
        "{lines}"
    );
    assert!(v["log"]["shots"][1]["lines"][0].as_u64().unwrap() > lines[1].as_u64().unwrap());
    // The shots are still shown, as the log tells them.
    assert_eq!(v["log"]["shots"].as_array().unwrap().len(), 4);
}

#[test]
fn programs_and_network_players_are_refused_naming_the_seat() {
    let limits = Limits::default();
    for player in ["python3 player.py", "tcp", "builtin"] {
        let mut r = request();
        r["seats"][1]["player"] = json!(player);
        let (status, v) = call(watch, "", &r.to_string(), &limits);
        assert_eq!(status, 400, "{player}");
        let e = v["error"].as_str().unwrap();
        assert!(e.contains("seats[1].player"), "{e}");
    }
}

#[test]
fn the_watch_and_replay_bounds_hold() {
    let limits = Limits::default();
    let body = request().to_string();
    for q in [
        "shots=0",
        "shots=241",
        "shots=x",
        "seen=2",
        "shots=3&seen=4",
        "from=1",
    ] {
        let (status, v) = call(watch, q, &body, &limits);
        assert_eq!(status, 400, "{q}: {v}");
    }
    let field = |patch: Value| {
        let mut r = request();
        for (k, x) in patch.as_object().unwrap() {
            r[k] = x.clone();
        }
        let (status, v) = call(watch, "", &r.to_string(), &limits);
        assert_eq!(status, 400, "{patch}");
        v["error"].as_str().unwrap().to_string()
    };
    assert!(field(json!({"max_rounds": 11})).contains("max_rounds"));
    assert!(field(json!({"players": 3})).contains("players"));
    assert!(field(json!({"ruleset": "street"})).contains("ruleset"));
    assert!(field(json!({"clock": 1})).contains("clock"));
    let mut r = request();
    r["seats"][0]["skill"] = json!("wizard");
    let (_, v) = call(watch, "", &r.to_string(), &limits);
    assert!(v["error"].as_str().unwrap().contains("seats[0].skill"));
    // A log of more shots than the server replays: refused naming the line of the first
    // shot over.
    let log = watched(3)["log"].as_str().unwrap().to_string();
    let small = Limits {
        max_log_shots: 2,
        ..Limits::default()
    };
    let (status, v) = call(replay, "", &log, &small);
    assert_eq!(status, 400);
    assert!(
        v["error"].as_str().unwrap().contains("more than 2 shots"),
        "{v}"
    );
    // Not a match log at all.
    let (status, _) = call(replay, "", "{\"game\": 0}\n", &limits);
    assert_eq!(status, 400);
    // A budget already spent: 503, never a log called wrong.
    let spent = Cancel::new().with_budget(std::time::Duration::ZERO);
    let reply = replay(&Query::default(), log.as_bytes(), &limits, &spent);
    assert_eq!(reply.status, 503);
    let reply = watch(&Query::default(), body.as_bytes(), &limits, &spent);
    assert_eq!(reply.status, 503);
    // A strategy that would think for hours stops at the request's budget.
    let mut r = request();
    r["seats"][0]["player"] = json!("builtin:planner:budget=100000000");
    let budget = Cancel::new().with_budget(std::time::Duration::from_millis(300));
    let t = std::time::Instant::now();
    let reply = watch(
        &Query::default(),
        r.to_string().as_bytes(),
        &limits,
        &budget,
    );
    assert_eq!(
        reply.status,
        503,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
    assert!(
        t.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        t.elapsed()
    );
}

/// A player that answers every turn with two flicks the rules refuse: each of its shots is
/// forfeited (`bad flick`).
const BAD_PLAYER: &str = r#"sh -c 'while read -r line; do case "$line" in *"\"hello\""*) echo "{\"type\":\"ready\",\"name\":\"bad\"}";; *"\"turn\""*) f="{\"type\":\"flick\",\"offset\":0,\"aim\":0,\"speed\":-1,\"spin\":0}"; echo "$f"; echo "$f";; esac; done'"#;

#[test]
fn a_match_logs_forfeited_shots_are_shown_with_their_reason_and_no_shot_file() {
    let path = scratch("watch-forfeits").join("forfeits.jsonl");
    let out = Command::new(BIN)
        .args([
            "match",
            "--player",
            BAD_PLAYER,
            "--player",
            "builtin:random",
            "--seed",
            "9",
            "--ruleset",
            "tournament",
            "--max-rounds",
            "1",
            "--log",
            path.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log = std::fs::read_to_string(&path).unwrap();
    let limits = Limits::default();
    let (status, v) = call(replay, "", &log, &limits);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["verified"], true, "{}", v["problem"]);
    assert_eq!(v["seats"][0]["name"], "bad");
    let shots = v["log"]["shots"].as_array().unwrap();
    assert_eq!(shots.len(), 16);
    for (k, s) in shots.iter().enumerate() {
        let bad = s["seat"] == 0;
        assert_eq!(s["forfeit"] == "bad flick", bad, "shot {k}");
        assert_eq!(v["shots"][k].is_null(), bad, "shot {k}");
    }
    // A match log sent to the game-log replay is pointed to its endpoint.
    let (status, v) = call(crokinole::serve::api::replay, "", &log, &limits);
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("/api/match/replay"));
}

/// The shot messages of a match log (what a replay of the match shows), in order.
fn shot_lines(log: &str) -> Vec<Value> {
    log.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["dir"] == "to" && v["msg"]["type"] == "shot" && v["msg"]["seat"] == v["seat"])
        .map(|v| v["msg"].clone())
        .collect()
}

/// `body`'s match to shot `n` (at most its length), decided from its start, then resumed
/// from the flicks of 5, `n - 4` and `n + 16` shots: the same flicks and shots.
fn assert_resumes(body: &Value, n: usize) {
    let config = parse_watch(&body.to_string()).unwrap();
    let whole = watch_match(&config, n, Vec::new(), &Cancel::never()).unwrap();
    assert_eq!(whole.decisions, n);
    assert_eq!(whole.flicks.len(), n);
    let expected = shot_lines(&whole.log);
    assert_eq!(expected.len(), n);
    for from in [5, n - 4, n + 16] {
        let earlier = watch_match(&config, from, Vec::new(), &Cancel::never()).unwrap();
        let resumed = watch_match(&config, n, earlier.flicks.clone(), &Cancel::never()).unwrap();
        assert_eq!(resumed.decisions, n.saturating_sub(earlier.flicks.len()));
        assert!(
            resumed.flicks == whole.flicks,
            "from {from}: the flicks differ"
        );
        assert!(
            shot_lines(&resumed.log) == expected,
            "from {from}: the shots differ"
        );
    }
}

#[test]
fn a_match_resumed_from_its_decided_flicks_is_the_match_played_from_its_start() {
    // Two greedy players with noise over two rounds (32 shots), to shot 24; four players
    // of every kind over one round (24 shots), to its end.
    let mut two = request();
    two["seats"][1]["player"] = json!("builtin:greedy:k=3");
    two["max_rounds"] = json!(2);
    assert_resumes(&two, 24);
    assert_resumes(&four_players(), 24);
}

#[test]
fn a_resumed_match_plays_the_flicks_it_is_given_and_refuses_an_illegal_one() {
    let config = parse_watch(&request().to_string()).unwrap();
    let first = watch_match(&config, 1, Vec::new(), &Cancel::never()).unwrap();
    // Another legal flick: played as given, not decided again.
    let mut other = first.flicks[0];
    other.speed *= 0.5;
    let resumed = watch_match(&config, 1, vec![other], &Cancel::never()).unwrap();
    assert_eq!(resumed.decisions, 0);
    assert_eq!(resumed.flicks, vec![other]);
    let shot = &shot_lines(&resumed.log)[0];
    assert_eq!(shot["intended"]["speed"], json!(other.speed), "{shot}");
    // An offset off the shooting line: refused, naming the flick.
    let mut illegal = first.flicks[0];
    illegal.offset = 1.0;
    match watch_match(&config, 1, vec![illegal], &Cancel::never()) {
        Err(MatchError::Input(e)) => assert_eq!(e.field, "decided[0]", "{e}"),
        other => panic!("expected decided[0] refused, got {other:?}"),
    }
}

#[test]
fn a_match_watched_a_shot_at_a_time_is_the_match_watched_at_once() {
    // The endpoint keeps each match's decided flicks: request k + 1 decides one. What it
    // shows, shot by shot, is the match played whole from its start without them.
    let mut body = request();
    body["seed"] = json!(1234);
    let text = body.to_string();
    let mut shown = Vec::new();
    let mut over = false;
    let mut k = 0;
    while !over {
        let (status, v) = call(
            watch,
            &format!("shots={}&seen={k}", k + 1),
            &text,
            &Limits::default(),
        );
        assert_eq!(status, 200, "{v}");
        shown.extend(
            v["view"]["log"]["shots"]
                .as_array()
                .unwrap()
                .iter()
                .cloned(),
        );
        over = v["over"] == true;
        k += 1;
    }
    // The same request with a space more: other bytes, so nothing kept for it; played
    // from its start.
    let (_, at_once) = call(
        watch,
        &format!("shots={MAX_WATCH_SHOTS}"),
        &format!("{text} "),
        &Limits::default(),
    );
    let at_once = at_once["view"]["log"]["shots"].as_array().unwrap().clone();
    assert_eq!(shown.len(), 16);
    assert_eq!(at_once.len(), 16);
    for (k, (a, b)) in shown.iter().zip(&at_once).enumerate() {
        for key in ["seat", "intended", "executed", "outcome", "scores"] {
            assert_eq!(a[key], b[key], "shot {k}: {key}");
        }
    }
}
