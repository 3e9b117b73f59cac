#!/usr/bin/env python3
"""Rational approximation of the Farkas et al. sliding+spinning friction factors.

Provenance script for `crates/core/src/step/farkas.rs` (the crate does NOT depend on it).
Requires: numpy, scipy, mpmath  (pip install numpy scipy mpmath).

Reference: Z. Farkas, G. Bartels, T. Unger, D. E. Wolf,
"Frictional coupling between sliding and spinning motion",
Phys. Rev. Lett. 90, 248302 (2003).

Model (flat uniform disc, radius R, uniform pressure, Coulomb friction on each
area element, centre velocity v along x, spin w, eps = v / (R w)):

  F(eps) = (1/pi) int_0^1 int_0^2pi (eps - r sin p) / s(r,p) r dp dr
  T(eps) = (1/pi) int_0^1 int_0^2pi r (r - eps sin p) / s(r,p) r dp dr
  s(r,p) = sqrt(eps^2 - 2 eps r sin p + r^2)

Force = mu m g F (against v), torque = mu m g R T (against w).

Exact reference used here (closed forms in Gauss hypergeometric functions;
derived by integrating the angular part, G = int_0^2pi s dp = 4 (eps+r) E(m),
dG/d eps and dG/d r, and verified below against direct quadrature of the
double integrals above):

  eps <= 1:  F = eps * 2F1(-1/2, 1/2; 2; eps^2)
             T = 2/3 * 2F1(-3/2, 1/2; 1; eps^2)
  eps >= 1:  F = 2F1(-1/2, 1/2; 2; eps^-2)            (so F(eps) = eps F(1/eps))
             T = 1/(4 eps) * 2F1(1/2, 1/2; 3; eps^-2)

Series used for the end-point constraints:
  F = eps - eps^3/8 - eps^5/64 - ...        (eps -> 0)
  F = 1 - 1/(8 eps^2) - 1/(64 eps^4) - ...  (eps -> inf)
  T = 2/3 - eps^2/2 + 3 eps^4/32 + ...      (eps -> 0)
  T = 1/(4 eps) + 1/(48 eps^3) + ...        (eps -> inf)
Both functions have a weak (1-eps^2)^2 log|1-eps^2| singularity at eps = 1,
which limits how fast any single rational approximation can converge.

Approximation form.  With u = R|w|, s = v + u, x = v/s, y = u/s (x + y = 1,
eps = x/y) and d = (v - u)/s = x - y in [-1, 1]:

  F ~ x       - x y HF(d),   HF = AF(d)/BF(d)
  T ~ (2/3) y - x y HT(d),   HT = AT(d)/BT(d)

Any rational function of eps with the right end values can be written this
way (HF = (1 - F/x)/y and HT = (2/3 - T/y)/x are rational in x).  The form
makes u = 0 (x=1, y=0) give exactly F = 1, T = 0 and v = 0 (x=0, y=1) give
exactly F = 0, T = 2/3 in floating point, whatever the coefficients are.  The
polynomials are evaluated in the centred variable d because the best
approximants put pairs of complex poles close to d = 0 (eps = 1, where the
exact functions have a (1-eps^2)^2 log|1-eps^2| singularity); in the d basis
the Horner evaluation stays accurate to ~1 ulp (checked below), whereas a
monomial basis in x or y loses ~6 digits there.

Coefficients: linear equality constraints on (A, B) enforce
  * the eps -> 0 and eps -> inf series of H (orders set by --kF / --kT),
  * interpolation of the exact F and T at the exact fixed point eps* of
    F = 2 eps T (so the approximation keeps eps* to ~1e-12),
  * a normalisation;
the remaining free coefficients minimise the maximum RELATIVE error of F (and
of T) on a dense x grid (linearised Lawson / Sanathanan-Koerner iteration with
the constraints eliminated through a null-space parametrisation).  The result
is finally rescaled so that BF and BT are monic (leading coefficient 1).

Usage:  python3 tools/farkas_fit.py            (prints report and Rust block)
"""
import argparse
from math import factorial

import mpmath as mp
import numpy as np
from scipy.integrate import quad
from scipy.linalg import null_space

mp.mp.dps = 30


