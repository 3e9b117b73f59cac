//! Times of impact inside the fixed step: Newton's cradle, Galperin's pi-counting
//! collisions, no tunnelling at any speed, and pressed contacts (slow inelastic pushes,
//! rows struck at e = 0).

use crate::common;

use common::{M, R, board_with_pegs, disc, ideal_physics, max_overlap, open_board, resting};
use crokinole::{Disc, DiscState, EventKind, Physics, World};
use glam::DVec2;

/// Runs `w` by hand for at most `max_steps`, asserting no overlap beyond `tol` at any step end.
fn step_checked(w: &mut World, max_steps: u64, tol: f64) {
    let mut n = 0;
    while !w.is_at_rest() && n < max_steps {
        w.step();
        n += 1;
        let o = max_overlap(w);
        assert!(
            o <= tol,
            "overlap {o:e} m at the end of step {}: {:?}",
            w.steps(),
            w.discs()
        );
    }
}

fn count_impacts(w: &World) -> usize {
    w.events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Disc { .. } | EventKind::Peg { .. }))
        .count()
}

/// Newton's cradle: a striker passes its velocity down a touching row to the last disc.
#[test]
fn newtons_cradle_passes_the_velocity_down_the_row() {
    for n in [1usize, 4] {
        let v = 0.7;
        let y = 0.3;
        let mut discs = vec![disc(DVec2::new(-0.5, y), DVec2::new(v, 0.0), 0.0)];
        for k in 0..n {
            discs.push(resting(DVec2::new(-0.2 + 2.0 * R * k as f64, y)));
        }
        let mut w = common::world(open_board(1.0), ideal_physics(), &discs);
        let last = n;
        for _ in 0..3000 {
            w.step();
            if w.discs()[last].state == DiscState::Ditch {
                break;
            }
        }
        assert_eq!(
            w.discs()[last].state,
            DiscState::Ditch,
            "the last disc never left"
        );
        let out = w.discs()[last];
        assert!(
            (out.vel - DVec2::new(v, 0.0)).length() < 1e-12 * v,
            "last disc left at {:?}",
            out.vel
        );
        for (k, d) in w.discs()[..last].iter().enumerate() {
            assert!(
                d.vel.length() < 1e-12 * v,
                "disc {k} of {n} moves at {:?}",
                d.vel
            );
            let home = if k == 0 {
                -0.2 - 2.0 * R
            } else {
                -0.2 + 2.0 * R * (k - 1) as f64
            };
            assert!(
                (d.pos.x - home).abs() < 1e-9,
                "disc {k} of {n} at {} not {home}",
                d.pos.x
            );
        }
        assert_eq!(count_impacts(&w), n, "{:?}", w.events());
    }
}

/// Galperin: heavy disc, light disc and a wall (a peg) count pi's digits for 100^N.
#[test]
fn galperins_collisions_count_the_digits_of_pi() {
    let y = 0.3;
    let peg = DVec2::new(0.4, y);
    for (n, expected) in [(0, 3usize), (1, 31), (2, 314), (3, 3141)] {
        let physics = Physics {
            max_events_per_step: 10_000_000,
            ..ideal_physics()
        };
        let heavy_mass = M * 100f64.powi(n);
        let heavy =
            Disc::at_rest(0, DVec2::new(-0.3, y), R, heavy_mass).flicked(DVec2::new(0.1, 0.0), 0.0);
        let light = resting(DVec2::new(0.2, y));
        let mut w = common::world(board_with_pegs(1.0, vec![peg]), physics, &[heavy, light]);
        // Step until no further collision is possible: the heavy disc leaves the board or
        // runs from the peg at least as fast as the light one, which does not approach the peg.
        let done = |w: &World| {
            let (h, l) = (w.discs()[0], w.discs()[1]);
            let light_done =
                !l.on_board() || (l.vel.x <= 0.0 && (!h.on_board() || h.vel.x <= l.vel.x));
            h.vel.x < 0.0 && light_done
        };
        while !done(&w) {
            w.step();
            assert!(w.steps() < 30_000, "N = {n}: collisions never ended");
        }
        // And a while longer, to see that nothing else happens.
        for _ in 0..1000 {
            w.step();
        }
        let count = count_impacts(&w);
        println!("mass ratio 100^{n}: {count} collisions");
        assert_eq!(count, expected, "mass ratio 100^{n}");
        assert_eq!(w.capped_steps(), 0);
    }
}

