//! `crokinole simulate` streams (issue #23, item 8): the shot file is read a shot at a
//! time and the outcomes written a chunk at a time, so memory is bounded by a chunk, not
//! the file; the streamed bytes are the whole-file writer's; a bad shot anywhere still
//! stops everything before anything is written; a large file given to the wrong command
//! is refused from its start.

use crate::binary::{run, scratch};
use crokinole::io::Layout;
use crokinole::jobs::simulate::{
    ShotFile, ShotSource, SimulateOptions, StreamOutput, Streamed, Text, check_and_simulate_stream,
    check_stream, simulate, simulate_stream,
};
use crokinole::rules::Ruleset;
use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

/// What the whole-file job gives for `text` with `flags` (a subset of the CLI's): the
/// bytes `crokinole simulate` printed before it streamed, or its error message.
fn whole(text: &str, flags: &[&str]) -> Result<Vec<u8>, String> {
    let file = ShotFile::read(text).map_err(|e| e.to_string())?;
    let trace = flags
        .iter()
        .position(|f| *f == "--trace")
        .map(|k| flags[k + 1].parse().unwrap());
    let options = SimulateOptions {
        rules: flags.contains(&"--rules").then_some(Ruleset::Traditional),
        trace,
    };
    let simulated = simulate(&file, options).map_err(|e| e.to_string())?;
    Ok(if flags.contains(&"--csv") {
        simulated.csv().into_bytes()
    } else if flags.contains(&"--compact") {
        simulated.text(Layout::Compact).into_bytes()
    } else {
        simulated.text(Layout::Readable).into_bytes()
    })
}

/// Runs `simulate PATH flags` on one thread (everything on the calling thread) and on two
/// (parsing, computing and writing overlapped) and checks both printed `whole`'s bytes (or
/// refused with its message).
fn assert_streams_as_whole(path: &str, flags: &[&str]) {
    let text = std::fs::read_to_string(path).unwrap();
    let expected = whole(&text, flags);
    for threads in ["1", "2"] {
        let mut args = vec!["simulate", path, "--threads", threads];
        args.extend_from_slice(flags);
        let r = run(&args, None);
        match &expected {
            Ok(bytes) => {
                assert_eq!(r.code, Some(0), "{args:?}: {}", r.stderr);
                assert!(r.stdout == *bytes, "{args:?}: the streamed bytes differ");
            }
            Err(message) => r.assert_refused(&format!("{args:?}"), &[message]),
        }
    }
}

const FLAGS: &[&[&str]] = &[
    &[],
    &["--compact"],
    &["--rules"],
    &["--rules", "--compact"],
    &["--trace", "7"],
    &["--trace", "3", "--rules", "--compact"],
    &["--csv"],
    &["--csv", "--rules"],
];

#[test]
fn the_streamed_output_is_the_whole_file_writers_bytes_on_every_fixture() {
    for name in ["example.json", "crowded.json", "opening.json"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures")
            .join(name);
        for flags in FLAGS {
            assert_streams_as_whole(path.to_str().unwrap(), flags);
        }
    }
}

/// A shot file of `n` shots from seat 0, shot `k` with `k % 4` discs at rest, `bad` (if
/// given) with two discs on top of each other.
fn many_shots(n: usize, bad: Option<usize>) -> String {
    let mut text = String::from("{\"shots\": [\n");
    for k in 0..n {
        let mut discs = Vec::new();
        for j in 0..k % 4 {
            let x = -0.15 + 0.1 * j as f64;
            discs.push(format!("{{\"team\": {}, \"pos\": [{x}, 0.2]}}", j % 2));
        }
        if bad == Some(k) {
            discs.push("{\"team\": 1, \"pos\": [0.0, -0.2]}".into());
            discs.push("{\"team\": 1, \"pos\": [0.001, -0.2]}".into());
        }
        let vx = (k % 13) as f64 * 0.05 - 0.3;
        let _ = writeln!(
            text,
            "{{\"discs\": [{}], \"shooter\": {{\"team\": 0, \"pos\": [0.0, -0.3048], \"vel\": [{vx}, 1.{}]}}, \"seat\": 0}}{}",
            discs.join(", "),
            k % 7,
            if k + 1 < n { "," } else { "" }
        );
    }
    text.push_str("]}\n");
    text
}

