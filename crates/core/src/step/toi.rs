//! Times of impact inside a step. Every body is a circle, so contacts are roots of low-degree
//! polynomials, solved with + - * / and sqrt only.
//!
//! - A moving disc against anything that does not move (a peg, a disc at rest, the hole's
//!   edge, the surface's edge) is solved along the disc's straight path: friction never
//!   turns a flat disc (Farkas et al. 2003), so the contact is where the ray
//!   `p + u s` first meets a circle, `s^2 + 2 (u.d) s + |d|^2 - sigma^2 = 0`, whatever the
//!   speed profile. The distance `s` becomes a time through the closed-form slide
//!   `s = v t - a t^2 / 2`. Both are exact.
//! - Two moving discs follow `p + v t - a u t^2 / 2` each, so their squared distance is a
//!   quartic in `t`. It is isolated with Bernstein subdivision (the convex-hull property
//!   proves an interval root-free) and refined by bisection; when both decelerations are
//!   equal (no friction, or the same slide) it is the quadratic, solved in closed form.
//!
//! Quadratic roots use the cancellation-free form `t = c / (-b + sqrt(b^2 - a c))`.

use glam::DVec2;

/// Distance along a unit direction `u` from a point at offset `d` (= point - circle
/// centre) to the first contact with a circle of radius `sigma` that it lies outside of.
/// `None` if the ray misses or points away.
pub fn toi_path_enters_circle(d: DVec2, u: DVec2, sigma: f64) -> Option<f64> {
    let b = u.dot(d);
    if b >= 0.0 {
        return None;
    }
    let c = d.length_squared() - sigma * sigma;
    if c <= 0.0 {
        return Some(0.0);
    }
    let disc = b * b - c;
    if disc < 0.0 {
        return None;
    }
    Some(c / (-b + disc.sqrt()))
}

/// Distance along a unit direction `u` from a point at offset `d` inside (or on) a circle of
/// radius `r` to where it leaves the circle. Always a root: a ray from inside leaves.
pub fn toi_path_leaves_circle(d: DVec2, u: DVec2, r: f64) -> f64 {
    let b = u.dot(d);
    let c = d.length_squared() - r * r; // <= 0 inside, up to rounding
    let root = (b * b - c).max(0.0).sqrt();
    if b > 0.0 {
        // Heading outward: -b + root loses digits; use the conjugate form.
        if c >= 0.0 { 0.0 } else { -c / (b + root) }
    } else {
        -b + root
    }
}

/// Time to slide a distance `s` from speed `v` under constant deceleration `a`
/// (`s = v t - a t^2 / 2`), or `None` if the disc stops first.
pub fn time_to_travel(s: f64, v: f64, a: f64) -> Option<f64> {
    if s <= 0.0 {
        return Some(0.0);
    }
    if v <= 0.0 {
        return None;
    }
    let disc = v * v - 2.0 * a * s;
    if disc < -1e-12 * v * v {
        return None;
    }
    // A contact exactly where the disc stops may round `disc` a hair below zero.
    Some(2.0 * s / (v + disc.max(0.0).sqrt()))
}

/// Earliest `t` in `(0, t_max]` at which two moving discs touch, given their relative
/// position `p` (B - A, with `|p| > sigma`), relative velocity `v` and half relative
/// acceleration `q`: the first root of `|p + v t + q t^2|^2 = sigma^2`.
pub fn toi_disc_disc(p: DVec2, v: DVec2, q: DVec2, sigma: f64, t_max: f64) -> Option<f64> {
    let c0 = p.length_squared() - sigma * sigma;
    if q == DVec2::ZERO {
        // Quadratic |p + v t|^2 = sigma^2.
        let a = v.length_squared();
        let b = p.dot(v);
        if b >= 0.0 {
            return None;
        }
        let disc = b * b - a * c0;
        if disc < 0.0 {
            return None;
        }
        let t = c0 / (-b + disc.sqrt());
        return (t <= t_max).then_some(t);
    }
    // Power form D(t) = c0 + c1 t + c2 t^2 + c3 t^3 + c4 t^4, then x = t / t_max.
    let c1 = 2.0 * p.dot(v);
    let c2 = v.length_squared() + 2.0 * p.dot(q);
    let c3 = 2.0 * v.dot(q);
    let c4 = q.length_squared();
    let poly = [c0, c1, c2, c3, c4];
    let (t1, t2) = (t_max, t_max * t_max);
    let (k1, k2, k3, k4) = (c1 * t1, c2 * t2, c3 * t2 * t1, c4 * t2 * t2);
    // Bernstein coefficients of degree 4 on [0, 1]: b_i = sum_k C(i,k)/C(4,k) c_k.
    let bern = [
        c0,
        c0 + 0.25 * k1,
        c0 + 0.5 * k1 + k2 / 6.0,
        c0 + 0.75 * k1 + 0.5 * k2 + 0.25 * k3,
        c0 + k1 + k2 + k3 + k4,
    ];
    let mut budget = 256;
    let (lo, hi) = first_bracket(bern, 0.0, 1.0, 0, &mut budget)?;
    Some(bisect(&poly, lo * t_max, hi * t_max))
}

