//! Sliding + spinning friction factors of a flat uniform disc.
//!
//! Reference: Z. Farkas, G. Bartels, T. Unger and D. E. Wolf, "Frictional
//! coupling between sliding and spinning motion", Phys. Rev. Lett. **90**,
//! 248302 (2003).
//!
//! # Model
//!
//! A flat disc of radius `R` and mass `m` lies on a plane with uniform contact
//! pressure `m g / (pi R^2)`. Its centre slides with velocity `v` (taken along
//! x) and it spins with angular velocity `w`. Every area element feels Coulomb
//! friction `mu dN` opposite to its local slip velocity `v + w x r`.
//! Integrating over the disc, with `eps = v / (R w)`:
//!
//! * friction force  = `mu m g F(eps)`, antiparallel to `v`;
//! * friction torque = `mu m g R T(eps)`, opposing `w`;
//!
//! ```text
//! F(eps) = (1/pi) ∫_0^1 ∫_0^2pi (eps - rho sin phi) / s(rho, phi)       rho dphi drho
//! T(eps) = (1/pi) ∫_0^1 ∫_0^2pi rho (rho - eps sin phi) / s(rho, phi)   rho dphi drho
//! s(rho, phi) = sqrt(eps^2 - 2 eps rho sin phi + rho^2)
//! ```
//!
//! Integrating the angle out (`∫ s dphi = 4 (eps + rho) E(m)`, `m = 4 eps rho /
//! (eps + rho)^2`) gives closed forms in Gauss hypergeometric functions, which
//! `tools/farkas_fit.py` uses as its reference after checking them against
//! direct quadrature of the double integrals above (agreement <= 1e-11):
//!
//! ```text
//! eps <= 1:  F = eps 2F1(-1/2, 1/2; 2; eps^2),   T = (2/3) 2F1(-3/2, 1/2; 1; eps^2)
//! eps >= 1:  F = 2F1(-1/2, 1/2; 2; eps^-2),      T = 2F1(1/2, 1/2; 3; eps^-2) / (4 eps)
//! ```
//!
//! Hence `F(0) = 0`, `F(1) = 8/(3 pi)`, `F(inf) = 1`, `F(eps) = eps F(1/eps)`;
//! `T(0) = 2/3`, `T(1) = 8/(9 pi)`, and the series
//! `F = eps - eps^3/8 - eps^5/64 - ...`, `F = 1 - 1/(8 eps^2) - 1/(64 eps^4) - ...`,
//! `T = 2/3 - eps^2/2 + 3 eps^4/32 + ...`, `T = 1/(4 eps) + 1/(48 eps^3) + ...`.
//! Both functions have a weak `(1 - eps^2)^2 ln|1 - eps^2|` singularity at
//! `eps = 1`; it is what limits how fast any single rational approximation
//! converges.
//!
//! For a uniform disc (`I = m R^2 / 2`) the decelerations are `a = mu g F` and
//! `alpha = 2 mu g T / R`, so `eps` is driven to the fixed point
//! `eps* = 0.6530017892056` of `F(eps) = 2 eps T(eps)`, where translation and
//! rotation stop together.
//!
//! # Approximation
//!
//! [`friction_factors`] takes `(v, u)` with `u = R |w|` instead of `eps`, so no
//! division by zero occurs for `w = 0` or `v = 0`. With `s = v + u`,
//! `x = v / s`, `y = u / s` (so `eps = x / y`) and `d = (v - u) / s = x - y`:
//!
//! ```text
//! F ≈ x         - x y H_F(d),   H_F = AF(d) / BF(d)   (degrees 11 / 12)
//! T ≈ (2/3) y   - x y H_T(d),   H_T = AT(d) / BT(d)   (degrees 11 / 12)
//! ```
//!
//! Multiplied out this is a ratio of two homogeneous polynomials of degree 13
//! in `(v, u)`, i.e. an ordinary rational function of `eps`, evaluated with
//! `+ - * /` only (Horner, no `mul_add`, no `sqrt`). The structure makes the
//! limits exact in floating point whatever the coefficients: `u = 0` gives
//! `x = 1, y = 0` and exactly `(1.0, 0.0)`; `v = 0` gives `x = 0, y = 1` and
//! exactly `(0.0, 2.0 / 3.0)`. The polynomials are in the centred variable
//! `d` because the best approximants put conjugate pole pairs close to
//! `d = 0` (`eps = 1`, the singular point); in that basis the f64 Horner
//! evaluation agrees with exact evaluation of the same rational to 2.2e-16,
//! whereas a monomial basis in `x` or `y` loses about six digits there.
//! The code groups the same expression differently on the two sides of
//! `eps = 1` (`F = x (1 - y H_F)`, `T = 2/3 - x (2/3 + y H_T)` for `v <= u`;
//! `F = 1 - y (1 + x H_F)`, `T = y (2/3 - x H_T)` otherwise): algebraically
//! identical, but it forms the small quantities `1 - F` and `2/3 - T`
//! directly where they are small, so `F` and `T` stay monotone in f64 while
//! they saturate, and keep full relative accuracy where they vanish. The
//! results are finally passed through `min(1.0)` / `min(2/3)`, which only
//! guards against a last-ulp overshoot of the exact bounds.
//!
//! The step itself calls [`tabulated_friction_factors`]: the same rational sampled once at
//! 2049 nodes uniform in `d` and interpolated linearly (adds at most 2e-6; limits exact).
//!
//! ## Origin of the coefficients
//!
//! All 50 numbers in `AF`, `BF`, `AT`, `BT` (below) are printed by
//! `tools/farkas_fit.py` (run with its defaults; needs numpy, scipy, mpmath)
//! and pasted verbatim. The script imposes linear equality constraints on
//! the coefficients and fits the rest:
//!
//! * `BF[12] = BT[12] = 1`: normalisation (monic denominators).
//! * `eps -> 0`: `H_F` matches its Taylor series in `x` to `O(x^4)`, so
//!   `F = eps - eps^3/8 + O(eps^5)` (slope `F'(0) = 1` exactly, via
//!   `H_F(-1) = 0`); `H_T` to `O(x^3)`, so `T = 2/3 - eps^2/2 + O(eps^4)`.
//! * `eps -> inf`: `H_F` matches its series in `y` to `O(y^4)`, so
//!   `F = 1 - 1/(8 eps^2) - 1/(64 eps^4) + O(eps^-5)` (via `H_F(1) = -1`);
//!   `H_T` to `O(y^3)`, so `T = 1/(4 eps) + 1/(48 eps^3) + O(eps^-4)`
//!   (via `H_T(1) = 5/12`).
//! * Interpolation of the exact `F` and `T` at the exact fixed point
//!   `eps* = 0.6530017892056`, so the approximation keeps that fixed point.
//! * The remaining free parameters (15 for `F`, 17 for `T`) minimise the
//!   maximum *relative* error of `F` and of `T` on ~4100 points in `x ∈ (0, 1)` (clustered around
//!   `eps = 1`), by a linearised Lawson / Sanathanan–Koerner iteration with
//!   the constraints eliminated through a null-space parametrisation; the
//!   result is rescaled to monic denominators. Denominator zeros are all
//!   complex (closest to the real axis: `d = 0.00058 ± 0.0191 i` for `BF`,
//!   `d = -0.0011 ± 0.0204 i` for `BT`), so there is no pole for real `eps`.
//!
//! Lower degrees trade accuracy for size (same constraints, worse max abs
//! error of `F` and `T`): 5/6 ≈ 2e-3, 7/8 ≈ 2.4e-4, 9/10 ≈ 5e-5,
//! 11/12 (this file) ≈ 1.3e-5 (`tools/farkas_fit.py --sweep`).
//!
//! ## Measured accuracy (against the exact closed forms, 30-digit reference)
//!
//! Over all of `eps ∈ [0, inf)` (≈ 104 000 points: 100 001 uniform in
//! `x = eps / (1 + eps) ∈ [0, 1]`, 4001 clustered around `eps = 1`, plus
//! `x` within 1e-12 of both ends), with the f64 evaluation used here:
//!
//! | factor | max abs error         | max rel error         |
//! |--------|-----------------------|-----------------------|
//! | `F`    | 1.31e-5 (eps ≈ 1.04)  | 1.52e-5 (eps ≈ 1.04)  |
//! | `T`    | 1.26e-5 (eps ≈ 0.986) | 4.35e-5 (eps ≈ 0.986) |
//!
//! At `eps = 1`: `F - 8/(3 pi) = -6.9e-6`, `T - 8/(9 pi) = +1.14e-5`.
//! `F` is strictly increasing and `T` strictly decreasing in `eps` (checked
//! on the derivative of the rational in exact arithmetic; the f64 values are
//! monotone on `eps = 10^(-15 .. 15)` in steps of 0.001 decade, where they
//! saturate at the ends), `0 <= F <= 1`, `0 <= T <= 2/3`.
//!
//! Fixed point of the approximation (`F = 2 eps T`, by bisection in f64):
//! `eps* = 0.6530017892055977`; the exact value is 0.65300178920559764
//! (difference 1e-16, because the fit interpolates the exact `F` and `T` there).

