//! Crokinole Match Notation (docs/cmn.md): `play --cmn` writes every game as a match
//! record, `crokinole stats` reads records (ours or an app's) and gives the figures the
//! games themselves give; unknown keys are accepted, malformed records refused naming
//! the field.

use crate::binary::{self, fixture, scratch};
use crokinole::io::{CmnEvent, CmnMatch, cmn_batch_json, parse_cmn};
use crokinole::play::PlayConfig;
use crokinole::play::stats::{RoundFacts, last_seat};
use crokinole::rules::Ruleset;
use serde_json::Value;

fn config(seed: u64) -> PlayConfig {
    crate::play::config_with_noise(2, Ruleset::Tournament, "greedy:k=4,random", seed, "club")
}

#[test]
fn records_of_our_games_read_back_as_the_same_matches() {
    let c = config(4);
    let matches: Vec<CmnMatch> = (0..3)
        .map(|g| CmnMatch::of_game(&c.play(g).unwrap(), None))
        .collect();
    let event = CmnEvent {
        name: "test".into(),
        kind: "simulation".into(),
    };
    let text = cmn_batch_json(&matches, &event);
    let back = parse_cmn(&text).unwrap();
    assert_eq!(back, matches);
    // A game of the tournament rule set: 4 rounds, each with its hammer and 20s.
    assert_eq!(matches[0].rounds.len(), 4);
    assert!(matches[0].rounds.iter().all(|r| r.hammer.is_some()));
    assert_eq!(matches[0].fixed_rounds, Some(4));
}

#[test]
fn the_hammer_is_the_team_that_shoots_last() {
    let log = config(9).play(0).unwrap();
    let facts = RoundFacts::of_game(&log);
    for (r, f) in log.rounds.iter().zip(&facts) {
        let last = last_seat(r.first_seat, 2).unwrap();
        assert_ne!(last, r.first_seat);
        assert_eq!(f.hammer, Some(if last == 0 { 0 } else { 1 }));
        // The round's last shot is the hammer seat's.
        let shots: Vec<_> = log.shots.iter().filter(|s| s.round == r.round).collect();
        assert_eq!(shots.last().unwrap().seat, last, "round {}", r.round);
    }
}

/// `play --cmn` then `stats`: the 20s per player-round and the hammer's record are those
/// of the games' own rounds, counted here from the game logs.
#[test]
fn stats_of_play_records_are_the_games_own_figures() {
    let dir = scratch("cmn_stats_of_play");
    let cmn = dir.join("games.cmn.json");
    let args = [
        "play",
        "--strategies",
        "greedy:k=4,random",
        "--games",
        "6",
        "--seed",
        "4",
        "--noise",
        "club",
        "--ruleset",
        "tournament",
        "--cmn",
        cmn.to_str().unwrap(),
    ];
    let summary_with = binary::ok(&args);
    // The summary does not change when the records are asked for.
    assert_eq!(summary_with, binary::ok(&args[..args.len() - 2]));
    let stats: Value =
        serde_json::from_slice(&binary::ok(&["stats", cmn.to_str().unwrap()])).unwrap();

    let c = config(4);
    let (mut twenties, mut player_rounds, mut hammer) = (0u64, 0u64, [0u64; 3]);
    for g in 0..6 {
        let log = c.play(g).unwrap();
        for r in &log.rounds {
            twenties += u64::from(r.twenties[0] + r.twenties[1]);
            player_rounds += 2;
            let h = usize::from(last_seat(r.first_seat, 2).unwrap() != 0);
            let other = 1 - h;
            hammer[match r.totals[h].cmp(&r.totals[other]) {
                std::cmp::Ordering::Greater => 0,
                std::cmp::Ordering::Equal => 1,
                std::cmp::Ordering::Less => 2,
            }] += 1;
        }
    }
    let all = &stats["all"];
    assert_eq!(stats["matches"], 6);
    assert_eq!(
        all["twenties_per_player_round"].as_f64().unwrap(),
        twenties as f64 / player_rounds as f64
    );
    assert_eq!(all["hammer_won"]["count"], hammer[0]);
    assert_eq!(all["hammer_tied"]["count"], hammer[1]);
    assert_eq!(all["hammer_lost"]["count"], hammer[2]);
    assert_eq!(all["rounds"].as_u64().unwrap() * 2, player_rounds);
}

#[test]
fn an_apps_records_are_read_with_their_unknown_keys() {
    let path = fixture("cmn", "club-night.json");
    let stats: Value = serde_json::from_slice(&binary::ok(&["stats", &path])).unwrap();
    let all = &stats["all"];
    assert_eq!(stats["matches"], 2);
    assert_eq!(all["rounds"], 7);
    // 20s recorded in 6 rounds (12 player-rounds): 2+1+0+2+1+1+1+1+3+0+0+1 = 13.
    assert_eq!(
        all["twenties_per_player_round"].as_f64().unwrap(),
        13.0 / 12.0
    );
    // Hammer recorded in 6 rounds: won 2 (round 3 of match 1, round 1 of match 2), tied 1
    // (round 4 of match 1), lost 3 (rounds 1 and 2 of match 1, round 3 of match 2).
    assert_eq!(all["hammer_rounds"], 6);
    assert_eq!(all["hammer_won"]["count"], 2);
    assert_eq!(all["hammer_tied"]["count"], 1);
    assert_eq!(all["hammer_lost"]["count"], 3);
    let names: Vec<&str> = stats["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Avery", "Blake", "Casey"]);
    assert_eq!(stats["players"][0]["rounds"], 7);
}

