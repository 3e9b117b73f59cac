//! Criterion bench of the input: the crowded fixture's shot file (200 shots, or
//! `DIR/crowded.json` with `CROKINOLE_BENCH_DIR=DIR`) read a shot at a time the three ways
//! `crokinole simulate` reads one (docs/output.md): held in memory and parsed in place
//! (`read_shot_text`, a file up to 16 MiB), from a reader in blocks, each shot parsed from
//! its bytes (`read_shot_blocks`, a larger file, read twice), and through `serde_json`'s
//! reader (`read_shot_stream`, what the blocks fall back to on a file that is not good).
//! Each shot is converted (seat and players checked) and dropped: the figures are parsing
//! only, in bytes a second.

#[path = "common/bench_file.rs"]
mod bench_file;
use bench_file::bench_file;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use crokinole::board::Board;
use crokinole::error::InputError;
use crokinole::io::{read_shot_blocks, read_shot_stream, read_shot_text};
use crokinole::params::Physics;
use crokinole::rules::ShotEntry;
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let text = bench_file("crowded.json");
    let mut group = c.benchmark_group("input/crowded");
    group.throughput(Throughput::Bytes(text.len() as u64));
    let each = |_: usize, entry: Result<ShotEntry, InputError>, _: &Board, _: &Physics| {
        black_box(entry.is_ok())
    };
    group.bench_function("held", |b| {
        b.iter(|| {
            read_shot_text(black_box(&text), &mut { each })
                .unwrap()
                .shots
        })
    });
    group.bench_function("blocks", |b| {
        b.iter(|| {
            let open = || Ok(black_box(text.as_bytes()));
            read_shot_blocks(&open, &mut { each }).unwrap().shots
        })
    });
    group.bench_function("serde_reader", |b| {
        b.iter(|| {
            read_shot_stream(black_box(text.as_bytes()), &mut { each })
                .unwrap()
                .shots
        })
    });
    group.finish();
}

criterion_group!(input, benches);
criterion_main!(input);
