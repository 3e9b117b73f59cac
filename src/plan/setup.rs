//! A seat about to shoot: the board, the physics, the table (players, rule set, seat), the
//! discs at rest, and what the rules make of a shot from there. Shared by the planner and
//! the game strategies ([`crate::play::Turn`] wraps one), so both judge a flick the same
//! way: legal where it stands ([`Setup::legal`]), run by the engine, judged by
//! [`apply_rules`] ([`Setup::judge`]) and valued by the change in the shooter's side's
//! score difference ([`Setup::change`]).

use crate::board::Board;
use crate::disc::Disc;
use crate::error::InputError;
use crate::montecarlo::study::position_world;
use crate::montecarlo::{FlickSampler, Noise, PlayerFlick};
use crate::params::Physics;
use crate::rules::scoring::score_difference;
use crate::rules::{Ruleset, ShotVerdict, apply_rules, board_score, check_placement};
use crate::shot::{Flick, Outcome, Placed, Shot};
use crate::world::World;

/// Lowest speed a planned or strategic flick is given, m/s.
pub const MIN_SPEED: f64 = 0.05;

/// A seat about to shoot in a position under a rule set (see the module documentation).
#[derive(Clone, Debug)]
pub struct Setup<'a> {
    board: &'a Board,
    physics: &'a Physics,
    players: u8,
    ruleset: Ruleset,
    seat: u8,
    team: u8,
    discs: &'a [Placed],
    /// The position alone, checked: flicks are checked against it.
    base: World,
    /// `own - other` board score before the shot.
    diff_before: i64,
}

impl<'a> Setup<'a> {
    /// Checks the table and the position: `players` 2 or 4 (field `players`), a seat
    /// somebody sits at (`seat`), every disc on the surface without overlaps
    /// (`discs[k].pos`, `discs[k].team`), the board and physics (as in a shot file).
    pub fn new(
        board: &'a Board,
        physics: &'a Physics,
        players: u8,
        ruleset: Ruleset,
        seat: u8,
        discs: &'a [Placed],
    ) -> Result<Setup<'a>, InputError> {
        let team = crate::rules::checked_team_of_seat(players, seat)?;
        let base = position_world(board, physics, discs)?;
        let before = board_score(board, physics.disc_radius, discs);
        Ok(Setup {
            board,
            physics,
            players,
            ruleset,
            seat,
            team,
            discs,
            base,
            diff_before: score_difference(team, before, [0, 0]),
        })
    }

    /// The position alone (discs at rest), checked: the world every flick is added to.
    pub fn base(&self) -> &World {
        &self.base
    }

    /// The sampler of a player's executions of `intended` from this seat with `noise`
    /// ([`FlickSampler::new`]), or its refusal.
    pub fn sampler(
        &self,
        intended: PlayerFlick,
        noise: Noise,
    ) -> Result<FlickSampler<'_>, InputError> {
        FlickSampler::new(
            self.board,
            self.physics,
            self.seat,
            self.team,
            &self.base,
            intended,
            noise,
        )
    }

    /// The board.
    pub fn board(&self) -> &'a Board {
        self.board
    }

    /// The physics.
    pub fn physics(&self) -> &'a Physics {
        self.physics
    }

    /// Players at the table.
    pub fn players(&self) -> u8 {
        self.players
    }

    /// The rule set.
    pub fn ruleset(&self) -> Ruleset {
        self.ruleset
    }

    /// The shooter's seat.
    pub fn seat(&self) -> u8 {
        self.seat
    }

    /// The shooter's team.
    pub fn team(&self) -> u8 {
        self.team
    }

    /// The discs at rest (ids `0..n`; the shooter is `n`).
    pub fn discs(&self) -> &'a [Placed] {
        self.discs
    }

    /// The flick's initial conditions if it is legal here: its numbers pass
    /// [`PlayerFlick::check`], the placement passes [`check_placement`] for this seat
    /// under this rule set, and the engine accepts the disc in the position (no overlap,
    /// speeds within `max_speed`). `None` otherwise.
    pub fn legal(&self, f: &PlayerFlick) -> Option<Flick> {
        f.check(self.board, self.seat).ok()?;
        let flick = f.to_flick(self.board, self.seat, self.team);
        check_placement(
            self.board,
            self.physics.disc_radius,
            self.seat,
            self.players,
            self.ruleset,
            &flick,
        )
        .ok()?;
        let p = self.physics;
        let disc = Disc::at_rest(flick.team, flick.pos, p.disc_radius, p.disc_mass)
            .flicked(flick.vel, flick.spin);
        self.base.check_disc(&disc, "shooter").ok()?;
        Some(flick)
    }

    /// The shot of `flick` from the position: the discs at rest (ids `0..n`) and the
    /// flick (id `n`).
    pub fn shot(&self, flick: Flick) -> Shot {
        Shot {
            discs: self.discs.to_vec(),
            shooter: flick,
        }
    }

    /// The rules' verdict on `outcome`, the physics of `shot` ([`apply_rules`] for this
    /// seat, table and rule set); `None` if the rules refuse the shot (an illegal
    /// placement: never for a flick [`Setup::legal`] accepted).
    pub fn judge(&self, shot: &Shot, outcome: &Outcome) -> Option<ShotVerdict> {
        apply_rules(
            self.board,
            self.physics,
            shot,
            outcome,
            self.seat,
            self.players,
            self.ruleset,
        )
        .ok()
    }

    /// The change in score difference a judged shot brings the shooter's side: `(own -
    /// other)` after it, counting the board score of [`ShotVerdict::board_score`] and 20
    /// for each of the shot's 20s, minus `(own - other)` on the board before it. 20s set
    /// aside earlier in a round count on both sides and cancel.
    pub fn change(&self, verdict: &ShotVerdict) -> i64 {
        score_difference(self.team, verdict.board_score, verdict.twenties_per_team())
            - self.diff_before
    }

    /// Speed that stops a disc without spin after `d` m of sliding, `sqrt(2 mu g d)`
    /// (uniform deceleration `mu g` from `v` to 0 covers `v^2 / (2 mu g)`), kept within
    /// `[MIN_SPEED, max_speed]`.
    pub fn stopping_speed(&self, d: f64) -> f64 {
        (2.0 * self.physics.slide_decel() * d)
            .sqrt()
            .max(MIN_SPEED)
            .min(self.physics.max_speed)
    }

    /// The largest `|spin|` the engine accepts: rim speed `|spin| R` at most `max_speed`.
    pub fn spin_limit(&self) -> f64 {
        self.physics.max_speed / self.physics.disc_radius
    }
}
