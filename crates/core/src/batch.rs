//! Many shots on a rayon pool, outcomes in input order, bit-identical to running them one
//! by one: each shot is independent and deterministic, and results are collected in order
//! (never reduced in parallel).
//!
//! - [`run_batch`]: a slice of shots in, a `Vec` of outcomes out.
//! - [`stream_batch`]: any iterator of shots in, an iterator of outcomes out, computed
//!   `chunk` shots at a time, so memory is bounded by the chunk whatever the batch's size.
//! - [`map_ordered`]: the same streaming for any work indexed by `u64` (the Monte Carlo
//!   studies use it: sample `i` is a function of `i`); [`map_ordered_until`] can be told to
//!   stop between chunks (Ctrl-C).
//! - [`run_batch_until`], [`BatchStream::until`]: the same, stopped by a
//!   [`Cancel`] between shots and within one (each shot checks it
//!   while it runs), keeping the outcomes of the shots that finished before the first
//!   stopped one, in order ([`Finished`]); a stopped shot is never reported.
//!
//! **Load balance.** Rayon hands out work as ranges of items and only splits a range when
//! another thread comes to steal; a range already being worked through is not split
//! again. Left to itself it makes ranges of tens of shots, and at a batch's end one thread
//! could finish while the other still had such a range to do: about 6 % of a crowded
//! batch's wall time idle on two threads, measured with `examples/scaling.rs`. Every
//! parallel iterator here therefore splits down to single items ([`SPLIT`]): a split
//! costs well under a microsecond, a shot 10 to 200, and the tail of a batch is at most
//! one shot.
//!
//! Each chunk is mapped with `par_iter().map().collect()` into a `Vec` in order; chunk
//! boundaries and the thread count only decide which thread computes which item, never
//! what it computes, so every split of a batch gives the same results. Work runs on the
//! rayon pool current when the results are pulled: wrap the loop in
//! [`rayon::ThreadPool::install`] to choose the thread count.

use crate::board::Board;
use crate::cancel::{Cancel, Cancelled};
use crate::error::InputError;
use crate::params::Physics;
use crate::shot::{Outcome, Shot, ShotError, run_shot, run_shot_until};
use rayon::prelude::*;
use std::ops::Range;

/// Largest range of items a thread takes without letting another steal part of it (see
/// the module documentation): 1, one shot or sample.
pub const SPLIT: usize = 1;

/// [`SPLIT`] for items of a few microseconds (a Monte Carlo sample, a planner's sample;
/// [`OrderedMapUntil::split`]): ranges of up to 8 items, so a split (a rayon join, a
/// fraction of a microsecond) is shared by 8 items instead of costing 6 % of an opening
/// study on its own, and the tail of a chunk is at most 8 items, tens of microseconds.
pub const SAMPLE_SPLIT: usize = 8;

/// Default chunk size of the streaming forms: large enough that the pause at each chunk's
/// end costs little, small enough that memory stays small.
pub const DEFAULT_CHUNK: usize = 4096;

/// `f(k, &items[k])` for every item, in order, on the current rayon pool, split into
/// single items ([`SPLIT`]); on a pool of one thread (`--threads 1`) a plain loop, since
/// splitting buys nothing there and costs a rayon join an item. The same results either
/// way: each is a pure function of its item.
pub fn map_items<T: Sync, R: Send>(items: &[T], f: impl Fn(usize, &T) -> R + Sync) -> Vec<R> {
    if rayon::current_num_threads() == 1 {
        items.iter().enumerate().map(|(k, t)| f(k, t)).collect()
    } else {
        items
            .par_iter()
            .with_max_len(SPLIT)
            .enumerate()
            .map(|(k, t)| f(k, t))
            .collect()
    }
}

/// Runs every shot on the current rayon pool; result `k` belongs to `shots[k]`, with errors
/// attributed to their shot index.
pub fn run_batch(
    board: &Board,
    physics: &Physics,
    shots: &[Shot],
) -> Vec<Result<Outcome, InputError>> {
    map_items(shots, |k, s| {
        run_shot(board, physics, s).map_err(|e| e.in_shot(k))
    })
}

