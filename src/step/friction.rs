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
//! - Both: F and T depend on `eps = v / (R w)` (`farkas.rs`). They are evaluated at the
//!   midpoint of the interval, predicted with the start values (second order in the step).
//!   When the slide stops inside an interval, the spin stops with it: Farkas et al. show
//!   both stop at the same instant, with `eps -> 0.653`.

use crate::disc::Disc;
use crate::params::Physics;
use crate::step::farkas::{FrictionTable, friction_table};
use crate::step::state::{Anchor, Motion};
use glam::DVec2;

/// Re-reads speed and direction from `disc.vel` after an impulse changed it.
pub(crate) fn sync(disc: &Disc, m: &mut Motion) {
    m.speed = disc.vel.length();
    m.dir = if m.speed > 0.0 {
        disc.vel / m.speed
    } else {
        DVec2::ZERO
    };
}

/// Sets the decelerations of a moving disc for an interval of length `window`.
#[inline]
pub(crate) fn set_decel(disc: &Disc, m: &mut Motion, physics: &Physics, window: f64) {
    let mu_g = physics.board_friction * physics.gravity;
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

/// alpha per unit torque factor: `mu m g R / I` (= 2 mu g / R for a uniform disc).
#[inline]
pub(crate) fn spin_scale(disc: &Disc, physics: &Physics) -> f64 {
    let mu_g = physics.board_friction * physics.gravity;
    mu_g * disc.mass * disc.radius / disc.inertia()
}

/// [`advance`] over a step known to be quiet (the disc neither stops sliding nor stops
/// spinning within it): the same arithmetic without the stop tests.
#[inline]
pub(crate) fn advance_quiet(disc: &mut Disc, m: &mut Motion, tau: f64) {
    let v = m.speed;
    if v > 0.0 {
        let s = tau * (v - 0.5 * m.decel * tau);
        disc.pos += m.dir * s;
        m.speed = v - m.decel * tau;
        disc.vel = m.dir * m.speed;
        m.clearance -= s;
    }
    let dw = m.spin_decel * tau;
    if disc.spin > 0.0 {
        disc.spin -= dw;
    } else {
        disc.spin += dw;
    }
}

/// What a quiet step of a spinning disc reads and writes, carried from one step to the next
/// in registers (see [`glide_spinners`]): speed, spin magnitude, centre, clearance and the
/// decelerations of the last step.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Spinner {
    v: f64,
    w: f64,
    pos: DVec2,
    clearance: f64,
    decel: f64,
    spin_decel: f64,
    dir: DVec2,
    radius: f64,
    spin_scale: f64,
    negative: bool,
}

impl Spinner {
    /// A spinning disc's state.
    #[inline]
    pub(crate) fn load(disc: &Disc, m: &Motion) -> Spinner {
        Spinner {
            v: m.speed,
            w: disc.spin.abs(),
            pos: disc.pos,
            clearance: m.clearance,
            decel: m.decel,
            spin_decel: m.spin_decel,
            dir: m.dir,
            radius: disc.radius,
            spin_scale: m.spin_scale,
            negative: disc.spin < 0.0,
        }
    }

    /// Whether it slides and spins, so that [`glide_spinners`] may step it.
    #[inline]
    pub(crate) fn slides(&self) -> bool {
        self.v > 0.0 && self.w > 0.0
    }

    /// Writes the state back after at least one step of [`glide_spinners`] (each step sets
    /// the velocity to `dir * speed`; a negative spin is `-(|spin| - dw)`, the same bits
    /// as `spin + dw`: rounding is symmetric).
    #[inline]
    pub(crate) fn store(&self, disc: &mut Disc, m: &mut Motion) {
        disc.pos = self.pos;
        disc.vel = self.dir * self.v;
        disc.spin = if self.negative { -self.w } else { self.w };
        m.speed = self.v;
        m.clearance = self.clearance;
        m.decel = self.decel;
        m.spin_decel = self.spin_decel;
    }

    /// One round of [`set_decel`] and [`advance_quiet`] for a disc that slides and spins:
    /// the same operations in the same order (the limit tests of the table lookup, which
    /// fail when `v > 0`, left out).
    #[inline(always)]
    fn step(&mut self, table: &FrictionTable, mu_g: f64, h: f64, half_h: f64) {
        let (v, w) = (self.v, self.w);
        let (f0, t0) = table.interpolate(v, self.radius * w);
        let v_mid = v - half_h * (mu_g * f0);
        let w_mid = w - half_h * (self.spin_scale * t0);
        let (f, t) = if v_mid > 0.0 && w_mid > 0.0 {
            table.interpolate(v_mid, self.radius * w_mid)
        } else {
            (f0, t0)
        };
        self.decel = mu_g * f;
        self.spin_decel = self.spin_scale * t;
        let s = h * (v - 0.5 * self.decel * h);
        self.pos += self.dir * s;
        self.v = v - self.decel * h;
        self.clearance -= s;
        self.w = w - self.spin_decel * h;
    }
}