/// The per-step event cap bounds the work of any step: Galperin's 100^3 billiard, whose
/// 3141 collisions crowd into a few steps, finishes under a cap of 3 events per step,
/// counting the capped steps, and no body is left sunk into another.
#[test]
fn the_event_cap_bounds_a_step_and_never_hangs() {
    let y = 0.3;
    let physics = Physics {
        max_events_per_step: 3,
        max_time: 60.0,
        ..ideal_physics()
    };
    let heavy =
        Disc::at_rest(0, DVec2::new(-0.3, y), R, M * 1e6).flicked(DVec2::new(0.1, 0.0), 0.0);
    let light = resting(DVec2::new(0.2, y));
    let peg = DVec2::new(0.4, y);
    let mut w = common::world(board_with_pegs(1.0, vec![peg]), physics, &[heavy, light]);
    w.run();
    assert!(w.capped_steps() > 0, "the cap was never reached");
    assert!(w.steps() <= 60_000);
    assert!(max_overlap(&w) <= 1e-9, "overlap {}", max_overlap(&w));
}

/// At 100 m/s a disc still hits a peg, and is never found inside it.
#[test]
fn a_disc_at_100_m_per_s_does_not_tunnel_through_a_peg() {
    let y = 0.3;
    for dt in [1e-3, 1e-2] {
        for offset in [0.0, 0.012, -0.019] {
            let peg = DVec2::new(0.3, y + offset);
            let physics = Physics {
                max_speed: 200.0,
                dt,
                ..Physics::default()
            };
            let mut w = common::world(
                board_with_pegs(1.0, vec![peg]),
                physics,
                &[disc(DVec2::new(-0.5, y), DVec2::new(100.0, 0.0), 0.0)],
            );
            step_checked(&mut w, 1000, 1e-9);
            let hits = count_impacts(&w);
            assert_eq!(hits, 1, "dt {dt} offset {offset}: {:?}", w.events());
            let d = w.discs()[0];
            assert_eq!(d.state, DiscState::Ditch);
            // Turned back by a square hit, deflected by a glancing one.
            let deflected = if offset == 0.0 {
                d.vel.x < 0.0
            } else {
                d.vel.y.abs() > 10.0
            };
            assert!(
                deflected,
                "dt {dt} offset {offset}: not deflected: {:?}",
                d.vel
            );
        }
    }
}

/// At 100 m/s a disc still hits a resting disc, and the two never overlap.
#[test]
fn a_disc_at_100_m_per_s_does_not_tunnel_through_a_resting_disc() {
    let y = 0.3;
    for dt in [1e-3, 1e-2] {
        for offset in [0.0, 0.02, -0.03] {
            let physics = Physics {
                max_speed: 200.0,
                dt,
                ..Physics::default()
            };
            let mut w = common::world(
                open_board(1.0),
                physics,
                &[
                    disc(DVec2::new(-0.5, y), DVec2::new(100.0, 0.0), 0.0),
                    resting(DVec2::new(0.3, y + offset)),
                ],
            );
            step_checked(&mut w, 1000, 1e-9);
            let hits = count_impacts(&w);
            assert_eq!(hits, 1, "dt {dt} offset {offset}: {:?}", w.events());
            let target = w.discs()[1];
            assert!(
                target.vel.x > 10.0,
                "dt {dt} offset {offset}: target barely moved: {:?}",
                target.vel
            );
        }
    }
}

/// Pushes a resting disc with a slow disc at e = 0.05 and checks the pressed contact.
fn slow_push(gap: f64, spin: f64) {
    let physics = Physics {
        disc_restitution: 0.05,
        ..Physics::default()
    };
    let y = 0.3;
    let mut w = common::world(
        open_board(1.0),
        physics,
        &[
            disc(
                DVec2::new(-0.1 - 2.0 * R - gap, y),
                DVec2::new(0.01, 0.0),
                spin,
            ),
            resting(DVec2::new(-0.1, y)),
        ],
    );
    step_checked(&mut w, 20_000, 1e-9);
    assert!(
        w.is_at_rest(),
        "gap {gap} spin {spin}: still moving after 20 s"
    );
    assert!(
        w.events().len() < 1000,
        "gap {gap} spin {spin}: {} events",
        w.events().len()
    );
    assert!(
        count_impacts(&w) >= 1,
        "gap {gap} spin {spin}: never touched"
    );
    assert!(
        w.discs()[1].pos.x > -0.1,
        "gap {gap} spin {spin}: the front disc was not pushed"
    );
    assert_eq!(w.capped_steps(), 0);
}

