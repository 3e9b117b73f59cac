//! `crokinole simulate`: run every shot of a shot file and print the outcome file (JSON in
//! either layout, or CSV), judged by the rules with `--rules`, traced with `--trace`: the
//! job `crokinole::jobs::simulate`, which the server and the Python package run too.

use super::args::{LayoutArg, Output, Threads, ruleset_parser};
use super::failure::Failure;
use super::output::{read_input, write_output};
use super::signals::StopSignals;
use crokinole::jobs::simulate::{ShotFile, SimulateOptions, simulate_until};
use crokinole::rules::Ruleset;
use std::path::PathBuf;

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

/// `crokinole simulate`: the job [`simulate`] on the file's text, on `threads` workers,
/// its outcome file written as JSON in the asked layout or as CSV. Every shot is checked
/// (with `--rules`, also its seat and placement) before any runs, and nothing is written
/// unless all are valid.
pub fn run(a: Args) -> Result<(), Failure> {
    let text = read_input(&a.file)?;
    let file = ShotFile::read(&text).map_err(Failure::Input)?;
    let options = SimulateOptions {
        rules: a.rules.then_some(a.ruleset),
        trace: a.trace,
    };
    let signals = StopSignals::watch()?;
    let (simulated, stopped) = a
        .threads
        .pool()?
        .install(|| simulate_until(&file, options, signals.cancel()))
        .map_err(Failure::Input)?;
    if a.csv {
        let text = simulated.csv();
        write_output(a.output.path(), |w| w.write_all(text.as_bytes()))?;
    } else {
        write_output(a.output.path(), |w| {
            simulated.write_to(w, a.layout.layout())
        })?;
    }
    match stopped {
        // Ctrl-C: the output holds the outcomes of the shots that finished, in order.
        Some(_) => Err(signals.stopped(format!(
            "{} of {} shots; the output holds the outcomes of the shots that finished, in order",
            simulated.outcomes.len(),
            file.entries.len(),
        ))),
        None => Ok(()),
    }
}
