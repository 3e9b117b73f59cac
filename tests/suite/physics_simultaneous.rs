//! Simultaneous contacts: contacts at one instant are resolved together, so the outcome
//! does not depend on the order of the discs, and the properties of single impacts hold.
//!
//! Symptom these pin (before the group solve): a shot straight into the middle of two
//! touching discs sent one to the ditch and left the other; swapping the two in the file
//! gave the mirror image, and moving the shooter 1e-12 m flipped it. Cause: the contacts
//! were resolved one after another in the order of the disc ids.

use crate::common;

use common::{Lcg, M, R, ideal_physics, open_board};
use crokinole::io::parse_shot_file;
use crokinole::{Board, Disc, EventKind, Flick, Outcome, Physics, Placed, Shot, World};
use glam::DVec2;

/// The split shot: two touching discs side by side at height `y0`, the shooter coming
/// straight up the line between them from `y0 - 0.2` with speed `v`, offset `dx` sideways.
fn split_shot(v: f64, dx: f64, swap: bool) -> Shot {
    let y0 = 0.3;
    let mut discs = vec![
        Placed {
            team: 1,
            pos: DVec2::new(-R, y0),
        },
        Placed {
            team: 1,
            pos: DVec2::new(R, y0),
        },
    ];
    if swap {
        discs.swap(0, 1);
    }
    Shot {
        discs,
        shooter: Flick {
            team: 0,
            pos: DVec2::new(dx, y0 - 0.2),
            vel: DVec2::new(0.0, v),
            spin: 0.0,
        },
    }
}

fn run(board: &Board, physics: &Physics, shot: &Shot) -> Outcome {
    crokinole::run_shot(board, physics, shot).expect("valid shot")
}

fn physics_with(e: f64, mu_c: f64) -> Physics {
    Physics {
        disc_restitution: e,
        disc_friction: mu_c,
        ..Physics::default()
    }
}

/// Largest distance between disc `k` of `a` and its mirror image (x -> -x) in `b`.
fn mirror_error(a: &Disc, b: &Disc) -> f64 {
    (a.pos - DVec2::new(-b.pos.x, b.pos.y)).length()
}

#[test]
fn a_shot_into_the_middle_of_a_touching_pair_splits_it_symmetrically() {
    let board = open_board(0.6);
    for e in [0.6, 1.0] {
        for mu_c in [0.0, 0.38] {
            let physics = physics_with(e, mu_c);
            let out = run(&board, &physics, &split_shot(2.0, 0.0, false));
            let (a, b, s) = (&out.discs[0], &out.discs[1], &out.discs[2]);
            assert_eq!(a.state, b.state, "e {e} mu_c {mu_c}: {a:?} {b:?}");
            let err = mirror_error(a, b);
            assert!(
                err <= 1e-9,
                "e {e} mu_c {mu_c}: pair off its mirror by {err:e} m"
            );
            assert!(
                s.pos.x.abs() <= 1e-9,
                "e {e} mu_c {mu_c}: shooter drifted to {}",
                s.pos.x
            );
            // Both discs were struck: each impact is in the log.
            let hits = |d: usize| {
                out.events.iter().any(|ev| {
                    matches!(ev.kind, EventKind::Disc { a, b } if (a, b) == (d.min(2), d.max(2)))
                })
            };
            assert!(hits(0) && hits(1), "e {e} mu_c {mu_c}: {:?}", out.events);
            // Both moved away from the line, on opposite sides.
            assert!(a.pos.x < -R && b.pos.x > R, "{:?} {:?}", a.pos, b.pos);
        }
    }
}

#[test]
fn swapping_the_pair_in_the_file_swaps_the_outcome_and_nothing_else() {
    let board = open_board(0.6);
    for (e, mu_c, dx) in [
        (0.6, 0.38, 0.0),
        (1.0, 0.0, 0.0),
        (0.0, 0.5, 0.0),
        (0.6, 0.38, 3e-4),
    ] {
        let physics = physics_with(e, mu_c);
        let one = run(&board, &physics, &split_shot(2.5, dx, false));
        let two = run(&board, &physics, &split_shot(2.5, dx, true));
        assert_eq!(one.discs[0], two.discs[1]);
        assert_eq!(one.discs[1], two.discs[0]);
        assert_eq!(one.discs[2], two.discs[2]);
    }
}