/// Numerator of `H_F(d)`, ascending powers of `d` (`AF[k]` multiplies `d^k`).
#[rustfmt::skip]
const AF: [f64; 12] = [
    -1.0188230759324273e-07,
    3.2679832451962385e-07,
    -0.00029883298423581347,
    6.1002127246431094e-05,
    -0.05391541065280454,
    -0.032068314319678014,
    -1.165446526138909,
    -1.043102206715249,
    -3.6658666130872315,
    -3.7182691549830227,
    -1.4007038131711635,
    -1.4928529508242734,
];

/// Denominator of `H_F(d)`, ascending powers of `d`; monic (`BF[12] = 1` is the normalisation).
#[rustfmt::skip]
const BF: [f64; 13] = [
    7.301937279584417e-08,
    -3.0729350842335174e-07,
    0.00021560125791016352,
    -0.00026207902851994587,
    0.04086597472741282,
    -0.01780132988751562,
    1.061048012019863,
    -0.16567772479592097,
    5.317538163555571,
    -0.2697616941229987,
    5.671332510853165,
    -0.06503460447152706,
    1.0,
];

/// Numerator of `H_T(d)`, ascending powers of `d` (`AT[k]` multiplies `d^k`).
#[rustfmt::skip]
const AT: [f64; 12] = [
    6.8891501245945524e-09,
    1.3878715055991818e-07,
    1.81974379506018e-05,
    0.0002646457429724191,
    0.003602264110842041,
    0.040913354654490204,
    0.10207486123774683,
    0.8432622151142225,
    0.5308672515568589,
    2.707761529607258,
    0.4372790227952334,
    1.1256442089594232,
];

