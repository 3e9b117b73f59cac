//! The sunken 20 hole: support from geometry, crossing from a 3D rigid-body study.
//!
//! ```text
//! w      = sqrt(r_h^2 - R^2)                          support window (7.27 mm tournament)
//! rest:  captured  <=>  d < w                         d = centre's distance from the hole's centre
//! cross: captured  <=>  v_in < v_c(b)                 b = |cross(p - c, u)|, v_in = speed on entering d = w
//! v_c(b) = v_tab(b * w_tab / w) * sqrt(w / w_tab)     v_tab: the table below, linear in b
//! ```
//!
//! **Support (exact geometry).** The hole (radius `r_h`) is barely wider than a disc
//! (radius `R`). A disc whose centre is at distance `d` from the hole's centre rests on
//! the crescent of it that overlaps the board; the rim's chord lies at
//! `(d^2 + r_h^2 - R^2) / (2 d)` from the hole's centre, so the centre of mass is over the
//! support exactly when `d >= w`. A disc at rest with `d >= w` stays, overhanging the hole
//! (a *hanger*: it scores where its centre puts it, the 15 zone on a tournament board);
//! one coming to rest with `d < w` tips in (a 20). The circle `d = w` is the *window*.
//!
//! **Crossing (3D study).** A moving disc is captured when its centre's straight path
//! enters the window with speed below `v_c(b)`, `b` the distance of the path's line from
//! the hole's centre, or when it comes to rest inside the window. Otherwise it crosses
//! with its speed and direction unchanged. The table `v_tab` comes from a 3D rigid-body
//! simulation (MuJoCo, stiff contacts) of the tournament hole (r_h 17.4625 mm, 6 mm deep)
//! and disc (R 15.875 mm, 9.525 mm thick, uniform, edges rounded 0.5 mm, friction 0.12):
//! for each `b` a disc was slid across the cup and its launch speed bisected to 1e-4 m/s
//! between "drops in" and "hops over the far rim". The numbers held within about 5 % over
//! contact stiffness, time step and rim friction 0.12-0.5; how sure they are: about
//! +-15 % on the centre line (a 1 mm edge rounding gives 0.91 m/s, a finer rim polygon
//! 1.27), about +-10 % off it (0.29-0.37 m/s at 4 mm over every variation tried); sharp
//! edges raise `v_c(0)` to about 1.5 m/s, a bouncier cup wall (restitution 0.5 rather than
//! about 0.1) lowers it to about 0.6 m/s. The shape is robust: a steep fall within the
//! first 2 mm off the centre line, then a slow one. The same study found the static
//! tipping threshold at 7.25-7.28 mm, `w` within the polygonal rim's resolution. Just
//! above `v_c` the study shows a narrow band of discs bouncing back off the far wall to
//! rest overhanging; the model counts them as crossing.
//!
//! **Other sizes.** Speeds scale with the square root of the window, impact parameters
//! with the window: `v_c(b) = v_tab(b w_tab / w) sqrt(w / w_tab)`, `w_tab` the
//! tournament window. On the tournament board and disc both ratios are exactly 1.
//!
//! **Window state.** Only + - * / and sqrt: the window crossing is the exact ray-circle
//! root of `toi.rs`, `b` is one cross product, the table lookup a linear interpolation.
//! On entering the window the disc is captured or flagged as inside (`Motion::in_window`);
//! leaving clears the flag; a stop with the centre inside the window captures. Impacts inside the window change nothing here: capture is decided on entering
//! and on stopping. A disc of radius `R >= r_h` has no window and never drops.
//!
//! Captured discs leave the simulation at once (where their centre is: on the window's
//! edge for a crossing capture) and are logged as `hole` events. This replaces an earlier
//! model (a 31 ms fall timer set by a `hole_fall_depth` key, and a speed loss at the far
//! lip) that captured any disc whose centre stopped over the hole and every crossing below
//! about 1.1 m/s whatever its line.

pub use crate::board::support_window;
use crate::disc::{DiscId, DiscState};
use crate::world::World;

/// Hole radius of the study the table comes from (tournament board), m.
pub const TABLE_HOLE_RADIUS: f64 = 0.017_462_5;
/// Disc radius of the study the table comes from (tournament disc), m.
pub const TABLE_DISC_RADIUS: f64 = 0.015_875;

/// Impact parameters of the table, m; the last point is the tournament window `w_tab`
/// (`table_window()`), where the critical speed is 0.
pub const TABLE_B: [f64; 10] = [
    0.0, 0.000_5, 0.001, 0.001_5, 0.002, 0.003, 0.004, 0.005, 0.006, 0.007,
];
/// Critical entry speeds at `TABLE_B` and then at `w_tab`, m/s.
pub const TABLE_V: [f64; 11] = [
    1.127, 0.941, 0.682, 0.534, 0.479, 0.343, 0.311, 0.278, 0.277, 0.193, 0.0,
];

