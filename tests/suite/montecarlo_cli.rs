//! `crokinole montecarlo` and `crokinole merge` (docs/montecarlo.md): the summary on
//! stdout, byte-identical for every thread count; shards merged into exactly the bytes of
//! one run, samples files included; refusals that name the field and write nothing. Runs
//! stopped by a signal are in tests/suite/interrupted_runs.rs.

use crate::binary;

use binary::{fixture, ok, run, scratch};

use serde_json::Value;
use std::path::Path;

#[test]
fn the_summary_is_json_and_the_same_for_every_thread_count() {
    let file = fixture("montecarlo", "opening.json");
    let args = |threads: &'static str| {
        vec![
            "montecarlo",
            file.as_str(),
            "--samples",
            "2500",
            "--seed",
            "17",
            "--threads",
            threads,
            "--positions",
        ]
    };
    let one = ok(&args("1"));
    for threads in ["2", "3"] {
        assert!(ok(&args(threads)) == one, "--threads {threads}");
    }
    let v: Value = serde_json::from_slice(&one).unwrap();
    assert_eq!(v["samples"], 2500);
    assert_eq!(v["seed"], 17);
    let classes = ["twenty", "fifteen", "ten", "five", "out", "ditch"];
    let total: u64 = classes
        .iter()
        .map(|c| v["shooter"][c]["count"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 2500);
    for c in classes {
        let ci = v["shooter"][c]["ci95"].as_array().unwrap();
        let p = v["shooter"][c]["p"].as_f64().unwrap();
        assert!(ci[0].as_f64().unwrap() <= p && p <= ci[1].as_f64().unwrap());
    }
    let hist = v["score_change"]["histogram"].as_array().unwrap();
    assert!(hist.iter().all(|pair| pair[0].as_i64().unwrap() % 5 == 0));
    assert_eq!(
        v["shooter_positions"]["first"].as_array().unwrap().len(),
        2500
    );
    // Standard input works too, and the default seed is 0.
    let text = std::fs::read_to_string(&file).unwrap();
    let r = run(&["montecarlo", "-", "--samples", "10"], Some(&text));
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let v: Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["seed"], 0);
}

