//! Calibrates the named skill levels (`crates/montecarlo/src/skill.rs`, docs/skill.md) and
//! measures what a different split of the same error does to another shot.
//!
//! ```sh
//! cargo run --release --example calibrate_skills            # the table of LEVELS
//! cargo run --release --example calibrate_skills -- --mixes # the different-mix comparison
//! ```
//!
//! **The open-20 rate** of a noise: the share of straight open 20s (seat 0, empty board,
//! offset 0, aim 0, spin 0) that go in, at the speed that makes the most go in. For a
//! mix `m` (widths at scale 1) and a scale `k / 1000`, the widths are `k m / 1000`, each
//! computed as an integer number of millionths divided by 10^9 (so they are short
//! decimals, exactly the literals printed).
//!
//! Every rate is measured with seed [`CALIBRATION_SEED`]: common random numbers, every
//! speed and scale sees the same draws, so comparisons between them are sharp.
//!
//! **The best speed** for a noise, with `n` samples: the share at every speed 0.80,
//! 0.81, ..., 1.00 m/s with `n / 5` samples, then at every speed within 8 mm/s of the
//! best of those, 1 mm/s apart, with `n` samples; the best of the fine grid (the slowest
//! among equals).
//!
//! **The scale** of a level, with `n` = [`CALIBRATION_SAMPLES`]: (1) bisection on `k`
//! between 100 and 5000 (the rate falls as the scale grows), each rate the best of the
//! coarse speeds with `n / 10` samples, down to adjacent `k`; (2) the best speed at that
//! `k` with `n` samples, held while a bracket 16 either side of `k` (widened by 16 until
//! the rates confirm it) is bisected with `n` samples down to adjacent `k`; (3) of the
//! two, the one whose rate is nearer the target, measured at its own best speed. That
//! measurement is what `LEVELS` stores.
//!
//! Everything is a function of the constants here: the same table on every machine and
//! for every thread count (each rate is a study's tally, `Study::tally`).
//!
//! `--mixes`: three mixes (the reference [`MIX`], one with twice its aim and half its
//! speed error, one with half its aim and twice its speed error) are each calibrated to
//! the `competitive` rate as above, then the studies `fixtures/montecarlo/takeout.json`
//! (a short takeout of a guarded 15, physics only) and `takeout-ruled.json` (a long
//! takeout of a lone disc under the traditional rules) are run with each noise,
//! [`CALIBRATION_SAMPLES`] samples of seed [`CALIBRATION_SEED`]: how often the shot hits
//! an opponent disc, is removed by the rules, stays on the board, and the mean change in
//! score with its 95 % half-width.

use crokinole::io::parse_study_file;
use crokinole::montecarlo::open20::open20_rate;
use crokinole::montecarlo::skill::{CALIBRATION_SAMPLES, CALIBRATION_SEED, LEVELS, MIX};
use crokinole::montecarlo::tally::{Proportion, Z95};
use crokinole::montecarlo::{Noise, Sampling, Study, StudySpec};

/// A mix in millionths of its units (m, rad, fraction, rad/s).
type Micro = [u64; 4];

/// The reference mix in millionths.
const MIX_MICRO: Micro = [3_000, 10_000, 30_000, 500_000];

/// The widths of `mix` at scale `milli / 1000`: `mix * milli / 10^9`, one rounding each.
fn scaled(mix: Micro, milli: u32) -> Noise {
    let w = |m: u64| (m * u64::from(milli)) as f64 / 1e9;
    Noise {
        offset: w(mix[0]),
        aim: w(mix[1]),
        speed: w(mix[2]),
        spin: w(mix[3]),
    }
}

/// 20s made in `n` open 20s at `mm` mm/s under `noise`, seed [`CALIBRATION_SEED`].
fn made(noise: Noise, mm: u32, n: u64) -> u64 {
    open20_rate(noise, f64::from(mm) / 1000.0, CALIBRATION_SEED, n)
        .expect("the open 20 is a valid study")
        .count
}

/// (20s made, speed in mm/s) at the best of `speeds` (the slowest among equals).
fn argmax(noise: Noise, speeds: impl Iterator<Item = u32>, n: u64) -> (u64, u32) {
    speeds
        .map(|mm| (made(noise, mm, n), mm))
        .fold((0, 0), |b, c| if c.0 > b.0 { c } else { b })
}

/// The best speed for `noise` (mm/s) and the 20s made there, with `n` samples: the best
/// of 0.80, 0.81, ..., 1.00 m/s with `n / 5` samples, then the best within 8 mm/s of it,
/// 1 mm/s apart, with `n`.
fn best(noise: Noise, n: u64) -> (u64, u32) {
    let (_, coarse) = argmax(noise, (800..=1000).step_by(10), n / 5);
    argmax(noise, coarse - 8..=coarse + 8, n)
}

