//! What one sample did, in the terms a player counts: where the shot disc ended, how the
//! board score moved for the shooting side, which opponent discs it hit.
//!
//! - **Outcome class** of the shot disc ([`ShotClass`]): `twenty` (dropped into the 20
//!   hole), `fifteen`, `ten`, `five` (at rest in that zone, by [`Board::zone`]), `out`
//!   (at rest touching or beyond the shooting line: removed after the shot), `ditch` (left
//!   the playing surface), `removed` (taken off by the opening or must-hit rule: only
//!   when the study names a rule set, see [`assess_ruled`]).
//! - **Board score** of a team: the sum over its discs on the board of [`Zone::points`]
//!   (a disc in zone `Out` counts 0: it is removed after the shot), plus 20 for each of
//!   its discs that dropped into the hole during this shot. Discs in the ditch count 0.
//!   The shooter's disc counts before the shot as 0 (it sits on the shooting line).
//! - **Change in board score** of the shooting side: `(own - other)` after the shot minus
//!   `(own - other)` before it. Always a multiple of 5.
//! - **Opponent hits**: the number of distinct opponent discs the shot disc touched
//!   directly (`disc` events between the shooter's id and an opponent disc's id; contacts
//!   passed on through other discs do not count). **Opponents moved**: whether any
//!   opponent disc ended anywhere but where it rested (moved, holed or ditched), by any
//!   route.
//!
//! With a rule set ([`assess_ruled`]) the shot is judged by [`apply_rules`] first: the
//! shot disc is `removed` when the rule it was judged by takes it off (a 20 that missed
//! the must-hit rule included), and the board score after the shot is the verdict's: zone
//! points of the discs left on the board plus 20 per disc set aside in the hole (a disc
//! the rule removes scores nothing, even if it dropped).
//!
//! A shot cut off by `max_time` is classified where its discs were, and flagged.

use crokinole_core::board::{Board, Zone};
use crokinole_core::disc::{Disc, DiscState};
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_core::shot::{Outcome, Placed, Shot};
use crokinole_core::step::event::EventKind;
use crokinole_rules::{RemovalReason, Ruleset, ShotVerdict, apply_rules, score_difference};

/// Where the shot disc ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ShotClass {
    /// In the 20 hole.
    Twenty,
    /// At rest wholly inside the 15 line.
    Fifteen,
    /// At rest wholly inside the 10 line, not in the 15 zone.
    Ten,
    /// At rest wholly inside the shooting line, not in the 10 zone.
    Five,
    /// At rest touching or beyond the shooting line (removed after the shot).
    Out,
    /// Left the playing surface.
    Ditch,
    /// Taken off by the opening or must-hit rule (only with a rule set).
    Removed,
}

impl ShotClass {
    /// Every class, in the order of the summary.
    pub const ALL: [ShotClass; 7] = [
        ShotClass::Twenty,
        ShotClass::Fifteen,
        ShotClass::Ten,
        ShotClass::Five,
        ShotClass::Out,
        ShotClass::Ditch,
        ShotClass::Removed,
    ];

    /// Name in the JSON files: `twenty`, `fifteen`, `ten`, `five`, `out`, `ditch`,
    /// `removed`.
    pub fn name(self) -> &'static str {
        match self {
            ShotClass::Twenty => "twenty",
            ShotClass::Fifteen => "fifteen",
            ShotClass::Ten => "ten",
            ShotClass::Five => "five",
            ShotClass::Out => "out",
            ShotClass::Ditch => "ditch",
            ShotClass::Removed => "removed",
        }
    }

    /// Position in [`ShotClass::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The class of the shot disc after the rules, from a verdict: in `twenties`, in
    /// `removed` (by its reason: `ditch`, the rule, or on or beyond the shooting line) or
    /// in `position` (by its points). Every disc of a shot is in exactly one of the three.
    pub fn after_rules(verdict: &ShotVerdict) -> ShotClass {
        let id = verdict.shooter;
        if verdict.twenties.iter().any(|t| t.id == id) {
            return ShotClass::Twenty;
        }
        if let Some(r) = verdict.removed.iter().find(|r| r.id == id) {
            return match r.reason {
                RemovalReason::Ditch => ShotClass::Ditch,
                RemovalReason::OpeningRule | RemovalReason::MustHit => ShotClass::Removed,
                RemovalReason::OnOrBeyondShootingLine => ShotClass::Out,
            };
        }
        match verdict
            .position
            .iter()
            .find(|d| d.id == id)
            .map(|d| d.points)
        {
            Some(15) => ShotClass::Fifteen,
            Some(10) => ShotClass::Ten,
            Some(5) => ShotClass::Five,
            // A disc on the board scores 5 at least; anything else is off the board.
            _ => ShotClass::Out,
        }
    }

    /// The class of a disc at the end of a shot, by the physics alone (never `Removed`).
    pub fn of(board: &Board, disc: &Disc) -> ShotClass {
        match disc.state {
            DiscState::Hole => ShotClass::Twenty,
            DiscState::Ditch => ShotClass::Ditch,
            DiscState::Rest | DiscState::Moving => match board.zone(disc.pos, disc.radius) {
                Zone::Fifteen => ShotClass::Fifteen,
                Zone::Ten => ShotClass::Ten,
                Zone::Five => ShotClass::Five,
                Zone::Out => ShotClass::Out,
            },
        }
    }
}

