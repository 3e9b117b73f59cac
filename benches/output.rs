//! Criterion bench of the output: the outcome file of the crowded fixture (200 shots, or
//! `DIR/crowded.json` with `CROKINOLE_BENCH_DIR=DIR`) written readable (the default
//! layout, laid out as it is serialised) and compact (`--compact`), with and without a
//! trace, into a reused buffer. The shots are simulated once, outside the timing: the
//! figures are formatting only, and readable/compact is what the default output costs
//! over `--compact`.

#[path = "common/bench_file.rs"]
mod bench_file;
use bench_file::bench_file;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use crokinole::io::Layout;
use crokinole::jobs::simulate::{ShotFile, SimulateOptions, simulate};
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let text = bench_file("crowded.json");
    let file = ShotFile::read(&text).expect("fixture parses");
    for (name, trace) in [("plain", None), ("trace10", Some(10))] {
        let options = SimulateOptions { rules: None, trace };
        let simulated = simulate(&file, options).expect("fixture simulates");
        let mut group = c.benchmark_group(format!("output/crowded_{name}"));
        group.throughput(Throughput::Elements(simulated.outcomes.len() as u64));
        let mut buffer = Vec::new();
        for (layout, label) in [(Layout::Readable, "readable"), (Layout::Compact, "compact")] {
            group.bench_function(label, |b| {
                b.iter(|| {
                    buffer.clear();
                    simulated.write_to(&mut buffer, black_box(layout)).unwrap();
                    black_box(buffer.len())
                })
            });
        }
        group.finish();
    }
}

criterion_group!(output, benches);
criterion_main!(output);
