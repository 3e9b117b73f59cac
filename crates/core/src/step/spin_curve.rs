//! A disc that slides and spins, in closed form: the master curves of the Farkas equations,
//! which let a quiet run of any length cost one lookup.
//!
//! # Model
//!
//! With `v` the sliding speed, `u = R |w|` the rim speed, `s = v + u`, `x = v / s`,
//! `a = mu g` and `k = m R^2 / I = 2` (a uniform disc), the friction of `friction.rs`
//! (factors `F`, `T` of `farkas.rs`, functions of `x` alone) drives
//!
//! ```text
//! dv/dt = -a F(x),    du/dt = -a k T(x)
//! ds/dt = -a c(x),              c   = F + k T
//! dx/dt = -(a / s) Phi(x),      Phi = (1 - x) F - k x T
//! ```
//!
//! `Phi` vanishes at `x*` (`eps* = x* / (1 - x*) = 0.6530`, Farkas et al.'s ratio), is
//! positive above it and negative below, so `x` moves monotonically towards `x*` and never
//! crosses it: the two sides are two *branches*. The equations are homogeneous (`F`, `T`
//! depend on the ratio only): if `(v, u)(t)` is a solution, so is `lambda (v, u)(t / lambda)`.
//! Hence `d ln s / dx = c / Phi` depends on `x` alone, and on each branch every trajectory is
//! a scaled copy of one *master curve* `s = lambda S(xi)`, `xi = |x - x*|`:
//!
//! ```text
//! S(xi)     = exp ∫ c / |Phi| dxi            (any normalisation)
//! tau(xi)   = ∫_0^xi S / |Phi| dxi'          a times the time to rest on the master curve
//! sigma(xi) = ∫_0^xi x S^2 / |Phi| dxi'      a times the distance to rest
//! ```
//!
//! A disc at `(v, u)` has `lambda = s / S(xi)`; it comes to rest, sliding and spinning
//! stopping together as Farkas et al. find, after `lambda tau(xi) / a`, having slid
//! `lambda^2 sigma(xi) / a`. After a time `t < lambda tau(xi) / a` it is at
//! `xi' = tau^-1(tau(xi) - a t / lambda)` with `s' = lambda S(xi')`, `v' = x' s'`,
//! `u' = (1 - x') s'`, and has slid `lambda^2 (sigma(xi) - sigma(xi')) / a`: no stepping.
//!
//! # Tables
//!
//! Built once per branch, on its first use, with `+ - * /` only (so the same bits on every
//! machine), from the step's own tabulated factors ([`FrictionTable`]): per branch, nodes
//! from `xi = 1e-7` (the innermost, where `S = 1`, `tau = S / c`, `sigma = x S^2 / (2 c)`:
//! near `x*` the sum speed falls at the constant rate `a c(x*)`) out to within `1e-6` of `x
//! = 1` (no spin) or `x = 0` (no slide), spaced 2 % of the distance to `x*` and 1 % of the
//! distance to the outer end, whichever is less, and at most `2e-3` apart (the curves are
//! powers of those distances near the ends: `S ~ xi^1.63` near `x*`, `S ~ (1 - x)^-2` near
//! pure sliding, `S ~ x^-4` and `sigma ~ x^-8` near pure spinning): about 2,000 nodes a
//! branch, built in under a millisecond. `S`, `tau`, `sigma` are integrated node to node by
//! classical Runge-Kutta and interpolated between nodes by cubic Hermite polynomials with
//! the equations' own slopes at the nodes; the inverse `tau^-1` solves that cubic by three
//! Newton steps, so a lookup and its inverse agree to rounding. Measured against the
//! equations integrated in time with a 1 us step (tests below): speeds, spins and distances
//! agree to about 1e-7 relative.
//!
//! A state outside the tables (within `1e-7` of `x*`, or `1e-6` of pure sliding or pure
//! spinning) is left to the per-step model; so is every state when `a = 0`.

use crate::step::farkas::{FrictionTable, friction_table, rk4_step};
use crate::step::state::OnCurve;

/// Innermost node's distance `xi = |x - x*|` from the fixed ratio.
const XI_INNER: f64 = 1e-7;
/// How close to pure sliding (`x = 1`) or pure spinning (`x = 0`) the tables reach.
const OUTER_GAP: f64 = 1e-6;
/// Node spacing, relative to the distance to the nearer end of the branch.
const REL_STEP: f64 = 0.02;
/// Largest node spacing in `x` (four intervals of the friction table).
const MAX_STEP: f64 = 2e-3;
/// Newton steps of the inverse lookup.
const NEWTON_STEPS: usize = 3;

