//! Impacts: the impulse model of `resolve_disc_disc` / `resolve_disc_peg` and its
//! conservation laws, plus short runs through the world.

use crate::common;

use approx::assert_relative_eq;
use common::{Lcg, M, R, disc, open_board, resting};
use crokinole::step::response::{resolve_disc_disc, resolve_disc_peg};
use crokinole::{Board, Disc, EventKind, Physics, World};
use glam::DVec2;

/// Angular momentum of `d` about point `c`: m (r - c) x v + I w.
fn ang_mom(d: &Disc, c: DVec2) -> f64 {
    d.mass * (d.pos - c).perp_dot(d.vel) + d.inertia() * d.spin
}

/// A pair of discs touching along `n` (unit, from a to b), a at `pa`.
fn pair_at(pa: DVec2, n: DVec2, a: Disc, b: Disc) -> (Disc, Disc) {
    let a = Disc { pos: pa, ..a };
    let b = Disc {
        pos: pa + n * (a.radius + b.radius),
        ..b
    };
    (a, b)
}

/// A random disc-disc impact (approaching), with random masses, radii, spins.
fn random_pair(rng: &mut Lcg) -> (Disc, Disc, DVec2) {
    let n = rng.unit();
    let mk = |rng: &mut Lcg| {
        let r = rng.range(0.005, 0.03);
        let m = rng.range(0.001, 0.05);
        let v = DVec2::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
        Disc::at_rest(0, DVec2::ZERO, r, m).flicked(v, rng.range(-300.0, 300.0))
    };
    let (a, mut b) = (mk(rng), mk(rng));
    // Make sure they approach along n.
    let v_n = (b.vel - a.vel).dot(n);
    if v_n >= 0.0 {
        b.vel -= n * (v_n + rng.range(0.01, 2.0));
    }
    let pa = DVec2::new(rng.range(-0.3, 0.3), rng.range(-0.3, 0.3));
    let (a, b) = pair_at(pa, n, a, b);
    (a, b, n)
}

/// A random disc-peg impact: the disc and the unit normal from its centre to the peg's.
fn random_peg_hit(rng: &mut Lcg) -> (Disc, DVec2) {
    let n = rng.unit();
    let mut v = DVec2::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
    if v.dot(n) <= 0.0 {
        v += n * (-v.dot(n) + rng.range(0.01, 2.0));
    }
    let d = Disc::at_rest(
        0,
        DVec2::new(rng.range(-0.3, 0.3), rng.range(-0.3, 0.3)),
        rng.range(0.005, 0.03),
        rng.range(0.001, 0.05),
    )
    .flicked(v, rng.range(-300.0, 300.0));
    (d, n)
}

/// Head-on between equal discs without friction: v_A' = v (1 - e) / 2, v_B' = v (1 + e) / 2.
#[test]
fn a_head_on_impact_of_equal_discs_splits_the_speed_by_restitution() {
    for e in [0.0, 0.25, 0.6, 0.9, 1.0] {
        let v = 1.7;
        let (mut a, mut b) = pair_at(
            DVec2::ZERO,
            DVec2::X,
            disc(DVec2::ZERO, DVec2::new(v, 0.0), 0.0),
            resting(DVec2::ZERO),
        );
        let approach = resolve_disc_disc(&mut a, &mut b, DVec2::X, e, 0.0);
        assert_relative_eq!(approach, v, max_relative = 1e-15);
        assert_relative_eq!(a.vel.x, v * (1.0 - e) / 2.0, epsilon = 1e-15);
        assert_relative_eq!(b.vel.x, v * (1.0 + e) / 2.0, epsilon = 1e-15);
        assert_eq!((a.vel.y, b.vel.y, a.spin, b.spin), (0.0, 0.0, 0.0, 0.0));
    }
}

