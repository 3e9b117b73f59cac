//! Strategies: how a player picks the flick it means to play.
//!
//! A strategy is a plain value implementing [`Strategy`]: given the [`Turn`] (the game, the
//! board, the physics, the seat to play and a seed) it returns a [`Decision`], an intended
//! [`PlayerFlick`] that is legal where it stands (placement checked by
//! [`check_placement`](crate::rules::check_placement), no overlap with a disc, speed
//! within `max_speed`). Four are built in ([`AnyStrategy`] parses them from `random`,
//! `greedy:k=16`, `montecarlo:k=8:m=8`, `planner:budget=2000`):
//!
//! - [`RandomFlick`]: one random legal flick: a random place on the shooting line, aimed at
//!   a random point inside the 10 line, at a random speed around the speed that stops
//!   there. It knows nothing of the rules.
//! - [`Greedy`]: `k` candidate flicks ([`candidate`]), all run through the batch API
//!   ([`crate::batch::run_batch`]) and judged by [`apply_rules`](crate::rules::apply_rules); it keeps the one with the
//!   best immediate change in score difference ([`Turn::change`]). It plays as if it had
//!   no error.
//! - [`MonteCarlo`]: the same `k` candidates, each judged by the mean change over `m`
//!   noisy executions under its noise model ([`Noise`], drawn by
//!   [`FlickSampler::sample`](crate::montecarlo::FlickSampler::sample) from the per-sample streams of [`crate::montecarlo::noise`]);
//!   all `k m` shots go through the batch API at once.
//! - [`Planner`]: the shot planner of [`crate::plan`] (coarse sweep, refinement, final
//!   evaluation under the noise model, common random numbers) with a sample budget per
//!   decision.
//!
//! Determinism: every random number comes from a counter-based stream ([`Stream`],
//! ChaCha8 keyed by the turn's seed, numbered by the candidate) or from the Monte Carlo
//! module's [`crate::montecarlo::noise::Draws`], so a decision depends on the turn and its
//! seed only. Batches come back in input order; values are integers (multiples of 5)
//! folded serially; ties go to the lowest candidate index. Nothing depends on the thread
//! count.
//!
//! **Candidates.** Candidate `c` of a turn reads [`Stream`]`(seed, c)`. With an opponent
//! disc on the board, candidates with `c % 4 != 3` are takeouts: a random opponent disc,
//! hit up to `0.8 R` off centre, at a speed that would carry the disc 1.5 to 6 times the
//! distance (at most [`TAKEOUT_SPEED_CAP`]); the others are draws into the 15 zone.
//! Without one, `c % 3 == 0` aims at the 20 hole (1.00-1.12 times the speed that stops at
//! its centre) and the others draw to a random point of the 15 zone (0.95-1.05 times the
//! stopping speed). The place on the shooting line is uniform over 90 % of the quadrant's
//! half width on each side; the spin is uniform in `[-spin, spin]` (0 by default). A
//! proposal that is not legal is drawn again, up to [`TRIES`] times; a candidate with no
//! legal proposal is left out. The stopping speed over a distance `d` is
//! `sqrt(2 mu g d)` (the sliding deceleration of a disc without spin).

use crate::batch::run_batch;
use crate::board::Board;
use crate::error::InputError;
use crate::montecarlo::detmath;
use crate::montecarlo::flick::{max_offset, start_position};
use crate::montecarlo::noise::mix;
use crate::montecarlo::{Noise, PlayerFlick};
use crate::params::Physics;
use crate::plan::Setup;
use crate::rules::{Game, GameError, ShotVerdict};
use crate::shot::{Flick, Placed, Shot};
use glam::DVec2;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use std::fmt;
use std::str::FromStr;

/// The 24 key bytes after the seed in a [`Stream`]: keeps the strategies' random numbers
/// apart from the noise streams of [`crate::montecarlo::noise`].
pub const KEY_TAG: &[u8; 24] = b"crokinole strategies v1.";

/// Proposals drawn for one candidate before it is left out.
pub const TRIES: u32 = 32;

/// Highest speed a takeout candidate is given, m/s (real takeouts reach 2.5-3 m/s).
pub const TAKEOUT_SPEED_CAP: f64 = 3.0;

/// Lowest speed any candidate is given, m/s.
pub use crate::plan::setup::MIN_SPEED;

