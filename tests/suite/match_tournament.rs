//! `crokinole tournament` (docs/match.md, "Tournaments"): the schedule swaps seats, the
//! same configuration and seed give the same games and standings whatever the number of
//! games at once, every game leaves a log that replays, and bad files are refused.

use crate::binary::scratch;
use crate::match_referee::{messages, simple_py};
use crokinole::cancel::Cancel;
use crokinole::referee::tournament::{game_log_path, standings_text};
use crokinole::referee::{parse_tournament, replay_log, run_tournament};
use serde_json::Value;

fn config_text(seed: u64) -> String {
    format!(
        r#"{{"players": [{{"name": "greedy", "player": "builtin:greedy:k=2"}},
                        {{"name": "random", "player": "builtin:random"}},
                        {{"name": "simple", "player": "{}"}}],
            "games": 1, "ruleset": "tournament", "noise": "club", "max_rounds": 2,
            "seed": {seed}}}"#,
        simple_py(4)
    )
}

/// The shots of a game log, as the referee sent them to seat 0.
fn shots(log: &str) -> Vec<Value> {
    messages(log)
        .into_iter()
        .filter(|(d, s, m)| d == "to" && *s == 0 && m["type"] == "shot")
        .map(|(_, _, m)| m)
        .collect()
}

#[test]
fn a_tournament_is_reproducible_from_its_seed_whatever_the_jobs() {
    let config = parse_tournament(&config_text(17)).unwrap();
    let schedule = config.schedule();
    assert_eq!(schedule.len(), 6);
    for pair in schedule.chunks(2) {
        assert_eq!(
            (pair[0].first, pair[0].second),
            (pair[1].second, pair[1].first)
        );
    }
    let run = |jobs, test: &str| {
        let dir = scratch(test);
        let r = run_tournament(&config, &dir, jobs, &Cancel::never(), &|_, _| {}).unwrap();
        let logs: Vec<String> = (0..6)
            .map(|k| std::fs::read_to_string(game_log_path(&dir, k)).unwrap())
            .collect();
        (r, logs)
    };
    let (one, logs_one) = run(1, "one");
    let (three, logs_three) = run(3, "three");
    assert!(!one.stopped);
    assert_eq!(one, three);
    assert_eq!(
        standings_text(&config, &one),
        standings_text(&config, &three)
    );
    for (a, b) in logs_one.iter().zip(&logs_three) {
        assert_eq!(shots(a), shots(b));
        replay_log(a).unwrap();
    }
    let text = standings_text(&config, &one);
    assert!(
        text.contains("Bradley-Terry") && text.contains("95 % interval"),
        "{text}"
    );
    let other = parse_tournament(&config_text(18)).unwrap();
    let dir = scratch("other");
    let r = run_tournament(&other, &dir, 2, &Cancel::never(), &|_, _| {}).unwrap();
    assert_ne!(r.games, one.games);
}

#[test]
fn bad_tournament_files_are_refused_naming_the_field() {
    let e = parse_tournament(r#"{"players": [{"name": "a", "player": "builtin:random"}]}"#)
        .unwrap_err();
    assert_eq!(e.field, "players");
    let e = parse_tournament(
        r#"{"players": [{"name": "a", "player": "builtin:random"},
                        {"name": "a", "player": "builtin:greedy"}]}"#,
    )
    .unwrap_err();
    assert_eq!(e.field, "players[1].name");
    let e = parse_tournament(
        r#"{"players": [{"name": "a", "player": "builtin:nope"},
                        {"name": "b", "player": "builtin:greedy"}]}"#,
    )
    .unwrap_err();
    assert_eq!(e.field, "players[0].player");
    let e = parse_tournament(
        r#"{"players": [{"name": "a", "player": "x"}, {"name": "b", "player": "y"}],
            "rounds": 3}"#,
    )
    .unwrap_err();
    assert_eq!(e.field, "rounds");
    let e = parse_tournament(
        r#"{"players": [{"name": "a", "player": "x"}, {"name": "b", "player": "y"}],
            "clock": {"total_s": -1}}"#,
    )
    .unwrap_err();
    assert_eq!(e.field, "clock.total_s");
}

/// `tournament --json`: the standings and every game's result as JSON, the same figures
/// as the table (issue #40: the standings were printed only as text).
#[test]
fn the_results_as_json_hold_the_tables_figures_and_every_game() {
    let dir = scratch("tournament_json");
    let text = r#"{"players": [{"name": "greedy", "player": "builtin:greedy:k=2"},
        {"name": "random", "player": "builtin:random"}], "games": 2, "ruleset": "tournament",
        "noise": "club", "max_rounds": 2, "seed": 3}"#;
    let path = dir.join("t.json");
    std::fs::write(&path, text).unwrap();
    let run = |json: bool| {
        let logs = dir.join(if json { "a" } else { "b" });
        let mut args = vec![
            "tournament",
            path.to_str().unwrap(),
            "--logs",
            logs.to_str().unwrap(),
        ];
        if json {
            args.push("--json");
        }
        String::from_utf8(crate::binary::ok(&args)).unwrap()
    };
    let (json, table) = (run(true), run(false));
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        (
            v["entrants"].as_u64(),
            v["games"].as_u64(),
            v["played"].as_u64()
        ),
        (Some(2), Some(4), Some(4))
    );
    assert_eq!(v["results"].as_array().unwrap().len(), 4);
    for s in v["standings"].as_array().unwrap() {
        // The table's line of this entrant holds the same rating and record.
        let name = s["name"].as_str().unwrap();
        let line = table
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(name))
            .unwrap();
        assert!(
            line.contains(&format!("{:.1}", s["rating"].as_f64().unwrap())),
            "{line}"
        );
        let won = s["won"].as_u64().unwrap();
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[words.len() - 4], won.to_string(), "{line}");
    }
    let wins: u64 = v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["won"].as_u64().unwrap())
        .sum();
    let decided = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| !g["winner"].is_null())
        .count();
    assert_eq!(wins, decided as u64);
}

/// Issue #42, item 5: an entrant's name is printed in the standings; one with a control
/// character is refused, naming the entrant.
#[test]
fn an_entrant_name_with_a_control_character_is_refused() {
    let e = parse_tournament(
        r#"{"players": [{"name": "a\nteam 0 wins", "player": "builtin:random"},
                        {"name": "b", "player": "builtin:random"}]}"#,
    )
    .unwrap_err();
    assert_eq!(e.field, "players[0].name");
    assert!(e.problem.contains("U+000A"), "{}", e.problem);
}
