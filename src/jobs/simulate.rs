//! Simulate a shot file: every shot run by the engine, optionally judged by the rules and
//! traced; the outcome file out (docs/shot-file.md). `crokinole simulate`, `POST
//! /api/simulate` and the Python package's `simulate_file` are this job.
//!
//! Two forms: [`ShotFile::read`] and [`simulate`] hold the file and its outcomes whole (the
//! server, whose requests are small); [`check_stream`] and [`simulate_stream`] read the
//! file from a [`ShotSource`] a shot at a time, twice (once to check every shot, once to
//! run them) and write each chunk's outcomes as it is computed, so memory is bounded by a
//! chunk ([`chunk_size`]), whatever the file's size. Both give the same bytes (tested).

use super::of_kind;
use crate::batch::run_batch_until;
use crate::board::Board;
use crate::cancel::{Cancel, Cancelled};
use crate::error::InputError;
use crate::io::{
    EachShot, FileKind, Layout, OutcomeFile, OutcomeItem, StreamStop, StreamWriteError,
    StreamedBlocks, outcome_file_text, outcomes_csv, outcomes_csv_header, outcomes_csv_rows,
    parse_shot_file, read_shot_stream, read_shot_text, write_outcome_file, write_outcome_stream,
};
use crate::params::Physics;
use crate::rules::{Ruleset, ShotEntry, ShotVerdict, check_rules, judge_outcomes};
use crate::shot::{Outcome, Shot};
use crate::trace::{Trace, trace_batch_until};
use crate::validate::{check_board, check_physics};
use std::io::{Read, Write};

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
    /// of [`Simulated::text`], laid out as they are serialised, never held whole. The many
    /// small writes of the serialiser go to a buffer of its own (so a `&mut dyn Write` is
    /// called once per 64 kB), flushed before it returns.
    pub fn write_to<W: std::io::Write>(&self, w: W, layout: Layout) -> std::io::Result<()> {
        let mut w = std::io::BufWriter::with_capacity(1 << 16, w);
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

/// A shot file read from somewhere it can be read again from the start: the streamed job
/// reads it twice ([`check_stream`], then [`simulate_stream`]), and a third time, up to an
/// error, to name the field of a JSON error.
pub trait ShotSource: Sync {
    /// The file from its first byte.
    fn open(&self) -> std::io::Result<Box<dyn Read + Send + '_>>;

    /// The whole text, if it is held in memory: then it is parsed in place, several times
    /// faster than through [`ShotSource::open`].
    fn text(&self) -> Option<&str> {
        None
    }
}

/// Reads the shot file in `source` a shot at a time ([`read_shot_text`] if it is held,
/// else [`read_shot_stream`]).
fn read_source(
    source: &dyn ShotSource,
    each: &mut EachShot<'_>,
) -> Result<StreamedBlocks, StreamStop> {
    match source.text() {
        Some(text) => read_shot_text(text, each),
        None => match source.open() {
            Ok(reader) => read_shot_stream(reader, each),
            Err(e) => Err(StreamStop::Json(serde_json::Error::io(e))),
        },
    }
}

/// A shot file's text held in memory, as a [`ShotSource`].
#[derive(Clone, Copy, Debug)]
pub struct Text<'a>(pub &'a str);

impl ShotSource for Text<'_> {
    fn open(&self) -> std::io::Result<Box<dyn Read + Send + '_>> {
        Ok(Box::new(self.0.as_bytes()))
    }

    fn text(&self) -> Option<&str> {
        Some(self.0)
    }
}

/// Bytes of a file's start that [`FileKind::sniff_start`] looks at to say what a file
/// that is not a shot file is instead.
const SNIFF_BYTES: u64 = 1 << 16;

/// A shot file checked by [`check_stream`]: its board and physics (checked) and how many
/// shots it holds (each checked).
#[derive(Clone, Debug)]
pub struct Checked {
    /// The board (`board`, defaults filled in).
    pub board: Board,
    /// The physics (`physics`, defaults filled in).
    pub physics: Physics,
    /// Shots in the file.
    pub shots: usize,
}

/// An error reading `source`: a failure of the source itself, not of its text.
fn unreadable(e: std::io::Error) -> InputError {
    InputError::new("file", format!("cannot be read: {e}"))
}

/// `e` (an error in a shot file read from `source`) with what the file looks like if it is
/// of another kind, told from its first bytes ([`super::of_kind`] for a file not held).
fn of_kind_start(e: InputError, source: &dyn ShotSource) -> InputError {
    let mut start = Vec::new();
    let read = source
        .open()
        .and_then(|r| r.take(SNIFF_BYTES).read_to_end(&mut start));
    match read.ok().and(FileKind::sniff_start(&start)) {
        Some(kind) if kind != FileKind::Shots => InputError {
            problem: format!("{}; this file looks like {}", e.problem, kind.describe()),
            ..e
        },
        _ => e,
    }
}