#[test]
fn chunks_meet_exactly_past_the_first_chunk() {
    // Chunks of 512 shots (jobs::simulate::STREAM_CHUNK): the last one short.
    let dir = scratch("chunks");
    let path = dir.join("many.json");
    std::fs::write(&path, many_shots(2 * 4096 + 905, None)).unwrap();
    let path = path.to_str().unwrap();
    for flags in [&[][..], &["--rules", "--compact"], &["--csv", "--rules"]] {
        assert_streams_as_whole(path, flags);
    }
    // A file over 16 MiB is read through `serde_json`'s reader rather than held: the same
    // bytes (a source that is not held takes that path whatever its size).
    let text = std::fs::read_to_string(path).unwrap();
    let options = SimulateOptions {
        rules: Some(Ruleset::Traditional),
        trace: None,
    };
    let streamed = |source: &dyn ShotSource, threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let checked = check_stream(source, options.rules).unwrap();
        let mut out = Vec::new();
        let json = StreamOutput::Json(Layout::Readable);
        simulate_stream(
            source,
            &checked,
            options,
            json,
            Some(&pool),
            &crokinole::cancel::Cancel::never(),
            &mut out,
        )
        .unwrap();
        out
    };
    let read = streamed(&Unheld(text.as_bytes()), 2);
    assert!(read == streamed(&Unheld(text.as_bytes()), 1));
    assert!(read == streamed(&Text(&text), 2));
    assert!(read == whole(&text, &["--rules"]).unwrap());
}

#[test]
fn a_file_of_4_mib_or_more_held_in_huge_pages_gives_the_same_bytes() {
    // The CLI reads a file of 4 MiB or more into memory of its own, in 2 MiB pages
    // (crates/io/src/held.rs); a page boundary then falls inside the shots. Padded with spaces
    // between the shots to just over 4 MiB, the example prints what it prints unpadded,
    // and a byte that is not UTF-8 beyond the first huge page is refused at its offset.
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/example.json");
    let text = std::fs::read_to_string(&example).unwrap();
    let cut = text.find("\"shots\"").expect("the example has shots");
    let padding = " ".repeat((4 << 20) + 4097 - text.len());
    let padded = format!("{}{padding}{}", &text[..cut], &text[cut..]);
    let dir = scratch("huge");
    let path = dir.join("padded.json");
    std::fs::write(&path, &padded).unwrap();
    assert_streams_as_whole(path.to_str().unwrap(), &[]);
    assert_streams_as_whole(path.to_str().unwrap(), &["--rules", "--compact"]);
    let mut bytes = padded.into_bytes();
    let at = (2 << 20) + 5;
    bytes[at] = 0xff;
    std::fs::write(&path, &bytes).unwrap();
    run(&["simulate", path.to_str().unwrap()], None).assert_refused(
        "a bad byte in the second huge page",
        &[&format!("not valid UTF-8 (bad byte at offset {at})")],
    );
}

/// A text given only as a reader, as a large file is.
struct Unheld<'a>(&'a [u8]);

impl ShotSource for Unheld<'_> {
    fn open(&self) -> std::io::Result<Box<dyn std::io::Read + Send + '_>> {
        Ok(Box::new(self.0))
    }
}

#[test]
fn a_bad_shot_after_the_first_chunk_stops_everything_before_anything_is_written() {
    let dir = scratch("bad");
    let path = dir.join("bad.json");
    std::fs::write(&path, many_shots(5000, Some(4500))).unwrap();
    let out = dir.join("out.json");
    let r = run(
        &[
            "simulate",
            path.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
        None,
    );
    r.assert_refused("a bad shot 4500", &["shot 4500: field `shots[4500].discs["]);
    assert!(!out.exists(), "nothing is written");
    // The same on standard output.
    run(&["simulate", path.to_str().unwrap()], None)
        .assert_refused("a bad shot 4500", &["shots[4500]"]);
}

#[test]
fn blocks_after_the_shots_still_check_every_shot_against_them() {
    // The peg is only in the `board` block that follows the shots: the disc on it is
    // refused, exactly as the whole-file reader refuses it.
    let text = r#"{"shots": [{"discs": [{"team": 1, "pos": [0.2, 0.0]}],
        "shooter": {"team": 0, "pos": [0, -0.3048], "vel": [0, 1]}}],
        "board": {"pegs": [[0.2, 0.0]]}}"#;
    let dir = scratch("blocks");
    let path = dir.join("late.json");
    std::fs::write(&path, text).unwrap();
    let expected = ShotFile::read(text).unwrap_err().to_string();
    assert!(expected.contains("shots[0].discs[0]"), "{expected}");
    run(&["simulate", path.to_str().unwrap()], None).assert_refused("late board", &[&expected]);
}

