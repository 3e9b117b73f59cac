//! Without spin (no initial spin, frictionless contacts) every event is solved exactly,
//! so the outcome of a shot barely depends on the fixed step.

use crate::common;

use common::{disc, resting};
use crokinole::{Board, Disc, EventKind, Physics, World};
use glam::DVec2;

/// A few shots on the tournament board: (resting discs, shooter position, velocity).
/// Each has several disc-disc impacts (some between two moving discs) and peg impacts.
fn shots() -> Vec<(Vec<DVec2>, DVec2, DVec2)> {
    let v = DVec2::new;
    vec![
        (
            vec![
                v(-0.08, 0.06),
                v(0.06, -0.16),
                v(-0.12, 0.06),
                v(0.19, 0.15),
            ],
            v(0.04, -0.28),
            v(0.44, 2.5),
        ),
        (
            vec![v(-0.03, 0.0), v(0.01, 0.12), v(0.2, -0.08), v(0.01, -0.09)],
            v(0.01, -0.28),
            v(0.08, 2.6),
        ),
        (
            vec![
                v(-0.08, 0.18),
                v(-0.06, 0.02),
                v(0.07, -0.01),
                v(-0.02, 0.02),
            ],
            v(-0.04, -0.28),
            v(0.45, 2.6),
        ),
        (
            vec![
                v(-0.06, -0.17),
                v(0.02, 0.19),
                v(-0.02, 0.19),
                v(-0.01, -0.11),
            ],
            v(0.0, -0.28),
            v(0.28, 1.7),
        ),
    ]
}

fn run(dt: f64, shot: &(Vec<DVec2>, DVec2, DVec2)) -> World {
    let physics = Physics {
        dt,
        disc_friction: 0.0,
        peg_friction: 0.0,
        ..Physics::default()
    };
    let mut discs: Vec<Disc> = shot.0.iter().map(|p| resting(*p)).collect();
    discs.push(disc(shot.1, shot.2, 0.0));
    let mut w = common::world(Board::tournament(), physics, &discs);
    assert!(w.run(), "dt {dt}: cut off");
    w
}

/// Halving the step moves no final position by more than a micrometre.
#[test]
fn final_positions_do_not_depend_on_the_step() {
    let (mut pegs, mut hits) = (0, 0);
    let mut worst: f64 = 0.0;
    for (k, shot) in shots().iter().enumerate() {
        for (coarse, fine) in [(2e-3, 1e-3), (1e-3, 5e-4)] {
            let (a, b) = (run(coarse, shot), run(fine, shot));
            let kinds = |w: &World| w.events().iter().map(|e| e.kind).collect::<Vec<_>>();
            assert_eq!(
                kinds(&a),
                kinds(&b),
                "shot {k}, dt {coarse} vs {fine}: different events"
            );
            for (i, (da, db)) in a.discs().iter().zip(b.discs()).enumerate() {
                assert_eq!(da.state, db.state, "shot {k} disc {i}");
                assert_eq!(da.spin, 0.0, "shot {k} disc {i}: spin arose");
                let change = (da.pos - db.pos).length();
                worst = worst.max(change);
                assert!(
                    change < 1e-6,
                    "shot {k} disc {i}, dt {coarse} vs {fine}: moved {change:e} m"
                );
            }
            pegs += a
                .events()
                .iter()
                .filter(|e| matches!(e.kind, EventKind::Peg { .. }))
                .count();
            hits += a
                .events()
                .iter()
                .filter(|e| matches!(e.kind, EventKind::Disc { .. }))
                .count();
        }
    }
    println!("largest change of a final position on halving the step: {worst:e} m");
    println!("impacts covered: {hits} disc-disc, {pegs} disc-peg");
    assert!(
        pegs >= 10 && hits >= 20,
        "the shots must include impacts: {hits} disc, {pegs} peg"
    );
}
