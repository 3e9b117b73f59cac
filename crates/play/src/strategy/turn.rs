//! What every strategy works with: the [`Turn`] it is given, the [`Decision`] it returns,
//! the [`Strategy`] trait, and the parameter checks the strategies share.

use crokinole_core::batch::run_batch_until;
use crokinole_core::board::Board;
use crokinole_core::cancel::Cancel;
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_core::shot::{Flick, Placed, Shot};
use crokinole_montecarlo::flick::{max_offset, start_position};
use crokinole_montecarlo::{Noise, PlayerFlick, Situation};
use crokinole_plan::Setup;
use crokinole_plan::setup::MIN_SPEED;
use crokinole_rules::{Game, GameError, ShotVerdict};
use glam::DVec2;
use std::fmt;

/// Largest `k` or `m` a strategy accepts.
pub const MAX_CANDIDATES: u32 = 65_536;

/// A strategy found no legal flick at all (every candidate and a scan of the whole
/// shooting line were blocked by discs): in practice never.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoLegalFlick {
    /// The seat that could not shoot.
    pub seat: u8,
}

impl fmt::Display for NoLegalFlick {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "seat {} found no legal place on its shooting line",
            self.seat
        )
    }
}

impl std::error::Error for NoLegalFlick {}

/// What a strategy decided.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    /// The intended flick (legal where it stands).
    pub flick: PlayerFlick,
    /// The strategy's estimate of the change in score difference it brings (greedy: the
    /// change without error; Monte Carlo: the mean over its samples); `None` if it made
    /// none.
    pub value: Option<f64>,
    /// Legal candidates considered.
    pub candidates: u32,
}

impl Decision {
    /// No candidate was legal: the turn's fallback flick, valued at nothing.
    pub(super) fn fallback(turn: &Turn) -> Result<Decision, NoLegalFlick> {
        Ok(Decision {
            flick: turn.fallback()?,
            value: None,
            candidates: 0,
        })
    }
}

/// Everything a strategy sees when it is its turn.
pub struct Turn<'a> {
    game: &'a Game,
    seed: u64,
    /// The seat about to shoot in the game's position (board, physics, seat, team):
    /// legality and judging.
    setup: Setup,
    /// Stops the strategy's work (its batches, a planner's search) when cancelled; a
    /// decision made after it was cancelled is thrown away by the game.
    cancel: Cancel,
}

impl<'a> Turn<'a> {
    /// The turn of whoever is to shoot in `game`, with `seed` for the strategy's random
    /// numbers. Refuses a finished game ([`GameError::Over`]) and a position the engine
    /// refuses ([`GameError::Input`]; a game's position always passes).
    pub fn new(
        board: &'a Board,
        physics: &'a Physics,
        game: &'a Game,
        seed: u64,
    ) -> Result<Turn<'a>, GameError> {
        let seat = game.turn().ok_or(GameError::Over)?;
        game.team_of(seat).ok_or(GameError::SeatNotInPlay {
            seat,
            players: game.players(),
        })?;
        let situation = Situation {
            board: board.clone(),
            physics: physics.clone(),
            players: game.players(),
            seat,
            discs: game.position().to_vec(),
            noise: Noise::NONE,
        };
        let setup = Setup::new(situation, game.ruleset())?;
        Ok(Turn {
            game,
            seed,
            setup,
            cancel: Cancel::never(),
        })
    }

    /// This turn, its strategy's work stopped by `cancel` ([`Turn::cancel`]).
    pub fn with_cancel(mut self, cancel: Cancel) -> Turn<'a> {
        self.cancel = cancel;
        self
    }

    /// What a strategy's long work should watch: once it is cancelled the decision is
    /// thrown away, so the strategy may return anything, as soon as it can.
    pub fn cancel(&self) -> &Cancel {
        &self.cancel
    }

    /// The board.
    pub fn board(&self) -> &Board {
        self.setup.board()
    }

    /// The physics.
    pub fn physics(&self) -> &Physics {
        self.setup.physics()
    }

    /// The game (position, scores, discs left, rule set).
    pub fn game(&self) -> &'a Game {
        self.game
    }

    /// The seat to shoot.
    pub fn seat(&self) -> u8 {
        self.setup.seat()
    }

    /// Its team.
    pub fn team(&self) -> u8 {
        self.setup.team()
    }

    /// The seed of this decision.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The discs on the board (ids `0..n`).
    pub fn position(&self) -> &[Placed] {
        self.game.position()
    }

    /// The seat about to shoot in the game's position ([`Setup`]): what the planner
    /// works with.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The flick's initial conditions if it is legal here ([`Setup::legal`]): its numbers
    /// pass [`PlayerFlick::check`], the placement passes
    /// [`check_placement`](crokinole_rules::check_placement) for this seat, and the engine
    /// accepts the disc in the position (no overlap, speeds within `max_speed`). `None`
    /// otherwise.
    pub fn legal(&self, f: &PlayerFlick) -> Option<Flick> {
        self.setup.legal(f)
    }

    /// [`Turn::legal`] with the reason ([`check_flick`](crate::check_flick)): the
    /// flick's initial conditions, or why it is not legal here.
    pub fn check(&self, f: &PlayerFlick) -> Result<Flick, InputError> {
        crate::legality::check_flick(&self.setup, f)
    }

    /// Where this seat may place its disc on the shooting line, as sorted intervals of
    /// offsets ([`legal_offsets`](crate::legal_offsets)).
    pub fn legal_offsets(&self) -> Vec<(f64, f64)> {
        crate::legality::legal_offsets(&self.setup)
    }

    /// The change in score difference a judged shot brings the shooter's side
    /// ([`Setup::change`]): `(own - other)` after it, counting the board score of
    /// [`ShotVerdict::board_score`] and 20 for each of the shot's 20s, minus `(own -
    /// other)` on the board before it. The 20s already set aside this round count on both
    /// sides and cancel.
    pub fn change(&self, verdict: &ShotVerdict) -> i64 {
        self.setup.change(verdict)
    }

    /// Runs `flicks` from the position in one batch ([`run_batch_until`], on the current rayon
    /// pool), judges each outcome with [`apply_rules`](crokinole_rules::apply_rules) serially in order, and returns each
    /// one's [`Turn::change`] (`None` for a flick the engine or the rules refused).
    /// Stops when [`Turn::cancel`] is cancelled: the flicks left are then `None`.
    pub fn evaluate(&self, flicks: &[Flick]) -> Vec<Option<i64>> {
        let shots: Vec<Shot> = flicks.iter().map(|&f| self.game.shot(f)).collect();
        let outcomes = run_batch_until(self.board(), self.physics(), &shots, &self.cancel).items;
        let mut values: Vec<Option<i64>> = shots
            .iter()
            .zip(outcomes)
            .map(|(shot, outcome)| {
                let verdict = self.setup.judge(shot, &outcome.ok()?)?;
                Some(self.change(&verdict))
            })
            .collect();
        values.resize(flicks.len(), None);
        values
    }

    /// Speed that stops a disc without spin after `d` m of sliding
    /// ([`Setup::stopping_speed`]).
    fn stopping_speed(&self, d: f64) -> f64 {
        self.setup.stopping_speed(d)
    }

    /// A flick from `offset` toward `target` at `factor` times the stopping speed there.
    pub(super) fn toward(
        &self,
        offset: f64,
        target: DVec2,
        factor: f64,
        cap: f64,
        spin: f64,
    ) -> PlayerFlick {
        let start = start_position(self.board(), self.seat(), offset);
        let d = (target - start).length();
        let speed = (self.stopping_speed(d) * factor)
            .max(MIN_SPEED)
            .min(cap.min(self.physics().max_speed));
        PlayerFlick {
            offset,
            aim: 0.0,
            target: Some(target),
            speed,
            spin,
        }
    }

    /// The largest `|spin|` the engine accepts (rim speed at most `max_speed`).
    pub(super) fn spin_limit(&self) -> f64 {
        self.setup.spin_limit()
    }

    /// A legal flick found by scanning the shooting line from the middle outward (201
    /// places), aimed at the 20 hole at the stopping speed. The last resort of every
    /// built-in strategy.
    pub fn fallback(&self) -> Result<PlayerFlick, NoLegalFlick> {
        let half = 0.95 * max_offset(self.board());
        for j in 0..=200u32 {
            let step = f64::from(j.div_ceil(2)) / 100.0;
            let offset = if j % 2 == 1 {
                step * half
            } else {
                -step * half
            };
            let f = self.toward(offset, DVec2::ZERO, 1.0, self.physics().max_speed, 0.0);
            if self.legal(&f).is_some() {
                return Ok(f);
            }
        }
        Err(NoLegalFlick { seat: self.seat() })
    }
}

