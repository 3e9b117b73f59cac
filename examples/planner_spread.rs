//! How steady the planner is: for each suggest file, plan with 8 seeds (0-7) at the default
//! budget, replay each plan's top flick with fresh draws (a Monte Carlo study of that flick
//! under the same noise and rules, 20,000 samples, seed 999) and print the replayed mean
//! score change per seed (with the flick), then the range, the spread (max - min) and the
//! mean across the seeds.
//!
//! ```sh
//! cargo run --release --example planner_spread -- fixtures/suggest/*.json
//! cargo run --release --example planner_spread -- --seeds 4 --budget 8000 --samples 5000 FILE
//! cargo run --release --example planner_spread -- --first-seed 8 FILE   # seeds 8-15
//! ```
//!
//! The figures of docs/suggest.md's "How steady" (the four positions of
//! `fixtures/suggest/`) and "How steady on other positions" (the 22 of
//! `fixtures/suggest/spread/`) come from this. It is deterministic: the same files and flags print the same numbers
//! on every machine and for every thread count.

use crokinole::io::parse_suggest_file;
use crokinole::montecarlo::{Sampling, Study, StudySpec};
use crokinole::plan::{Budget, DEFAULT_BUDGET, PlanConfig, suggest};

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut first, mut seeds, mut budget, mut samples) = (0u64, 8u64, DEFAULT_BUDGET, 20_000u64);
    let mut files = Vec::new();
    while let Some(a) = args.next() {
        let mut value = |name: &str| -> u64 {
            args.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{name} needs a whole number"))
        };
        match a.as_str() {
            "--seeds" => seeds = value("--seeds"),
            "--first-seed" => first = value("--first-seed"),
            "--budget" => budget = value("--budget"),
            "--samples" => samples = value("--samples"),
            _ => files.push(a),
        }
    }
    assert!(
        !files.is_empty(),
        "usage: planner_spread [--seeds N] [--first-seed S] [--budget N] [--samples N] FILE..."
    );
    for path in &files {
        let text = std::fs::read_to_string(path).expect("the suggest file is readable");
        let request = parse_suggest_file(&text).expect("the suggest file is valid");
        let mut values = Vec::new();
        for seed in first..first + seeds {
            let config = PlanConfig {
                budget: Budget::Samples(budget),
                seed,
                ..PlanConfig::default()
            };
            let plan = suggest(&request, &config).expect("a plan");
            let best = &plan.top[0];
            let study = Study::new(StudySpec {
                situation: request.situation.clone(),
                flick: best.flick,
                ruleset: Some(request.ruleset),
            })
            .expect("the suggested flick makes a study");
            let summary = study
                .tally(&Sampling::new(999, samples, None).expect("a sampling"))
                .summary()
                .expect("a summary");
            let replayed = summary.score_change.mean;
            let f = best.flick;
            println!(
                "{path} seed {seed}: planned {:.3}, replayed {replayed:.3} ({:?}: offset {}, aim {}, \
                 speed {:.4})",
                best.value.mean, best.aim_at, f.offset, f.aim, f.speed
            );
            values.push(replayed);
        }
        let min = values.iter().copied().fold(f64::INFINITY, f64::min);
        let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mean = values.iter().sum::<f64>() / values.len().max(1) as f64;
        println!(
            "{path}: replayed {min:.3} to {max:.3}, spread {:.3}, mean {mean:.3}",
            max - min
        );
    }
}