#[test]
fn shards_and_merge_give_exactly_the_bytes_of_one_run() {
    let dir = scratch("shards");
    let file = fixture("montecarlo", "crowded.json");
    let p = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let common = ["--samples", "403", "--seed", "23"];
    let mut args = vec!["montecarlo", file.as_str()];
    args.extend(common);
    let all = p("all.jsonl");
    let mut single = args.clone();
    single.extend(["--samples-out", all.as_str(), "--threads", "2"]);
    let summary = ok(&single);

    let mut shard_files = Vec::new();
    let mut lines = Vec::new();
    for k in 1..=4 {
        let (state, samples) = (p(&format!("state{k}.json")), p(&format!("s{k}.jsonl")));
        let spec = format!("{k}/4");
        let threads = if k % 2 == 0 { "1" } else { "2" };
        let mut a = args.clone();
        a.extend([
            "--shard",
            spec.as_str(),
            "--samples-out",
            samples.as_str(),
            "--output",
            state.as_str(),
            "--threads",
            threads,
        ]);
        assert!(ok(&a).is_empty(), "--output takes the state");
        shard_files.push(state);
        lines.extend(std::fs::read(&samples).unwrap());
    }
    assert!(
        lines == std::fs::read(&all).unwrap(),
        "the shards' samples files, concatenated, are the run's"
    );
    let shuffled = [
        &shard_files[2],
        &shard_files[0],
        &shard_files[3],
        &shard_files[1],
    ];
    let mut merge = vec!["merge"];
    merge.extend(shuffled.iter().map(|s| s.as_str()));
    assert!(
        ok(&merge) == summary,
        "merge gives the single run's summary"
    );

    // One shard of one is the whole study.
    let mut a = args.clone();
    a.extend(["--shard", "1/1", "--output", &shard_files[0]]);
    ok(&a);
    assert!(ok(&["merge", &shard_files[0]]) == summary);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merge_refuses_shards_that_do_not_fit_together() {
    let dir = scratch("refuse");
    let state = |file: &str, seed: &str, samples: &str, shard: &str, name: &str| {
        let path = dir.join(name).to_str().unwrap().to_string();
        ok(&[
            "montecarlo",
            &fixture("montecarlo", file),
            "--samples",
            samples,
            "--seed",
            seed,
            "--shard",
            shard,
            "--output",
            &path,
        ]);
        path
    };
    let a = state("takeout.json", "1", "30", "1/3", "a.json");
    let b = state("takeout.json", "1", "30", "2/3", "b.json");
    let c = state("takeout.json", "1", "30", "3/3", "c.json");
    let seed = state("takeout.json", "2", "30", "3/3", "seed.json");
    let size = state("takeout.json", "1", "31", "3/3", "size.json");
    let other = state("opening.json", "1", "30", "3/3", "other.json");
    let half = state("takeout.json", "1", "30", "2/2", "half.json");
    let refused = |shards: &[&str], fragments: &[&str]| {
        let mut args = vec!["merge"];
        args.extend(shards);
        let r = run(&args, None);
        assert_eq!(r.code, Some(2), "{shards:?}: {}", r.stderr);
        assert!(r.stdout.is_empty());
        for f in fragments {
            assert!(
                r.stderr.contains(f),
                "{shards:?}: stderr lacks {f:?}: {}",
                r.stderr
            );
        }
    };
    refused(
        &[&a, &c],
        &["field `range`", "samples 10..20 are in no shard"],
    );
    refused(&[&a, &b], &["samples 20..30 are in no shard"]);
    refused(&[&a, &b, &c, &b], &["shards overlap"]);
    refused(&[&a, &b, &half], &["shards overlap"]);
    refused(&[&a, &b, &seed], &["field `seed`", "another study"]);
    refused(&[&a, &b, &size], &["field `samples`", "another study"]);
    refused(&[&a, &b, &other], &["field `input_hash`", "another study"]);
    let study = fixture("montecarlo", "takeout.json");
    refused(&[&a, &study], &["not a shard state file"]);
    let mut text = std::fs::read_to_string(&c).unwrap();
    text = text.replace("\"out\": 0", "\"out\": 1");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, text).unwrap();
    refused(
        &[&a, &b, bad.to_str().unwrap()],
        &["field `classes`", "bad.json"],
    );
    assert!(ok(&["merge", &c, &a, &b]).starts_with(b"{\n  \"samples\": 30,"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_refused_and_nothing_is_written() {
    let dir = scratch("bad");
    let out = dir.join("samples.jsonl");
    let out = out.to_str().unwrap();
    let cases: [(&str, &[&str]); 9] = [
        (
            r#"{"seat": 0, "flick": {"speed": 0.8}, "noise": {"speed": -0.05}}"#,
            &["field `noise.speed`", "must not be negative"],
        ),
        (
            r#"{"seat": 0, "flick": {"speed": 0.8}, "noise": {"aim": NaN}}"#,
            &["field `noise.aim`", "not JSON numbers"],
        ),
        (
            r#"{"seat": 2, "flick": {"speed": 0.8, "offset": -0.25}}"#,
            &["field `flick.offset`", "outside seat 2's quadrant"],
        ),
        (
            r#"{"seat": 0, "flick": {"speed": 0.8, "spinn": 1}}"#,
            &["field `flick.spinn`", "unknown field"],
        ),
        (
            r#"{"seat": 0, "flick": {"speed": 0.8},
                "physics": {"dt": 0}}"#,
            &["field `physics.dt`", "must be positive"],
        ),
        (
            r#"{"seat": 0, "flick": {"speed": 0.8},
                "board": {"pegs": [[0.1, 0.1, 0.1]]}}"#,
            &["field `board.pegs[0][2]`", "at line 2 column"],
        ),
        (
            r#"{"seat": 0, "flick": {"speed": 0.8}, "discs": [{"team": 1, "pos": [0.2, 0.4]}]}"#,
            &["field `discs[0].pos`", "off the playing surface"],
        ),
        (
            r#"{"seat": 1, "players": 2, "flick": {"speed": 0.8}}"#,
            &["field `seat`", "seats 0 and 2"],
        ),
        (r#"{"seat": 0}"#, &["field `file`", "missing field `flick`"]),
    ];
    for (text, fragments) in cases {
        let r = run(&["montecarlo", "-", "--samples-out", out], Some(text));
        assert_eq!(r.code, Some(2), "{text}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{text}");
        assert!(r.stderr.starts_with("error: "), "{}", r.stderr);
        for f in fragments {
            assert!(
                r.stderr.contains(f),
                "{text}: stderr lacks {f:?}: {}",
                r.stderr
            );
        }
        assert!(
            !Path::new(out).exists(),
            "{text}: a samples file was created"
        );
    }
    let good = fixture("montecarlo", "opening.json");
    for flags in [
        &["--samples", "0"][..],
        &["--shard", "0/4"],
        &["--shard", "5/4"],
        &["--shard", "two"],
        &["--threads", "0"],
    ] {
        let mut args = vec!["montecarlo", good.as_str(), "--samples-out", out];
        args.extend(flags);
        let r = run(&args, None);
        assert_eq!(r.code, Some(2), "{flags:?}: {}", r.stderr);
        assert!(r.stderr.contains(flags[0]), "{flags:?}: {}", r.stderr);
        assert!(
            !Path::new(out).exists(),
            "{flags:?}: a samples file was created"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_samples_file_has_one_line_per_sample_in_order() {
    let dir = scratch("lines");
    let out = dir.join("s.jsonl");
    let summary = ok(&[
        "montecarlo",
        &fixture("montecarlo", "takeout.json"),
        "--samples",
        "120",
        "--samples-out",
        out.to_str().unwrap(),
    ]);
    let summary: Value = serde_json::from_slice(&summary).unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    let mut classes = std::collections::BTreeMap::<String, u64>::new();
    for (k, line) in text.lines().enumerate() {
        let v: Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["sample"], k as u64);
        *classes
            .entry(v["class"].as_str().unwrap().into())
            .or_default() += 1;
        let discs = v["outcome"]["discs"].as_array().unwrap();
        assert_eq!(discs.len(), 4, "three discs at rest and the shooter");
        assert_eq!(discs[3]["team"], 1, "seat 1 of four players is team 1");
        assert!(v["flick"]["speed"].as_f64().unwrap() > 0.0);
        assert!(v["score_change"].as_i64().unwrap() % 5 == 0);
    }
    assert_eq!(text.lines().count(), 120);
    for (class, count) in classes {
        assert_eq!(summary["shooter"][&class]["count"], count, "{class}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merge_verifies_shards_by_re_simulating_their_samples() {
    // Issue #23, item 10: the checksum is unkeyed, so a forger who edits a state can
    // recompute it. A state commits to its study and to every sample's result; merge
    // re-simulates samples and refuses a state that does not hold what they give.
    use crokinole::io::{parse_state_study, state_json};
    use crokinole::montecarlo::ShotClass;
    use crokinole::montecarlo::tally::SampleRecord;
    let dir = scratch("verify");
    let file = fixture("montecarlo", "takeout.json");
    let p = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (s1, s2) = (p("s1.json"), p("s2.json"));
    for (k, out) in [("1/2", &s1), ("2/2", &s2)] {
        ok(&[
            "montecarlo",
            &file,
            "--samples",
            "40",
            "--seed",
            "3",
            "--shard",
            k,
            "--output",
            out,
        ]);
    }
    let honest = ok(&["merge", &s1, &s2]);
    // Every sample of the shard checked (K above its size) or the default few: same bytes.
    assert!(ok(&["merge", &s1, &s2, "--verify", "100"]) == honest);
    assert!(ok(&["merge", &s1, &s2, "--verify", "0"]) == honest);

    let text = std::fs::read_to_string(&s1).unwrap();
    let (tally, study) = parse_state_study(&text).unwrap();
    // A forger moves sample 5 to another class, with its record, the position classes and
    // the counts all consistent, and writes the state with a fresh checksum.
    let k = 5;
    let mut forged = tally.clone();
    let records = forged.records.as_mut().unwrap();
    let mut r = records[k].result();
    let old = r.class;
    r.class = if old == ShotClass::Twenty {
        ShotClass::Ten
    } else {
        ShotClass::Twenty
    };
    records[k] = SampleRecord::of(&r).unwrap();
    forged.classes[old.index()] -= 1;
    forged.classes[r.class.index()] += 1;
    forged.position_classes[k] = r.class;
    let forged_path = p("forged.json");
    std::fs::write(&forged_path, state_json(&forged, study.spec())).unwrap();
    // Its checksum and its sums are fine: only re-simulating sample 5 catches it.
    run(&["merge", &forged_path, &s2, "--verify", "100"], None).assert_refused(
        "a forged state",
        &[
            "field `records`",
            &format!("shard `{forged_path}`"),
            "sample 5:",
            "was edited",
        ],
    );
    // Without verifying, the forgery merges into another summary: what --verify 0 risks.
    let unverified = ok(&["merge", &forged_path, &s2, "--verify", "0"]);
    assert!(unverified != honest);

    // Counts edited without the records (checksum recomputed) are refused on reading.
    let mut counts_only = tally.clone();
    counts_only.classes[old.index()] -= 1;
    counts_only.classes[r.class.index()] += 1;
    counts_only.position_classes[k] = r.class;
    let counts_path = p("counts.json");
    std::fs::write(&counts_path, state_json(&counts_only, study.spec())).unwrap();
    run(&["merge", &counts_path, &s2], None).assert_refused(
        "edited counts",
        &["per-sample records add up to", "counts.json"],
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--samples-out FILE.parquet` (issue #40): the CSV's rows, typed, in row groups of
/// `io::ROW_GROUP` samples; read back with the format's own reader, every value equals the
/// CSV's (floats bit for bit), and the summary is the one without a samples file.
#[test]
fn the_samples_as_parquet_are_the_csvs_rows() {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::Field;
    let dir = scratch("parquet");
    let (pq, csv) = (dir.join("s.parquet"), dir.join("s.csv"));
    let study = fixture("montecarlo", "takeout.json");
    let run = |out: &std::path::Path| {
        ok(&[
            "montecarlo",
            &study,
            "--samples",
            "70000",
            "--samples-out",
            out.to_str().unwrap(),
        ])
    };
    assert_eq!(run(&pq), run(&csv));
    let reader = SerializedFileReader::new(std::fs::File::open(&pq).unwrap()).unwrap();
    assert_eq!(reader.metadata().file_metadata().num_rows(), 70_000);
    assert_eq!(
        reader.metadata().num_row_groups(),
        2,
        "65,536 rows and the rest"
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let mut n = 0;
    for (row, line) in reader.get_row_iter(None).unwrap().zip(lines) {
        let row = row.unwrap();
        let cells: Vec<&str> = line.split(',').collect();
        for ((name, field), (cell, column)) in row.get_column_iter().zip(cells.iter().zip(&header))
        {
            assert_eq!(name, column);
            let same = match field {
                Field::Long(v) => v.to_string() == *cell,
                Field::Int(v) => v.to_string() == *cell,
                Field::Double(v) => {
                    v.to_bits() == cell.parse::<f64>().unwrap().to_bits()
                        || (v.is_nan() && *cell == "NaN")
                }
                Field::Bool(v) => v.to_string() == *cell,
                Field::Str(v) => v == cell,
                other => panic!("column {name}: unexpected {other:?}"),
            };
            assert!(same, "row {n}, column {name}: {field:?} against `{cell}`");
        }
        n += 1;
    }
    assert_eq!(n, 70_000);
    std::fs::remove_dir_all(&dir).unwrap();
}
