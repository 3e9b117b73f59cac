//! Free motion on the board: Coulomb sliding, spinning in place and the coupled
//! slide-and-spin of Farkas et al. (2003), against their closed forms.

use crate::common;

use common::{R, disc, open_board, physics_dt};
use crokinole::step::farkas::integrate_slide_and_spin;
use crokinole::{DiscState, World};
use glam::DVec2;

const MU_G: f64 = 0.12 * 9.81;
const DTS: [f64; 4] = [1e-4, 1e-3, 7e-3, 0.05];
/// Start of every free-motion shot: far from the hole on a 6 m pegless board.
const START: DVec2 = DVec2::new(-2.0, 1.0);

/// A single disc on a large pegless board, flicked along (0.6, 0.8).
fn single(dt: f64, speed: f64, spin: f64) -> World {
    let vel = DVec2::new(0.6, 0.8) * speed;
    common::world(open_board(6.0), physics_dt(dt), &[disc(START, vel, spin)])
}

/// Runs to rest; returns the displacement of the disc.
fn final_displacement(mut w: World) -> DVec2 {
    assert!(w.run(), "the disc did not come to rest");
    assert_eq!(w.discs()[0].state, DiscState::Rest);
    w.discs()[0].pos - START
}

/// `run` to rest lands on the bits of stepping `w0` by hand until it rests.
fn run_is_stepping_by_hand(w0: World) {
    let mut ran = w0.clone();
    let mut by_hand = w0;
    assert!(ran.run());
    while !by_hand.is_at_rest() {
        by_hand.step();
    }
    assert_eq!(
        format!("{:?}", ran.discs()),
        format!("{:?}", by_hand.discs())
    );
    assert_eq!(ran.settle_time(), by_hand.settle_time());
}

/// Pure sliding stops after exactly v0^2 / (2 mu g), at exactly v0 / (mu g), for any step.
#[test]
fn a_sliding_disc_stops_at_the_coulomb_distance_and_time_for_any_step() {
    for dt in DTS {
        for speed in [0.1, 0.85, 3.0] {
            let mut w = single(dt, speed, 0.0);
            let v0 = w.discs()[0].vel;
            let v = v0.length();
            assert!(w.run());
            let d = (w.discs()[0].pos - START).length();
            let d_exact = v * v / (2.0 * MU_G);
            let t_exact = v / MU_G;
            assert!(
                ((d - d_exact) / d_exact).abs() < 1e-9,
                "dt {dt} v {speed}: distance {d} vs {d_exact}"
            );
            let t = w.settle_time();
            assert!(
                ((t - t_exact) / t_exact).abs() < 1e-9,
                "dt {dt} v {speed}: stop time {t} vs {t_exact}"
            );
        }
    }
}

/// A run of quiet steps is, by definition, one closed-form advance: after `n` steps of a
/// disc sliding in the open, its centre and speed are `p0 + u (v0 T - mu g T^2 / 2)` and
/// `v0 - mu g T` with `T = n dt`, to rounding, however long the run; stepping by hand and
/// `run` land on the same bits.
#[test]
fn a_long_quiet_run_is_one_closed_form_advance() {
    for dt in DTS {
        let w0 = single(dt, 1.3, 0.0);
        let v0 = w0.discs()[0].vel;
        let (v, u) = (v0.length(), v0 / v0.length());
        let n = (0.9 * v / MU_G / dt) as u64;
        let mut stepped = w0.clone();
        for _ in 0..n {
            stepped.step();
        }
        let t = n as f64 * dt;
        let want = START + u * (v * t - 0.5 * MU_G * t * t);
        let d = stepped.discs()[0];
        assert!(
            (d.pos - want).length() < 1e-14,
            "dt {dt}, {n} steps: {} vs {want}",
            d.pos
        );
        assert!((d.vel.length() - (v - MU_G * t)).abs() < 1e-14, "dt {dt}");
        run_is_stepping_by_hand(w0);
    }
}