/// `k = m R^2 / I` of a uniform disc.
const K: f64 = 2.0;

/// One interval of a branch: where it starts, its width, and the cubic of each curve in
/// `t = (xi - xi0) / h`, coefficients ascending.
#[derive(Clone, Copy, Debug)]
struct Cell {
    xi0: f64,
    h: f64,
    inv_h: f64,
    s: [f64; 4],
    tau: [f64; 4],
    sigma: [f64; 4],
}

#[inline(always)]
fn cubic(c: &[f64; 4], t: f64) -> f64 {
    c[0] + t * (c[1] + t * (c[2] + t * c[3]))
}

#[inline(always)]
fn cubic_slope(c: &[f64; 4], t: f64) -> f64 {
    c[1] + t * (2.0 * c[2] + t * (3.0 * c[3]))
}

/// One side of `x*`: `above` is the sliding-dominated side (`x > x*`).
#[derive(Debug)]
struct Branch {
    /// Node `xi`, ascending (one more than the cells).
    xi: Vec<f64>,
    /// Node `tau`, ascending.
    tau: Vec<f64>,
    /// The outer end of the branch's `xi` (`1 - x*` above, `x*` below).
    end: f64,
    /// Where to look in `xi` (by [`xi_key`]) and `tau` (by itself) for a value.
    xi_index: LogIndex,
    tau_index: LogIndex,
    cells: Vec<Cell>,
}

/// Bits of an `f64` below a [`LogIndex`] bucket: a bucket is one 64th of an octave.
const BUCKET_SHIFT: u32 = 46;

/// A search index over ascending nodes by a *key*, a positive function of the value that
/// never decreases as the value grows (`tau` itself; `xi / (end - xi)` for `xi`, which
/// spreads both the nodes crowding towards `x*` and those crowding towards the outer end
/// in proportion to their distance). The bits of a positive `f64` ascend with it, so the
/// key's top bits (exponent and six bits of mantissa) name a bucket a 64th of an octave
/// wide, and `first[b]` counts the nodes in the buckets below `b`. A value's node is then
/// searched only among the nodes of its key's bucket (none to a few: the nodes are a few
/// percent apart in key) instead of the whole branch, whose binary search was a chain of a
/// dozen dependent loads and most of a lookup's time. A node in a lower bucket is below
/// the value and one in a higher bucket above it (the key never decreases, in floating
/// point too: its operations are monotone), so the count is the full search's, and the
/// lookup lands on the same cell and the same bits.
#[derive(Debug)]
struct LogIndex {
    /// Bucket of the first node.
    base: u64,
    /// `first[b]`: nodes whose key's bucket is below `base + b`, up to the bucket after
    /// the last node's (which counts them all).
    first: Vec<u16>,
}

impl LogIndex {
    fn new(keys: &[f64]) -> LogIndex {
        assert!(keys[0] > 0.0 && keys.windows(2).all(|w| w[0] <= w[1]));
        assert!(keys.len() < usize::from(u16::MAX));
        let bucket = |x: f64| x.to_bits() >> BUCKET_SHIFT;
        let base = bucket(keys[0]);
        let last = bucket(keys[keys.len() - 1]);
        // One pass: `below` walks the keys as the buckets rise.
        let mut below = 0;
        let first = (base..=last + 1)
            .map(|b| {
                while below < keys.len() && bucket(keys[below]) < b {
                    below += 1;
                }
                below as u16
            })
            .collect();
        LogIndex { base, first }
    }

    /// `nodes.partition_point(|&n| n <= x)`, for the `nodes` the index was built on and
    /// `key` the key of `x` (positive, or anything above the last node's key).
    #[inline(always)]
    fn count_at_most(&self, nodes: &[f64], x: f64, key: f64) -> usize {
        let bucket = key.to_bits() >> BUCKET_SHIFT;
        if bucket < self.base {
            return 0;
        }
        let b = bucket - self.base;
        if b >= self.first.len() as u64 - 1 {
            return nodes.len();
        }
        let (lo, hi) = (
            usize::from(self.first[b as usize]),
            usize::from(self.first[b as usize + 1]),
        );
        lo + nodes[lo..hi].partition_point(|&n| n <= x)
    }
}

