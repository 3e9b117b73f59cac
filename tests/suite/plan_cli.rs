//! `crokinole suggest` (docs/suggest.md): the plan on stdout, byte-identical for every
//! thread count, with the heat-map grid in its documented shape; standard input and
//! `--output`; refusals of bad input with exit code 2, the field named and nothing written.

use crate::binary;

use binary::{fixture, run, scratch};
use serde_json::Value;

#[test]
fn the_plan_is_json_with_a_grid_and_the_same_for_every_thread_count() {
    let file = fixture("suggest", "takeout.json");
    let args = |threads: &'static str| {
        vec![
            "suggest",
            file.as_str(),
            "--budget",
            "3000",
            "--seed",
            "4",
            "--top",
            "3",
            "--threads",
            threads,
        ]
    };
    let one = run(&args("1"), None);
    let v = one.json();
    for threads in ["2", "3"] {
        assert!(
            run(&args(threads), None).stdout == one.stdout,
            "--threads {threads}"
        );
    }
    assert_eq!(
        (v["objective"].as_str(), v["seed"].as_u64()),
        (Some("score"), Some(4))
    );
    assert_eq!(v["budget"]["samples"], 3000);
    assert!(v["samples_used"].as_u64().unwrap() <= 3000);
    let top = v["top"].as_array().unwrap();
    assert_eq!(top.len(), 3);
    for (k, s) in top.iter().enumerate() {
        assert_eq!(s["rank"], k + 1);
        let ci = s["value"]["ci95"].as_array().unwrap();
        let mean = s["value"]["mean"].as_f64().unwrap();
        assert!(ci[0].as_f64().unwrap() <= mean && mean <= ci[1].as_f64().unwrap());
        let classes = [
            "twenty", "fifteen", "ten", "five", "out", "ditch", "removed",
        ];
        let n: u64 = classes
            .iter()
            .map(|c| s["classes"][c]["count"].as_u64().unwrap())
            .sum();
        assert_eq!(n, s["samples"].as_u64().unwrap());
        for key in ["offset", "aim", "speed", "spin"] {
            assert!(s["flick"][key].is_f64(), "{key}");
        }
    }
    // The grid, exactly the shape the heat map reads.
    let g = &v["grid"];
    let keys: Vec<&str> = g.as_object().unwrap().keys().map(String::as_str).collect();
    let mut want = [
        "offset",
        "spin",
        "aim",
        "speed",
        "value",
        "objective",
        "samples",
        "half_width95",
    ];
    // In this order in the text.
    let text = String::from_utf8(one.stdout.clone()).unwrap();
    let grid = &text[text.find("\"grid\": {").expect("a grid")..];
    let at: Vec<usize> = want
        .iter()
        .map(|k| grid.find(&format!("\"{k}\": ")).unwrap())
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{grid}");
    want.sort_unstable();
    assert_eq!(keys, want);
    let (aim, speed) = (g["aim"].as_array().unwrap(), g["speed"].as_array().unwrap());
    let rows = g["value"].as_array().unwrap();
    assert_eq!((aim.len(), speed.len(), rows.len()), (11, 9, 9));
    for row in rows {
        let row = row.as_array().unwrap();
        assert_eq!(row.len(), aim.len());
        assert!(row.iter().all(|x| x.is_f64() || x.is_null()));
    }
    assert_eq!(g["objective"], "score");
    assert_eq!(g["samples"], v["stages"][0]["samples"]);
    assert!(g["offset"].is_f64() && g["spin"].is_f64());
}

#[test]
fn standard_input_output_files_and_objectives() {
    let text = std::fs::read_to_string(fixture("suggest", "opening.json")).unwrap();
    let dir = scratch("io");
    let out = dir.join("plan.json");
    let args = [
        "suggest",
        "-",
        "--budget",
        "2000",
        "--objective",
        "twenty",
        "--top",
        "1",
        "--output",
        out.to_str().unwrap(),
    ];
    let r = run(&args, Some(&text));
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.is_empty());
    let v: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(v["objective"], "twenty");
    assert_eq!(v["grid"]["objective"], "twenty");
    let best = &v["top"][0];
    assert_eq!(best["value"]["mean"], best["classes"]["twenty"]["p"]);
    // A steady player (3 mm, 0.01 rad, 3 % of speed) on the new hole model: about 0.8.
    assert!(best["value"]["mean"].as_f64().unwrap() > 0.6, "{best}");
}