/// A file is checked while its first chunks compute (a held one parsed once, by the
/// check; one not held read a second time beside the check): the bytes are still the
/// whole-file writer's, a file whose blocks follow its shots still runs on those blocks
/// (read again), and a wrong shot or a JSON error in the last chunk, found after the first
/// chunks were computed, still leaves the writer untouched.
#[test]
fn a_file_checked_while_it_runs_writes_nothing_until_every_shot_is_checked() {
    // Two threads: checked while it runs; one: checked, then run (a held file on the
    // calling thread).
    for threads in [2, 1] {
        for held in [true, false] {
            checked_while_it_runs(threads, held);
        }
    }
}

fn checked_while_it_runs(threads: usize, held: bool) {
    let options = SimulateOptions {
        rules: Some(Ruleset::Traditional),
        trace: None,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let fused = |text: &str| {
        let mut out = Vec::new();
        let json = StreamOutput::Json(Layout::Compact);
        let never = crokinole::cancel::Cancel::never();
        let (held_text, unheld) = (Text(text), Unheld(text.as_bytes()));
        let source: &dyn ShotSource = if held { &held_text } else { &unheld };
        let r = check_and_simulate_stream(source, options, json, Some(&pool), &never, &mut out);
        (r.map_err(|e| format!("{e:?}")), out)
    };
    let good = many_shots(9000, None);
    let (r, out) = fused(&good);
    assert_eq!(
        r.unwrap(),
        Streamed {
            shots: Some(9000),
            written: 9000
        }
    );
    assert!(out == whole(&good, &["--rules", "--compact"]).unwrap());
    // The physics block after the shots: every shot runs with its restitution, not the
    // default's.
    let late = format!(
        "{}, \"physics\": {{\"disc_restitution\": 0.5}}}}",
        good.trim_end().trim_end_matches('}')
    );
    let (r, out) = fused(&late);
    assert_eq!(r.unwrap().written, 9000);
    assert!(out == whole(&late, &["--rules", "--compact"]).unwrap());
    assert!(out != whole(&good, &["--rules", "--compact"]).unwrap());
    // Errors past the first chunks.
    let bad = many_shots(9000, Some(8999));
    let (r, out) = fused(&bad);
    assert!(r.unwrap_err().contains("shots[8999]"));
    assert!(out.is_empty(), "nothing is written");
    let broken = format!("{},]}}", good.trim_end().trim_end_matches("]}"));
    let (r, out) = fused(&broken);
    assert!(r.is_err());
    assert!(out.is_empty(), "nothing is written");
    // A wrong board before the shots: no shot runs on it, the check names it.
    let wrong_board = good.replacen('{', "{\"board\": {\"surface_radius\": -1}, ", 1);
    let (r, out) = fused(&wrong_board);
    assert!(r.unwrap_err().contains("surface_radius"));
    assert!(out.is_empty(), "nothing is written");
    // Stopped before anything ran: a whole file with no outcomes.
    let stopped = crokinole::cancel::Cancel::new();
    stopped.cancel();
    let mut out = Vec::new();
    let json = StreamOutput::Json(Layout::Compact);
    let (held_text, unheld) = (Text(&good), Unheld(good.as_bytes()));
    let source: &dyn ShotSource = if held { &held_text } else { &unheld };
    let r = check_and_simulate_stream(source, options, json, Some(&pool), &stopped, &mut out);
    // A held file's check, bounded by the held text, reads it whole; a file not held stops
    // its check too (a file of any size stops within a shot), its count then unknown.
    assert_eq!(
        r.unwrap(),
        Streamed {
            shots: held.then_some(9000),
            written: 0
        }
    );
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["outcomes"].as_array().map(Vec::len), Some(0));
}

