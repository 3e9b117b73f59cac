//! `crokinole simulate`: run every shot of a shot file and print the outcome file (JSON in
//! either layout, or CSV), judged by the rules with `--rules`, traced with `--trace`. The
//! outcome file's text is shared with `flick` ([`outcome_text`]).

use super::args::{LayoutArg, Output, Threads, ruleset_parser};
use super::failure::{Failure, of_kind};
use super::output::{read_input, write_output};
use crokinole::io::{
    FileKind, Layout, outcomes_csv, outline_json, parse_shot_file, write_outcomes,
    write_ruled_outcomes, write_ruled_traced_outcomes, write_traced_outcomes,
};
use crokinole::rules::{Ruleset, check_rules, judge_outcomes};
use crokinole::trace::trace_batch;
use crokinole::{Board, Outcome, Physics, Shot, run_batch};
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

/// How `simulate` and `flick` print the outcome file.
#[derive(Clone, Copy)]
pub enum Printed {
    /// JSON: the readable layout (one outcome a line) or `--compact`.
    Json(Layout),
    /// `--csv`: one row per disc per shot.
    Csv,
}

/// The outcome file of `outcomes` (judged by `verdicts` with `--rules`, traced with
/// `--trace`), as `printed` asks.
pub fn outcome_text(
    outcomes: &[Outcome],
    traces: Option<&[crokinole::trace::Trace]>,
    verdicts: Option<&[crokinole::rules::ShotVerdict]>,
    printed: Printed,
) -> String {
    let layout = match printed {
        Printed::Csv => return outcomes_csv(outcomes, verdicts),
        Printed::Json(layout) => layout,
    };
    let mut bytes = Vec::new();
    let written = match (traces, verdicts) {
        (None, None) => write_outcomes(&mut bytes, outcomes),
        (Some(t), None) => write_traced_outcomes(&mut bytes, t),
        (None, Some(v)) => write_ruled_outcomes(&mut bytes, outcomes, v),
        (Some(t), Some(v)) => write_ruled_traced_outcomes(&mut bytes, t, v),
    };
    written.expect("writing to memory cannot fail");
    let compact = String::from_utf8(bytes).expect("serde_json writes UTF-8");
    match layout {
        Layout::Compact => compact,
        Layout::Readable => outline_json(&compact),
    }
}

/// `crokinole simulate`: read and check every shot (with `rules`, also its seat and
/// placement), run them on `threads` workers, write the outcomes (with `rules`, judged;
/// with `trace`, traced every that many steps) as `printed` asks. Nothing is written
/// unless every shot is valid.
pub fn run(a: Args) -> Result<(), Failure> {
    let (file, output, threads, trace) = (&a.file, a.output.path(), a.threads, a.trace);
    let rules = a.rules.then_some(a.ruleset);
    let printed = if a.csv {
        Printed::Csv
    } else {
        Printed::Json(a.layout.layout())
    };
    let text = read_input(file)?;
    let (board, physics, entries) =
        parse_shot_file(&text).map_err(|e| Failure::Input(of_kind(e, &text, FileKind::Shots)))?;
    if let Some(ruleset) = rules {
        check_rules(&board, &physics, &entries, ruleset).map_err(Failure::Input)?;
    }
    let shots: Vec<Shot> = entries.iter().map(|e| e.shot.clone()).collect();
    let traces = match trace {
        Some(every) => Some(
            threads
                .pool()?
                .install(|| trace_batch(&board, &physics, &shots, every))
                .into_iter()
                .collect::<Result<Vec<_>, _>>()
                .map_err(Failure::Input)?,
        ),
        None => None,
    };
    let outcomes = match &traces {
        Some(t) => t.iter().map(|t| t.outcome.clone()).collect(),
        None => run_shots(&board, &physics, &shots, threads)?,
    };
    let verdicts = match rules {
        Some(ruleset) => Some(
            judge_outcomes(&board, &physics, &entries, &outcomes, ruleset)
                .map_err(Failure::Input)?,
        ),
        None => None,
    };
    let text = outcome_text(&outcomes, traces.as_deref(), verdicts.as_deref(), printed);
    write_output(output, |w| w.write_all(text.as_bytes()))
}

/// Runs the shots on a pool of `threads` workers (all cores if `None`).
fn run_shots(
    board: &Board,
    physics: &Physics,
    shots: &[Shot],
    threads: Threads,
) -> Result<Vec<Outcome>, Failure> {
    threads
        .pool()?
        .install(|| run_batch(board, physics, shots))
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .map_err(Failure::Input)
}