#[test]
fn bad_input_is_refused_with_exit_2_and_nothing_written() {
    let file = fixture("suggest", "opening.json");
    let dir = scratch("bad");
    let out = dir.join("never.json");
    let o = out.to_str().unwrap();
    for (args, expect) in [
        (vec!["--objective", "draw"], vec!["--objective", "draw"]),
        (vec!["--budget", "0"], vec!["--budget", "at least 1000"]),
        (
            vec!["--budget", "lots"],
            vec!["--budget", "expected samples"],
        ),
        (vec!["--budget", "0s"], vec!["--budget", "seconds"]),
        (vec!["--top", "0"], vec!["--top"]),
        (vec!["--threads", "0"], vec!["--threads"]),
    ] {
        let mut all = vec!["suggest", file.as_str(), "--output", o];
        all.extend(&args);
        run(&all, None).assert_refused(&format!("{args:?}"), &expect);
        assert!(!out.exists(), "{args:?} wrote the output");
    }
    for (text, expect) in [
        (r#"{"seat": 1}"#, vec!["field `seat`", "seats 0 and 2"]),
        (r#"{"seat": 0, "ruleset": "nca"}"#, vec!["field `ruleset`"]),
        (
            r#"{"seat": 0, "noise": {"aim": NaN}}"#,
            vec!["field `noise.aim`"],
        ),
        (
            r#"{"seat": 0, "noise": {"speed": -0.1}}"#,
            vec!["field `noise.speed`", "must not be negative"],
        ),
        (
            r#"{"seat": 0, "flick": {"speed": 1}}"#,
            vec!["field `flick`", "unknown field"],
        ),
        (
            r#"{"seat": 0, "search": {"speed": [0.5, 20]}}"#,
            vec!["field `search.speed`", "max_speed"],
        ),
        (
            r#"{"seat": 0, "discs": [{"team": 1, "pos": [0.5, 0]}]}"#,
            vec!["field `discs[0].pos`"],
        ),
        (
            "{\"seat\": 0,\n \"physics\": {\"dt\": 0}}",
            vec!["field `physics.dt`"],
        ),
    ] {
        let r = run(&["suggest", "-", "--output", o], Some(text));
        r.assert_refused(text, &expect);
        assert!(!out.exists(), "{text} wrote the output");
    }
}

/// Symptom: a board with pegs on the shooter's line was planned without a word, though
/// every placement overlapping a peg is illegal and silently skipped. Now a note on
/// standard error names the blocked offsets; the plan itself is unchanged.
#[test]
fn pegs_on_the_shooting_line_are_noted() {
    let params: Value = serde_json::from_slice(&run(&["params"], None).stdout).unwrap();
    let mut board = params["board"].clone();
    // One peg on the line straight ahead of seat 0, one to the right of it.
    let line = board["shooting_line_radius"].as_f64().unwrap();
    let pegs = board["pegs"].as_array_mut().unwrap();
    pegs.push(serde_json::json!([0.0, -line]));
    pegs.push(serde_json::json!([0.1, -(line * line - 0.01).sqrt()]));
    let text = std::fs::read_to_string(fixture("suggest", "takeout.json")).unwrap();
    let mut request: Value = serde_json::from_str(&text).unwrap();
    request["board"] = board;
    let request = request.to_string();
    let r = run(&["suggest", "-", "--budget", "1000"], Some(&request));
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stderr
            .starts_with("note: pegs or discs on seat 0's shooting line block offsets ["),
        "{}",
        r.stderr
    );
    // Two intervals, about the pegs' offsets 0 and 0.1 m, a disc and a peg wide on either
    // side (to the probes' spacing, 0.4 mm here).
    let listed = r.stderr["note: pegs or discs on seat 0's shooting line block offsets ".len()..]
        .split(" m of")
        .next()
        .unwrap();
    let numbers: Vec<f64> = listed
        .split(|c| "[], ".contains(c))
        .filter(|x| !x.is_empty())
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(numbers.len(), 4, "{listed}");
    let reach = 0.015875 + 0.0047625;
    assert!((numbers[0] + reach).abs() < 5e-4 && (numbers[1] - reach).abs() < 5e-4);
    assert!(numbers[2] < 0.1 && numbers[3] > 0.1, "{listed}");
    // Off to the side the line runs at an angle to the offset axis: a chord of 2 reach
    // spans 2 reach cos(angle) of offset.
    let width = 2.0 * reach * (1.0 - (0.1 / line) * (0.1 / line)).sqrt();
    assert!((numbers[3] - numbers[2] - width).abs() < 1e-3, "{listed}");
    // The standard board says nothing.
    let plain = run(
        &[
            "suggest",
            &fixture("suggest", "takeout.json"),
            "--budget",
            "1000",
        ],
        None,
    );
    assert_eq!(plain.code, Some(0));
    assert!(plain.stderr.is_empty(), "{}", plain.stderr);
}

/// `suggest --batch` (issue #40): positions a line in, plans a line out, each the plan
/// `suggest --compact` prints for that position alone; blank lines skipped, a bad line
/// refused naming it, standard input taken as `-`.
#[test]
fn a_batch_of_positions_gives_each_positions_own_plan_a_line() {
    let dir = crate::binary::scratch("suggest_batch");
    let names = ["takeout", "opening", "guarded"];
    let lines: Vec<String> = names
        .iter()
        .map(|n| {
            let text =
                std::fs::read_to_string(crate::binary::fixture("suggest", &format!("{n}.json")))
                    .unwrap();
            serde_json::to_string(&serde_json::from_str::<serde_json::Value>(&text).unwrap())
                .unwrap()
        })
        .collect();
    let input = format!("{}\n\n{}\n{}\n", lines[0], lines[1], lines[2]);
    let path = dir.join("positions.jsonl");
    std::fs::write(&path, &input).unwrap();
    let flags = ["--budget", "1000", "--seed", "2", "--top", "2"];
    let mut args = vec!["suggest", "--batch", path.to_str().unwrap()];
    args.extend(flags);
    let out = String::from_utf8(crate::binary::ok(&args)).unwrap();
    let plans: Vec<&str> = out.lines().collect();
    assert_eq!(plans.len(), 3);
    for (k, n) in names.iter().enumerate() {
        let fixture = crate::binary::fixture("suggest", &format!("{n}.json"));
        let mut one = vec!["suggest", fixture.as_str(), "--compact"];
        one.extend(flags);
        let single = String::from_utf8(crate::binary::ok(&one)).unwrap();
        assert_eq!(format!("{}\n", plans[k]), single, "{n}");
    }
    let stdin = crate::binary::run(
        &[&["suggest", "--batch", "-"][..], &flags[..]].concat(),
        Some(&input),
    );
    assert_eq!(stdin.code, Some(0), "{}", stdin.stderr);
    assert_eq!(String::from_utf8(stdin.stdout).unwrap(), out);
    // A bad third position: exit 2, naming its line (4: the blank line counts).
    let bad = input.replacen("\"seat\"", "\"sit\"", 3);
    let bad_path = dir.join("bad.jsonl");
    std::fs::write(&bad_path, bad.replacen("\"sit\"", "\"seat\"", 2)).unwrap();
    let r = crate::binary::run(
        &[
            "suggest",
            "--batch",
            bad_path.to_str().unwrap(),
            "--budget",
            "1000",
        ],
        None,
    );
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("(line 4)"), "{}", r.stderr);
}

/// Issue #38, item 4: `--objective twenty` on the takeout position ranked a 20 attempt
/// (straight at the hole: P(20) = 0, the must-hit rule removes it) first on seeds 0, 3, 4,
/// 5, 6 and 7: most flicks there score no counted 20, ranked by the objective's sum alone
/// they all tied, and ties kept the lowest index (the hole's candidates come first) through
/// the sweep, the climbs and the race. Ties are now broken by the score change, so the
/// search climbs from takeouts that stay near the centre to the cut that rolls into the
/// hole (P(20) about 0.36). Seeds 0 and 3 were 0; 1 was right before.
#[test]
fn the_twenty_objective_finds_a_flick_that_scores_twenties() {
    let takeout = fixture("suggest", "takeout.json");
    for seed in ["0", "1", "3"] {
        let plan: Value = serde_json::from_slice(&binary::ok(&[
            "suggest",
            &takeout,
            "--objective",
            "twenty",
            "--seed",
            seed,
            "--top",
            "1",
        ]))
        .unwrap();
        let p20 = plan["top"][0]["classes"]["twenty"]["p"].as_f64().unwrap();
        assert!(p20 > 0.25, "seed {seed}: the top flick's P(20) is {p20}");
    }
}