/// What finished of work that a [`Cancel`] may stop: the results of the first
/// `items.len()` pieces, in order, and why the rest was not done, if it was stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct Finished<T> {
    /// The results of the pieces that finished before the first stopped one, in order.
    pub items: Vec<T>,
    /// `Some` if the work was stopped before its end.
    pub stopped: Option<Cancelled>,
}

impl<T> Finished<T> {
    /// The in-order prefix of `results` up to the first stopped piece (later pieces that
    /// happened to finish are dropped, so what is kept is always "the first k").
    pub fn prefix(results: Vec<Result<T, Cancelled>>) -> Finished<T> {
        let mut items = Vec::with_capacity(results.len());
        for r in results {
            match r {
                Ok(x) => items.push(x),
                Err(c) => {
                    return Finished {
                        items,
                        stopped: Some(c),
                    };
                }
            }
        }
        Finished {
            items,
            stopped: None,
        }
    }
}

/// One shot of a batch as [`run_batch`] reports it, or the batch's stop.
fn shot_in_batch(
    board: &Board,
    physics: &Physics,
    shot: &Shot,
    k: usize,
    cancel: &Cancel,
) -> Result<Result<Outcome, InputError>, Cancelled> {
    match run_shot_until(board, physics, shot, cancel) {
        Ok(o) => Ok(Ok(o)),
        Err(ShotError::Input(e)) => Ok(Err(e.in_shot(k))),
        Err(ShotError::Cancelled(c)) => Err(c),
    }
}

/// [`run_batch`] that stops when `cancel` is cancelled: every shot checks it before it
/// starts and while it runs ([`World::run_until`](crate::World::run_until)), so the batch
/// ends within milliseconds. Returns the results of the shots before the first stopped
/// one, in order; an uncancelled batch gives exactly [`run_batch`]'s results. The shots
/// may be anything that holds a [`Shot`] (a shot file's entries, say).
pub fn run_batch_until<S: std::borrow::Borrow<Shot> + Sync>(
    board: &Board,
    physics: &Physics,
    shots: &[S],
    cancel: &Cancel,
) -> Finished<Result<Outcome, InputError>> {
    Finished::prefix(map_items(shots, |k, s| {
        shot_in_batch(board, physics, s.borrow(), k, cancel)
    }))
}

/// [`run_batch_until`] for shots that [`Shot::check`] accepted on this `board` and
/// `physics` (a shot file's check pass): their worlds are built without checking them a
/// second time (in debug builds they are), each in its thread's world, copied from one
/// empty world of the board (so a shot allocates only its outcome); the same outcomes.
/// Giving it a shot that was not checked is a bug of the caller's.
pub fn run_checked_batch_until<S: std::borrow::Borrow<Shot> + Sync>(
    board: &Board,
    physics: &Physics,
    shots: &[S],
    cancel: &Cancel,
) -> Finished<Outcome> {
    let empty = crate::world::World::unchecked(board.clone(), physics.clone());
    Finished::prefix(map_items(shots, |_, s| {
        cancel.check()?;
        crate::shot::checked_outcome_from(&empty, s.borrow(), cancel)
    }))
}

/// The outcomes of a stream of shots, in order, computed `chunk` shots at a time on the
/// current rayon pool (see [`stream_batch`]).
pub struct BatchStream<'a, I> {
    board: &'a Board,
    physics: &'a Physics,
    shots: I,
    chunk: usize,
    next_index: usize,
    ready: std::vec::IntoIter<Result<Outcome, InputError>>,
    cancel: Cancel,
    stopped: Option<Cancelled>,
}

/// Runs the shots of `shots` (any iterator, read lazily) and yields their outcomes in
/// order, exactly as [`run_batch`] would: item `k` belongs to the `k`-th shot, errors carry
/// its index. At most `chunk` shots and outcomes are held at once (`chunk` 0 counts as 1).
pub fn stream_batch<'a, I: IntoIterator<Item = Shot>>(
    board: &'a Board,
    physics: &'a Physics,
    shots: I,
    chunk: usize,
) -> BatchStream<'a, I::IntoIter> {
    BatchStream {
        board,
        physics,
        shots: shots.into_iter(),
        chunk: chunk.max(1),
        next_index: 0,
        ready: Vec::new().into_iter(),
        cancel: Cancel::never(),
        stopped: None,
    }
}

