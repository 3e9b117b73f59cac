//! How the binary writes: a closed pipe ends it quietly, output files appear whole or not
//! at all, a closed standard output is an error, and absurd thread counts are capped
//! instead of hanging the start.

use crate::binary;

use std::io::Read;
use std::process::{Command, Stdio};

/// Symptom: `crokinole simulate big.json | head` printed "Broken pipe" and exited 1.
/// Cause: the write error on standard output was reported like any other. Now it ends
/// the command quietly with the status of a process killed by SIGPIPE, as coreutils do.
#[test]
fn a_reader_that_goes_away_ends_the_command_quietly() {
    let fixture = binary::fixture("", "crowded.json");
    // --trace 1 makes the output megabytes long, far beyond any pipe buffer.
    let mut child = Command::new(env!("CARGO_BIN_EXE_crokinole"))
        .args(["simulate", &fixture, "--trace", "1", "--threads", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = [0u8; 100];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut head)
        .unwrap();
    drop(child.stdout.take());
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(141), "stderr: {stderr}");
    assert!(stderr.is_empty(), "stderr: {stderr}");
}

#[test]
fn an_output_file_is_whole_or_absent() {
    let dir = binary::scratch("output_whole");
    let fixture = binary::fixture("", "example.json");
    let out = dir.join("outcomes.json");
    let run = binary::run(&["simulate", &fixture, "-o", out.to_str().unwrap()], None);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let written = std::fs::read(&out).unwrap();
    let to_stdout = binary::run(&["simulate", &fixture], None);
    assert_eq!(written, to_stdout.stdout);
    // Nothing but the output itself is left in the directory.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("outcomes.json")]);
    // A write that cannot happen fails with exit 1, names the file and leaves nothing.
    let missing = dir.join("no-such-dir").join("x.json");
    let run = binary::run(
        &["simulate", &fixture, "-o", missing.to_str().unwrap()],
        None,
    );
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr.contains("cannot write") && run.stderr.contains("x.json"),
        "{}",
        run.stderr
    );
    assert!(!dir.join("no-such-dir").exists());
}

/// Symptom: after the suite ran, `/dev/full` and `/dev/null` were regular files: the
/// output was written under a temporary name and renamed over the path, so `--output`
/// on a device (`/dev/full`, a fuzz case) or a named pipe replaced it, and on a symbolic
/// link replaced the link. Now only a regular file is replaced whole (through a link, the
/// file it points to); a pipe or a device is written through.
#[test]
#[cfg(unix)]
fn an_output_that_is_a_pipe_a_device_or_a_link_is_written_through_not_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let dir = binary::scratch("output_through");
    let fixture = binary::fixture("", "example.json");
    let expected = binary::run(&["simulate", &fixture], None).stdout;
    let kind = |p: &std::path::Path| std::fs::symlink_metadata(p).unwrap().file_type();

    // A named pipe, read on a thread while the command writes it.
    let fifo = dir.join("pipe");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    let run = binary::run(&["simulate", &fixture, "-o", fifo.to_str().unwrap()], None);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // Checked before joining: a pipe renamed over would leave the reader waiting.
    assert!(kind(&fifo).is_fifo(), "the pipe was replaced by a file");
    assert_eq!(reader.join().unwrap(), expected);

    // A symbolic link to a regular file: the file is replaced, the link stays.
    let target = dir.join("target.json");
    std::fs::write(&target, "old").unwrap();
    let link = dir.join("link.json");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let run = binary::run(&["simulate", &fixture, "-o", link.to_str().unwrap()], None);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(kind(&link).is_symlink(), "the link was replaced by a file");
    assert_eq!(std::fs::read(&target).unwrap(), expected);
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["link.json", "pipe", "target.json"]);

    // A device that refuses every write: exit 1 naming it, and the device is still there.
    let full = std::path::Path::new("/dev/full");
    if std::fs::symlink_metadata(full).is_ok_and(|m| m.file_type().is_char_device()) {
        let run = binary::run(&["simulate", &fixture, "-o", "/dev/full"], None);
        assert_eq!(run.code, Some(1), "{}", run.stderr);
        assert!(
            run.stderr.contains("cannot write `/dev/full`"),
            "{}",
            run.stderr
        );
        assert!(
            kind(full).is_char_device(),
            "/dev/full was replaced by a file"
        );
    }
}

/// Symptom: `--threads 100000` spawned thousands of threads and did not finish in 120 s.
#[test]
fn an_absurd_thread_count_is_capped_with_a_note() {
    let fixture = binary::fixture("", "example.json");
    let one = binary::run(&["simulate", &fixture, "--threads", "1"], None);
    let many = binary::run(&["simulate", &fixture, "--threads", "4294967295"], None);
    assert_eq!(many.code, Some(0), "{}", many.stderr);
    assert_eq!(many.stdout, one.stdout);
    assert!(many.stderr.contains("capped at 256"), "{}", many.stderr);
}

