//! The 20 hole (support window, hangers, critical crossing speeds, scaling) and the ditch.

use crate::common;

use common::{M, R, disc, open_board, physics_dt, resting};
use crokinole::step::hole::{TABLE_B, TABLE_V, critical_speed, table_window};
use crokinole::{Board, Disc, DiscState, EventKind, Physics, World};
use glam::DVec2;

const MU_G: f64 = 0.12 * 9.81;

/// Speed that makes a sliding disc stop after exactly `d` metres.
fn speed_for(d: f64) -> f64 {
    (2.0 * MU_G * d).sqrt()
}

/// The support window of a tournament disc in the tournament hole, computed here from the
/// geometry: `sqrt(r_h^2 - R^2)`.
fn window() -> f64 {
    let rh = Board::tournament().hole_radius;
    (rh * rh - R * R).sqrt()
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

#[test]
fn the_window_is_7_27_mm_on_the_tournament_board() {
    let w = window();
    assert!((w - 0.007_27).abs() < 1e-5, "w = {w}");
    assert_eq!(Board::tournament().support_window(R), w);
    assert_eq!(table_window(), w);
}

/// A slow disc whose slide ends inside the window drops in at its stop time, and is logged.
#[test]
fn a_slow_disc_stopping_inside_the_window_drops_in() {
    for stop_y in [-0.005, 0.0, 0.005] {
        let v = speed_for(0.2 + stop_y);
        let mut w = up_the_middle(Board::tournament(), Physics::default(), -0.2, v);
        assert!(w.run());
        let d = w.discs()[0];
        assert_eq!(d.state, DiscState::Hole, "stopping at y = {stop_y}");
        assert_eq!(w.events().last().unwrap().kind, EventKind::Hole { a: 0 });
        assert_eq!(hole_events(&w), 1);
        assert!(d.pos.length() <= window() + 1e-12);
    }
}

/// A disc coming to rest inside the window after crossing its edge too fast to be caught
/// there drops in at the instant it stops, where it stops.
#[test]
fn a_disc_coming_to_rest_inside_the_window_drops_in_at_its_stop() {
    // 0.05 mm inside the window's edge the chord is 1.7 mm and v_c 35 mm/s: entering a
    // little faster it crosses the edge, then stops 0.7 mm later, inside.
    let w = window();
    let b = w - 5e-5;
    let s = (w * w - b * b).sqrt();
    let entry = 1.15 * critical_speed(b, w);
    let v0 = (entry * entry + 2.0 * MU_G * (0.2 - s)).sqrt();
    assert!(entry * entry / (2.0 * MU_G) < 2.0 * s);
    let mut world = common::world(
        Board::tournament(),
        Physics::default(),
        &[disc(DVec2::new(b, -0.2), DVec2::new(0.0, v0), 0.0)],
    );
    assert!(world.run());
    let d = world.discs()[0];
    assert_eq!(d.state, DiscState::Hole);
    let ev = world.events().last().unwrap();
    assert_eq!(ev.kind, EventKind::Hole { a: 0 });
    assert!(
        (ev.t - v0 / MU_G).abs() < 1e-9,
        "captured at {} not at the stop {}",
        ev.t,
        v0 / MU_G
    );
    let stop_y = -0.2 + v0 * v0 / (2.0 * MU_G);
    assert!((d.pos.y - stop_y).abs() < 1e-9, "left at {}", d.pos);
    assert!(d.pos.y > -s + 5e-4, "it crossed the edge first: {}", d.pos);
}

/// The support threshold: a disc coming to rest with its centre just inside the window
/// drops in; just outside it stays, overhanging the hole (a hanger). From several
/// directions and at two steps.
#[test]
fn a_disc_stopping_just_inside_the_window_drops_and_just_outside_hangs() {
    let b = Board::tournament();
    let w = window();
    for dt in [1e-3, 7e-3] {
        for dir in [
            DVec2::new(0.0, 1.0),
            DVec2::new(0.6, 0.8),
            DVec2::new(-0.8, 0.6),
        ] {
            for (beyond, stays) in [(1e-4, true), (1e-7, true), (-1e-7, false), (-1e-4, false)] {
                let stop = -dir * (w + beyond);
                let start = stop - dir * 0.15;
                let d0 = disc(start, dir * speed_for(0.15), 0.0);
                let mut world = common::world(b.clone(), physics_dt(dt), &[d0]);
                assert!(world.run());
                let d = world.discs()[0];
                let what = format!("dt {dt}, dir {dir}, {beyond} m outside the window");
                if stays {
                    assert_eq!(d.state, DiscState::Rest, "{what}");
                    assert_eq!(hole_events(&world), 0, "{what}");
                    let r = d.pos.length();
                    assert!(r > w && r < b.hole_radius, "{what}: a hanger at r = {r}");
                } else {
                    assert_eq!(d.state, DiscState::Hole, "{what}");
                    assert_eq!(hole_events(&world), 1, "{what}");
                }
            }
        }
    }
}

/// A disc whose path passes the hole's centre at `b >= w` never drops while moving, however
/// slowly it goes: it stops overhanging the hole, or slides on.
#[test]
fn a_path_outside_the_window_never_drops() {
    let w = window();
    for b in [w, w + 1e-9, 0.008, 0.012, 0.017] {
        for stop_y in [-0.003, 0.0, 0.004, 0.2] {
            let mut world = common::world(
                open_board(1.5),
                Physics::default(),
                &[disc(
                    DVec2::new(b, -0.2),
                    DVec2::new(0.0, speed_for(0.2 + stop_y)),
                    0.0,
                )],
            );
            assert!(world.run());
            let d = world.discs()[0];
            assert_eq!(d.state, DiscState::Rest, "b = {b}, stop at y = {stop_y}");
            assert_eq!(hole_events(&world), 0);
            assert_eq!(d.pos.x, b);
        }
    }
}

/// A hanger (at rest with its centre at `d >= w`, overhanging the hole) is legal input and
/// stays put while another disc slides past; closer than `w` the input is refused.
#[test]
fn a_resting_hanger_is_accepted_and_a_disc_inside_the_window_refused() {
    let b = Board::tournament();
    let w = window();
    for r in [
        w,
        w + 1e-6,
        0.010,
        b.hole_radius - 1e-6,
        b.hole_radius + 1e-6,
    ] {
        let hanger = DVec2::new(r, 0.0);
        let passer = disc(DVec2::new(-0.04, -0.2), DVec2::new(0.0, 0.9), 0.0);
        let mut world = common::world(b.clone(), Physics::default(), &[resting(hanger), passer]);
        assert!(world.run());
        assert_eq!(world.discs()[0].state, DiscState::Rest);
        assert_eq!(world.discs()[0].pos, hanger);
        assert!(world.steps() > 100, "nothing happened around the hanger");
    }
    let mut world = World::new(b.clone(), Physics::default()).unwrap();
    for (r, vel) in [
        (w - 1e-7, DVec2::ZERO),
        (0.0, DVec2::ZERO),
        (0.003, DVec2::new(0.0, 2.0)),
    ] {
        let d = resting(DVec2::new(0.0, -r)).flicked(vel, 0.0);
        let e = world.add_disc_named(d, "discs[2]").unwrap_err();
        assert_eq!(e.field, "discs[2].pos", "{e}");
        assert!(e.problem.contains("over the 20 hole"), "{e}");
        assert!(e.problem.contains("0.007275"), "the message gives w: {e}");
    }
}

/// Launch speed (from `start`, straight along +y) that makes the disc enter the window at
/// `entry` m/s, with the board's friction: `v0^2 = entry^2 + 2 mu g s`.
fn launch_for_entry(entry: f64, s: f64) -> f64 {
    (entry * entry + 2.0 * MU_G * s).sqrt()
}

/// Finds, by bisection on the launch speed, the entry speed that separates "drops in" from
/// "crosses" for a path at `b` from the hole's centre, on `board` with discs of radius `r`.
fn critical_entry_speed(board: &Board, r: f64, b: f64) -> f64 {
    let w = (board.hole_radius * board.hole_radius - r * r).sqrt();
    let y0 = -0.2;
    let s = -y0 - (w * w - b * b).sqrt(); // distance to the window's edge
    let drops = |v0: f64| {
        let d = Disc::at_rest(0, DVec2::new(b, y0), r, M).flicked(DVec2::new(0.0, v0), 0.0);
        let mut world = common::world(board.clone(), Physics::default(), &[d]);
        assert!(world.run());
        let d = world.discs()[0];
        if d.state == DiscState::Rest {
            assert!(
                d.pos.y > (w * w - b * b).sqrt(),
                "crossed: rests beyond the window"
            );
        }
        d.state == DiscState::Hole
    };
    // `lo` stops 1 um past the window's edge (a launch that stops exactly on it is a
    // rounding coin toss between dropping in and hanging); `hi` crosses.
    let lo = (2.0 * MU_G * (s + 1e-6)).sqrt();
    let (mut lo, mut hi) = (lo, launch_for_entry(2.5, s));
    assert!(drops(lo) && !drops(hi));
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if drops(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (hi * hi - 2.0 * MU_G * s).sqrt()
}

/// The critical speed of every table point, found by bisection, is the table's value.
#[test]
fn the_critical_speed_at_every_table_point_is_the_table() {
    let board = open_board(1.5);
    for k in 0..TABLE_B.len() {
        let found = critical_entry_speed(&board, R, TABLE_B[k]);
        println!("b = {} mm: v_c = {found:.9} m/s", TABLE_B[k] * 1e3);
        assert!(
            (found - TABLE_V[k]).abs() < 1e-9,
            "b = {}: found {found}, table {}",
            TABLE_B[k],
            TABLE_V[k]
        );
    }
}

/// Between the points the critical speed is linear in `b`: halfway, it is the mean of the
/// neighbours (the last interval ends at the window, with 0).
#[test]
fn the_critical_speed_between_table_points_is_linear() {
    let board = open_board(1.5);
    let w = window();
    let mut points: Vec<(f64, f64)> = TABLE_B.iter().copied().zip(TABLE_V).collect();
    points.push((w, 0.0));
    for k in 0..points.len() - 1 {
        let ((b0, v0), (b1, v1)) = (points[k], points[k + 1]);
        for f in [0.25, 0.5] {
            let b = b0 + f * (b1 - b0);
            let want = v0 + f * (v1 - v0);
            let found = critical_entry_speed(&board, R, b);
            assert!(
                (found - want).abs() < 1e-9,
                "b = {b}: found {found}, want {want}"
            );
        }
    }
}

/// Other sizes: v_c(b) = v_tab(b w_tab / w) sqrt(w / w_tab). A hole and disc twice the size
/// have a window twice as wide, and critical speeds sqrt(2) times the table's at twice the
/// impact parameters; a wider hole with the tournament disc scales by its own window.
#[test]
fn critical_speeds_scale_with_the_window() {
    let w_tab = window();
    let doubled = Board {
        hole_radius: 2.0 * Board::tournament().hole_radius,
        ..open_board(1.5)
    };
    for k in [0, 4, 8] {
        let found = critical_entry_speed(&doubled, 2.0 * R, 2.0 * TABLE_B[k]);
        let want = TABLE_V[k] * 2f64.sqrt();
        assert!(
            (found - want).abs() < 1e-9,
            "doubled, b = {}: {found} vs {want}",
            TABLE_B[k]
        );
    }
    let wide = Board {
        hole_radius: 0.0185,
        ..open_board(1.5)
    };
    let w = (0.0185f64 * 0.0185 - R * R).sqrt();
    assert!(w > 1.2 * w_tab);
    for k in [0, 3, 6] {
        let b = TABLE_B[k] * w / w_tab;
        let found = critical_entry_speed(&wide, R, b);
        let want = TABLE_V[k] * (w / w_tab).sqrt();
        assert!(
            (found - want).abs() < 1e-9,
            "wide, b = {b}: {found} vs {want}"
        );
        assert!((critical_speed(b, w) - want).abs() < 1e-12);
    }
}

/// A disc faster than the critical speed crosses unchanged: it stops exactly where it would
/// on a board without a hole, on its line, with no hole event. The fall timer and the lip's
/// speed loss of the old model are gone.
#[test]
fn a_fast_disc_crosses_the_hole_unchanged() {
    let holed = open_board(1.5);
    let no_hole = Board {
        hole_radius: 1e-4, // narrower than a disc: no window
        ..open_board(1.5)
    };
    let w = window();
    for (b, entry) in [
        (0.0, 1.2),
        (0.0, 1.5),
        (0.002, 0.5),
        (0.004, 0.32),
        (0.007, 0.2),
    ] {
        assert!(entry > critical_speed(b, w));
        let s = 0.5 - (w * w - b * b).sqrt();
        let d = disc(
            DVec2::new(b, -0.5),
            DVec2::new(0.0, launch_for_entry(entry, s)),
            0.0,
        );
        let mut a = common::world(holed.clone(), Physics::default(), &[d]);
        let mut c = common::world(no_hole.clone(), Physics::default(), &[d]);
        assert!(a.run() && c.run());
        let (da, dc) = (a.discs()[0], c.discs()[0]);
        assert_eq!((da.state, dc.state), (DiscState::Rest, DiscState::Rest));
        assert_eq!(hole_events(&a), 0);
        assert_eq!(da.pos.x, b, "the hole turned it");
        assert!(
            (da.pos.y - dc.pos.y).abs() < 1e-12,
            "b {b}: {} vs {}",
            da.pos.y,
            dc.pos.y
        );
        assert!((a.settle_time() - c.settle_time()).abs() < 1e-12);
    }
}

/// A hanger used as a backboard: a disc entering the window just too fast to drop in
/// would ride over, but the hanger behind the hole stops it inside the window, and it
/// drops in.
#[test]
fn a_hanger_as_backboard_stops_a_crossing_disc_inside_the_window() {
    let board = Board::tournament();
    let w = window();
    let b = 0.003;
    let entry = 0.36;
    assert!(entry > critical_speed(b, w));
    let s = 0.2 - (w * w - b * b).sqrt();
    let shooter = disc(
        DVec2::new(b, -0.2),
        DVec2::new(0.0, launch_for_entry(entry, s)),
        0.0,
    );
    // Struck when the shooter's centre is at y = -2 mm, inside the window.
    let hanger = DVec2::new(b, -0.002 + 2.0 * R);
    assert!(
        hanger.length() - R < board.hole_radius,
        "it overhangs the hole"
    );
    let mut alone = common::world(board.clone(), Physics::default(), &[shooter]);
    assert!(alone.run());
    assert_eq!(
        alone.discs()[0].state,
        DiscState::Rest,
        "without it, it rides over"
    );
    let mut backed = common::world(board, Physics::default(), &[resting(hanger), shooter]);
    assert!(backed.run());
    assert_eq!(
        backed.discs()[1].state,
        DiscState::Hole,
        "{:?}",
        backed.events()
    );
    assert_eq!(backed.discs()[0].state, DiscState::Rest);
    let kinds: Vec<_> = backed.events().iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [EventKind::Disc { a: 0, b: 1 }, EventKind::Hole { a: 1 }]
    );
}

/// A disc struck while hanging is pushed into the window slowly and drops in.
#[test]
fn a_hanger_nudged_into_the_window_drops_in() {
    let w = window();
    let hanger = DVec2::new(0.0, -(w + 0.002));
    let nudger = disc(
        hanger - DVec2::new(0.0, 0.1),
        DVec2::new(0.0, speed_for(0.1 + 0.001)),
        0.0,
    );
    let mut world = common::world(
        Board::tournament(),
        Physics::default(),
        &[resting(hanger), nudger],
    );
    assert!(world.run());
    assert_eq!(world.discs()[0].state, DiscState::Hole);
    assert_eq!(world.discs()[1].state, DiscState::Rest);
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