/// Denominator of `H_T(d)`, ascending powers of `d`; monic (`BT[12] = 1` is the normalisation).
#[rustfmt::skip]
const BT: [f64; 13] = [
    3.418606841167068e-08,
    3.3931628574064595e-07,
    8.997588791259403e-05,
    0.0004277974878201177,
    0.0182642970910652,
    0.04743757968963809,
    0.5639017279537932,
    0.7789557642856111,
    3.4972482058832615,
    2.308505333456119,
    4.603524361898159,
    1.081695055408183,
    1.0,
];

const TWO_THIRDS: f64 = 2.0 / 3.0;

/// Horner evaluation of `c[0] + c[1] t + ... + c[N-1] t^(N-1)` with separate
/// multiply and add (no fused multiply-add, so results match the fit script).
#[inline(always)]
fn horner<const N: usize>(c: &[f64; N], t: f64) -> f64 {
    let mut acc = c[N - 1];
    let mut k = N - 1;
    while k > 0 {
        k -= 1;
        acc = acc * t + c[k];
    }
    acc
}

/// Friction factors `(F, T)` of a sliding and spinning flat uniform disc.
///
/// * `v >= 0`: sliding speed of the centre;
/// * `u = R |w| >= 0`: rim speed of the spin; `v` and `u` must not both be
///   zero (debug builds panic, release builds return NaN; the caller handles
///   the resting disc).
///
/// Returns `F` (friction force in units of `mu m g`, against `v`) and `T`
/// (friction torque in units of `mu m g R`, against `w`) as functions of
/// `eps = v / u`. Homogeneous of degree 0 in `(v, u)`; `u = 0` gives exactly
/// `(1.0, 0.0)` and `v = 0` exactly `(0.0, 2.0 / 3.0)`. Max abs error
/// against the exact integrals ≈ 1.3e-5 (see the module documentation).
#[inline]
pub fn friction_factors(v: f64, u: f64) -> (f64, f64) {
    debug_assert!(
        v >= 0.0 && u >= 0.0 && v + u > 0.0,
        "friction_factors: need v >= 0, u >= 0, not both zero (v = {v}, u = {u})"
    );
    let s = v + u;
    let x = v / s;
    let y = u / s;
    let d = (v - u) / s;
    let hf = horner(&AF, d) / horner(&BF, d);
    let ht = horner(&AT, d) / horner(&BT, d);
    // Same rational function on both sides; the grouping only decides which
    // small quantity is formed directly, so that F and T stay monotone in
    // f64 as they saturate (T -> 2/3 for eps -> 0, F -> 1 for eps -> inf)
    // and keep full relative accuracy as they vanish.
    let (f, t) = if v <= u {
        (x * (1.0 - y * hf), TWO_THIRDS - x * (TWO_THIRDS + y * ht))
    } else {
        (1.0 - y * (1.0 + x * hf), y * (TWO_THIRDS - x * ht))
    };
    (f.min(1.0), t.min(TWO_THIRDS))
}

