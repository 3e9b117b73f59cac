//! The run pass of a streamed shot file: [`simulate_stream`] reads a checked file again on
//! a thread of its own, runs it a chunk at a time (`ChunkRuns`, [`chunk_size`]) and
//! writes each chunk's outcomes as they come (`write_chunks`), so memory is bounded by a
//! chunk. The held pipeline ([`super::held`]) shares the running and the writing.

use super::check::{Checked, ShotSource, read_source};
use super::whole::SimulateOptions;
use crokinole_core::batch::{map_items, run_batch_until, run_checked_batch_until};
use crokinole_core::board::Board;
use crokinole_core::cancel::Cancel;
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_core::shot::Outcome;
use crokinole_core::trace::trace_batch_until;
use crokinole_io::{
    LaidElements, Layout, OutcomeItem, StreamStop, StreamWriteError, lay_outcomes,
    outcomes_csv_header, outcomes_csv_rows, write_laid_outcome_stream,
};
use crokinole_rules::{ShotEntry, ShotVerdict, judge_outcomes};
use std::io::Write;

/// Shots a chunk holds without traces. The writing of a chunk overlaps the computing of the
/// next, but the first chunk's computing and the last chunk's writing overlap nothing: a
/// small chunk keeps those ends short (512 crowded shots are about 8 ms to write), while a
/// chunk still costs far more to compute than to hand over (tens of microseconds).
pub const STREAM_CHUNK: usize = 512;

/// Shots a chunk of [`simulate_stream`] holds: [`STREAM_CHUNK`] without traces; with
/// traces, which can be megabytes a shot, two per thread.
pub fn chunk_size(trace: bool, threads: usize) -> usize {
    if trace {
        2 * threads.max(1)
    } else {
        STREAM_CHUNK
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

impl std::fmt::Display for StreamFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StreamFailure::Input(e) => write!(f, "{e}"),
            StreamFailure::Io(e) => write!(f, "cannot write the output: {e}"),
        }
    }
}

/// Its source is the input error or the writer's `io::Error`, kept whole.
impl std::error::Error for StreamFailure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StreamFailure::Input(e) => Some(e),
            StreamFailure::Io(e) => Some(e),
        }
    }
}

/// Runs every shot of the shot file in `source` (checked by [`check_stream`](super::check::check_stream) into
/// `checked`) on `pool` (the current rayon pool if `None`; the writing stays on the calling
/// thread, so `w` need not be `Send`, and with a pool it overlaps the computing of the
/// next chunk) and writes the output to `w` as it goes: the file
/// is read again a shot at a time on a thread of its own, [`chunk_size`] shots are run at
/// once (traced, judged, as asked), their outcomes written and dropped before the next
/// chunk's are kept. The bytes are [`Simulated::text`](super::whole::Simulated::text)'s (or [`Simulated::csv`](super::whole::Simulated::csv)'s) for the
/// same file, whatever the chunk and the thread count.
///
/// Stops when `cancel` is cancelled (between and within shots, as [`simulate_until`](super::whole::simulate_until)):
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
        let (tx, rx) = std::sync::mpsc::sync_channel::<EntryChunk>(1);
        scope.spawn(move || {
            read_chunks(source, size, size, &mut |chunk| {
                tx.send(chunk.map(|(entries, _, _)| entries)).is_ok()
            });
        });
        let runs = ChunkRuns {
            board: checked.board.clone(),
            physics: checked.physics.clone(),
            // Read again: the file may have changed since it was checked.
            prechecked: false,
            options,
            output,
            pool,
            cancel,
            chunks: rx.into_iter(),
            first: 0,
            stopped: false,
        };
        // With a pool of its own, chunk k + 1 is computed on it (from a thread of its own)
        // while this thread writes chunk k: the writing, serial, no longer idles the pool.
        // Without one, the chunks are computed here, on the caller's current pool.
        let (done_tx, done_rx) = std::sync::mpsc::sync_channel::<RunChunk>(0);
        // A pool of one thread computes nothing alongside the writing: the chunks are
        // computed here, on it, with no thread in between.
        let chunks: Box<dyn Iterator<Item = RunChunk>> = if pool.is_some() && threads > 1 {
            scope.spawn(move || forward(runs, &done_tx));
            Box::new(done_rx.into_iter())
        } else {
            Box::new(runs)
        };
        write_chunks(chunks, options, output, w)
    })
}

/// A chunk of shots to run, or the error that ends the reading.
pub(super) type EntryChunk = Result<Vec<ShotEntry>, InputError>;

