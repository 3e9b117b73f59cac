//! The command line fuzzed: random argument lists for every subcommand (but `serve`, which
//! listens until stopped), built from each command's flags with values drawn from pools of
//! good, extreme and malformed ones (negative, zero, past every bound, `NaN`, `1e309`,
//! fractions, empty, wrong units), unknown and repeated flags, missing values, and file
//! arguments that are right, of the wrong kind, missing, a directory or `/dev/null`; output
//! paths that cannot be written (`/dev/full`, a missing directory). Each case runs the
//! binary in a child process under a memory limit (`ulimit -d`, 4 GB) and a watchdog.
//!
//! The properties, for every case: the process ends by itself (no hang), is never killed
//! by a signal (no abort: memory stays bounded), never panics, exits 0, 1 (the run failed:
//! a write error) or 2 (refused input); a refusal prints nothing on standard output and a
//! short message starting with `error:` on standard error. Each case is a function of its
//! index alone (seeded ChaCha), so a failure prints the command line to reproduce it.
//! `CROKINOLE_FUZZ_CASES=N` runs N cases; `CROKINOLE_FUZZ_SHOW=1` prints every case and
//! what it printed on standard error.
//!
//! Valid values are kept small (a few samples, a few hundred budget, random strategies) so
//! that the accepted cases finish in milliseconds: this checks the handling of flags, not
//! the speed of large studies.

use crate::binary;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Cases run on every `cargo test` (a few seconds in all); `CROKINOLE_FUZZ_CASES=N` runs
/// `N` instead (a deeper search by hand).
const CASES: u64 = 300;

