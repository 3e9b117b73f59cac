//! Impacts: instantaneous impulses with restitution and Coulomb friction, which transfer
//! spin. Model of `docs/physics.md`, "Contacts":
//!
//! ```text
//! n = unit normal from A to B,  t = perp(n)
//! v_n = (v_B - v_A).n                         (< 0 approaching)
//! v_t = (v_B - v_A).t - (w_A R_A + w_B R_B)   (slip at the contact)
//! J_n = -(1 + e) v_n / (1/m_A + 1/m_B)
//! k_t = 1/m_A + 1/m_B + R_A^2/I_A + R_B^2/I_B
//! J_t = clamp(-v_t / k_t, -mu_c J_n, +mu_c J_n)
//! v_A -= (J_n n + J_t t)/m_A,  v_B += (J_n n + J_t t)/m_B
//! w_A -= J_t R_A/I_A,          w_B -= J_t R_B/I_B
//! ```
//!
//! A peg is body B with infinite mass and inertia and its own `e` and `mu_c`. The impulse
//! acts along the line of centres and tangentially at the contact point, so linear momentum
//! (disc-disc) and each disc's angular momentum about the contact point are unchanged, and
//! kinetic energy never rises for `e <= 1` (the tangential impulse never reverses slip).

use crate::disc::Disc;
use glam::DVec2;

/// Resolves an impact between discs `a` and `b` touching along `n` (unit, from a to b).
/// Returns the approach speed `-v_n` before the impact (no impulse if not approaching).
pub fn resolve_disc_disc(a: &mut Disc, b: &mut Disc, n: DVec2, e: f64, mu: f64) -> f64 {
    let t = n.perp();
    let dv = b.vel - a.vel;
    let v_n = dv.dot(n);
    if v_n >= 0.0 {
        return 0.0;
    }
    let (inv_a, inv_b) = (1.0 / a.mass, 1.0 / b.mass);
    let v_t = dv.dot(t) - (a.spin * a.radius + b.spin * b.radius);
    let j_n = -(1.0 + e) * v_n / (inv_a + inv_b);
    let k_t = inv_a + inv_b + a.radius * a.radius / a.inertia() + b.radius * b.radius / b.inertia();
    let j_t = (-v_t / k_t).clamp(-mu * j_n, mu * j_n);
    let j = n * j_n + t * j_t;
    a.vel -= j * inv_a;
    b.vel += j * inv_b;
    a.spin -= j_t * a.radius / a.inertia();
    b.spin -= j_t * b.radius / b.inertia();
    -v_n
}

/// Resolves an impact of disc `a` on a fixed peg in direction `n` (unit, from the disc's
/// centre to the peg's). Returns the approach speed before the impact.
pub fn resolve_disc_peg(a: &mut Disc, n: DVec2, e: f64, mu: f64) -> f64 {
    let t = n.perp();
    let v_n = -a.vel.dot(n);
    if v_n >= 0.0 {
        return 0.0;
    }
    let inv_a = 1.0 / a.mass;
    let v_t = -a.vel.dot(t) - a.spin * a.radius;
    let j_n = -(1.0 + e) * v_n / inv_a;
    let k_t = inv_a + a.radius * a.radius / a.inertia();
    let j_t = (-v_t / k_t).clamp(-mu * j_n, mu * j_n);
    a.vel -= (n * j_n + t * j_t) * inv_a;
    a.spin -= j_t * a.radius / a.inertia();
    -v_n
}
