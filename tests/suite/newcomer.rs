//! A newcomer's first hour (issue #10), at the command line: one flick in player terms
//! (`crokinole flick`), output that neither floods nor hides (`--compact`, `--positions`,
//! CSV), counts in scientific notation, progress only on a terminal, and pictures whose
//! structure says what they show.

use crate::binary;

use binary::{fixture, run, scratch};
use serde_json::Value;

fn path_str(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

fn stdout(r: &binary::Run) -> String {
    assert_eq!(r.code, Some(0), "stderr: {}", r.stderr);
    String::from_utf8(r.stdout.clone()).unwrap()
}

// --- crokinole flick ---

/// A study's intended flick: the outcome `flick` prints is what `simulate` prints for the
/// shot file `flick` wrote, byte for byte (with the rules: the study has a rule set).
#[test]
fn a_studys_flick_prints_the_outcome_of_the_shot_file_it_writes() {
    let dir = scratch("study-flick");
    let study = fixture("montecarlo", "takeout-ruled.json");
    let shot = dir.join("shot.json");
    let svg = dir.join("flick.svg");
    let r = run(
        &[
            "flick",
            &study,
            "--shot-out",
            path_str(&shot),
            "--svg",
            path_str(&svg),
        ],
        None,
    );
    let printed = stdout(&r);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    let out: Value = serde_json::from_str(&printed).unwrap();
    assert_eq!(out["outcomes"].as_array().unwrap().len(), 1);
    assert_eq!(out["outcomes"][0]["rules"]["ruleset"], "traditional");
    let again = run(
        &[
            "simulate",
            path_str(&shot),
            "--rules",
            "--ruleset",
            "traditional",
        ],
        None,
    );
    assert_eq!(stdout(&again), printed);
    // The shot file says where the flick came from.
    let shot_file: Value = serde_json::from_str(&std::fs::read_to_string(&shot).unwrap()).unwrap();
    let description = shot_file["description"].as_str().unwrap();
    assert!(
        description.contains("intended flick of takeout-ruled.json"),
        "{description}"
    );
    assert_eq!(shot_file["shots"][0]["seat"], 0);
    // The picture: the flick's arrow, the events numbered and listed in order.
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let events = out["outcomes"][0]["events"].as_array().unwrap().len();
    assert!(events > 0);
    assert_eq!(count(&doc, "event-number"), events);
    assert_eq!(count(&doc, "event-row"), events);
    assert_eq!(count(&doc, "flick-arrow"), 2); // the arrow and its key in the legend
    let title = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("title"))
        .and_then(|n| n.text())
        .unwrap();
    assert_eq!(title, "takeout-ruled.json, seat 0: the intended flick");
}