/// A slow, nearly inelastic push ends at rest after finitely many impacts, without sinking in.
#[test]
fn a_slow_nearly_inelastic_push_ends_at_rest_without_overlap() {
    for gap in [1e-5, 1e-6, 1e-9, 0.0] {
        slow_push(gap, 0.0);
    }
}

/// A spinning pusher (less sliding friction than the disc it pushes) is never found sunk
/// into it between steps. Symptom once: overlaps of ~|da| dt^2 / 2 at step ends; cause: a
/// touching pair pressed together by unequal friction is not an impact; the step now
/// separates pressed pairs before it ends (ARCHITECTURE.md, "Pressed contacts").
#[test]
fn a_spinning_pusher_never_sinks_into_the_disc_it_pushes() {
    for (gap, spin) in [(1e-5, 200.0), (0.0, 300.0)] {
        slow_push(gap, spin);
    }
}

/// After an oblique plastic (e = 0) hit without spin, the two discs slide on touching, the
/// one with more sideways speed losing normal speed more slowly; they must not sink in.
#[test]
fn an_oblique_plastic_hit_never_sinks_the_discs_together() {
    for va in [
        DVec2::new(0.05, 0.02),
        DVec2::new(0.1, 0.01),
        DVec2::new(0.2, 0.03),
    ] {
        let physics = Physics {
            disc_restitution: 0.0,
            disc_friction: 0.0,
            ..Physics::default()
        };
        let mut w = common::world(
            open_board(1.0),
            physics,
            &[
                disc(DVec2::new(-0.1 - 2.0 * R - 1e-6, 0.3), va, 0.0),
                resting(DVec2::new(-0.1, 0.3)),
            ],
        );
        step_checked(&mut w, 20_000, 1e-9);
        assert!(w.is_at_rest());
        assert_eq!(count_impacts(&w), 1, "va {va:?}: {:?}", w.events());
    }
}

/// A touching row struck at e = 0 moves off together, sharing the momentum, and stops
/// together, touching, without overlap or hitting the event cap.
#[test]
fn a_touching_row_struck_at_e_0_shares_the_momentum() {
    for n in [2usize, 5] {
        let physics = Physics {
            disc_restitution: 0.0,
            ..Physics::default()
        };
        let (v, y, dt) = (1.0, 0.3, physics.dt);
        let mut discs = vec![disc(DVec2::new(-0.4 - 1e-6, y), DVec2::new(v, 0.0), 0.0)];
        for k in 1..=n {
            discs.push(resting(DVec2::new(-0.4 + 2.0 * R * k as f64, y)));
        }
        let mut w = common::world(open_board(1.0), physics, &discs);
        w.step();
        assert!(max_overlap(&w) <= 1e-9);
        let speeds: Vec<f64> = w.discs().iter().map(|d| d.vel.x).collect();
        let shared = v / (n + 1) as f64;
        for (k, s) in speeds.iter().enumerate() {
            // Everything decelerates at mu g for at most one step after the strike.
            assert!(
                (s - shared).abs() <= 0.12 * 9.81 * dt + 1e-9,
                "row of {n}: disc {k} at {s} m/s, shared speed {shared}: {speeds:?}"
            );
        }
        let spread = speeds.iter().cloned().fold(f64::MIN, f64::max)
            - speeds.iter().cloned().fold(f64::MAX, f64::min);
        assert!(spread < 1e-6, "row of {n}: speeds {speeds:?}");
        step_checked(&mut w, 20_000, 1e-9);
        assert!(w.is_at_rest(), "row of {n}: still moving");
        assert_eq!(w.capped_steps(), 0, "row of {n}: steps hit the event cap");
        // They stopped together: still a touching row.
        for k in 0..n {
            let gap = w.discs()[k + 1].pos.x - w.discs()[k].pos.x - 2.0 * R;
            assert!(
                gap.abs() < 1e-6,
                "row of {n}: gap {gap} between {k} and {}",
                k + 1
            );
        }
        println!("row of {n} at e = 0: {} logged events", w.events().len());
    }
}
