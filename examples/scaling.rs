//! How a batch scales from one thread to every core on this machine, measured so that the
//! machine's own noise can be told apart from the code's.
//!
//! ```sh
//! cargo run --release --example scaling -- fixtures/crowded.json [ROUNDS]
//! ```
//!
//! Shared and virtual machines drift in speed from minute to minute, and a hypervisor may
//! take CPU time from the guest ("steal"). Criterion measures one thread count after the
//! other, so a drift between them shows up as a change in speed-up. Here the two pools
//! alternate in 0.3 s windows (30 rounds by default), and for each pool the example
//! reports:
//! - the wall-clock rate (shots/s), and the median over rounds of the per-round speed-up;
//! - the CPU time the process was given per shot (user + system, `/proc/self/stat`): equal
//!   for both pools when the code scales perfectly (no locks, no shared writes); any excess
//!   with every core busy is contention for caches, memory or the CPU's clock;
//! - the steal time over the windows (`/proc/stat`), time the machine took from us.
//!
//! The figures in the README's performance section and in the closing notes of the batch
//! issue come from this and from `benches/`. On systems without `/proc` only the wall-clock
//! rates are printed.

use crokinole::io::parse_shot_file;
use crokinole::run_batch;
use std::time::Instant;

/// User + system CPU time of this process, in clock ticks (1/100 s), if `/proc` has it.
fn cpu_ticks() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = s.get(s.rfind(')')? + 2..)?.split(' ').collect();
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

/// Steal time of the whole machine, in clock ticks, if `/proc` has it.
fn steal_ticks() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/stat").ok()?;
    s.lines().next()?.split_whitespace().nth(8)?.parse().ok()
}

/// Totals of one pool over every round.
#[derive(Default)]
struct Totals {
    shots: usize,
    seconds: f64,
    cpu: Option<u64>,
    steal: Option<u64>,
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: scaling SHOT_FILE [ROUNDS]");
    let rounds: usize = args
        .next()
        .map_or(30, |r| r.parse().expect("ROUNDS is a number"));
    let text = std::fs::read_to_string(&path).expect("the shot file is readable");
    let (board, physics, entries) = parse_shot_file(&text).expect("the shot file is valid");
    let shots: Vec<_> = entries.into_iter().map(|e| e.shot).collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let pools: Vec<_> = [1, cores]
        .iter()
        .map(|&n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .expect("a thread pool")
        })
        .collect();
    let mut totals = [Totals::default(), Totals::default()];
    let mut ratios = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let mut rate = [0.0; 2];
        for (k, pool) in pools.iter().enumerate() {
            let (cpu0, steal0) = (cpu_ticks(), steal_ticks());
            let start = Instant::now();
            let mut n = 0;
            while start.elapsed().as_secs_f64() < 0.3 {
                n += pool.install(|| run_batch(&board, &physics, &shots)).len();
            }
            let seconds = start.elapsed().as_secs_f64();
            let t = &mut totals[k];
            t.shots += n;
            t.seconds += seconds;
            let add = |acc: Option<u64>, a: Option<u64>, b: Option<u64>| Some(acc? + (b? - a?));
            t.cpu = add(t.cpu.or(Some(0)), cpu0, cpu_ticks());
            t.steal = add(t.steal.or(Some(0)), steal0, steal_ticks());
            rate[k] = n as f64 / seconds;
        }
        ratios.push(rate[1] / rate[0]);
    }
    ratios.sort_by(f64::total_cmp);
    println!("{path}: {} shots a batch, {rounds} rounds", shots.len());
    for (k, t) in totals.iter().enumerate() {
        let threads = if k == 0 { 1 } else { cores };
        print!(
            "{threads} thread(s): {:>9.0} shots/s",
            t.shots as f64 / t.seconds
        );
        if let (Some(cpu), Some(steal)) = (t.cpu, t.steal) {
            // Ticks are 1/100 s; steal is over every core of the machine.
            print!(
                ", {:.1} us CPU per shot, steal {:.1} % of the machine",
                cpu as f64 * 1e4 / t.shots as f64,
                steal as f64 / (t.seconds * 100.0 * cores as f64) * 100.0
            );
        }
        println!();
    }
    println!(
        "speed-up: median of rounds {:.3}, overall {:.3}",
        ratios[ratios.len() / 2],
        (totals[1].shots as f64 / totals[1].seconds) / (totals[0].shots as f64 / totals[0].seconds)
    );
}
