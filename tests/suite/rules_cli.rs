//! `crokinole simulate --rules`: every shot judged by the rules layer. Crafted shot files
//! check the verdicts (an opening shot into the 15 stays, one into the 10 is removed, the
//! tournament rule keeps a shot whose struck disc reached the 15, a missed must-hit, a 20,
//! the ditch), that the disc states show the position after the rules while everything
//! else is the plain outcome, the refusals (missing seat, wrong team, illegal placement,
//! an empty seat) and byte-identical output for every thread count.

use crate::binary;

use binary::Run;

use serde_json::Value;

/// Runs the binary with `args`, feeding `stdin`.
fn run(args: &[&str], stdin: &str) -> Run {
    binary::run(args, Some(stdin))
}

/// The crafted shots, one a line, and what the rules make of them.
const SHOTS: &[&str] = &[
    // 0: an opening shot that stops in the 15 zone: valid, it stays.
    r#"{"discs": [], "shooter": {"team": 0, "pos": [0.0, -0.3048], "vel": [0.0, 0.76]}, "seat": 0}"#,
    // 1: an opening shot that stops in the 10 zone: removed by the opening rule.
    r#"{"discs": [], "shooter": {"team": 0, "pos": [0.0, -0.3048], "vel": [0.0, 0.6]}, "seat": 0}"#,
    // 2: an opening shot pushing an own disc from the 10 into the 15 and stopping in the
    //    10: traditional removes the shooter only; tournament keeps both (a struck disc
    //    reached the 15).
    r#"{"discs": [{"team": 0, "pos": [0.0, -0.2]}], "shooter": {"team": 0, "pos": [0.0, -0.3048], "vel": [0.0, 0.8]}, "seat": 0}"#,
    // 3: seat 2 misses the opponent disc in the 10 zone: removed by the must-hit rule.
    r#"{"discs": [{"team": 0, "pos": [0.15, 0.0]}], "shooter": {"team": 1, "pos": [0.0, 0.3048], "vel": [0.0, -0.6]}, "seat": 2}"#,
    // 4: four players, seat 1 knocks the opponent disc into the 20 hole (a 20 for its team).
    r#"{"discs": [{"team": 0, "pos": [-0.12, 0.0]}], "shooter": {"team": 1, "pos": [-0.3048, 0.0], "vel": [1.5, 0.0]}, "seat": 1, "players": 4}"#,
    // 5: a shot straight into the 20 hole.
    r#"{"discs": [], "shooter": {"team": 0, "pos": [0.0, -0.3048], "vel": [0.0, 0.85]}, "seat": 0}"#,
    // 6: a shot backwards into the ditch.
    r#"{"discs": [], "shooter": {"team": 0, "pos": [0.0, -0.3048], "vel": [0.0, -1.0]}, "seat": 0}"#,
];

fn shot_file(shots: &[&str]) -> String {
    format!("{{\"shots\": [\n{}\n]}}", shots.join(",\n"))
}

fn simulate(text: &str, extra: &[&str]) -> Value {
    let mut args = vec!["simulate", "-"];
    args.extend_from_slice(extra);
    run(&args, text).json()
}

fn ids(list: &Value) -> Vec<u64> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|x| x["id"].as_u64().unwrap())
        .collect()
}

