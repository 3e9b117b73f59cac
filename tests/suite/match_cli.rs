//! `crokinole match`, `match replay` and `player` as a user runs them: the readable result
//! and the log's path, replay's exit codes, the built-in wrapper as a stdio program and
//! over TCP (`--listen`, `--connect`), Ctrl-C keeping the log, bad flags refused.

use crate::binary::scratch;
use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_crokinole");

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn a_match_prints_its_result_and_its_log_replays() {
    let dir = scratch("cli");
    let log = dir.join("m.jsonl");
    let log = log.to_str().unwrap();
    let wrapper = format!("{BIN} player builtin:greedy:k=2");
    let out = run(&[
        "match",
        "--player",
        &wrapper,
        "--player",
        "builtin:random",
        "--seed",
        "3",
        "--log",
        log,
        "--ruleset",
        "tournament",
        "--noise",
        "club",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("seed 3"), "{text}");
    assert!(text.contains("builtin:greedy:k=2"), "{text}");
    assert!(text.contains(&format!("log: {log}")), "{text}");
    assert!(text.contains("after 64 shots"), "{text}");
    let ok = run(&["match", "replay", log]);
    assert_eq!(ok.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&ok.stdout).starts_with("ok: "));
    // A flipped digit in an outcome: exit 1, the line named.
    let body = std::fs::read_to_string(log).unwrap();
    let (bad, k) = tampered(&body);
    let bad_path = dir.join("bad.jsonl");
    std::fs::write(&bad_path, bad).unwrap();
    let no = run(&["match", "replay", bad_path.to_str().unwrap()]);
    assert_eq!(no.status.code(), Some(1));
    let err = String::from_utf8_lossy(&no.stderr);
    assert!(err.contains(&format!("line {}:", k + 1)), "{err}");
}

#[test]
fn builtins_join_a_listening_referee_over_tcp() {
    let dir = scratch("tcp");
    let log = dir.join("t.jsonl");
    let mut referee = Command::new(BIN)
        .args([
            "match",
            "--listen",
            "127.0.0.1:0",
            "--players",
            "2",
            "--seed",
            "8",
        ])
        .args(["--ruleset", "tournament", "--max-rounds", "1", "--log"])
        .arg(&log)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(referee.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let addr = first.strip_prefix("listening on ").unwrap().to_string();
    let mut players = Vec::new();
    for _ in 0..2 {
        let l = lines.next().unwrap().unwrap();
        let token = l.rsplit(' ').next().unwrap().to_string();
        players.push(
            Command::new(BIN)
                .args([
                    "player",
                    "builtin:random",
                    "--connect",
                    &addr,
                    "--token",
                    &token,
                ])
                .spawn()
                .unwrap(),
        );
    }
    let rest: Vec<String> = lines.map(|l| l.unwrap()).collect();
    assert_eq!(referee.wait().unwrap().code(), Some(0), "{rest:?}");
    for mut p in players {
        assert_eq!(p.wait().unwrap().code(), Some(0));
    }
    assert!(
        rest.iter().any(|l| l.contains("after 16 shots")),
        "{rest:?}"
    );
    let ok = run(&["match", "replay", log.to_str().unwrap()]);
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
}

#[test]
fn ctrl_c_stops_a_match_keeping_its_log() {
    let dir = scratch("sigint");
    let log = dir.join("s.jsonl");
    let silent = "sh -c 'read l; echo {\\\"type\\\":\\\"ready\\\",\\\"name\\\":\\\"s\\\"}; while read l; do :; done'";
    let referee = Command::new(BIN)
        .args([
            "match", "--player", silent, "--player", silent, "--seed", "1",
        ])
        .arg("--log")
        .arg(&log)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    ctrl_c(referee, Duration::from_millis(700));
    let body = std::fs::read_to_string(&log).unwrap();
    let last = body.lines().last().unwrap();
    assert!(last.contains("\"stopped\":true"), "{last}");
    let ok = run(&["match", "replay", log.to_str().unwrap()]);
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
}

#[test]
fn bad_match_flags_are_refused() {
    let random = "builtin:random";
    for (args, named) in [
        (
            &[
                "match",
                "--player",
                random,
                "--player",
                random,
                "--players",
                "4",
            ][..],
            "player",
        ),
        (
            &["match", "--player", "builtin:nope", "--player", random],
            "player[0]",
        ),
        (
            &[
                "match",
                "--player",
                random,
                "--player",
                random,
                "--clock=-1",
            ],
            "clock.total_s",
        ),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(named), "{args:?}: {err}");
    }
}

