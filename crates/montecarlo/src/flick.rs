//! A flick the way a player makes it, and the seat geometry that turns it into initial
//! conditions: where on the shooting line the disc starts, which way it goes, how fast,
//! with how much spin.
//!
//! Frame (`docs/shot-file.md`): origin at the centre of the 20 hole, seat `s` at
//! polar angle 270, 180, 90, 0 degrees for `s` = 0, 1, 2, 3. Each seat has its own frame,
//! seat 0's turned clockwise by `s` quarter turns: in it the player sits at `-y` looking
//! toward `+y`, with `+x` to the player's right. The quarter turns swap and negate
//! coordinates, so the conversion is exact.
//!
//! Placement: the disc's centre starts on the shooting line (radius `R`), at lateral
//! offset `x` in the seat's frame: `(x, -sqrt(R^2 - x^2))`. It is inside the seat's
//! quadrant (polar angle within 45 degrees of the seat's, inclusive) when
//! `|x| <= sqrt(R^2 - x^2)`, i.e. `|x| <= R / sqrt(2)`; the test is made on the computed
//! centre. Direction: `aim` radians counter-clockwise from straight ahead (the seat's
//! `+y`), or from the direction toward `target` when one is given. Only `+ - * /`, `sqrt`
//! and [`detmath::sin_cos`] are used.

use super::detmath;
use crokinole_core::board::Board;
use crokinole_core::error::{InputError, num};
use crokinole_core::shot::Flick;
use crokinole_rules::placement::in_quadrant;
use glam::DVec2;

/// A shot as a player describes it. SI units, radians.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerFlick {
    /// Lateral offset of the disc's centre along the shooting line, m, in the seat's frame:
    /// positive to the player's right. 0 is the middle of the seat's quadrant.
    pub offset: f64,
    /// Aim, rad, counter-clockwise from straight ahead (or from the direction toward
    /// `target`, if given).
    pub aim: f64,
    /// A point on the board (board frame, m) to aim at: the direction is from the disc's
    /// centre, wherever it was placed, toward it; `aim` turns it further. `None`: aim
    /// relative to straight ahead.
    pub target: Option<DVec2>,
    /// Speed of the disc's centre, m/s.
    pub speed: f64,
    /// Spin, rad/s, counter-clockwise seen from above.
    pub spin: f64,
}

/// `0 - x`: the negation that never makes a negative zero (so `[0.0, y]` stays `0.0`).
fn neg(x: f64) -> f64 {
    0.0 - x
}

/// A vector of seat `seat`'s frame in the board frame (an exact quarter-turn rotation).
pub fn seat_to_board(seat: u8, v: DVec2) -> DVec2 {
    match seat % 4 {
        0 => v,
        1 => DVec2::new(v.y, neg(v.x)),
        2 => DVec2::new(neg(v.x), neg(v.y)),
        _ => DVec2::new(neg(v.y), v.x),
    }
}

/// A vector of the board frame in seat `seat`'s frame (inverse of [`seat_to_board`]).
pub fn board_to_seat(seat: u8, v: DVec2) -> DVec2 {
    match seat % 4 {
        0 => v,
        1 => DVec2::new(neg(v.y), v.x),
        2 => DVec2::new(neg(v.x), neg(v.y)),
        _ => DVec2::new(v.y, neg(v.x)),
    }
}

/// Largest `|offset|` that keeps the centre in the quadrant, `R / sqrt(2)` (for messages).
pub fn max_offset(board: &Board) -> f64 {
    board.shooting_line_radius * std::f64::consts::FRAC_1_SQRT_2
}

/// Centre of a disc on seat `seat`'s shooting line at lateral offset `offset` (board
/// frame). NaN if `|offset|` exceeds the shooting line's radius.
pub fn start_position(board: &Board, seat: u8, offset: f64) -> DVec2 {
    let r = board.shooting_line_radius;
    seat_to_board(
        seat,
        DVec2::new(offset, neg((r * r - offset * offset).sqrt())),
    )
}

impl PlayerFlick {
    /// The disc's starting centre for seat `seat` (board frame): on the shooting line at
    /// lateral offset `offset`. NaN if `|offset| > R`.
    pub fn position(&self, board: &Board, seat: u8) -> DVec2 {
        start_position(board, seat, self.offset)
    }

    /// Unit direction of travel (board frame) from the starting centre `pos`.
    pub fn direction(&self, seat: u8, pos: DVec2) -> DVec2 {
        let (s, c) = detmath::sin_cos(self.aim);
        match self.target {
            None => seat_to_board(seat, DVec2::new(neg(s), c)),
            Some(t) => {
                let d = t - pos;
                let d = d / d.length();
                DVec2::new(d.x * c - d.y * s, d.x * s + d.y * c)
            }
        }
    }

    /// The shooter's initial conditions for seat `seat` and team `team`.
    pub fn to_flick(&self, board: &Board, seat: u8, team: u8) -> Flick {
        let pos = self.position(board, seat);
        Flick {
            team,
            pos,
            vel: self.direction(seat, pos) * self.speed,
            spin: self.spin,
        }
    }