/// The planner's chosen flick, from the plan and the suggest file it was made from; the
/// flags override single keys; a suggest file alone needs --plan or --speed.
#[test]
fn the_planners_flick_and_flags_play_in_the_suggest_files_position() {
    let suggest = fixture("suggest", "takeout.json");
    let plan = fixture("suggest", "golden-takeout-plan.json");
    let plan_json: Value = serde_json::from_str(&std::fs::read_to_string(&plan).unwrap()).unwrap();
    let best = run(&["flick", &suggest, "--plan", &plan], None).json();
    let second = run(&["flick", &suggest, "--plan", &plan, "--rank", "2"], None).json();
    assert_ne!(best, second);
    // Rank 1 with its own numbers as flags is the same shot (its target too, if it aims
    // at one).
    let f = &plan_json["top"][0]["flick"];
    let num = |k: &str| f[k].as_f64().unwrap().to_string();
    let target = f.get("target").map(|t| format!("{},{}", t[0], t[1]));
    let mut args = vec![
        "flick".to_string(),
        suggest.clone(),
        "--offset".into(),
        num("offset"),
        "--aim".into(),
        num("aim"),
        "--speed".into(),
        num("speed"),
        "--spin".into(),
        num("spin"),
    ];
    if let Some(t) = target {
        args.extend(["--target".to_string(), t]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let by_flags = run(&args, None).json();
    assert_eq!(by_flags, best);
    // A flag changes only its key: another speed, another outcome.
    let slower = run(
        &["flick", &suggest, "--plan", &plan, "--speed", "0.9"],
        None,
    )
    .json();
    assert_ne!(slower, best);
    run(&["flick", &suggest], None)
        .assert_refused("no flick", &["has no flick", "--plan PLAN", "--speed"]);
    run(&["flick", &suggest, "--plan", &plan, "--rank", "9"], None)
        .assert_refused("rank 9", &["no flick of rank 9", "has 3 flicks"]);
    run(
        &["flick", &suggest, "--speed", "0.9", "--offset", "0.3"],
        None,
    )
    .assert_refused("outside the quadrant", &["flick.offset", "quadrant"]);
    run(&["flick", &suggest, "--speed", "1", "--target", "x"], None)
        .assert_refused("bad target", &["target", "X,Y"]);
}

/// `render shot` of a study or suggest file names the command that draws its flick.
#[test]
fn render_shot_of_a_study_points_to_flick() {
    let study = fixture("montecarlo", "takeout.json");
    run(&["render", "shot", &study], None).assert_refused(
        "study",
        &["looks like a study file", "crokinole flick FILE"],
    );
}

fn count(doc: &roxmltree::Document, class: &str) -> usize {
    doc.descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.split(' ').any(|w| w == class))
        })
        .count()
}

// --- Output that neither floods nor hides ---

/// Every JSON command: readable by default (several lines), `--compact` one line, the same
/// JSON value.
#[test]
fn every_json_command_is_readable_by_default_and_compact_on_request() {
    let example = fixture("", "example.json");
    let study = fixture("montecarlo", "opening.json");
    let suggest = fixture("suggest", "takeout.json");
    let commands: [Vec<&str>; 6] = [
        vec!["simulate", &example],
        vec!["simulate", &example, "--rules"],
        vec!["params"],
        vec!["montecarlo", &study, "--samples", "50"],
        vec!["suggest", &suggest, "--budget", "1000"],
        vec!["flick", &study],
    ];
    for args in commands {
        let readable = stdout(&run(&args, None));
        let mut compact_args = args.clone();
        compact_args.push("--compact");
        let compact = stdout(&run(&compact_args, None));
        assert!(readable.lines().count() > 3, "{args:?}");
        assert_eq!(compact.lines().count(), 1, "{args:?}");
        assert!(compact.ends_with('\n'));
        let a: Value = serde_json::from_str(&readable).unwrap();
        let b: Value = serde_json::from_str(&compact).unwrap();
        assert_eq!(a, b, "{args:?}");
    }
}

/// Symptom: a 10,000-sample summary was 479 kB, 99.7 % positions on one line. The
/// positions are now asked for.
#[test]
fn the_summary_holds_positions_only_when_asked() {
    let study = fixture("montecarlo", "takeout-ruled.json");
    let plain = stdout(&run(&["montecarlo", &study, "--samples", "2000"], None));
    assert!(!plain.contains("shooter_positions"));
    assert!(plain.len() < 3000, "{} bytes", plain.len());
    let with = run(
        &["montecarlo", &study, "--samples", "2000", "--positions"],
        None,
    )
    .json();
    let p = &with["shooter_positions"];
    assert_eq!(p["first"].as_array().unwrap().len(), 2000);
    let classes = p["class"].as_array().unwrap();
    assert_eq!(classes.len(), 2000);
    // The classes of the kept positions are the table's counts (all kept below the cap).
    for (name, entry) in with["shooter"].as_object().unwrap() {
        let n = classes.iter().filter(|c| c.as_str() == Some(name)).count() as u64;
        assert_eq!(n, entry["count"].as_u64().unwrap(), "{name}");
    }
    let mut without: Value = with.clone();
    without.as_object_mut().unwrap().remove("shooter_positions");
    assert_eq!(without, serde_json::from_str::<Value>(&plain).unwrap());
    // A summary without positions cannot be drawn; the message says how to get one.
    let dir = scratch("positions");
    let summary = dir.join("summary.json");
    std::fs::write(&summary, &plain).unwrap();
    run(&["render", "montecarlo", path_str(&summary)], None)
        .assert_refused("no positions", &["shooter_positions", "--positions"]);
}

