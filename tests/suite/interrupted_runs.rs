//! Long runs stopped part way: Ctrl-C, SIGTERM (a scheduler) and SIGHUP stop `crokinole
//! montecarlo`, `play`, `suggest` and `simulate` within a fraction of a second (the engine
//! checks the request within every shot), keep every finished sample (whole lines of the
//! samples file) and print the summary of what finished, marked `stopped`, which is byte
//! for byte the summary of the shorter run; a stopped shard prints no state; `kill -9`
//! leaves whole lines but at most a cut last one. The exit status is 128 + the signal's
//! number. Heavy inputs (a cage of pegs around 64 elastic frictionless discs, seconds a
//! shot) show that the stop does not wait for a shot, a sample, a game or a search stage to
//! end. Linux only (kill(2) sends the signals, /proc shows the handlers).
#![cfg(target_os = "linux")]

use crate::binary;

use binary::{fixture, ok, scratch};

use serde_json::Value;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Starts `crokinole ARGS` with its output piped.
fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_crokinole"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until `ready` holds, failing if the child ends first or two minutes pass.
fn wait_until(child: &mut Child, what: &str, ready: impl Fn() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "{what}: not in two minutes"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "{what}: the run ended early"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Whether the child has a handler for SIGINT (Linux: the `SigCgt` mask of
/// /proc/PID/status; the Rust runtime catches no SIGINT of its own).
fn catches_sigint(pid: u32) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"));
    status.ok().is_some_and(|s| {
        s.lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            .is_some_and(|mask| mask & (1 << (libc::SIGINT - 1)) != 0)
    })
}

/// The summary `stopped` printed, without its `stopped` member (readable layout).
fn without_stop(summary: &str, requested: u64) -> String {
    summary
        .replace(
            &format!("  \"stopped\": {{\n    \"requested\": {requested}\n  }},\n"),
            "",
        )
        .replace(
            &format!("  \"stopped\": {{\"requested\": {requested}}},\n"),
            "",
        )
}

/// Starts a long run of the crowded study (10^8 samples) writing `out`, and returns it
/// once its first chunk of samples is on disk (the signal handlers are in place by then).
fn long_run(out: &Path, extra: &[&str]) -> Child {
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
    let mut child = spawn(&args);
    wait_until(&mut child, "the first chunk", || {
        std::fs::metadata(out).map_or(0, |m| m.len()) > 0
    });
    child
}

/// Sends `signal` to the child.
fn signal(child: &Child, signal: libc::c_int) {
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

/// Checks that `text`'s lines are samples `first`, `first + 1`, ... in order.
fn numbered_from(text: &str, first: u64) {
    for (k, line) in text.lines().enumerate() {
        let v: Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["sample"], first + k as u64);
    }
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
    assert!(n > 0, "the first samples are kept: {n} lines");
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
    numbered_from(&text, 33_333_333);
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

#[test]
fn ctrl_c_stops_a_run_of_games_between_chunks_and_summarises_the_finished_games() {
    let args = [
        "play",
        "--games",
        "1000000",
        "--strategies",
        "random,random",
        "--threads",
        "2",
    ];
    let mut child = spawn(&args);
    // Only a process that catches SIGINT can stop cleanly: wait for its handler.
    let pid = child.id();
    wait_until(&mut child, "a SIGINT handler", || catches_sigint(pid));
    std::thread::sleep(Duration::from_millis(100));
    signal(&child, libc::SIGINT);
    let done = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(130), "128 + SIGINT; {stderr}");
    let summary = String::from_utf8(done.stdout).unwrap();
    let v: Value = serde_json::from_str(&summary).unwrap();
    let n = v["games"].as_u64().unwrap();
    assert!(n > 0, "the first games are kept: {n}");
    assert_eq!(v["stopped"]["requested"], 1_000_000u64);
    assert!(
        stderr.starts_with(&format!("stopped: SIGINT after {n} of 1000000 games")),
        "{stderr}"
    );
    let n_text = n.to_string();
    let mut shorter = args.to_vec();
    shorter[2] = &n_text;
    let whole = ok(&shorter);
    assert_eq!(
        without_stop(&summary, 1_000_000),
        String::from_utf8(whole).unwrap()
    );
}

/// The board and physics of the heavy cage: 110 pegs in a ring just inside the surface,
/// elastic frictionless discs and pegs, a hole too small to swallow anything, and a long
/// `max_time`: a shot with 64 discs in it runs until its 100,000 events, seconds of CPU.
/// JSON members `board` and `physics` (without braces around them).
pub fn cage_board_physics() -> String {
    let (r, n) = (0.326f64, 110);
    let pegs: Vec<String> = (0..n)
        .map(|k| {
            let a = 2.0 * std::f64::consts::PI * f64::from(k) / f64::from(n);
            format!("[{:.6},{:.6}]", r * a.cos(), r * a.sin())
        })
        .collect();
    format!(
        "\"board\":{{\"pegs\":[{}],\"hole_radius\":0.0001}},\"physics\":{{\"board_friction\":0.0,\
         \"disc_restitution\":1.0,\"peg_restitution\":1.0,\"disc_friction\":0.0,\
         \"peg_friction\":0.0,\"max_time\":2000}}",
        pegs.join(",")
    )
}

/// The 64 discs at rest inside the cage, as a JSON array.
pub fn cage_discs() -> String {
    let mut discs = Vec::new();
    let d = 0.034;
    let mut y = -0.26f64;
    while y < 0.27 && discs.len() < 64 {
        let mut x = -0.3f64;
        while x < 0.3 && discs.len() < 64 {
            let (r, from_shooter) = (x.hypot(y), x.hypot(y + 0.3048));
            if r < 0.285 && r > 0.05 && from_shooter > 0.04 {
                discs.push(format!(
                    "{{\"team\":{},\"pos\":[{x:.6},{y:.6}]}}",
                    discs.len() % 2
                ));
            }
            x += d;
        }
        y += d;
    }
    format!("[{}]", discs.join(","))
}

/// A shot file of `shots` heavy cage shots (seconds each).
pub fn cage_shot_file(shots: usize) -> String {
    let shot = format!(
        "{{\"discs\":{},\"shooter\":{{\"team\":0,\"pos\":[0.0,-0.3048],\"vel\":[0.3,3.0],\"spin\":0.0}}}}",
        cage_discs()
    );
    format!(
        "{{{},\"shots\":[{}]}}",
        cage_board_physics(),
        vec![shot; shots].join(",")
    )
}

/// A study of the cage: every sample a heavy shot.
fn cage_study() -> String {
    format!(
        "{{{},\"seat\":0,\"discs\":{},\"flick\":{{\"offset\":0.0,\"aim\":0.1,\"speed\":3.0}},\
         \"noise\":{{\"offset\":0.001,\"aim\":0.01,\"speed\":0.05,\"spin\":1.0}}}}",
        cage_board_physics(),
        cage_discs()
    )
}

/// Starts `args`, waits until it catches SIGINT and `warm` more, sends SIGINT and returns
/// the output and the time from the signal to the exit.
fn stopped_after(args: &[&str], warm: Duration) -> (std::process::Output, Duration) {
    let mut child = spawn(args);
    let pid = child.id();
    wait_until(&mut child, "a SIGINT handler", || catches_sigint(pid));
    std::thread::sleep(warm);
    assert!(child.try_wait().unwrap().is_none(), "{args:?} ended early");
    let sent = Instant::now();
    signal(&child, libc::SIGINT);
    let done = child.wait_with_output().unwrap();
    (done, sent.elapsed())
}

/// [`stopped_after`], and the run ended as a stopped one, promptly: exit status 130 (128 +
/// SIGINT) within [`PROMPT`] of the signal. Its output, and its standard error as text.
fn stopped_promptly(args: &[&str], warm: Duration) -> (std::process::Output, String) {
    let (done, took) = stopped_after(args, warm);
    let stderr = String::from_utf8_lossy(&done.stderr).into_owned();
    assert_eq!(
        done.status.code(),
        Some(130),
        "{args:?}: 128 + SIGINT; {stderr}"
    );
    assert!(
        took < PROMPT,
        "{args:?}: stopped {took:?} after SIGINT; {stderr}"
    );
    (done, stderr)
}

/// How long a stopped run may take to end after SIGINT: the engine sees the request within
/// milliseconds; the bound is generous for a loaded two-core machine (each heavy shot,
/// sample or stage below takes seconds, so a run that waited for one would exceed it).
const PROMPT: Duration = Duration::from_secs(5);

#[test]
fn ctrl_c_stops_a_study_of_heavy_samples_within_a_second_and_keeps_the_first_samples() {
    let dir = scratch("heavy-study");
    let study = dir.join("cage.json");
    std::fs::write(&study, cage_study()).unwrap();
    let out = dir.join("s.jsonl");
    let (_, stderr) = stopped_promptly(
        &[
            "montecarlo",
            study.to_str().unwrap(),
            "--samples",
            "64",
            "--threads",
            "2",
            "--samples-out",
            out.to_str().unwrap(),
        ],
        Duration::from_millis(500),
    );
    // Whatever finished is whole lines, in order from sample 0 (likely none here).
    let text = std::fs::read_to_string(&out).unwrap();
    let n = numbered_lines(&text);
    assert!(
        stderr.starts_with(&format!("stopped: SIGINT after {n} of 64 samples")),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ctrl_c_stops_a_heavy_simulate_within_a_second_keeping_the_finished_shots() {
    let dir = scratch("heavy-simulate");
    let file = dir.join("cage.json");
    std::fs::write(&file, cage_shot_file(8)).unwrap();
    // Two threads, and one (every stage on the main thread: no thread watches the flag but
    // the shot itself).
    for threads in ["2", "1"] {
        let (done, stderr) = stopped_promptly(
            &["simulate", file.to_str().unwrap(), "--threads", threads],
            Duration::from_millis(300),
        );
        let v: Value = serde_json::from_slice(&done.stdout).unwrap();
        let n = v["outcomes"].as_array().unwrap().len();
        assert!(
            stderr.starts_with(&format!("stopped: SIGINT after {n} of 8 shots")),
            "{stderr}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Symptom: Ctrl-C early in the run of a file over 16 MiB (read from disk, checked in a
/// pass of its own) waited for the whole file's check: half a second for 75 MB, seconds
/// for a gigabyte. Now the check stops too, between two shots; the outcomes of the shots
/// that finished are written, and the message says the file was not checked whole.
#[test]
fn ctrl_c_stops_the_check_of_a_large_file_at_once() {
    let dir = scratch("large-check");
    let file = dir.join("still.json");
    let shot = r#"{"discs": [], "shooter": {"team": 0, "pos": [0, -0.3048], "vel": [0, 0]}}"#;
    let n = 400_000; // 30 MB: a check of about a quarter of a second
    let mut text = String::with_capacity(n * (shot.len() + 2) + 16);
    text.push_str("{\"shots\": [\n");
    for k in 0..n {
        text.push_str(shot);
        text.push_str(if k + 1 < n { ",\n" } else { "\n" });
    }
    text.push_str("]}\n");
    std::fs::write(&file, &text).unwrap();
    drop(text);
    for threads in ["2", "1"] {
        let (done, stderr) = stopped_promptly(
            &["simulate", file.to_str().unwrap(), "--threads", threads],
            Duration::ZERO,
        );
        let v: Value = serde_json::from_slice(&done.stdout).unwrap();
        let written = v["outcomes"].as_array().unwrap().len();
        assert!(
            stderr.starts_with(&format!(
                "stopped: SIGINT after {written} shots, before the whole file was checked"
            )),
            "--threads {threads}: {stderr}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `crokinole fit` of 200 tracked shots (seconds): Ctrl-C stops it within a simulation,
/// says a stopped fit has no result and writes nothing (no report, no blocks, no
/// temporary file).
#[test]
fn ctrl_c_stops_a_fit_and_writes_nothing() {
    let dir = scratch("fit");
    let example: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("tracks", "example.json")).unwrap())
            .unwrap();
    let mut many = example.clone();
    let shots = example["shots"].as_array().unwrap();
    many["shots"] = Value::Array(shots.iter().cycle().take(200).cloned().collect());
    let file = dir.join("tracks.json");
    std::fs::write(&file, many.to_string()).unwrap();
    let (report, params) = (dir.join("report.txt"), dir.join("params.json"));
    let (_, stderr) = stopped_promptly(
        &[
            "fit",
            file.to_str().unwrap(),
            "--threads",
            "2",
            "-o",
            report.to_str().unwrap(),
            "--physics-out",
            params.to_str().unwrap(),
        ],
        Duration::from_millis(300),
    );
    assert!(
        stderr.starts_with("stopped: SIGINT after part of the fit"),
        "{stderr}"
    );
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, [std::ffi::OsString::from("tracks.json")]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ctrl_c_stops_suggest_with_a_huge_budget_within_a_second() {
    let file = fixture("suggest", "takeout.json");
    let (done, stderr) = stopped_promptly(
        &["suggest", &file, "--budget", "100000000", "--threads", "2"],
        Duration::from_millis(1500),
    );
    assert!(stderr.starts_with("stopped: SIGINT after "), "{stderr}");
    // The best so far (if any candidate finished), marked stopped.
    if !done.stdout.is_empty() {
        let v: Value = serde_json::from_slice(&done.stdout).unwrap();
        assert_eq!(v["budget"]["stopped"], true, "{v}");
        assert!(!v["top"].as_array().unwrap().is_empty());
    }
}

#[test]
fn ctrl_c_stops_play_with_planner_strategies_within_a_second() {
    for games in ["1", "4"] {
        let (_, stderr) = stopped_promptly(
            &[
                "play",
                "--games",
                games,
                "--strategies",
                "planner:budget=2000000,planner:budget=2000000",
                "--threads",
                "2",
            ],
            Duration::from_millis(500),
        );
        assert!(
            stderr.starts_with("stopped: SIGINT after 0 of "),
            "{stderr}"
        );
    }
}

#[test]
fn a_cancelled_world_and_planner_stop_at_once_and_uncancelled_ones_are_unchanged() {
    use crokinole::cancel::Cancel;
    use crokinole::plan::{PlanConfig, suggest, suggest_until};
    // A heavy cage shot: cancelled from another thread after 100 ms, the run ends within
    // milliseconds with the error, not an outcome.
    let file = crokinole::jobs::simulate::ShotFile::read(&cage_shot_file(1)).unwrap();
    let shot = &file.shots()[0];
    let mut world = shot.world(&file.board, &file.physics).unwrap();
    let cancel = Cancel::new();
    let stopper = {
        let cancel = cancel.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            cancel.cancel();
            Instant::now()
        })
    };
    assert!(world.run_until(&cancel).is_err());
    let asked = stopper.join().unwrap();
    assert!(
        asked.elapsed() < Duration::from_millis(500),
        "{:?}",
        asked.elapsed()
    );
    // An ordinary shot: the same bits with a Cancel to watch.
    let example = crokinole::jobs::simulate::ShotFile::read(
        &std::fs::read_to_string(fixture("", "example.json")).unwrap(),
    )
    .unwrap();
    for s in example.shots() {
        let mut a = s.world(&example.board, &example.physics).unwrap();
        let mut b = a.clone();
        assert_eq!(a.run(), b.run_until(&Cancel::new()).unwrap());
        assert_eq!(a.discs(), b.discs());
        assert_eq!(a.events(), b.events());
    }
    // The planner with a huge budget, stopped after 300 ms: the best so far, marked.
    let text = std::fs::read_to_string(fixture("suggest", "takeout.json")).unwrap();
    let request = crokinole::jobs::plan::read(&text).unwrap();
    let config = PlanConfig {
        budget: crokinole::plan::Budget::Samples(100_000_000),
        ..PlanConfig::default()
    };
    let budgeted = Cancel::new().with_budget(Duration::from_millis(300));
    let start = Instant::now();
    let plan = suggest_until(&request, &config, &budgeted).unwrap();
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
    assert!(plan.stopped);
    assert!(!plan.top.is_empty(), "some coarse candidates finished");
    assert!(plan.samples_used < 100_000_000);
    // Uncancelled, the plan is suggest's.
    let small = PlanConfig {
        budget: crokinole::plan::Budget::Samples(2000),
        ..PlanConfig::default()
    };
    let plan = suggest_until(&request, &small, &Cancel::new()).unwrap();
    assert!(!plan.stopped);
    assert_eq!(plan, suggest(&request, &small).unwrap());
}
