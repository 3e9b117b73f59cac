//! One shot judged: placement, physics, then the rules (`docs/rules-reference.md`).
//!
//! [`judge_shot`] checks the placement ([`check_placement`]), runs the physics
//! ([`run_shot`]) and calls [`apply_rules`], the pure part, which turns a shot and its
//! [`Outcome`] into a [`ShotVerdict`]:
//!
//! 1. **Which rule.** If a disc of the other team was on the board before the shot, the
//!    must-hit rule applies; otherwise the opening rule.
//! 2. **Contacts** are judged from the engine's event log ([`contacts`]). A disc is
//!    *struck* (moved by the shot) if a chain of disc-disc contacts, in time order, leads
//!    to it from the shooter. The shot *hit an opponent* if an opponent disc was touched by
//!    the shooter or by a disc of the shooter's team that the shooter had reached through
//!    own-team discs only. Peg contacts need no special case: a ricochet is the shooter
//!    touching the opponent after a peg event.
//! 3. **Must-hit rule**: met if the shot hit an opponent. If not, the shooting disc is
//!    removed (even from the 20 hole: a shot that breaks the rule scores nothing) and:
//!    traditional, every disc of the shooter's team it struck that is still on the board
//!    (one it knocked into the hole stays a 20); tournament, every disc it struck, 20s
//!    included.
//! 4. **Opening rule**: traditional, met if the shooting disc ends in the 20 hole or on the
//!    board touching or inside the 15 line ([`Board::touches_fifteen_line`]); otherwise the
//!    shooting disc alone is removed. Tournament (NCA 3b), met if the shooting disc or any
//!    disc it struck ends so; otherwise the shooting disc and every disc it struck, 20s
//!    included, are removed.
//! 5. **After every shot**: discs in the ditch are out; discs in the 20 hole that no rule
//!    removed are set aside as 20s for their team; discs resting on or beyond the shooting
//!    line ([`Zone::Out`]) are removed.
//!
//! Every disc of the shot ends in exactly one of [`ShotVerdict::position`],
//! [`ShotVerdict::twenties`] and [`ShotVerdict::removed`]. A disc removed for several
//! reasons is listed once, with the first that applies in this order: [`RemovalReason::Ditch`],
//! the rule ([`RemovalReason::OpeningRule`] or [`RemovalReason::MustHit`]),
//! [`RemovalReason::OnOrBeyondShootingLine`].
//!
//! A shot cut off by `max_time` is judged with its discs where they were when it stopped.

use crate::placement::check_placement;
use crate::ruleset::Ruleset;
use crate::scoring::board_score;
use crokinole_core::board::{Board, Zone};
use crokinole_core::disc::{DiscId, DiscState};
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_core::shot::{Flick, Outcome, Placed, Shot, run_shot};
use crokinole_core::step::event::{Event, EventKind};
use glam::DVec2;

/// The rule a shot was judged by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    /// No opponent disc on the board: the shot must end touching or inside the 15 line.
    Opening,
    /// Opponent discs on the board: the shot must make contact with one.
    MustHit,
}

/// Why a disc left the board after a shot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RemovalReason {
    /// It went over the edge of the playing surface (out, even if it bounced back).
    Ditch,
    /// The opening rule was not met and this disc is one it removes.
    OpeningRule,
    /// The must-hit rule was not met and this disc is one it removes.
    MustHit,
    /// It came to rest touching or beyond the shooting line.
    OnOrBeyondShootingLine,
}

/// A disc removed after the shot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Removed {
    /// Id of the disc in the shot (discs at rest `0..n`, the shooter `n`).
    pub id: DiscId,
    /// Its team.
    pub team: u8,
    /// Why it was removed.
    pub reason: RemovalReason,
}

/// A disc that dropped into the 20 hole during the shot and is set aside as a 20.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Twenty {
    /// Id of the disc in the shot.
    pub id: DiscId,
    /// The team it scores for.
    pub team: u8,
}

/// A disc on the board after the rules.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardDisc {
    /// Id of the disc in the shot.
    pub id: DiscId,
    /// Its team.
    pub team: u8,
    /// Its centre, m (serialized as `[x, y]`).
    pub pos: DVec2,
    /// What it scores where it lies: 15, 10 or 5.
    pub points: u32,
}

