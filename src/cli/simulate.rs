//! `crokinole simulate`: run every shot of a shot file and print the outcome file (JSON in
//! either layout, or CSV), judged by the rules with `--rules`, traced with `--trace`: the
//! job `crokinole::jobs::simulate`, which the server and the Python package run too.

use super::args::{LayoutArg, Output, Threads, ruleset_parser};
use super::failure::Failure;
use super::output::{distinct_paths, read_input, write_output};
use super::signals::StopSignals;
use crokinole::jobs::simulate::{
    HELD_BYTES, ShotSource, SimulateOptions, StreamFailure, StreamOutput, Streamed, Text,
    check_and_simulate_stream,
};
use crokinole::rules::Ruleset;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The flags of `crokinole simulate`.
#[derive(clap::Args)]
#[command(mut_arg("output", |a| a.help("Write the outcome file here instead of standard output")))]
pub struct Args {
    /// Shot file to read, or `-` for standard input.
    file: PathBuf,
    #[command(flatten)]
    output: Output,
    #[command(flatten)]
    threads: Threads,
    /// Judge every shot by the rules: each shot needs `seat` (and `players` if 4);
    /// each outcome gains a `rules` object and its `discs` show the position after the
    /// rules (docs/play.md).
    #[arg(long)]
    rules: bool,
    /// Rule set for --rules.
    #[arg(long, value_name = "RULESET", requires = "rules", default_value = "traditional",
          value_parser = ruleset_parser())]
    ruleset: Ruleset,
    /// Add each shot's trace (disc paths sampled every EVERY fixed steps, default 10,
    /// and where every event happened) as a member `trace` (docs/render.md).
    #[arg(long, value_name = "EVERY", num_args = 0..=1, default_missing_value = "10",
          value_parser = clap::value_parser!(u32).range(1..))]
    trace: Option<u32>,
    /// Print the outcomes as CSV, one row per disc per shot (columns in
    /// docs/output.md), instead of JSON.
    #[arg(long, conflicts_with_all = ["trace", "compact"])]
    csv: bool,
    #[command(flatten)]
    layout: LayoutArg,
}

/// `crokinole simulate`: the job `crokinole::jobs::simulate` streamed
/// ([`check_and_simulate_stream`]) on `threads` workers, its outcome file written as JSON
/// in the asked layout or as CSV. Every shot is checked (with `--rules`, also its seat and
/// placement) and nothing is written unless all are valid; the shots run a chunk at a time,
/// each chunk's outcomes written as they come. A file of up to 16 MiB, standard input or
/// a pipe is held in memory and parsed once, checked while the first chunks compute; a
/// larger file is read from disk twice, a shot at a time (once to check, once to run: at
/// once with two threads or more), so memory is bounded by a chunk whatever the file's
/// size.
pub fn run(a: Args) -> Result<(), Failure> {
    distinct_paths(
        &[("the shot file", &a.file)],
        &[("--output", a.output.path())],
    )?;
    let stdin_text;
    let text_source;
    let file_source;
    // A regular file larger than `HELD_BYTES` (16 MiB) is read twice from disk; a smaller
    // one, standard input, a pipe (`<(...)`) or anything else that cannot be read again is
    // held in memory (and a file that cannot be opened is refused by `read_input`, with its
    // words).
    let regular = a.file != Path::new("-")
        && std::fs::metadata(&a.file).is_ok_and(|m| m.is_file() && m.len() > HELD_BYTES)
        && std::fs::File::open(&a.file).is_ok();
    let source: &dyn ShotSource = if regular {
        file_source = FileSource(a.file.clone());
        &file_source
    } else {
        stdin_text = read_input(&a.file)?;
        text_source = Text(&stdin_text);
        &text_source
    };
    let options = SimulateOptions {
        rules: a.rules.then_some(a.ruleset),
        trace: a.trace,
    };
    let pool = a.threads.pool_here()?;
    let signals = StopSignals::watch()?;
    let output = if a.csv {
        StreamOutput::Csv
    } else {
        StreamOutput::Json(a.layout.layout())
    };
    let mut failed = None;
    let mut streamed = Streamed {
        shots: Some(0),
        written: 0,
    };
    let written = write_output(a.output.path(), |w| {
        let cancel = signals.cancel();
        check_and_simulate_stream(source, options, output, Some(&pool), cancel, w)
            .map(|s| streamed = s)
            .map_err(|e| match e {
                StreamFailure::Io(e) => e,
                StreamFailure::Input(e) => {
                    let io = std::io::Error::other(e.to_string());
                    failed = Some(e);
                    io
                }
            })
    });
    match failed {
        Some(e) => Err(Failure::Input(e)),
        None => written,
    }?;
    // Ctrl-C: the output holds the outcomes of the shots that finished, in order.
    let written = streamed.written;
    let done = match streamed.shots {
        Some(shots) if written < shots => format!("{written} of {shots} shots"),
        None => format!("{written} shots, before the whole file was checked"),
        Some(_) => return Ok(()),
    };
    Err(signals.stopped(format!(
        "{done}; the output holds the outcomes of the shots that finished, in order"
    )))
}

/// A regular file on disk, opened again for each reading.
struct FileSource(PathBuf);

impl ShotSource for FileSource {
    fn open(&self) -> std::io::Result<Box<dyn Read + Send + '_>> {
        Ok(Box::new(std::fs::File::open(&self.0)?))
    }
}