# ---------------------------------------------------------------- exact values
def exact_eps(eps):
    """(F, T) for eps in [0, inf] as mpf, from the hypergeometric closed forms."""
    if eps == mp.inf:
        return mp.mpf(1), mp.mpf(0)
    e = mp.mpf(eps)
    if e <= 1:
        return e * mp.hyp2f1(-0.5, 0.5, 2, e * e), mp.mpf(2) / 3 * mp.hyp2f1(-1.5, 0.5, 1, e * e)
    z = 1 / (e * e)
    return mp.hyp2f1(-0.5, 0.5, 2, z), mp.hyp2f1(0.5, 0.5, 3, z) / (4 * e)


def exact_x(x):
    x = mp.mpf(x)
    if x == 0:
        return mp.mpf(0), mp.mpf(2) / 3
    if x == 1:
        return mp.mpf(1), mp.mpf(0)
    return exact_eps(x / (1 - x))


def direct_quadrature(eps):
    """Direct nested quadrature of the defining double integrals (check only)."""
    def inner(r, which):
        def g(p):
            s = np.sqrt(eps * eps - 2 * eps * r * np.sin(p) + r * r)
            if s == 0.0:
                return 0.0
            return ((eps - r * np.sin(p)) / s * r) if which == 0 else (r * (r - eps * np.sin(p)) / s * r)
        return quad(g, 0, 2 * np.pi, points=[np.pi / 2], epsabs=1e-13, limit=200)[0]
    pts = [eps] if 0 < eps < 1 else None
    F = quad(lambda r: inner(r, 0), 0, 1, points=pts, epsabs=1e-12, limit=200)[0] / np.pi
    T = quad(lambda r: inner(r, 1), 0, 1, points=pts, epsabs=1e-12, limit=200)[0] / np.pi
    return F, T


# ------------------------------------------------------------ power series
K = 14  # truncation order of all series


def _poch(a, k):
    r = 1.0
    for i in range(k):
        r *= a + i
    return r


def _hyp_series(a, b, c):
    return np.array([_poch(a, k) * _poch(b, k) / (_poch(c, k) * factorial(k)) for k in range(K)])


def _mul(a, b):
    return np.convolve(a, b)[:K]


def _compose(s, t):  # s(t(.)) with t[0] == 0
    out = np.zeros(K)
    p = np.zeros(K)
    p[0] = 1.0
    for c in s:
        out += c * p
        p = _mul(p, t)
    return out


_ONE_OVER_1M = np.ones(K)                          # 1/(1-t)
_T = np.zeros(K)
_T[1] = 1.0
_RATIO = _mul(_T, _ONE_OVER_1M)                    # t/(1-t): eps(x) or 1/eps(y)
_RATIO2 = _mul(_RATIO, _RATIO)
SF0 = _mul(_ONE_OVER_1M, _compose(_hyp_series(-0.5, 0.5, 2), _RATIO2))           # F/x   in x
SF1 = _compose(_hyp_series(-0.5, 0.5, 2), _RATIO2)                               # F     in y
ST0 = _mul(_ONE_OVER_1M, 2.0 / 3.0 * _compose(_hyp_series(-1.5, 0.5, 1), _RATIO2))  # T/y in x
ST1 = _mul(_ONE_OVER_1M, 0.25 * _compose(_hyp_series(0.5, 0.5, 3), _RATIO2))       # T/y in y


def _binom_shift(n):
    """M[k, i] = coefficient of t^k in (1 - t)^i."""
    M = np.zeros((K, n + 1))
    for i in range(n + 1):
        for k in range(min(i, K - 1) + 1):
            M[k, i] = (-1) ** k * factorial(i) / (factorial(k) * factorial(i - k))
    return M


def _times_series(S, n):
    """Columns: coefficients of S(t) * t^i, i = 0..n."""
    M = np.zeros((K, n + 1))
    for i in range(n + 1):
        M[i:, i] = S[:K - i]
    return M


# ------------------------------------------------------------------- model
# Target series of the rational parts H (see module docstring):
#   F = x - x y HF(d),  T = (2/3) y - x y HT(d),  d = x - y = 2x - 1
_Y1 = np.r_[1.0, -1.0, np.zeros(K - 2)]            # 1 - t
HF0 = _mul(np.r_[0.0, -SF0[1:]], _ONE_OVER_1M)      # (1 - F/x)/(1-x)        in x
HF1 = _mul(np.r_[((_Y1 - SF1)[1:]), 0.0], _ONE_OVER_1M)  # ((1-y) - F)/(y(1-y)) in y
HT0 = np.r_[(-ST0[1:]), 0.0]                        # (2/3 - T/y)/x          in x
HT1 = _mul(np.r_[2.0 / 3.0 - ST1[0], -ST1[1:]], _ONE_OVER_1M)  # (2/3 - T/y)/(1-y) in y


