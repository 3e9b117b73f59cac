//! Deterministic elementary functions for the flick model and the noise sampler: `sin`,
//! `cos` and `ln` built from `+ - * /` only, so they give the same bits on every machine.
//!
//! The platform's `sin`, `cos` and `ln` come from its maths library, which differs between
//! operating systems, C libraries and versions in the last bit; a Monte Carlo study that
//! used them would not be reproducible across machines. These are the classic fdlibm
//! algorithms (Sun Microsystems, 1993; as kept in FreeBSD's `msun`), which are accurate to
//! less than one unit in the last place:
//! - [`sin_cos`]: reduction to `r` in `[-pi/4, pi/4]` by the nearest multiple of `pi/2`
//!   with a three-part `pi/2` (Cody-Waite; exact products while `|x| < 2^19 pi/2`), then the
//!   degree-13 and degree-14 minimax kernels `__kernel_sin` and `__kernel_cos` with the
//!   reduction's tail.
//! - [`ln`]: `x = 2^k m` with `m` in `[sqrt(2)/2, sqrt(2))` read from the bits
//!   ([`f64::to_bits`]), then `ln m = 2 atanh(s)`, `s = (m - 1)/(m + 1)`, through the
//!   degree-14 minimax polynomial of `__ieee754_log`, plus `k ln 2` in two parts.
//!
//! No `mul_add`: a fused multiply-add rounds once where these formulas round twice, and
//! not every target has one. Rust never contracts `a * b + c` on its own.

/// `pi/2` split into three parts of 33 bits each with their tails (fdlibm `rem_pio2`).
/// Every constant is given by its bits, as in fdlibm's comments; the decimal is a reminder.
const PIO2_1: f64 = f64::from_bits(0x3FF9_21FB_5440_0000); // 1.5707963267341256
const PIO2_1T: f64 = f64::from_bits(0x3DD0_B461_1A62_6331); // 6.077100506506192e-11
const PIO2_2: f64 = f64::from_bits(0x3DD0_B461_1A60_0000); // 6.077100506303966e-11
const PIO2_2T: f64 = f64::from_bits(0x3BA3_198A_2E03_7073); // 2.0222662487959506e-21
const PIO2_3: f64 = f64::from_bits(0x3BA3_198A_2E00_0000); // 2.0222662487111665e-21
const PIO2_3T: f64 = f64::from_bits(0x397B_839A_2520_49C1); // 8.4784276603689e-32

/// `__kernel_sin` coefficients.
const S1: f64 = f64::from_bits(0xBFC5_5555_5555_5549); // -0.16666666666666632
const S2: f64 = f64::from_bits(0x3F81_1111_1110_F8A6); // 0.00833333333332249
const S3: f64 = f64::from_bits(0xBF2A_01A0_19C1_61D5); // -0.0001984126982985795
const S4: f64 = f64::from_bits(0x3EC7_1DE3_57B1_FE7D); // 2.7557313707070068e-06
const S5: f64 = f64::from_bits(0xBE5A_E5E6_8A2B_9CEB); // -2.5050760253406863e-08
const S6: f64 = f64::from_bits(0x3DE5_D93A_5ACF_D57C); // 1.58969099521155e-10

/// `__kernel_cos` coefficients.
const C1: f64 = f64::from_bits(0x3FA5_5555_5555_554C); // 0.0416666666666666
const C2: f64 = f64::from_bits(0xBF56_C16C_16C1_5177); // -0.001388888888887411
const C3: f64 = f64::from_bits(0x3EFA_01A0_19CB_1590); // 2.480158728947673e-05
const C4: f64 = f64::from_bits(0xBE92_7E4F_809C_52AD); // -2.7557314351390663e-07
const C5: f64 = f64::from_bits(0x3E21_EE9E_BDB4_B1C4); // 2.087572321298175e-09
const C6: f64 = f64::from_bits(0xBDA8_FAE9_BE88_38D4); // -1.1359647557788195e-11