/// Moving the shooter by a hair must move the outcome by a hair, not flip it.
#[test]
fn a_shooter_moved_by_a_picometre_moves_the_outcome_by_no_more() {
    let board = open_board(0.6);
    let physics = Physics::default();
    let centred = run(&board, &physics, &split_shot(2.0, 0.0, false));
    for dx in [1e-12, -1e-12, 5e-12] {
        let moved = run(&board, &physics, &split_shot(2.0, dx, false));
        for (c, m) in centred.discs.iter().zip(&moved.discs) {
            assert_eq!(c.state, m.state);
            let d = (c.pos - m.pos).length();
            assert!(d < 1e-9, "dx {dx:e}: a disc moved {d:e} m");
        }
    }
}

/// Without friction, the split shot's group keeps momentum, and at e = 1 energy too.
#[test]
fn a_group_keeps_momentum_and_at_e_1_energy() {
    let board = open_board(0.6);
    let physics = ideal_physics();
    let shot = split_shot(1.5, 2e-3, false);
    let world = shot.world(&board, &physics).unwrap();
    let p0: DVec2 = world.discs().iter().map(|d| d.vel * d.mass).sum();
    let e0: f64 = world.discs().iter().map(Disc::kinetic_energy).sum();
    let mut world = world;
    // Step until the first impact is past, while everything is still on the board.
    while world.events().is_empty() {
        world.step();
    }
    world.step();
    let p1: DVec2 = world.discs().iter().map(|d| d.vel * d.mass).sum();
    let e1: f64 = world.discs().iter().map(Disc::kinetic_energy).sum();
    assert!((p1 - p0).length() <= 1e-15, "momentum {p0} -> {p1}");
    assert!((e1 - e0).abs() <= 1e-14 * e0, "energy {e0} -> {e1}");
}

/// Energy never rises in a group, with restitution and contact friction, and with a peg
/// of another restitution in it.
#[test]
fn a_group_never_adds_energy() {
    let mut rng = Lcg(7);
    for _ in 0..200 {
        let e = rng.range(0.0, 1.0);
        let physics = Physics {
            board_friction: 0.0,
            disc_restitution: e,
            peg_restitution: rng.range(0.0, 1.0),
            disc_friction: rng.range(0.0, 0.6),
            peg_friction: rng.range(0.0, 0.6),
            ..Physics::default()
        };
        // A disc pressed against a peg, struck by a disc, beside a third disc.
        let peg = DVec2::new(0.0, 0.25);
        let board = Board {
            pegs: vec![peg],
            ..open_board(0.6)
        };
        let n = rng.unit();
        let target = peg - n * (R + board.peg_radius);
        let side = target + n.perp() * (2.0 * R);
        let v = rng.range(0.5, 3.0);
        let dir = (n + n.perp() * rng.range(-0.3, 0.3)).normalize();
        let mut world = World::new(board, physics).unwrap();
        world.add_disc(Disc::at_rest(0, target, R, M)).unwrap();
        world.add_disc(Disc::at_rest(0, side, R, M)).unwrap();
        let start = target - dir * (2.0 * R + 0.01);
        let shooter = Disc::at_rest(0, start, R, M).flicked(dir * v, rng.range(-50.0, 50.0));
        if world.add_disc(shooter).is_err() {
            continue;
        }
        let energy = |w: &World| -> f64 { w.discs().iter().map(Disc::kinetic_energy).sum() };
        let mut last = energy(&world);
        for _ in 0..40 {
            world.step();
            let now = energy(&world);
            assert!(now <= last * (1.0 + 1e-12), "energy rose {last} -> {now}");
            last = now;
        }
    }
}

/// Runs `shot` and the same shot with its resting discs permuted by `perm` (new k = old
/// perm[k]); returns the largest distance between a disc and its image, after checking
/// that every disc's state is the same.
fn permutation_error(board: &Board, physics: &Physics, shot: &Shot, perm: &[usize]) -> f64 {
    let permuted = Shot {
        discs: perm.iter().map(|&k| shot.discs[k]).collect(),
        shooter: shot.shooter,
    };
    let a = run(board, physics, shot);
    let b = run(board, physics, &permuted);
    assert_eq!(a.cut_off, b.cut_off);
    let n = shot.discs.len();
    let mut worst = (a.discs[n].pos - b.discs[n].pos).length();
    assert_eq!(a.discs[n].state, b.discs[n].state);
    for (new, &old) in perm.iter().enumerate() {
        assert_eq!(a.discs[old].state, b.discs[new].state, "disc {old}");
        worst = worst.max((a.discs[old].pos - b.discs[new].pos).length());
    }
    // The same events at the same instants, up to the renaming.
    if a.events.len() != b.events.len() {
        eprintln!("perm {perm:?}");
        for e in &a.events {
            eprintln!("A {:.17} {:?}", e.t, e.kind);
        }
        for e in &b.events {
            eprintln!("B {:.17} {:?}", e.t, e.kind);
        }
    }
    assert_eq!(a.events.len(), b.events.len());
    worst
}