/// A sliding disc never passes its stopping point and never moves backwards.
#[test]
fn a_sliding_disc_neither_overshoots_nor_reverses() {
    for dt in DTS {
        let mut w = single(dt, 1.3, 0.0);
        let v0 = w.discs()[0].vel;
        let u = v0 / v0.length();
        let d_exact = v0.length_squared() / (2.0 * MU_G);
        let mut last = 0.0;
        let mut steps = 0;
        while !w.is_at_rest() {
            w.step();
            steps += 1;
            assert!(steps < 100_000, "dt {dt}: never stopped");
            let d = w.discs()[0];
            let s = (d.pos - START).dot(u);
            assert!(s >= last, "dt {dt}: moved backwards ({s} < {last})");
            assert!(
                s <= d_exact * (1.0 + 1e-12),
                "dt {dt}: overshoot {s} > {d_exact}"
            );
            assert!(
                d.vel.dot(u) >= 0.0,
                "dt {dt}: velocity reversed: {:?}",
                d.vel
            );
            last = s;
        }
        // Further steps leave it where it is.
        let rest = w.discs()[0].pos;
        for _ in 0..3 {
            w.step();
        }
        assert_eq!(w.discs()[0].pos, rest);
        assert_eq!(w.discs()[0].vel, DVec2::ZERO);
    }
}

/// A disc that slides and spins never moves backwards, never speeds up, never spins up or
/// reverses its spin, and comes to rest with both ending, for starts from nearly pure
/// sliding to nearly pure spinning (ratios v / (R w) from 1e-4 to 1e4, both spins), at
/// steps of 0.1, 1 and 7 ms: the master curves keep these properties of the equations to
/// rounding.
#[test]
fn a_spinning_slide_never_reverses_speeds_up_or_spins_up() {
    for dt in [1e-4, 1e-3, 7e-3] {
        for (speed, rim) in [
            (2.5, 2.5e-4),
            (1.0, 0.01),
            (1.0, 0.5),
            (0.6, 0.4),
            (0.3, 1.5),
            (0.01, 2.0),
            (2e-4, 2.0),
        ] {
            for sign in [1.0, -1.0] {
                let spin = sign * rim / R;
                let mut w = single(dt, speed, spin);
                let dir = w.discs()[0].vel / speed;
                let (mut last_s, mut last_v, mut last_w) = (0.0, speed, spin.abs());
                let mut steps = 0;
                while !w.is_at_rest() {
                    w.step();
                    steps += 1;
                    assert!(steps < 1_000_000, "never stopped");
                    let d = w.discs()[0];
                    let s = (d.pos - START).dot(dir);
                    let (v, ws) = (d.vel.length(), d.spin.abs());
                    let at = format!("dt {dt} v0 {speed} w0 {spin}, step {steps}");
                    assert!(s >= last_s, "{at}: moved backwards {s} < {last_s}");
                    assert!(v <= last_v * (1.0 + 1e-12), "{at}: sped up {last_v} -> {v}");
                    assert!(
                        ws <= last_w * (1.0 + 1e-12),
                        "{at}: spun up {last_w} -> {ws}"
                    );
                    assert!(
                        d.spin == 0.0 || d.spin.signum() == sign,
                        "{at}: spin reversed"
                    );
                    assert!(d.vel.dot(dir) >= 0.0, "{at}: velocity reversed");
                    (last_s, last_v, last_w) = (s, v, ws);
                }
                let d = w.discs()[0];
                assert_eq!((d.vel, d.spin), (DVec2::ZERO, 0.0));
            }
        }
    }
}

/// A disc spinning in place stops at 3 R w0 / (4 mu g) without moving.
#[test]
fn a_disc_spinning_in_place_stops_at_three_quarters_r_w_over_mu_g() {
    for dt in DTS {
        for w0 in [30.0, -100.0, 400.0] {
            let mut w = single(dt, 0.0, w0);
            assert!(w.run());
            let t_exact = 3.0 * R * f64::abs(w0) / (4.0 * MU_G);
            let t = w.settle_time();
            assert!(
                ((t - t_exact) / t_exact).abs() < 1e-9,
                "dt {dt} w0 {w0}: stop time {t} vs {t_exact}"
            );
            assert_eq!(w.discs()[0].pos, START, "a disc spinning in place moved");
            assert_eq!(w.discs()[0].spin, 0.0);
        }
    }
}