    /// Checks the numbers and the placement of the intended (noiseless) flick: finite
    /// values, the centre inside seat `seat`'s quadrant, `|aim| <= pi`, a positive speed,
    /// a target strictly inside the shooting line. Fields are `flick.offset`, `flick.aim`,
    /// `flick.target`, `flick.speed`, `flick.spin`.
    pub fn check(&self, board: &Board, seat: u8) -> Result<(), InputError> {
        for (field, x) in [
            ("flick.offset", self.offset),
            ("flick.aim", self.aim),
            ("flick.speed", self.speed),
            ("flick.spin", self.spin),
        ] {
            if !x.is_finite() {
                return Err(InputError::new(
                    field,
                    format!("must be a finite number, got {}", num(x)),
                ));
            }
        }
        let limit = max_offset(board);
        let pos = self.position(board, seat);
        if !(self.offset.abs() <= board.shooting_line_radius && in_quadrant(seat, pos)) {
            return Err(InputError::new(
                "flick.offset",
                format!(
                    "{} m puts the disc's centre outside seat {seat}'s quadrant: |offset| must be \
                     at most {limit:.9} m (shooting_line_radius / sqrt(2))",
                    num(self.offset)
                ),
            ));
        }
        if self.aim.abs() > std::f64::consts::PI {
            return Err(InputError::new(
                "flick.aim",
                format!("must lie in [-pi, pi] radians, got {}", num(self.aim)),
            ));
        }
        if self.speed <= 0.0 {
            return Err(InputError::new(
                "flick.speed",
                format!("must be positive, got {}", num(self.speed)),
            ));
        }
        if let Some(t) = self.target {
            if !(t.x.is_finite() && t.y.is_finite()) {
                return Err(InputError::new(
                    "flick.target",
                    format!("must be finite, got [{}, {}]", num(t.x), num(t.y)),
                ));
            }
            if t.length() >= board.shooting_line_radius {
                return Err(InputError::new(
                    "flick.target",
                    format!(
                        "must lie inside the shooting line ({} m from the centre, the line is at {} m)",
                        t.length(),
                        board.shooting_line_radius
                    ),
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_frames_turn_clockwise_by_quarter_turns() {
        let v = DVec2::new(0.25, -1.0);
        assert_eq!(seat_to_board(0, v), v);
        assert_eq!(seat_to_board(1, v), DVec2::new(-1.0, -0.25));
        assert_eq!(seat_to_board(2, v), DVec2::new(-0.25, 1.0));
        assert_eq!(seat_to_board(3, v), DVec2::new(1.0, 0.25));
        for seat in 0..4 {
            assert_eq!(board_to_seat(seat, seat_to_board(seat, v)), v);
            // The seat's middle sits at polar angle 270 - 90 s degrees.
            let mid = seat_to_board(seat, DVec2::new(0.0, -1.0));
            let want = [(0.0, -1.0), (-1.0, 0.0), (0.0, 1.0), (1.0, 0.0)][seat as usize];
            assert_eq!((mid.x, mid.y), want);
            assert!(mid.x.is_sign_positive() || mid.x != 0.0, "no negative zero");
        }
    }

    #[test]
    fn quadrants_are_inclusive_at_45_degrees() {
        let d = 0.2;
        assert!(in_quadrant(0, DVec2::new(d, -d)));
        assert!(in_quadrant(0, DVec2::new(-d, -d)));
        assert!(!in_quadrant(0, DVec2::new(d + 1e-12, -d)));
        assert!(in_quadrant(1, DVec2::new(-d, d)));
        assert!(in_quadrant(3, DVec2::new(d, d)));
        assert!(!in_quadrant(2, DVec2::new(0.0, -0.3)));
    }

    #[test]
    fn a_straight_flick_from_each_seat_heads_for_the_hole() {
        let board = Board::tournament();
        let f = PlayerFlick {
            offset: 0.0,
            aim: 0.0,
            target: None,
            speed: 0.8,
            spin: 1.5,
        };
        for seat in 0..4u8 {
            let flick = f.to_flick(&board, seat, 1);
            assert_eq!(flick.pos.length(), board.shooting_line_radius);
            let r = board.shooting_line_radius;
            assert!(
                (flick.vel / 0.8 + flick.pos / r).length() < 1e-16,
                "seat {seat}"
            );
            assert_eq!(flick.spin, 1.5);
            assert_eq!(flick.team, 1);
        }
        // Aiming at the hole from an offset points at it exactly (up to rounding).
        let g = PlayerFlick {
            offset: 0.1,
            target: Some(DVec2::ZERO),
            ..f
        };
        let flick = g.to_flick(&board, 0, 0);
        let want = -flick.pos.normalize() * 0.8;
        assert!((flick.vel - want).length() < 1e-15);
    }

    #[test]
    fn the_offset_must_keep_the_centre_in_the_quadrant() {
        let board = Board::tournament();
        let limit = max_offset(&board);
        let f = |offset| PlayerFlick {
            offset,
            aim: 0.0,
            target: None,
            speed: 0.8,
            spin: 0.0,
        };
        assert!(f(limit * (1.0 - 1e-12)).check(&board, 0).is_ok());
        let e = f(limit * (1.0 + 1e-9)).check(&board, 1).unwrap_err();
        assert_eq!(e.field, "flick.offset");
        assert!(e.problem.contains("outside seat 1's quadrant"), "{e}");
        assert!(f(-0.31).check(&board, 0).is_err());
        assert!(f(f64::NAN).check(&board, 0).is_err());
    }
}