/// The samples file as CSV by its extension: a header, one row per sample, the same
/// numbers as the JSON lines.
#[test]
fn samples_go_to_csv_by_extension_with_the_json_lines_numbers() {
    let dir = scratch("csv");
    let study = fixture("montecarlo", "takeout-ruled.json");
    let (csv, jsonl) = (dir.join("s.csv"), dir.join("s.jsonl"));
    for out in [&csv, &jsonl] {
        let r = run(
            &[
                "montecarlo",
                &study,
                "--samples",
                "300",
                "--samples-out",
                path_str(out),
            ],
            None,
        );
        r.json();
    }
    let csv = std::fs::read_to_string(&csv).unwrap();
    let jsonl = std::fs::read_to_string(&jsonl).unwrap();
    let mut rows = csv.lines();
    let header: Vec<&str> = rows.next().unwrap().split(',').collect();
    assert_eq!(
        header,
        [
            "sample",
            "offset",
            "aim",
            "speed",
            "spin",
            "class",
            "score_change",
            "opponent_hits",
            "opponents_moved",
            "cut_off",
            "x",
            "y",
            "state"
        ]
    );
    let rows: Vec<Vec<&str>> = rows.map(|r| r.split(',').collect()).collect();
    assert_eq!(rows.len(), 300);
    for (row, line) in rows.iter().zip(jsonl.lines()) {
        let v: Value = serde_json::from_str(line).unwrap();
        assert_eq!(row.len(), header.len());
        assert_eq!(row[0], v["sample"].to_string());
        for (k, key) in [(1, "offset"), (2, "aim"), (3, "speed"), (4, "spin")] {
            let x: f64 = row[k].parse().unwrap();
            assert_eq!(x.to_bits(), v["flick"][key].as_f64().unwrap().to_bits());
        }
        assert_eq!(row[5], v["class"].as_str().unwrap());
        assert_eq!(row[6], v["score_change"].to_string());
        let shooter = v["outcome"]["discs"]
            .as_array()
            .unwrap()
            .last()
            .unwrap()
            .clone();
        let x: f64 = row[10].parse().unwrap();
        assert_eq!(x.to_bits(), shooter["pos"][0].as_f64().unwrap().to_bits());
        assert_eq!(row[12], shooter["state"].as_str().unwrap());
    }
}

/// `simulate --csv`: one row per disc per shot, with the state after the rules.
#[test]
fn outcomes_go_to_csv_one_row_per_disc() {
    let example = fixture("", "example.json");
    let json = run(&["simulate", &example, "--rules"], None).json();
    let csv = stdout(&run(&["simulate", &example, "--rules", "--csv"], None));
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "shot,disc,team,x,y,state,time,steps,cut_off,after_rules"
    );
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    let outcomes = json["outcomes"].as_array().unwrap();
    let discs: usize = outcomes
        .iter()
        .map(|o| o["discs"].as_array().unwrap().len())
        .sum();
    assert_eq!(rows.len(), discs);
    for row in &rows {
        let (shot, disc): (usize, usize) = (row[0].parse().unwrap(), row[1].parse().unwrap());
        let d = &outcomes[shot]["discs"][disc];
        let y: f64 = row[4].parse().unwrap();
        assert_eq!(y.to_bits(), d["pos"][1].as_f64().unwrap().to_bits());
        assert_eq!(row[9], d["state"].as_str().unwrap());
    }
    run(&["simulate", &example, "--csv", "--trace"], None)
        .assert_refused("csv and trace", &["--trace"]);
}