/// A run of quiet steps of a disc spinning in place is one closed-form advance too: after
/// `n` steps its spin is `w0 - (4/3) mu g / R T` (sign kept), `T = n dt`, to rounding, and
/// it has not moved; stepping by hand lands on the bits of `run`.
#[test]
fn a_disc_spinning_in_place_loses_spin_at_the_constant_rate_over_any_run() {
    for dt in DTS {
        for w0 in [60.0_f64, -250.0] {
            let life = 3.0 * R * w0.abs() / (4.0 * MU_G);
            let n = (0.8 * life / dt) as u64;
            let mut w = single(dt, 0.0, w0);
            for _ in 0..n {
                w.step();
            }
            let t = n as f64 * dt;
            let want = w0.signum() * (w0.abs() - 4.0 / 3.0 * MU_G / R * t);
            let d = w.discs()[0];
            assert!(
                (d.spin - want).abs() <= 1e-12 * w0.abs(),
                "dt {dt} w0 {w0}, {n} steps: spin {} vs {want}",
                d.spin
            );
            assert_eq!((d.pos, d.vel), (START, DVec2::ZERO));
            run_is_stepping_by_hand(single(dt, 0.0, w0));
        }
    }
}

/// Per-step record of a hand-stepped slide with spin: (speed, spin) at each step end.
fn hand_stepped(dt: f64, speed: f64, spin: f64) -> Vec<(f64, f64)> {
    let mut w = single(dt, speed, spin);
    let mut out = vec![(w.discs()[0].vel.length(), w.discs()[0].spin)];
    while !w.is_at_rest() {
        w.step();
        out.push((w.discs()[0].vel.length(), w.discs()[0].spin));
        assert!(out.len() < 100_000, "never stopped");
    }
    out
}

/// Sliding and spinning end in the same step, and neither ends early on its own.
#[test]
fn translation_and_rotation_stop_in_the_same_step() {
    for (speed, spin) in [(1.0, 100.0), (0.3, -400.0), (2.0, 20.0)] {
        let rec = hand_stepped(1e-3, speed, spin);
        let slide_end = rec.iter().position(|&(v, _)| v == 0.0).unwrap();
        let spin_end = rec.iter().position(|&(_, w)| w == 0.0).unwrap();
        assert_eq!(
            slide_end, spin_end,
            "v0 {speed} w0 {spin}: slide ended at step {slide_end}, spin at step {spin_end}"
        );
        // One step before, both were still going, and both had nearly run out on their
        // own: with decelerations of order mu g, slide and rim speed are then O(mu g dt).
        // A spin cut off by fiat when the slide ends would leave a large rim speed here.
        let (v, w) = rec[slide_end - 1];
        assert!(v > 0.0 && w != 0.0, "v0 {speed} w0 {spin}: {v} {w}");
        println!(
            "v0 {speed} w0 {spin}: last step before stop v = {v:.3e}, R w = {:.3e}",
            R * w.abs()
        );
        let small = 10.0 * MU_G * 1e-3;
        assert!(
            v < small && R * w.abs() < small,
            "v0 {speed} w0 {spin}: one step before the stop v = {v} m/s, R w = {} m/s",
            R * w.abs()
        );
    }
}

