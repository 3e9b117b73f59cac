//! `crokinole simulate`'s pipeline: [`check_and_simulate_stream`]. The check of the file
//! runs as a job on one of the pool's workers while the other workers already compute the
//! shots (`run_while_checking`): a file held in memory is parsed once, by the check,
//! which hands chunks of valid shots over as it goes (`check_held`); a file not held is
//! read a second time at once, on a thread of its own, for the shots to run. The outcomes
//! wait (at most [`AHEAD`] chunks, laid out as text) until every shot is checked, and
//! nothing is written if one is wrong. On one thread the passes take turns.

use super::check::{Checked, Findings, ShotSource, check_stream_until, json_error, of_kind_start};
use super::stream::{
    ChunkRuns, Chunking, EntryChunk, RunChunk, StreamFailure, StreamOutput, chunk_size, forward,
    read_chunks, simulate_stream, write_chunks,
};
use super::whole::SimulateOptions;
use crokinole_core::board::Board;
use crokinole_core::cancel::Cancel;
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_core::validate::{check_board, check_physics};
use crokinole_io::{StreamStop, read_shot_text};
use crokinole_rules::{Ruleset, ShotEntry};
use std::io::Write;

/// What [`check_and_simulate_stream`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Streamed {
    /// Shots in the file, every one checked; `None` when stopped before the check had read
    /// the whole file (a file not held: its check stops too).
    pub shots: Option<usize>,
    /// Shots whose outcomes were written: fewer than `shots` exactly when stopped.
    pub written: usize,
}

/// [`check_stream`](super::check_stream) then [`simulate_stream`], with the same errors
/// and the same bytes, the check overlapping the computing: a job on the pool checks the
/// file while the other workers run its shots, so the computing starts at once instead of
/// after a whole pass of checking. A file held in memory ([`ShotSource::text`]) is parsed
/// once, by the check, which hands each chunk of valid shots over as it goes; a file not
/// held is read again at once, on a thread of its own, a chunk at a time, so memory stays
/// bounded by a chunk. Nothing is written before every shot is checked (the outcomes
/// computed meanwhile wait, at most [`AHEAD`] chunks; the parsed shots of a held file wait
/// in memory, bounded by its text); a file with an error writes nothing. On a pool of one
/// thread a file not held is read twice in turn, as
/// [`check_stream`](super::check_stream) and [`simulate_stream`] read it; so is a file
/// whose `board` or `physics` comes after its shots (they ran on the defaults while it was
/// read).
///
/// Stopped by `cancel` (within a shot; the check of a file not held, between two shots),
/// the output is a whole file of the outcomes of the shots that finished, in order, and
/// [`Streamed`] says how many (`shots` is `None` if the check had not read the file whole).
pub fn check_and_simulate_stream<W: Write>(
    source: &dyn ShotSource,
    options: SimulateOptions,
    output: StreamOutput,
    pool: Option<&rayon::ThreadPool>,
    cancel: &Cancel,
    mut w: W,
) -> Result<Streamed, StreamFailure> {
    let threads = pool.map_or_else(rayon::current_num_threads, |p| p.current_num_threads());
    let size = chunk_size(options.trace.is_some(), threads);
    let ran = match source.text() {
        Some(text) if threads == 1 => {
            simulate_held_here(source, text, options, output, pool, cancel, size, &mut w)?
        }
        text if threads > 1 => {
            let feed = text.map_or(Feed::Reader, Feed::Check);
            run_while_checking(source, feed, options, output, pool, cancel, size, &mut w)?
        }
        _ => Ran::InTurn,
    };
    if let Ran::Done(streamed) = ran {
        return Ok(streamed);
    }
    let checked = check_stream_until(source, options.rules, cancel);
    let Some((checked, _)) = checked.map_err(StreamFailure::Input)? else {
        // Stopped while checking: a whole file of no outcomes.
        let written = write_chunks(std::iter::empty(), options, output, w)?;
        return Ok(Streamed {
            shots: None,
            written,
        });
    };
    let written = simulate_stream(source, &checked, options, output, pool, cancel, w)?;
    Ok(Streamed {
        shots: Some(checked.shots),
        written,
    })
}