/// A chunk's part of the output, or the first error.
pub(super) type RunChunk = Result<ChunkText, InputError>;

/// A chunk's part of the output, made on the pool that computed the chunk (so the writer
/// only copies bytes, and what a worker allocated is freed by it): its outcomes laid out
/// as elements of the outcome file's array, or its CSV rows.
pub(super) struct ChunkText {
    /// Shots in the chunk.
    shots: usize,
    /// Their text.
    text: Body,
}

/// The text of a [`ChunkText`].
enum Body {
    /// JSON elements, in groups laid out apart.
    Json(Vec<LaidElements>),
    /// CSV rows.
    Csv(String),
}

/// Outcomes a group laid out on one thread holds: a chunk of 512 is laid out as 32
/// groups, spread over the pool.
const LAY_GROUP: usize = 16;

/// The text of `items` (shots `first..` of the file) for `output`, laid out on the
/// current pool ([`map_items`]: a plain loop on a pool of one thread): JSON elements in
/// groups of [`LAY_GROUP`], or CSV rows.
fn chunk_text(items: Vec<OutcomeItem>, first: usize, output: StreamOutput) -> ChunkText {
    let shots = items.len();
    let text = match output {
        StreamOutput::Json(layout) => {
            let groups: Vec<&[OutcomeItem]> = items.chunks(LAY_GROUP).collect();
            Body::Json(map_items(&groups, |_, group| lay_outcomes(group, layout)))
        }
        StreamOutput::Csv => {
            let (outcomes, verdicts): (Vec<Outcome>, Vec<Option<ShotVerdict>>) =
                items.into_iter().map(|i| (i.outcome, i.verdict)).unzip();
            let verdicts: Option<Vec<ShotVerdict>> = verdicts.into_iter().collect();
            let mut text = String::new();
            outcomes_csv_rows(&mut text, first, &outcomes, verdicts.as_deref());
            Body::Csv(text)
        }
    };
    ChunkText { shots, text }
}

/// Sends every chunk `runs` computes to `tx`, up to the first error or until the receiver
/// is gone.
pub(super) fn forward(
    runs: impl Iterator<Item = RunChunk>,
    tx: &std::sync::mpsc::SyncSender<RunChunk>,
) {
    for chunk in runs {
        let failed = chunk.is_err();
        if tx.send(chunk).is_err() || failed {
            break;
        }
    }
}

/// Writes the outcome file (or its CSV) of the chunks `chunks` yields, in order, to `w`;
/// the first error ends it. Returns how many shots' outcomes it wrote.
pub(super) fn write_chunks<W: Write>(
    chunks: impl Iterator<Item = RunChunk>,
    options: SimulateOptions,
    output: StreamOutput,
    mut w: W,
) -> Result<usize, StreamFailure> {
    let mut written = 0;
    match output {
        StreamOutput::Json(layout) => {
            let groups = chunks.flat_map(|chunk| match chunk {
                Ok(ChunkText {
                    shots,
                    text: Body::Json(groups),
                }) => {
                    written += shots;
                    groups.into_iter().map(Ok).collect::<Vec<_>>()
                }
                Ok(ChunkText { .. }) => unreachable!("a JSON output's chunks are JSON"),
                Err(e) => vec![Err(e)],
            });
            write_laid_outcome_stream(&mut w, groups, layout).map_err(|e| match e {
                StreamWriteError::Items(e) => StreamFailure::Input(e),
                StreamWriteError::Io(e) => StreamFailure::Io(e),
            })?;
        }
        StreamOutput::Csv => {
            let header = outcomes_csv_header(options.rules.is_some());
            w.write_all(header.as_bytes()).map_err(StreamFailure::Io)?;
            for chunk in chunks {
                let chunk = chunk.map_err(StreamFailure::Input)?;
                let Body::Csv(rows) = chunk.text else {
                    unreachable!("a CSV output's chunks are CSV")
                };
                w.write_all(rows.as_bytes()).map_err(StreamFailure::Io)?;
                written += chunk.shots;
            }
        }
    }
    w.flush().map_err(StreamFailure::Io)?;
    Ok(written)
}

/// Shots gathered into the chunks a reading hands over: `first` shots in the first chunk,
/// `size` in each after ([`read_chunks`], and the check of a held text).
pub(super) struct Chunking {
    chunk: Vec<ShotEntry>,
    /// Shots in the chunk being filled once it is full.
    limit: usize,
    size: usize,
}

impl Chunking {
    pub(super) fn new(first: usize, size: usize) -> Chunking {
        Chunking {
            chunk: Vec::with_capacity(first),
            limit: first,
            size,
        }
    }

