//! Free motion on the board: Coulomb sliding in closed form, and coupled sliding and
//! spinning after Farkas, Bartels, Unger & Wolf, Phys. Rev. Lett. 90, 248302 (2003).
//!
//! Friction stays antiparallel to the velocity, so a flat disc's path is straight. Over a
//! sub-interval the sliding deceleration `a = mu g F` and the angular deceleration
//! `alpha = mu m g R T / I` are held constant, which makes the motion closed-form:
//!
//! ```text
//! p(t) = p0 + v0_hat (v0 t - a t^2 / 2),  v(t) = v0 - a t   until t_v = v0 / a
//! w(t) = w0 - sign(w0) alpha t                                until t_w = |w0| / alpha
//! ```
//!
//! - Pure sliding (w = 0): F = 1, T = 0, so `a = mu g` exactly: stop time `v0 / (mu g)` and
//!   distance `v0^2 / (2 mu g)` whatever the step.
//! - Pure spinning (v = 0): F = 0, T = 2/3, so `alpha = (4/3) mu g / R` for a uniform disc:
//!   stop time `3 R w0 / (4 mu g)` whatever the step.
//! - Both: F and T depend on `eps = v / (R w)` (`farkas.rs`). Through a run of quiet steps
//!   the disc follows the exact solution of these equations along its master curve
//!   ([`slide_and_spin_from_anchor`], `spin_curve.rs`), one lookup whatever the run's
//!   length. Within a step with events, and in the last steps before it rests, F and T are
//!   held over the interval at their values at its midpoint, predicted with the start
//!   values (second order in the step, tested below). When the slide stops inside an
//!   interval, the spin stops with it: Farkas et al. show both stop at the same instant,
//!   with `eps -> 0.653`.
//!
//! The functions that move a disc come in two kinds, and their names say which. By a time
//! `tau` from where the disc is now, at the decelerations [`set_decel`] holds over the
//! interval: [`advance_or_stop`] in a step with events, [`advance_before_stop`] in a step
//! known to be quiet, [`step_by_step`] for a run of `n` such steps. And from the disc's
//! anchor (`state::Anchor`) to the end of a later quiet step, one closed form whatever the
//! run's length, one function per kind of motion: [`slide_from_anchor`] without spin,
//! [`slide_and_spin_from_anchor`] along the master curve, [`spin_in_place_from_anchor`]
//! ([`slide_speed_from_anchor`] reads a slide's speed there without moving the disc).

use crate::disc::Disc;
use crate::params::Physics;
use crate::step::farkas::friction_table;
use crate::step::spin_curve::spin_curves;
use crate::step::state::{Curve, Motion, OnCurve};
use glam::DVec2;

/// Sets the decelerations of a moving disc for an interval of length `window`.
#[inline]
pub(crate) fn set_decel(disc: &Disc, m: &mut Motion, physics: &Physics, window: f64) {
    let mu_g = physics.slide_decel();
    let v = m.speed;
    let u = disc.radius * disc.spin.abs();
    if u == 0.0 {
        m.decel = if v > 0.0 { mu_g } else { 0.0 };
        m.spin_decel = 0.0;
        return;
    }
    let spin_scale = m.spin_scale;
    let table = friction_table();
    let (f0, t0) = table.factors(v, u);
    let (a0, al0) = (mu_g * f0, spin_scale * t0);
    // Midpoint predictor; if either part would stop in the first half, keep the start values.
    let v_mid = v - 0.5 * window * a0;
    let w_mid = disc.spin.abs() - 0.5 * window * al0;
    let (f, t) = if v > 0.0 && v_mid > 0.0 && w_mid > 0.0 {
        table.factors(v_mid, disc.radius * w_mid)
    } else {
        (f0, t0)
    };
    m.decel = mu_g * f;
    m.spin_decel = spin_scale * t;
}

/// Time until the slide stops (`f64::INFINITY` if it never does, 0 if not sliding).
#[inline]
pub(crate) fn slide_stop_time(speed: f64, m: &Motion) -> f64 {
    if speed == 0.0 {
        0.0
    } else if m.decel > 0.0 {
        speed / m.decel
    } else {
        f64::INFINITY
    }
}

/// Time until the spin stops (`f64::INFINITY` if it never does, 0 if not spinning).
#[inline]
pub(crate) fn spin_stop_time(spin: f64, m: &Motion) -> f64 {
    if spin == 0.0 {
        0.0
    } else if m.spin_decel > 0.0 {
        spin.abs() / m.spin_decel
    } else {
        f64::INFINITY
    }
}

