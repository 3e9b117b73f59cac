//! Where a shooter may place its disc: touching the shooting line, inside its quadrant.
//!
//! Geometry (origin at the hole's centre, metres). Seat `s` looks along the unit vector
//! `u` pointing from the centre to the seat (polar angle 270, 180, 90, 0 degrees for
//! `s = 0..3`); `p` is `u` turned a quarter counter-clockwise. A point's **along** and
//! **lateral** components are `pos . u` and `pos . p`; both are exact (the vectors are
//! made of 0 and +-1), so no trigonometry runs and the result is the same on every machine.
//!
//! - **Quadrant** of seat `s`: polar angle within 45 degrees of the seat's direction,
//!   inclusive, which is `along >= |lateral|`. Its two quadrant lines are the radial rays
//!   at the seat's angle +- 45 degrees; positive `lateral` lies toward the `+45` line.
//! - **Touching the shooting line**: the line is a ring of width `w` centred on radius `L`;
//!   a disc of radius `R` touches it when `L - w/2 - R <= |pos| <= L + w/2 + R`.
//! - **Flat on the board**: the centre is on the playing surface, `|pos| < surface_radius`
//!   (a disc whose centre is over the surface lies flat; the engine makes the same test).
//! - **Traditional**: at least 50% of the disc inside the quadrant. The quadrant lines are
//!   straight, so this is the centre inside it: `|lateral| - along <= 0`.
//! - **Tournament**: between the quadrant lines, overhanging one as long as the disc still
//!   touches it (WCC wording: "a disc may exceed the quadrant line of the contestant but must
//!   remain touching the contestant's quadrant line"). The quadrant line has width `w` too,
//!   so the centre may lie up to `R + w/2` beyond the line's centre, measured perpendicular
//!   to it: `(|lateral| - along) / sqrt(2) <= R + w/2`, computed as
//!   `|lateral| - along <= sqrt(2) (R + w/2)`. The quadrant lines are taken as full rays
//!   from the centre (the drawn lines stop at the shooting line; a disc touching the
//!   shooting line cannot reach past their ends by more than this allowance anyway).
//!
//! Every inequality is given the engine's placement tolerance ([`PLACEMENT_TOLERANCE`],
//! 1e-9 m), so that a disc laid exactly on a limit by arithmetic is accepted.

use crate::ruleset::Ruleset;
use crate::seat::{seat_in_play, team_of_seat, valid_players};
use crokinole_core::board::Board;
use crokinole_core::error::InputError;
use crokinole_core::shot::Flick;
use crokinole_core::world::PLACEMENT_TOLERANCE;
use glam::DVec2;
use std::fmt;

/// Why a shot was refused before any physics ran. Each names its problem; converted to an
/// [`InputError`] its field is `players`, `seat`, `shooter.team` or `shooter.pos`.
#[derive(Clone, Debug, PartialEq)]
pub enum PlacementError {
    /// The number of players is not 2 or 4.
    Players {
        /// The number given.
        players: u8,
    },
    /// The seat does not exist (above 3) or is empty with this many players (seats 1 and 3
    /// with two players).
    Seat {
        /// The seat given.
        seat: u8,
        /// Players at the table.
        players: u8,
    },
    /// The shooter's team is not its seat's team.
    Team {
        /// The shooter's seat.
        seat: u8,
        /// The seat's team.
        expected: u8,
        /// The shooter's team.
        got: u8,
    },
    /// The shooter's position is NaN or infinite.
    NotFinite,
    /// The centre is not on the playing surface, so the disc cannot lie flat.
    OffSurface {
        /// Distance of the centre from the middle, m.
        r: f64,
        /// Radius of the playing surface, m.
        surface_radius: f64,
    },
    /// The disc does not touch the shooting line.
    NotTouchingShootingLine {
        /// Distance of the centre from the middle, m.
        r: f64,
        /// Smallest and largest centre distance at which the disc touches the line, m.
        min: f64,
        /// See `min`.
        max: f64,
    },
    /// The centre is not on the seat's half of the board (`along <= 0`).
    WrongHalf {
        /// The shooter's seat.
        seat: u8,
    },
    /// The disc is outside the seat's quadrant, beyond one of its quadrant lines.
    OutsideQuadrant {
        /// The shooter's seat.
        seat: u8,
        /// Polar angle of the quadrant line crossed, degrees (45, 135, 225 or 315).
        line_deg: u16,
        /// Rule set whose definition was applied.
        ruleset: Ruleset,
        /// Distance of the centre beyond the line's centre, measured perpendicular to it, m.
        beyond: f64,
        /// How far beyond the line the centre may lie: 0 (traditional) or `R + w/2`
        /// (tournament), m.
        allowed: f64,
    },
}