/// The window of the study's hole and disc, `w_tab` (7.2748 mm).
pub fn table_window() -> f64 {
    support_window(TABLE_HOLE_RADIUS, TABLE_DISC_RADIUS)
}

/// Critical entry speed of the tournament table at impact parameter `b`, m/s: linear
/// between the points, 0 from `w_tab` on.
fn table_speed(b: f64, w_tab: f64) -> f64 {
    if b >= w_tab {
        return 0.0;
    }
    let mut k = 0;
    while k + 1 < TABLE_B.len() && b >= TABLE_B[k + 1] {
        k += 1;
    }
    let (b0, v0) = (TABLE_B[k], TABLE_V[k]);
    let b1 = if k + 1 < TABLE_B.len() {
        TABLE_B[k + 1]
    } else {
        w_tab
    };
    let v1 = TABLE_V[k + 1];
    v0 + (v1 - v0) * ((b - b0) / (b1 - b0))
}

/// Critical speed, on entering the window, of a disc whose path passes at `b` from the
/// hole's centre, for a window `w` (see the module doc): `v_tab(b w_tab / w) sqrt(w /
/// w_tab)`. 0 when `b >= w` or there is no window. Only + - * / and sqrt.
pub fn critical_speed(b: f64, w: f64) -> f64 {
    if w <= 0.0 || b >= w {
        return 0.0;
    }
    let w_tab = table_window();
    let ratio = w / w_tab; // exactly 1 on the tournament board and disc
    table_speed(b / ratio, w_tab) * ratio.sqrt()
}

impl World {
    /// Disc `i`'s centre enters its window at absolute time `now`: captured if slower than
    /// the critical speed of its line, otherwise flagged as inside.
    pub(crate) fn hole_enter(&mut self, i: DiscId, now: f64) {
        let (d, m) = (&self.discs[i], &self.motion[i]);
        // The hole's centre is the origin: b = |cross(p, u)|.
        let b = (d.pos.x * m.dir.y - d.pos.y * m.dir.x).abs();
        if m.speed < critical_speed(b, m.window) {
            self.capture(i, now);
        } else {
            self.motion[i].in_window = true;
            self.motion[i].clearance = f64::NEG_INFINITY;
        }
    }

    /// Disc `i`'s centre leaves its window: it rides on, unchanged.
    pub(crate) fn hole_exit(&mut self, i: DiscId) {
        self.motion[i].in_window = false;
        self.motion[i].clearance = f64::NEG_INFINITY;
    }

    /// Whether disc `i`, coming to rest, tips in: its centre is within its window. (The
    /// flag is not enough: a path grazing the window at `b = w` enters and leaves at one
    /// point.)
    pub(crate) fn tips_in(&self, i: DiscId) -> bool {
        let w = self.motion[i].window;
        self.discs[i].pos.length_squared() < w * w
    }

    /// Disc `i` drops into the hole at absolute time `now`.
    pub(crate) fn capture(&mut self, i: DiscId, now: f64) {
        self.discs[i].vel = glam::DVec2::ZERO;
        self.discs[i].spin = 0.0;
        self.motion[i].speed = 0.0;
        self.depart(i, now, DiscState::Hole);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_window_is_7_27_mm() {
        assert!(
            (table_window() - 0.007_274_8).abs() < 1e-7,
            "{}",
            table_window()
        );
    }

    #[test]
    fn critical_speed_is_the_table_at_its_points_and_zero_at_the_window() {
        let w = table_window();
        for k in 0..TABLE_B.len() {
            assert_eq!(critical_speed(TABLE_B[k], w), TABLE_V[k]);
        }
        assert_eq!(critical_speed(w, w), 0.0);
        assert!((critical_speed(0.5 * (0.007 + w), w) - 0.5 * 0.193).abs() < 1e-12);
    }

    #[test]
    fn critical_speed_falls_monotonically() {
        let w = table_window();
        let mut last = f64::INFINITY;
        for k in 0..=800 {
            let v = critical_speed(w * k as f64 / 800.0, w);
            assert!(v <= last, "rises at {k}");
            last = v;
        }
    }

    #[test]
    fn no_window_for_a_disc_as_wide_as_the_hole() {
        assert_eq!(support_window(0.01, 0.01), 0.0);
        assert_eq!(support_window(0.01, 0.02), 0.0);
        assert_eq!(critical_speed(0.0, 0.0), 0.0);
    }
}