impl<I> BatchStream<'_, I> {
    /// This stream, stopped by `cancel`: once it is cancelled the stream yields the
    /// outcomes of the shots that finished before the first stopped one and ends there
    /// ([`BatchStream::stopped`] then says so). Uncancelled, the items are unchanged.
    pub fn until(mut self, cancel: Cancel) -> Self {
        self.cancel = cancel;
        self
    }

    /// `Some` once the stream has ended because it was cancelled (not at the end of its
    /// shots): the shots after the last item yielded did not run to the end.
    pub fn stopped(&self) -> Option<Cancelled> {
        self.stopped
    }
}

impl<I: Iterator<Item = Shot>> Iterator for BatchStream<'_, I> {
    type Item = Result<Outcome, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(out) = self.ready.next() {
            return Some(out);
        }
        if self.stopped.is_some() {
            return None;
        }
        if let Err(c) = self.cancel.check() {
            self.stopped = Some(c);
            return None;
        }
        let shots: Vec<Shot> = self.shots.by_ref().take(self.chunk).collect();
        if shots.is_empty() {
            return None;
        }
        let first = self.next_index;
        self.next_index += shots.len();
        let (board, physics, cancel) = (self.board, self.physics, &self.cancel);
        let outcomes = map_items(&shots, |k, s| {
            shot_in_batch(board, physics, s, first + k, cancel)
        });
        let done = Finished::prefix(outcomes);
        self.stopped = done.stopped;
        self.ready = done.items.into_iter();
        self.ready.next()
    }
}

/// `f(i)` for every `i` of a range, in order, computed `chunk` at a time on the current
/// rayon pool (see [`map_ordered`]).
pub struct OrderedMap<F, T> {
    f: F,
    start: u64,
    next: u64,
    end: u64,
    chunk: u64,
    /// Largest range a thread takes without letting another steal part of it.
    split: usize,
    ready: std::vec::IntoIter<T>,
}

/// Yields `f(i)` for `i` in `range`, in order. Each chunk of `chunk` indices (a `chunk`
/// of 0 counts as one) is computed in parallel and collected in order before any of it is
/// yielded, so at most `chunk` results are held at once. For the results not to depend on
/// the chunk size or the thread count, `f` must depend on `i` alone.
pub fn map_ordered<T: Send, F: Fn(u64) -> T + Sync>(
    range: Range<u64>,
    chunk: usize,
    f: F,
) -> OrderedMap<F, T> {
    OrderedMap {
        f,
        start: range.start,
        next: range.start,
        end: range.end.max(range.start),
        chunk: (chunk.max(1)) as u64,
        split: SPLIT,
        ready: Vec::new().into_iter(),
    }
}

impl<T: Send, F: Fn(u64) -> T + Sync> Iterator for OrderedMap<F, T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        if let Some(x) = self.ready.next() {
            return Some(x);
        }
        if self.next >= self.end {
            return None;
        }
        let start = self.next;
        let len = self.chunk.min(self.end - start);
        self.next += len;
        let f = &self.f;
        let items: Vec<T> = (0..len as usize)
            .into_par_iter()
            .with_max_len(self.split)
            .map(|k| f(start + k as u64))
            .collect();
        self.ready = items.into_iter();
        self.ready.next()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.ready.len() as u64 + (self.end - self.next);
        let n = usize::try_from(n).ok();
        (n.unwrap_or(usize::MAX), n)
    }
}

/// [`map_ordered`] that may be told to stop between chunks (see [`map_ordered_until`]).
pub struct OrderedMapUntil<F, T, S> {
    map: OrderedMap<F, T>,
    stop: S,
}

/// [`map_ordered`] that asks `stop` before each chunk but the first, once every result of
/// the chunks before it has been yielded (and handled by the caller), and ends there when
/// it says yes: a run stopped by a user (Ctrl-C) ends on a chunk's boundary and computes
/// nothing it will not yield.
pub fn map_ordered_until<T: Send, F: Fn(u64) -> T + Sync, S: FnMut() -> bool>(
    range: Range<u64>,
    chunk: usize,
    f: F,
    stop: S,
) -> OrderedMapUntil<F, T, S> {
    OrderedMapUntil {
        map: map_ordered(range, chunk, f),
        stop,
    }
}