/// Oblique elastic frictionless impact of equal discs: they leave at right angles.
#[test]
fn equal_discs_leave_an_oblique_elastic_impact_at_right_angles() {
    let mut rng = Lcg(7);
    for _ in 0..50 {
        let n = rng.unit();
        let v = DVec2::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0));
        let v = if v.dot(n) <= 0.0 {
            v - n * (2.0 * v.dot(n))
        } else {
            v
        };
        let (mut a, mut b) = pair_at(
            DVec2::ZERO,
            n,
            disc(DVec2::ZERO, v, 0.0),
            resting(DVec2::ZERO),
        );
        resolve_disc_disc(&mut a, &mut b, n, 1.0, 0.0);
        let cos = a.vel.dot(b.vel) / (a.vel.length() * b.vel.length()).max(1e-300);
        assert!(
            cos.abs() < 1e-12,
            "n {n:?} v {v:?}: cos of the angle = {cos}"
        );
        // B takes the normal part, A keeps the tangential part.
        assert_relative_eq!(b.vel.perp_dot(n), 0.0, epsilon = 1e-15);
        assert_relative_eq!(a.vel.dot(n), 0.0, epsilon = 1e-15);
    }
}

/// A disc-disc impact leaves the total linear momentum unchanged.
#[test]
fn a_disc_disc_impact_conserves_linear_momentum() {
    let mut rng = Lcg(11);
    for _ in 0..2000 {
        let (mut a, mut b, n) = random_pair(&mut rng);
        let e = rng.range(0.0, 1.0);
        let mu = rng.range(0.0, 1.0);
        let p0 = a.vel * a.mass + b.vel * b.mass;
        resolve_disc_disc(&mut a, &mut b, n, e, mu);
        let p1 = a.vel * a.mass + b.vel * b.mass;
        let scale = (a.mass + b.mass) * 6.0;
        assert!((p1 - p0).length() < 1e-14 * scale, "{p0:?} -> {p1:?}");
    }
}

/// Each disc's angular momentum about the contact point is unchanged by a disc-disc impact.
#[test]
fn a_disc_disc_impact_conserves_each_discs_angular_momentum_about_the_contact() {
    let mut rng = Lcg(13);
    let mut saw_sticking = false;
    let mut saw_sliding = false;
    for _ in 0..2000 {
        let (mut a, mut b, n) = random_pair(&mut rng);
        let c = a.pos + n * a.radius;
        let e = rng.range(0.0, 1.0);
        let mu = rng.range(0.0, 1.0);
        let (la, lb) = (ang_mom(&a, c), ang_mom(&b, c));
        let (wa, wb) = (a.spin, b.spin);
        resolve_disc_disc(&mut a, &mut b, n, e, mu);
        let tol_a = 1e-12 * (a.mass * 0.1 * 6.0 + a.inertia() * 600.0);
        let tol_b = 1e-12 * (b.mass * 0.1 * 6.0 + b.inertia() * 600.0);
        assert!(
            (ang_mom(&a, c) - la).abs() < tol_a,
            "A: {la} -> {}",
            ang_mom(&a, c)
        );
        assert!(
            (ang_mom(&b, c) - lb).abs() < tol_b,
            "B: {lb} -> {}",
            ang_mom(&b, c)
        );
        // The sweep must exercise spin transfer, sticking or sliding.
        if a.spin != wa || b.spin != wb {
            let slip = (b.vel - a.vel).dot(n.perp()) - (a.spin * a.radius + b.spin * b.radius);
            if slip.abs() < 1e-9 {
                saw_sticking = true;
            } else {
                saw_sliding = true;
            }
        }
    }
    assert!(
        saw_sticking && saw_sliding,
        "sweep did not cover both friction regimes"
    );
}