#[test]
fn a_malformed_record_is_refused_naming_the_field() {
    let good = std::fs::read_to_string(fixture("cmn", "club-night.json")).unwrap();
    let cases = [
        (
            r#""hammer": 1, "scores": [65, 40]"#,
            r#""hammer": 2, "scores": [65, 40]"#,
            "matches[0].match.games[0].hammer",
        ),
        (
            r#"{"winner": 0},"#,
            r#"{"hammer": 1},"#,
            "matches[1].match.games[1]",
        ),
        (
            r#""format": "singles",
        "teams": [{"players": [{"name": "Avery"}]}, {"players": [{"name": "Casey"}]}]"#,
            r#""format": "triples",
        "teams": [{"players": [{"name": "Avery"}]}, {"players": [{"name": "Casey"}]}]"#,
            "matches[1].match.format",
        ),
        (
            r#"{"players": [{"name": "Casey"}]}"#,
            r#"{"players": []}"#,
            "matches[1].match.teams[1].players",
        ),
        (
            r#""twenties": [3, 0]"#,
            r#""twenties": [3, "x"]"#,
            "twenties",
        ),
        (r#""cmn": "1.0""#, r#""cmn": "2.0""#, "cmn"),
    ];
    let dir = scratch("cmn_malformed");
    for (k, (from, to, field)) in cases.iter().enumerate() {
        assert!(good.contains(from), "case {k}");
        let path = dir.join(format!("bad{k}.json"));
        std::fs::write(&path, good.replacen(from, to, 1)).unwrap();
        let r = binary::run(&["stats", path.to_str().unwrap()], None);
        assert_eq!(r.code, Some(2), "case {k}: {}", r.stderr);
        assert!(
            r.stderr.contains(field),
            "case {k}: expected {field} in {}",
            r.stderr
        );
        assert!(r.stderr.contains(&format!("bad{k}.json")), "{}", r.stderr);
    }
    // Another kind of file is named as such.
    let r = binary::run(&["stats", &fixture("", "example.json")], None);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("shot file"), "{}", r.stderr);
}

/// `tournament --cmn` then `stats`: the 20s and the hammer's record are the tournament's
/// own, counted from the rounds the referee played; each entrant's rounds by name.
#[test]
fn stats_of_tournament_records_are_the_tournaments_own_figures() {
    use crokinole::cancel::Cancel;
    use crokinole::referee::{parse_tournament, run_tournament};
    let dir = scratch("cmn_stats_of_tournament");
    let config_text = r#"{"players": [{"name": "greedy", "player": "builtin:greedy:k=4"},
        {"name": "random", "player": "builtin:random"}, {"name": "mc", "player": "builtin:mc:k=2:m=2"}],
        "games": 1, "ruleset": "tournament", "noise": "club", "seed": 11}"#;
    let config_path = dir.join("t.json");
    std::fs::write(&config_path, config_text).unwrap();
    let cmn = dir.join("t.cmn.json");
    let logs = dir.join("logs");
    binary::ok(&[
        "tournament",
        config_path.to_str().unwrap(),
        "--logs",
        logs.to_str().unwrap(),
        "--cmn",
        cmn.to_str().unwrap(),
    ]);
    let stats: Value =
        serde_json::from_slice(&binary::ok(&["stats", cmn.to_str().unwrap()])).unwrap();

    let config = parse_tournament(config_text).unwrap();
    let results =
        run_tournament(&config, &dir.join("logs2"), 2, &Cancel::never(), &|_, _| {}).unwrap();
    let (mut twenties, mut rounds, mut won) = (0u64, 0u64, 0u64);
    for (_, o) in &results.games {
        for r in &o.as_ref().unwrap().rounds {
            twenties += u64::from(r.twenties[0] + r.twenties[1]);
            rounds += 1;
            let h = usize::from(last_seat(r.first_seat, 2).unwrap() != 0);
            won += u64::from(r.totals[h] > r.totals[1 - h]);
        }
    }
    assert_eq!(stats["matches"], results.games.len() as u64);
    assert_eq!(stats["rounds"], rounds);
    assert_eq!(
        stats["all"]["twenties_per_player_round"].as_f64().unwrap(),
        twenties as f64 / (2 * rounds) as f64
    );
    assert_eq!(stats["all"]["hammer_won"]["count"], won);
    let names: Vec<&str> = stats["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["greedy", "mc", "random"]);
}

#[test]
fn a_refereed_match_writes_its_record_with_the_players_names() {
    let dir = scratch("cmn_match");
    let (log, cmn) = (dir.join("m.jsonl"), dir.join("m.cmn.json"));
    let out = binary::ok(&[
        "match",
        "--player",
        "builtin:greedy",
        "--player",
        "builtin:random",
        "--seed",
        "3",
        "--ruleset",
        "tournament",
        "--log",
        log.to_str().unwrap(),
        "--cmn",
        cmn.to_str().unwrap(),
    ]);
    let printed = String::from_utf8(out).unwrap();
    let m = &parse_cmn(&std::fs::read_to_string(&cmn).unwrap()).unwrap()[0];
    assert_eq!(m.teams[0], ["builtin:greedy:k=16:spin=0"]);
    assert_eq!(m.teams[1], ["builtin:random:spin=0"]);
    assert_eq!(m.rounds.len(), 4);
    assert!(
        m.rounds
            .iter()
            .all(|r| r.hammer.is_some() && r.twenties.is_some())
    );
    let winner = ["team 0 wins", "team 1 wins"]
        .iter()
        .position(|w| printed.contains(w))
        .map(|t| t as u8);
    assert_eq!(m.winner, winner, "{printed}");
    // The record may not overwrite the log.
    let r = binary::run(
        &[
            "match",
            "--player",
            "builtin:random",
            "--player",
            "builtin:random",
            "--log",
            log.to_str().unwrap(),
            "--cmn",
            log.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("cmn"), "{}", r.stderr);
}