/// Runs the binary with `args` (output to /dev/null) and returns its exit code and its
/// peak resident memory in kB: the child's `VmHWM` (its high-water mark since its `exec`,
/// monotonic), read every millisecond until it exits. (`wait4`'s `ru_maxrss` would count
/// the test process too: a child spawned with `vfork` carries its parent's peak through
/// `exec`.)
fn peak_kb(args: &[&str]) -> (i32, u64) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crokinole"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        if let Ok(status) = std::fs::read_to_string(&status_file)
            && let Some(line) = status.lines().find(|l| l.starts_with("VmHWM:"))
            && let Some(kb) = line.split_whitespace().nth(1).and_then(|k| k.parse().ok())
        {
            peak = peak.max(kb);
        }
        if let Some(status) = child.try_wait().unwrap() {
            return (status.code().unwrap_or(-1), peak);
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

#[test]
fn memory_is_bounded_by_a_chunk_not_by_the_file() {
    // 300,000 shots at rest (21 MB): held whole, the file and its shots and outcomes took
    // over 150 MB; streamed, a few chunks.
    let dir = scratch("memory");
    let path = dir.join("still.json");
    let mut text = String::from("{\"shots\": [\n");
    let n = 300_000;
    for k in 0..n {
        text.push_str(
            r#"{"discs": [], "shooter": {"team": 0, "pos": [0, -0.3048], "vel": [0, 0]}}"#,
        );
        text.push_str(if k + 1 < n { ",\n" } else { "\n" });
    }
    text.push_str("]}\n");
    std::fs::write(&path, &text).unwrap();
    drop(text);
    let path = path.to_str().unwrap();
    let limit_kb = 40_000;
    for threads in ["2", "1"] {
        let (code, kb) = peak_kb(&["simulate", path, "--threads", threads]);
        assert_eq!(code, 0);
        assert!(
            kb < limit_kb,
            "simulate --threads {threads} peaked at {kb} kB"
        );
    }
    let (code, kb) = peak_kb(&["simulate", path, "--csv", "--threads", "2"]);
    assert_eq!(code, 0);
    assert!(kb < limit_kb, "simulate --csv peaked at {kb} kB");
    // The wrong command refuses from the file's start.
    for command in ["montecarlo", "suggest", "merge"] {
        let (code, kb) = peak_kb(&[command, path]);
        assert_eq!(code, 2, "{command}");
        assert!(
            kb < 20_000,
            "{command} peaked at {kb} kB to refuse a shot file"
        );
        run(&[command, path], None).assert_refused(command, &["looks like a shot file"]);
    }
}

#[test]
fn a_pipe_given_by_name_is_read_once_and_held() {
    // `simulate <(...)`: a named pipe cannot be read twice, so it is held like standard
    // input; the output is the file's.
    let dir = scratch("fifo");
    let fifo = dir.join("shots.fifo");
    let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid C string; creates a FIFO in our scratch directory.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/example.json");
    let text = std::fs::read(&path).unwrap();
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::write(fifo, text).unwrap())
    };
    let piped = run(&["simulate", fifo.to_str().unwrap()], None);
    writer.join().unwrap();
    assert_eq!(piped.code, Some(0), "{}", piped.stderr);
    assert!(piped.stdout == run(&["simulate", path.to_str().unwrap()], None).stdout);
}

/// Stopped (Ctrl-C, a client gone), the stream writes the outcomes of the first shots in
/// order and nothing after them, as a whole outcome file, and says how many it wrote; a
/// stop before the first chunk writes a file with no outcomes.
#[test]
fn a_stopped_stream_writes_a_whole_file_of_the_first_shots() {
    use crokinole::cancel::Cancel;
    let text = many_shots(5000, None);
    let source = Text(&text);
    let options = SimulateOptions {
        rules: Some(Ruleset::Traditional),
        trace: None,
    };
    let checked = check_stream(&source, options.rules).unwrap();
    let stopped = Cancel::new();
    stopped.cancel();
    let mut out = Vec::new();
    let json = StreamOutput::Json(Layout::Compact);
    let n = simulate_stream(&source, &checked, options, json, None, &stopped, &mut out).unwrap();
    assert_eq!(n, 0);
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["outcomes"].as_array().map(Vec::len), Some(0));
    // Uncancelled, every shot; the output starts as the stopped one's does.
    let mut all = Vec::new();
    let n = simulate_stream(
        &source,
        &checked,
        options,
        json,
        None,
        &Cancel::never(),
        &mut all,
    )
    .unwrap();
    assert_eq!(n, 5000);
    let v: serde_json::Value = serde_json::from_slice(&all).unwrap();
    assert_eq!(v["outcomes"].as_array().map(Vec::len), Some(5000));
}
