//! The `crokinole` binary against the contract of `docs/shot-file.md`: well-formed
//! outcome files, byte-identical output for every thread count, stdin, `params`, and a
//! refusal naming the shot, the field and the problem for every class of bad input.

use crate::binary;
use crate::fixture;

use binary::run;

use serde_json::Value;
use std::path::Path;

use fixture::path as fixture;

fn simulate_file(path: &Path, threads: &str) -> Vec<u8> {
    let r = run(
        &["simulate", path.to_str().unwrap(), "--threads", threads],
        None,
    );
    assert_eq!(r.code, Some(0), "stderr: {}", r.stderr);
    r.stdout
}

/// A shot that is fine, placed before the bad one so the index shows.
const GOOD: &str = r#"{"discs": [{"team": 1, "pos": [0.02, 0.07]}], "shooter": {"team": 0, "pos": [0.0, -0.3048], "vel": [0.0, 0.9]}}"#;

/// A shot file whose shot 1 is `shot`, on line 2.
fn with_shot(shot: &str) -> String {
    format!("{{\"shots\": [{GOOD},\n{shot}]}}")
}

/// A shot file with the given `board`/`physics` blocks and one good shot.
fn with_blocks(blocks: &str) -> String {
    format!("{{{blocks}, \"shots\": [{GOOD}]}}")
}

/// Feeds `text` on stdin and checks the refusal: exit code 2, nothing on stdout, and a
/// message on stderr containing every fragment of `expect`.
fn refused(text: &str, expect: &[&str]) {
    run(&["simulate", "-"], Some(text)).assert_refused(&format!("input {text}"), expect);
}

/// `refused` for a bad shot 1: the message names the shot and its `field` (relative to
/// the shot; empty for the shot itself).
fn refused_shot(shot: &str, field: &str, problem: &str) {
    let path = if field.is_empty() {
        "shots[1]".to_string()
    } else {
        format!("shots[1].{field}")
    };
    refused(
        &with_shot(shot),
        &["error: shot 1: ", &format!("field `{path}`"), problem],
    );
}

fn shooter_at(pos: &str, vel: &str) -> String {
    format!(r#"{{"discs": [], "shooter": {{"team": 0, "pos": {pos}, "vel": {vel}}}}}"#)
}

fn disc_at(pos: &str) -> String {
    format!(
        r#"{{"discs": [{{"team": 0, "pos": {pos}}}], "shooter": {{"team": 0, "pos": [0.0, -0.3048], "vel": [0.0, 0.9]}}}}"#
    )
}

#[test]
fn example_outcomes_are_well_formed() {
    let input: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("example.json")).unwrap()).unwrap();
    let out = run(
        &["simulate", fixture("example.json").to_str().unwrap()],
        None,
    )
    .json();
    assert_eq!(out.as_object().unwrap().len(), 1, "only `outcomes`");
    let shots = input["shots"].as_array().unwrap();
    let outcomes = out["outcomes"].as_array().unwrap();
    assert_eq!(outcomes.len(), shots.len());
    let mut kinds = std::collections::BTreeSet::new();
    for (shot, o) in shots.iter().zip(outcomes) {
        let placed = shot["discs"].as_array().unwrap();
        let n = placed.len() + 1;
        let discs = o["discs"].as_array().unwrap();
        assert_eq!(discs.len(), n, "every disc, shooter last");
        for (k, d) in discs.iter().enumerate() {
            let team = if k < placed.len() {
                &placed[k]["team"]
            } else {
                &shot["shooter"]["team"]
            };
            assert_eq!(&d["team"], team);
            assert_eq!(d["pos"].as_array().unwrap().len(), 2);
            assert!(d["pos"].as_array().unwrap().iter().all(Value::is_f64));
            assert!(matches!(
                d["state"].as_str(),
                Some("board" | "hole" | "ditch")
            ));
        }
        let events = o["events"].as_array().unwrap();
        let mut last = 0.0;
        for e in events {
            let t = e["t"].as_f64().unwrap();
            assert!(t >= last, "events in time order");
            last = t;
            let a = e["a"].as_u64().unwrap() as usize;
            assert!(a < n);
            let kind = e["kind"].as_str().unwrap();
            kinds.insert(kind.to_string());
            let keys = e.as_object().unwrap().len();
            match kind {
                "disc" => {
                    let b = e["b"].as_u64().unwrap() as usize;
                    assert!(a < b && b < n, "disc event {e}");
                    assert_eq!(keys, 4);
                }
                "peg" => {
                    assert!(e["peg"].as_u64().unwrap() < 8);
                    assert_eq!(keys, 4);
                }
                "hole" | "ditch" => {
                    assert_eq!(discs[a]["state"], kind, "departure matches the state");
                    assert_eq!(keys, 3);
                }
                other => panic!("unknown event kind {other}"),
            }
        }
        assert!(o["steps"].is_u64());
        assert!(o["time"].as_f64().unwrap() >= last);
        assert!(o.get("cut_off").is_none(), "no example shot is cut off");
    }
    for kind in ["disc", "peg", "hole", "ditch"] {
        assert!(kinds.contains(kind), "the example shows a {kind} event");
    }
}