/// Quiet steps of length `h` of `L` spinning discs at once, each exactly rounds of
/// [`set_decel`] and [`advance_quiet`] (the same operations on the same values in the same
/// order, so the same bits), for up to `n` steps and while every disc slides and spins;
/// returns the steps taken. Only what the next round reads is carried from round to round,
/// in registers; the table and the constants are fetched once.
///
/// A spinning disc has no closed form over several steps (its decelerations depend on
/// `|v| / (R |w|)`, which changes every step), and its step is a chain of dependent
/// operations: two divisions and two lookups, each waiting on the last. One disc's run is
/// therefore bound by that chain's latency, not by the work, and the discs of a quiet run
/// are independent of each other, so stepping `L` of them side by side lets the processor
/// overlap their chains (the order in which independent discs are stepped changes no bit).
/// The caller guarantees the steps are quiet: neither the slide nor the spin ends within
/// them (`World::quiet_steps_ahead`).
#[inline]
pub(crate) fn glide_spinners<const L: usize>(
    lanes: &mut [Spinner; L],
    physics: &Physics,
    h: f64,
    n: u64,
) -> u64 {
    let table = friction_table();
    let mu_g = physics.board_friction * physics.gravity;
    let half_h = 0.5 * h;
    let mut done = 0;
    while done < n && lanes.iter().all(Spinner::slides) {
        for lane in lanes.iter_mut() {
            lane.step(table, mu_g, h, half_h);
        }
        done += 1;
    }
    done
}

/// `n` quiet steps of length `h` of one spinning disc: [`glide_spinners`] while it slides
/// and spins, then (a disc spinning in place, or a run that is not quiet after all) the
/// rounds of [`set_decel`] and [`advance_quiet`] as they are written.
pub(crate) fn glide_spinning(disc: &mut Disc, m: &mut Motion, physics: &Physics, h: f64, n: u64) {
    debug_assert!(disc.spin != 0.0);
    let mut left = n;
    let mut lane = [Spinner::load(disc, m)];
    if lane[0].slides() {
        let done = glide_spinners(&mut lane, physics, h, n);
        if done > 0 {
            lane[0].store(disc, m);
        }
        left -= done;
    }
    for _ in 0..left {
        set_decel(disc, m, physics, h);
        advance_quiet(disc, m, h);
    }
}

/// Advances a moving disc by `tau` in closed form and uses up its clearance.
#[inline]
pub(crate) fn advance(disc: &mut Disc, m: &mut Motion, tau: f64) {
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
            let s = tau * (v - 0.5 * m.decel * tau);
            disc.pos += m.dir * s;
            m.speed = v - m.decel * tau;
            disc.vel = m.dir * m.speed;
            m.clearance -= s;
        }
    }
    if disc.spin != 0.0 {
        let dw = m.spin_decel * tau;
        if dw >= disc.spin.abs() {
            disc.spin = 0.0;
        } else if disc.spin > 0.0 {
            disc.spin -= dw;
        } else {
            disc.spin += dw;
        }
    }
}

/// Makes the disc's current state the start of its quiet run, at step boundary `step`.
#[inline]
pub(crate) fn anchor_at(disc: &Disc, m: &mut Motion, step: u64) {
    m.anchor = Anchor {
        step,
        pos: disc.pos,
        speed: m.speed,
        clearance: m.clearance,
    };
}

/// The state of a sliding disc without spin at the end of quiet step `step` (a boundary
/// after its anchor's): one closed-form advance from the anchor by
/// `T = (step - anchor.step) h` at the deceleration `m.decel` (`mu g`). Returns the speed
/// there without storing anything, so a caller can check it first.
#[inline]
pub(crate) fn speed_after_glide(m: &Motion, step: u64, h: f64) -> f64 {
    let t = (step - m.anchor.step) as f64 * h;
    m.anchor.speed - m.decel * t
}