fn cases() -> u64 {
    std::env::var("CROKINOLE_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(CASES)
}

/// Seconds after which a case counts as hung (not a speed requirement: accepted cases take
/// milliseconds; this only turns a hang into a failure naming the case).
const WATCHDOG: Duration = Duration::from_secs(120);

/// Memory limit of each case, KiB (`ulimit -d`: the heap and every private mapping).
const MEMORY_KIB: u64 = 4 << 20;

/// The longest standard error a refusal may print, bytes.
const MAX_STDERR: usize = 4000;

const COUNTS: &[&str] = &[
    "1",
    "2",
    "8",
    "0",
    "-1",
    "2.5",
    "1e10",
    "1000000001",
    "1e309",
    "NaN",
    "x",
    "",
    "18446744073709551616",
    "3e1",
];
const THREADS: &[&str] = &[
    "1",
    "2",
    "0",
    "-1",
    "256",
    "257",
    "100000",
    "4294967296",
    "x",
    "",
];
const SEEDS: &[&str] = &[
    "0",
    "7",
    "18446744073709551615",
    "18446744073709551616",
    "-1",
    "x",
    "1e3",
];
const BUDGETS: &[&str] = &[
    "1000",
    "1e3",
    "200",
    "0",
    "-5",
    "1e12",
    "1000000001",
    "0.05s",
    "0s",
    "-1s",
    "3601s",
    "1e400s",
    "x",
    "5 s",
    "NaN",
    "2e2",
];
const TOPS: &[&str] = &["1", "3", "0", "-1", "1000000", "x"];
const OBJECTIVES: &[&str] = &["score", "twenty", "fifteen", "x", ""];
const RULESETS: &[&str] = &["traditional", "tournament", "x", ""];
const PLAYERS: &[&str] = &["2", "4", "3", "0", "x"];
const STRATEGIES: &[&str] = &[
    "random,random",
    "random,greedy:k=2",
    "random,random,random,random",
    "random,planner:budget=100",
    "montecarlo:k=2:m=2,random",
    "random",
    "greedy:k=0,random",
    "greedy:k=99999999999,random",
    "random,random:spin=1e309",
    "x,y",
    "",
];
const NOISES: &[&str] = &[
    "none",
    "offset=0.003,aim=0.01",
    "offset=-1",
    "offset=1e309",
    "aim=NaN",
    "speed=x",
    "bogus=1",
    "/nonexistent/noise.json",
    "",
];
const ROUNDS: &[&str] = &["1", "2", "0", "-1", "1e9", "x"];
const TRACES: &[&str] = &["1", "10", "0", "-3", "x", "4294967296"];
const SHARDS: &[&str] = &["1/2", "2/2", "0/2", "3/2", "1/0", "x", "1/1e9", "1/", "/"];
const LENGTHS: &[&str] = &["0", "0.01", "-0.05", "1e300", "NaN", "x", "-1e-320"];
const AIMS: &[&str] = &["0", "0.1", "-0.3", "7", "1e309", "NaN", "x"];
const SPEEDS: &[&str] = &["1", "0.5", "0", "-1", "11", "1e300", "NaN", "x"];
const SPINS: &[&str] = &["0", "5", "-5", "1e6", "NaN", "x"];
const TARGETS: &[&str] = &["0,0.1", "none", "x", "1,2,3", "NaN,0", "1e300,0", ""];
const SEATS: &[&str] = &["0", "1", "3", "9", "-1", "x"];
const RANKS: &[&str] = &["1", "2", "0", "99", "x"];
const TEXTS: &[&str] = &["A title", "", "<script>&amp;", "\u{1}\u{7f}"];

/// A flag and the pool its value comes from (`None`: a switch).
type Flag = (&'static str, Option<&'static [&'static str]>);

/// One subcommand: its words, the right files for its positional argument, and its flags.
struct Spec {
    words: &'static [&'static str],
    files: &'static [&'static str],
    flags: &'static [Flag],
}

/// Outputs: a file in the case's scratch directory (`@`), or paths that cannot be written.
const OUTPUTS: &[&str] = &["@", "@", "/dev/full", "/nonexistent/dir/out", "/"];

/// Files that are wrong for every command, or not files at all.
const WRONG_FILES: &[&str] = &[
    "-",
    "/nonexistent.json",
    "/",
    "/dev/null",
    "fixtures/README.md",
    "fixtures/golden-outcomes/example.txt",
];

const SPECS: &[Spec] = &[
    Spec {
        words: &["simulate"],
        files: &["fixtures/example.json", "fixtures/montecarlo/takeout.json"],
        flags: &[
            ("--output", Some(OUTPUTS)),
            ("--threads", Some(THREADS)),
            ("--rules", None),
            ("--ruleset", Some(RULESETS)),
            ("--trace", Some(TRACES)),
            ("--csv", None),
            ("--compact", None),
        ],
    },
    Spec {
        words: &["params"],
        files: &[],
        flags: &[("--compact", None)],
    },
    Spec {
        words: &["montecarlo"],
        files: &[
            "fixtures/montecarlo/takeout.json",
            "fixtures/montecarlo/takeout-ruled.json",
            "fixtures/montecarlo/opening.json",
        ],
        flags: &[
            ("--samples", Some(COUNTS)),
            ("--seed", Some(SEEDS)),
            ("--threads", Some(THREADS)),
            ("--samples-out", Some(OUTPUTS)),
            ("--positions", None),
            ("--compact", None),
            ("--shard", Some(SHARDS)),
            ("--output", Some(OUTPUTS)),
        ],
    },
    Spec {
        words: &["merge"],
        files: &[
            "fixtures/montecarlo/golden-takeout-summary.json",
            "fixtures/montecarlo/takeout.json",
        ],
        flags: &[
            ("--positions", None),
            ("--compact", None),
            ("--output", Some(OUTPUTS)),
        ],
    },
    Spec {
        words: &["suggest"],
        files: &[
            "fixtures/suggest/takeout.json",
            "fixtures/suggest/opening.json",
        ],
        flags: &[
            ("--budget", Some(BUDGETS)),
            ("--seed", Some(SEEDS)),
            ("--top", Some(TOPS)),
            ("--objective", Some(OBJECTIVES)),
            ("--threads", Some(THREADS)),
            ("--output", Some(OUTPUTS)),
            ("--compact", None),
        ],
    },
    Spec {
        words: &["play"],
        files: &[],
        flags: &[
            ("--players", Some(PLAYERS)),
            ("--ruleset", Some(RULESETS)),
            ("--strategies", Some(STRATEGIES)),
            ("--noise", Some(NOISES)),
            ("--seed", Some(SEEDS)),
            ("--games", Some(COUNTS)),
            ("--max-rounds", Some(ROUNDS)),
            ("--threads", Some(THREADS)),
            ("--output", Some(OUTPUTS)),
            ("--compact", None),
        ],
    },
    Spec {
        words: &["flick"],
        files: &[
            "fixtures/montecarlo/takeout.json",
            "fixtures/suggest/takeout.json",
        ],
        flags: &[
            (
                "--plan",
                Some(&["fixtures/suggest/golden-takeout-plan.json", "/nonexistent"]),
            ),
            ("--rank", Some(RANKS)),
            ("--seat", Some(SEATS)),
            ("--offset", Some(LENGTHS)),
            ("--aim", Some(AIMS)),
            ("--target", Some(TARGETS)),
            ("--speed", Some(SPEEDS)),
            ("--spin", Some(SPINS)),
            ("--svg", Some(OUTPUTS)),
            ("--shot-out", Some(OUTPUTS)),
            ("--trace", Some(TRACES)),
            ("--title", Some(TEXTS)),
            ("--output", Some(OUTPUTS)),
            ("--compact", None),
        ],
    },
    Spec {
        words: &["fit"],
        files: &["fixtures/tracks/example.json", "fixtures/example.json"],
        flags: &[
            (
                "--fit",
                Some(&[
                    "board_friction",
                    "peg_friction,disc_restitution",
                    "hole",
                    "",
                    ",",
                    "board_friction,board_friction",
                ]),
            ),
            (
                "--holdout",
                Some(&["0", "0.34", "0.5", "0.99", "1", "-0.1", "NaN", "x"]),
            ),
            ("--seed", Some(SEEDS)),
            ("--max-iterations", Some(COUNTS)),
            ("--physics-out", Some(OUTPUTS)),
            ("--svg", Some(OUTPUTS)),
            ("--json", None),
            ("--threads", Some(THREADS)),
            ("--output", Some(OUTPUTS)),
            ("--compact", None),
        ],
    },
    Spec {
        words: &["render", "shot"],
        files: &["fixtures/example.json", "fixtures/montecarlo/takeout.json"],
        flags: &[
            (
                "--shot",
                Some(&["0", "1", "3", "4", "-1", "99999999999", "x"]),
            ),
            ("--output", Some(OUTPUTS)),
            ("--title", Some(TEXTS)),
        ],
    },
    Spec {
        words: &["render", "montecarlo"],
        files: &["fixtures/montecarlo/golden-takeout-summary.json"],
        flags: &[
            (
                "--study",
                Some(&["fixtures/montecarlo/takeout.json", "/nonexistent"]),
            ),
            ("--zoom", None),
            ("--output", Some(OUTPUTS)),
            ("--title", Some(TEXTS)),
        ],
    },
    Spec {
        words: &["render", "suggest"],
        files: &[
            "fixtures/suggest/golden-takeout-plan.json",
            "fixtures/render/suggest-grid.json",
        ],
        flags: &[("--output", Some(OUTPUTS)), ("--title", Some(TEXTS))],
    },
];

fn pick<'a>(rng: &mut ChaCha8Rng, xs: &[&'a str]) -> &'a str {
    xs[rng.next_u32() as usize % xs.len()]
}