/// `--samples 1e6` and friends: whole numbers in scientific notation are counts; fractions
/// are refused with the integers to write.
#[test]
fn counts_take_scientific_notation_and_refuse_fractions() {
    let study = fixture("montecarlo", "opening.json");
    let a = stdout(&run(&["montecarlo", &study, "--samples", "2e2"], None));
    let b = stdout(&run(&["montecarlo", &study, "--samples", "200"], None));
    let c = stdout(&run(&["montecarlo", &study, "--samples", "0.2e3"], None));
    assert_eq!(a, b);
    assert_eq!(a, c);
    run(&["montecarlo", &study, "--samples", "2.5"], None)
        .assert_refused("2.5", &["not a whole number", "write 2 or 3"]);
    run(&["montecarlo", &study, "--samples", "1.5e-3"], None)
        .assert_refused("1.5e-3", &["not a whole number"]);
    run(&["montecarlo", &study, "--samples", "0e5"], None).assert_refused("0", &["at least 1"]);
    run(&["montecarlo", &study, "--samples", "1e30"], None).assert_refused("1e30", &["too large"]);
    run(&["play", "--games", "2.5"], None).assert_refused("games", &["not a whole number"]);
    let suggest = fixture("suggest", "takeout.json");
    let p = stdout(&run(&["suggest", &suggest, "--budget", "1e3"], None));
    let q = stdout(&run(&["suggest", &suggest, "--budget", "1000"], None));
    assert_eq!(p, q);
    run(&["suggest", &suggest, "--budget", "1.0005e3"], None)
        .assert_refused("budget", &["not a whole number"]);
}

/// Progress goes to a terminal only: with stderr a pipe (as here) the long commands print
/// nothing there, and stdout is the same.
#[test]
fn long_commands_are_silent_on_stderr_when_it_is_not_a_terminal() {
    let study = fixture("montecarlo", "opening.json");
    let suggest = fixture("suggest", "takeout.json");
    for args in [
        vec!["montecarlo", study.as_str(), "--samples", "300"],
        vec!["suggest", suggest.as_str(), "--budget", "1000"],
    ] {
        let r = run(&args, None);
        assert_eq!(r.code, Some(0));
        assert!(r.stderr.is_empty(), "{args:?}: {}", r.stderr);
    }
}

/// On a terminal (a pseudo-terminal from util-linux `script`, when the machine has it) the
/// montecarlo run ends with its one-line summary on stderr; stdout stays the summary.
#[test]
fn on_a_terminal_a_long_run_ends_with_a_summary_line() {
    let has_script = std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_script {
        eprintln!("skipped: no `script` to make a pseudo-terminal");
        return;
    }
    let dir = scratch("tty");
    let out = dir.join("summary.json");
    let bin = env!("CARGO_BIN_EXE_crokinole");
    let study = fixture("montecarlo", "opening.json");
    let cmd = format!(
        "{bin} montecarlo {study} --samples 500 -o {}",
        path_str(&out)
    );
    let r = std::process::Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .output()
        .unwrap();
    assert!(r.status.success());
    let tty = String::from_utf8_lossy(&r.stdout);
    assert!(tty.contains("500 samples in "), "{tty}");
    assert!(
        !tty.contains("left"),
        "no time left shown for a short run: {tty}"
    );
    let summary: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(summary["samples"], 500);
}

/// The game log of one game is readable: one key a line, one shot a line.
#[test]
fn a_game_log_puts_one_shot_on_a_line() {
    let r = run(
        &[
            "play",
            "--games",
            "1",
            "--seed",
            "7",
            "--strategies",
            "random,random",
            "--ruleset",
            "tournament",
        ],
        None,
    );
    let text = stdout(&r);
    let log: Value = serde_json::from_str(&text).unwrap();
    let shots = log["shots"].as_array().unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let open = lines.iter().position(|l| *l == "  \"shots\": [").unwrap();
    let close = open + lines[open..].iter().position(|l| *l == "  ],").unwrap();
    assert_eq!(close - open - 1, shots.len());
    for (line, shot) in lines[open + 1..close].iter().zip(shots) {
        let line = line.trim().trim_end_matches(',');
        assert_eq!(&serde_json::from_str::<Value>(line).unwrap(), shot);
    }
    assert!(lines.contains(&"  \"seed\": 7,"));
}