/// v / (R w) tends to Farkas's fixed point 0.653 as the stop nears, from either side.
///
/// The approach is a power law in the time left (the relaxation rate grows like 1/w), so a
/// disc that starts far from 0.653 is still on its way one millisecond before stopping:
/// from eps0 = 0.047 (0.3 m/s, 400 rad/s) the exact ratio is 0.343 at 1 ms, 0.50 at 0.1 ms
/// and 0.60 at 0.01 ms before the stop (measured at dt = 1e-6). So: close to 0.653 at the
/// last step for starts near it, and for every start the ratio moves toward 0.653 over the
/// last steps without crossing it.
#[test]
fn the_ratio_of_slide_to_rim_speed_tends_to_0_653_at_the_stop() {
    for (speed, spin, tol) in [(1.0, 100.0, 0.02), (2.0, 20.0, 0.03), (0.3, -400.0, 0.4)] {
        let rec = hand_stepped(1e-3, speed, spin);
        let slide_end = rec.iter().position(|&(v, _)| v == 0.0).unwrap();
        let eps_at = |k: usize| rec[k].0 / (R * rec[k].1.abs());
        let eps = eps_at(slide_end - 1);
        println!("v0 {speed} w0 {spin}: eps at the last step before stopping = {eps:.4}");
        assert!(
            (eps - 0.653).abs() < tol,
            "v0 {speed} w0 {spin}: eps = {eps}, expected within {tol} of 0.653"
        );
        // Over the last 50 steps the distance to the fixed point only shrinks.
        let start = slide_end.saturating_sub(50);
        let eps0 = speed / (R * f64::abs(spin));
        for k in start + 1..slide_end {
            let (before, after) = (eps_at(k - 1), eps_at(k));
            assert!(
                (after - 0.653).abs() <= (before - 0.653).abs() + 1e-12,
                "v0 {speed} w0 {spin}: eps moved away from 0.653 at step {k}: {before} -> {after}"
            );
            assert!(
                (after - 0.653) * (eps0 - 0.653) >= 0.0,
                "v0 {speed} w0 {spin}: eps crossed 0.653 at step {k}: {after}"
            );
        }
    }
}

/// The same flick goes farther when the disc also spins (friction force is reduced).
#[test]
fn a_spinning_disc_slides_farther() {
    for spin in [20.0, 100.0, 400.0] {
        let plain = final_displacement(single(1e-3, 1.0, 0.0)).length();
        let spun = final_displacement(single(1e-3, 1.0, spin)).length();
        assert!(
            spun > plain * 1.01,
            "w0 {spin}: spun {spun} m, not clearly farther than {plain} m"
        );
    }
}

/// Spin never bends the path: the disc stops on the line of its initial velocity.
#[test]
fn a_spinning_disc_slides_in_a_straight_line() {
    for spin in [100.0, -250.0] {
        let mut w = single(1e-3, 1.2, spin);
        let v0 = w.discs()[0].vel;
        let u = v0 / v0.length();
        let mut worst: f64 = 0.0;
        while !w.is_at_rest() {
            w.step();
            let lateral = (w.discs()[0].pos - START).perp_dot(u).abs();
            worst = worst.max(lateral);
        }
        assert!(worst < 1e-12, "w0 {spin}: lateral deviation {worst} m");
    }
}

/// Clockwise and counter-clockwise spin give the same slide (mirror symmetry).
#[test]
fn spin_direction_does_not_change_the_distance() {
    for spin in [50.0, 300.0] {
        let ccw = final_displacement(single(1e-3, 0.9, spin));
        let cw = final_displacement(single(1e-3, 0.9, -spin));
        assert!(
            (ccw - cw).length() <= 1e-12 * ccw.length(),
            "w0 {spin}: {ccw:?} vs {cw:?}"
        );
    }
}

/// Through a run of quiet steps a disc that slides and spins is on the exact solution of the
/// Farkas equations (to the 1e-7 of the engine's master curves), whatever the step and
/// however long the run: after `n` steps its slide speed, spin and distance match the
/// equations integrated with a step of 1 us, for slide- and spin-dominated starts; and
/// stepping by hand lands on the bits of `run`.
#[test]
fn a_spinning_disc_in_the_open_follows_the_farkas_equations_exactly() {
    for (speed, spin) in [(1.3, 20.0), (0.9, -150.0), (0.2, 300.0)] {
        for dt in [1e-4, 1e-3, 7e-3] {
            let w0 = single(dt, speed, spin);
            let n = (0.25 / dt) as u64;
            let mut w = w0.clone();
            for _ in 0..n {
                w.step();
            }
            let d = w.discs()[0];
            let t = n as f64 * dt;
            let (v, u, s) =
                integrate_slide_and_spin(speed, R * f64::abs(spin), MU_G, t, (t / 1e-6) as usize);
            let slid = (d.pos - START).length();
            let rim = R * d.spin.abs();
            assert!(
                (d.vel.length() - v).abs() < 1e-6 * v
                    && (rim - u).abs() < 1e-6 * u
                    && (slid - s).abs() < 1e-6 * s,
                "v0 {speed} w0 {spin} dt {dt}: (v, R w, slid) = ({}, {rim}, {slid}), \
                 integrated ({v}, {u}, {s})",
                d.vel.length()
            );
            assert_eq!(d.spin.signum(), spin.signum());
            run_is_stepping_by_hand(w0);
        }
    }
}