/// `__ieee754_log` coefficients.
const LG1: f64 = f64::from_bits(0x3FE5_5555_5555_5593); // 0.6666666666666735
const LG2: f64 = f64::from_bits(0x3FD9_9999_9997_FA04); // 0.3999999999940942
const LG3: f64 = f64::from_bits(0x3FD2_4924_9422_9359); // 0.2857142874366239
const LG4: f64 = f64::from_bits(0x3FCC_71C5_1D8E_78AF); // 0.22222198432149784
const LG5: f64 = f64::from_bits(0x3FC7_4664_96CB_03DE); // 0.1818357216161805
const LG6: f64 = f64::from_bits(0x3FC3_9A09_D078_C69F); // 0.15313837699209373
const LG7: f64 = f64::from_bits(0x3FC2_F112_DF3E_5244); // 0.14798198605116586

/// `ln 2` in two parts: `LN2_HI` has 32 bits, so `k * LN2_HI` is exact for any exponent.
const LN2_HI: f64 = f64::from_bits(0x3FE6_2E42_FEE0_0000); // 0.6931471803691238
const LN2_LO: f64 = f64::from_bits(0x3DEA_39EF_3579_3C76); // 1.9082149292705877e-10

/// `2 / pi`, for the nearest multiple of `pi/2`.
const TWO_OVER_PI: f64 = std::f64::consts::FRAC_2_PI;

/// `sin(x + y)` for `|x + y| <= pi/4`, `y` a tail much smaller than `x`.
fn kernel_sin(x: f64, y: f64) -> f64 {
    let z = x * x;
    let w = z * z;
    let r = S2 + z * (S3 + z * S4) + z * w * (S5 + z * S6);
    let v = z * x;
    x - ((z * (0.5 * y - v * r) - y) - v * S1)
}

/// `cos(x + y)` for `|x + y| <= pi/4`, `y` a tail much smaller than `x`.
fn kernel_cos(x: f64, y: f64) -> f64 {
    let z = x * x;
    let w = z * z;
    let r = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
    let hz = 0.5 * z;
    let w = 1.0 - hz;
    w + (((1.0 - w) - hz) + (z * r - x * y))
}

/// Biased binary exponent of `v`.
fn exponent(v: f64) -> i64 {
    ((v.to_bits() >> 52) & 0x7ff) as i64
}

/// `x - n pi/2 = y0 + y1` for the nearest integer `n`, and `n mod 4` (fdlibm's
/// `__ieee754_rem_pio2`, medium case: a second and a third stage only when the first ones
/// cancelled many bits).
fn reduce(x: f64) -> (f64, f64, u8) {
    let n = (x * TWO_OVER_PI).round();
    let mut r = x - n * PIO2_1; // exact while |n| < 2^20
    let mut w = n * PIO2_1T;
    let mut y0 = r - w;
    let j = exponent(x);
    if j - exponent(y0) > 16 {
        let t = r;
        w = n * PIO2_2;
        r = t - w;
        w = n * PIO2_2T - ((t - r) - w);
        y0 = r - w;
        if j - exponent(y0) > 49 {
            let t = r;
            w = n * PIO2_3;
            r = t - w;
            w = n * PIO2_3T - ((t - r) - w);
            y0 = r - w;
        }
    }
    let y1 = (r - y0) - w;
    (y0, y1, n.rem_euclid(4.0) as u8)
}

/// `(sin x, cos x)`, deterministic. Within one unit in the last place of the true values
/// for `|x| <= 1e5` (angles are validated far below that); NaN for infinite or NaN `x`.
pub fn sin_cos(x: f64) -> (f64, f64) {
    if !x.is_finite() {
        return (f64::NAN, f64::NAN);
    }
    if x.abs() <= std::f64::consts::FRAC_PI_4 {
        return (kernel_sin(x, 0.0), kernel_cos(x, 0.0));
    }
    let (y0, y1, quadrant) = reduce(x);
    let (s, c) = (kernel_sin(y0, y1), kernel_cos(y0, y1));
    match quadrant {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    }
}

/// `sin x`, deterministic (see [`sin_cos`]).
pub fn sin(x: f64) -> f64 {
    sin_cos(x).0
}

/// `cos x`, deterministic (see [`sin_cos`]).
pub fn cos(x: f64) -> f64 {
    sin_cos(x).1
}