/// Depth-first, left-first search for the first sub-interval of `[lo, hi]` on which the
/// Bernstein polynomial `b` goes from positive to non-positive. Returns the bracket.
fn first_bracket(
    b: [f64; 5],
    lo: f64,
    hi: f64,
    depth: u32,
    budget: &mut u32,
) -> Option<(f64, f64)> {
    if b.iter().all(|&x| x > 0.0) {
        return None; // convex hull above zero: no root here
    }
    if b[4] <= 0.0 && (b.windows(2).all(|w| w[1] <= w[0]) || depth >= 40) {
        return Some((lo, hi)); // monotone with a sign change: one root, bracketed
    }
    if *budget == 0 || depth >= 40 {
        // Grazing within rounding: no sign change was found; treat as a miss.
        return None;
    }
    *budget -= 1;
    let (left, right) = de_casteljau_split(b);
    let mid = 0.5 * (lo + hi);
    first_bracket(left, lo, mid, depth + 1, budget)
        .or_else(|| first_bracket(right, mid, hi, depth + 1, budget))
}

/// Splits a degree-4 Bernstein polynomial at x = 1/2 into its two halves.
fn de_casteljau_split(b: [f64; 5]) -> ([f64; 5], [f64; 5]) {
    let mut w = b;
    let mut left = [0.0; 5];
    let mut right = [0.0; 5];
    left[0] = w[0];
    right[4] = w[4];
    for r in 1..5 {
        for i in 0..5 - r {
            w[i] = 0.5 * (w[i] + w[i + 1]);
        }
        left[r] = w[0];
        right[4 - r] = w[4 - r];
    }
    (left, right)
}

/// Bisection on the power form within `[lo, hi]` where `D(lo) > 0 >= D(hi)`; returns a time
/// at which `D` is still positive (just before contact), so no overlap is created.
fn bisect(c: &[f64; 5], mut lo: f64, mut hi: f64) -> f64 {
    let eval = |t: f64| c[0] + t * (c[1] + t * (c[2] + t * (c[3] + t * c[4])));
    if eval(lo) <= 0.0 {
        return lo;
    }
    for _ in 0..80 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if eval(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quartic_agrees_with_the_quadratic_when_deceleration_vanishes() {
        let p = DVec2::new(0.1, 0.01);
        let v = DVec2::new(-1.0, 0.0);
        let sigma = 0.03;
        let exact = toi_disc_disc(p, v, DVec2::ZERO, sigma, 1.0).unwrap();
        let tiny = toi_disc_disc(p, v, DVec2::new(1e-300, 0.0), sigma, 1.0).unwrap();
        assert!((exact - tiny).abs() < 1e-15, "{exact} {tiny}");
    }

    #[test]
    fn quartic_root_is_a_root_and_the_first_one() {
        // A decelerating approach: p + v t + q t^2 with q opposing v.
        let p = DVec2::new(0.05, 0.002);
        let v = DVec2::new(-0.5, 0.0);
        let q = DVec2::new(0.59, 0.0);
        let sigma = 0.03175;
        let t = toi_disc_disc(p, v, q, sigma, 0.2).unwrap();
        let d = (p + v * t + q * t * t).length();
        assert!((d - sigma).abs() < 1e-12, "distance at contact {d}");
        // Nothing earlier: sample the interval.
        for k in 0..1000 {
            let s = t * k as f64 / 1000.0;
            assert!((p + v * s + q * s * s).length() > sigma - 1e-12);
        }
    }

    #[test]
    fn decelerating_disc_that_stops_short_never_touches() {
        // Closing at 0.1 m/s with 1.18 m/s^2 relative deceleration stops after 4.2 mm.
        let p = DVec2::new(0.0363, 0.0);
        let v = DVec2::new(-0.1, 0.0);
        let q = DVec2::new(0.59, 0.0);
        assert_eq!(toi_disc_disc(p, v, q, 0.03175, 0.08), None);
    }

    #[test]
    fn path_roots_are_exact() {
        let s = toi_path_enters_circle(DVec2::new(-0.2, 0.0), DVec2::X, 0.02).unwrap();
        assert!((s - 0.18).abs() < 1e-15);
        let out = toi_path_leaves_circle(DVec2::new(0.1, 0.0), DVec2::X, 0.3);
        assert!((out - 0.2).abs() < 1e-15);
        let t = time_to_travel(0.5 * 1.0 * 1.0 / 1.18, 1.0, 1.18).unwrap();
        assert!((t - 1.0 / 1.18).abs() < 1e-7);
    }
}