/// Default candidates of [`Greedy`].
pub const GREEDY_K: u32 = 16;
/// Default candidates of [`MonteCarlo`].
pub const MONTECARLO_K: u32 = 8;
/// Default noisy samples per candidate of [`MonteCarlo`].
pub const MONTECARLO_M: u32 = 8;
/// Largest `k` or `m` a strategy accepts.
pub const MAX_CANDIDATES: u32 = 65_536;

/// Tag mixed into a turn's seed for the Monte Carlo strategy's noise draws.
const MONTECARLO_TAG: u64 = 0x6d63;

/// A counter-based random stream: ChaCha8 keyed by `seed` (little-endian in the first 8
/// key bytes, [`KEY_TAG`] in the other 24), stream number `stream`. Any stream is reached
/// directly, so stream `c` does not depend on how many numbers other streams used.
#[derive(Clone, Debug)]
pub struct Stream {
    rng: ChaCha8Rng,
}

impl Stream {
    /// Stream `stream` of the generator keyed by `seed`.
    pub fn new(seed: u64, stream: u64) -> Stream {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        key[8..].copy_from_slice(KEY_TAG);
        let mut rng = ChaCha8Rng::from_seed(key);
        rng.set_stream(stream);
        Stream { rng }
    }

    /// A uniform number in `[0, 1)` from the top 53 bits of the next `u64`.
    pub fn uniform(&mut self) -> f64 {
        (self.rng.next_u64() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
    }

    /// A uniform number in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.uniform()
    }

    /// A uniform index in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.uniform() * n as f64) as usize).min(n.saturating_sub(1))
    }

    /// A point uniform over the disc of radius `radius` about the origin.
    pub fn in_disc(&mut self, radius: f64) -> DVec2 {
        let r = radius * self.uniform().sqrt();
        let (s, c) = detmath::sin_cos(std::f64::consts::TAU * self.uniform());
        DVec2::new(r * c, r * s)
    }
}

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
    fn fallback(turn: &Turn) -> Result<Decision, NoLegalFlick> {
        Ok(Decision {
            flick: turn.fallback()?,
            value: None,
            candidates: 0,
        })
    }
}