def _affine_power_matrix(a, b, n):
    """M[k, i] = coefficient of t^k in (a + b t)^i."""
    M = np.zeros((K, n + 1))
    for i in range(n + 1):
        for k in range(min(i, K - 1) + 1):
            M[k, i] = factorial(i) / (factorial(k) * factorial(i - k)) * a ** (i - k) * b ** k
    return M


class Model:
    """R(x) = c(x) + g(x) A(d)/B(d), d = 2x - 1, g = -x y, with
    kind 'F': c = x;   kind 'T': c = (2/3) y.
    theta = [a_0..a_na, b_0..b_nb] (ascending powers of d), b_0 = 1.
    k0 / k1: number of terms of the H series matched at eps -> 0 / eps -> inf.
    interp: list of (x, exact value) interpolation conditions.
    """

    def __init__(self, kind, na, nb, k0, k1, interp=()):
        self.kind, self.na, self.nb, self.k0, self.k1 = kind, na, nb, k0, k1
        N = na + nb + 2
        rows, rhs, why = [], [], []

        def add(row, r, w):
            rows.append(row)
            rhs.append(r)
            why.append(w)
        add(np.eye(N)[na + 1], 1.0, "b0 = 1 (normalisation)")
        S0, S1 = (HF0, HF1) if kind == 'F' else (HT0, HT1)
        # eps -> 0 : d = -1 + 2x ;  A(d) - S0(x) B(d) = O(x^k0)
        Ma, Mb = _affine_power_matrix(-1.0, 2.0, na), _affine_power_matrix(-1.0, 2.0, nb)
        MbS = np.array([np.convolve(Mb[:, j], S0)[:K] for j in range(nb + 1)]).T
        A0 = np.hstack([Ma, -MbS])
        for k in range(k0):
            add(A0[k], 0.0, f"eps->0 series of H{kind}, x^{k}")
        # eps -> inf : d = 1 - 2y ;  A(d) - S1(y) B(d) = O(y^k1)
        Ma, Mb = _affine_power_matrix(1.0, -2.0, na), _affine_power_matrix(1.0, -2.0, nb)
        MbS = np.array([np.convolve(Mb[:, j], S1)[:K] for j in range(nb + 1)]).T
        A1 = np.hstack([Ma, -MbS])
        for k in range(k1):
            add(A1[k], 0.0, f"eps->inf series of H{kind}, y^{k}")
        for (xi, fi) in interp:
            c, g = self.cg(xi)
            h = (fi - c) / g
            d = 2 * xi - 1
            add(np.r_[d ** np.arange(na + 1), -h * d ** np.arange(nb + 1)], 0.0,
                f"interpolate exact value at eps = {xi / (1 - xi):.10f}")
        self.A, self.b, self.why = np.array(rows), np.array(rhs), why
        self.th0 = np.linalg.lstsq(self.A, self.b, rcond=None)[0]
        if not np.allclose(self.A @ self.th0, self.b, atol=1e-12):
            raise ValueError("inconsistent constraints")
        self.Z = null_space(self.A)

    def cg(self, x):
        c = x if self.kind == 'F' else 2.0 / 3.0 * (1 - x)
        return c, -x * (1 - x)

    def split(self, th):
        return th[: self.na + 1], th[self.na + 1:]

    def __call__(self, th, x):
        a, b = self.split(th)
        d = 2 * x - 1
        c, g = self.cg(x)
        return c + g * np.polyval(a[::-1], d) / np.polyval(b[::-1], d)

    def B(self, th, x):
        return np.polyval(self.split(th)[1][::-1], 2 * x - 1)

    def project(self, th):
        """Minimal change of theta that satisfies the constraints to rounding."""
        return th + np.linalg.lstsq(self.A, self.b - self.A @ th, rcond=None)[0]