/// Intervals of the table [`tabulated_friction_factors`] interpolates, uniform in
/// `d = (v - u) / (v + u)` over `[-1, 1]`.
pub const TABLE_INTERVALS: usize = 2048;

/// The table [`tabulated_friction_factors`] interpolates: for each interval `k`, the node
/// values of [`friction_factors`] at `d_k = -1 + 2 k / TABLE_INTERVALS` and their
/// differences to the next node's (`df = f[k + 1] - f[k]`, rounded once when the table is
/// built, so the interpolation `f[k] + w df` is the same bits as `f[k] + w (f[k + 1] - f[k])`).
/// One interval's four numbers sit together: one cache line serves a lookup.
pub(crate) struct FrictionTable {
    nodes: Box<[Node; TABLE_INTERVALS]>,
}

#[derive(Clone, Copy, Default)]
struct Node {
    f: f64,
    df: f64,
    t: f64,
    dt: f64,
}

/// The table, built on first use with the same `+ - * /` arithmetic on every machine.
pub(crate) fn friction_table() -> &'static FrictionTable {
    static TABLE: std::sync::OnceLock<FrictionTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let n = TABLE_INTERVALS;
        // v + u = 1, v - u = d: the node's (v, u) in exact halves of [0, 1].
        let value = |k: usize| {
            let v = k as f64 / n as f64;
            friction_factors(v, 1.0 - v)
        };
        let mut nodes = Box::new([Node::default(); TABLE_INTERVALS]);
        let mut here = value(0);
        for (k, node) in nodes.iter_mut().enumerate() {
            let next = value(k + 1);
            *node = Node {
                f: here.0,
                df: next.0 - here.0,
                t: here.1,
                dt: next.1 - here.1,
            };
            here = next;
        }
        FrictionTable { nodes }
    })
}

impl FrictionTable {
    /// [`tabulated_friction_factors`] on this table (a caller in a loop fetches the
    /// table once).
    #[inline(always)]
    pub(crate) fn factors(&self, v: f64, u: f64) -> (f64, f64) {
        if u == 0.0 {
            return (1.0, 0.0);
        }
        if v == 0.0 {
            return (0.0, TWO_THIRDS);
        }
        self.interpolate(v, u)
    }

    /// [`FrictionTable::factors`] without the two limit tests: the same bits for any
    /// `v >= 0`, `u >= 0` but not both zero (tested). (At `u = 0`, `x = n` lands on the
    /// last node, `f[n - 1] + (1 - f[n - 1]) = 1` and `t[n - 1] + (0 - t[n - 1]) = 0`
    /// exactly; at `v = 0`, `x = 0` gives `f[0] + 0 = 0` and `t[0] + 0 = 2/3`.)
    #[inline(always)]
    fn interpolate(&self, v: f64, u: f64) -> (f64, f64) {
        let n = TABLE_INTERVALS;
        // Position in [0, n]: (d + 1) n / 2 with d + 1 = 2 v / (v + u).
        let x = v * n as f64 / (v + u);
        // x is in [0, n], so any integer conversion truncates it exactly. A signed 64-bit
        // one compiles to one instruction with its range checks (NaN, overflow) done beside
        // it, while an unsigned one clamps x first, in line: this lookup is most of a
        // per-step spinning disc's step (eventful steps, the last steps before rest),
        // whose time is the length of its chain of dependent operations, and the clamp
        // made that chain 7% longer.
        let k = (x as i64).min(n as i64 - 1);
        let w = x - k as f64;
        let node = &self.nodes[k as usize];
        (node.f + w * node.df, node.t + w * node.dt)
    }
}