fn states(o: &Value) -> Vec<String> {
    o["discs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["state"].as_str().unwrap().to_string())
        .collect()
}

fn removed(o: &Value) -> Vec<(u64, String)> {
    o["rules"]["removed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["id"].as_u64().unwrap(),
                r["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn verdicts_and_the_position_after_the_rules() {
    let text = shot_file(SHOTS);
    let trad = simulate(&text, &["--rules"]);
    let tour = simulate(&text, &["--rules", "--ruleset", "tournament"]);
    let (t, u) = (
        trad["outcomes"].as_array().unwrap(),
        tour["outcomes"].as_array().unwrap(),
    );
    assert_eq!((t.len(), u.len()), (SHOTS.len(), SHOTS.len()));
    for (o, name) in t
        .iter()
        .map(|o| (o, "traditional"))
        .chain(u.iter().map(|o| (o, "tournament")))
    {
        assert_eq!(o["rules"]["ruleset"], name);
        assert_eq!(o["rules"]["legal"], true);
    }

    // 0: into the 15, stays, 15 points.
    for o in [&t[0], &u[0]] {
        assert_eq!(
            (&o["rules"]["rule"], &o["rules"]["rule_met"]),
            (&Value::from("opening"), &Value::from(true))
        );
        assert_eq!(states(o), ["board"]);
        assert_eq!(o["rules"]["board_score"], serde_json::json!([15, 0]));
        assert_eq!(ids(&o["rules"]["position"]), [0]);
        assert_eq!(o["rules"]["position"][0]["points"], 15);
    }
    // 1: into the 10, removed by the opening rule under both rule sets.
    for o in [&t[1], &u[1]] {
        assert_eq!(o["rules"]["rule_met"], false);
        assert_eq!(states(o), ["removed"]);
        assert_eq!(removed(o), [(0, "opening_rule".to_string())]);
        assert_eq!(o["rules"]["board_score"], serde_json::json!([0, 0]));
    }
    // 2: traditional removes the shooter alone; tournament: a struck disc is in the 15.
    assert_eq!(t[2]["rules"]["struck"], serde_json::json!([0]));
    assert_eq!(states(&t[2]), ["board", "removed"]);
    assert_eq!(removed(&t[2]), [(1, "opening_rule".to_string())]);
    assert_eq!(t[2]["rules"]["board_score"], serde_json::json!([15, 0]));
    assert_eq!(u[2]["rules"]["rule_met"], true);
    assert_eq!(states(&u[2]), ["board", "board"]);
    assert_eq!(u[2]["rules"]["board_score"], serde_json::json!([20, 0]));
    // 3: missed must-hit: the shooter is removed, the opponent's 10 stays.
    for o in [&t[3], &u[3]] {
        assert_eq!(
            (&o["rules"]["rule"], &o["rules"]["rule_met"]),
            (&Value::from("must_hit"), &Value::from(false))
        );
        assert_eq!(o["rules"]["opponents_on_board"], true);
        assert_eq!(states(o), ["board", "removed"]);
        assert_eq!(removed(o), [(1, "must_hit".to_string())]);
        assert_eq!(o["rules"]["board_score"], serde_json::json!([10, 0]));
    }
    // 4: four players: the opponent disc is knocked into the hole, a 20 for team 0.
    for o in [&t[4], &u[4]] {
        assert_eq!(
            (o["rules"]["seat"].as_u64(), o["rules"]["team"].as_u64()),
            (Some(1), Some(1))
        );
        assert_eq!(o["rules"]["rule_met"], true);
        assert_eq!(states(o), ["hole", "board"]);
        assert_eq!(
            o["rules"]["twenties"],
            serde_json::json!([{"id": 0, "team": 0}])
        );
    }
    // 5: a 20. 6: the ditch (the first reason that applies is the ditch).
    for o in [&t[5], &u[5]] {
        assert_eq!(states(o), ["hole"]);
        assert_eq!(ids(&o["rules"]["twenties"]), [0]);
    }
    for o in [&t[6], &u[6]] {
        assert_eq!(states(o), ["ditch"]);
        assert_eq!(removed(o), [(0, "ditch".to_string())]);
    }
}

/// Without `--rules` the output is the plain outcome file; with it, every key but the disc
/// states and `rules` is the same, and the states agree with the verdict.
#[test]
fn rules_only_add_the_verdict_and_the_states_after_it() {
    let text = shot_file(SHOTS);
    let plain = simulate(&text, &[]);
    for extra in [&["--rules"][..], &["--rules", "--ruleset", "tournament"]] {
        let ruled = simulate(&text, extra);
        let (p, r) = (
            plain["outcomes"].as_array().unwrap(),
            ruled["outcomes"].as_array().unwrap(),
        );
        for (p, r) in p.iter().zip(r) {
            assert!(p.get("rules").is_none());
            let keys = |o: &Value| o.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
            let mut want = keys(p);
            want.push("rules".to_string());
            let mut got = keys(r);
            got.sort();
            want.sort();
            assert_eq!(got, want);
            for key in ["events", "steps", "time"] {
                assert_eq!(p[key], r[key], "{key}");
            }
            let v = &r["rules"];
            let position = ids(&v["position"]);
            let twenties = ids(&v["twenties"]);
            let gone = removed(r);
            for (id, (pd, rd)) in p["discs"]
                .as_array()
                .unwrap()
                .iter()
                .zip(r["discs"].as_array().unwrap())
                .enumerate()
            {
                let id = id as u64;
                assert_eq!((&pd["team"], &pd["pos"]), (&rd["team"], &rd["pos"]));
                let (engine, after) =
                    (pd["state"].as_str().unwrap(), rd["state"].as_str().unwrap());
                let reason = gone.iter().find(|g| g.0 == id).map(|g| g.1.as_str());
                match after {
                    "board" => {
                        assert_eq!(engine, "board");
                        assert!(position.contains(&id) && reason.is_none());
                    }
                    "hole" => {
                        assert_eq!(engine, "hole");
                        assert!(twenties.contains(&id) && reason.is_none());
                    }
                    "ditch" => {
                        assert_eq!(engine, "ditch");
                        assert_eq!(reason, Some("ditch"));
                    }
                    "removed" => {
                        assert!(matches!(
                            reason,
                            Some("opening_rule" | "must_hit" | "on_or_beyond_shooting_line")
                        ));
                        assert!(!position.contains(&id) && !twenties.contains(&id));
                    }
                    other => panic!("unknown state {other}"),
                }
            }
        }
    }
}

#[test]
fn rules_output_is_identical_for_every_thread_count() {
    let many: Vec<&str> = SHOTS.iter().cycle().take(40).copied().collect();
    let text = shot_file(&many);
    for ruleset in ["traditional", "tournament"] {
        let outs: Vec<Vec<u8>> = ["1", "3"]
            .iter()
            .map(|j| {
                let r = run(
                    &[
                        "simulate",
                        "-",
                        "--rules",
                        "--ruleset",
                        ruleset,
                        "--threads",
                        j,
                    ],
                    &text,
                );
                assert_eq!(r.code, Some(0), "{}", r.stderr);
                r.stdout
            })
            .collect();
        assert_eq!(outs[0], outs[1], "{ruleset}");
        assert_eq!(
            run(&["simulate", "-", "--rules", "--ruleset", ruleset], &text).stdout,
            outs[0]
        );
    }
}

/// Checks a refusal: exit 2, nothing on stdout, every fragment in the message.
fn refused(text: &str, extra: &[&str], expect: &[&str]) {
    let mut args = vec!["simulate", "-", "--rules"];
    args.extend_from_slice(extra);
    run(&args, text).assert_refused(&format!("input {text}"), expect);
}

/// A shot file whose shot 1 is `shot` (shot 0 is fine).
fn second(shot: &str) -> String {
    shot_file(&[SHOTS[0], shot])
}

#[test]
fn a_shot_without_a_seat_is_refused() {
    let shot = r#"{"discs": [], "shooter": {"team": 0, "pos": [0.0, -0.3048], "vel": [0.0, 0.8]}}"#;
    refused(
        &second(shot),
        &[],
        &[
            "error: shot 1: ",
            "field `shots[1].seat`",
            "required with --rules",
        ],
    );
    // Without --rules the same file runs.
    let r = run(&["simulate", "-"], &second(shot));
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

#[test]
fn a_shooter_of_the_wrong_team_is_refused() {
    let shot = r#"{"discs": [], "shooter": {"team": 1, "pos": [0.0, -0.3048], "vel": [0.0, 0.8]}, "seat": 0}"#;
    refused(
        &second(shot),
        &[],
        &[
            "shot 1: ",
            "field `shots[1].shooter.team`",
            "seat 0 plays for team 0, the shooter is team 1",
        ],
    );
    // Four players: seat 1 is team 1, seat 2 team 0.
    let shot = r#"{"discs": [], "shooter": {"team": 1, "pos": [0.0, 0.3048], "vel": [0.0, -0.8]}, "seat": 2, "players": 4}"#;
    refused(
        &second(shot),
        &["--ruleset", "tournament"],
        &["field `shots[1].shooter.team`", "seat 2 plays for team 0"],
    );
}

#[test]
fn illegal_placements_are_refused_before_anything_runs() {
    // Not touching the shooting line.
    let shot = r#"{"discs": [], "shooter": {"team": 0, "pos": [0.0, -0.25], "vel": [0.0, 0.8]}, "seat": 0}"#;
    refused(
        &second(shot),
        &[],
        &[
            "field `shots[1].shooter.pos`",
            "illegal placement: not touching the shooting line",
        ],
    );
    // Outside the quadrant (well beyond the tournament's overhang too).
    let shot = r#"{"discs": [], "shooter": {"team": 0, "pos": [0.25, -0.174], "vel": [0.0, 0.8]}, "seat": 0}"#;
    for ruleset in ["traditional", "tournament"] {
        refused(
            &second(shot),
            &["--ruleset", ruleset],
            &[
                "field `shots[1].shooter.pos`",
                "outside seat 0's quadrant",
                "315 deg",
            ],
        );
    }
    // In seat 2's quadrant, shot from seat 0.
    let shot = r#"{"discs": [], "shooter": {"team": 0, "pos": [0.0, 0.3048], "vel": [0.0, -0.8]}, "seat": 0}"#;
    refused(
        &second(shot),
        &[],
        &["field `shots[1].shooter.pos`", "far half"],
    );
    // An empty seat with two players.
    let shot = r#"{"discs": [], "shooter": {"team": 1, "pos": [-0.3048, 0.0], "vel": [0.8, 0.0]}, "seat": 1}"#;
    refused(
        &second(shot),
        &[],
        &["field `shots[1].seat`", "seat 1 is empty with 2 players"],
    );
}

#[test]
fn the_ruleset_flag_needs_rules_and_a_known_name() {
    let text = shot_file(&[SHOTS[0]]);
    let r = run(&["simulate", "-", "--ruleset", "tournament"], &text);
    assert_eq!(r.code, Some(2));
    assert!(r.stdout.is_empty());
    assert!(r.stderr.contains("--rules"), "{}", r.stderr);
    let r = run(&["simulate", "-", "--rules", "--ruleset", "house"], &text);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr
            .contains("possible values: traditional, tournament"),
        "{}",
        r.stderr
    );
}
