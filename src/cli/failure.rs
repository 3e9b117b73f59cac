//! Why a command failed, and the exit code each reason gives: 2 for bad input, 1 for a
//! read or write failure, 141 for a closed pipe, 128 + the signal's number for a run a
//! signal stopped. Also the two ways an input error is told about its file.

use crokinole::InputError;
use std::fmt;
use std::path::Path;

/// Why a command failed.
pub enum Failure {
    /// The input is wrong (exit code 2).
    Input(InputError),
    /// Reading or writing failed (exit code 1).
    Io(String),
    /// The reader of standard output went away (`| head`): stop quietly, as coreutils do,
    /// with the status a process killed by SIGPIPE has (141).
    BrokenPipe,
    /// A signal stopped the run before its end ([`StopSignals`](crate::signals::StopSignals)): what finished was
    /// written; exit code 128 + the signal's number, as a shell reports a killed process.
    Stopped { signal: i32, message: String },
}

impl Failure {
    pub fn exit_code(&self) -> u8 {
        match self {
            Failure::Input(_) => 2,
            Failure::Io(_) => 1,
            Failure::BrokenPipe => 141,
            Failure::Stopped { signal, .. } => u8::try_from(128 + signal).unwrap_or(1),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Input(e) => write!(f, "{e}"),
            Failure::Io(m) => f.write_str(m),
            Failure::BrokenPipe => f.write_str("broken pipe"),
            Failure::Stopped { message, .. } => f.write_str(message),
        }
    }
}

/// `file`'s error with the file named in its problem.
pub fn in_file(e: InputError, file: &Path) -> Failure {
    Failure::Input(InputError {
        problem: format!("{} (in `{}`)", e.problem, file.display()),
        ..e
    })
}

/// Input `text` refused while read as a file of kind `expected`: if it looks like a file of
/// another kind, the message says what it looks like and which command reads it (the
/// jobs' own rule, for the files the CLI reads outside a job: plans, summaries, states).
pub use crokinole::jobs::of_kind;
