//! The 20 hole (capture of slow discs, riding over at speed, leaners) and the ditch.

mod common;

use common::{R, disc, open_board, physics_dt, resting};
use crokinole::{Board, DiscState, EventKind, Physics, World};
use glam::DVec2;

const MU_G: f64 = 0.12 * 9.81;

/// Speed that makes a sliding disc stop after exactly `d` metres.
fn speed_for(d: f64) -> f64 {
    (2.0 * MU_G * d).sqrt()
}

/// A disc sent straight up the y axis from (0, y0) (between the tournament pegs) at `v`.
fn up_the_middle(board: Board, physics: Physics, y0: f64, v: f64) -> World {
    common::world(
        board,
        physics,
        &[disc(DVec2::new(0.0, y0), DVec2::new(0.0, v), 0.0)],
    )
}

fn hole_events(w: &World) -> usize {
    w.events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Hole { .. }))
        .count()
}

/// A slow disc whose slide ends over the hole drops in and is logged.
#[test]
fn a_slow_disc_stopping_over_the_hole_falls_in() {
    for stop_y in [-0.005, 0.0, 0.01] {
        let mut w = up_the_middle(
            Board::tournament(),
            Physics::default(),
            -0.2,
            speed_for(0.2 + stop_y),
        );
        assert!(w.run());
        let d = w.discs()[0];
        assert_eq!(d.state, DiscState::Hole, "stopping at y = {stop_y}");
        assert_eq!(w.events().last().unwrap().kind, EventKind::Hole { a: 0 });
        assert_eq!(hole_events(&w), 1);
        assert!(d.pos.length() < Board::tournament().hole_radius);
    }
}

/// A disc that comes to rest over the hole (rule 1, timer out of the way) drops in at once.
#[test]
fn a_disc_coming_to_rest_over_the_hole_drops_in_at_its_stop_time() {
    let physics = Physics {
        hole_fall_depth: 1.0, // 0.45 s of fall: the slide ends first
        ..Physics::default()
    };
    let v = speed_for(0.2 - 0.004);
    let mut w = up_the_middle(Board::tournament(), physics, -0.2, v);
    assert!(w.run());
    assert_eq!(w.discs()[0].state, DiscState::Hole);
    let ev = w.events().last().unwrap();
    assert_eq!(ev.kind, EventKind::Hole { a: 0 });
    assert!(
        (ev.t - v / MU_G).abs() < 1e-9,
        "captured at {} not at the stop {}",
        ev.t,
        v / MU_G
    );
}

/// A fast disc crossing the middle of the hole rides over it, but loses speed doing so.
#[test]
fn a_fast_disc_rides_over_the_hole_and_loses_speed() {
    let big = |hole_radius: f64| Board {
        hole_radius,
        ..open_board(1.5)
    };
    let y0 = -0.5;
    let v = 2.0;
    let mut with_hole = up_the_middle(
        big(Board::tournament().hole_radius),
        Physics::default(),
        y0,
        v,
    );
    let mut no_hole = up_the_middle(big(1e-4), Physics::default(), y0, v);
    assert!(with_hole.run() && no_hole.run());
    let (a, b) = (with_hole.discs()[0], no_hole.discs()[0]);
    assert_eq!(
        a.state,
        DiscState::Rest,
        "the fast disc must ride over the hole"
    );
    assert_eq!(b.state, DiscState::Rest);
    assert_eq!(hole_events(&with_hole), 0);
    // Without a hole it slides exactly v^2 / (2 mu g).
    assert!((b.pos.y - y0 - v * v / (2.0 * MU_G)).abs() < 1e-6);
    let lost = b.pos.y - a.pos.y;
    println!(
        "crossing the hole at {:.3} m/s cost {:.4} m of slide",
        (v * v - 2.0 * MU_G * 0.5).sqrt(),
        lost
    );
    assert!(lost > 1e-3, "crossing the hole cost only {lost} m");
    assert!(a.pos.y > 0.5, "it did ride on: stopped at {}", a.pos.y);
    assert_eq!(a.pos.x, 0.0, "the hole turned it");
}

/// A leaner (resting, centre just outside the hole's edge, overhanging it) stays put while
/// another disc slides past.
#[test]
fn a_leaner_stays_on_the_board() {
    let b = Board::tournament();
    let leaner = DVec2::new(b.hole_radius + 1e-6, 0.0);
    let passer = disc(DVec2::new(-0.03, -0.2), DVec2::new(0.0, 0.9), 0.0);
    let mut w = common::world(b, Physics::default(), &[resting(leaner), passer]);
    assert!(w.run());
    assert_eq!(w.discs()[0].state, DiscState::Rest);
    assert_eq!(w.discs()[0].pos, leaner);
    assert!(w.steps() > 100, "nothing happened around the leaner");
}