/// A disc's angular momentum about the contact point is unchanged by a peg impact.
#[test]
fn a_disc_peg_impact_conserves_angular_momentum_about_the_contact() {
    let mut rng = Lcg(17);
    let mut spun = 0;
    for _ in 0..2000 {
        let (mut d, n) = random_peg_hit(&mut rng);
        let c = d.pos + n * d.radius;
        let e = rng.range(0.0, 1.0);
        let mu = rng.range(0.0, 1.0);
        let l = ang_mom(&d, c);
        let w0 = d.spin;
        resolve_disc_peg(&mut d, n, e, mu);
        let tol = 1e-12 * (d.mass * 0.1 * 6.0 + d.inertia() * 600.0);
        assert!(
            (ang_mom(&d, c) - l).abs() < tol,
            "{l} -> {}",
            ang_mom(&d, c)
        );
        spun += (d.spin != w0) as u32;
    }
    assert!(
        spun > 1000,
        "friction changed the spin in only {spun} impacts"
    );
}

/// No impact, with any restitution, friction, spin or masses, adds kinetic energy.
#[test]
fn kinetic_energy_never_rises_in_an_impact() {
    let mut rng = Lcg(19);
    for k in 0..5000 {
        let e = if k % 5 == 0 { 1.0 } else { rng.range(0.0, 1.0) };
        let mu = if k % 7 == 0 {
            10.0
        } else {
            rng.range(0.0, 1.0)
        };
        let (mut a, mut b, n) = random_pair(&mut rng);
        let before = a.kinetic_energy() + b.kinetic_energy();
        resolve_disc_disc(&mut a, &mut b, n, e, mu);
        let after = a.kinetic_energy() + b.kinetic_energy();
        assert!(
            after <= before * (1.0 + 1e-13),
            "disc-disc e {e} mu {mu}: {before} -> {after}"
        );

        let (mut d, n) = random_peg_hit(&mut rng);
        let before = d.kinetic_energy();
        resolve_disc_peg(&mut d, n, e, mu);
        let after = d.kinetic_energy();
        assert!(
            after <= before * (1.0 + 1e-13),
            "disc-peg e {e} mu {mu}: {before} -> {after}"
        );
    }
}

/// When the contact points do not slip, friction exerts no tangential impulse.
#[test]
fn no_tangential_impulse_without_slip() {
    // Exactly representable numbers: slip = (0.25 - 0) - (0.5 * 0.25 + 0.5 * 0.25) = 0.
    let a = Disc::at_rest(0, DVec2::ZERO, 0.25, 2.0).flicked(DVec2::new(1.0, 0.0), 0.5);
    let b = Disc::at_rest(0, DVec2::new(0.5, 0.0), 0.25, 2.0).flicked(DVec2::new(0.0, 0.25), 0.5);
    let (mut a1, mut b1) = (a, b);
    resolve_disc_disc(&mut a1, &mut b1, DVec2::X, 0.6, 0.9);
    assert_eq!((a1.spin, b1.spin), (a.spin, b.spin), "spins changed");
    assert_eq!(
        (a1.vel.y, b1.vel.y),
        (a.vel.y, b.vel.y),
        "tangential velocities changed"
    );
    assert!(a1.vel.x < a.vel.x, "no normal impulse at all");

    // Peg: a disc rolling along the peg's surface, slip = -v.t - w R = 0.
    let d = Disc::at_rest(0, DVec2::ZERO, 0.25, 2.0).flicked(DVec2::new(1.0, 0.5), -2.0);
    let mut d1 = d;
    resolve_disc_peg(&mut d1, DVec2::X, 0.6, 0.9);
    assert_eq!(d1.spin, d.spin, "peg: spin changed");
    assert_eq!(d1.vel.y, d.vel.y, "peg: tangential velocity changed");

    // Tournament discs with rounding-level slip: the tangential impulse is negligible.
    let mut rng = Lcg(23);
    for _ in 0..200 {
        let n = rng.unit();
        let t = n.perp();
        let (wa, wb) = (rng.range(-200.0, 200.0), rng.range(-200.0, 200.0));
        let va = n * rng.range(0.5, 2.0) + t * rng.range(-1.0, 1.0);
        // Choose b's tangential velocity so that the slip vanishes.
        let vb_t = va.dot(t) + wa * R + wb * R;
        let vb = n * rng.range(-0.4, 0.4) + t * vb_t;
        let (mut a, mut b) = pair_at(
            DVec2::ZERO,
            n,
            disc(DVec2::ZERO, va, wa),
            disc(DVec2::ZERO, vb, wb),
        );
        resolve_disc_disc(&mut a, &mut b, n, 0.6, 0.38);
        assert!(
            (a.spin - wa).abs() < 1e-9 && (b.spin - wb).abs() < 1e-9,
            "{wa} {wb} -> {} {}",
            a.spin,
            b.spin
        );
    }
}