/// [`friction_factors`] as the step uses it: linear interpolation in
/// `d = (v - u) / (v + u)` between [`TABLE_INTERVALS`] + 1 nodes of the rational, built
/// once with the same `+ - * /` arithmetic on every machine. One division and two
/// multiply-adds instead of the rational's four degree-12 polynomials and five divisions
/// (the rational made a crowded shot twice as slow). Interpolation adds at most 2e-6 to
/// the rational's error (tested), keeps F increasing and T decreasing (node values are
/// monotone and interpolation between them is too), and both limits stay exact.
#[inline]
pub fn tabulated_friction_factors(v: f64, u: f64) -> (f64, f64) {
    friction_table().factors(v, u)
}

/// A reference solution of the equations of motion of a disc that slides and spins, for
/// tests and experiments (the engine does not use it): `dv/dt = -mu g F`,
/// `d(R w)/dt = -2 mu g T` (a uniform disc) on the step's tabulated factors, integrated in
/// time by classical Runge-Kutta with `steps` equal steps from slide speed `v0` and rim
/// speed `u0 = R |w0|` over `t` seconds. Returns the slide speed, the rim speed and the
/// distance slid. With a step far below the time to rest (1 us for a flick) it agrees
/// with the engine's master curves (`step/spin_curve.rs`) to about 1e-7 relative.
pub fn integrate_slide_and_spin(
    v0: f64,
    u0: f64,
    mu_g: f64,
    t: f64,
    steps: usize,
) -> (f64, f64, f64) {
    let table = friction_table();
    let f = |_: f64, y: [f64; 3]| {
        let (ff, tt) = table.factors(y[0].max(0.0), y[1].max(0.0));
        [-mu_g * ff, -2.0 * mu_g * tt, y[0]]
    };
    let h = t / steps.max(1) as f64;
    let mut y = [v0, u0, 0.0];
    for _ in 0..steps.max(1) {
        y = rk4_step(f, 0.0, y, f(0.0, y), h);
    }
    (y[0], y[1], y[2])
}

