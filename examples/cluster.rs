//! Times one shot into a dense hexagonal cluster of touching discs (`crokinole::scenes`)
//! and prints what the engine did: `cargo run --release --example cluster -- [N] [SPEED]`
//! (default 150 discs at 10 m/s).

use crokinole::run_shot;
use crokinole::scenes::hex_cluster;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args
        .next()
        .map_or(150, |a| a.parse().expect("N: a disc count"));
    let speed: f64 = args.next().map_or(10.0, |a| a.parse().expect("SPEED: m/s"));
    let (board, physics, shot) = hex_cluster(n, speed);
    let t = Instant::now();
    let o = run_shot(&board, &physics, &shot).expect("a valid scene");
    println!(
        "{n} discs at {speed} m/s: {:.3} s wall, {} steps, {} events, {:.3} s simulated, cut off: {} ({:?}), capped steps {}",
        t.elapsed().as_secs_f64(),
        o.steps,
        o.events.len(),
        o.time,
        o.cut_off,
        o.limit,
        o.capped_steps
    );
}
