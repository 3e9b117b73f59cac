//! A batch of shots judged by the rules (`crokinole simulate --rules`): each shot with the
//! table it was played at ([`ShotEntry`]: seat and players), checked up front
//! ([`check_rules`]: a seat given, a legal placement) and, after the physics, judged in
//! order ([`judge_outcomes`], [`apply_rules`] per shot). The JSON layer reads the entries
//! and writes the verdicts; nothing here knows JSON.

use super::placement::check_placement;
use super::ruleset::Ruleset;
use super::verdict::{ShotVerdict, apply_rules};
use crokinole_core::board::Board;
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_core::shot::{Outcome, Shot};

/// One shot of a shot file: the physics input plus the seat and player count, which the
/// physics ignores and the rules read.
#[derive(Clone, Debug, PartialEq)]
pub struct ShotEntry {
    /// Discs at rest and the flicked disc.
    pub shot: Shot,
    /// Seat of the shooter, 0-3 (`seat`), if given.
    pub seat: Option<u8>,
    /// Players at the table, 2 or 4 (`players`, default 2).
    pub players: u8,
}

// A shot file's entry runs as its shot (`run_batch_until(.., &entries, ..)`, no copy).
impl std::borrow::Borrow<Shot> for ShotEntry {
    fn borrow(&self) -> &Shot {
        &self.shot
    }
}

/// The seat of shot `k`, required with `--rules` (field `shots[k].seat`).
fn seat_of(k: usize, e: &ShotEntry) -> Result<u8, InputError> {
    e.seat.ok_or_else(|| {
        InputError::new(
            "seat",
            "missing: required with --rules (the shooter's seat, 0-3; \
             and `players` if there are 4)",
        )
        .in_shot(k)
    })
}

/// Checks every shot for `--rules` before anything runs, in shot order: a `seat` is
/// given, and the placement is legal for it ([`check_placement`] with the shot's
/// `players` and `ruleset`; the shooter's team must be the seat's team). The first problem
/// is returned with its shot index and field (`shots[2].seat`, `shots[0].shooter.team`,
/// `shots[1].shooter.pos`).
pub fn check_rules(
    board: &Board,
    physics: &Physics,
    entries: &[ShotEntry],
    ruleset: Ruleset,
) -> Result<(), InputError> {
    for (k, e) in entries.iter().enumerate() {
        let seat = seat_of(k, e)?;
        check_placement(
            board,
            physics.disc_radius,
            seat,
            e.players,
            ruleset,
            &e.shot.shooter,
        )
        .map_err(|p| InputError::from(p).in_shot(k))?;
    }
    Ok(())
}

/// The verdict of every shot ([`apply_rules`]) from its outcome, in shot order
/// (`outcomes[k]` must be the outcome of `entries[k]`).
pub fn judge_outcomes(
    board: &Board,
    physics: &Physics,
    entries: &[ShotEntry],
    outcomes: &[Outcome],
    ruleset: Ruleset,
) -> Result<Vec<ShotVerdict>, InputError> {
    entries
        .iter()
        .zip(outcomes)
        .enumerate()
        .map(|(k, (e, o))| {
            let seat = seat_of(k, e)?;
            apply_rules(board, physics, &e.shot, o, seat, e.players, ruleset)
                .map_err(|x| x.in_shot(k))
        })
        .collect()
}
