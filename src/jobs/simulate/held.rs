//! `crokinole simulate`'s pipeline: [`check_and_simulate_stream`]. A file held in memory
//! is parsed once, by a job on one of the pool's workers that checks each shot and hands
//! chunks of valid ones to the other workers as it goes (`check_held`), so the
//! computing starts at once; the outcomes wait
//! (at most [`AHEAD`] chunks, laid out as text) until every shot is checked, and nothing is written if one
//! is wrong. A file not held is read twice ([`super::check`], then [`super::stream`]).

use super::check::{Checked, Findings, ShotSource, check_stream, json_error, of_kind_start};
use super::stream::{
    ChunkRuns, RunChunk, StreamFailure, StreamOutput, chunk_size, forward, simulate_stream,
    write_chunks,
};
use super::whole::SimulateOptions;
use crate::board::Board;
use crate::cancel::Cancel;
use crate::error::InputError;
use crate::io::{StreamStop, read_shot_text};
use crate::params::Physics;
use crate::rules::{Ruleset, ShotEntry};
use crate::validate::{check_board, check_physics};
use std::io::Write;

/// What [`check_and_simulate_stream`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Streamed {
    /// Shots in the file, every one checked.
    pub shots: usize,
    /// Shots whose outcomes were written: fewer than `shots` exactly when stopped.
    pub written: usize,
}

/// [`check_stream`] then [`simulate_stream`], with the same errors and the same bytes, in
/// one reading when the file is held in memory ([`ShotSource::text`]): a job on the pool parses
/// and checks the text shot by shot and hands each chunk of valid shots over as it goes, so
/// the computing starts at once instead of after a whole pass of checking, and the text is
/// parsed once instead of twice. Nothing is written before every shot is checked (the
/// outcomes computed meanwhile wait, at most [`AHEAD`] chunks; the parsed shots wait in
/// memory, bounded by the held text); a file with an error writes nothing. A file not held
/// is read twice, as [`check_stream`] and [`simulate_stream`] read it, so memory stays
/// bounded by a chunk; so is a held file whose `board` or `physics` comes after its shots
/// (checked against the defaults while it was read).
pub fn check_and_simulate_stream<W: Write>(
    source: &dyn ShotSource,
    options: SimulateOptions,
    output: StreamOutput,
    pool: Option<&rayon::ThreadPool>,
    cancel: &Cancel,
    mut w: W,
) -> Result<Streamed, StreamFailure> {
    if let Some(text) = source.text() {
        match simulate_held(source, text, options, output, pool, cancel, &mut w)? {
            Held::Done(streamed) => return Ok(streamed),
            Held::BlocksAfterShots => {}
        }
    }
    let checked = check_stream(source, options.rules).map_err(StreamFailure::Input)?;
    let written = simulate_stream(source, &checked, options, output, pool, cancel, w)?;
    Ok(Streamed {
        shots: checked.shots,
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

/// What [`simulate_held`] made of a held file.
enum Held {
    /// Checked and run.
    Done(Streamed),
    /// Its `board` or `physics` came after its shots: nothing ran, nothing was written.
    BlocksAfterShots,
}

/// What the checking thread of [`simulate_held`] found once it had read the whole text.
enum Verdict {
    /// Every shot is valid.
    Checked(Checked),
    /// The first error, as [`check_stream`] reports it.
    Failed(InputError),
    /// The file's `board` or `physics` came after its shots.
    BlocksAfterShots,
}

/// A chunk of checked shots; the first comes with the board and physics they were checked
/// on.
struct CheckedChunk {
    blocks: Option<(Board, Physics)>,
    entries: Vec<ShotEntry>,
}

/// [`check_and_simulate_stream`] on the held `text` of `source`: a job on one of the
/// pool's workers parses and checks, the other workers compute the chunks it hands over
/// (all of them once it is done), this thread writes once the verdict is in. On a pool of
/// one thread, [`simulate_held_here`].
fn simulate_held<'a, W: Write>(
    source: &'a dyn ShotSource,
    text: &'a str,
    options: SimulateOptions,
    output: StreamOutput,
    pool: Option<&rayon::ThreadPool>,
    cancel: &Cancel,
    w: W,
) -> Result<Held, StreamFailure> {
    use std::sync::mpsc::{channel, sync_channel};
    let threads = pool.map_or_else(rayon::current_num_threads, |p| p.current_num_threads());
    let size = chunk_size(options.trace.is_some(), threads);
    if threads == 1 {
        return simulate_held_here(source, text, options, output, pool, cancel, size, w);
    }
    let run = |jobs: &rayon::Scope<'a>| {
        std::thread::scope(|scope| {
            // Unbounded: the shots of a held text are bounded by the text.
            let (chunk_tx, chunk_rx) = channel::<CheckedChunk>();
            let (verdict_tx, verdict_rx) = sync_channel::<Verdict>(1);
            // The check is a job of the pool: while it parses it holds one worker and the
            // others compute, so no more threads run than the pool has. On a thread of its
            // own beside two workers it made three threads on two cores, and a worker's join
            // waited out the time slice of whichever thread held the core: the chunks computed
            // while the file was parsed took three times as long.
            jobs.spawn(move |_| {
                let verdict = check_held(source, text, options.rules, size, &chunk_tx);
                drop(chunk_tx);
                let _ = verdict_tx.send(verdict);
            });
            let ahead = if options.trace.is_some() {
                AHEAD_TRACED
            } else {
                AHEAD
            };
            let (done_tx, done_rx) = sync_channel::<RunChunk>(ahead);
            scope.spawn(move || {
                if let Some(runs) = checked_runs(chunk_rx, options, output, pool, cancel) {
                    forward(runs, &done_tx);
                }
            });
            let checked = match verdict_rx.recv() {
                Ok(Verdict::Checked(checked)) => checked,
                Ok(Verdict::Failed(e)) => return Err(StreamFailure::Input(e)),
                Ok(Verdict::BlocksAfterShots) | Err(_) => return Ok(Held::BlocksAfterShots),
            };
            let written = write_chunks(done_rx.into_iter(), options, output, w)?;
            Ok(Held::Done(Streamed {
                shots: checked.shots,
                written,
            }))
        })
    };
    match pool {
        Some(pool) => pool.in_place_scope(run),
        None => rayon::in_place_scope(run),
    }
}

/// [`simulate_held`] on one thread, the calling one (a pool of one thread: `--threads 1`):
/// the whole text parsed and checked, then each chunk run and written, with no thread
/// started and no chunk handed between threads (on one core the threads only took turns,
/// and each hand-over, thread start and cross-thread free cost time). The same bytes.
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
) -> Result<Held, StreamFailure> {
    // Unbounded: the shots of a held text are bounded by the text.
    let (chunk_tx, chunk_rx) = std::sync::mpsc::channel::<CheckedChunk>();
    let checked = match check_held(source, text, options.rules, size, &chunk_tx) {
        Verdict::Checked(checked) => checked,
        Verdict::Failed(e) => return Err(StreamFailure::Input(e)),
        Verdict::BlocksAfterShots => return Ok(Held::BlocksAfterShots),
    };
    drop(chunk_tx);
    let written = match checked_runs(chunk_rx, options, output, pool, cancel) {
        Some(runs) => write_chunks(runs, options, output, w)?,
        None => write_chunks(std::iter::empty(), options, output, w)?,
    };
    Ok(Held::Done(Streamed {
        shots: checked.shots,
        written,
    }))
}