/// Chunks of outcomes [`check_and_simulate_stream`] computes ahead of the end of the check,
/// laid out as text: up to 32 chunks of 512 (a readable crowded outcome is about 1.5 kB:
/// 25 MB at most), so the workers keep computing while the parsing, a quarter of the
/// work, goes on alone (with 4, two workers waited for it on a 10,000-shot file); with
/// traces, which can be megabytes a shot, [`AHEAD_TRACED`] chunks of two shots a thread.
pub const AHEAD: usize = 32;

/// [`AHEAD`] with `--trace`.
pub const AHEAD_TRACED: usize = 4;

/// What the pipeline made of a file.
enum Ran {
    /// Checked and run.
    Done(Streamed),
    /// Nothing ran, nothing was written: the two passes are to run in turn (one thread and
    /// a file not held, or a `board` or `physics` after the shots).
    InTurn,
}

/// What the check found: its verdict once it had read the whole file, or that it stopped.
enum Verdict {
    /// Every shot is valid.
    Checked(Checked),
    /// The first error, as [`check_stream`](super::check_stream) reports it.
    Failed(InputError),
    /// The file's `board` or `physics` came after its shots.
    BlocksAfterShots,
    /// Stopped by the run's [`Cancel`] before it had read the whole file.
    Stopped,
}

/// A chunk of shots to run; the first comes with the board and physics they run on (the
/// file's, known at its first shot, and checked).
struct CheckedChunk {
    blocks: Option<(Board, Physics)>,
    entries: Vec<ShotEntry>,
}

/// Where [`run_while_checking`] takes the shots it runs from.
#[derive(Clone, Copy)]
enum Feed<'a> {
    /// The check of this held text hands them over as it parses it (`check_held`): each
    /// shot parsed once, and run only once it is checked.
    Check(&'a str),
    /// A second reading of the file, on a thread of its own beside the check's
    /// (`read_to_run`), a chunk at a time; each shot is checked again as it runs.
    Reader,
}

/// [`check_and_simulate_stream`] on a pool of two threads or more: a job on one of the
/// pool's workers checks the file, the other workers compute the chunks `feed` hands over
/// (all of them once the check is done), this thread writes once the verdict is in.
#[allow(clippy::too_many_arguments)]
fn run_while_checking<'a, W: Write>(
    source: &'a dyn ShotSource,
    feed: Feed<'a>,
    options: SimulateOptions,
    output: StreamOutput,
    pool: Option<&rayon::ThreadPool>,
    cancel: &'a Cancel,
    size: usize,
    w: W,
) -> Result<Ran, StreamFailure> {
    use std::sync::mpsc::sync_channel;
    let first = first_chunk(size);
    let run = |jobs: &rayon::Scope<'a>| {
        std::thread::scope(|scope| {
            let (verdict_tx, verdict_rx) = sync_channel::<Verdict>(1);
            // The check is a job of the pool: while it reads it holds one worker and the
            // others compute, so no more threads compute than the pool has. On a thread of
            // its own beside two workers it made three threads on two cores, and a worker's
            // join waited out the time slice of whichever thread held the core: the chunks
            // computed while the file was parsed took three times as long.
            let chunks = match feed {
                Feed::Check(text) => {
                    // Unbounded: the shots of a held text are bounded by the text (and a
                    // check that waited on the runs would hold back the verdict the
                    // writing waits for).
                    let (chunk_tx, chunk_rx) = std::sync::mpsc::channel();
                    jobs.spawn(move |_| {
                        let verdict = check_held(source, text, options.rules, size, &chunk_tx);
                        drop(chunk_tx);
                        let _ = verdict_tx.send(verdict);
                    });
                    chunk_rx
                }
                Feed::Reader => {
                    // Bounded: the check does not wait on the reading.
                    let (chunk_tx, chunk_rx) = sync_channel(1);
                    jobs.spawn(move |_| {
                        let checked = check_stream_until(source, options.rules, cancel);
                        let _ = verdict_tx.send(match checked {
                            Ok(Some((checked, false))) => Verdict::Checked(checked),
                            Ok(Some((_, true))) => Verdict::BlocksAfterShots,
                            Ok(None) => Verdict::Stopped,
                            Err(e) => Verdict::Failed(e),
                        });
                    });
                    scope.spawn(move || read_to_run(source, first, size, &chunk_tx));
                    chunk_rx
                }
            };
            let ahead = if options.trace.is_some() {
                AHEAD_TRACED
            } else {
                AHEAD
            };
            let (done_tx, done_rx) = sync_channel::<RunChunk>(ahead);
            let prechecked = matches!(feed, Feed::Check(_));
            scope.spawn(move || {
                match checked_runs(chunks, prechecked, options, output, pool, cancel) {
                    Ok(Some(runs)) => forward(runs, &done_tx),
                    Ok(None) => {}
                    Err(e) => {
                        let _ = done_tx.send(Err(e));
                    }
                }
            });
            let shots = match verdict_rx.recv() {
                Ok(Verdict::Checked(checked)) => Some(checked.shots),
                // The runs stop too: the outcomes of the shots that finished are written.
                Ok(Verdict::Stopped) => None,
                Ok(Verdict::Failed(e)) => return Err(StreamFailure::Input(e)),
                Ok(Verdict::BlocksAfterShots) | Err(_) => return Ok(Ran::InTurn),
            };
            let written = write_chunks(done_rx.into_iter(), options, output, w)?;
            Ok(Ran::Done(Streamed { shots, written }))
        })
    };
    match pool {
        Some(pool) => pool.in_place_scope(run),
        None => rayon::in_place_scope(run),
    }
}

