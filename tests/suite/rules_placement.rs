//! Placement: the shooter's disc must touch the shooting line inside its seat's quadrant
//! (traditional: centre inside; tournament: overhang allowed while the disc touches the
//! quadrant line). Every seat, both sides of every quadrant, both sides of the line.

use crokinole::rules::placement::{seat_angle_deg, seat_direction};
use crokinole::rules::{PlacementError, Ruleset, check_placement};
use crokinole::{Board, Flick, InputError};
use glam::DVec2;
use std::f64::consts::FRAC_1_SQRT_2;

const R: f64 = 0.015_875;

fn board() -> Board {
    Board::tournament()
}

fn flick(team: u8, pos: DVec2) -> Flick {
    Flick {
        team,
        pos,
        vel: DVec2::new(0.0, 0.0),
        spin: 0.0,
    }
}

/// Four players, so every seat plays; seat `s` is team `s % 2`.
fn check(seat: u8, ruleset: Ruleset, pos: DVec2) -> Result<(), PlacementError> {
    check_placement(&board(), R, seat, 4, ruleset, &flick(seat % 2, pos))
}

/// Seat `seat`'s frame: along its direction `u`, and `p` = `u` turned a quarter
/// counter-clockwise (toward the seat's +45 degree quadrant line).
fn frame(seat: u8) -> (DVec2, DVec2) {
    let u = seat_direction(seat);
    (u, DVec2::new(-u.y, u.x))
}

/// A point on the shooting line's radius (to first order) `d` metres beyond the seat's
/// quadrant line on side `side` (+1: the +45 degree line, -1: the -45 degree line),
/// measured perpendicular to the line; negative `d` is inside the quadrant.
fn beyond_line(seat: u8, side: f64, d: f64) -> DVec2 {
    let (u, p) = frame(seat);
    let l = board().shooting_line_radius;
    let along_line = (u + side * p) * FRAC_1_SQRT_2;
    let outward = (side * p - u) * FRAC_1_SQRT_2;
    along_line * l + outward * d
}

fn line_deg(seat: u8, side: f64) -> u16 {
    let a = seat_angle_deg(seat);
    if side > 0.0 {
        (a + 45) % 360
    } else {
        (a + 315) % 360
    }
}

#[test]
fn the_middle_of_each_quadrant_on_the_shooting_line_is_legal() {
    for seat in 0..4 {
        for ruleset in Ruleset::ALL {
            let pos = seat_direction(seat) * board().shooting_line_radius;
            assert_eq!(check(seat, ruleset, pos), Ok(()), "seat {seat} {ruleset}");
        }
    }
}

#[test]
fn traditional_refuses_a_centre_beyond_either_quadrant_line_of_every_seat() {
    for seat in 0..4 {
        for side in [1.0, -1.0] {
            // Centre on the line: exactly half the disc inside, legal.
            assert_eq!(
                check(seat, Ruleset::Traditional, beyond_line(seat, side, 0.0)),
                Ok(())
            );
            assert_eq!(
                check(seat, Ruleset::Traditional, beyond_line(seat, side, -0.001)),
                Ok(())
            );
            let e = check(seat, Ruleset::Traditional, beyond_line(seat, side, 1e-6)).unwrap_err();
            match e {
                PlacementError::OutsideQuadrant {
                    seat: s,
                    line_deg: deg,
                    ruleset: Ruleset::Traditional,
                    beyond,
                    allowed,
                } => {
                    assert_eq!((s, deg, allowed), (seat, line_deg(seat, side), 0.0));
                    assert!((beyond - 1e-6).abs() < 1e-9, "{beyond}");
                }
                other => panic!("seat {seat} side {side}: {other:?}"),
            }
            let text = InputError::from(e).to_string();
            assert!(
                text.contains("shooter.pos") && text.contains("less than half the disc"),
                "{text}"
            );
        }
    }
}

#[test]
fn tournament_allows_overhang_while_the_disc_touches_the_quadrant_line() {
    let b = board();
    let touch = R + 0.5 * b.line_width;
    for seat in 0..4 {
        for side in [1.0, -1.0] {
            for d in [0.0, 0.5 * touch, touch] {
                assert_eq!(
                    check(seat, Ruleset::Tournament, beyond_line(seat, side, d)),
                    Ok(()),
                    "seat {seat} side {side} overhang {d}"
                );
            }
            // Traditional refuses the same overhang.
            assert!(
                check(
                    seat,
                    Ruleset::Traditional,
                    beyond_line(seat, side, 0.5 * touch)
                )
                .is_err()
            );
            let e = check(
                seat,
                Ruleset::Tournament,
                beyond_line(seat, side, touch + 1e-6),
            )
            .unwrap_err();
            match e {
                PlacementError::OutsideQuadrant {
                    line_deg: deg,
                    ruleset: Ruleset::Tournament,
                    allowed,
                    ..
                } => assert_eq!((deg, allowed), (line_deg(seat, side), touch)),
                other => panic!("seat {seat} side {side}: {other:?}"),
            }
        }
    }
}