def lawson_fit(model, f, x, w, iters=400):
    """Linearised weighted LS of g A - (f - c) B = B (R - f) (divided by the
    previous B) + Lawson weight updates towards the minimax of w (R - f).
    Keeps the best iterate whose denominator has no zero on [0, 1]."""
    d = 2 * x - 1
    c, g = model.cg(x)
    Va = np.vander(d, model.na + 1, increasing=True)
    Vb = np.vander(d, model.nb + 1, increasing=True)
    Lin = np.hstack([g[:, None] * Va, -(f - c)[:, None] * Vb])
    LZ, L0 = Lin @ model.Z, Lin @ model.th0
    xc = np.linspace(0, 1, 20001)
    bprev = np.ones_like(x)
    lw = np.ones_like(x) / len(x)
    best = None
    for it in range(iters):
        W = np.sqrt(lw) * w / np.abs(bprev)
        z = np.linalg.lstsq(LZ * W[:, None], -L0 * W, rcond=None)[0]
        th = model.th0 + model.Z @ z
        bprev = model.B(th, x)
        err = w * (model(th, x) - f)
        me = np.max(np.abs(err))
        bc = model.B(th, xc)
        if (np.all(bc > 0) or np.all(bc < 0)) and (best is None or me < best[0]):
            best = (me, th.copy())
        if it >= 3:
            lw = lw * np.abs(err)
            lw /= lw.sum()
    return best


# ------------------------------------------ float64 evaluation exactly as in Rust
def horner(c, t):
    acc = c[-1]
    for ci in reversed(c[:-1]):
        acc = acc * t + ci
    return acc


def rust_eval(AF, BF, AT, BT, v, u):
    s = v + u
    x = v / s
    y = u / s
    d = (v - u) / s
    hf = horner(AF, d) / horner(BF, d)
    ht = horner(AT, d) / horner(BT, d)
    # same grouping as the Rust code (keeps f64 monotonicity near saturation)
    if v <= u:
        F = x * (1.0 - y * hf)
        T = 2.0 / 3.0 - x * (2.0 / 3.0 + y * ht)
    else:
        F = 1.0 - y * (1.0 + x * hf)
        T = y * (2.0 / 3.0 - x * ht)
    return min(F, 1.0), min(T, 2.0 / 3.0)


def fmt(c):
    # shortest round-trip representation (what Rust also prints), one per line
    return ",\n".join(f"    {float(v)!r}" for v in c)


def fit_grid():
    """Fitting grid in x = eps/(1+eps): uniform + cubic clustering at x = 1/2
    (eps = 1, where the exact functions have their log singularity)."""
    s = np.linspace(-1, 1, 1201)
    xs = np.unique(np.concatenate([np.linspace(0, 1, 3001), 0.5 + 0.5 * np.sign(s) * np.abs(s) ** 3]))
    xs = xs[(xs > 0) & (xs < 1)]          # end points are exact by construction
    ex = np.array([[float(v) for v in exact_x(x)] for x in xs])
    return xs, ex[:, 0], ex[:, 1]