impl PlacementError {
    /// The field the refusal belongs to, as in the shot file.
    pub fn field(&self) -> &'static str {
        match self {
            PlacementError::Players { .. } => "players",
            PlacementError::Seat { .. } => "seat",
            PlacementError::Team { .. } => "shooter.team",
            _ => "shooter.pos",
        }
    }

    /// The problem in words (without the field).
    pub fn problem(&self) -> String {
        match *self {
            PlacementError::Players { players } => {
                format!("must be 2 or 4, got {players}")
            }
            PlacementError::Seat { seat, players } => {
                if seat > 3 {
                    format!("must be 0, 1, 2 or 3, got {seat}")
                } else {
                    format!("seat {seat} is empty with {players} players (seats 0 and 2 play)")
                }
            }
            PlacementError::Team {
                seat,
                expected,
                got,
            } => format!("seat {seat} plays for team {expected}, the shooter is team {got}"),
            PlacementError::NotFinite => "illegal placement: not a finite position".to_string(),
            PlacementError::OffSurface { r, surface_radius } => format!(
                "illegal placement: the centre is {r:.6} m from the middle, off the playing surface \
                 (radius {surface_radius}), so the disc cannot start flat"
            ),
            PlacementError::NotTouchingShootingLine { r, min, max } => format!(
                "illegal placement: not touching the shooting line: the centre is {r:.6} m from \
                 the middle, a touching disc has its centre between {min:.6} and {max:.6} m"
            ),
            PlacementError::WrongHalf { seat } => format!(
                "illegal placement: the disc is on the far half of the board from seat {seat}, \
                 not in its quadrant"
            ),
            PlacementError::OutsideQuadrant {
                seat,
                line_deg,
                ruleset,
                beyond,
                allowed,
            } => match ruleset {
                Ruleset::Traditional => format!(
                    "illegal placement: outside seat {seat}'s quadrant: the centre is {beyond:.6} m \
                     beyond the quadrant line at {line_deg} deg, so less than half the disc is \
                     inside (traditional rules)"
                ),
                Ruleset::Tournament => format!(
                    "illegal placement: outside seat {seat}'s quadrant: the centre is {beyond:.6} m \
                     beyond the quadrant line at {line_deg} deg, more than the {allowed:.6} m at \
                     which the disc still touches it (tournament rules)"
                ),
            },
        }
    }
}

impl fmt::Display for PlacementError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "field `{}`: {}", self.field(), self.problem())
    }
}

impl std::error::Error for PlacementError {}

impl From<PlacementError> for InputError {
    fn from(e: PlacementError) -> InputError {
        InputError::new(e.field(), e.problem())
    }
}

/// Unit vector from the centre toward seat `seat` (0-3): `(0,-1)`, `(-1,0)`, `(0,1)`,
/// `(1,0)`. Seats above 3 wrap modulo 4.
pub fn seat_direction(seat: u8) -> DVec2 {
    match seat % 4 {
        0 => DVec2::new(0.0, -1.0),
        1 => DVec2::new(-1.0, 0.0),
        2 => DVec2::new(0.0, 1.0),
        _ => DVec2::new(1.0, 0.0),
    }
}

/// Polar angle of seat `seat`'s direction, degrees: 270, 180, 90, 0.
pub fn seat_angle_deg(seat: u8) -> u16 {
    [270, 180, 90, 0][usize::from(seat % 4)]
}

/// `(along, lateral)` of `pos` in seat `seat`'s frame: the components along the seat's
/// direction `u` and along `u` turned a quarter counter-clockwise. Exact.
pub fn seat_frame(seat: u8, pos: DVec2) -> (f64, f64) {
    let u = seat_direction(seat);
    let p = DVec2::new(-u.y, u.x);
    (pos.dot(u), pos.dot(p))
}

/// Whether `pos` lies in seat `seat`'s quadrant: polar angle within 45 degrees of the
/// seat's direction, inclusive (`along >= |lateral|`, exactly).
pub fn in_quadrant(seat: u8, pos: DVec2) -> bool {
    let (along, lateral) = seat_frame(seat, pos);
    along >= lateral.abs()
}

