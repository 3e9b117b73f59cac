//! How steady the planner is: for each suggest file, plan with 8 seeds at the default
//! budget, replay each plan's top flick with fresh draws (a Monte Carlo study of that flick
//! under the same noise and rules, 20,000 samples, seed 999) and print the replayed mean
//! score change per seed and the spread (max - min) across the seeds.
//!
//! ```sh
//! cargo run --release --example planner_spread -- fixtures/suggest/*.json
//! cargo run --release --example planner_spread -- --seeds 4 --budget 8000 --samples 5000 FILE
//! ```
//!
//! The figures of the planner issue's "steadier planner" come from this (docs/suggest.md,
//! "How steady"). It is deterministic: the same files and flags print the same numbers
//! on every machine and for every thread count.

use crokinole::io::parse_suggest_file;
use crokinole::montecarlo::{Sampling, Study, StudySpec};
use crokinole::plan::{Budget, DEFAULT_BUDGET, PlanConfig, suggest};

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut seeds, mut budget, mut samples) = (8u64, DEFAULT_BUDGET, 20_000u64);
    let mut files = Vec::new();
    while let Some(a) = args.next() {
        let mut value = |name: &str| -> u64 {
            args.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{name} needs a whole number"))
        };
        match a.as_str() {
            "--seeds" => seeds = value("--seeds"),
            "--budget" => budget = value("--budget"),
            "--samples" => samples = value("--samples"),
            _ => files.push(a),
        }
    }
    assert!(
        !files.is_empty(),
        "usage: planner_spread [--seeds N] [--budget N] [--samples N] FILE..."
    );
    for path in &files {
        let text = std::fs::read_to_string(path).expect("the suggest file is readable");
        let request = parse_suggest_file(&text).expect("the suggest file is valid");
        let mut values = Vec::new();
        for seed in 0..seeds {
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
            println!(
                "{path} seed {seed}: planned {:.3}, replayed {replayed:.3} ({:?})",
                best.value.mean, best.aim_at
            );
            values.push(replayed);
        }
        let min = values.iter().copied().fold(f64::INFINITY, f64::min);
        let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        println!(
            "{path}: replayed {min:.3} to {max:.3}, spread {:.3}",
            max - min
        );
    }
}