/// Everything a strategy sees when it is its turn.
pub struct Turn<'a> {
    board: &'a Board,
    physics: &'a Physics,
    game: &'a Game,
    seat: u8,
    team: u8,
    seed: u64,
    /// The seat about to shoot in the game's position: legality and judging.
    setup: Setup<'a>,
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
        let team = game.team_of(seat).ok_or(GameError::SeatNotInPlay {
            seat,
            players: game.players(),
        })?;
        let setup = Setup::new(
            board,
            physics,
            game.players(),
            game.ruleset(),
            seat,
            game.position(),
        )?;
        Ok(Turn {
            board,
            physics,
            game,
            seat,
            team,
            seed,
            setup,
        })
    }

    /// The board.
    pub fn board(&self) -> &Board {
        self.board
    }

    /// The physics.
    pub fn physics(&self) -> &Physics {
        self.physics
    }

    /// The game (position, scores, discs left, rule set).
    pub fn game(&self) -> &Game {
        self.game
    }

    /// The seat to shoot.
    pub fn seat(&self) -> u8 {
        self.seat
    }

    /// Its team.
    pub fn team(&self) -> u8 {
        self.team
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
    pub fn setup(&self) -> &Setup<'a> {
        &self.setup
    }

    /// The flick's initial conditions if it is legal here ([`Setup::legal`]): its numbers
    /// pass [`PlayerFlick::check`], the placement passes
    /// [`check_placement`](crate::rules::check_placement) for this seat, and the engine
    /// accepts the disc in the position (no overlap, speeds within `max_speed`). `None`
    /// otherwise.
    pub fn legal(&self, f: &PlayerFlick) -> Option<Flick> {
        self.setup.legal(f)
    }

    /// The change in score difference a judged shot brings the shooter's side
    /// ([`Setup::change`]): `(own - other)` after it, counting the board score of
    /// [`ShotVerdict::board_score`] and 20 for each of the shot's 20s, minus `(own -
    /// other)` on the board before it. The 20s already set aside this round count on both
    /// sides and cancel.
    pub fn change(&self, verdict: &ShotVerdict) -> i64 {
        self.setup.change(verdict)
    }

    /// Runs `flicks` from the position in one batch ([`run_batch`], on the current rayon
    /// pool), judges each outcome with [`apply_rules`](crate::rules::apply_rules) serially in order, and returns each
    /// one's [`Turn::change`] (`None` for a flick the engine or the rules refused).
    pub fn evaluate(&self, flicks: &[Flick]) -> Vec<Option<i64>> {
        let shots: Vec<Shot> = flicks.iter().map(|&f| self.game.shot(f)).collect();
        let outcomes = run_batch(self.board, self.physics, &shots);
        shots
            .iter()
            .zip(outcomes)
            .map(|(shot, outcome)| {
                let verdict = self.setup.judge(shot, &outcome.ok()?)?;
                Some(self.change(&verdict))
            })
            .collect()
    }

    /// Speed that stops a disc without spin after `d` m of sliding
    /// ([`Setup::stopping_speed`]).
    fn stopping_speed(&self, d: f64) -> f64 {
        self.setup.stopping_speed(d)
    }

    /// A flick from `offset` toward `target` at `factor` times the stopping speed there.
    fn toward(&self, offset: f64, target: DVec2, factor: f64, cap: f64, spin: f64) -> PlayerFlick {
        let start = start_position(self.board, self.seat, offset);
        let d = (target - start).length();
        let speed = (self.stopping_speed(d) * factor)
            .max(MIN_SPEED)
            .min(cap.min(self.physics.max_speed));
        PlayerFlick {
            offset,
            aim: 0.0,
            target: Some(target),
            speed,
            spin,
        }
    }

    /// The largest `|spin|` the engine accepts (rim speed at most `max_speed`).
    fn spin_limit(&self) -> f64 {
        self.setup.spin_limit()
    }

    /// A legal flick found by scanning the shooting line from the middle outward (201
    /// places), aimed at the 20 hole at the stopping speed. The last resort of every
    /// built-in strategy.
    pub fn fallback(&self) -> Result<PlayerFlick, NoLegalFlick> {
        let half = 0.95 * max_offset(self.board);
        for j in 0..=200u32 {
            let step = f64::from(j.div_ceil(2)) / 100.0;
            let offset = if j % 2 == 1 {
                step * half
            } else {
                -step * half
            };
            let f = self.toward(offset, DVec2::ZERO, 1.0, self.physics.max_speed, 0.0);
            if self.legal(&f).is_some() {
                return Ok(f);
            }
        }
        Err(NoLegalFlick { seat: self.seat })
    }
}

/// One proposal of candidate kind for candidate `c` (see the module documentation).
fn propose(turn: &Turn<'_>, c: u64, st: &mut Stream, spin: f64) -> PlayerFlick {
    let board = turn.board;
    let r = turn.physics.disc_radius;
    let offset = st.range(-0.9, 0.9) * max_offset(board);
    let spin = if spin > 0.0 {
        st.range(-spin, spin)
    } else {
        0.0
    };
    let opponents: Vec<DVec2> = turn
        .position()
        .iter()
        .filter(|d| d.team != turn.team)
        .map(|d| d.pos)
        .collect();
    let fifteen = (board.fifteen_line_radius - 0.5 * board.line_width - r).max(0.0);
    if !opponents.is_empty() && c % 4 != 3 {
        let aim_at = opponents[st.below(opponents.len())];
        let start = start_position(board, turn.seat, offset);
        let along = (aim_at - start).normalize_or_zero();
        let side = DVec2::new(-along.y, along.x);
        let target = aim_at + side * (st.range(-0.8, 0.8) * r);
        let factor = st.range(1.5, 6.0).sqrt();
        turn.toward(offset, target, factor, TAKEOUT_SPEED_CAP, spin)
    } else if opponents.is_empty() && c.is_multiple_of(3) {
        let target = st.in_disc(0.3 * board.hole_radius);
        let factor = st.range(1.0, 1.12);
        turn.toward(offset, target, factor, turn.physics.max_speed, spin)
    } else {
        let target = st.in_disc(fifteen);
        let factor = st.range(0.95, 1.05);
        turn.toward(offset, target, factor, turn.physics.max_speed, spin)
    }
}