/// Sets a sliding disc without spin to its state at the end of quiet step `step` (see
/// [`Anchor`]): the fixed-step result of the quiet run since its anchor.
#[inline]
pub(crate) fn glide_to(disc: &mut Disc, m: &mut Motion, step: u64, h: f64) {
    let a = m.anchor;
    let t = (step - a.step) as f64 * h;
    let s = t * (a.speed - 0.5 * m.decel * t);
    disc.pos = a.pos + m.dir * s;
    m.speed = a.speed - m.decel * t;
    disc.vel = m.dir * m.speed;
    m.clearance = a.clearance - s;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A disc of the default physics flicked with `vel` and `spin`, and its motion.
    fn flicked(vel: DVec2, spin: f64, physics: &Physics) -> (Disc, Motion) {
        let disc = Disc::at_rest(
            0,
            DVec2::new(0.01, -0.2),
            physics.disc_radius,
            physics.disc_mass,
        )
        .flicked(vel, spin);
        let mut m = Motion {
            clearance: 0.5,
            spin_scale: spin_scale(&disc, physics),
            ..Motion::default()
        };
        sync(&disc, &mut m);
        (disc, m)
    }

    /// The bits a step's outcome is compared on.
    fn bits(d: &Disc, m: &Motion) -> [u64; 9] {
        [
            d.pos.x,
            d.pos.y,
            d.vel.x,
            d.vel.y,
            d.spin,
            m.speed,
            m.clearance,
            m.decel,
            m.spin_decel,
        ]
        .map(f64::to_bits)
    }

    /// The spinning discs of the tests: slides from fast to slow, spins of either sign,
    /// spin-dominated and slide-dominated ratios.
    const SLIDING: [(DVec2, f64); 4] = [
        (DVec2::new(0.3, 1.1), 5.0),
        (DVec2::new(-0.05, 0.02), -40.0),
        (DVec2::new(2.0, 0.0), 0.7),
        (DVec2::new(0.0, -0.4), -1.5),
    ];

    /// `glide_spinning` over `n` steps lands on the bits of `n` rounds of `set_decel` and
    /// `advance_quiet` (what a quiet step of a spinning disc is defined to be), for slides
    /// from fast to nearly stopped, spins of either sign, spin-dominated and slide-dominated
    /// ratios, and a disc spinning in place; every `n` up to 64, then every 97th up to where
    /// the slide or spin would end within a step.
    #[test]
    fn glide_spinning_is_the_steps_bit_for_bit() {
        let physics = Physics::default();
        let h = physics.dt;
        for (vel, spin) in SLIDING.into_iter().chain([(DVec2::ZERO, 12.0)]) {
            let (mut d_ref, mut m_ref) = flicked(vel, spin, &physics);
            for n in 1..=3000u64 {
                set_decel(&d_ref, &mut m_ref, &physics, h);
                let ends = (m_ref.speed > 0.0 && m_ref.decel * h >= m_ref.speed)
                    || m_ref.spin_decel * h >= d_ref.spin.abs();
                if ends {
                    assert!(n > 100, "{vel} {spin}: only {n} steps");
                    break;
                }
                advance_quiet(&mut d_ref, &mut m_ref, h);
                if n > 64 && n % 97 != 0 {
                    continue;
                }
                let (mut d, mut m) = flicked(vel, spin, &physics);
                glide_spinning(&mut d, &mut m, &physics, h, n);
                assert_eq!(bits(&d, &m), bits(&d_ref, &m_ref), "{vel} {spin}, n = {n}");
            }
        }
    }

    /// Four discs stepped side by side by `glide_spinners` land on the bits of each stepped
    /// alone, for runs of 1 step up to as many quiet steps as all four have.
    #[test]
    fn spinners_side_by_side_are_each_disc_alone() {
        let physics = Physics::default();
        let h = physics.dt;
        let start = SLIDING.map(|(vel, spin)| flicked(vel, spin, &physics));
        // The most quiet steps all four have (the shortest lived of them ends first).
        let quiet = start
            .iter()
            .map(|&(mut d, mut m)| {
                (0u64..)
                    .find(|_| {
                        set_decel(&d, &mut m, &physics, h);
                        let ends = m.decel * h >= m.speed || m.spin_decel * h >= d.spin.abs();
                        advance_quiet(&mut d, &mut m, h);
                        ends
                    })
                    .unwrap()
            })
            .min()
            .unwrap();
        assert!(quiet > 100, "{quiet}");
        for n in [1, 2, 7, quiet / 2, quiet] {
            let mut lanes = start.map(|(d, m)| Spinner::load(&d, &m));
            assert_eq!(glide_spinners(&mut lanes, &physics, h, n), n);
            for (lane, &(d0, m0)) in lanes.iter().zip(&start) {
                let (mut d, mut m) = (d0, m0);
                lane.store(&mut d, &mut m);
                let (mut d_ref, mut m_ref) = (d0, m0);
                glide_spinning(&mut d_ref, &mut m_ref, &physics, h, n);
                assert_eq!(bits(&d, &m), bits(&d_ref, &m_ref), "n = {n}");
            }
        }
    }
}