/// A whole number drawn uniformly from `0..n`.
fn below(rng: &mut Lcg, n: usize) -> usize {
    ((rng.next_f64() * n as f64) as usize).min(n - 1)
}

fn shuffled(n: usize, rng: &mut Lcg) -> Vec<usize> {
    let mut p: Vec<usize> = (0..n).collect();
    for k in (1..n).rev() {
        let j = below(rng, k + 1);
        p.swap(k, j);
    }
    p
}

/// Random positions full of touching pairs and rows, shot at from the shooting line with
/// spin; every permutation of the discs gives the same outcome, renamed.
#[test]
fn permuting_the_discs_of_random_shots_permutes_the_outcome() {
    let board = Board::tournament();
    let physics = Physics::default();
    let mut rng = Lcg(2026);
    let mut worst = 0.0f64;
    let mut groups = 0;
    for _ in 0..150 {
        let mut discs: Vec<Placed> = Vec::new();
        let mut tries = 0;
        while discs.len() < 12 && tries < 400 {
            tries += 1;
            // A chain of 1 to 4 touching discs in a random direction.
            let start = DVec2::new(rng.range(-0.15, 0.15), rng.range(-0.15, 0.15));
            let dir = rng.unit();
            let len = 1 + below(&mut rng, 4);
            let chain: Vec<DVec2> = (0..len)
                .map(|k| start + dir * (2.0 * R * k as f64))
                .collect();
            let fits = chain.iter().all(|&p| {
                p.length() > board.hole_radius + R + 1e-3
                    && p.length() < 0.2
                    && board
                        .pegs
                        .iter()
                        .all(|&c| (p - c).length() > R + board.peg_radius)
                    && discs.iter().all(|d| (d.pos - p).length() > 2.0 * R + 1e-3)
            });
            if fits {
                discs.extend(chain.into_iter().map(|pos| Placed {
                    team: below(&mut rng, 2) as u8,
                    pos,
                }));
            }
        }
        // Aim from the shooting line at one disc, with a little offset.
        let target = discs[below(&mut rng, discs.len())].pos;
        let seat = rng.unit() * board.shooting_line_radius;
        let aim = (target + rng.unit() * rng.range(0.0, R) - seat).normalize();
        let shot = Shot {
            discs,
            shooter: Flick {
                team: 0,
                pos: seat,
                vel: aim * rng.range(1.0, 4.0),
                spin: rng.range(-40.0, 40.0),
            },
        };
        let Ok(out) = crokinole::run_shot(&board, &physics, &shot) else {
            continue; // the shooter's start overlapped a disc: not a legal shot
        };
        groups += usize::from(simultaneous(&out));
        let perm = shuffled(shot.discs.len(), &mut rng);
        worst = worst.max(permutation_error(&board, &physics, &shot, &perm));
    }
    println!(
        "largest displacement under permutation: {worst:e} m; shots with simultaneous impacts: {groups}"
    );
    assert!(
        worst <= 1e-12,
        "a disc moved {worst:e} m when the discs were permuted"
    );
    assert!(
        groups >= 5,
        "the random shots should exercise groups, got {groups}"
    );
}

/// Whether two impacts share one instant in the log.
fn simultaneous(out: &Outcome) -> bool {
    out.events.windows(2).any(|w| {
        w[0].t == w[1].t
            && !matches!(w[0].kind, EventKind::Hole { .. } | EventKind::Ditch { .. })
            && !matches!(w[1].kind, EventKind::Hole { .. } | EventKind::Ditch { .. })
    })
}

/// The bundled benchmark-shaped files: every shot, its discs reversed.
#[test]
fn permuting_the_discs_of_the_bench_shots_permutes_the_outcome() {
    for fixture in ["opening.json", "crowded.json"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures")
            .join(fixture);
        let text = std::fs::read_to_string(path).unwrap();
        let (board, physics, shots) = parse_shot_file(&text).unwrap();
        let mut worst = 0.0f64;
        for entry in &shots {
            let n = entry.shot.discs.len();
            let perm: Vec<usize> = (0..n).rev().collect();
            worst = worst.max(permutation_error(&board, &physics, &entry.shot, &perm));
        }
        println!("{fixture}: largest displacement under permutation {worst:e} m");
        assert!(worst <= 1e-12, "{fixture}: a disc moved {worst:e} m");
    }
}
