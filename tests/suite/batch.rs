//! The batch API (`crates/core/src/batch.rs`): outcomes in input order, bit-identical to running the
//! shots one by one, for every thread count, every split of the batch and every chunk size
//! of the streaming form; errors attributed to their global index; shots read lazily.

use crate::fixture;

use crokinole::batch::{map_ordered, run_batch, stream_batch};
use crokinole::io::outcomes_to_string;
use crokinole::{Board, InputError, Outcome, Physics, Shot, run_shot};
use std::cell::Cell;

fn load(name: &str, take: usize) -> (Board, Physics, Vec<Shot>) {
    let (board, physics, mut shots) = fixture::shots(name);
    shots.truncate(take);
    (board, physics, shots)
}

/// The outcome file of a batch's results: its bytes are the comparison (they tell `0.0`
/// from `-0.0`, unlike `==` on floats).
fn bytes(results: Vec<Result<Outcome, InputError>>) -> String {
    let outcomes: Vec<Outcome> = results.into_iter().map(Result::unwrap).collect();
    outcomes_to_string(&outcomes)
}

/// One shot after the other on this thread.
fn serial(board: &Board, physics: &Physics, shots: &[Shot]) -> String {
    bytes(shots.iter().map(|s| run_shot(board, physics, s)).collect())
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// A mixed batch: opening shots and crowded ones, interleaved in blocks.
fn mixed() -> (Board, Physics, Vec<Shot>) {
    let (board, physics, mut shots) = load("crowded.json", 40);
    let (b2, p2, opening) = load("opening.json", 40);
    assert_eq!(
        (&board, &physics),
        (&b2, &p2),
        "the fixtures share their blocks"
    );
    shots.extend(opening);
    (board, physics, shots)
}

#[test]
fn outcomes_are_identical_for_1_2_3_and_8_threads() {
    let (board, physics, shots) = mixed();
    let want = serial(&board, &physics, &shots);
    for threads in [1, 2, 3, 8] {
        let got = pool(threads).install(|| bytes(run_batch(&board, &physics, &shots)));
        assert!(got == want, "run_batch on {threads} threads");
        let streamed = pool(threads)
            .install(|| bytes(stream_batch(&board, &physics, shots.iter().cloned(), 7).collect()));
        assert!(streamed == want, "stream_batch on {threads} threads");
    }
}

#[test]
fn any_split_of_the_batch_gives_the_same_outcomes() {
    let (board, physics, shots) = mixed();
    let want = serial(&board, &physics, &shots);
    // Deterministic pseudo-random cut points (an LCG), plus the extremes.
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |n: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize % n
    };
    let mut splits: Vec<Vec<usize>> = vec![vec![], (1..shots.len()).collect()];
    for _ in 0..6 {
        let mut cuts: Vec<usize> = (0..next(6) + 1).map(|_| next(shots.len())).collect();
        cuts.sort_unstable();
        cuts.dedup();
        splits.push(cuts);
    }
    let two = pool(2);
    for cuts in splits {
        let mut results = Vec::new();
        let mut start = 0;
        for &end in cuts.iter().chain([shots.len()].iter()) {
            results.extend(two.install(|| run_batch(&board, &physics, &shots[start..end])));
            start = end;
        }
        assert!(bytes(results) == want, "split at {cuts:?}");
    }
    for chunk in [0, 1, 2, 7, 64, 4096] {
        let got =
            two.install(|| bytes(stream_batch(&board, &physics, shots.clone(), chunk).collect()));
        assert!(got == want, "stream_batch with chunk {chunk}");
    }
}

#[test]
fn streamed_errors_carry_their_index_in_the_whole_batch() {
    let (board, physics, mut shots) = load("opening.json", 12);
    shots[9].shooter.vel.y = f64::NAN;
    let results: Vec<_> = stream_batch(&board, &physics, shots, 4).collect();
    assert_eq!(results.len(), 12);
    for (k, r) in results.iter().enumerate() {
        match r {
            Err(e) => {
                assert_eq!(k, 9);
                assert_eq!(
                    (e.shot, e.field.as_str()),
                    (Some(9), "shots[9].shooter.vel")
                );
            }
            Ok(_) => assert_ne!(k, 9),
        }
    }
}

#[test]
fn the_stream_holds_at_most_one_chunk() {
    let (board, physics, shots) = load("opening.json", 50);
    let pulled = Cell::new(0usize);
    let source = shots
        .iter()
        .cloned()
        .inspect(|_| pulled.set(pulled.get() + 1));
    let mut stream = stream_batch(&board, &physics, source, 8);
    for consumed in 1..=50usize {
        assert!(stream.next().is_some());
        // Shots are read a chunk at a time, only when the previous chunk is used up.
        assert_eq!(
            pulled.get(),
            (consumed.div_ceil(8) * 8).min(50),
            "after {consumed}"
        );
    }
    assert!(stream.next().is_none());
    assert_eq!(pulled.get(), 50);
}

#[test]
fn map_ordered_is_in_order_for_every_chunk_and_thread_count() {
    let f = |i: u64| i.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(17);
    let want: Vec<u64> = (1000..3000).map(f).collect();
    for threads in [1, 2, 3, 8] {
        for chunk in [1, 5, 256, 10_000] {
            let got: Vec<u64> =
                pool(threads).install(|| map_ordered(1000..3000, chunk, f).collect());
            assert_eq!(got, want, "{threads} threads, chunk {chunk}");
        }
    }
}