/// The runs of the checked chunks `check_held` sends to `chunks`, on the board and
/// physics that come with the first; `None` if no shot was sent.
fn checked_runs<'a>(
    chunks: std::sync::mpsc::Receiver<CheckedChunk>,
    options: SimulateOptions,
    output: StreamOutput,
    pool: Option<&'a rayon::ThreadPool>,
    cancel: &'a Cancel,
) -> Option<ChunkRuns<'a, impl Iterator<Item = Result<Vec<ShotEntry>, InputError>>>> {
    let mut chunks = chunks.into_iter();
    let Some(CheckedChunk {
        blocks: Some((board, physics)),
        entries,
    }) = chunks.next()
    else {
        return None;
    };
    Some(ChunkRuns {
        board,
        physics,
        prechecked: true,
        options,
        output,
        pool,
        cancel,
        chunks: std::iter::once(Ok(entries)).chain(chunks.map(|c| Ok(c.entries))),
        first: 0,
        stopped: false,
    })
}

/// Parses and checks the held `text` of `source` as [`check_stream`] does, sending every
/// `size` valid shots to `tx` (with the board and physics, once checked) until the first
/// wrong one; the verdict once the whole text is read. The first chunk is an eighth of
/// `size` when that is 64 shots or more: the workers wait for it (512 crowded shots take
/// milliseconds to parse).
fn check_held(
    source: &dyn ShotSource,
    text: &str,
    rules: Option<Ruleset>,
    size: usize,
    tx: &std::sync::mpsc::Sender<CheckedChunk>,
) -> Verdict {
    let mut found = Findings::default();
    let mut limit = if size >= 512 { size / 8 } else { size };
    let mut chunk = Vec::with_capacity(limit);
    // Whether the blocks known at the first shot are valid, so the shots may run.
    let mut blocks_ok = None;
    let mut sent = false;
    let mut send = |entries, board: &Board, physics: &Physics| {
        let blocks = (!sent).then(|| (board.clone(), physics.clone()));
        sent = true;
        let _ = tx.send(CheckedChunk { blocks, entries });
    };
    let mut each = |k: usize, entry, board: &Board, physics: &Physics| {
        let ok = *blocks_ok
            .get_or_insert_with(|| check_board(board).is_ok() && check_physics(physics).is_ok());
        if let Some(e) = found.checked(rules, k, entry, board, physics)
            && ok
        {
            chunk.push(e);
            if chunk.len() == limit {
                limit = size;
                send(
                    std::mem::replace(&mut chunk, Vec::with_capacity(size)),
                    board,
                    physics,
                );
            }
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
    if !chunk.is_empty() {
        send(chunk, &blocks.board, &blocks.physics);
    }
    Verdict::Checked(Checked {
        board: blocks.board,
        physics: blocks.physics,
        shots: blocks.shots,
    })
}