/// One classical Runge-Kutta step of length `h` of `dy/dx = f(x, y)` (three components)
/// from `y` at `x`, whose slope there `k1` the caller has: the integrator of the master
/// curves (`step/spin_curve.rs`, which keeps each node's slope) and of
/// [`integrate_slide_and_spin`].
pub(crate) fn rk4_step(
    f: impl Fn(f64, [f64; 3]) -> [f64; 3],
    x: f64,
    y: [f64; 3],
    k1: [f64; 3],
    h: f64,
) -> [f64; 3] {
    let at = |k: [f64; 3], s: f64| [y[0] + s * k[0], y[1] + s * k[1], y[2] + s * k[2]];
    let k2 = f(x + 0.5 * h, at(k1, 0.5 * h));
    let k3 = f(x + 0.5 * h, at(k2, 0.5 * h));
    let k4 = f(x + h, at(k3, h));
    let mut out = y;
    for j in 0..3 {
        out[j] += h / 6.0 * (k1[j] + 2.0 * k2[j] + 2.0 * k3[j] + k4[j]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    /// Measured max abs errors (module docs), rounded up.
    const F_ABS_ERR: f64 = 1.4e-5;
    const T_ABS_ERR: f64 = 1.3e-5;
    /// Measured max relative errors, rounded up.
    const F_REL_ERR: f64 = 1.6e-5;
    const T_REL_ERR: f64 = 4.4e-5;
    /// Exact fixed point of F = 2 eps T (mpmath findroot on the closed forms).
    const EPS_STAR_EXACT: f64 = 0.653_001_789_205_597_6;

    fn at_eps(eps: f64) -> (f64, f64) {
        friction_factors(eps, 1.0)
    }

    #[test]
    fn exact_limits() {
        for &v in &[1.0, 1e-300, 5e-324, 0.37, 12.5, 1e300] {
            let (f, t) = friction_factors(v, 0.0);
            assert_eq!(f, 1.0, "u = 0, v = {v}");
            assert_eq!(t, 0.0, "u = 0, v = {v}");
        }
        for &u in &[1.0, 1e-300, 5e-324, 0.37, 12.5, 1e300] {
            let (f, t) = friction_factors(0.0, u);
            assert_eq!(f, 0.0, "v = 0, u = {u}");
            assert_eq!(t, 2.0 / 3.0, "v = 0, u = {u}");
        }
    }

    #[test]
    fn homogeneous_of_degree_zero() {
        for &eps in &[0.01, 0.3, 0.653, 1.0, 1.7, 40.0] {
            let (f0, t0) = at_eps(eps);
            for &k in &[1e-200, 1e-3, 7.0, 1e150] {
                let (f, t) = friction_factors(eps * k, k);
                assert!((f - f0).abs() <= 4e-16, "eps = {eps}, k = {k}: {f} vs {f0}");
                assert!((t - t0).abs() <= 4e-16, "eps = {eps}, k = {k}: {t} vs {t0}");
            }
        }
    }

    #[test]
    fn monotone_and_bounded() {
        // Uniform grid in x = eps / (1 + eps), i.e. all of eps in [0, inf).
        let n = 20_000;
        let (mut f_prev, mut t_prev) = friction_factors(0.0, 1.0);
        for i in 1..=n {
            let x = i as f64 / n as f64;
            let (f, t) = friction_factors(x, 1.0 - x);
            assert!(f > f_prev, "F not increasing at x = {x}: {f} <= {f_prev}");
            assert!(t < t_prev, "T not decreasing at x = {x}: {t} >= {t_prev}");
            assert!((0.0..=1.0).contains(&f) && (0.0..=2.0 / 3.0).contains(&t));
            f_prev = f;
            t_prev = t;
        }
        // Logarithmic grid in eps from 1e-12 to 1e12 (non-strict: F and T
        // saturate in f64 at the extremes).
        let (mut f_prev, mut t_prev) = at_eps(0.0);
        for i in 0..=2400 {
            let eps = 10f64.powf(-12.0 + i as f64 * 0.01);
            let (f, t) = at_eps(eps);
            assert!(
                f >= f_prev && t <= t_prev,
                "monotonicity broken at eps = {eps}"
            );
            assert!((0.0..=1.0).contains(&f) && (0.0..=2.0 / 3.0).contains(&t));
            f_prev = f;
            t_prev = t;
        }
    }

    #[test]
    fn values_at_eps_one() {
        let (f, t) = friction_factors(1.0, 1.0);
        assert!((f - 8.0 / (3.0 * PI)).abs() <= F_ABS_ERR, "F(1) = {f}");
        assert!((t - 8.0 / (9.0 * PI)).abs() <= T_ABS_ERR, "T(1) = {t}");
    }

    /// Exact (eps, F, T) from the hypergeometric closed forms, 17 digits
    /// (mpmath, see tools/farkas_fit.py).
    const REFERENCE: [(f64, f64, f64); 12] = [
        (0.05, 0.04998437011336863, 0.6654172528077843),
        (0.25, 0.2480313097609912, 0.6357861236083359),
        (0.5, 0.4838437556301258, 0.5477483547722014),
        (EPS_STAR_EXACT, 0.6160334132102593, 0.47169351094710493),
        (0.9, 0.795759308899949, 0.333211690733227),
        (1.0, 0.8488263631567751, 0.28294212105225836),
        (1.1, 0.8813538787583278, 0.248916504060644),
        (1.5, 0.9408193754988992, 0.17379810552523062),
        (2.0, 0.9676875112602517, 0.12780919828415108),
        (4.0, 0.9921252390439648, 0.0628313968234313),
        (10.0, 0.9987484325957123, 0.025020892172477348),
        (100.0, 0.9999874998437451, 0.002500020833919295),
    ];

    #[test]
    fn matches_exact_values_within_measured_error() {
        for &(eps, f_ex, t_ex) in &REFERENCE {
            let (f, t) = at_eps(eps);
            assert!(
                (f - f_ex).abs() <= F_ABS_ERR,
                "F({eps}) = {f}, exact {f_ex}"
            );
            assert!(
                (t - t_ex).abs() <= T_ABS_ERR,
                "T({eps}) = {t}, exact {t_ex}"
            );
            assert!(((f - f_ex) / f_ex).abs() <= F_REL_ERR, "F({eps}) rel");
            assert!(((t - t_ex) / t_ex).abs() <= T_REL_ERR, "T({eps}) rel");
        }
        // Interpolated exactly at eps*.
        let (f, t) = at_eps(EPS_STAR_EXACT);
        assert!((f - 0.6160334132102593).abs() < 1e-12, "F(eps*) = {f}");
        assert!((t - 0.47169351094710493).abs() < 1e-12, "T(eps*) = {t}");
    }

    #[test]
    fn asymptotics() {
        // F ~ eps - eps^3/8 and T ~ 2/3 - eps^2/2 for small eps.
        for &eps in &[1e-2, 1e-3, 1e-4] {
            let (f, t) = at_eps(eps);
            assert!((f / eps - 1.0).abs() <= 0.2 * eps * eps, "F/eps at {eps}");
            assert!(
                ((f - eps) / eps.powi(3) + 0.125).abs() < 0.05,
                "eps^3 term of F at {eps}"
            );
            assert!(
                ((2.0 / 3.0 - t) / (eps * eps) - 0.5).abs() < 1e-3,
                "T at {eps}"
            );
        }
        // F ~ 1 - 1/(8 eps^2) and T ~ 1/(4 eps) for large eps.
        for &eps in &[1e2, 1e3] {
            let (f, t) = at_eps(eps);
            assert!(
                ((1.0 - f) * 8.0 * eps * eps - 1.0).abs() < 1e-3,
                "1 - F at {eps}"
            );
            // 4 eps T = 1 + 1/(12 eps^2) + O(eps^-3)
            let r = t * 4.0 * eps - 1.0 - 1.0 / (12.0 * eps * eps);
            assert!(r.abs() < 0.05 / eps.powi(3), "T at {eps}: {r}");
        }
        let (_, t) = at_eps(1e8);
        assert!((t * 4e8 - 1.0).abs() < 1e-12, "T at 1e8");
    }

    #[test]
    fn fixed_point() {
        // g(eps) = F - 2 eps T: negative below eps*, positive above.
        let g = |eps: f64| {
            let (f, t) = at_eps(eps);
            f - 2.0 * eps * t
        };
        let (mut lo, mut hi) = (0.1, 2.0);
        assert!(g(lo) < 0.0 && g(hi) > 0.0);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if g(mid) < 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let eps_star = 0.5 * (lo + hi);
        assert!((eps_star - 0.653).abs() < 0.005, "eps* = {eps_star}");
        assert!(
            (eps_star - EPS_STAR_EXACT).abs() < 1e-12,
            "eps* = {eps_star}"
        );
    }

    #[test]
    fn the_table_follows_the_rational_within_2e_6_and_stays_monotone() {
        let (mut worst, mut prev) = (0.0f64, (0.0, TWO_THIRDS));
        for k in 0..=200_000 {
            let v = k as f64 / 200_000.0;
            let (u, exact) = (1.0 - v, friction_factors(v.max(1e-300), 1.0 - v));
            let (f, t) = tabulated_friction_factors(v, u);
            if k > 0 && k < 200_000 {
                worst = worst.max((f - exact.0).abs()).max((t - exact.1).abs());
            }
            assert!(f >= prev.0 && t <= prev.1, "not monotone at v = {v}");
            prev = (f, t);
        }
        assert!(worst < 2e-6, "table deviates by {worst:e}");
        assert_eq!(tabulated_friction_factors(0.3, 0.0), (1.0, 0.0));
        assert_eq!(tabulated_friction_factors(0.0, 0.3), (0.0, TWO_THIRDS));
        // Homogeneous: only the ratio matters.
        assert_eq!(
            tabulated_friction_factors(0.3, 0.7),
            tabulated_friction_factors(3.0, 7.0)
        );
    }

    /// `FrictionTable::interpolate` (the lookup without the limit tests) gives the bits of
    /// `FrictionTable::factors` wherever `v + u > 0` (the limits come out exact through
    /// it): at `u = 0` (also `u` lost to rounding next to `v`), at `v = 0`, on nodes and
    /// between.
    #[test]
    fn interpolation_without_the_limit_tests_is_the_same_bits() {
        let table = friction_table();
        let mut cases = vec![
            (1.0, 0.0),
            (0.3, 1e-300),
            (0.3, 1e-18),
            (0.0, 0.7),
            (0.0, 1e-300),
        ];
        for k in 0..=4096 {
            let v = k as f64 / 4096.0;
            cases.push((v, 1.0 - v));
            cases.push((v * 0.37, (1.0 - v) * 5.1));
            cases.push((v + 1e-9, 0.25));
        }
        for (v, u) in cases {
            let (a, b) = (table.interpolate(v, u), table.factors(v, u));
            assert_eq!(
                (a.0.to_bits(), a.1.to_bits()),
                (b.0.to_bits(), b.1.to_bits()),
                "v = {v}, u = {u}"
            );
        }
    }
}