/// A disc nudged to stop with its centre just outside the hole's edge stays; a hair
/// farther and it falls in.
#[test]
fn a_disc_stopping_just_outside_the_hole_stays_and_just_inside_falls() {
    let b = Board::tournament();
    for dt in [1e-3, 7e-3] {
        for (beyond_edge, stays) in [(1e-4, true), (1e-6, true), (-1e-6, false), (-1e-4, false)] {
            let stop_y = -(b.hole_radius + beyond_edge);
            let mut w = up_the_middle(b.clone(), physics_dt(dt), -0.2, speed_for(0.2 + stop_y));
            assert!(w.run());
            let d = w.discs()[0];
            if stays {
                assert_eq!(
                    d.state,
                    DiscState::Rest,
                    "dt {dt}: stopping {beyond_edge} m outside"
                );
                assert!(d.pos.length() > b.hole_radius);
                assert_eq!(hole_events(&w), 0);
            } else {
                assert_eq!(
                    d.state,
                    DiscState::Hole,
                    "dt {dt}: stopping {} m inside",
                    -beyond_edge
                );
                assert_eq!(hole_events(&w), 1);
            }
        }
    }
}

/// A disc sent over the edge goes to the ditch, is logged, and leaves the simulation.
#[test]
fn a_disc_sent_off_the_edge_goes_to_the_ditch() {
    let b = Board::tournament();
    for dir in [DVec2::new(0.0, -1.0), DVec2::new(0.6, -0.8)] {
        let start = DVec2::new(0.0, -0.25);
        let mut w = common::world(
            b.clone(),
            Physics::default(),
            &[disc(start, dir * 0.7, 0.0)],
        );
        assert!(w.run());
        let d = w.discs()[0];
        assert_eq!(d.state, DiscState::Ditch);
        assert_eq!(w.events().len(), 1);
        let ev = w.events()[0];
        assert_eq!(ev.kind, EventKind::Ditch { a: 0 });
        // It left where its centre crossed the edge, and the clock stopped there.
        assert!(
            (d.pos.length() - b.surface_radius).abs() < 1e-9,
            "left at r = {}",
            d.pos.length()
        );
        assert_eq!(w.settle_time(), ev.t);
        assert!(w.is_at_rest());
        let (pos, steps) = (d.pos, w.steps());
        for _ in 0..10 {
            w.step();
        }
        assert_eq!(w.discs()[0].pos, pos, "a ditched disc moved");
        assert_eq!(w.steps(), steps + 10);
    }
}

/// Nothing comes back from the ditch: a ditched disc is never hit, never moves, never
/// returns, even when another disc follows it over the same spot.
#[test]
fn nothing_comes_back_from_the_ditch() {
    let b = Board::tournament();
    let mut w = common::world(
        b.clone(),
        Physics::default(),
        &[disc(DVec2::new(0.0, -0.25), DVec2::new(0.0, -0.7), 0.0)],
    );
    assert!(w.run());
    let gone = w.discs()[0];
    assert_eq!(gone.state, DiscState::Ditch);
    // A second disc along the same line: it passes where the first left and follows it.
    w.add_disc(disc(DVec2::new(0.0, -0.2), DVec2::new(0.0, -1.0), 0.0))
        .unwrap();
    // A third placed right where the first left (on the surface, overlapping its last
    // position) is accepted: the ditched disc takes no room on the board.
    let on_its_spot = DVec2::new(0.0, -(b.surface_radius - R));
    w.add_disc(resting(on_its_spot))
        .expect("a ditched disc must not block the board");
    assert!(w.run());
    assert_eq!(w.discs()[0], gone, "the ditched disc changed");
    let kinds: Vec<_> = w.events().iter().map(|e| e.kind).collect();
    assert!(
        !kinds.iter().any(|k| matches!(
            k,
            EventKind::Disc { a: 0, .. } | EventKind::Disc { b: 0, .. }
        )),
        "something hit the ditched disc: {kinds:?}"
    );
    assert_eq!(
        kinds
            .iter()
            .filter(|k| **k == EventKind::Ditch { a: 0 })
            .count(),
        1
    );
    // The second disc hit the third, which in turn went to the ditch.
    assert!(kinds.contains(&EventKind::Disc { a: 1, b: 2 }), "{kinds:?}");
    assert_eq!(w.discs()[2].state, DiscState::Ditch);
}