/// Candidate `c` of a turn: the first legal one of up to [`TRIES`] proposals read from
/// [`Stream`]`(turn.seed(), c)`, with spins uniform in `[-spin, spin]` (see the module
/// documentation for the kinds). `None` if none was legal.
pub fn candidate(turn: &Turn<'_>, c: u64, spin: f64) -> Option<(PlayerFlick, Flick)> {
    let mut st = Stream::new(turn.seed, c);
    let spin = spin.min(turn.spin_limit());
    (0..TRIES).find_map(|_| {
        let f = propose(turn, c, &mut st, spin);
        turn.legal(&f).map(|flick| (f, flick))
    })
}

/// The legal candidates `0..k` of a turn, with their indices.
fn candidates(turn: &Turn<'_>, k: u32, spin: f64) -> Vec<(u32, PlayerFlick, Flick)> {
    (0..k)
        .filter_map(|c| candidate(turn, u64::from(c), spin).map(|(p, f)| (c, p, f)))
        .collect()
}

/// Index of the first largest value (ties go to the lowest index); `None` if all are
/// `None`.
fn best(values: &[Option<i64>]) -> Option<usize> {
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

    /// Checks the strategy's parameters against the physics (field `strategies`).
    fn check(&self, _physics: &Physics) -> Result<(), InputError> {
        Ok(())
    }
}

/// One random legal flick: a place uniform over 90 % of each half of the quadrant's
/// shooting line, aimed at a point uniform over the area inside the 10 line, at the
/// stopping speed there times `sqrt(u)` with `u` uniform in `[0.5, 3]`, with a spin
/// uniform in `[-spin, spin]`; up to [`TRIES`] proposals from [`Stream`]`(seed, 0)`, then
/// [`Turn::fallback`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RandomFlick {
    /// Largest `|spin|`, rad/s (0: no spin).
    pub spin: f64,
}

impl Strategy for RandomFlick {
    fn choose(&self, turn: &Turn<'_>) -> Result<Decision, NoLegalFlick> {
        let mut st = Stream::new(turn.seed, 0);
        let board = turn.board;
        let spin = self.spin.min(turn.spin_limit());
        for _ in 0..TRIES {
            let offset = st.range(-0.9, 0.9) * max_offset(board);
            let target = st.in_disc(board.ten_line_radius);
            let factor = st.range(0.5, 3.0).sqrt();
            let s = if spin > 0.0 {
                st.range(-spin, spin)
            } else {
                0.0
            };
            let f = turn.toward(offset, target, factor, TAKEOUT_SPEED_CAP, s);
            if turn.legal(&f).is_some() {
                return Ok(Decision {
                    flick: f,
                    value: None,
                    candidates: 1,
                });
            }
        }
        Decision::fallback(turn)
    }

    fn name(&self) -> String {
        format!("random:spin={}", self.spin)
    }

    fn check(&self, physics: &Physics) -> Result<(), InputError> {
        check_spin(self.spin, physics)
    }
}

/// The best of `k` candidates by their immediate change in score difference, each run
/// once without error through the batch API ([`Turn::evaluate`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Greedy {
    /// Candidates tried.
    pub k: u32,
    /// Largest `|spin|` of a candidate, rad/s (0: no spin).
    pub spin: f64,
}

impl Default for Greedy {
    fn default() -> Greedy {
        Greedy {
            k: GREEDY_K,
            spin: 0.0,
        }
    }
}

impl Strategy for Greedy {
    fn choose(&self, turn: &Turn<'_>) -> Result<Decision, NoLegalFlick> {
        let cands = candidates(turn, self.k, self.spin);
        let flicks: Vec<Flick> = cands.iter().map(|c| c.2).collect();
        let values = turn.evaluate(&flicks);
        match best(&values) {
            Some(i) => Ok(Decision {
                flick: cands[i].1,
                value: values[i].map(|v| v as f64),
                candidates: cands.len() as u32,
            }),
            None => Decision::fallback(turn),
        }
    }

    fn name(&self) -> String {
        format!("greedy:k={}:spin={}", self.k, self.spin)
    }

    fn check(&self, physics: &Physics) -> Result<(), InputError> {
        check_count("k", self.k)?;
        check_spin(self.spin, physics)
    }
}