/// Shots in the first chunk handed over, of `size` in the others: an eighth when that is
/// 64 shots or more, since the workers wait for it (512 crowded shots take milliseconds
/// to parse).
fn first_chunk(size: usize) -> usize {
    if size >= 512 { size / 8 } else { size }
}

/// Whether `board` and `physics` pass their checks, so shots may run on them (the check
/// reports them if not).
fn blocks_valid(board: &Board, physics: &Physics) -> bool {
    check_board(board).is_ok() && check_physics(physics).is_ok()
}

/// The second reading of a file not held, for [`Feed::Reader`]: its shots to `tx` in
/// chunks (`first`, then `size` each), the first with the board and physics known at its
/// last shot, if they pass their checks (else nothing is run: the check reports them). An
/// error reading ends it with the error, which the runs report if the check did not (the
/// file changed between the readings).
fn read_to_run(
    source: &dyn ShotSource,
    first: usize,
    size: usize,
    tx: &std::sync::mpsc::SyncSender<Result<CheckedChunk, InputError>>,
) {
    let mut sent = false;
    read_chunks(source, first, size, &mut |chunk| {
        let chunk = chunk.and_then(|(entries, board, physics)| {
            let blocks = if sent {
                None
            } else if blocks_valid(board, physics) {
                Some((board.clone(), physics.clone()))
            } else {
                return Err(InputError::new(
                    "file",
                    "changed since it was checked: its board or physics is wrong",
                ));
            };
            sent = true;
            Ok(CheckedChunk { blocks, entries })
        });
        let failed = chunk.is_err();
        tx.send(chunk).is_ok() && !failed
    });
}

/// The pipeline of a held file on one thread, the calling one (a pool of one thread:
/// `--threads 1`): the whole text parsed and checked, then each chunk run and written,
/// with no thread started and no chunk handed between threads (on one core the threads
/// only took turns, and each hand-over, thread start and cross-thread free cost time). The
/// same bytes.
#[allow(clippy::too_many_arguments)]
fn simulate_held_here<W: Write>(
    source: &dyn ShotSource,
    text: &str,
    options: SimulateOptions,
    output: StreamOutput,
    pool: Option<&rayon::ThreadPool>,
    cancel: &Cancel,
    size: usize,
    w: W,
) -> Result<Ran, StreamFailure> {
    // Unbounded: the shots of a held text are bounded by the text.
    let (chunk_tx, chunk_rx) = std::sync::mpsc::channel();
    let checked = match check_held(source, text, options.rules, size, &chunk_tx) {
        Verdict::Checked(checked) => checked,
        Verdict::Failed(e) => return Err(StreamFailure::Input(e)),
        Verdict::BlocksAfterShots => return Ok(Ran::InTurn),
        Verdict::Stopped => unreachable!("the check of a held text reads it whole"),
    };
    drop(chunk_tx);
    let runs = checked_runs(chunk_rx, true, options, output, pool, cancel)
        .map_err(StreamFailure::Input)?;
    let written = write_chunks(runs.into_iter().flatten(), options, output, w)?;
    Ok(Ran::Done(Streamed {
        shots: Some(checked.shots),
        written,
    }))
}