impl<F, T, S> OrderedMapUntil<F, T, S> {
    /// The same map with ranges of up to `split` items per thread (at least 1; [`SPLIT`]
    /// by default, [`SAMPLE_SPLIT`] for items of a few microseconds): which thread
    /// computes an item changes, never what it computes.
    pub fn split(mut self, split: usize) -> Self {
        self.map.split = split.max(1);
        self
    }
}

impl<T: Send, F: Fn(u64) -> T + Sync, S: FnMut() -> bool> Iterator for OrderedMapUntil<F, T, S> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        let m = &mut self.map;
        let between_chunks = m.ready.len() == 0 && m.start < m.next && m.next < m.end;
        if between_chunks && (self.stop)() {
            m.end = m.next;
        }
        m.next()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.map.ready.len(), self.map.size_hint().1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_ordered_keeps_order_for_every_chunk() {
        let want: Vec<u64> = (5..1005).map(|i| i * i).collect();
        for chunk in [0, 1, 3, 64, 1000, 5000] {
            let got: Vec<u64> = map_ordered(5..1005, chunk, |i| i * i).collect();
            assert_eq!(got, want, "chunk {chunk}");
        }
        assert_eq!(map_ordered(7..7, 4, |i| i).count(), 0);
        assert_eq!(map_ordered(0..10, 4, |i| i).size_hint(), (10, Some(10)));
    }

    /// Three shots of a disc sliding into a ring of discs at rest.
    fn shots() -> Vec<Shot> {
        (0..3)
            .map(|k| Shot {
                discs: vec![crate::shot::Placed {
                    team: 1,
                    pos: glam::DVec2::new(0.01 * f64::from(k), 0.0),
                }],
                shooter: crate::shot::Flick {
                    team: 0,
                    pos: glam::DVec2::new(0.0, -0.3),
                    vel: glam::DVec2::new(0.0, 1.2 + 0.1 * f64::from(k)),
                    spin: 0.0,
                },
            })
            .collect()
    }

    #[test]
    fn a_cancelled_batch_reports_no_stopped_shot_and_an_uncancelled_one_is_unchanged() {
        let (board, physics) = (Board::tournament(), Physics::default());
        let shots = shots();
        let want = run_batch(&board, &physics, &shots);
        let done = run_batch_until(&board, &physics, &shots, &Cancel::new());
        assert_eq!(done.stopped, None);
        assert_eq!(done.items, want);
        let cancel = Cancel::new();
        cancel.cancel();
        let done = run_batch_until(&board, &physics, &shots, &cancel);
        assert!(done.items.is_empty());
        assert_eq!(
            done.stopped,
            Some(Cancelled(crate::cancel::CancelReason::Requested))
        );
        // A stream: the same items uncancelled; cancelled, it ends and says why.
        let streamed: Vec<_> = stream_batch(&board, &physics, shots.clone(), 2)
            .until(Cancel::new())
            .collect();
        assert_eq!(streamed, want);
        let mut stream = stream_batch(&board, &physics, shots.clone(), 2).until(cancel);
        assert!(stream.next().is_none());
        assert!(stream.stopped().is_some());
        // Only the in-order prefix is kept.
        let c = Cancelled(crate::cancel::CancelReason::Deadline);
        let f = Finished::prefix(vec![Ok(1), Ok(2), Err(c), Ok(4)]);
        assert_eq!((f.items, f.stopped), (vec![1, 2], Some(c)));
    }

    #[test]
    fn map_ordered_until_stops_only_between_chunks() {
        // Asked before chunks 2, 3, ...; says yes the second time: two chunks of 4.
        let mut asked = 0;
        let got: Vec<u64> = map_ordered_until(
            10..30,
            4,
            |i| i,
            || {
                asked += 1;
                asked == 2
            },
        )
        .collect();
        assert_eq!(got, (10..18).collect::<Vec<_>>());
        assert_eq!(asked, 2);
        // Never asked after the last chunk, nor before the first.
        let mut asked = 0;
        let all = map_ordered_until(
            0..8,
            4,
            |i| i,
            || {
                asked += 1;
                false
            },
        );
        assert_eq!(all.count(), 8);
        assert_eq!(asked, 1);
    }
}