/// Symptom: a study passed to `simulate` was refused with only `unknown field seat`.
/// Now the message also says what the file looks like and which command reads it.
#[test]
fn a_file_of_the_wrong_kind_says_what_it_is_and_who_reads_it() {
    let study = binary::fixture("montecarlo", "takeout.json");
    let suggest = binary::fixture("suggest", "takeout.json");
    let shots = binary::fixture("", "example.json");
    let cases: [(&[&str], &str); 5] = [
        (
            &["simulate", &study],
            "looks like a study file (read by `crokinole montecarlo`",
        ),
        (
            &["montecarlo", &shots],
            "looks like a shot file (read by `crokinole simulate`",
        ),
        // `render shot` of a suggest file names the command that draws a flick of it.
        (
            &["render", "shot", &suggest],
            "`crokinole flick FILE --plan PLAN` simulates and draws",
        ),
        (&["suggest", &study], "looks like a study file"),
        (
            &["render", "shot", &study],
            "`crokinole flick FILE` simulates and draws its intended flick",
        ),
    ];
    for (args, hint) in cases {
        binary::run(args, None).assert_refused(&args.join(" "), &[hint]);
    }
    // A file of the right kind with a mistake in it gets no such hint.
    let bad = r#"{"shots": [{"discs": [], "shooter": {"team": 0, "pos": [0, -0.3], "vel": [0, 1], "spin": 0}, "colour": 1}]}"#;
    let run = binary::run(&["simulate", "-"], Some(bad));
    run.assert_refused("a shot file with an unknown key", &["colour"]);
    assert!(!run.stderr.contains("looks like"), "{}", run.stderr);
}

/// Symptom: `crokinole simulate file.json >&-` printed nothing and exited 0: Rust's
/// runtime reopens a closed standard output on /dev/null (read-write) before `main`, so
/// the writes succeeded into nothing. Now that case is an error; `> /dev/null` (write-only,
/// as a shell opens it) still runs quietly.
#[test]
#[cfg(target_os = "linux")]
fn a_closed_standard_output_is_an_error_not_silence() {
    let fixture = binary::fixture("", "example.json");
    let bin = env!("CARGO_BIN_EXE_crokinole");
    let sh = |redirect: &str| {
        Command::new("sh")
            .arg("-c")
            .arg(format!("exec \"$0\" simulate \"$1\" {redirect}"))
            .args([bin, fixture.as_str()])
            .output()
            .unwrap()
    };
    let closed = sh(">&-");
    let stderr = String::from_utf8_lossy(&closed.stderr);
    assert_eq!(closed.status.code(), Some(1), "stderr: {stderr}");
    assert!(
        stderr.starts_with("error: cannot write standard output: it was closed"),
        "{stderr}"
    );
    let null = sh("> /dev/null");
    assert_eq!(null.status.code(), Some(0));
    assert!(null.stderr.is_empty());
    // With --output the closed standard output does not matter.
    let dir = binary::scratch("closed_stdout");
    let out = dir.join("o.json");
    let with_file = sh(&format!("-o {} >&-", out.display()));
    assert_eq!(with_file.status.code(), Some(0));
    assert!(out.exists());
}

/// Issue #42, item 9: an output path equal to an input or to another output destroyed data
/// silently (`--samples-out` equal to the study file, `-o` equal to the input, `-o X
/// --samples-out X`, `fit -o X --svg X`); each is refused before anything is read or
/// written, naming the flag, and the files are left as they were.
#[test]
fn an_output_equal_to_an_input_or_another_output_is_refused() {
    let dir = crate::binary::scratch("output_clash");
    let study = dir.join("study.json");
    std::fs::copy(crate::binary::fixture("montecarlo", "takeout.json"), &study).unwrap();
    let tracks = dir.join("tracks.json");
    std::fs::copy(crate::binary::fixture("tracks", "example.json"), &tracks).unwrap();
    let shots = dir.join("shots.json");
    std::fs::copy(crate::binary::fixture("", "example.json"), &shots).unwrap();
    let (s, t, x) = (
        study.to_str().unwrap(),
        tracks.to_str().unwrap(),
        dir.join("x.out"),
    );
    let x = x.to_str().unwrap();
    let same_study = format!("{}/./study.json", dir.display());
    let cases: [(Vec<&str>, &str); 6] = [
        (
            vec!["montecarlo", s, "--samples", "10", "--samples-out", s],
            "samples-out",
        ),
        (
            vec!["montecarlo", s, "--samples", "10", "-o", &same_study],
            "output",
        ),
        (
            vec![
                "montecarlo",
                s,
                "--samples",
                "10",
                "-o",
                x,
                "--samples-out",
                x,
            ],
            "output",
        ),
        (vec!["fit", t, "-o", x, "--svg", x], "output"),
        (
            vec![
                "simulate",
                shots.to_str().unwrap(),
                "-o",
                shots.to_str().unwrap(),
            ],
            "output",
        ),
        (vec!["flick", s, "--shot-out", s], "shot-out"),
    ];
    let before = std::fs::read(&study).unwrap();
    for (args, flag) in &cases {
        let r = crate::binary::run(args, None);
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!("field `{flag}`")),
            "{args:?}: {}",
            r.stderr
        );
        assert!(r.stderr.contains("would destroy"), "{}", r.stderr);
    }
    assert_eq!(
        std::fs::read(&study).unwrap(),
        before,
        "the study file is untouched"
    );
    assert!(!std::path::Path::new(x).exists());
}
