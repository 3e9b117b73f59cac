//! Each work bound of docs/limits.md met on purpose: the shot ends cleanly and says why, or
//! the input is refused with one clear line.

use crokinole::io::{parse_shot_file, write_outcomes};
use crokinole::limits::{Limit, MAX_DISCS, MAX_EVENTS_PER_SHOT, MAX_PEGS, MAX_TRACE_POINTS};
use crokinole::trace::trace_shot;
use crokinole::{Board, Disc, DiscState, Flick, Physics, Placed, Shot, World, run_shot};
use glam::DVec2;

use crate::common;

/// A disc between two pegs a nanometre wider apart than it, restitution 1, no friction:
/// it bounces for ever, a billion times a second. Symptom before the bound: 100,000 events
/// a step, 1.57 GB of log and an abort on allocation. Now the shot ends at the event bound.
#[test]
fn an_event_storm_ends_the_shot_at_the_event_bound() {
    let physics = common::ideal_physics();
    let board = Board::tournament();
    let (r, pr) = (physics.disc_radius, board.peg_radius);
    let y = 0.2;
    let half = r + pr + 0.5e-9;
    let board = Board {
        pegs: vec![DVec2::new(-half, y), DVec2::new(half, y)],
        ..board
    };
    let shot = Shot {
        discs: vec![],
        shooter: Flick {
            team: 0,
            pos: DVec2::new(0.0, y),
            vel: DVec2::new(1.0, 0.0),
            spin: 0.0,
        },
    };
    let o = run_shot(&board, &physics, &shot).unwrap();
    assert!(o.cut_off);
    assert_eq!(o.limit, Some(Limit::Events));
    assert!(o.events.len() >= MAX_EVENTS_PER_SHOT && o.events.len() < MAX_EVENTS_PER_SHOT + 16);
    assert!(o.steps <= 2, "ended after {} steps", o.steps);
    let mut json = Vec::new();
    write_outcomes(&mut json, std::slice::from_ref(&o)).unwrap();
    let text = String::from_utf8(json).unwrap();
    assert!(text.contains(r#""cut_off":true,"limit":"max_events""#));
    assert!(
        text.len() < 150 * MAX_EVENTS_PER_SHOT,
        "{} bytes",
        text.len()
    );
}

/// The per-step cap is reported: a step that meets it shows in `capped_steps`.
#[test]
fn a_capped_step_is_counted_in_the_outcome() {
    let physics = Physics {
        max_events_per_step: 2,
        ..Physics::default()
    };
    // A shot into a row of touching discs: many contacts in the first steps.
    let r = physics.disc_radius;
    let discs = (0..6)
        .map(|k| Placed {
            team: 1,
            pos: DVec2::new(-0.1 + 2.0 * r * f64::from(k), 0.2),
        })
        .collect();
    let shot = Shot {
        discs,
        shooter: Flick {
            team: 0,
            pos: DVec2::new(-0.1 - 2.0 * r - 0.001, 0.2),
            vel: DVec2::new(3.0, 0.0),
            spin: 0.0,
        },
    };
    let o = run_shot(&Board::tournament(), &physics, &shot).unwrap();
    assert!(o.capped_steps > 0);
    let mut json = Vec::new();
    write_outcomes(&mut json, &[o]).unwrap();
    assert!(
        String::from_utf8(json)
            .unwrap()
            .contains("\"capped_steps\":")
    );
}

#[test]
fn more_steps_than_the_bound_are_refused_up_front() {
    let text = r#"{"physics": {"max_time": 1e9}, "shots": [{"discs": [], "shooter": {"team": 0, "pos": [0, -0.3], "vel": [0, 1], "spin": 0}}]}"#;
    let e = parse_shot_file(text).unwrap_err().to_string();
    assert!(e.contains("physics.max_time") && e.contains("1e7"), "{e}");
}

#[test]
fn more_discs_than_the_bound_are_refused() {
    let physics = Physics {
        disc_radius: 1e-4,
        ..Physics::default()
    };
    let mut w = World::new(Board::tournament(), physics).unwrap();
    for k in 0..MAX_DISCS {
        let pos = DVec2::new(
            -0.25 + 5e-4 * (k % 1000) as f64,
            0.1 + 5e-4 * (k / 1000) as f64,
        );
        w.add_disc(Disc::at_rest(0, pos, 1e-4, 0.005)).unwrap();
    }
    let e = w
        .add_disc(Disc::at_rest(0, DVec2::new(0.0, 0.2), 1e-4, 0.005))
        .unwrap_err()
        .to_string();
    assert!(e.contains("at most 1024 discs"), "{e}");
}

/// Underflowing parameters are refused, not run into `null` positions. Symptom before:
/// `disc_mass` 5e-324 with spin gave `"pos": [null, null]` and exit 0.
#[test]
fn parameters_that_would_underflow_are_refused_in_scientific_notation() {
    for (key, value, expect) in [
        (
            "disc_mass",
            "5e-324",
            "must lie in [1e-6, 1e6] kg, got 5e-324",
        ),
        (
            "disc_radius",
            "1e-200",
            "must lie in [1e-4, 1000] m, got 1e-200",
        ),
        ("gravity", "1e300", "got 1e300"),
    ] {
        let text = format!(
            r#"{{"physics": {{"{key}": {value}}}, "shots": [{{"discs": [], "shooter": {{"team": 0, "pos": [0, -0.3], "vel": [0, 1], "spin": 5}}}}]}}"#
        );
        let e = parse_shot_file(&text).unwrap_err().to_string();
        assert!(
            e.contains(&format!("physics.{key}")) && e.contains(expect),
            "{e}"
        );
        assert!(e.len() < 200, "{e}");
    }
    let board = r#"{"board": {"surface_radius": 1e-100}, "shots": []}"#;
    let e = parse_shot_file(board).unwrap_err().to_string();
    assert!(e.contains("board.") && e.contains("e-"), "{e}");
}

/// A huge unknown key is quoted with its middle elided: the message stays one short line.
#[test]
fn a_huge_key_is_elided_in_the_message() {
    let key = "k".repeat(1 << 20);
    let text = format!(r#"{{"{key}": 1, "shots": []}}"#);
    let e = parse_shot_file(&text).unwrap_err().to_string();
    assert!(e.len() < 700, "{} chars", e.len());
    assert!(e.contains("characters)"), "{e}");
}

/// A trace sampled every step of a long shot with many moving discs would hold millions
/// of positions; it is thinned to the bound and still ends where the outcome does.
#[test]
fn a_trace_past_the_point_bound_is_thinned_and_still_complete() {
    // One disc struck by the shooter, both sliding for about a second at a step of
    // 0.5 us: some 2 million positions asked for.
    let physics = Physics {
        dt: 5e-7,
        max_time: 5.0,
        ..Physics::default()
    };
    let board = Board {
        pegs: vec![],
        ..Board::tournament()
    };
    let shot = Shot {
        discs: vec![Placed {
            team: 1,
            pos: DVec2::new(0.12, -0.2),
        }],
        shooter: Flick {
            team: 0,
            pos: DVec2::new(0.1, -0.3),
            vel: DVec2::new(0.0, 0.9),
            spin: 0.0,
        },
    };
    let trace = trace_shot(&board, &physics, &shot, 1).unwrap();
    let points: usize = trace.frames.iter().map(|f| f.discs.len()).sum();
    assert!(trace.every > 1, "never thinned: {points} points");
    assert!(points <= MAX_TRACE_POINTS, "{points} points");
    // Replaying every frame lands each disc where the outcome has it.
    let mut pos: Vec<DVec2> = trace.start.iter().map(|d| d.pos).collect();
    for f in &trace.frames {
        assert!(f.step.is_multiple_of(u64::from(trace.every)) || f.step == trace.outcome.steps);
        for &(id, p, _) in &f.discs {
            pos[id] = p;
        }
    }
    for (d, p) in trace.outcome.discs.iter().zip(&pos) {
        if d.state == DiscState::Rest {
            assert_eq!(d.pos, *p);
        }
    }
    assert_eq!(trace.outcome, run_shot(&board, &physics, &shot).unwrap());
}

#[test]
fn a_speed_whose_square_underflows_stops_at_once_like_any_tiny_speed() {
    // Issue #23, item 11: at 1e-162 m/s, |v|^2 underflowed to 0: the disc kept a speed of
    // 0 while moving, never stopped and ran 20,000 steps to `max_time`; 1e-160 m/s (a
    // subnormal square, not 0) stopped within the first step.
    let (board, physics) = (Board::tournament(), Physics::default());
    for vel in [
        [0.0, 1e-160],
        [0.0, 1e-162],
        [1e-200, -3e-201],
        [0.0, 5e-324],
        [-5e-324, 5e-324],
    ] {
        let shot = Shot {
            discs: vec![],
            shooter: Flick {
                team: 0,
                pos: DVec2::new(0.0, -0.3048),
                vel: DVec2::from(vel),
                spin: 0.0,
            },
        };
        let o = run_shot(&board, &physics, &shot).unwrap();
        assert!(!o.cut_off, "{vel:?}: cut off after {} steps", o.steps);
        assert_eq!(o.steps, 1, "{vel:?}");
        assert!(o.time < 1e-150, "{vel:?}: {}", o.time);
        assert_eq!(o.discs[0].pos, shot.shooter.pos, "{vel:?}");
    }
}

#[test]
fn huge_noise_widths_and_kept_positions_are_told_in_scientific_notation() {
    // Issue #23, item 11: these printed 300-digit numbers.
    let r = crate::binary::run(&["play", "--noise", "offset=1e308"], None);
    r.assert_refused("huge noise", &["field `noise.offset`", "got 1e308"]);
    assert!(!r.stderr.contains("0000000000"), "{}", r.stderr);

    use crokinole::io::{parse_state, parse_state_study, state_json};
    use crokinole::montecarlo::study::Sampling;
    let text = crate::fixture::text("montecarlo/takeout.json");
    let study = crokinole::io::parse_study_file(&text).unwrap();
    let mut tally = study.tally(&Sampling::new(1, 4, None).unwrap());
    tally.positions[0] = DVec2::new(1e300, 1e300);
    let e = parse_state(&state_json(&tally, study.spec())).unwrap_err();
    assert_eq!(e.field, "positions");
    assert!(e.problem.contains("[1e300, 1e300]"), "{e}");
    assert!(!e.problem.contains("0000000000"), "{e}");
    assert!(parse_state_study(&text).is_err());
}

/// 5,000 pegs once cost 24 s a shot: a board may hold at most `MAX_PEGS`, refused up front
/// in every input that has a board (a shot file, a study, a suggest file, the library).
#[test]
fn a_board_with_too_many_pegs_is_refused_everywhere() {
    let ring = |n: usize| -> Vec<DVec2> {
        (0..n)
            .map(|k| {
                let a = std::f64::consts::TAU * k as f64 / n as f64;
                DVec2::new(0.32 * a.cos(), 0.32 * a.sin())
            })
            .collect()
    };
    let shot = Shot {
        discs: vec![],
        shooter: Flick {
            team: 0,
            pos: DVec2::new(0.0, -0.2),
            vel: DVec2::new(0.0, 0.5),
            spin: 0.0,
        },
    };
    let board = |n| Board {
        pegs: ring(n),
        ..Board::tournament()
    };
    assert!(run_shot(&board(MAX_PEGS), &Physics::default(), &shot).is_ok());
    let e = run_shot(&board(MAX_PEGS + 1), &Physics::default(), &shot).unwrap_err();
    assert_eq!(e.field, "board.pegs", "{e}");
    assert!(
        e.problem.contains("257 pegs") && e.problem.contains("256"),
        "{e}"
    );
    let pegs: Vec<String> = ring(5000)
        .iter()
        .map(|p| format!("[{},{}]", p.x, p.y))
        .collect();
    let board_json = format!(r#""board": {{"pegs": [{}]}}"#, pegs.join(","));
    // A shot file.
    let text = format!(
        r#"{{{board_json}, "shots": [{{"discs": [], "shooter": {{"team": 0, "pos": [0, -0.3], "vel": [0, 1], "spin": 0}}}}]}}"#
    );
    let e = parse_shot_file(&text).unwrap_err().to_string();
    assert!(e.contains("board.pegs") && e.contains("5000 pegs"), "{e}");
    // A study and a suggest file.
    let study = format!(
        r#"{{{board_json}, "seat": 0, "discs": [], "flick": {{"offset": 0, "aim": 0, "speed": 1}}}}"#
    );
    let e = crokinole::jobs::study::read(&study)
        .unwrap_err()
        .to_string();
    assert!(e.contains("board.pegs") && e.contains("5000 pegs"), "{e}");
    let suggest = format!(r#"{{{board_json}, "seat": 0, "discs": []}}"#);
    let e = match crokinole::jobs::plan::read(&suggest) {
        Ok(request) => request.setup().map(|_| ()).unwrap_err().to_string(),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("board.pegs") && e.contains("5000 pegs"), "{e}");
}
