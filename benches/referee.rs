//! The referee's own cost per shot (docs/match.md, "Cost"): one tournament-rules game
//! (4 rounds, 64 shots) between two instant built-in players (`random`), played by
//! `PlayConfig::play` (the engine and the rules alone) and refereed by `run_match` (the
//! same game, bit for bit: the same decisions and noise draws, plus every message built,
//! logged as JSON Lines to a sink and the clocks). The difference per shot is the
//! referee's cost; the players' thinking and the simulation are in both.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use crokinole::cancel::Cancel;
use crokinole::io::match_protocol::Clock;
use crokinole::montecarlo::Noise;
use crokinole::play::{AnyStrategy, PlayConfig, Strategy};
use crokinole::referee::{LogSink, MatchConfig, Player, PlayerSpec, SeatConfig, run_match};
use crokinole::rules::Ruleset;
use crokinole::{Board, Physics};
use std::hint::black_box;
use std::time::Duration;

/// The default noise (`play::DEFAULT_NOISE`), the skill levels' reference mix.
const NOISE: Noise = crokinole::montecarlo::skill::MIX;

fn random() -> AnyStrategy {
    AnyStrategy::parse("random", NOISE).expect("random parses")
}

fn bench(c: &mut Criterion) {
    let play = PlayConfig {
        board: Board::tournament(),
        physics: Physics::default(),
        players: 2,
        ruleset: Ruleset::Tournament,
        strategies: vec![
            Box::new(random()) as Box<dyn Strategy>,
            Box::new(random()) as Box<dyn Strategy>,
        ],
        noise: NOISE,
        seed: 5,
        max_rounds: 4,
    };
    let seat = || SeatConfig {
        player: PlayerSpec::parse("builtin:random", NOISE).expect("parses"),
        noise: NOISE,
    };
    let config = MatchConfig {
        board: Board::tournament(),
        physics: Physics::default(),
        players: 2,
        ruleset: Ruleset::Tournament,
        seats: vec![seat(), seat()],
        clock: Clock {
            total_s: 600.0,
            per_shot_s: 30.0,
        },
        seed: 5,
        max_rounds: 4,
        game_id: "bench".into(),
        ready_timeout_s: 10.0,
    };
    let shots = play.play(0).expect("a game").shots.len() as u64;
    let mut g = c.benchmark_group("game_random_tournament");
    g.throughput(Throughput::Elements(shots));
    g.sample_size(20).measurement_time(Duration::from_secs(10));
    g.bench_function("play", |b| {
        b.iter(|| black_box(play.play(0).expect("a game")))
    });
    let cancel = Cancel::never();
    g.bench_function("referee", |b| {
        b.iter(|| {
            let mut log = LogSink::new(Box::new(std::io::sink()), Box::new(|_| {}));
            let players = vec![Player::Builtin(random()), Player::Builtin(random())];
            black_box(run_match(&config, players, &mut log, &cancel).expect("a match"))
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
