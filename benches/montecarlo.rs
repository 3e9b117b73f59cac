//! Criterion benches of the batch API and the Monte Carlo studies at a fixed thread count:
//! 200-shot batches shaped like the benchmark files of docs/shot-file.md (`fixtures/opening.json`, `crowded.json`)
//! on a rayon pool of 1 thread and of every core, and a 100,000-sample study of the
//! opening shot (`fixtures/montecarlo/opening.json`) on 1 thread and on every core, and
//! a 20,000-sample plan of `fixtures/suggest/takeout.json` (`crokinole suggest` at its
//! default budget) on 1 thread and on every core.
//! Throughput is reported in shots (samples) per second; the speed-up is the ratio of the
//! two figures of a group, and the throughput per core is the all-cores figure divided by
//! the number of cores in its id. `benches/engine.rs` has the single-shot and serial
//! benches.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use crokinole::io::parse_shot_file;
use crokinole::io::{parse_study_file, parse_suggest_file};
use crokinole::montecarlo::Sampling;
use crokinole::plan::{PlanConfig, suggest};
use crokinole::{Board, Physics, Shot, run_batch};
use std::hint::black_box;
use std::time::Duration;

fn load(text: &str) -> (Board, Physics, Vec<Shot>) {
    let (board, physics, entries) = parse_shot_file(text).expect("fixture parses");
    (
        board,
        physics,
        entries.into_iter().map(|e| e.shot).collect(),
    )
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
}

/// Pools of 1 thread and of every core, named for the bench ids.
fn pools() -> [(String, rayon::ThreadPool); 2] {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    [
        ("threads_1".into(), pool(1)),
        (format!("threads_{cores}_all_cores"), pool(cores)),
    ]
}

fn batches(c: &mut Criterion) {
    let opening = load(include_str!("../fixtures/opening.json"));
    let crowded = load(include_str!("../fixtures/crowded.json"));
    for (name, (b, p, s)) in [("opening", &opening), ("crowded", &crowded)] {
        let mut g = c.benchmark_group(format!("batch_threads/{name}"));
        g.throughput(Throughput::Elements(s.len() as u64));
        g.sample_size(30);
        for (id, pool) in pools() {
            g.bench_function(id, |bch| {
                bch.iter(|| pool.install(|| black_box(run_batch(b, p, s))))
            });
        }
        g.finish();
    }
}

fn study(c: &mut Criterion) {
    let study = parse_study_file(include_str!("../fixtures/montecarlo/opening.json"))
        .expect("fixture parses");
    let plan = Sampling::new(1, 100_000, None).expect("a plan");
    let mut g = c.benchmark_group("montecarlo/opening_100k");
    g.throughput(Throughput::Elements(plan.samples));
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(20));
    for (id, pool) in pools() {
        g.bench_function(id, |bch| {
            bch.iter(|| pool.install(|| black_box(study.tally(&plan))))
        });
    }
    g.finish();
}

fn planner(c: &mut Criterion) {
    let request = parse_suggest_file(include_str!("../fixtures/suggest/takeout.json"))
        .expect("fixture parses");
    let config = PlanConfig::default();
    // Samples the plan simulates (at most the budget): the throughput's unit.
    let used = suggest(&request, &config).expect("a plan").samples_used;
    let mut g = c.benchmark_group("planner/takeout_20k");
    g.throughput(Throughput::Elements(used));
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(20));
    for (id, pool) in pools() {
        g.bench_function(id, |bch| {
            bch.iter(|| pool.install(|| black_box(suggest(&request, &config))))
        });
    }
    g.finish();
}

criterion_group!(montecarlo, batches, study, planner);
criterion_main!(montecarlo);