/// The argument list of case `case` (scratch outputs under `dir`).
fn case_args(case: u64, dir: &Path) -> Vec<String> {
    let mut rng = ChaCha8Rng::seed_from_u64(0xC11_F022 ^ case.wrapping_mul(0x9E37_79B9));
    let spec = &SPECS[rng.next_u32() as usize % SPECS.len()];
    let mut args: Vec<String> = spec.words.iter().map(|w| w.to_string()).collect();
    if !spec.files.is_empty() {
        let file = if rng.next_u32() % 5 == 0 {
            pick(&mut rng, WRONG_FILES)
        } else {
            pick(&mut rng, spec.files)
        };
        args.push(file.to_string());
    }
    let mut outputs = 0;
    for _ in 0..rng.next_u32() % 5 {
        let (name, values) = spec.flags[rng.next_u32() as usize % spec.flags.len()];
        args.push(name.to_string());
        if let Some(values) = values {
            // Now and then the value is left out (the flag ends the line).
            if rng.next_u32() % 12 != 0 {
                let v = pick(&mut rng, values);
                if v == "@" {
                    outputs += 1;
                    args.push(dir.join(format!("out{outputs}")).display().to_string());
                } else {
                    args.push(v.to_string());
                }
            }
        }
    }
    match rng.next_u32() % 20 {
        0 => args.push("--bogus".into()),
        1 => args.push("extra-positional".into()),
        _ => {}
    }
    // Keep accepted runs small: a few samples, a small budget, cheap players.
    let has = |args: &[String], f: &str| args.iter().any(|a| a == f);
    match spec.words[0] {
        "montecarlo" if !has(&args, "--samples") => args.extend(["--samples".into(), "16".into()]),
        "suggest" if !has(&args, "--budget") => args.extend(["--budget".into(), "1000".into()]),
        "play" if !has(&args, "--strategies") => {
            args.extend(["--strategies".into(), "random,random".into()])
        }
        _ => {}
    }
    args
}

/// What one case did.
struct Outcome {
    code: Option<i32>,
    signal: Option<i32>,
    stdout: Vec<u8>,
    stderr: String,
}

/// Runs the binary with `args` under the memory limit and the watchdog, from the crate root.
fn run_limited(args: &[String]) -> Result<Outcome, String> {
    use std::os::unix::process::ExitStatusExt;
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -d {MEMORY_KIB} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_crokinole"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("spawn: {e}"))?;
    // Read both pipes on threads so a large output cannot block the child.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = out.read_to_end(&mut b);
        b
    });
    let err = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = err.read_to_end(&mut b);
        b
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().map_err(|e| e.to_string())? {
            break s;
        }
        if start.elapsed() > WATCHDOG {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {WATCHDOG:?}"));
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    Ok(Outcome {
        code: status.code(),
        signal: status.signal(),
        stdout: out.join().unwrap(),
        stderr: String::from_utf8_lossy(&err.join().unwrap()).into_owned(),
    })
}