#[test]
fn output_is_identical_for_every_thread_count() {
    let path = fixture("crowded.json");
    let one = simulate_file(&path, "1");
    assert!(one.len() > 1000);
    assert_eq!(one, simulate_file(&path, "1"), "two runs");
    for threads in ["2", "3"] {
        assert_eq!(one, simulate_file(&path, threads), "--threads {threads}");
    }
}

#[test]
fn dash_reads_stdin_and_output_writes_a_file() {
    let path = fixture("example.json");
    let from_file = simulate_file(&path, "2");
    let text = std::fs::read_to_string(&path).unwrap();
    let from_stdin = run(&["simulate", "-"], Some(&text));
    assert_eq!(from_stdin.code, Some(0), "{}", from_stdin.stderr);
    assert_eq!(from_stdin.stdout, from_file);

    let out = std::env::temp_dir().join(format!("crokinole-cli-{}.json", std::process::id()));
    let r = run(
        &[
            "simulate",
            path.to_str().unwrap(),
            "--output",
            out.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.is_empty());
    assert_eq!(std::fs::read(&out).unwrap(), from_file);
    std::fs::remove_file(&out).unwrap();

    // Nothing is written when a shot is bad.
    let r = run(
        &["simulate", "-", "--output", out.to_str().unwrap()],
        Some(&with_shot(&disc_at("[0.5, 0.0]"))),
    );
    assert_eq!(r.code, Some(2));
    assert!(!out.exists(), "no output file for bad input");
}

#[test]
fn params_round_trips() {
    let r = run(&["params"], None);
    let params = r.json();
    let board = params["board"].as_object().unwrap();
    let physics = params["physics"].as_object().unwrap();
    assert_eq!(params.as_object().unwrap().len(), 2);
    assert_eq!(board.len(), 8, "every board key: {board:?}");
    assert_eq!(board["pegs"].as_array().unwrap().len(), 8);
    assert_eq!(physics.len(), 12, "every physics key: {physics:?}");
    assert!(
        !physics.contains_key("hole_fall_depth"),
        "the removed key is not written"
    );

    let mut file = params.clone();
    file["shots"] = Value::Array(vec![]);
    let text = file.to_string();
    let (b, p, shots) = crokinole::io::parse_shot_file(&text).unwrap();
    assert_eq!(b, crokinole::Board::tournament());
    assert_eq!(p, crokinole::Physics::default());
    assert!(shots.is_empty());
    let out = run(&["simulate", "-"], Some(&text)).json();
    assert_eq!(out, serde_json::json!({"outcomes": []}));

    // The printed text itself (not only its value) is a valid shot-file fragment.
    let text = String::from_utf8(r.stdout).unwrap();
    let text = format!("{{\"shots\": [{GOOD}], {}", &text.trim_start()[1..]);
    assert_eq!(
        run(&["simulate", "-"], Some(&text)).json()["outcomes"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn the_shared_benchmark_format_parses() {
    // A two-shot copy of the benchmark files (docs/shot-file.md), description included.
    let text = r#"{"description":"tiny copy","board":{"surface_radius":0.3302,"shooting_line_radius":0.3048,"ten_line_radius":0.2032,"fifteen_line_radius":0.1016,"hole_radius":0.0174625,"line_width":0.0015875,"peg_radius":0.0047625,"pegs":[[0.093866161,0.038880637],[0.038880637,0.093866161],[-0.038880637,0.093866161],[-0.093866161,0.038880637],[-0.093866161,-0.038880637],[-0.038880637,-0.093866161],[0.038880637,-0.093866161],[0.093866161,-0.038880637]]},"physics":{"disc_radius":0.015875,"disc_mass":0.0055,"board_friction":0.12,"disc_restitution":0.6,"disc_friction":0.38,"peg_restitution":0.6,"peg_friction":0.5,"gravity":9.81,"dt":0.001,"max_time":20.0},"shots":[{"discs":[],"shooter":{"team":0,"pos":[0.16587297,-0.255713117],"vel":[-0.393710709,0.65779271],"spin":0.0}},{"discs":[{"team":0,"pos":[-0.001183955,-0.221600505]},{"team":1,"pos":[-0.092531631,0.133214848]},{"team":1,"pos":[-0.15632752,0.064377922]}],"shooter":{"team":0,"pos":[-0.067300547,-0.297277104],"vel":[-0.516304955,2.127514866],"spin":0.0}}]}"#;
    let out = run(&["simulate", "-"], Some(text)).json();
    let outcomes = out["outcomes"].as_array().unwrap();
    assert_eq!(outcomes.len(), 2);
    assert_eq!(outcomes[1]["discs"].as_array().unwrap().len(), 4);
}

#[test]
fn malformed_json_is_refused_with_its_position() {
    refused(
        &format!("{{\"shots\": [{GOOD},\n{{\"discs\": [}}]}}"),
        &["shot 1", "field `shots[1].discs", "at line 2 column"],
    );
    refused("", &["field `file`", "the input is empty"]);
    refused("  \n", &["field `file`", "the input is empty"]);
    refused(
        &format!("{{\"shots\": [{GOOD}]}} x"),
        &["field `file`", "trailing characters at line 1"],
    );
    refused(
        "{\"shots\": [\"a\"]}",
        &["shot 0", "`shots[0]`", "invalid type"],
    );
    refused("{}", &["field `file`", "missing field `shots`"]);
    refused_shot(r#"{"discs": []}"#, "", "missing field `shooter`");
}

#[test]
fn unknown_keys_are_refused_wherever_they_are() {
    refused(
        &format!("{{\"shots\": [{GOOD}], \"shot\": []}}"),
        &["field `shot`", "unknown field `shot`", "at line"],
    );
    refused(
        &with_blocks(r#""board": {"hole_radiu": 0.02}"#),
        &["field `board.hole_radiu`", "unknown field `hole_radiu`"],
    );
    refused(
        &with_blocks(r#""physics": {"timestep": 0.001}"#),
        &["field `physics.timestep`", "unknown field `timestep`"],
    );
    refused_shot(
        r#"{"discs": [], "shooter": {"team": 0, "pos": [0.0, -0.3048], "vel": [0.0, 0.9]}, "sead": 0}"#,
        "sead",
        "unknown field `sead`",
    );
    refused_shot(
        r#"{"discs": [{"team": 1, "pos": [0.1, 0.0], "colour": "red"}], "shooter": {"team": 0, "pos": [0.0, -0.3048], "vel": [0.0, 0.9]}}"#,
        "discs[0].colour",
        "unknown field `colour`",
    );
    refused_shot(
        r#"{"discs": [], "shooter": {"team": 0, "pos": [0.0, -0.3048], "vel": [0.0, 0.9], "omega": 1}}"#,
        "shooter.omega",
        "unknown field `omega`",
    );
}

#[test]
fn bad_placements_are_refused() {
    refused_shot(
        r#"{"discs": [{"team": 1, "pos": [0.1, 0.0]}, {"team": 0, "pos": [0.12, 0.0]}], "shooter": {"team": 0, "pos": [0.0, -0.3048], "vel": [0.0, 0.9]}}"#,
        "discs[1].pos",
        "overlaps disc 0",
    );
    refused_shot(
        r#"{"discs": [{"team": 1, "pos": [0.0, -0.3]}], "shooter": {"team": 0, "pos": [0.0, -0.3048], "vel": [0.0, 0.9]}}"#,
        "shooter.pos",
        "overlaps disc 0",
    );
    refused_shot(&disc_at("[0.1, 0.04]"), "discs[0].pos", "overlaps peg 0");
    refused_shot(
        &disc_at("[0.0, 0.34]"),
        "discs[0].pos",
        "off the playing surface",
    );
    refused_shot(&disc_at("[0.005, 0.0]"), "discs[0].pos", "over the 20 hole");
    refused_shot(
        &shooter_at("[-0.331, 0.0]", "[0.9, 0.0]"),
        "shooter.pos",
        "off the playing surface",
    );
}

#[test]
fn bad_numbers_are_refused() {
    refused_shot(
        &disc_at("[NaN, 0.1]"),
        "discs[0].pos[0]",
        "expected value at line 2",
    );
    refused_shot(
        &disc_at("[0.1, -Infinity]"),
        "discs[0].pos[1]",
        "not JSON numbers",
    );
    refused_shot(
        &disc_at("[null, 0.1]"),
        "discs[0].pos[0]",
        "invalid type: null",
    );
    refused_shot(
        &shooter_at("[0.0, -0.3048]", "[0.0, 1e999]"),
        "shooter.vel[1]",
        "number out of range at line 2",
    );
    refused(
        &with_blocks(r#""physics": {"gravity": -1e400}"#),
        &["field `physics.gravity`", "out of range"],
    );
    refused_shot(
        &shooter_at("[0.0, -0.3048]", "[0.0, 11.0]"),
        "shooter.vel",
        "above the maximum",
    );
    refused_shot(
        r#"{"discs": [], "shooter": {"team": 0, "pos": [0.0, -0.3048], "vel": [0.0, 0.9], "spin": 1e6}}"#,
        "shooter.spin",
        "above the maximum",
    );
    refused_shot(
        r#"{"discs": [{"team": 2, "pos": [0.1, 0.0]}], "shooter": {"team": 0, "pos": [0.0, -0.3048], "vel": [0.0, 0.9]}}"#,
        "discs[0].team",
        "must be 0 or 1, got 2",
    );
    refused_shot(
        r#"{"discs": [], "shooter": {"team": -1, "pos": [0.0, -0.3048], "vel": [0.0, 0.9]}}"#,
        "shooter.team",
        "invalid value: integer `-1`",
    );
    refused_shot(
        r#"{"discs": [], "shooter": {"team": 0, "pos": [0.0, -0.3048], "vel": [0.0, 0.9]}, "seat": 4}"#,
        "seat",
        "must be 0, 1, 2 or 3, got 4",
    );
    refused_shot(
        r#"{"discs": [], "shooter": {"team": 0, "pos": [0.0, -0.3048], "vel": [0.0, 0.9]}, "players": 3}"#,
        "players",
        "must be 2 or 4, got 3",
    );
}

#[test]
fn bad_board_and_physics_are_refused() {
    let cases = [
        (
            r#""physics": {"disc_radius": -0.01}"#,
            "physics.disc_radius",
            "must be positive",
        ),
        (
            r#""board": {"peg_radius": -0.004}"#,
            "board.peg_radius",
            "must be positive",
        ),
        (
            r#""board": {"hole_radius": 0.2}"#,
            "board.fifteen_line_radius",
            "must be larger",
        ),
        (
            r#""physics": {"disc_mass": 0}"#,
            "physics.disc_mass",
            "must be positive",
        ),
        (
            r#""physics": {"dt": 0.0}"#,
            "physics.dt",
            "must be positive",
        ),
        (
            r#""physics": {"dt": -0.001}"#,
            "physics.dt",
            "must be positive",
        ),
        (
            r#""physics": {"board_friction": -0.1}"#,
            "physics.board_friction",
            "must not be negative",
        ),
        (
            r#""physics": {"disc_restitution": 1.5}"#,
            "physics.disc_restitution",
            "must lie in [0, 1]",
        ),
        (
            r#""physics": {"max_speed": 0.5}"#,
            "shots[0].shooter.vel",
            "above the maximum",
        ),
        (
            r#""physics": {"max_events_per_step": 0}"#,
            "physics.max_events_per_step",
            "at least 1",
        ),
    ];
    for (blocks, field, problem) in cases {
        refused(
            &with_blocks(blocks),
            &[&format!("field `{field}`"), problem],
        );
    }
}

#[test]
fn bad_command_lines_are_refused() {
    let path = fixture("example.json");
    let r = run(
        &["simulate", path.to_str().unwrap(), "--threads", "0"],
        None,
    );
    assert_eq!(r.code, Some(2));
    assert!(r.stdout.is_empty());
    assert!(
        r.stderr.contains("error: ") && r.stderr.contains("--threads"),
        "{}",
        r.stderr
    );

    let missing = fixture("no-such-file.json");
    let r = run(&["simulate", missing.to_str().unwrap()], None);
    assert_eq!(r.code, Some(1));
    assert!(r.stdout.is_empty());
    assert!(
        r.stderr.starts_with("error: cannot read `") && r.stderr.contains("no-such-file.json"),
        "{}",
        r.stderr
    );
}

/// The `--help` of each CSV flag names the page that lists its columns: docs/output.md
/// (it once named docs/shot-file.md and docs/montecarlo.md, which have no columns).
#[test]
fn csv_flags_point_to_the_page_with_the_columns() {
    let output_md =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/output.md"))
            .unwrap();
    for (command, flag, column) in [
        (
            "simulate",
            "--csv",
            "`shot,disc,team,x,y,state,time,steps,cut_off`",
        ),
        ("montecarlo", "--samples-out", "| `sample` |"),
    ] {
        let r = run(&[command, "--help"], None);
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        let help = String::from_utf8(r.stdout).unwrap();
        let line = help
            .lines()
            .skip_while(|l| !l.contains(flag))
            .take(3)
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            line.contains("columns in docs/output.md"),
            "{command} {flag}: {line}"
        );
        assert!(output_md.contains(column), "docs/output.md lacks {column}");
    }
}

/// Issue #42, item 2: an input that is not a regular file was read whole (`/dev/zero`
/// reached 3 GB in 3 s, `match replay /dev/full` 24 GB). Every command now refuses it at its
/// first byte; a FIFO is read once (its start is not sniffed away) and gives the file's
/// result.
#[test]
fn a_device_or_a_pipe_is_read_bounded_and_a_fifo_is_read_once() {
    let commands: [&[&str]; 11] = [
        &["simulate"],
        &["montecarlo"],
        &["merge"],
        &["suggest"],
        &["flick"],
        &["fit"],
        &["render", "board"],
        &["tournament"],
        &["match", "replay"],
        &["stats"],
        &["play", "--noise"],
    ];
    for c in commands {
        let args: Vec<&str> = c.iter().copied().chain(["/dev/zero"]).collect();
        let r = crate::binary::run(&args, None);
        assert_eq!(r.code, Some(2), "{c:?}: {}", r.stderr);
        assert!(r.stderr.contains("byte 0 is 0x00"), "{c:?}: {}", r.stderr);
    }
    let dir = crate::binary::scratch("fifo_input");
    let fifo = dir.join("study.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let study = std::fs::read(crate::binary::fixture("montecarlo", "takeout.json")).unwrap();
    let writer = {
        let (fifo, study) = (fifo.clone(), study.clone());
        std::thread::spawn(move || std::fs::write(fifo, study).unwrap())
    };
    let from_fifo = crate::binary::ok(&["montecarlo", fifo.to_str().unwrap(), "--samples", "50"]);
    writer.join().unwrap();
    let from_file = crate::binary::ok(&[
        "montecarlo",
        &crate::binary::fixture("montecarlo", "takeout.json"),
        "--samples",
        "50",
    ]);
    assert_eq!(from_fifo, from_file);
}
