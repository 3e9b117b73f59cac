//! The `crokinole` command: `simulate` runs a shot file and prints the outcome file,
//! `params` prints the default board and physics. It only parses, validates, calls the
//! library and prints; exit code 2 for bad input, 1 for I/O errors.

use clap::{Parser, Subcommand};
use crokinole::io::{params_json, parse_shot_file, write_outcomes};
use crokinole::{Board, InputError, Outcome, Physics, Shot, run_batch};
use std::fmt;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Deterministic Crokinole physics: shot files in, outcome files out
/// (shared/spec/shot-file.md).
#[derive(Parser)]
#[command(
    name = "crokinole",
    version,
    after_help = "Exit status: 0 on success, 2 for bad input (the message names the shot, \
                  the field and the problem), 1 for a read or write failure."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run every shot of a shot file and write the outcome file (JSON).
    Simulate {
        /// Shot file to read, or `-` for standard input.
        file: PathBuf,
        /// Write the outcome file here instead of standard output.
        #[arg(long, short, value_name = "PATH")]
        output: Option<PathBuf>,
        /// Worker threads (default: all cores). The output does not depend on it.
        #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        threads: Option<u32>,
    },
    /// Print the default `board` and `physics` blocks in shot-file form.
    Params,
}

/// Why a command failed.
enum Failure {
    /// The input is wrong (exit code 2).
    Input(InputError),
    /// Reading or writing failed (exit code 1).
    Io(String),
}

impl Failure {
    fn exit_code(&self) -> u8 {
        match self {
            Failure::Input(_) => 2,
            Failure::Io(_) => 1,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Input(e) => write!(f, "{e}"),
            Failure::Io(m) => f.write_str(m),
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Simulate {
            file,
            output,
            threads,
        } => simulate(&file, output.as_deref(), threads),
        Command::Params => params(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("error: {failure}");
            ExitCode::from(failure.exit_code())
        }
    }
}

/// `crokinole simulate`: read and check every shot, run them on `threads` workers, write
/// the outcomes. Nothing is written unless every shot is valid.
fn simulate(file: &Path, output: Option<&Path>, threads: Option<u32>) -> Result<(), Failure> {
    let text = read_input(file)?;
    let (board, physics, entries) = parse_shot_file(&text).map_err(Failure::Input)?;
    let shots: Vec<Shot> = entries.into_iter().map(|e| e.shot).collect();
    let outcomes = run(&board, &physics, &shots, threads)?;
    write_output(output, |w| write_outcomes(w, &outcomes))
}

/// `crokinole params`: the defaults, in the form a shot file's blocks take.
fn params() -> Result<(), Failure> {
    let text = params_json(&Board::tournament(), &Physics::default());
    write_output(None, |w| writeln!(w, "{text}"))
}

/// Runs the shots on a pool of `threads` workers (all cores if `None`).
fn run(
    board: &Board,
    physics: &Physics,
    shots: &[Shot],
    threads: Option<u32>,
) -> Result<Vec<Outcome>, Failure> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.map_or(0, |n| n as usize))
        .build()
        .map_err(|e| Failure::Io(format!("cannot start worker threads: {e}")))?;
    pool.install(|| run_batch(board, physics, shots))
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .map_err(Failure::Input)
}

/// The text of `file` (`-` is standard input).
fn read_input(file: &Path) -> Result<String, Failure> {
    let mut bytes = Vec::new();
    let read = if file == Path::new("-") {
        std::io::stdin().lock().read_to_end(&mut bytes)
    } else {
        std::fs::File::open(file).and_then(|mut f| f.read_to_end(&mut bytes))
    };
    read.map_err(|e| Failure::Io(format!("cannot read `{}`: {e}", file.display())))?;
    String::from_utf8(bytes).map_err(|e| {
        Failure::Input(InputError::new(
            "file",
            format!(
                "not valid UTF-8 (bad byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        ))
    })
}

/// Runs `write` on a buffered `output` file, or standard output if `None`, and flushes.
fn write_output(
    output: Option<&Path>,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), Failure> {
    let name = output.map_or("standard output".to_string(), |p| {
        format!("`{}`", p.display())
    });
    let fail = |e: std::io::Error| Failure::Io(format!("cannot write {name}: {e}"));
    let sink: Box<dyn Write> = match output {
        Some(path) => Box::new(std::fs::File::create(path).map_err(fail)?),
        None => Box::new(std::io::stdout().lock()),
    };
    let mut w = BufWriter::new(sink);
    write(&mut w).map_err(fail)?;
    w.flush().map_err(fail)
}