/// The x -> -x mirror of an impact (w -> -w) is the mirror of the impact, bit for bit.
#[test]
fn mirroring_an_impact_mirrors_its_result_exactly() {
    let mirror = |d: Disc| Disc {
        pos: DVec2::new(-d.pos.x, d.pos.y),
        vel: DVec2::new(-d.vel.x, d.vel.y),
        spin: -d.spin,
        ..d
    };
    let flip = |n: DVec2| DVec2::new(-n.x, n.y);
    let mut rng = Lcg(29);
    for _ in 0..2000 {
        let e = rng.range(0.0, 1.0);
        let mu = rng.range(0.0, 1.0);
        let (a, b, n) = random_pair(&mut rng);
        let (mut a1, mut b1) = (a, b);
        let (mut a2, mut b2) = (mirror(a), mirror(b));
        resolve_disc_disc(&mut a1, &mut b1, n, e, mu);
        resolve_disc_disc(&mut a2, &mut b2, flip(n), e, mu);
        assert_eq!(
            (mirror(a1), mirror(b1)),
            (a2, b2),
            "disc-disc e {e} mu {mu}"
        );

        let (d, n) = random_peg_hit(&mut rng);
        let (mut d1, mut d2) = (d, mirror(d));
        resolve_disc_peg(&mut d1, n, e, mu);
        resolve_disc_peg(&mut d2, flip(n), e, mu);
        assert_eq!(mirror(d1), d2, "disc-peg e {e} mu {mu}");
    }
}

/// Mirror image of a peg index on the tournament board (pegs at 22.5 + 45 k degrees).
fn mirrored_peg(k: usize) -> usize {
    if k < 4 { 3 - k } else { 11 - k }
}

/// The tournament board's pegs are mirror images of each other under x -> -x.
#[test]
fn the_tournament_pegs_are_mirror_symmetric() {
    let b = Board::tournament();
    for (k, p) in b.pegs.iter().enumerate() {
        assert_eq!(DVec2::new(-p.x, p.y), b.pegs[mirrored_peg(k)], "peg {k}");
    }
}

/// A whole shot with spin, disc and peg impacts, mirrored x -> -x, is the exact mirror.
#[test]
fn mirroring_a_whole_shot_mirrors_it_exactly() {
    let build = |s: f64| {
        let mut w = World::new(Board::tournament(), Physics::default()).unwrap();
        let targets = [
            DVec2::new(0.0614, 0.06),
            DVec2::new(-0.0561, 0.0178),
            DVec2::new(0.0305, -0.193),
            DVec2::new(-0.0011, 0.09),
        ];
        for p in targets {
            w.add_disc(resting(DVec2::new(s * p.x, p.y))).unwrap();
        }
        let shooter = disc(
            DVec2::new(s * 0.05, -0.3),
            DVec2::new(s * -0.2907, 1.8986),
            s * 44.6,
        );
        w.add_disc(shooter).unwrap();
        assert!(w.run());
        w
    };
    let (w, m) = (build(1.0), build(-1.0));
    let (mut pegs, mut discs) = (0, 0);
    for (e1, e2) in w.events().iter().zip(m.events()) {
        assert_eq!(e1.t, e2.t, "event times differ: {e1:?} vs {e2:?}");
        let mirrored = match e1.kind {
            EventKind::Peg { a, peg } => {
                pegs += 1;
                EventKind::Peg {
                    a,
                    peg: mirrored_peg(peg),
                }
            }
            other => {
                discs += matches!(other, EventKind::Disc { .. }) as u32;
                other
            }
        };
        assert_eq!(mirrored, e2.kind, "at t = {}", e1.t);
    }
    assert_eq!(w.events().len(), m.events().len());
    assert!(
        pegs >= 1 && discs >= 2,
        "the shot must hit pegs and discs: {:?}",
        w.events()
    );
    for (a, b) in w.discs().iter().zip(m.discs()) {
        let mirrored = Disc {
            pos: DVec2::new(-a.pos.x, a.pos.y),
            vel: DVec2::new(-a.vel.x, a.vel.y),
            spin: -a.spin,
            ..*a
        };
        assert_eq!(mirrored, *b);
    }
    assert_eq!(w.settle_time(), m.settle_time());
}

