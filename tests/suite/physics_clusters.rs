//! Dense clusters of touching discs struck hard (`crokinole::scenes::hex_cluster`): they
//! finish, without meeting any work bound, the impacts keep momentum and never add
//! energy, and no two discs sink into each other. Symptom before the closure of crowded
//! steps (`step/contact.rs`, "Closure"): 150 touching discs struck at 10 m/s ran for
//! minutes (thousands of contact rounds per step, each gathering every pair), 75 discs
//! took 40 s, 60 discs 4 s; with the closure alone, 150 discs still took minutes (a disc
//! stopping inside the pack, pressed, pushed off and stopping again, ~25,000 times for 75
//! discs), until slow meetings in a closed step became pressed contacts. The time each
//! takes is measured by `cargo bench --bench engine -- cluster` and `examples/cluster.rs`.

use crate::common;

use crokinole::scenes::hex_cluster;
use crokinole::{Disc, World, run_shot};
use glam::DVec2;

fn momentum(discs: &[Disc]) -> DVec2 {
    discs.iter().map(|d| d.vel * d.mass).sum()
}

fn energy(discs: &[Disc]) -> f64 {
    discs.iter().map(Disc::kinetic_energy).sum()
}

/// Every cluster size comes to rest with no bound met and a modest event count.
#[test]
fn dense_clusters_struck_hard_come_to_rest_within_every_bound() {
    for n in [28, 60, 75, 150] {
        let (board, physics, shot) = hex_cluster(n, 10.0);
        let o = run_shot(&board, &physics, &shot).unwrap();
        println!(
            "{n} discs: {} steps, {} events, capped steps {}",
            o.steps,
            o.events.len(),
            o.capped_steps
        );
        assert!(!o.cut_off, "{n} discs: cut off by {:?}", o.limit);
        assert_eq!(o.capped_steps, 0, "{n} discs");
        assert!(
            o.events.len() < 50_000,
            "{n} discs: {} events",
            o.events.len()
        );
    }
}

/// Without board friction, the step in which the shooter strikes the cluster keeps the
/// total momentum (to rounding) and does not raise the kinetic energy.
#[test]
fn the_strike_into_a_cluster_keeps_momentum_and_never_adds_energy() {
    for n in [28, 60, 75, 150] {
        let (board, physics, shot) = hex_cluster(n, 10.0);
        let physics = crokinole::Physics {
            board_friction: 0.0,
            ..physics
        };
        let mut w: World = shot.world(&board, &physics).unwrap();
        let (p0, e0) = (momentum(w.discs()), energy(w.discs()));
        let mut struck = false;
        for _ in 0..200 {
            w.step();
            let (p, e) = (momentum(w.discs()), energy(w.discs()));
            if w.events().is_empty() {
                continue;
            }
            struck = true;
            // Discs that left the surface take their momentum with them: stop before.
            if w.discs().iter().any(|d| !d.on_board()) {
                break;
            }
            assert!(
                (p - p0).length() <= 1e-9 * p0.length(),
                "{n} discs: momentum {p} vs {p0}"
            );
            assert!(
                e <= e0 * (1.0 + 1e-12),
                "{n} discs: energy rose {e0} -> {e}"
            );
        }
        assert!(struck, "{n} discs: never struck");
    }
}

/// Listing the discs in reverse order only renumbers them: the closure solve, like every
/// round, is ordered by place.
#[test]
fn a_cluster_outcome_does_not_depend_on_the_order_of_the_discs() {
    for n in [75, 150] {
        reversing_only_renumbers(n);
    }
}

fn reversing_only_renumbers(discs: usize) {
    let (board, physics, shot) = hex_cluster(discs, 10.0);
    let mut reversed = shot.clone();
    reversed.discs.reverse();
    let (a, b) = (
        run_shot(&board, &physics, &shot).unwrap(),
        run_shot(&board, &physics, &reversed).unwrap(),
    );
    let n = shot.discs.len();
    for k in 0..n {
        assert_eq!(a.discs[k].pos, b.discs[n - 1 - k].pos, "disc {k}");
    }
    assert_eq!(a.discs[n].pos, b.discs[n].pos, "shooter");
}

/// No state between steps has two discs sunk into each other by more than a micrometre
/// (in a closed step, pressed contacts may sink by up to `2 press_speed dt`, about 5 um,
/// before the separation at the step's end pushes them apart).
#[test]
fn clusters_never_sink_into_each_other() {
    for n in [28, 60, 75, 150] {
        let (board, physics, shot) = hex_cluster(n, 10.0);
        let mut w: World = shot.world(&board, &physics).unwrap();
        let worst = common::run_watching_overlap(&mut w, 10_000);
        println!("{n} discs: deepest overlap {worst:e} m");
        assert!(w.is_at_rest(), "{n} discs: still moving");
        assert!(worst <= 1e-6, "{n} discs: overlap {worst:e} m");
    }
}
