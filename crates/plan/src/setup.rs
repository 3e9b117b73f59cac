//! A seat about to shoot, checked: a [`Situation`] (the board, the physics, the table, the
//! discs at rest, the player's error) under a rule set, and what the rules make of a shot
//! from there. Shared by the planner and
//! the game strategies (`crokinole_play::Turn` wraps one), so both judge a flick the same
//! way: legal where it stands ([`Setup::legal`]), run by the engine, judged by
//! [`apply_rules`] ([`Setup::judge`]) and valued by the change in the shooter's side's
//! score difference ([`Setup::change`]).

use crokinole_core::board::Board;
use crokinole_core::disc::Disc;
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_core::shot::{Flick, Outcome, Placed, Shot};
use crokinole_core::world::World;
use crokinole_montecarlo::flick::start_position;
use crokinole_montecarlo::study::position_world;
use crokinole_montecarlo::{FlickSampler, Noise, PlayerFlick, Situation};
use crokinole_rules::scoring::score_difference;
use crokinole_rules::{Ruleset, ShotVerdict, apply_rules, board_score, check_placement};

/// Lowest speed a planned or strategic flick is given, m/s.
pub const MIN_SPEED: f64 = 0.05;

/// A [`Situation`] under a rule set, checked (see the module documentation).
#[derive(Clone, Debug)]
pub struct Setup {
    situation: Situation,
    ruleset: Ruleset,
    team: u8,
    /// The position alone, checked: flicks are checked against it.
    base: World,
    /// `own - other` board score before the shot.
    diff_before: i64,
}

impl Setup {
    /// Checks the situation: `players` 2 or 4 (field `players`), a seat somebody sits at
    /// (`seat`), every disc on the surface without overlaps (`discs[k].pos`,
    /// `discs[k].team`), the board and physics (as in a shot file) and the noise
    /// ([`Noise::check`]).
    pub fn new(situation: Situation, ruleset: Ruleset) -> Result<Setup, InputError> {
        let s = &situation;
        let team = crokinole_rules::checked_team_of_seat(s.players, s.seat)?;
        let base = position_world(&s.board, &s.physics, &s.discs)?;
        s.noise.check(&s.board, &s.physics)?;
        let before = board_score(&s.board, s.physics.disc_radius, &s.discs);
        Ok(Setup {
            situation,
            ruleset,
            team,
            base,
            diff_before: score_difference(team, before, [0, 0]),
        })
    }

    /// The situation this seat was checked from.
    pub fn situation(&self) -> &Situation {
        &self.situation
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
            &self.situation.board,
            &self.situation.physics,
            self.situation.seat,
            self.team,
            &self.base,
            intended,
            noise,
        )
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.situation.board
    }

    /// The physics.
    pub fn physics(&self) -> &Physics {
        &self.situation.physics
    }

    /// Players at the table.
    pub fn players(&self) -> u8 {
        self.situation.players
    }

    /// The rule set.
    pub fn ruleset(&self) -> Ruleset {
        self.ruleset
    }

    /// The shooter's seat.
    pub fn seat(&self) -> u8 {
        self.situation.seat
    }

    /// The shooter's team.
    pub fn team(&self) -> u8 {
        self.team
    }

    /// The discs at rest (ids `0..n`; the shooter is `n`).
    pub fn discs(&self) -> &[Placed] {
        &self.situation.discs
    }

    /// The flick's initial conditions if it is legal here: its numbers pass
    /// [`PlayerFlick::check`], the placement passes [`check_placement`] for this seat
    /// under this rule set, and the engine accepts the disc in the position (no overlap,
    /// speeds within `max_speed`). `None` otherwise.
    pub fn legal(&self, f: &PlayerFlick) -> Option<Flick> {
        let s = &self.situation;
        f.check(&s.board, s.seat).ok()?;
        let flick = f.to_flick(&s.board, s.seat, self.team);
        check_placement(
            &s.board,
            s.physics.disc_radius,
            s.seat,
            s.players,
            self.ruleset,
            &flick,
        )
        .ok()?;
        let p = &s.physics;
        let disc = Disc::at_rest(flick.team, flick.pos, p.disc_radius, p.disc_mass)
            .flicked(flick.vel, flick.spin);
        self.base.check_disc(&disc, "shooter").ok()?;
        Some(flick)
    }

    /// The shot of `flick` from the position: the discs at rest (ids `0..n`) and the
    /// flick (id `n`).
    pub fn shot(&self, flick: Flick) -> Shot {
        Shot {
            discs: self.situation.discs.clone(),
            shooter: flick,
        }
    }

    /// The rules' verdict on `outcome`, the physics of `shot` ([`apply_rules`] for this
    /// seat, table and rule set); `None` if the rules refuse the shot (an illegal
    /// placement: never for a flick [`Setup::legal`] accepted).
    pub fn judge(&self, shot: &Shot, outcome: &Outcome) -> Option<ShotVerdict> {
        let s = &self.situation;
        apply_rules(
            &s.board,
            &s.physics,
            shot,
            outcome,
            s.seat,
            s.players,
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
        (2.0 * self.situation.physics.slide_decel() * d)
            .sqrt()
            .max(MIN_SPEED)
            .min(self.situation.physics.max_speed)
    }

    /// The largest `|spin|` the engine accepts: rim speed `|spin| R` at most `max_speed`.
    pub fn spin_limit(&self) -> f64 {
        self.situation.physics.max_speed / self.situation.physics.disc_radius
    }

    /// The parts of the offset range `range` (lateral offsets on this seat's shooting
    /// line, m, low to high) where a disc placed there would overlap a peg or a disc at
    /// rest, as `[low, high]` intervals: no flick starts there, so a search never looks
    /// there. Found on `OFFSET_PROBES` evenly spaced offsets (the interval ends are those
    /// of the probes, to about 0.1 % of the range); empty on every standard board.
    pub fn blocked_offsets(&self, range: [f64; 2]) -> Vec<[f64; 2]> {
        let (s, p) = (&self.situation, &self.situation.physics);
        // The engine's own check of a disc put into the position: an overlap with a peg
        // or a disc at rest is what it refuses on the shooting line.
        let blocked = |o: f64| {
            let pos = start_position(&s.board, s.seat, o);
            let disc = Disc::at_rest(self.team, pos, p.disc_radius, p.disc_mass);
            self.base.check_disc(&disc, "shooter").is_err()
        };
        let mut out: Vec<[f64; 2]> = Vec::new();
        let mut open = false;
        for k in 0..=OFFSET_PROBES {
            let o = range[0] + (range[1] - range[0]) * k as f64 / OFFSET_PROBES as f64;
            if blocked(o) {
                match out.last_mut() {
                    Some(last) if open => last[1] = o,
                    _ => out.push([o, o]),
                }
                open = true;
            } else {
                open = false;
            }
        }
        out
    }
}

/// Offsets probed by [`Setup::blocked_offsets`].
const OFFSET_PROBES: u32 = 1000;
