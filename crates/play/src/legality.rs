//! Whether a flick is legal where a seat stands, and why not: the check behind
//! [`Turn::legal`](crate::Turn::legal) with its reason, and the offsets along the
//! shooting line where the seat may place its disc. For callers that decide flicks
//! themselves (a Python strategy, a learning agent) and want to ask before they play.

use crokinole_core::disc::Disc;
use crokinole_core::error::InputError;
use crokinole_core::shot::Flick;
use crokinole_montecarlo::PlayerFlick;
use crokinole_montecarlo::flick::max_offset;
use crokinole_plan::Setup;
use crokinole_rules::{check_placement, legal_offsets as placement_offsets, quadrant_offset_limit};

/// The flick's initial conditions if it is legal at `setup`, else the first reason it is
/// not, in the order [`Setup::legal`] checks: its numbers ([`PlayerFlick::check`], fields
/// `flick.*`: finite values, `|offset|` at most `shooting_line_radius / sqrt(2)`, a
/// positive speed, `|aim| <= pi`, a target inside the shooting line), its placement
/// ([`check_placement`], field `shooter.pos`), then the engine's check of the disc in the
/// position (field `shooter.pos`: overlapping a disc or a peg, by how much;
/// `shooter.vel`/`shooter.spin`: faster than `physics.max_speed`). `Ok` exactly when
/// [`Setup::legal`] is `Some`, with the same flick.
pub fn check_flick(setup: &Setup, f: &PlayerFlick) -> Result<Flick, InputError> {
    let (board, physics) = (setup.board(), setup.physics());
    f.check(board, setup.seat())?;
    let flick = f.to_flick(board, setup.seat(), setup.team());
    check_placement(
        board,
        physics.disc_radius,
        setup.seat(),
        setup.players(),
        setup.ruleset(),
        &flick,
    )?;
    let disc = Disc::at_rest(
        flick.team,
        flick.pos,
        physics.disc_radius,
        physics.disc_mass,
    )
    .flicked(flick.vel, flick.spin);
    setup.base().check_disc(&disc, "shooter")?;
    Ok(flick)
}

/// The offsets (m along the shooting line, positive to the player's right, as
/// [`PlayerFlick::offset`]) at which the seat of `setup` may place its disc: sorted
/// disjoint closed intervals `[lo, hi]`. A flick from an offset inside one, with legal
/// numbers (a positive speed within `physics.max_speed`, `|aim| <= pi`), passes
/// [`check_flick`]; a flick from an offset outside all of them does not (up to 2e-9 m at
/// the ends: each interval is shrunk by the placement tolerance). The bound is the
/// tighter of the rule set's quadrant limit ([`quadrant_offset_limit`]) and the player
/// terms' `shooting_line_radius / sqrt(2)`, less what the discs at rest block.
pub fn legal_offsets(setup: &Setup) -> Vec<(f64, f64)> {
    let (board, physics) = (setup.board(), setup.physics());
    let limit =
        quadrant_offset_limit(board, physics.disc_radius, setup.ruleset()).min(max_offset(board));
    placement_offsets(
        board,
        physics.disc_radius,
        setup.seat(),
        limit,
        setup.discs(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crokinole_core::shot::Placed;
    use crokinole_montecarlo::{Noise, Situation};
    use crokinole_rules::Ruleset;
    use glam::DVec2;

    /// A seat of a table with discs on and near its shooting line.
    fn setup(seat: u8, players: u8, ruleset: Ruleset) -> Setup {
        let mut situation = Situation::at_seat(seat);
        situation.players = players;
        let board = situation.board.clone();
        let on_line =
            |offset: f64| crokinole_montecarlo::flick::start_position(&board, seat, offset);
        situation.discs = vec![
            Placed {
                team: 0,
                pos: on_line(0.0),
            },
            Placed {
                team: 1,
                pos: on_line(0.1) * 0.93,
            },
            Placed {
                team: 1,
                pos: on_line(-0.15) * 1.04,
            },
            Placed {
                team: 0,
                pos: DVec2::new(0.02, 0.05),
            },
        ];
        situation.noise = Noise::NONE;
        Setup::new(situation, ruleset).unwrap()
    }

    fn flick(offset: f64) -> PlayerFlick {
        PlayerFlick {
            offset,
            aim: 0.0,
            target: Some(DVec2::ZERO),
            speed: 1.0,
            spin: 0.0,
        }
    }

    #[test]
    fn the_legal_offsets_are_exactly_where_a_flick_passes_the_check() {
        for (seat, players, ruleset) in [
            (0, 2, Ruleset::Traditional),
            (2, 2, Ruleset::Tournament),
            (1, 4, Ruleset::Tournament),
            (3, 4, Ruleset::Traditional),
        ] {
            let s = setup(seat, players, ruleset);
            let intervals = legal_offsets(&s);
            // Three discs block the line: four pieces.
            assert_eq!(intervals.len(), 4, "{intervals:?}");
            let limit = max_offset(s.board());
            let n = 4000;
            for k in 0..=n {
                let o = -0.3 + 0.6 * f64::from(k) / f64::from(n);
                let inside = intervals.iter().any(|&(a, b)| a <= o && o <= b);
                let near_end = intervals
                    .iter()
                    .any(|&(a, b)| (o - a).abs() < 3e-9 || (o - b).abs() < 3e-9)
                    || (o.abs() - limit).abs() < 3e-9;
                let checked = check_flick(&s, &flick(o));
                assert_eq!(checked.is_ok(), s.legal(&flick(o)).is_some(), "offset {o}");
                if !near_end {
                    assert_eq!(
                        inside,
                        checked.is_ok(),
                        "seat {seat} offset {o}: {checked:?}"
                    );
                }
            }
            // The ends themselves are legal.
            for &(a, b) in &intervals {
                assert!(check_flick(&s, &flick(a)).is_ok());
                assert!(check_flick(&s, &flick(b)).is_ok());
            }
        }
    }

    #[test]
    fn an_overlapping_flick_says_by_how_much() {
        let s = setup(0, 2, Ruleset::Traditional);
        let e = check_flick(&s, &flick(0.01)).unwrap_err().to_string();
        assert!(
            e.starts_with("field `shooter.pos`: overlaps disc 0 by"),
            "{e}"
        );
        let e = check_flick(&s, &flick(0.5)).unwrap_err().to_string();
        assert!(e.starts_with("field `flick.offset`"), "{e}");
        let mut f = flick(0.2);
        f.speed = 1e6;
        let e = check_flick(&s, &f).unwrap_err().to_string();
        assert!(e.contains("shooter.vel"), "{e}");
    }
}