/// The key of `xi` in [`Branch::xi_index`] on a branch whose outer end is `end`:
/// `xi / (end - xi)`, about `xi` near `x*` and the inverse distance to the outer end near
/// it.
#[inline(always)]
fn xi_key(xi: f64, end: f64) -> f64 {
    xi / (end - xi)
}

/// The master curves of both branches and the fixed ratio.
#[derive(Debug)]
pub(crate) struct SpinCurves {
    /// `x*`, the root of `Phi` (bisection on the tabulated factors).
    x_star: f64,
    /// `1 - x*`.
    y_star: f64,
    /// The branches, each built on its first use ([`SpinCurves::branch`]): a run of
    /// shots that never leaves one side of `x*` (opening shots, whose discs pick up
    /// little spin from the pegs, stay sliding-dominated) builds only that one, half the
    /// tables' start-up.
    below: std::sync::OnceLock<Branch>,
    above: std::sync::OnceLock<Branch>,
}

/// The tables, built on first use.
pub(crate) fn spin_curves() -> &'static SpinCurves {
    static CURVES: std::sync::OnceLock<SpinCurves> = std::sync::OnceLock::new();
    CURVES.get_or_init(SpinCurves::build)
}

impl SpinCurves {
    fn build() -> SpinCurves {
        let table = friction_table();
        let phi = |x: f64| {
            let (f, t) = table.factors(x, 1.0 - x);
            (1.0 - x) * f - K * x * t
        };
        // Phi(0) < 0 < Phi(1 - ...): bisection to the last bit.
        let (mut lo, mut hi) = (0.25_f64, 0.55_f64);
        while hi - lo > 0.0 {
            let mid = 0.5 * (lo + hi);
            if mid <= lo || mid >= hi {
                break;
            }
            if phi(mid) < 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let x_star = lo;
        let y_star = 1.0 - x_star;
        SpinCurves {
            x_star,
            y_star,
            below: std::sync::OnceLock::new(),
            above: std::sync::OnceLock::new(),
        }
    }

    /// The sliding-dominated branch (`above`, `x > x*`) or the other, built on first use.
    #[inline]
    fn branch(&self, above: bool) -> &Branch {
        let (cell, x_star, y_star) = (
            if above { &self.above } else { &self.below },
            self.x_star,
            self.y_star,
        );
        cell.get_or_init(|| Branch::build(friction_table(), x_star, y_star, above))
    }

    /// The disc's place on its master curve, or `None` when the tables do not cover its
    /// ratio (then the per-step model takes it). `v > 0`, `u > 0`, `a > 0`.
    #[inline]
    pub(crate) fn locate(&self, v: f64, u: f64, a: f64) -> Option<OnCurve> {
        let s = v + u;
        let x = v / s;
        let above = x > self.x_star;
        let xi = if above {
            x - self.x_star
        } else {
            self.x_star - x
        };
        let b = self.branch(above);
        if !(xi >= b.xi[0] && xi <= b.xi[b.xi.len() - 1]) {
            return None;
        }
        let k = (b.xi_index.count_at_most(&b.xi, xi, xi_key(xi, b.end)) - 1).min(b.cells.len() - 1);
        let c = &b.cells[k];
        let t = (xi - c.xi0) * c.inv_h;
        let big_s = cubic(&c.s, t);
        let lambda = s / big_s;
        Some(OnCurve {
            above,
            lambda,
            tau: cubic(&c.tau, t),
            sigma: cubic(&c.sigma, t),
            time_scale: a / lambda,
            dist_scale: lambda * lambda / a,
        })
    }

    /// The state a time `t` after the anchor `c` (`t` less than [`OnCurve::life`]):
    /// sliding speed, rim speed and distance slid since the anchor.
    #[inline]
    pub(crate) fn after(&self, c: &OnCurve, t: f64) -> (f64, f64, f64) {
        let target = c.tau - c.time_scale * t;
        let b = self.branch(c.above);
        let (xi, big_s, sigma) = b.at_tau(target);
        let s = c.lambda * big_s;
        let (v, u) = if c.above {
            ((self.x_star + xi) * s, (self.y_star - xi) * s)
        } else {
            ((self.x_star - xi) * s, (self.y_star + xi) * s)
        };
        (v, u, c.dist_scale * (c.sigma - sigma))
    }
}

impl Branch {
    /// Integrates the branch outwards from `XI_INNER` (see the module doc).
    fn build(table: &FrictionTable, x_star: f64, y_star: f64, above: bool) -> Branch {
        // (v, u) with v + u = 1 at distance xi from x* on this branch.
        let vu = |xi: f64| {
            if above {
                (x_star + xi, y_star - xi)
            } else {
                (x_star - xi, y_star + xi)
            }
        };
        // d(S, tau, sigma)/dxi.
        let slope = |xi: f64, y: [f64; 3]| {
            let (v, u) = vu(xi);
            let (f, t) = table.factors(v, u);
            let phi = (u * f - K * v * t).abs();
            let s = y[0];
            [s * (f + K * t) / phi, s / phi, v * s * s / phi]
        };
        let end = if above { y_star } else { x_star };
        let mut xi = XI_INNER;
        let (v0, u0) = vu(xi);
        let (f0, t0) = table.factors(v0, u0);
        let c0 = f0 + K * t0;
        let mut y = [1.0, 1.0 / c0, v0 / (2.0 * c0)];
        let mut k1 = slope(xi, y);
        let mut nodes = vec![(xi, y, k1)];
        while end - xi > OUTER_GAP {
            let h = (REL_STEP * xi.min(0.5 * (end - xi))).min(MAX_STEP);
            y = rk4_step(slope, xi, y, k1, h);
            xi += h;
            k1 = slope(xi, y);
            nodes.push((xi, y, k1));
        }
        let cells = nodes
            .windows(2)
            .map(|w| {
                let ((x0, y0, m0), (x1, y1, m1)) = (w[0], w[1]);
                let h = x1 - x0;
                let hermite = |j: usize| {
                    let (p0, p1, d0, d1) = (y0[j], y1[j], h * m0[j], h * m1[j]);
                    [
                        p0,
                        d0,
                        3.0 * (p1 - p0) - 2.0 * d0 - d1,
                        2.0 * (p0 - p1) + d0 + d1,
                    ]
                };
                Cell {
                    xi0: x0,
                    h,
                    inv_h: 1.0 / h,
                    s: hermite(0),
                    tau: hermite(1),
                    sigma: hermite(2),
                }
            })
            .collect();
        let xi: Vec<f64> = nodes.iter().map(|n| n.0).collect();
        let tau: Vec<f64> = nodes.iter().map(|n| n.1[1]).collect();
        let keys: Vec<f64> = xi.iter().map(|&x| xi_key(x, end)).collect();
        Branch {
            end,
            xi_index: LogIndex::new(&keys),
            tau_index: LogIndex::new(&tau),
            xi,
            tau,
            cells,
        }
    }