/// The runs of the chunks sent to `chunks`, on the board and physics that come with the
/// first (`prechecked`: whether the shots were checked before they were sent); `None` if
/// no shot was sent, the error if the first chunk is one.
fn checked_runs<'a>(
    chunks: std::sync::mpsc::Receiver<Result<CheckedChunk, InputError>>,
    prechecked: bool,
    options: SimulateOptions,
    output: StreamOutput,
    pool: Option<&'a rayon::ThreadPool>,
    cancel: &'a Cancel,
) -> Result<Option<ChunkRuns<'a, impl Iterator<Item = EntryChunk>>>, InputError> {
    let mut chunks = chunks.into_iter();
    let Some(CheckedChunk {
        blocks: Some((board, physics)),
        entries,
    }) = chunks.next().transpose()?
    else {
        return Ok(None);
    };
    Ok(Some(ChunkRuns {
        board,
        physics,
        prechecked,
        options,
        output,
        pool,
        cancel,
        chunks: std::iter::once(Ok(entries)).chain(chunks.map(|c| c.map(|c| c.entries))),
        first: 0,
        stopped: false,
    }))
}

/// Parses and checks the held `text` of `source` as [`check_stream`](super::check_stream)
/// does, sending every `size` valid shots to `tx` (the first chunk [`first_chunk`]; the
/// board and physics with it, once checked) until the first wrong one; the verdict once
/// the whole text is read.
fn check_held(
    source: &dyn ShotSource,
    text: &str,
    rules: Option<Ruleset>,
    size: usize,
    tx: &std::sync::mpsc::Sender<Result<CheckedChunk, InputError>>,
) -> Verdict {
    let mut found = Findings::default();
    let mut chunks = Chunking::new(first_chunk(size), size);
    // Whether the blocks known at the first shot are valid, so the shots may run.
    let mut blocks_ok = None;
    let mut sent = false;
    let mut send = |entries, board: &Board, physics: &Physics| {
        let blocks = (!sent).then(|| (board.clone(), physics.clone()));
        sent = true;
        let _ = tx.send(Ok(CheckedChunk { blocks, entries }));
    };
    let mut each = |k: usize, entry, board: &Board, physics: &Physics| {
        let ok = *blocks_ok.get_or_insert_with(|| blocks_valid(board, physics));
        if let Some(e) = found.checked(rules, k, entry, board, physics)
            && ok
            && let Some(full) = chunks.push(e)
        {
            send(full, board, physics);
        }
        true
    };
    let blocks = match read_shot_text(text, &mut each) {
        Ok(blocks) => blocks,
        Err(StreamStop::Json(e)) => return Verdict::Failed(json_error(source, &e)),
        Err(StreamStop::Stopped) => unreachable!("the check reads every shot"),
    };
    if let Err(e) = check_board(&blocks.board).and_then(|()| check_physics(&blocks.physics)) {
        return Verdict::Failed(of_kind_start(e, source));
    }
    if blocks.blocks_after_shots {
        return Verdict::BlocksAfterShots;
    }
    let shot_error = found.shot.is_some();
    if let Some(e) = found.first() {
        return Verdict::Failed(if shot_error {
            of_kind_start(e, source)
        } else {
            e
        });
    }
    let rest = chunks.rest();
    if !rest.is_empty() {
        send(rest, &blocks.board, &blocks.physics);
    }
    Verdict::Checked(Checked {
        board: blocks.board,
        physics: blocks.physics,
        shots: blocks.shots,
    })
}
