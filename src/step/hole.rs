//! The sunken 20 hole: a documented, speed-dependent capture model.
//!
//! The hole is a cup only ~9% wider than a disc. While a disc's centre is over it, the
//! disc is unsupported on that side and its centre drops under gravity, `z(tau) = g tau^2 / 2`
//! after `tau` seconds over the hole. The model:
//!
//! 1. **Stops over the hole: falls in.** A disc whose slide ends with its centre over the
//!    hole is captured at that instant.
//! 2. **Lingers: falls in.** Once the centre has been over the hole for
//!    `t_fall = sqrt(2 h_fall / g)` (h_fall = `hole_fall_depth`, half the disc's thickness
//!    by default: 31 ms), it has dropped far enough to tip in, and is captured.
//! 3. **Crosses fast: rides over, losing speed at the far lip.** A disc whose centre leaves
//!    the hole after `tau < t_fall` has dropped `z = g tau^2 / 2` and must climb back over
//!    the far lip: it keeps its direction and its speed becomes `sqrt(v^2 - 2 g z)`. If that
//!    energy is not there (`v^2 <= 2 g z`), it falls in.
//! 4. **Leaner: stays.** A disc whose centre never passes over the hole's edge is never
//!    captured, however far it overhangs.
//!
//! So a disc crossing the middle of the hole (a 35 mm chord) is captured below about
//! 1.1 m/s and rides over above it. Captured discs leave the simulation at once and are
//! logged as `hole` events. The model uses only + - * / and sqrt.

use crate::disc::{DiscId, DiscState};
use crate::step::friction::set_decel;
use crate::world::World;

impl World {
    /// Seconds a centre may stay over the hole before the disc drops in: `sqrt(2 h / g)`.
    pub(crate) fn hole_fall_time(&self) -> f64 {
        self.hole_fall_time
    }

    /// Rule 3: the centre leaves the hole at absolute time `now`.
    pub(crate) fn hole_exit(&mut self, i: DiscId, now: f64, rem: f64) {
        let Some(enter) = self.motion[i].hole_enter.take() else {
            return;
        };
        let g = self.physics.gravity;
        let tau = now - enter;
        let drop = 0.5 * g * tau * tau;
        let d = &mut self.discs[i];
        let v2 = d.vel.length_squared();
        let left = v2 - 2.0 * g * drop;
        if left <= 0.0 {
            self.capture(i, now);
            return;
        }
        d.vel *= (left / v2).sqrt();
        crate::step::friction::sync(&self.discs[i], &mut self.motion[i]);
        self.motion[i].clear = f64::NEG_INFINITY;
        set_decel(&self.discs[i], &mut self.motion[i], &self.physics, rem);
    }

    /// Rules 1 and 2: disc `i` drops into the hole at absolute time `now`.
    pub(crate) fn capture(&mut self, i: DiscId, now: f64) {
        self.discs[i].vel = glam::DVec2::ZERO;
        self.discs[i].spin = 0.0;
        self.motion[i].speed = 0.0;
        self.depart(i, now, DiscState::Hole);
    }
}