/// What the rules made of one shot. Serialized with these field names (snake_case).
#[derive(Clone, Debug, PartialEq)]
pub struct ShotVerdict {
    /// The rule set applied.
    pub ruleset: Ruleset,
    /// The shooter's seat (0-3).
    pub seat: u8,
    /// The shooter's team.
    pub team: u8,
    /// Id of the shooting disc (the number of discs at rest before the shot).
    pub shooter: DiscId,
    /// Whether a disc of the other team was on the board before the shot.
    pub opponents_on_board: bool,
    /// The rule the shot was judged by: `opening` if no opponent disc was on the board,
    /// `must_hit` otherwise.
    pub rule: Rule,
    /// Whether the rule was met.
    pub rule_met: bool,
    /// Whether the shot made contact with an opponent disc, directly, off a peg or through
    /// a chain of the shooter's own team's discs (see [`contacts`]).
    pub hit_opponent: bool,
    /// Ids of the discs the shot struck (moved through a chain of contacts from the
    /// shooter), ascending, the shooter excluded.
    pub struck: Vec<DiscId>,
    /// Every disc that left the board, with why, in id order.
    pub removed: Vec<Removed>,
    /// Discs that dropped into the 20 hole and are set aside as 20s, in id order.
    pub twenties: Vec<Twenty>,
    /// Zone points of the discs on the board after the shot, per team (`[team 0, team 1]`);
    /// the 20s are not included.
    pub board_score: [u32; 2],
    /// The discs on the board after the rules, in id order.
    pub position: Vec<BoardDisc>,
}

/// Where a disc of a judged shot ends up after the rules ([`ShotVerdict::fate_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Still on the board: in the verdict's `position`.
    Board,
    /// Set aside as a 20: in the verdict's `twenties`.
    Hole,
    /// Went over the edge: removed with reason `ditch`.
    Ditch,
    /// Taken off by a rule (or for resting on or beyond the shooting line).
    Removed,
}

impl Fate {
    /// The name used in outcome files: `board`, `hole`, `ditch` or `removed`.
    pub fn name(self) -> &'static str {
        match self {
            Fate::Board => "board",
            Fate::Hole => "hole",
            Fate::Ditch => "ditch",
            Fate::Removed => "removed",
        }
    }
}

impl ShotVerdict {
    /// Where disc `id` (of the shot's outcome) ends up after the rules.
    pub fn fate_of(&self, id: DiscId) -> Fate {
        if self.twenties.iter().any(|t| t.id == id) {
            return Fate::Hole;
        }
        match self.removed.iter().find(|r| r.id == id) {
            Some(r) if r.reason == RemovalReason::Ditch => Fate::Ditch,
            Some(_) => Fate::Removed,
            None => Fate::Board,
        }
    }

    /// The discs on the board after the shot, as the discs at rest of the next shot (ids
    /// renumbered `0..` in this order).
    pub fn remaining(&self) -> Vec<Placed> {
        self.position
            .iter()
            .map(|d| Placed {
                team: d.team,
                pos: d.pos,
            })
            .collect()
    }

    /// Number of 20s of this shot per team.
    pub fn twenties_per_team(&self) -> [u32; 2] {
        let mut n = [0; 2];
        for t in &self.twenties {
            if let Some(k) = n.get_mut(usize::from(t.team)) {
                *k += 1;
            }
        }
        n
    }
}

/// Who the shot touched, judged from the event log.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Contacts {
    /// Discs the shot struck, ascending, the shooter excluded: every disc reached from the
    /// shooter through a chain of disc-disc contacts in time order.
    pub struck: Vec<DiscId>,
    /// Whether an opponent disc (team different from the shooter's) was touched by the
    /// shooter or by a disc of the shooter's team reached from the shooter through own-team
    /// discs only.
    pub hit_opponent: bool,
}

