//! `crokinole montecarlo` and `crokinole merge` (docs/montecarlo.md): the summary on
//! stdout, byte-identical for every thread count; shards merged into exactly the bytes of
//! one run, samples files included; refusals that name the field and write nothing; a run
//! stopped by a signal keeps whole lines of its finished samples and summarises them.

mod binary;

use binary::{fixture, run, scratch};

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs and expects success with nothing on stderr (no progress bar off a terminal).
fn ok(args: &[&str]) -> Vec<u8> {
    let r = run(args, None);
    assert_eq!(r.code, Some(0), "{args:?}: {}", r.stderr);
    assert!(r.stderr.is_empty(), "stderr: {}", r.stderr);
    r.stdout
}

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

/// Starts a long run of the crowded study (10^8 samples) writing `out`, and returns it
/// once its first chunk of samples is on disk (the signal handlers are in place by then).
fn long_run(out: &Path, extra: &[&str]) -> std::process::Child {
    let file = fixture("montecarlo", "crowded.json");
    let mut args = vec![
        "montecarlo",
        file.as_str(),
        "--samples",
        "100000000",
        "--threads",
        "2",
        "--samples-out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let mut child = Command::new(env!("CARGO_BIN_EXE_crokinole"))
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while std::fs::metadata(out).map_or(0, |m| m.len()) == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no sample written in two minutes"
        );
        assert!(child.try_wait().unwrap().is_none(), "the run ended early");
        std::thread::sleep(Duration::from_millis(5));
    }
    child
}

/// Sends `signal` to the child.
fn signal(child: &std::process::Child, signal: libc::c_int) {
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: kill(2) only sends a signal; `pid` is our own child, not yet waited for.
    let sent = unsafe { libc::kill(pid, signal) };
    assert_eq!(sent, 0, "kill({pid}, {signal})");
}

/// Checks that `text`'s lines are samples 0, 1, ... in order, each whole JSON, and
/// returns how many there are.
fn numbered_lines(text: &str) -> usize {
    for (k, line) in text.lines().enumerate() {
        let v: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("line {k} is not whole JSON: {e}"));
        assert_eq!(v["sample"], k as u64);
    }
    text.lines().count()
}

#[test]
fn ctrl_c_stops_between_chunks_and_summarises_the_finished_samples() {
    let dir = scratch("interrupted");
    let out = dir.join("s.jsonl");
    let child = long_run(&out, &[]);
    std::thread::sleep(Duration::from_millis(100));
    signal(&child, libc::SIGINT);
    let done = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(130), "128 + SIGINT; {stderr}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.ends_with('\n'), "the file ends with a whole line");
    let n = numbered_lines(&text);
    assert!(n > 0 && n.is_multiple_of(4096), "whole chunks: {n} lines");
    assert!(
        stderr.starts_with(&format!("stopped: SIGINT after {n} of 100000000 samples")),
        "{stderr}"
    );
    // The summary is that of the finished samples: the study run with `--samples n`, to
    // the byte, but for the line that says it stopped.
    let summary = String::from_utf8(done.stdout).unwrap();
    let v: Value = serde_json::from_str(&summary).unwrap();
    assert_eq!(v["samples"], n as u64);
    assert_eq!(v["stopped"]["requested"], 100_000_000u64);
    let n_text = n.to_string();
    let file = fixture("montecarlo", "crowded.json");
    let whole = ok(&["montecarlo", &file, "--samples", &n_text, "--threads", "2"]);
    let without_stop =
        summary.replace("  \"stopped\": {\n    \"requested\": 100000000\n  },\n", "");
    assert_eq!(without_stop, String::from_utf8(whole).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_stopped_shard_keeps_its_samples_and_prints_no_state() {
    // A shard's state must cover its whole range for `merge`: a stopped shard writes none.
    let dir = scratch("stopped-shard");
    let out = dir.join("s.jsonl");
    let child = long_run(&out, &["--shard", "2/3"]);
    signal(&child, libc::SIGTERM);
    let done = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(143), "128 + SIGTERM; {stderr}");
    assert!(done.stdout.is_empty(), "no state printed");
    assert!(stderr.contains("run the shard again"), "{stderr}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.ends_with('\n'));
    let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first["sample"], 33_333_333u64, "shard 2 of 3 starts there");
    assert!(text.lines().count().is_multiple_of(4096));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_run_killed_outright_leaves_whole_lines_and_at_most_a_cut_last_one() {
    // `kill -9` cannot be caught, and the kernel may stop a large write part way: every
    // line ending in a newline must still be a whole finished sample, in order, and what
    // follows the last newline a true beginning of the next sample's line.
    let dir = scratch("killed");
    let out = dir.join("s.jsonl");
    let mut child = long_run(&out, &[]);
    std::thread::sleep(Duration::from_millis(150));
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success());
    let text = std::fs::read_to_string(&out).unwrap();
    let whole_end = text.rfind('\n').map_or(0, |i| i + 1);
    let n = numbered_lines(&text[..whole_end]);
    assert!(
        n >= 4096,
        "the first chunk was on disk before the kill: {n} lines"
    );
    let cut = &text[whole_end..];
    if !cut.is_empty() {
        let again = dir.join("again.jsonl");
        let file = fixture("montecarlo", "crowded.json");
        let samples = (n + 1).to_string();
        ok(&[
            "montecarlo",
            &file,
            "--samples",
            &samples,
            "--samples-out",
            again.to_str().unwrap(),
        ]);
        let again = std::fs::read_to_string(&again).unwrap();
        let last = again.lines().last().unwrap();
        assert!(
            last.starts_with(cut),
            "the cut line is the beginning of sample {n}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