/// The best of `k` candidates by the mean change in score difference over `m` executions
/// with the player's error `noise`. Sample `j` of every candidate is
/// [`FlickSampler::sample`](crate::montecarlo::FlickSampler::sample)`(mix(seed, tag), j)` of that candidate: the same
/// random numbers for every candidate (common random numbers, so candidates are compared
/// under the same errors). A sample the engine would refuse plays the intended flick, as
/// in a study. The `k m` shots run in one batch; sums are exact integers, so the mean
/// compared is exact; ties go to the lowest candidate index.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MonteCarlo {
    /// Candidates tried.
    pub k: u32,
    /// Noisy executions per candidate.
    pub m: u32,
    /// Largest `|spin|` of a candidate, rad/s (0: no spin).
    pub spin: f64,
    /// The error the strategy expects of its player.
    pub noise: Noise,
}

impl Default for MonteCarlo {
    fn default() -> MonteCarlo {
        MonteCarlo {
            k: MONTECARLO_K,
            m: MONTECARLO_M,
            spin: 0.0,
            noise: Noise::NONE,
        }
    }
}

impl Strategy for MonteCarlo {
    fn choose(&self, turn: &Turn<'_>) -> Result<Decision, NoLegalFlick> {
        let seed = mix(turn.seed, MONTECARLO_TAG);
        let mut kept = Vec::new();
        let mut flicks = Vec::new();
        for (_, intended, flick) in candidates(turn, self.k, self.spin) {
            let Ok(sampler) = turn.setup.sampler(intended, self.noise) else {
                continue;
            };
            kept.push(intended);
            for j in 0..self.m {
                let noisy = sampler.sample(seed, u64::from(j));
                flicks.push(turn.legal(&noisy).unwrap_or(flick));
            }
        }
        let values = turn.evaluate(&flicks);
        let m = self.m as usize;
        let sums: Vec<Option<i64>> = values
            .chunks(m.max(1))
            .map(|chunk| chunk.iter().copied().sum::<Option<i64>>())
            .collect();
        match best(&sums) {
            Some(i) => Ok(Decision {
                flick: kept[i],
                value: sums[i].map(|s| s as f64 / f64::from(self.m)),
                candidates: kept.len() as u32,
            }),
            None => Decision::fallback(turn),
        }
    }

    fn name(&self) -> String {
        format!("montecarlo:k={}:m={}:spin={}", self.k, self.m, self.spin)
    }

    fn check(&self, physics: &Physics) -> Result<(), InputError> {
        check_count("k", self.k)?;
        check_count("m", self.m)?;
        check_spin(self.spin, physics)
    }
}

/// Default sample budget of [`Planner`] per decision.
pub const PLANNER_BUDGET: u64 = 2000;
/// Largest sample budget [`Planner`] accepts per decision.
pub const MAX_PLANNER_BUDGET: u64 = 100_000_000;

/// The shot planner ([`crate::plan::suggest`]) as a strategy: for each decision it runs
/// the planner's search (coarse sweep, refinement, final evaluation; no grid) with
/// `budget` samples under its noise model, maximising the expected change in score
/// difference, and plays the best flick. With spin `S > 0` the search also tries spins
/// `-S` and `S`. The planner's seed is the decision's seed. No legal flick at all: the
/// turn's fallback.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Planner {
    /// Samples (simulated shots) per decision.
    pub budget: u64,
    /// Spin magnitude tried besides 0, rad/s (0: no spin).
    pub spin: f64,
    /// The error the planner expects of its player.
    pub noise: Noise,
}

impl Default for Planner {
    fn default() -> Planner {
        Planner {
            budget: PLANNER_BUDGET,
            spin: 0.0,
            noise: Noise::NONE,
        }
    }
}

impl Strategy for Planner {
    fn choose(&self, turn: &Turn<'_>) -> Result<Decision, NoLegalFlick> {
        use crate::plan::{Budget, Objective, PlanConfig, Request, Space, suggest};
        let mut space = Space::default_for(turn.board, turn.physics);
        let spin = self.spin.min(turn.spin_limit());
        if spin > 0.0 {
            space.spin = vec![0.0, -spin, spin];
        }
        let request = Request {
            players: turn.game.players(),
            ruleset: turn.game.ruleset(),
            seat: turn.seat,
            discs: turn.position().to_vec(),
            noise: self.noise,
            space,
        };
        let config = PlanConfig {
            objective: Objective::Score,
            budget: Budget::Samples(self.budget),
            seed: turn.seed,
            top: 1,
            grid: false,
        };
        let plan = suggest(turn.board, turn.physics, &request, &config);
        match plan.ok().as_ref().and_then(|p| Some((p, p.top.first()?))) {
            Some((plan, best)) if turn.legal(&best.flick).is_some() => Ok(Decision {
                flick: best.flick,
                value: Some(best.value.mean),
                candidates: plan.stages.first().map_or(0, |s| s.candidates as u32),
            }),
            _ => Decision::fallback(turn),
        }
    }