    /// Adds `entry` to the chunk being filled: the chunk, once it is full.
    pub(super) fn push(&mut self, entry: ShotEntry) -> Option<Vec<ShotEntry>> {
        self.chunk.push(entry);
        if self.chunk.len() < self.limit {
            return None;
        }
        self.limit = self.size;
        Some(std::mem::replace(
            &mut self.chunk,
            Vec::with_capacity(self.size),
        ))
    }

    /// The shots of the last chunk, not full (none if the shots filled whole chunks).
    pub(super) fn rest(self) -> Vec<ShotEntry> {
        self.chunk
    }
}

/// A chunk [`read_chunks`] hands over: its shots, with the board and physics the reading
/// knew at the last of them; or the error that ends the reading.
pub(super) type ReadChunk<'b> = Result<(Vec<ShotEntry>, &'b Board, &'b Physics), InputError>;

/// Reads the shot file in `source` and hands its shots to `send`, `first` in the first
/// chunk and `size` in each after (an error if it no longer reads as it did when checked);
/// stops when `send` returns `false`.
pub(super) fn read_chunks(
    source: &dyn ShotSource,
    first: usize,
    size: usize,
    send: &mut dyn FnMut(ReadChunk<'_>) -> bool,
) {
    let mut chunks = Chunking::new(first, size);
    let mut failed = None;
    let mut each =
        |_: usize, entry: Result<ShotEntry, InputError>, board: &Board, physics: &Physics| {
            match entry {
                Ok(e) => match chunks.push(e) {
                    Some(full) => send(Ok((full, board, physics))),
                    None => true,
                },
                Err(e) => {
                    failed = Some(e);
                    false
                }
            }
        };
    let read = read_source(source, &mut each);
    match (read, failed) {
        (_, Some(e)) => {
            send(Err(e));
        }
        (Ok(blocks), None) => {
            let rest = chunks.rest();
            if !rest.is_empty() {
                send(Ok((rest, &blocks.board, &blocks.physics)));
            }
        }
        (Err(StreamStop::Stopped), None) => {}
        (Err(StreamStop::Json(e)), None) => {
            send(Err(InputError::new(
                "file",
                format!("changed since it was checked: {e}"),
            )));
        }
    }
}

/// The chunks of shots run, in order: each chunk's items, or the first error; after a
/// chunk `cancel` stopped (its items the finished prefix), none.
pub(super) struct ChunkRuns<'a, I> {
    pub(super) board: Board,
    pub(super) physics: Physics,
    /// The shots were checked on `board` and `physics` ([`Shot::check`]) and are run
    /// without checking them again.
    pub(super) prechecked: bool,
    pub(super) options: SimulateOptions,
    /// What the chunks' text is made for.
    pub(super) output: StreamOutput,
    pub(super) pool: Option<&'a rayon::ThreadPool>,
    pub(super) cancel: &'a Cancel,
    pub(super) chunks: I,
    pub(super) first: usize,
    pub(super) stopped: bool,
}

impl<I: Iterator<Item = EntryChunk>> Iterator for ChunkRuns<'_, I> {
    type Item = RunChunk;

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
        let (board, physics) = (&self.board, &self.physics);
        let (options, prechecked, output) = (self.options, self.prechecked, self.output);
        let run = || {
            let (items, stopped) = run_chunk(
                board,
                physics,
                &entries,
                first,
                options,
                prechecked,
                self.cancel,
            )?;
            Ok((chunk_text(items, first, output), stopped))
        };
        let ran = match self.pool {
            Some(pool) => pool.install(run),
            None => run(),
        };
        Some(ran.map(|(text, stopped)| {
            self.stopped = stopped;
            text
        }))
    }
}

/// Runs `entries` (shots `first..` of the file) on the current rayon pool: outcomes, traces
/// and verdicts as asked, in order, errors naming the file's shot. Stopped by `cancel`, the
/// items of the shots before the first stopped one, and `true`.
fn run_chunk(
    board: &Board,
    physics: &Physics,
    entries: &[ShotEntry],
    first: usize,
    options: SimulateOptions,
    prechecked: bool,
    cancel: &Cancel,
) -> Result<(Vec<OutcomeItem>, bool), InputError> {
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
        None if prechecked => {
            let done = run_checked_batch_until(board, physics, entries, cancel);
            let items = done.items.into_iter().map(|outcome| OutcomeItem {
                outcome,
                verdict: None,
                trace: None,
            });
            (items.collect(), done.stopped.is_some())
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