/// What one sample did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SampleResult {
    /// Where the shot disc ended.
    pub class: ShotClass,
    /// Change in `(own - other)` board score from before to after the shot.
    pub score_change: i64,
    /// Distinct opponent discs the shot disc touched directly.
    pub opponent_hits: u32,
    /// Whether any opponent disc moved, dropped or left the board.
    pub opponents_moved: bool,
    /// Whether `max_time` stopped the shot with discs still moving.
    pub cut_off: bool,
}

/// Board score of teams 0 and 1 for discs at rest before a shot (`disc_radius` each).
pub fn score_before(board: &Board, disc_radius: f64, discs: &[Placed]) -> [i64; 2] {
    let mut score = [0i64; 2];
    for d in discs {
        score[usize::from(d.team & 1)] += i64::from(board.zone(d.pos, disc_radius).points());
    }
    score
}

/// Board score of teams 0 and 1 after a shot: zone points on the board, 20 per disc that
/// dropped into the hole.
pub fn score_after(board: &Board, discs: &[Disc]) -> [i64; 2] {
    let mut score = [0i64; 2];
    for d in discs {
        score[usize::from(d.team & 1)] += match d.state {
            DiscState::Rest | DiscState::Moving => i64::from(board.zone(d.pos, d.radius).points()),
            DiscState::Hole => 20,
            DiscState::Ditch => 0,
        };
    }
    score
}

/// Assesses the outcome of a shot of team `team` from the position `before` (the shooter
/// is the last disc of `outcome`), by the physics alone.
pub fn assess(board: &Board, before: &[Placed], team: u8, outcome: &Outcome) -> SampleResult {
    let shooter = before.len();
    let radius = outcome.discs[shooter].radius;
    let own = usize::from(team & 1);
    let margin = |s: [i64; 2]| s[own] - s[1 - own];
    let score_change =
        margin(score_after(board, &outcome.discs)) - margin(score_before(board, radius, before));
    let (opponent_hits, opponents_moved) = opponent_contacts(before, team, outcome);
    SampleResult {
        class: ShotClass::of(board, &outcome.discs[shooter]),
        score_change,
        opponent_hits,
        opponents_moved,
        cut_off: outcome.cut_off,
    }
}

/// Assesses the outcome of `shot` (played from `seat` with `players` at the table) under
/// `ruleset`: the shot disc's class after the rules ([`ShotClass::after_rules`]), and the change in
/// board score after the rules ([`apply_rules`]; see the module documentation). Refused
/// only where [`apply_rules`] refuses (a placement the rule set does not allow).
pub fn assess_ruled(
    board: &Board,
    physics: &Physics,
    shot: &Shot,
    outcome: &Outcome,
    (seat, players, ruleset): (u8, u8, Ruleset),
) -> Result<SampleResult, InputError> {
    let verdict = apply_rules(board, physics, shot, outcome, seat, players, ruleset)?;
    let team = shot.shooter.team;
    let own = usize::from(team & 1);
    let before = score_before(board, physics.disc_radius, &shot.discs);
    let after = score_difference(team, verdict.board_score, verdict.twenties_per_team());
    let (opponent_hits, opponents_moved) = opponent_contacts(&shot.discs, team, outcome);
    Ok(SampleResult {
        class: ShotClass::after_rules(&verdict),
        score_change: after - (before[own] - before[1 - own]),
        opponent_hits,
        opponents_moved,
        cut_off: outcome.cut_off,
    })
}

/// Distinct opponent discs the shot disc touched directly, and whether any opponent disc
/// ended anywhere but where it rested.
fn opponent_contacts(before: &[Placed], team: u8, outcome: &Outcome) -> (u32, bool) {
    let shooter = before.len();
    let mut hit = vec![false; shooter];
    for e in &outcome.events {
        if let EventKind::Disc { a, b } = e.kind {
            let other = if b == shooter {
                a
            } else if a == shooter {
                b
            } else {
                continue;
            };
            if before[other].team != team {
                hit[other] = true;
            }
        }
    }
    let opponents_moved = before
        .iter()
        .zip(&outcome.discs)
        .any(|(p, d)| p.team != team && (d.state != DiscState::Rest || d.pos != p.pos));
    (hit.iter().filter(|&&h| h).count() as u32, opponents_moved)
}
