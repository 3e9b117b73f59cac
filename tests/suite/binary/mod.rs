//! Running the `crokinole` binary from the CLI tests: one place for the child process, its
//! standard input and what it printed.
#![allow(dead_code)]

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Path of `fixtures/DIR/NAME`, as a command-line argument.
pub fn fixture(dir: &str, name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(dir)
        .join(name);
    path.to_str().unwrap().to_string()
}

/// A fresh scratch directory for test `test` of the calling module (emptied if it
/// existed). The name holds this process's id and the caller's file, so two modules of the
/// one test binary that both name a scratch `bad` never share it.
#[track_caller]
pub fn scratch(test: &str) -> PathBuf {
    let module = Path::new(std::panic::Location::caller().file())
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("test");
    let dir = std::env::temp_dir().join(format!(
        "crokinole-{}-{}-{module}-{test}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What one run of the binary did.
pub struct Run {
    /// Exit code (`None` if killed by a signal).
    pub code: Option<i32>,
    /// Everything written to standard output.
    pub stdout: Vec<u8>,
    /// Everything written to standard error.
    pub stderr: String,
}

impl Run {
    /// Standard output as JSON, after checking the run succeeded with nothing on stderr.
    pub fn json(&self) -> Value {
        assert_eq!(self.code, Some(0), "stderr: {}", self.stderr);
        assert!(self.stderr.is_empty(), "stderr: {}", self.stderr);
        serde_json::from_slice(&self.stdout).expect("stdout is JSON")
    }
}

impl Run {
    /// Checks a refusal of bad input: exit code 2, nothing on stdout, and one `error: `
    /// message on stderr containing every fragment of `expect`. `what` labels failures.
    pub fn assert_refused(&self, what: &str, expect: &[&str]) {
        assert_eq!(self.code, Some(2), "{what}\nstderr: {}", self.stderr);
        assert!(self.stdout.is_empty(), "stdout not empty for {what}");
        assert!(
            self.stderr.starts_with("error: "),
            "stderr: {}",
            self.stderr
        );
        for fragment in expect {
            assert!(
                self.stderr.contains(fragment),
                "stderr lacks {fragment:?}: {}",
                self.stderr
            );
        }
    }
}

/// Runs the binary with `args` (standard input closed) and returns its standard output,
/// after checking it succeeded with nothing on stderr (no progress bar off a terminal).
pub fn ok(args: &[&str]) -> Vec<u8> {
    let r = run(args, None);
    assert_eq!(r.code, Some(0), "{args:?}: {}", r.stderr);
    assert!(r.stderr.is_empty(), "stderr: {}", r.stderr);
    r.stdout
}

/// Runs the binary with `args`, feeding `stdin` if given (standard input is closed if not).
pub fn run(args: &[&str], stdin: Option<&str>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crokinole"))
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    if let Some(text) = stdin {
        let mut pipe = child.stdin.take().unwrap();
        // A binary that refuses its flags exits before reading: the pipe may close first.
        if let Err(e) = pipe.write_all(text.as_bytes()) {
            assert_eq!(
                e.kind(),
                std::io::ErrorKind::BrokenPipe,
                "writing stdin: {e}"
            );
        }
    }
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code(),
        stdout: out.stdout,
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}