/// Distance a disc slides in `tau` (or until it stops, if sooner).
#[inline]
pub(crate) fn slide_distance(speed: f64, m: &Motion, tau: f64) -> f64 {
    if tau >= slide_stop_time(speed, m) {
        0.5 * speed * slide_stop_time(speed, m)
    } else {
        tau * (speed - 0.5 * m.decel * tau)
    }
}

/// Advances a moving disc by `tau` from its current state at the held decelerations; a
/// slide or spin that ends within `tau` ends exactly there (the disc stops where it would,
/// no overshoot). Uses up the clearance by the distance slid.
#[inline]
pub(crate) fn advance_or_stop(disc: &mut Disc, m: &mut Motion, tau: f64) {
    let v = m.speed;
    if v > 0.0 {
        let t_v = slide_stop_time(v, m);
        if tau >= t_v {
            // Stops inside the interval: exactly d = v^2 / (2 a), no overshoot.
            let s = 0.5 * v * t_v;
            disc.pos += m.dir * s;
            disc.vel = DVec2::ZERO;
            m.speed = 0.0;
            m.clearance -= s;
        } else {
            slide_for(disc, m, tau);
        }
    }
    if disc.spin != 0.0 {
        if m.spin_decel * tau >= disc.spin.abs() {
            disc.spin = 0.0;
        } else {
            spin_down_for(disc, m, tau);
        }
    }
}

/// [`advance_or_stop`] over a `tau` known to end before the slide and the spin do (a
/// quiet step): the same arithmetic without the stop tests.
#[inline]
pub(crate) fn advance_before_stop(disc: &mut Disc, m: &mut Motion, tau: f64) {
    if m.speed > 0.0 {
        slide_for(disc, m, tau);
    }
    spin_down_for(disc, m, tau);
}

/// Slides a disc for `tau` from its current state at the held deceleration (the slide does
/// not end within `tau`), using up its clearance.
#[inline]
fn slide_for(disc: &mut Disc, m: &mut Motion, tau: f64) {
    let v = m.speed;
    let s = tau * (v - 0.5 * m.decel * tau);
    disc.pos += m.dir * s;
    m.speed = v - m.decel * tau;
    disc.vel = m.dir * m.speed;
    m.clearance -= s;
}

/// Slows a disc's spin for `tau` at the held angular deceleration (the spin does not end
/// within `tau`).
#[inline]
fn spin_down_for(disc: &mut Disc, m: &Motion, tau: f64) {
    let dw = m.spin_decel * tau;
    if disc.spin > 0.0 {
        disc.spin -= dw;
    } else {
        disc.spin += dw;
    }
}

/// `n` quiet steps of length `h`, one at a time, of a spinning disc that is not on the
/// master curves (`Curve::Off`: a ratio the tables leave out, or no board friction): rounds
/// of [`set_decel`] and [`advance_before_stop`]. The caller guarantees the steps are quiet:
/// neither the slide nor the spin ends within them (`World::quiet_steps_ahead`).
pub(crate) fn step_by_step(disc: &mut Disc, m: &mut Motion, physics: &Physics, h: f64, n: u64) {
    debug_assert!(disc.spin != 0.0);
    for _ in 0..n {
        set_decel(disc, m, physics, h);
        advance_before_stop(disc, m, h);
    }
}

/// Makes a spinning disc's current state the anchor of its quiet runs (at step boundary
/// `step`, as [`Motion::set_anchor`]) and looks up its place on its master curve:
/// `Curve::On` when it slides and spins at a ratio the tables cover and the board has
/// friction, `Curve::InPlace` when it spins without sliding, else `Curve::Off`.
#[inline]
pub(crate) fn set_anchor_on_curve(disc: &Disc, m: &mut Motion, physics: &Physics, step: u64) {
    m.set_anchor(disc, step);
    let a = physics.slide_decel();
    let u = disc.radius * disc.spin.abs();
    m.anchor.curve = if m.speed == 0.0 {
        Curve::InPlace(disc.spin)
    } else if u > 0.0 && a > 0.0 {
        match spin_curves().locate(m.speed, u, a) {
            Some(c) => Curve::On(c),
            None => Curve::Off,
        }
    } else {
        Curve::Off
    };
}

/// Time from a disc's anchor to the end of quiet step `step` (a later boundary), s.
#[inline]
fn since_anchor(m: &Motion, step: u64, h: f64) -> f64 {
    (step - m.anchor.step) as f64 * h
}

/// The speed of a sliding disc without spin at the end of quiet step `step`, one
/// closed-form advance from its anchor at the deceleration `m.decel` (`mu g`). Returns it
/// and writes nothing, so a caller can check it first.
#[inline]
pub(crate) fn slide_speed_from_anchor(m: &Motion, step: u64, h: f64) -> f64 {
    let t = since_anchor(m, step, h);
    m.anchor.speed - m.decel * t
}