def build_and_fit(kind, na, nb, k0, k1, xs, f, interp):
    model = Model(kind, na, nb, k0, k1, interp)
    w = 1.0 / f                                    # minimax of the RELATIVE error
    best = lawson_fit(model, f, xs, w)
    if best is None:
        return model, None
    th = model.project(best[1])
    th = th / th[-1]                               # make B monic
    th[-1] = 1.0
    return model, th


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--naF", type=int, default=11, help="degree of numerator of HF")
    ap.add_argument("--naT", type=int, default=11, help="degree of numerator of HT")
    ap.add_argument("--kF", type=int, nargs=2, default=[4, 4], help="H_F series terms at eps->0, eps->inf")
    ap.add_argument("--kT", type=int, nargs=2, default=[3, 3], help="H_T series terms at eps->0, eps->inf")
    ap.add_argument("--no-fixed-point", action="store_true", help="do not interpolate at exact eps*")
    ap.add_argument("--check-quadrature", action="store_true")
    ap.add_argument("--sweep", action="store_true", help="only print fit-grid errors for a range of degrees")
    ap.add_argument("--ngrid", type=int, default=100001)
    a = ap.parse_args()

    # closed forms vs direct quadrature of the defining integrals
    if a.check_quadrature:
        for eps in [0.05, 0.3, 0.653, 1.0, 1.7, 6.0]:
            Fq, Tq = direct_quadrature(eps)
            Fe, Te = exact_eps(eps)
            print(f"# quad check eps={eps}: dF={Fq - float(Fe):.1e} dT={Tq - float(Te):.1e}")
    print(f"# checks: F(1)-8/(3pi)={float(exact_eps(1)[0] - 8 / (3 * mp.pi)):.1e}, "
          f"T(1)-8/(9pi)={float(exact_eps(1)[1] - 8 / (9 * mp.pi)):.1e}")
    fp_exact = mp.findroot(lambda e: exact_eps(e)[0] - 2 * e * exact_eps(e)[1], 0.65)
    print(f"# exact fixed point F = 2 eps T: eps* = {mp.nstr(fp_exact, 12)}")
    xfp = fp_exact / (1 + fp_exact)
    Ffp, Tfp = exact_x(xfp)
    interpF = [] if a.no_fixed_point else [(float(xfp), float(Ffp))]
    interpT = [] if a.no_fixed_point else [(float(xfp), float(Tfp))]

    xs, Fx, Tx = fit_grid()
    if a.sweep:
        for kind, f, kk, interp in (('F', Fx, a.kF, interpF), ('T', Tx, a.kT, interpT)):
            for na in range(4, 12):
                model, th = build_and_fit(kind, na, na + 1, *kk, xs, f, interp)
                if th is None:
                    print(kind, na, "no pole-free fit")
                    continue
                e = model(th, xs) - f
                print(f"{kind} ({na},{na + 1}) k={kk}: abs {np.max(np.abs(e)):.2e} rel {np.max(np.abs(e / f)):.2e}",
                      flush=True)
        return

    out = {}
    for kind, na, f, kk, interp in (('F', a.naF, Fx, a.kF, interpF), ('T', a.naT, Tx, a.kT, interpT)):
        model, th = build_and_fit(kind, na, na + 1, *kk, xs, f, interp)
        A, B = (list(c) for c in model.split(th))
        out[kind] = (A, B)
        print(f"# H{kind} = A{kind}(d)/B{kind}(d), degrees ({model.na},{model.nb}); constraints:")
        for r in model.why:
            print(f"#    {r}")
        print("#    (then rescaled so that B is monic)")
        print("#    denominator roots in d: " + ", ".join(f"{r:.4g}" for r in np.roots(B[::-1])))
        print("#    numerator roots in d:   " + ", ".join(f"{r:.4g}" for r in np.roots(A[::-1])))
    AF, BF = out['F']
    AT, BT = out['T']

    # verification with float64 evaluation identical to the Rust code
    s = np.linspace(-1, 1, 4001)
    xg = np.unique(np.concatenate([np.linspace(0, 1, a.ngrid), 0.5 + 0.5 * np.sign(s) * np.abs(s) ** 3,
                                   [1e-12, 1e-9, 1e-6, 1 - 1e-6, 1 - 1e-9, 1 - 1e-12]]))
    exg = np.array([[float(v) for v in exact_x(x)] for x in xg])
    Fa = np.empty_like(xg)
    Ta = np.empty_like(xg)
    for i, x in enumerate(xg):
        Fa[i], Ta[i] = rust_eval(AF, BF, AT, BT, float(x), float(1 - x))
    for name, ap_, exv in (("F", Fa, exg[:, 0]), ("T", Ta, exg[:, 1])):
        err = ap_ - exv
        m = exv > 0
        rel = np.abs(err[m] / exv[m])
        i = np.argmax(np.abs(err))
        j = np.argmax(rel)
        xm, xr = xg[i], xg[m][j]
        print(f"# {name}: max abs err {np.max(np.abs(err)):.3e} at eps={xm / (1 - xm):.4g}; "
              f"max rel err {np.max(rel):.3e} at eps={xr / (1 - xr):.4g}")
    uni = np.isin(xg, np.linspace(0, 1, a.ngrid))
    dF, dT = np.diff(Fa[uni]), np.diff(Ta[uni])
    print(f"# float64 monotone on uniform {a.ngrid}-point x grid: F nondecreasing {np.all(dF >= 0)}, "
          f"T nonincreasing {np.all(dT <= 0)}")
    lg = [rust_eval(AF, BF, AT, BT, float(e), 1.0) for e in 10.0 ** np.arange(-15, 15.0001, 0.001)]
    lF, lT = np.array(lg).T
    print(f"# float64 monotone on eps = 10^(-15..15 step 0.001): F nondecreasing {np.all(np.diff(lF) >= 0)}, "
          f"T nonincreasing {np.all(np.diff(lT) <= 0)}")

    def mp_poly(c, t):
        acc = mp.mpf(c[-1])
        for ci in reversed(c[:-1]):
            acc = acc * t + mp.mpf(ci)
        return acc

    def mpF(x):
        return x - x * (1 - x) * mp_poly(AF, 2 * x - 1) / mp_poly(BF, 2 * x - 1)

    def mpT(x):
        return 2 * (1 - x) / 3 - x * (1 - x) * mp_poly(AT, 2 * x - 1) / mp_poly(BT, 2 * x - 1)
    xd = np.r_[np.logspace(-9, -2, 40), np.linspace(0.005, 0.995, 4001), 1 - np.logspace(-9, -2, 40)]
    # dF/dx -> y/4 at x -> 1 and -dT/dx -> x at x -> 0, so scale by y resp. x
    rF = min(mp.diff(mpF, mp.mpf(x)) / (1 - mp.mpf(x)) for x in xd)
    rT = min(-mp.diff(mpT, mp.mpf(x)) / mp.mpf(x) for x in xd)
    print(f"# exact-arithmetic derivative of the approximation on {len(xd)} points: "
          f"min (dF/dx)/y = {float(rF):.4g}, min (-dT/dx)/x = {float(rT):.4g} (both > 0: strictly monotone)")
    evalerr = 0.0
    for x in np.linspace(0, 1, 2001):
        f64 = rust_eval(AF, BF, AT, BT, float(x), float(1 - x))
        evalerr = max(evalerr, abs(f64[0] - float(mpF(mp.mpf(x)))), abs(f64[1] - float(mpT(mp.mpf(x)))))
    print(f"# float64 evaluation vs exact evaluation of the same rational: max diff {evalerr:.2e}")
    print(f"# bounds: F in [{Fa.min()}, {Fa.max()}], T in [{Ta.min()}, {Ta.max()}]")
    print(f"# exact limits: u=0 -> {rust_eval(AF, BF, AT, BT, 3.0, 0.0)}, "
          f"v=0 -> {rust_eval(AF, BF, AT, BT, 0.0, 3.0)}")
    e1 = rust_eval(AF, BF, AT, BT, 1.0, 1.0)
    print(f"# eps=1: F-8/(3pi)={e1[0] - 8 / (3 * np.pi):.3e}, T-8/(9pi)={e1[1] - 8 / (9 * np.pi):.3e}")
    for eps in [1e-4, 1e-3]:
        Fv, Tv = rust_eval(AF, BF, AT, BT, eps, 1.0)
        print(f"# eps={eps}: F/eps={Fv / eps:.12f}, (2/3-T)/eps^2={(2 / 3 - Tv) / eps**2:.6f}")
    for eps in [1e3, 1e5]:
        Fv, Tv = rust_eval(AF, BF, AT, BT, eps, 1.0)
        print(f"# eps={eps}: 4 eps T={4 * eps * Tv:.12f}, 8 eps^2 (1-F)={8 * eps**2 * (1 - Fv):.6f}")
    # fixed point of the approximation by bisection on g = F - 2 eps T
    lo, hi = 0.1, 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        Fv, Tv = rust_eval(AF, BF, AT, BT, mid, 1.0)
        if Fv - 2 * mid * Tv < 0:
            lo = mid
        else:
            hi = mid
    print(f"# approx fixed point eps* = {0.5 * (lo + hi)!r} (exact {mp.nstr(fp_exact, 17)})")
    print(f"# exact at eps*: F = {mp.nstr(Ffp, 17)}, T = {mp.nstr(Tfp, 17)}")
    print("\n// ---- Rust coefficient block ----")
    print(f"const AF: [f64; {len(AF)}] = [\n{fmt(AF)},\n];")
    print(f"const BF: [f64; {len(BF)}] = [\n{fmt(BF)},\n];")
    print(f"const AT: [f64; {len(AT)}] = [\n{fmt(AT)},\n];")
    print(f"const BT: [f64; {len(BT)}] = [\n{fmt(BT)},\n];")


if __name__ == "__main__":
    main()