/// Judges contacts from `events`, taken in the order given (the engine logs them in time
/// order; simultaneous events in its total order). `teams[i]` is the team of disc `i`,
/// `shooter` the id of the shooting disc. Peg, hole and ditch events do not propagate
/// anything; events naming ids outside `teams` are ignored.
///
/// Two marks spread along disc-disc events: *reached* (from the shooter, through any disc)
/// and *own chain* (from the shooter, through discs of its team only). An event between a
/// reached disc and another marks the other reached; an event between an own-chain disc and
/// a disc of the shooter's team marks that disc own-chain; an event between an own-chain disc
/// and an opponent disc is a hit. A disc struck later in the log can pass the shot on only to
/// contacts after it was struck.
pub fn contacts(teams: &[u8], shooter: DiscId, events: &[Event]) -> Contacts {
    let n = teams.len();
    let mut reached = vec![false; n];
    let mut own = vec![false; n];
    let Some(&team) = teams.get(shooter) else {
        return Contacts::default();
    };
    reached[shooter] = true;
    own[shooter] = true;
    let mut hit_opponent = false;
    for e in events {
        let EventKind::Disc { a, b } = e.kind else {
            continue;
        };
        if a >= n || b >= n {
            continue;
        }
        if reached[a] || reached[b] {
            reached[a] = true;
            reached[b] = true;
        }
        let (own_a, own_b) = (own[a], own[b]);
        for (from_own, other) in [(own_a, b), (own_b, a)] {
            if !from_own {
                continue;
            }
            if teams[other] == team {
                own[other] = true;
            } else {
                hit_opponent = true;
            }
        }
    }
    Contacts {
        struck: (0..n).filter(|&i| i != shooter && reached[i]).collect(),
        hit_opponent,
    }
}

/// Applies the rules to a shot already run: `outcome` must be the physics of `shot`.
/// `seat`, `players` and `ruleset` say who shot under which rules; the shooter's placement
/// is checked as in [`judge_shot`] (its refusal's field is `players`, `seat`,
/// `shooter.team` or `shooter.pos`), and an outcome whose disc count does not match the
/// shot is refused (field `outcome.discs`). Zones use `physics.disc_radius`.
///
/// Pure and deterministic: the same arguments always give the same verdict.
pub fn apply_rules(
    board: &Board,
    physics: &Physics,
    shot: &Shot,
    outcome: &Outcome,
    seat: u8,
    players: u8,
    ruleset: Ruleset,
) -> Result<ShotVerdict, InputError> {
    check_placement(
        board,
        physics.disc_radius,
        seat,
        players,
        ruleset,
        &shot.shooter,
    )?;
    judge_placed(board, physics, shot, outcome, seat, ruleset)
}

/// [`apply_rules`] for a shot whose placement was checked already (by the caller, for
/// this seat, table and rule set): the steps 1-5 of the module documentation.
pub(super) fn judge_placed(
    board: &Board,
    physics: &Physics,
    shot: &Shot,
    outcome: &Outcome,
    seat: u8,
    ruleset: Ruleset,
) -> Result<ShotVerdict, InputError> {
    let radius = physics.disc_radius;
    let n = shot.shooter_id();
    check_disc_count(outcome, n)?;
    let team = shot.shooter.team;
    let teams: Vec<u8> = shot
        .discs
        .iter()
        .map(|d| d.team)
        .chain(std::iter::once(team))
        .collect();
    let opponents_on_board = shot.discs.iter().any(|d| d.team != team);
    let c = contacts(&teams, n, &outcome.events);
    let (rule, rule_met) =
        rule_and_whether_met(board, radius, outcome, ruleset, opponents_on_board, &c);
    let by_rule = removed_by_rule(outcome, ruleset, rule, rule_met, &teams, &c);
    let rule_reason = match rule {
        Rule::Opening => RemovalReason::OpeningRule,
        Rule::MustHit => RemovalReason::MustHit,
    };
    let (removed, twenties, position) =
        after_the_shot(board, radius, outcome, &teams, &by_rule, rule_reason);
    let placed: Vec<Placed> = position
        .iter()
        .map(|d| Placed {
            team: d.team,
            pos: d.pos,
        })
        .collect();
    Ok(ShotVerdict {
        ruleset,
        seat,
        team,
        shooter: n,
        opponents_on_board,
        rule,
        rule_met,
        hit_opponent: c.hit_opponent,
        struck: c.struck,
        removed,
        twenties,
        board_score: board_score(board, radius, &placed),
        position,
    })
}

/// Refuses an outcome whose disc count is not the shot's: the discs at rest (ids `0..n`)
/// and the shooter (`n`). Field `outcome.discs`.
fn check_disc_count(outcome: &Outcome, n: DiscId) -> Result<(), InputError> {
    if outcome.discs.len() != n + 1 {
        return Err(InputError::new(
            "outcome.discs",
            format!(
                "{} discs in the outcome of a shot with {} (the discs at rest and the shooter)",
                outcome.discs.len(),
                n + 1
            ),
        ));
    }
    Ok(())
}