/// Files up to this size, in bytes (16 MiB), are best held in memory ([`Text`]): parsed in
/// place, twice, they cost a fraction of reading them through `serde_json`'s reader, and
/// the bound on memory stays a constant. A JSON error in a file up to this size is
/// reported from the whole text, so its message is exactly [`ShotFile::read`]'s; a larger
/// file's error is found by scanning it again up to the error, whose column may then lie
/// one byte further on (the streaming parser counts the byte it peeked at).
pub const HELD_BYTES: u64 = 16 << 20;

/// The error of the parser, `e`, on the shot file in `source`, naming the field and the
/// kind of file it looks like.
fn json_error(source: &dyn ShotSource, e: &serde_json::Error) -> InputError {
    let mut start = Vec::new();
    let whole = source
        .open()
        .and_then(|r| r.take(HELD_BYTES + 1).read_to_end(&mut start));
    if let Ok(n) = whole
        && (n as u64) <= HELD_BYTES
        && let Ok(text) = std::str::from_utf8(&start)
        && let Err(whole) = ShotFile::read(text)
    {
        return whole;
    }
    drop(start);
    match source.open() {
        Ok(again) => of_kind_start(crate::io::json_path::json_error_in(again, e), source),
        Err(io) => unreadable(io),
    }
}

/// Reads the shot file in `source` once, a shot at a time, and checks it as
/// [`ShotFile::read`] and [`simulate`] do before running anything, with the same errors in
/// the same order: the JSON (the first error in the text), the board, the physics, every
/// shot in order (seat, players, placement, speeds), then, with `rules`, every shot's seat
/// and placement under the rules. Holds one shot at a time. A file whose `board` or
/// `physics` comes after its `shots` is read a second time to check the shots against
/// them.
pub fn check_stream(
    source: &dyn ShotSource,
    rules: Option<Ruleset>,
) -> Result<Checked, InputError> {
    let mut found = Findings::default();
    let read = read_source(source, &mut |k, entry, board, physics| {
        found.check(rules, k, entry, board, physics)
    });
    let blocks = match read {
        Ok(blocks) => blocks,
        Err(StreamStop::Json(e)) if e.is_io() => return Err(unreadable(e.into())),
        Err(StreamStop::Json(e)) => return Err(json_error(source, &e)),
        Err(StreamStop::Stopped) => unreachable!("the check reads every shot"),
    };
    let (board, physics) = (blocks.board, blocks.physics);
    check_board(&board).map_err(|e| of_kind_start(e, source))?;
    check_physics(&physics).map_err(|e| of_kind_start(e, source))?;
    if blocks.blocks_after_shots {
        // The shots were checked against the defaults: again, against the file's blocks.
        found = Findings::default();
        read_source(source, &mut |k, entry, _, _| {
            found.check(rules, k, entry, &board, &physics)
        })
        .map_err(|_| InputError::new("file", "changed while it was read: read it again"))?;
    }
    if let Some(e) = found.shot {
        return Err(of_kind_start(e, source));
    }
    if let Some(e) = found.rules {
        return Err(e);
    }
    Ok(Checked {
        board,
        physics,
        shots: blocks.shots,
    })
}

/// The first errors [`check_stream`] found in the shots.
#[derive(Default)]
struct Findings {
    /// The first shot that is wrong in itself or on the board.
    shot: Option<InputError>,
    /// The first shot the rules refuse.
    rules: Option<InputError>,
}

impl Findings {
    /// Checks shot `k` as read (`entry`), on `board` and `physics`, under `rules` if
    /// given: keeps the first error of each kind. Always reads on (a JSON error further on
    /// comes first).
    fn check(
        &mut self,
        rules: Option<Ruleset>,
        k: usize,
        entry: Result<ShotEntry, InputError>,
        board: &Board,
        physics: &Physics,
    ) -> bool {
        if self.shot.is_some() {
            return true;
        }
        let checked = entry.and_then(|e| {
            e.shot.world(board, physics).map_err(|x| x.in_shot(k))?;
            Ok(e)
        });
        match checked {
            Err(e) => self.shot = Some(e),
            Ok(e) => {
                if let Some(ruleset) = rules
                    && self.rules.is_none()
                    && let Err(x) = check_rules(board, physics, std::slice::from_ref(&e), ruleset)
                {
                    self.rules = Some(x.offset_shot(k));
                }
            }
        }
        true
    }
}