/// Sets a sliding disc without spin to its state at the end of quiet step `step`: one
/// closed-form advance from its anchor by `T = (step - anchor.step) h` at the deceleration
/// `m.decel` (`mu g`), the fixed-step result of the quiet run since the anchor (see
/// `Anchor`).
#[inline]
pub(crate) fn slide_from_anchor(disc: &mut Disc, m: &mut Motion, step: u64, h: f64) {
    let (t, v0) = (since_anchor(m, step, h), m.anchor.speed);
    let slid = t * (v0 - 0.5 * m.decel * t);
    place_along_path(disc, m, slid, slide_speed_from_anchor(m, step, h));
}

/// Sets a disc that slides and spins to its state at the end of quiet step `step` (a
/// boundary after its anchor's, before the end of its life): one advance along its master
/// curve `c` from the anchor by `T = (step - anchor.step) h` (`step/spin_curve.rs`). The
/// decelerations are left as they were; the next step that needs them sets them.
#[inline]
pub(crate) fn slide_and_spin_from_anchor(
    disc: &mut Disc,
    m: &mut Motion,
    c: &OnCurve,
    step: u64,
    h: f64,
) {
    let (v, u, slid) = spin_curves().after(c, since_anchor(m, step, h));
    place_along_path(disc, m, slid, v);
    let w = u / disc.radius;
    disc.spin = if disc.spin < 0.0 { -w } else { w };
}

/// Sets a disc spinning in place with spin `w0` at its anchor to its state at the end of
/// quiet step `step`: the spin's magnitude less `(2/3) spin_scale T`, `T = (step -
/// anchor.step) h` (the pure-spin factor `T(0) = 2/3` is exact, so in exact arithmetic
/// this is the result of the single steps). The decelerations are left as they were, as
/// in [`slide_and_spin_from_anchor`].
#[inline]
pub(crate) fn spin_in_place_from_anchor(disc: &mut Disc, m: &Motion, w0: f64, step: u64, h: f64) {
    let dw = m.spin_scale * (2.0 / 3.0) * since_anchor(m, step, h);
    disc.spin = if w0 > 0.0 { w0 - dw } else { w0 + dw };
}

/// Puts a disc `slid` metres along its path from its anchor, moving at `speed`, with the
/// clearance that travel leaves: the end of a closed-form quiet run.
#[inline]
fn place_along_path(disc: &mut Disc, m: &mut Motion, slid: f64, speed: f64) {
    disc.pos = m.anchor.pos + m.dir * slid;
    m.speed = speed;
    disc.vel = m.dir * speed;
    m.clearance = m.anchor.clearance - slid;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;

    /// The per-step model (decelerations held at each step's predicted midpoint), which steps
    /// with events and the last steps before rest use, is second order in the step: over
    /// 0.192 s (steps of 32, 16 and 8 ms, long enough that the curves' own error, 1e-8, is
    /// far below the step's), halving the step divides its error against the master
    /// curves' solution of the same equations by about 4, for slide- and spin-dominated
    /// starts.
    #[test]
    fn the_per_step_model_is_second_order_in_the_step() {
        let physics = Physics::default();
        let a = physics.slide_decel();
        for (vel, spin) in [(DVec2::new(0.6, 0.8), 20.0), (DVec2::new(0.3, 0.0), -40.0)] {
            let start = Disc::at_rest(0, DVec2::ZERO, physics.disc_radius, physics.disc_mass)
                .flicked(vel, spin);
            let m0 = Motion {
                clearance: 10.0,
                ..Motion::new(&start, &Board::tournament(), &physics, 0)
            };
            let curve = spin_curves()
                .locate(m0.speed, start.radius * spin.abs(), a)
                .unwrap();
            let (v_exact, _, s_exact) = spin_curves().after(&curve, 0.192);
            let errs: Vec<f64> = [32e-3_f64, 16e-3, 8e-3]
                .iter()
                .map(|&h| {
                    let (mut d, mut m) = (start, m0);
                    for _ in 0..(0.192 / h).round() as u64 {
                        set_decel(&d, &mut m, &physics, h);
                        advance_before_stop(&mut d, &mut m, h);
                    }
                    ((m.speed - v_exact) / v_exact)
                        .abs()
                        .max((d.pos.length() - s_exact).abs() / s_exact)
                })
                .collect();
            for w in errs.windows(2) {
                let ratio = w[0] / w[1];
                assert!((3.0..5.5).contains(&ratio), "{vel} {spin}: errors {errs:?}");
            }
        }
    }
}