/// Natural logarithm, deterministic, within one unit in the last place. `ln 0 = -inf`,
/// `ln x = NaN` for `x < 0` or NaN, `ln inf = inf`; subnormals are handled.
pub fn ln(x: f64) -> f64 {
    if x.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        return f64::NEG_INFINITY;
    }
    if x == f64::INFINITY {
        return x;
    }
    let mut x = x;
    let mut k: i64 = 0;
    if x < f64::MIN_POSITIVE {
        x *= 18_014_398_509_481_984.0; // 2^54, exact: makes a subnormal normal
        k = -54;
    }
    let bits = x.to_bits();
    k += ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mut m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    if m >= std::f64::consts::SQRT_2 {
        m *= 0.5; // exact
        k += 1;
    }
    let f = m - 1.0; // exact (Sterbenz)
    let s = f / (2.0 + f);
    let z = s * s;
    let w = z * z;
    let t1 = w * (LG2 + w * (LG4 + w * LG6));
    let t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
    let r = t2 + t1;
    let hfsq = 0.5 * f * f;
    let dk = k as f64;
    dk * LN2_HI - ((hfsq - (s * (hfsq + r) + dk * LN2_LO)) - f)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Relative difference, measured against `max(|want|, floor)`.
    fn rel(got: f64, want: f64, floor: f64) -> f64 {
        (got - want).abs() / want.abs().max(floor)
    }

    /// A deterministic sweep: a regular grid plus a multiplicative walk over many scales.
    fn sweep(lo: f64, hi: f64, n: usize) -> impl Iterator<Item = f64> {
        (0..=n).map(move |k| lo + (hi - lo) * k as f64 / n as f64)
    }

    #[test]
    fn sin_and_cos_match_std_to_1e_15() {
        let mut worst: f64 = 0.0;
        let xs = sweep(-20.0, 20.0, 400_001)
            .chain(sweep(-1e-3, 1e-3, 2001))
            .chain(
                (0..2000)
                    .map(|k| 1e-300 * 1.5f64.powi(k % 1700) * if k % 2 == 0 { 1.0 } else { -1.0 }),
            )
            .chain(sweep(-1e5, 1e5, 100_001));
        for x in xs {
            let (s, c) = sin_cos(x);
            // The reduction is exact to ~1e-30, so even near a zero the error is relative.
            let es = rel(s, x.sin(), 1e-300);
            let ec = rel(c, x.cos(), 1e-300);
            assert!(es <= 1e-15, "sin({x:e}) = {s:e}, std {:e}", x.sin());
            assert!(ec <= 1e-15, "cos({x:e}) = {c:e}, std {:e}", x.cos());
            worst = worst.max(es).max(ec);
        }
        assert!(worst < 1e-15, "worst {worst:e}");
    }

    #[test]
    fn sin_and_cos_are_exact_where_they_must_be() {
        assert_eq!(sin_cos(0.0), (0.0, 1.0));
        assert!(sin(0.0).is_sign_positive());
        assert!(sin(-0.0).is_sign_negative() && sin(-0.0) == 0.0);
        assert_eq!(sin(1e-20), 1e-20);
        assert_eq!(cos(1e-20), 1.0);
        assert!(sin(f64::INFINITY).is_nan() && cos(f64::NAN).is_nan());
        for k in 0..64 {
            let x = k as f64 * 0.125;
            assert_eq!(sin(-x), -sin(x), "odd at {x}");
            assert_eq!(cos(-x), cos(x), "even at {x}");
        }
    }

    #[test]
    fn ln_matches_std_to_1e_15() {
        let mut worst: f64 = 0.0;
        let xs = sweep(1e-6, 4.0, 400_001)
            .chain(sweep(0.999, 1.001, 20_001))
            .chain((0..4000).map(|k| 1.17f64.powi(k - 2000)))
            .chain([
                f64::MIN_POSITIVE,
                4.9e-324,
                1e-310,
                f64::MAX,
                0.5,
                2.0,
                1.0 - 1e-16,
            ]);
        for x in xs {
            let want = x.ln();
            let got = ln(x);
            let e = rel(got, want, 1e-300);
            assert!(e <= 1e-15, "ln({x:e}) = {got:e}, std {want:e}");
            worst = worst.max(e);
        }
        assert!(worst < 1e-15, "worst {worst:e}");
    }

    #[test]
    fn ln_special_values() {
        assert_eq!(ln(1.0), 0.0);
        assert_eq!(ln(0.0), f64::NEG_INFINITY);
        assert_eq!(ln(f64::INFINITY), f64::INFINITY);
        assert!(ln(-1.0).is_nan() && ln(f64::NAN).is_nan());
        assert_eq!(ln(2.0), std::f64::consts::LN_2);
    }
}