/// Checks where a shot starts, before any physics runs: `players` is 2 or 4, `seat` is in
/// play, the shooter is the seat's team, and its disc (radius `disc_radius`) lies flat,
/// touches the shooting line and is inside the seat's quadrant by `ruleset`'s definition
/// (see the module documentation). The first problem found is returned, in that order.
///
/// Overlaps with other discs or pegs and the shooter's speed are the engine's checks
/// ([`crokinole_core::run_shot`]), not this one's.
pub fn check_placement(
    board: &Board,
    disc_radius: f64,
    seat: u8,
    players: u8,
    ruleset: Ruleset,
    shooter: &Flick,
) -> Result<(), PlacementError> {
    if !valid_players(players) {
        return Err(PlacementError::Players { players });
    }
    if !seat_in_play(seat, players) {
        return Err(PlacementError::Seat { seat, players });
    }
    let expected = team_of_seat(seat, players).unwrap_or(0);
    if shooter.team != expected {
        return Err(PlacementError::Team {
            seat,
            expected,
            got: shooter.team,
        });
    }
    let pos = shooter.pos;
    if !(pos.x.is_finite() && pos.y.is_finite()) {
        return Err(PlacementError::NotFinite);
    }
    let r = pos.length();
    if r >= board.surface_radius {
        return Err(PlacementError::OffSurface {
            r,
            surface_radius: board.surface_radius,
        });
    }
    let reach = disc_radius + 0.5 * board.line_width;
    let (min, max) = (
        board.shooting_line_radius - reach,
        board.shooting_line_radius + reach,
    );
    if r < min - PLACEMENT_TOLERANCE || r > max + PLACEMENT_TOLERANCE {
        return Err(PlacementError::NotTouchingShootingLine { r, min, max });
    }
    let (along, lateral) = seat_frame(seat, pos);
    if along <= 0.0 {
        return Err(PlacementError::WrongHalf { seat });
    }
    let allowed = match ruleset {
        Ruleset::Traditional => 0.0,
        Ruleset::Tournament => reach,
    };
    // Centre beyond the nearer quadrant line by (|lateral| - along) / sqrt(2); compare
    // without dividing.
    let excess = lateral.abs() - along;
    if excess > std::f64::consts::SQRT_2 * allowed + PLACEMENT_TOLERANCE {
        let angle = seat_angle_deg(seat);
        let line_deg = if lateral > 0.0 {
            (angle + 45) % 360
        } else {
            (angle + 315) % 360
        };
        return Err(PlacementError::OutsideQuadrant {
            seat,
            line_deg,
            ruleset,
            beyond: excess / std::f64::consts::SQRT_2,
            allowed,
        });
    }
    Ok(())
}

/// Largest `|offset|` the quadrant rule allows a disc centred on the shooting line's
/// middle circle (radius `L`), where `offset` is the centre's `lateral` component in the
/// seat's frame (positive to the shooter's right): traditional `L / sqrt(2)` (the centre
/// on the quadrant line); tournament the `o` at which `o - sqrt(L^2 - o^2) = sqrt(2) (R +
/// w/2)`, that is `(c + sqrt(2 L^2 - c^2)) / 2` with `c = sqrt(2) (R + w/2)` (the disc
/// overhanging the line while still touching it). Square roots only: the same on every
/// machine.
pub fn quadrant_offset_limit(board: &Board, disc_radius: f64, ruleset: Ruleset) -> f64 {
    let l = board.shooting_line_radius;
    let c = match ruleset {
        Ruleset::Traditional => 0.0,
        Ruleset::Tournament => std::f64::consts::SQRT_2 * (disc_radius + 0.5 * board.line_width),
    };
    let c = c.min(l);
    0.5 * (c + (2.0 * l * l - c * c).sqrt())
}

/// The offsets (as in [`quadrant_offset_limit`]) of the shooting line's middle circle at
/// which a disc of radius `disc_radius` centred there, for seat `seat`, would overlap one
/// of `discs` (each of radius `disc_radius`) or a peg: one open interval `(lo, hi)` per
/// body within reach, in the order of `discs` then the pegs, not merged. A body reaches
/// the circle where its centre `q` is within `s` (the sum of the radii) of it; the blocked
/// arc's ends are where `|p - q| = s` on the circle, found with square roots only. Only
/// bodies on the seat's half (`along > 0`) are counted: a body on the far half can only
/// touch the circle more than `L - s` from the seat's axis, beyond every quadrant limit.
pub fn blocked_offsets(
    board: &Board,
    disc_radius: f64,
    seat: u8,
    discs: &[crokinole_core::shot::Placed],
) -> Vec<(f64, f64)> {
    let l = board.shooting_line_radius;
    let bodies = discs.iter().map(|d| (d.pos, 2.0 * disc_radius)).chain(
        board
            .pegs
            .iter()
            .map(|&p| (p, disc_radius + board.peg_radius)),
    );
    let mut out = Vec::new();
    for (q, s) in bodies {
        let (along, lateral) = seat_frame(seat, q);
        let rho = q.length();
        if !(along > 0.0 && (rho - l).abs() < s) {
            continue;
        }
        // Points p of the circle with p . q = k are where |p - q| = s.
        let k = 0.5 * (l * l + rho * rho - s * s);
        let foot = k / (rho * rho);
        let h = (l * l - k * k / (rho * rho)).max(0.0).sqrt() / rho;
        let (mid, half) = (foot * lateral, h * along);
        out.push((mid - half, mid + half));
    }
    out
}