#[test]
fn ctrl_c_stops_a_tournament_keeping_the_finished_games() {
    let dir = scratch("tournament_sigint");
    let silent = "sh -c 'read l; echo {\\\"type\\\":\\\"ready\\\",\\\"name\\\":\\\"s\\\"}; while read l; do :; done'";
    let config = serde_json::json!({
        "players": [{"name": "a", "player": "builtin:random"},
                    {"name": "b", "player": "builtin:random"},
                    {"name": "silent", "player": silent}],
        "ruleset": "tournament", "max_rounds": 1,
    });
    let file = dir.join("t.json");
    std::fs::write(&file, config.to_string()).unwrap();
    let logs = dir.join("logs");
    let child = Command::new(BIN)
        .args(["tournament", "--jobs", "1", "--logs"])
        .arg(&logs)
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = ctrl_c(child, Duration::from_millis(1500));
    let text = String::from_utf8_lossy(&out.stdout);
    // a-b played both games; the silent player's first game was under way.
    assert!(text.contains("2 of 6 games"), "{text}");
    for k in 0..2 {
        let log = logs.join(format!("game-{k:04}.jsonl"));
        let ok = run(&["match", "replay", log.to_str().unwrap()]);
        assert_eq!(ok.status.code(), Some(0));
    }
}

/// Ctrl-C to `child` after `after`: it exits 130 (its standard error shown if not);
/// returns what it wrote.
fn ctrl_c(child: std::process::Child, after: Duration) -> std::process::Output {
    std::thread::sleep(after);
    // SAFETY: kill(2) on our own child's pid.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A match log with one digit added to the outcome time of its first `shot` message (a
/// tampered outcome, for replay to refuse naming the line), and that line's index from 0.
pub(crate) fn tampered(log: &str) -> (String, usize) {
    let k = log
        .lines()
        .position(|l| l.contains("\"type\":\"shot\""))
        .unwrap();
    let lines: Vec<String> = log
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == k {
                l.replacen("\"time\":", "\"time\":1", 1)
            } else {
                l.into()
            }
        })
        .collect();
    (lines.join("\n") + "\n", k)
}

/// Issue #42, item 9: `match`, `tournament` and `match replay` panicked with a backtrace
/// (exit 101) on a full standard output; like every other command they now exit 1 with one
/// line.
#[test]
fn a_full_standard_output_is_a_write_failure_not_a_panic() {
    let dir = crate::binary::scratch("full_stdout");
    let log = dir.join("m.jsonl");
    let config = dir.join("t.json");
    std::fs::write(
        &config,
        r#"{"players": [{"name": "a", "player": "builtin:random"},
            {"name": "b", "player": "builtin:random"}], "max_rounds": 1}"#,
    )
    .unwrap();
    let full = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_crokinole"))
            .args(args)
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stderr).unwrap())
    };
    let logs = dir.join("logs");
    let cases: [Vec<&str>; 3] = [
        vec![
            "match",
            "--player",
            "builtin:random",
            "--player",
            "builtin:random",
            "--max-rounds",
            "1",
            "--log",
            log.to_str().unwrap(),
        ],
        vec!["match", "replay", log.to_str().unwrap()],
        vec![
            "tournament",
            config.to_str().unwrap(),
            "--logs",
            logs.to_str().unwrap(),
        ],
    ];
    for args in &cases {
        let (code, stderr) = full(args);
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("error: cannot write standard output"),
            "{stderr}"
        );
    }
}

/// Issue #42, item 9: `match --log FILE` replaced any existing file; it is now refused,
/// the file untouched, unless `--overwrite-log`.
#[test]
fn an_existing_log_is_not_replaced_without_the_flag() {
    let dir = crate::binary::scratch("existing_log");
    let log = dir.join("precious.txt");
    std::fs::write(&log, "my notes\n").unwrap();
    let args = [
        "match",
        "--player",
        "builtin:random",
        "--player",
        "builtin:random",
        "--max-rounds",
        "1",
        "--log",
        log.to_str().unwrap(),
    ];
    let r = crate::binary::run(&args, None);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("--overwrite-log"), "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "my notes\n");
    let r = crate::binary::run(&[&args[..], &["--overwrite-log"]].concat(), None);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(std::fs::read_to_string(&log).unwrap().starts_with('{'));
}