    /// `(xi, S, sigma)` where the master time to rest is `target` (`0 < target` at most
    /// the outermost node's). Below the innermost node the curve is continued as the
    /// straight run to rest it tends to: `xi` fixed, `S` in proportion to `tau`, `sigma` to
    /// its square.
    #[inline]
    fn at_tau(&self, target: f64) -> (f64, f64, f64) {
        let first = &self.cells[0];
        if target < self.tau[0] {
            let r = target / self.tau[0];
            return (self.xi[0], first.s[0] * r, first.sigma[0] * r * r);
        }
        let k =
            (self.tau_index.count_at_most(&self.tau, target, target) - 1).min(self.cells.len() - 1);
        let c = &self.cells[k];
        // Newton on the cell's cubic from the chord's estimate.
        let mut t = (target - self.tau[k]) / (self.tau[k + 1] - self.tau[k]);
        for _ in 0..NEWTON_STEPS {
            t -= (cubic(&c.tau, t) - target) / cubic_slope(&c.tau, t);
            t = t.clamp(0.0, 1.0);
        }
        (c.xi0 + t * c.h, cubic(&c.s, t), cubic(&c.sigma, t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::step::farkas::integrate_slide_and_spin;

    #[test]
    fn branches_cover_their_sides_and_rise_outwards() {
        let c = spin_curves();
        assert!((c.x_star / c.y_star - 0.653_001_789_205_6).abs() < 1e-5);
        for b in [c.branch(false), c.branch(true)] {
            assert!(
                b.cells.len() > 500 && b.cells.len() < 4000,
                "{}",
                b.cells.len()
            );
            for w in b.tau.windows(2) {
                assert!(w[1] > w[0]);
            }
            for cell in &b.cells {
                assert!(cell.s[0] > 0.0 && cell.sigma[0] > 0.0);
            }
        }
    }

    /// Speeds, spins and distances along the master curves match the equations integrated in
    /// time with a fine step, from sliding-dominated to spinning-dominated starts, at a
    /// tenth, half and nine tenths of the disc's life.
    #[test]
    fn the_curves_solve_the_farkas_equations() {
        let a = 0.12 * 9.81;
        let curves = spin_curves();
        let mut worst = 0.0_f64;
        for (v0, u0) in [
            (2.0, 0.01),
            (1.5, 0.3),
            (0.8, 0.5),
            (0.4, 0.6),
            (0.3, 0.46),
            (0.05, 0.9),
            (0.001, 0.5),
        ] {
            let c = curves.locate(v0, u0, a).expect("on the tables");
            let life = c.life();
            let total = curves.after(&c, life * (1.0 - 1e-12)).2;
            for frac in [0.1, 0.5, 0.9] {
                let t = frac * life;
                let (v, u, d) = curves.after(&c, t);
                let (vr, ur, dr) = integrate_slide_and_spin(v0, u0, a, t, 200_000);
                let err = ((v - vr).abs() / vr)
                    .max((u - ur).abs() / ur)
                    .max((d - dr).abs() / total);
                worst = worst.max(err);
                assert!(
                    err < 2e-7,
                    "({v0}, {u0}) at {frac}: {v} {u} {d} vs {vr} {ur} {dr}"
                );
            }
        }
        eprintln!("worst relative error {worst:.2e}");
    }

    /// A lookup and its inverse agree: the state a zero time after the anchor is the
    /// anchor's, to rounding, across both branches and near their ends; ratios the tables
    /// leave out are refused.
    #[test]
    fn after_no_time_the_disc_is_where_it_was() {
        let a = 1.2;
        let curves = spin_curves();
        for x in [
            1e-5,
            0.001,
            0.2,
            0.39,
            0.395039,
            0.395041,
            0.4,
            0.7,
            0.999,
            1.0 - 1e-5,
        ] {
            for s in [1e-3, 0.7, 9.0] {
                let (v0, u0) = (x * s, (1.0 - x) * s);
                let c = curves.locate(v0, u0, a).unwrap();
                let (v, u, slid) = curves.after(&c, 0.0);
                // x itself is known to 1e-16 absolute: near 0 or 1 that bounds v or u.
                let tol = 1e-15 / x.min(1.0 - x) + 1e-13;
                assert!((v - v0).abs() <= tol * v0, "x {x} s {s}: v {v} vs {v0}");
                assert!((u - u0).abs() <= tol * u0, "x {x} s {s}: u {u} vs {u0}");
                assert!(slid.abs() <= 1e-12 * s * s / a, "x {x} s {s}: slid {slid}");
            }
        }
        for (v, u) in [(1.0, 1e-9), (1e-9, 1.0), (0.6530017892056, 1.0)] {
            assert_eq!(curves.locate(v, u, a), None, "({v}, {u})");
        }
    }

    /// The bucket index finds what a binary search over the whole branch finds, for every
    /// node, the values just either side of it, between nodes, and outside the tables:
    /// the lookups land on the same cell, so on the same bits.
    #[test]
    fn the_index_finds_what_the_full_search_finds() {
        let c = spin_curves();
        for b in [c.branch(false), c.branch(true)] {
            for (nodes, index, is_xi) in [(&b.xi, &b.xi_index, true), (&b.tau, &b.tau_index, false)]
            {
                let mut probes = vec![nodes[0] * 0.5, nodes[nodes.len() - 1], 1e-300];
                if !is_xi {
                    probes.extend([nodes[nodes.len() - 1] * 2.0, 1e300]);
                }
                for w in nodes.windows(2) {
                    let (lo, hi) = (w[0], w[1]);
                    probes.extend([
                        lo,
                        f64::from_bits(lo.to_bits() - 1),
                        f64::from_bits(lo.to_bits() + 1),
                        0.5 * (lo + hi),
                        lo + 0.01 * (hi - lo),
                    ]);
                }
                for x in probes {
                    assert_eq!(
                        index.count_at_most(nodes, x, if is_xi { xi_key(x, b.end) } else { x }),
                        nodes.partition_point(|&n| n <= x),
                        "{x:e}"
                    );
                }
                let widest = index.first.windows(2).map(|w| w[1] - w[0]).max().unwrap();
                eprintln!(
                    "{} buckets, at most {widest} nodes in one",
                    index.first.len()
                );
            }
        }
    }
}