/// Shots a chunk of [`simulate_stream`] holds: [`crate::batch::DEFAULT_CHUNK`] (4,096)
/// without traces; with traces, which can be megabytes a shot, two per thread.
pub fn chunk_size(trace: bool, threads: usize) -> usize {
    if trace {
        2 * threads.max(1)
    } else {
        crate::batch::DEFAULT_CHUNK
    }
}

/// What [`simulate_stream`] writes: the outcome file as JSON in a layout, or its CSV.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamOutput {
    /// The outcome file (docs/shot-file.md) in this layout.
    Json(Layout),
    /// The CSV of the outcomes (docs/output.md).
    Csv,
}

/// Why [`simulate_stream`] stopped.
#[derive(Debug)]
pub enum StreamFailure {
    /// A shot failed (the file changed since it was checked, say); the output is
    /// unfinished.
    Input(InputError),
    /// The writer failed.
    Io(std::io::Error),
}

/// Runs every shot of the shot file in `source` (checked by [`check_stream`] into
/// `checked`) on `pool` (the current rayon pool if `None`; the writing stays on the calling
/// thread, so `w` need not be `Send`, and with a pool it overlaps the computing of the
/// next chunk) and writes the output to `w` as it goes: the file
/// is read again a shot at a time on a thread of its own, [`chunk_size`] shots are run at
/// once (traced, judged, as asked), their outcomes written and dropped before the next
/// chunk's are kept. The bytes are [`Simulated::text`]'s (or [`Simulated::csv`]'s) for the
/// same file, whatever the chunk and the thread count.
///
/// Stops when `cancel` is cancelled (between and within shots, as [`simulate_until`]):
/// the output then holds the outcomes of the first shots, in order, up to the first one
/// stopped, and is a whole file of those. Returns how many shots it wrote: fewer than
/// `checked.shots` exactly when it was stopped.
pub fn simulate_stream<W: Write>(
    source: &dyn ShotSource,
    checked: &Checked,
    options: SimulateOptions,
    output: StreamOutput,
    pool: Option<&rayon::ThreadPool>,
    cancel: &Cancel,
    w: W,
) -> Result<usize, StreamFailure> {
    let threads = pool.map_or_else(rayon::current_num_threads, |p| p.current_num_threads());
    let size = chunk_size(options.trace.is_some(), threads);
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Result<Vec<ShotEntry>, InputError>>(1);
        scope.spawn(move || read_chunks(source, size, &tx));
        let runs = ChunkRuns {
            checked,
            options,
            pool,
            cancel,
            chunks: rx.into_iter(),
            first: 0,
            stopped: false,
        };
        // With a pool of its own, chunk k + 1 is computed on it (from a thread of its own)
        // while this thread writes chunk k: the writing, serial, no longer idles the pool.
        // Without one, the chunks are computed here, on the caller's current pool.
        let (done_tx, done_rx) =
            std::sync::mpsc::sync_channel::<Result<Vec<OutcomeItem>, InputError>>(0);
        let chunks: Box<dyn Iterator<Item = Result<Vec<OutcomeItem>, InputError>>> =
            if pool.is_some() {
                scope.spawn(move || {
                    for chunk in runs {
                        let failed = chunk.is_err();
                        if done_tx.send(chunk).is_err() || failed {
                            break;
                        }
                    }
                });
                Box::new(done_rx.into_iter())
            } else {
                Box::new(runs)
            };
        match output {
            StreamOutput::Json(layout) => {
                let mut written = 0;
                let items = chunks.flat_map(|chunk| match chunk {
                    Ok(items) => {
                        written += items.len();
                        items.into_iter().map(Ok).collect::<Vec<_>>()
                    }
                    Err(e) => vec![Err(e)],
                });
                let mut w = std::io::BufWriter::with_capacity(1 << 16, w);
                write_outcome_stream(&mut w, items, layout).map_err(|e| match e {
                    StreamWriteError::Items(e) => StreamFailure::Input(e),
                    StreamWriteError::Io(e) => StreamFailure::Io(e),
                })?;
                w.flush().map_err(StreamFailure::Io)?;
                Ok(written)
            }
            StreamOutput::Csv => {
                let mut w = w;
                let header = outcomes_csv_header(options.rules.is_some());
                w.write_all(header.as_bytes()).map_err(StreamFailure::Io)?;
                let mut first = 0;
                let mut text = String::new();
                for chunk in chunks {
                    let items = chunk.map_err(StreamFailure::Input)?;
                    let outcomes: Vec<Outcome> = items.iter().map(|i| i.outcome.clone()).collect();
                    let verdicts: Option<Vec<ShotVerdict>> =
                        items.into_iter().map(|i| i.verdict).collect();
                    text.clear();
                    outcomes_csv_rows(&mut text, first, &outcomes, verdicts.as_deref());
                    w.write_all(text.as_bytes()).map_err(StreamFailure::Io)?;
                    first += outcomes.len();
                }
                w.flush().map_err(StreamFailure::Io)?;
                Ok(first)
            }
        }
    })
}