#[test]
fn a_disc_off_the_shooting_line_is_refused_on_either_side() {
    let b = board();
    let reach = R + 0.5 * b.line_width;
    let l = b.shooting_line_radius;
    for seat in 0..4 {
        let u = seat_direction(seat);
        for ruleset in Ruleset::ALL {
            // Touching from inside and from outside: legal.
            assert_eq!(check(seat, ruleset, u * (l - reach)), Ok(()));
            assert_eq!(check(seat, ruleset, u * (l + reach)), Ok(()));
            for r in [l - reach - 1e-6, l + reach + 1e-6, 0.2] {
                match check(seat, ruleset, u * r) {
                    Err(PlacementError::NotTouchingShootingLine { min, max, .. }) => {
                        assert_eq!((min, max), (l - reach, l + reach));
                    }
                    other => panic!("seat {seat} r {r}: {other:?}"),
                }
            }
        }
    }
    let e = InputError::from(check(0, Ruleset::Traditional, DVec2::new(0.0, -0.2)).unwrap_err());
    assert_eq!(e.field, "shooter.pos");
    assert!(e.problem.contains("not touching the shooting line"), "{e}");
}

#[test]
fn a_disc_on_another_seats_side_is_refused() {
    for seat in 0..4 {
        let opposite = -seat_direction(seat) * board().shooting_line_radius;
        assert_eq!(
            check(seat, Ruleset::Tournament, opposite),
            Err(PlacementError::WrongHalf { seat })
        );
        // 60 degrees off the seat's direction, in a neighbour's quadrant: beyond a
        // quadrant line.
        let (u, p) = frame(seat);
        let neighbour = (u * 0.5 + p * 0.866_025_403_784_438_6) * board().shooting_line_radius;
        assert!(matches!(
            check(seat, Ruleset::Tournament, neighbour),
            Err(PlacementError::OutsideQuadrant { .. })
        ));
    }
}

#[test]
fn a_centre_off_the_playing_surface_is_refused() {
    // A board whose shooting line lies close to the edge: the outermost touching position
    // has its centre off the surface.
    let b = Board {
        surface_radius: 0.31,
        ..Board::tournament()
    };
    let pos = DVec2::new(0.0, -0.315);
    let e = check_placement(&b, R, 0, 2, Ruleset::Traditional, &flick(0, pos)).unwrap_err();
    assert!(matches!(e, PlacementError::OffSurface { .. }), "{e:?}");
    let nan = DVec2::new(f64::NAN, -0.3);
    let e = check_placement(&b, R, 0, 2, Ruleset::Traditional, &flick(0, nan)).unwrap_err();
    assert_eq!(e, PlacementError::NotFinite);
}

#[test]
fn seats_teams_and_player_counts_are_checked_first() {
    let b = board();
    let spot = |seat: u8| seat_direction(seat) * b.shooting_line_radius;
    let t = Ruleset::Traditional;
    // Two players: seats 0 (team 0) and 2 (team 1); seats 1 and 3 are empty.
    assert_eq!(check_placement(&b, R, 0, 2, t, &flick(0, spot(0))), Ok(()));
    assert_eq!(check_placement(&b, R, 2, 2, t, &flick(1, spot(2))), Ok(()));
    for seat in [1, 3, 4] {
        assert_eq!(
            check_placement(&b, R, seat, 2, t, &flick(0, spot(seat))),
            Err(PlacementError::Seat { seat, players: 2 })
        );
    }
    assert_eq!(
        check_placement(&b, R, 2, 2, t, &flick(0, spot(2))),
        Err(PlacementError::Team {
            seat: 2,
            expected: 1,
            got: 0
        })
    );
    // Four players: partners opposite, 0 and 2 team 0, 1 and 3 team 1.
    for seat in 0..4 {
        assert_eq!(
            check_placement(&b, R, seat, 4, t, &flick(seat % 2, spot(seat))),
            Ok(())
        );
        assert!(check_placement(&b, R, seat, 4, t, &flick(1 - seat % 2, spot(seat))).is_err());
    }
    assert_eq!(
        check_placement(&b, R, 0, 3, t, &flick(0, spot(0))),
        Err(PlacementError::Players { players: 3 })
    );
    let e = InputError::from(PlacementError::Seat {
        seat: 5,
        players: 4,
    });
    assert_eq!(
        (e.field.as_str(), e.problem.as_str()),
        ("seat", "must be 0, 1, 2 or 3, got 5")
    );
}