/// Index of the first largest value (ties go to the lowest index); `None` if all are
/// `None`.
pub(super) fn best(values: &[Option<i64>]) -> Option<usize> {
    let mut best: Option<(usize, i64)> = None;
    for (i, v) in values.iter().enumerate() {
        if let Some(v) = *v
            && best.is_none_or(|(_, b)| v > b)
        {
            best = Some((i, v));
        }
    }
    best.map(|(i, _)| i)
}

/// How a player picks its intended flick. Implementations are plain values, shared by
/// every game of a run (hence `Send + Sync`); a decision must depend on the turn (and its
/// seed) only, never on the thread count.
pub trait Strategy: Send + Sync {
    /// The intended flick for this turn: it must be legal here ([`Turn::legal`]).
    fn choose(&self, turn: &Turn<'_>) -> Result<Decision, NoLegalFlick>;

    /// The strategy as written on the command line, with every parameter
    /// (`greedy:k=16:spin=0`).
    fn name(&self) -> String;

    /// Whether an illegal intended flick of this strategy forfeits its shot
    /// ([`PlayConfig::forfeit`](crate::PlayConfig::forfeit), the reason in the log)
    /// instead of stopping the game with an error. `false` unless a strategy says so (the
    /// built-in ones only choose legal flicks).
    fn forfeits_illegal(&self) -> bool {
        false
    }

    /// Checks the strategy's parameters against the physics (field `strategies`).
    fn check(&self, _physics: &Physics) -> Result<(), InputError> {
        Ok(())
    }
}

pub(super) fn check_count(key: &str, n: u32) -> Result<(), InputError> {
    if (1..=MAX_CANDIDATES).contains(&n) {
        Ok(())
    } else {
        Err(InputError::new(
            "strategies",
            format!("`{key}` must be between 1 and {MAX_CANDIDATES}, got {n}"),
        ))
    }
}

pub(super) fn check_spin(spin: f64, physics: &Physics) -> Result<(), InputError> {
    let limit = physics.max_speed / physics.disc_radius;
    if spin.is_finite() && (0.0..=limit).contains(&spin) {
        Ok(())
    } else {
        Err(InputError::new(
            "strategies",
            format!(
                "`spin` must be between 0 and {} rad/s (physics.max_speed / \
                 physics.disc_radius), got {}",
                crokinole_core::error::num(limit),
                crokinole_core::error::num(spin)
            ),
        ))
    }
}