/// Reads the shot file in `source` and sends its shots to `tx` `size` at a time (an error
/// if it no longer reads as it did when checked); stops when the receiver is gone.
fn read_chunks(
    source: &dyn ShotSource,
    size: usize,
    tx: &std::sync::mpsc::SyncSender<Result<Vec<ShotEntry>, InputError>>,
) {
    let mut chunk = Vec::with_capacity(size);
    let mut failed = None;
    let mut each =
        |_: usize, entry: Result<ShotEntry, InputError>, _: &Board, _: &Physics| match entry {
            Ok(e) => {
                chunk.push(e);
                chunk.len() < size || tx.send(Ok(std::mem::take(&mut chunk))).is_ok()
            }
            Err(e) => {
                failed = Some(e);
                false
            }
        };
    let read = read_source(source, &mut each);
    let last = match (read, failed) {
        (_, Some(e)) => Err(e),
        (Ok(_), None) => Ok(chunk),
        (Err(StreamStop::Stopped), None) => return,
        (Err(StreamStop::Json(e)), None) => Err(InputError::new(
            "file",
            format!("changed since it was checked: {e}"),
        )),
    };
    if last.as_ref().map_or(true, |c| !c.is_empty()) {
        let _ = tx.send(last);
    }
}

/// The chunks of shots run, in order: each chunk's items, or the first error; after a
/// chunk `cancel` stopped (its items the finished prefix), none.
struct ChunkRuns<'a, I> {
    checked: &'a Checked,
    options: SimulateOptions,
    pool: Option<&'a rayon::ThreadPool>,
    cancel: &'a Cancel,
    chunks: I,
    first: usize,
    stopped: bool,
}

impl<I: Iterator<Item = Result<Vec<ShotEntry>, InputError>>> Iterator for ChunkRuns<'_, I> {
    type Item = Result<Vec<OutcomeItem>, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.stopped || self.cancel.is_cancelled() {
            self.stopped = true;
            return None;
        }
        let entries = match self.chunks.next()? {
            Ok(entries) => entries,
            Err(e) => return Some(Err(e)),
        };
        let first = self.first;
        self.first += entries.len();
        let run = || run_chunk(self.checked, &entries, first, self.options, self.cancel);
        let ran = match self.pool {
            Some(pool) => pool.install(run),
            None => run(),
        };
        Some(ran.map(|(items, stopped)| {
            self.stopped = stopped;
            items
        }))
    }
}

/// Runs `entries` (shots `first..` of the file) on the current rayon pool: outcomes, traces
/// and verdicts as asked, in order, errors naming the file's shot. Stopped by `cancel`, the
/// items of the shots before the first stopped one, and `true`.
fn run_chunk(
    checked: &Checked,
    entries: &[ShotEntry],
    first: usize,
    options: SimulateOptions,
    cancel: &Cancel,
) -> Result<(Vec<OutcomeItem>, bool), InputError> {
    let (board, physics) = (&checked.board, &checked.physics);
    let (mut items, stopped) = match options.trace {
        Some(every) => {
            let done = trace_batch_until(board, physics, entries, every, cancel);
            let items = done
                .items
                .into_iter()
                .map(|t| {
                    let trace = t.map_err(|e| e.offset_shot(first))?;
                    Ok(OutcomeItem {
                        outcome: trace.outcome.clone(),
                        verdict: None,
                        trace: Some(trace),
                    })
                })
                .collect::<Result<Vec<_>, InputError>>()?;
            (items, done.stopped.is_some())
        }
        None => {
            let done = run_batch_until(board, physics, entries, cancel);
            let items = done
                .items
                .into_iter()
                .map(|o| {
                    Ok(OutcomeItem {
                        outcome: o.map_err(|e| e.offset_shot(first))?,
                        verdict: None,
                        trace: None,
                    })
                })
                .collect::<Result<Vec<_>, InputError>>()?;
            (items, done.stopped.is_some())
        }
    };
    if let Some(ruleset) = options.rules {
        let outcomes: Vec<Outcome> = items.iter().map(|i| i.outcome.clone()).collect();
        let verdicts = judge_outcomes(board, physics, &entries[..items.len()], &outcomes, ruleset)
            .map_err(|e| e.offset_shot(first))?;
        for (item, verdict) in items.iter_mut().zip(verdicts) {
            item.verdict = Some(verdict);
        }
    }
    Ok((items, stopped))
}