/// Checks the properties of the module doc for one case; the error names what failed.
fn check(o: &Outcome) -> Result<(), String> {
    if let Some(s) = o.signal {
        return Err(format!("killed by signal {s}"));
    }
    if o.stderr.contains("panicked") || o.stderr.contains("RUST_BACKTRACE") {
        return Err("panicked".into());
    }
    match o.code {
        Some(0) => Ok(()),
        Some(1 | 2) => {
            if !o.stderr.starts_with("error: ") {
                return Err("a refusal without an `error: ` line".into());
            }
            if o.stderr.len() > MAX_STDERR {
                return Err(format!("a refusal of {} bytes", o.stderr.len()));
            }
            if o.code == Some(2) && !o.stdout.is_empty() {
                return Err("a refusal that also wrote to standard output".into());
            }
            Ok(())
        }
        other => Err(format!("exit code {other:?}")),
    }
}

#[test]
fn random_command_lines_run_or_are_refused_clearly() {
    let dir = binary::scratch("fuzz_cli");
    let (mut accepted, mut refused, mut failed) = (0, 0, 0);
    let mut shown = Vec::new();
    let mut problems = Vec::new();
    let cases = cases();
    for case in 0..cases {
        let case_dir = dir.join(case.to_string());
        std::fs::create_dir_all(&case_dir).unwrap();
        let args = case_args(case, &case_dir);
        let verdict = run_limited(&args).and_then(|o| {
            shown.push(format!(
                "{case} {args:?} -> {:?} {}",
                o.code,
                o.stderr.trim_end()
            ));
            match o.code {
                Some(0) => accepted += 1,
                Some(2) => refused += 1,
                _ => failed += 1,
            }
            check(&o).map_err(|e| format!("{e}\nstderr: {}", o.stderr))
        });
        if let Err(e) = verdict {
            problems.push(format!(
                "case {case}: crokinole {}\n  {e}",
                args.iter()
                    .map(|a| format!("{a:?}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
        }
        let _ = std::fs::remove_dir_all(&case_dir);
    }
    println!("{cases} command lines: {accepted} ran, {refused} refused, {failed} failed to write");
    if std::env::var_os("CROKINOLE_FUZZ_SHOW").is_some() {
        println!("{}", shown.join("\n"));
    }
    assert!(
        problems.is_empty(),
        "{} of {cases} cases broke a property:\n{}",
        problems.len(),
        problems.join("\n")
    );
    // The pools are meant to reach both sides: a harness that only ever refuses (or only
    // ever runs) tests nothing.
    assert!(
        accepted > cases / 10 && refused > cases / 10,
        "{accepted} ran, {refused} refused"
    );
}

/// Issue #42, item 8: 300-digit numbers were printed in 47 messages (`flick.spin`'s rim
/// speed, `flick.offset`, `flick.aim`, a negative `flick.speed`, `builtin:greedy:spin=1e300`,
/// a suggest file's `search.spin[k]`, a clock); each now says `1e300` (or `1.5875e298`),
/// and a clock of 1e-300 s is refused.
#[test]
fn huge_numbers_are_printed_short_in_every_message() {
    let study = crate::binary::fixture("montecarlo", "opening.json");
    let cases: [Vec<&str>; 6] = [
        vec!["flick", &study, "--spin", "1e300"],
        vec!["flick", &study, "--offset", "1e300"],
        vec!["flick", &study, "--aim", "1e300"],
        vec!["flick", &study, "--speed=-1e300"],
        vec!["play", "--strategies", "greedy:spin=1e300,random"],
        vec![
            "match",
            "--player",
            "builtin:random",
            "--player",
            "builtin:random",
            "--shot-clock",
            "1e-300",
        ],
    ];
    for args in &cases {
        let r = crate::binary::run(args, None);
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        assert!(!r.stderr.contains("000000000000"), "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains("e300") || r.stderr.contains("e298") || r.stderr.contains("e-300"),
            "{args:?}: {}",
            r.stderr
        );
    }
    // A suggest file's search spins.
    let text = std::fs::read_to_string(crate::binary::fixture("suggest", "opening.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["search"] = serde_json::json!({"spin": [0.0, 1e300]});
    let dir = crate::binary::scratch("huge_numbers");
    let path = dir.join("s.json");
    std::fs::write(&path, v.to_string()).unwrap();
    let r = crate::binary::run(&["suggest", path.to_str().unwrap()], None);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(
        r.stderr.contains("search.spin[1]") && r.stderr.contains("got 1e300"),
        "{}",
        r.stderr
    );
}