/// The end point of a spinning slide does not depend on the step: quiet runs follow the
/// exact solution, and only the last steps before the stop (stepped one at a time, with the
/// decelerations held at each step's predicted midpoint, second order in the step) depend
/// on it. From 4 ms down to 0.25 ms every end point is within 1 um of the one at 10 us.
#[test]
fn a_spinning_slide_ends_at_the_same_point_for_any_step() {
    for (speed, spin) in [(1.0, 120.0), (0.4, -600.0), (2.0, 10.0)] {
        let reference = final_displacement(single(1e-5, speed, spin));
        for dt in [4e-3, 2e-3, 1e-3, 5e-4, 2.5e-4] {
            let err = (final_displacement(single(dt, speed, spin)) - reference).length();
            println!("v0 {speed} w0 {spin} dt {dt:.2e}: {err:.3e} m from the 10 us end point");
            assert!(err < 1e-6, "v0 {speed} w0 {spin} dt {dt}: {err} m");
        }
    }
}

/// Sliding and angular decelerations, in units of mu g and 2 mu g / R, measured over one
/// tiny step from a disc with slide speed `v` and rim speed `u` = R w.
fn measured_factors(v: f64, u: f64) -> (f64, f64) {
    let dt = 1e-6;
    let mut w = single(dt, v, u / R);
    let (v0, w0) = (w.discs()[0].vel.length(), w.discs()[0].spin);
    w.step();
    let (v1, w1) = (w.discs()[0].vel.length(), w.discs()[0].spin);
    ((v0 - v1) / (MU_G * dt), (w0 - w1) * R / (2.0 * MU_G * dt))
}

/// The slide-spin friction factors follow Farkas et al.: F(1) = 8/(3 pi), T(1) = 8/(9 pi),
/// T -> 2/3 and F ~ eps for small eps, F -> 1 and T ~ 1/(4 eps) for large eps.
#[test]
fn the_slide_and_spin_friction_factors_follow_farkas() {
    let pi = std::f64::consts::PI;
    let (f, t) = measured_factors(1.0, 1.0);
    println!(
        "eps = 1: F = {f:.5} (8/3pi = {:.5}), T = {t:.5} (8/9pi = {:.5})",
        8.0 / (3.0 * pi),
        8.0 / (9.0 * pi)
    );
    assert!(
        (f - 8.0 / (3.0 * pi)).abs() < 0.01 * 8.0 / (3.0 * pi),
        "F(1) = {f}"
    );
    assert!(
        (t - 8.0 / (9.0 * pi)).abs() < 0.01 * 8.0 / (9.0 * pi),
        "T(1) = {t}"
    );
    let eps = 1e-3;
    let (f, t) = measured_factors(eps * 2.0, 2.0);
    println!("eps = {eps}: F = {f:.3e}, T = {t:.5}");
    assert!(
        (f / eps - 1.0).abs() < 0.05,
        "small eps: F = {f}, expected ~ eps = {eps}"
    );
    assert!(
        (t - 2.0 / 3.0).abs() < 0.01,
        "small eps: T = {t}, expected ~ 2/3"
    );
    let eps = 100.0;
    let (f, t) = measured_factors(1.0, 1.0 / eps);
    println!("eps = {eps}: F = {f:.5}, T = {t:.3e}");
    assert!((f - 1.0).abs() < 0.01, "large eps: F = {f}, expected ~ 1");
    assert!(
        (t * 4.0 * eps - 1.0).abs() < 0.05,
        "large eps: T = {t}, expected ~ 1/(4 eps)"
    );
}