/// The offsets (as in [`quadrant_offset_limit`]) at which seat `seat` may place its disc
/// on the shooting line's middle circle: within `limit` of the seat's axis and clear of
/// [`blocked_offsets`], as sorted disjoint closed intervals, each shrunk by
/// [`PLACEMENT_TOLERANCE`] at both ends so that every offset in one passes
/// [`check_placement`] and the engine's overlap check despite rounding. `limit` is
/// [`quadrant_offset_limit`] or a tighter bound of the caller's.
pub fn legal_offsets(
    board: &Board,
    disc_radius: f64,
    seat: u8,
    limit: f64,
    discs: &[crokinole_core::shot::Placed],
) -> Vec<(f64, f64)> {
    let mut blocked = blocked_offsets(board, disc_radius, seat, discs);
    blocked.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let mut out = Vec::new();
    let mut lo = -limit;
    for (b_lo, b_hi) in blocked {
        if b_lo > lo {
            out.push((lo, b_lo.min(limit)));
        }
        lo = lo.max(b_hi);
        if lo >= limit {
            break;
        }
    }
    if lo < limit {
        out.push((lo, limit));
    }
    out.into_iter()
        .map(|(a, b)| (a + PLACEMENT_TOLERANCE, b - PLACEMENT_TOLERANCE))
        .filter(|(a, b)| a <= b)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_frames_put_each_seat_on_its_own_side() {
        for seat in 0..4 {
            let u = seat_direction(seat);
            assert_eq!(seat_frame(seat, u * 0.3), (0.3, 0.0));
            assert!(in_quadrant(seat, u * 0.3));
            assert!(!in_quadrant((seat + 1) % 4, u * 0.3));
        }
        // Positive lateral lies toward the seat's +45 degree line: seat 0 (270) -> 315,
        // which is +x, -y.
        assert!(seat_frame(0, DVec2::new(0.1, -0.3)).1 > 0.0);
    }

    #[test]
    fn the_quadrant_offset_limit_is_where_check_placement_stops_accepting() {
        let board = Board::tournament();
        let r = 0.015875;
        let l = board.shooting_line_radius;
        for ruleset in [Ruleset::Traditional, Ruleset::Tournament] {
            let limit = quadrant_offset_limit(&board, r, ruleset);
            for seat in [0, 2] {
                let at = |o: f64| {
                    // The centre on the line's middle circle at lateral `o` of the seat.
                    let u = seat_direction(seat);
                    let p = DVec2::new(-u.y, u.x);
                    let pos = u * (l * l - o * o).sqrt() + p * o;
                    let team = crate::seat::team_of_seat(seat, 2).unwrap();
                    check_placement(
                        &board,
                        r,
                        seat,
                        2,
                        ruleset,
                        &Flick {
                            team,
                            pos,
                            vel: DVec2::ZERO,
                            spin: 0.0,
                        },
                    )
                };
                for sign in [-1.0, 1.0] {
                    assert!(at(sign * (limit - 1e-9)).is_ok(), "{ruleset:?} seat {seat}");
                    assert!(
                        at(sign * (limit + 1e-6)).is_err(),
                        "{ruleset:?} seat {seat}"
                    );
                }
            }
        }
        assert!(
            quadrant_offset_limit(&board, r, Ruleset::Tournament)
                > quadrant_offset_limit(&board, r, Ruleset::Traditional)
        );
    }

    #[test]
    fn legal_offsets_leave_out_what_a_disc_on_the_line_blocks() {
        let board = Board::tournament();
        let r = 0.015875;
        let l = board.shooting_line_radius;
        let limit = 0.2;
        assert_eq!(
            legal_offsets(&board, r, 0, limit, &[]),
            vec![(-limit + PLACEMENT_TOLERANCE, limit - PLACEMENT_TOLERANCE)]
        );
        let on_line = crokinole_core::shot::Placed {
            team: 1,
            pos: DVec2::new(0.0, -l),
        };
        let got = legal_offsets(&board, r, 0, limit, &[on_line]);
        let half = 2.0 * r * (1.0 - (r / l) * (r / l)).sqrt();
        assert_eq!(got.len(), 2);
        assert!(
            (got[0].1 + half).abs() < 2e-9 && (got[1].0 - half).abs() < 2e-9,
            "{got:?}"
        );
        // The same disc seen from the other side of the board blocks nothing.
        assert_eq!(legal_offsets(&board, r, 2, limit, &[on_line]).len(), 1);
    }
}
