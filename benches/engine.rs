//! Criterion benches of the physics core: one step in which nothing can happen, one opening
//! shot, one crowded shot, one shot into a dense cluster of 28, 75 and 150 touching discs,
//! and whole batches shaped like the benchmark files of docs/shot-file.md (the 200-shot
//! fixtures in `fixtures/`, so they run on any clone; `CROKINOLE_BENCH_DIR=DIR` runs the
//! full `DIR/opening.json` and `DIR/crowded.json` instead), serially on one thread and on a
//! rayon pool. Figures are simulation only: the shot file is parsed and validated outside
//! the timing.

#[path = "common/bench_file.rs"]
mod bench_file;
use bench_file::bench_file;
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use crokinole::io::parse_shot_file;
use crokinole::rules::ShotEntry;
use crokinole::shot::outcome_of;
use crokinole::{Board, Physics, World, run_batch};
use std::hint::black_box;

fn load(text: &str) -> (Board, Physics, Vec<crokinole::Shot>) {
    let (board, physics, entries) = parse_shot_file(text).expect("fixture parses");
    (
        board,
        physics,
        entries.into_iter().map(|e: ShotEntry| e.shot).collect(),
    )
}

/// The worlds of a batch, built and checked once, so the timing covers only simulation.
fn worlds(board: &Board, physics: &Physics, shots: &[crokinole::Shot]) -> Vec<World> {
    shots
        .iter()
        .map(|s| s.world(board, physics).expect("valid shot"))
        .collect()
}

fn benches(c: &mut Criterion) {
    // The 200-shot fixtures, or the full benchmark files of the same names from the folder
    // `CROKINOLE_BENCH_DIR` names (docs/shot-file.md, "The benchmark files").
    let opening = load(&bench_file("opening.json"));
    let crowded = load(&bench_file("crowded.json"));

    // A lone disc sliding in the open: the fast path of `World::step`.
    {
        let (b, p, s) = &opening;
        let world = s[0].world(b, p).unwrap();
        c.bench_function("step/quiet_single_disc", |bch| {
            bch.iter_batched_ref(
                || world.clone(),
                |w| {
                    for _ in 0..50 {
                        w.step();
                    }
                },
                BatchSize::SmallInput,
            )
        });
    }

    for (name, (b, p, s)) in [("opening", &opening), ("crowded", &crowded)] {
        let one = s[0].world(b, p).unwrap();
        c.bench_function(&format!("shot/{name}_one"), |bch| {
            bch.iter_batched(
                || one.clone(),
                |w| black_box(outcome_of(w)),
                BatchSize::SmallInput,
            )
        });

        let ws = worlds(b, p, s);
        let mut g = c.benchmark_group(format!("batch/{name}"));
        g.throughput(Throughput::Elements(ws.len() as u64));
        g.sample_size(20);
        g.bench_function("serial_one_thread", |bch| {
            bch.iter_batched(
                || ws.clone(),
                |ws| ws.into_iter().map(outcome_of).collect::<Vec<_>>(),
                BatchSize::LargeInput,
            )
        });
        g.bench_function("run_batch_all_cores", |bch| {
            bch.iter(|| black_box(run_batch(b, p, s)))
        });
        g.finish();
    }

    // Dense clusters of touching discs struck at 10 m/s (`crokinole::scenes::hex_cluster`,
    // the scene of tests/suite/physics_clusters.rs): one whole shot each.
    let mut g = c.benchmark_group("cluster");
    g.sample_size(10);
    for n in [28, 75, 150] {
        let (b, p, shot) = crokinole::scenes::hex_cluster(n, 10.0);
        let w = shot.world(&b, &p).unwrap();
        g.bench_function(format!("hex_{n}_at_10_m_s"), |bch| {
            bch.iter_batched(
                || w.clone(),
                |w| black_box(outcome_of(w)),
                BatchSize::SmallInput,
            )
        });
    }
    g.finish();
}

criterion_group!(engine, benches);
criterion_main!(engine);