/// Steps 1, 3 and 4: the rule that applies (must-hit with an opponent disc on the board,
/// opening otherwise) and whether the shot met it.
fn rule_and_whether_met(
    board: &Board,
    radius: f64,
    outcome: &Outcome,
    ruleset: Ruleset,
    opponents_on_board: bool,
    c: &Contacts,
) -> (Rule, bool) {
    if opponents_on_board {
        return (Rule::MustHit, c.hit_opponent);
    }
    let discs = &outcome.discs;
    let reaches_fifteen = |i: DiscId| {
        discs[i].state == DiscState::Hole
            || (discs[i].on_board() && board.touches_fifteen_line(discs[i].pos, radius))
    };
    let n = discs.len() - 1;
    let met = match ruleset {
        Ruleset::Traditional => reaches_fifteen(n),
        Ruleset::Tournament => reaches_fifteen(n) || c.struck.iter().any(|&i| reaches_fifteen(i)),
    };
    (Rule::Opening, met)
}

/// Steps 3 and 4: the discs the rule removes (indexed by id) if the shot did not meet it:
/// the shooter, and of the discs it struck, by rule set and rule.
fn removed_by_rule(
    outcome: &Outcome,
    ruleset: Ruleset,
    rule: Rule,
    rule_met: bool,
    teams: &[u8],
    c: &Contacts,
) -> Vec<bool> {
    let n = teams.len() - 1;
    let mut by_rule = vec![false; n + 1];
    if !rule_met {
        let team = teams[n];
        let in_hole = |i: DiscId| outcome.discs[i].state == DiscState::Hole;
        by_rule[n] = true;
        for &i in &c.struck {
            by_rule[i] = match (rule, ruleset) {
                (Rule::Opening, Ruleset::Traditional) => false,
                (Rule::MustHit, Ruleset::Traditional) => teams[i] == team && !in_hole(i),
                (_, Ruleset::Tournament) => true,
            };
        }
    }
    by_rule
}

/// Step 5: every disc, in id order, into exactly one of the removed (with the first
/// reason that applies: ditch, the rule, on or beyond the shooting line), the 20s and the
/// position.
fn after_the_shot(
    board: &Board,
    radius: f64,
    outcome: &Outcome,
    teams: &[u8],
    by_rule: &[bool],
    rule_reason: RemovalReason,
) -> (Vec<Removed>, Vec<Twenty>, Vec<BoardDisc>) {
    let mut removed = Vec::new();
    let mut twenties = Vec::new();
    let mut position = Vec::new();
    for (id, d) in outcome.discs.iter().enumerate() {
        let team = teams[id];
        let reason = if d.state == DiscState::Ditch {
            Some(RemovalReason::Ditch)
        } else if by_rule[id] {
            Some(rule_reason)
        } else if d.state == DiscState::Hole {
            twenties.push(Twenty { id, team });
            continue;
        } else if board.zone(d.pos, radius) == Zone::Out {
            Some(RemovalReason::OnOrBeyondShootingLine)
        } else {
            None
        };
        match reason {
            Some(reason) => removed.push(Removed { id, team, reason }),
            None => position.push(BoardDisc {
                id,
                team,
                pos: d.pos,
                points: board.zone(d.pos, radius).points(),
            }),
        }
    }
    (removed, twenties, position)
}

/// Judges one shot from scratch: checks the placement of `flick` for `seat` with `players`
/// players under `ruleset` (refused before any physics runs, see
/// [`crate::check_placement`]), runs the physics on `position` (the discs at rest,
/// ids `0..n` in this order) plus the flick (id `n`) with [`run_shot`] (whose own input
/// checks may refuse it too: overlaps, speed), and applies the rules ([`apply_rules`]).
pub fn judge_shot(
    board: &Board,
    physics: &Physics,
    position: &[Placed],
    seat: u8,
    players: u8,
    ruleset: Ruleset,
    flick: Flick,
) -> Result<ShotVerdict, InputError> {
    check_placement(board, physics.disc_radius, seat, players, ruleset, &flick)?;
    let shot = Shot {
        discs: position.to_vec(),
        shooter: flick,
    };
    let outcome = run_shot(board, physics, &shot)?;
    apply_rules(board, physics, &shot, &outcome, seat, players, ruleset)
}