/// Through the world, a head-on hit on a resting disc leaves the speeds v(1-e)/2, v(1+e)/2.
#[test]
fn a_head_on_hit_in_the_world_splits_the_speed_by_restitution() {
    for e in [0.0, 0.6, 1.0] {
        let physics = Physics {
            board_friction: 0.0,
            disc_friction: 0.0,
            disc_restitution: e,
            ..Physics::default()
        };
        let v = 0.8;
        let mut w = common::world(
            open_board(1.0),
            physics,
            &[
                disc(DVec2::new(-0.4, 0.3), DVec2::new(v, 0.0), 0.0),
                resting(DVec2::new(-0.2, 0.3)),
            ],
        );
        for _ in 0..300 {
            w.step();
        }
        let hits: Vec<_> = w
            .events()
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Disc { .. }))
            .collect();
        assert_eq!(hits.len(), 1, "e {e}: {:?}", w.events());
        // Contact after travelling 0.2 - 2R at constant speed.
        assert_relative_eq!(hits[0].t, (0.2 - 2.0 * R) / v, max_relative = 1e-12);
        let (a, b) = (w.discs()[0], w.discs()[1]);
        assert_relative_eq!(a.vel.x, v * (1.0 - e) / 2.0, epsilon = 1e-14);
        assert_relative_eq!(b.vel.x, v * (1.0 + e) / 2.0, epsilon = 1e-14);
        assert_eq!((a.vel.y, b.vel.y), (0.0, 0.0));
        assert_relative_eq!(
            a.mass * a.vel.x + b.mass * b.vel.x,
            M * v,
            max_relative = 1e-14
        );
    }
}

/// A disc hitting a peg square on bounces straight back with e times its speed.
#[test]
fn a_square_hit_on_a_peg_returns_e_times_the_speed() {
    let peg = DVec2::new(0.2, 0.3);
    let board = common::board_with_pegs(1.0, vec![peg]);
    let physics = Physics {
        board_friction: 0.0,
        ..Physics::default()
    };
    let v = 1.1;
    let mut w = common::world(
        board,
        physics,
        &[disc(DVec2::new(-0.2, 0.3), DVec2::new(v, 0.0), 0.0)],
    );
    for _ in 0..400 {
        w.step();
    }
    let hit = w
        .events()
        .iter()
        .find(|e| matches!(e.kind, EventKind::Peg { a: 0, peg: 0 }));
    let hit = hit.expect("the disc must hit the peg");
    let r_peg = Board::tournament().peg_radius;
    assert_relative_eq!(hit.t, (0.4 - R - r_peg) / v, max_relative = 1e-12);
    let d = w.discs()[0];
    assert_relative_eq!(d.vel.x, -0.6 * v, max_relative = 1e-14);
    assert_eq!((d.vel.y, d.spin), (0.0, 0.0));
}