/// A level's scale for `target` with mix `mix`: (milli, made, best speed in mm/s), the
/// measurement with [`CALIBRATION_SAMPLES`].
fn calibrate(mix: Micro, target: f64) -> (u32, u64, u32) {
    let n = CALIBRATION_SAMPLES;
    // Keeps above(lo) and !above(hi) while narrowing to adjacent scales.
    let bisect = |mut lo: u32, mut hi: u32, above: &dyn Fn(u32) -> bool| {
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if above(mid) {
                lo = mid;
            } else {
                hi = mid;
            }
            eprintln!("  target {target}: scale in [{lo}, {hi}] / 1000");
        }
        (lo, hi)
    };
    let rate = |milli: u32, mm: u32| made(scaled(mix, milli), mm, n) as f64 / n as f64;
    // 1. Roughly: the best of 0.80, 0.81, ..., 1.00 m/s with n / 10 samples.
    let (rough, _) = bisect(100, 5000, &|milli| {
        let (count, _) = argmax(scaled(mix, milli), (800..=1000).step_by(10), n / 10);
        count as f64 / (n / 10) as f64 > target
    });
    // 2. The best speed there with n samples, held while a bracket of 32 thousandths
    //    around the rough scale (widened by 16 until the rates confirm it) is bisected
    //    with n samples.
    let (_, mm) = best(scaled(mix, rough), n);
    let (mut lo, mut hi) = (rough - 16, rough + 16);
    while rate(lo, mm) <= target {
        lo -= 16;
    }
    while rate(hi, mm) > target {
        hi += 16;
    }
    let (lo, hi) = bisect(lo, hi, &|milli| rate(milli, mm) > target);
    // 3. The nearer of the two, measured at its own best speed.
    let off = |milli: u32| (rate(milli, mm) - target).abs();
    let milli = if off(lo) <= off(hi) { lo } else { hi };
    let (count, mm) = best(scaled(mix, milli), n);
    (milli, count, mm)
}

fn main() {
    let mixes = std::env::args().any(|a| a == "--mixes");
    assert_eq!(
        scaled(MIX_MICRO, 1000),
        MIX,
        "MIX_MICRO is MIX in millionths"
    );
    if mixes {
        compare_mixes();
        return;
    }
    println!(
        "// examples/calibrate_skills.rs: seed {CALIBRATION_SEED}, {CALIBRATION_SAMPLES} samples"
    );
    for level in &LEVELS {
        eprintln!("{}:", level.name);
        let (milli, made, mm) = calibrate(MIX_MICRO, level.target);
        let noise = scaled(MIX_MICRO, milli);
        let p = made as f64 / CALIBRATION_SAMPLES as f64;
        println!(
            "// {}: target {}, rate {p} ({:+.2} pp)",
            level.name,
            level.target,
            (p - level.target) * 100.0
        );
        println!(
            "    SkillLevel {{ name: {:?}, milli: {milli}, noise: Noise {{ offset: {:?}, aim: {:?}, speed: {:?}, spin: {:?} }}, best_speed: {:?}, made: {made} }}",
            level.name,
            noise.offset,
            noise.aim,
            noise.speed,
            noise.spin,
            f64::from(mm) / 1000.0,
        );
    }
}

/// The comparison of docs/skill.md, "A different mix".
fn compare_mixes() {
    let target = LEVELS
        .iter()
        .find(|l| l.name == "competitive")
        .expect("the competitive level")
        .target;
    let mixes: [(&str, Micro); 3] = [
        ("reference", MIX_MICRO),
        ("aim-heavy", [3_000, 20_000, 15_000, 500_000]),
        ("speed-heavy", [3_000, 5_000, 60_000, 500_000]),
    ];
    let studies: Vec<(&str, Study)> = ["takeout.json", "takeout-ruled.json"]
        .into_iter()
        .map(|name| {
            let text = std::fs::read_to_string(format!("fixtures/montecarlo/{name}"))
                .expect("run from the repository's root");
            (name, parse_study_file(&text).expect("the fixture is valid"))
        })
        .collect();
    let mut rows = Vec::new();
    for (name, mix) in mixes {
        eprintln!("{name}:");
        let (milli, made, mm) = calibrate(mix, target);
        let noise = scaled(mix, milli);
        rows.push(format!(
            "| {name} | {milli} | {} m, {} rad, {}, {} rad/s | {:.2} % ({} m/s) |",
            noise.offset,
            noise.aim,
            noise.speed,
            noise.spin,
            100.0 * made as f64 / CALIBRATION_SAMPLES as f64,
            f64::from(mm) / 1000.0,
        ));
        for (file, fixture) in &studies {
            let spec = fixture.spec();
            let study = Study::new(StudySpec {
                situation: crokinole::montecarlo::Situation {
                    noise,
                    ..spec.situation.clone()
                },
                ..spec.clone()
            })
            .expect("the fixture with this noise is valid");
            let s = study
                .tally(
                    &Sampling::new(CALIBRATION_SEED, CALIBRATION_SAMPLES, None).expect("sampling"),
                )
                .summary()
                .expect("a summary");
            let pct = |p: Proportion| {
                format!(
                    "{:.1} % [{:.1}, {:.1}]",
                    100.0 * p.p,
                    100.0 * p.ci95[0],
                    100.0 * p.ci95[1]
                )
            };
            let c = &s.shooter;
            let stays = Proportion::new(c.fifteen.count + c.ten.count + c.five.count, s.samples);
            let half = Z95 * s.score_change.std / (s.samples as f64).sqrt();
            rows.push(format!(
                "|   {file} | | | | {} | {} | {} | {:.2} ± {:.2} |",
                pct(s.opponent_hits.any),
                pct(c.removed),
                pct(stays),
                s.score_change.mean,
                half,
            ));
        }
    }
    println!(
        "| mix, then study | scale (1/1000) | widths (offset, aim, speed, spin) | open 20 (best speed) | hits an opponent | shot removed (rules) | shot disc stays on the board | mean score change |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for row in rows {
        println!("{row}");
    }
}