    fn name(&self) -> String {
        format!("planner:budget={}:spin={}", self.budget, self.spin)
    }

    fn check(&self, physics: &Physics) -> Result<(), InputError> {
        let min = crate::plan::search::MIN_BUDGET;
        if !(min..=MAX_PLANNER_BUDGET).contains(&self.budget) {
            return Err(InputError::new(
                "strategies",
                format!(
                    "`budget` must be between {min} and {MAX_PLANNER_BUDGET}, got {}",
                    self.budget
                ),
            ));
        }
        check_spin(self.spin, physics)
    }
}

fn check_count(key: &str, n: u32) -> Result<(), InputError> {
    if (1..=MAX_CANDIDATES).contains(&n) {
        Ok(())
    } else {
        Err(InputError::new(
            "strategies",
            format!("`{key}` must be between 1 and {MAX_CANDIDATES}, got {n}"),
        ))
    }
}

fn check_spin(spin: f64, physics: &Physics) -> Result<(), InputError> {
    let limit = physics.max_speed / physics.disc_radius;
    if spin.is_finite() && (0.0..=limit).contains(&spin) {
        Ok(())
    } else {
        Err(InputError::new(
            "strategies",
            format!(
                "`spin` must be between 0 and {limit} rad/s (physics.max_speed / \
                 physics.disc_radius), got {spin}"
            ),
        ))
    }
}

/// One of the built-in strategies, as parsed from the command line:
/// `random[:spin=S]`, `greedy[:k=K][:spin=S]`, `montecarlo[:k=K][:m=M][:spin=S]` (also
/// `mc`), `planner[:budget=N][:spin=S]`. Missing keys take the defaults ([`GREEDY_K`],
/// [`MONTECARLO_K`] x [`MONTECARLO_M`], [`PLANNER_BUDGET`], spin 0). The Monte Carlo
/// strategy's and the planner's noise is not part of the text: [`AnyStrategy::parse`]
/// takes it (the CLI gives it the players' `--noise`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AnyStrategy {
    /// [`RandomFlick`].
    Random(RandomFlick),
    /// [`Greedy`].
    Greedy(Greedy),
    /// [`MonteCarlo`].
    MonteCarlo(MonteCarlo),
    /// [`Planner`].
    Planner(Planner),
}

impl AnyStrategy {
    /// Parses one strategy; `noise` is the Monte Carlo strategy's and the planner's noise
    /// model.
    pub fn parse(text: &str, noise: Noise) -> Result<AnyStrategy, String> {
        let mut parts = text.trim().split(':');
        let name = parts.next().unwrap_or_default();
        let mut k = None;
        let mut m = None;
        let mut budget = None;
        let mut spin = 0.0;
        let allowed: &[&str] = match name {
            "random" => &["spin"],
            "greedy" => &["k", "spin"],
            "montecarlo" | "mc" => &["k", "m", "spin"],
            "planner" => &["budget", "spin"],
            _ => {
                return Err(format!(
                    "unknown strategy `{name}`: expected `random`, `greedy`, `montecarlo` or \
                     `planner`"
                ));
            }
        };
        for part in parts {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("`{part}` in `{text}`: expected KEY=VALUE"))?;
            if !allowed.contains(&key) {
                return Err(format!(
                    "unknown key `{key}` for `{name}`: expected one of {}",
                    allowed.join(", ")
                ));
            }
            let count = || {
                value
                    .parse::<u32>()
                    .ok()
                    .filter(|n| (1..=MAX_CANDIDATES).contains(n))
                    .ok_or_else(|| {
                        format!(
                            "`{key}={value}`: expected a whole number from 1 to {MAX_CANDIDATES}"
                        )
                    })
            };
            match key {
                "k" => k = Some(count()?),
                "m" => m = Some(count()?),
                "budget" => {
                    let min = crate::plan::search::MIN_BUDGET;
                    budget = Some(
                        value
                            .parse::<u64>()
                            .ok()
                            .filter(|n| (min..=MAX_PLANNER_BUDGET).contains(n))
                            .ok_or_else(|| {
                                format!(
                                    "`budget={value}`: expected a whole number of samples from \
                                     {min} to {MAX_PLANNER_BUDGET}"
                                )
                            })?,
                    );
                }
                _ => {
                    spin = value
                        .parse::<f64>()
                        .ok()
                        .filter(|s| s.is_finite() && *s >= 0.0)
                        .ok_or_else(|| {
                            format!("`spin={value}`: expected a number of rad/s, at least 0")
                        })?;
                }
            }
        }
        Ok(match name {
            "random" => AnyStrategy::Random(RandomFlick { spin }),
            "greedy" => AnyStrategy::Greedy(Greedy {
                k: k.unwrap_or(GREEDY_K),
                spin,
            }),
            "planner" => AnyStrategy::Planner(Planner {
                budget: budget.unwrap_or(PLANNER_BUDGET),
                spin,
                noise,
            }),
            _ => AnyStrategy::MonteCarlo(MonteCarlo {
                k: k.unwrap_or(MONTECARLO_K),
                m: m.unwrap_or(MONTECARLO_M),
                spin,
                noise,
            }),
        })
    }

    /// The strategy as a trait object.
    pub fn as_strategy(&self) -> &dyn Strategy {
        match self {
            AnyStrategy::Random(s) => s,
            AnyStrategy::Greedy(s) => s,
            AnyStrategy::MonteCarlo(s) => s,
            AnyStrategy::Planner(s) => s,
        }
    }
}

