//! The whole-file form of the job: [`ShotFile::read`] holds a shot file, [`simulate`] runs
//! it into [`Simulated`] (outcomes, verdicts, traces), written whole (the server and
//! Python, whose inputs are bounded).

use crate::of_kind;
use crokinole_core::batch::run_batch_until;
use crokinole_core::board::Board;
use crokinole_core::cancel::{Cancel, Cancelled};
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_core::shot::{Outcome, Shot};
use crokinole_core::trace::{Trace, trace_batch_until};
use crokinole_io::{
    FileKind, Layout, OutcomeFile, outcome_file_text, outcomes_csv, parse_shot_file,
    write_outcome_file,
};
use crokinole_rules::{Ruleset, ShotEntry, ShotVerdict, check_rules, judge_outcomes};

/// A shot file read and checked: its board, physics and shots.
#[derive(Clone, Debug)]
pub struct ShotFile {
    /// The board (`board`, defaults filled in).
    pub board: Board,
    /// The physics (`physics`, defaults filled in).
    pub physics: Physics,
    /// The shots with their seats and player counts, in file order.
    pub entries: Vec<ShotEntry>,
}

impl ShotFile {
    /// Reads a shot file's text, every shot checked; a file that looks like another kind
    /// of file is named in the error.
    pub fn read(text: &str) -> Result<ShotFile, InputError> {
        let (board, physics, entries) =
            parse_shot_file(text).map_err(|e| of_kind(e, text, FileKind::Shots))?;
        Ok(ShotFile {
            board,
            physics,
            entries,
        })
    }

    /// The shots alone, in file order.
    pub fn shots(&self) -> Vec<Shot> {
        self.entries.iter().map(|e| e.shot.clone()).collect()
    }
}

/// What to do besides simulating (the flags `--rules --ruleset R` and `--trace N`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SimulateOptions {
    /// Judge every shot by this rule set (each shot then needs its seat).
    pub rules: Option<Ruleset>,
    /// Trace every shot, a path point every this many fixed steps.
    pub trace: Option<u32>,
}

/// A simulated shot file: the outcomes and, as asked, the verdicts and traces.
#[derive(Clone, Debug)]
pub struct Simulated {
    /// One outcome per shot, in file order.
    pub outcomes: Vec<Outcome>,
    /// With rules, one verdict per shot.
    pub verdicts: Option<Vec<ShotVerdict>>,
    /// With a trace, one trace per shot (`traces[k].outcome == outcomes[k]`).
    pub traces: Option<Vec<Trace>>,
}

impl Simulated {
    /// The outcome file to write.
    pub fn file(&self) -> OutcomeFile<'_> {
        OutcomeFile {
            outcomes: &self.outcomes,
            verdicts: self.verdicts.as_deref(),
            traces: self.traces.as_deref(),
        }
    }

    /// The outcome file as JSON text in `layout` (a trailing newline).
    pub fn text(&self, layout: Layout) -> String {
        outcome_file_text(&self.file(), layout)
    }

    /// Writes the outcome file to `w` as JSON in `layout` (a trailing newline): the bytes
    /// of [`Simulated::text`], laid out as they are serialised, never held whole: the
    /// serialiser hands `w` blocks of 64 KiB (so a `&mut dyn Write` is called once per
    /// block); `w` is flushed before it returns.
    pub fn write_to<W: std::io::Write>(&self, mut w: W, layout: Layout) -> std::io::Result<()> {
        write_outcome_file(&mut w, &self.file(), layout)?;
        w.flush()
    }

    /// The outcomes as CSV, one row per disc per shot (`--csv`; docs/output.md).
    pub fn csv(&self) -> String {
        outcomes_csv(&self.outcomes, self.verdicts.as_deref())
    }
}

/// Runs every shot of `file` on the current rayon pool: first, with rules, every shot's
/// seat and placement are checked (nothing runs if one is wrong); then the shots run
/// (traced if asked; a trace's outcome is bit for bit the plain run's); then, with rules,
/// the outcomes are judged.
pub fn simulate(file: &ShotFile, options: SimulateOptions) -> Result<Simulated, InputError> {
    simulate_until(file, options, &Cancel::never()).map(|(s, _)| s)
}

/// [`simulate`] stopped by `cancel` between and within shots: the result of the first
/// shots, in order, up to the first stopped one (judged with rules), and why it stopped.
/// Uncancelled, exactly [`simulate`]'s.
pub fn simulate_until(
    file: &ShotFile,
    options: SimulateOptions,
    cancel: &Cancel,
) -> Result<(Simulated, Option<Cancelled>), InputError> {
    let (board, physics, entries) = (&file.board, &file.physics, &file.entries);
    if let Some(ruleset) = options.rules {
        check_rules(board, physics, entries, ruleset)?;
    }
    let (outcomes, traces, stopped) = match options.trace {
        Some(every) => {
            let done = trace_batch_until(board, physics, entries, every, cancel);
            let traces = done.items.into_iter().collect::<Result<Vec<_>, _>>()?;
            (
                traces.iter().map(|t| t.outcome.clone()).collect(),
                Some(traces),
                done.stopped,
            )
        }
        None => {
            let done = run_batch_until(board, physics, entries, cancel);
            let outcomes = done.items.into_iter().collect::<Result<Vec<_>, _>>()?;
            (outcomes, None, done.stopped)
        }
    };
    let verdicts = match options.rules {
        Some(ruleset) => Some(judge_outcomes(
            board,
            physics,
            &entries[..outcomes.len()],
            &outcomes,
            ruleset,
        )?),
        None => None,
    };
    let simulated = Simulated {
        outcomes,
        verdicts,
        traces,
    };
    Ok((simulated, stopped))
}