impl Strategy for AnyStrategy {
    fn choose(&self, turn: &Turn<'_>) -> Result<Decision, NoLegalFlick> {
        self.as_strategy().choose(turn)
    }

    fn name(&self) -> String {
        self.as_strategy().name()
    }

    fn check(&self, physics: &Physics) -> Result<(), InputError> {
        self.as_strategy().check(physics)
    }
}

impl FromStr for AnyStrategy {
    type Err = String;

    /// [`AnyStrategy::parse`] with no noise for the Monte Carlo strategy.
    fn from_str(s: &str) -> Result<AnyStrategy, String> {
        AnyStrategy::parse(s, Noise::NONE)
    }
}

impl fmt::Display for AnyStrategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_depend_on_seed_and_number_only() {
        let draw = |seed, n| {
            let mut s = Stream::new(seed, n);
            (s.uniform(), s.uniform())
        };
        assert_eq!(draw(3, 7), draw(3, 7));
        assert_ne!(draw(3, 7), draw(3, 8));
        assert_ne!(draw(3, 7), draw(4, 7));
        let mut s = Stream::new(1, 1);
        for _ in 0..1000 {
            assert!(s.below(3) < 3);
            assert!(s.in_disc(0.1).length() <= 0.1);
        }
    }

    #[test]
    fn strategies_parse_with_defaults_and_refuse_bad_keys() {
        assert_eq!(
            "greedy".parse::<AnyStrategy>(),
            Ok(AnyStrategy::Greedy(Greedy::default()))
        );
        let mc: AnyStrategy = "mc:m=3:k=2:spin=1.5".parse().unwrap();
        assert_eq!(mc.name(), "montecarlo:k=2:m=3:spin=1.5");
        assert_eq!(mc.name().parse::<AnyStrategy>(), Ok(mc));
        assert_eq!(
            "random".parse::<AnyStrategy>().unwrap().name(),
            "random:spin=0"
        );
        let p: AnyStrategy = "planner:budget=3000".parse().unwrap();
        assert_eq!(p.name(), "planner:budget=3000:spin=0");
        assert_eq!(p.name().parse::<AnyStrategy>(), Ok(p));
        for bad in [
            "greedy:k=0",
            "greedy:m=3",
            "nope",
            "random:spin=-1",
            "greedy:k",
            "planner:budget=10",
            "planner:k=3",
        ] {
            assert!(bad.parse::<AnyStrategy>().is_err(), "{bad}");
        }
    }

    #[test]
    fn ties_go_to_the_lowest_index() {
        assert_eq!(best(&[None, Some(5), Some(10), Some(10)]), Some(2));
        assert_eq!(best(&[None, None]), None);
        assert_eq!(crate::rules::score_difference(1, [10, 15], [1, 0]), 15 - 30);
    }
}
