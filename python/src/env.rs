//! `GameBatch`: the native core of the Gymnasium environments (`crokinole/env.py`): `N`
//! two-player games, each with the agent in one seat against a built-in strategy or a
//! Python policy (a callable, called with the GIL taken back for each of its shots),
//! stepped together in one rayon batch with the GIL released.
//!
//! A step of game `i`: the agent's action (four numbers in `[-1, 1]`, mapped to a flick in
//! player terms by [`ActionMap`]) is the intended flick of the agent's seat; if it is not
//! legal where it stands (placement, overlap) the seat plays the turn's fallback flick
//! instead (the middle of the shooting line toward the 20 hole) and the step says so. The
//! player's error perturbs it ([`PlayConfig::execute`]: the same noise and seeds as
//! `crokinole play`), the engine runs it, the rules judge it; then the opponent plays its
//! shots until it is the agent's turn again or the game ends. A game's shots depend only
//! on its game index (the reset seed) and the actions: never on the batch or the threads.
//!
//! The agent's lead is `(own - other)` game score plus `(own - other)` of the round in
//! progress (`20 x twenties + board score`; nothing once the game is over, its last round
//! being in the game score); the reward is its change over the step, or
//! with `reward = "win"` +1 / -1 / 0 when the game ends (won / lost / drawn) and 0 before.

use crate::errors::{error, input_error, on_pool};
use crate::games::{PyStrategy, noise, strategy};
use crate::library::ruleset;
use crokinole_core::{Board, Physics};
use crokinole_montecarlo::PlayerFlick;
use crokinole_montecarlo::flick::max_offset;
use crokinole_play::{Decision, GameInPlay, NoLegalFlick, PlayConfig, PlayError, Strategy, Turn};
use crokinole_rules::{Game, GameResult, board_score, round_totals, score_difference};
use glam::DVec2;
use numpy::ndarray::{Array1, Array2, Array3};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray3, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyString;
use rayon::prelude::*;
use std::sync::Arc;

/// `team`'s game score and the round in progress (20 x twenties + board score, 0 once the
/// game is over, its last round being in the score), each `[own, other]`: what the
/// observations of the env and the Table show.
pub(crate) fn standing(config: &PlayConfig, g: &Game, team: u8) -> ([i32; 2], [i32; 2]) {
    let (me, other) = (usize::from(team), usize::from(1 - team));
    let board = board_score(&config.board, config.physics.disc_radius, g.position());
    let totals = if g.is_over() {
        [0, 0]
    } else {
        round_totals(g.twenties(), board)
    };
    let sc = g.score();
    (
        [sc[me] as i32, sc[other] as i32],
        [totals[me] as i32, totals[other] as i32],
    )
}

/// A seat whose decisions come from Python (the agent's actions, a `Table`'s flicks): this
/// strategy is only its name in the log.
pub(crate) struct Agent;

impl Strategy for Agent {
    fn choose(&self, turn: &Turn<'_>) -> Result<Decision, NoLegalFlick> {
        Ok(Decision {
            flick: turn.fallback()?,
            value: None,
            candidates: 0,
        })
    }

    fn name(&self) -> String {
        "agent".to_string()
    }
}

/// How an action in `[-1, 1]^4` becomes a flick: `offset = a0 * 0.9 * R / sqrt(2)` on the
/// shooting line (R its radius; 90 % of the quadrant's half width), aimed at the 20 hole's
/// centre turned by `aim = a1 * aim_range` rad (counter-clockwise), `speed = lo + (a2 + 1) /
/// 2 * (hi - lo)` m/s, `spin = a3 * spin_range` rad/s. Actions are clipped to `[-1, 1]`.
#[derive(Clone, Copy, Debug)]
pub struct ActionMap {
    offset: f64,
    aim: f64,
    speed: (f64, f64),
    spin: f64,
}

impl ActionMap {
    /// The flick of action `a`.
    pub fn flick(&self, a: [f64; 4]) -> PlayerFlick {
        let c = a.map(|x| x.clamp(-1.0, 1.0));
        PlayerFlick {
            offset: c[0] * self.offset,
            aim: c[1] * self.aim,
            target: Some(DVec2::ZERO),
            speed: self.speed.0 + (c[2] + 1.0) / 2.0 * (self.speed.1 - self.speed.0),
            spin: c[3] * self.spin,
        }
    }
}

/// Team `team`'s lead in `game`: `(own - other)` game score plus `(own - other)` of the
/// round in progress (`20 x twenties + board score`; nothing once the game is over, its
/// last round being in the game score).
pub fn lead(config: &PlayConfig, game: &GameInPlay, team: u8) -> i64 {
    let g = game.game();
    let [a, b] = g.score();
    let own = if team == 0 { 1 } else { -1 };
    let board = board_score(&config.board, config.physics.disc_radius, g.position());
    let score = own * (i64::from(a) - i64::from(b));
    if g.is_over() {
        return score;
    }
    score + score_difference(team, board, g.twenties())
}

impl ActionMap {
    /// The map of the ranges given, checked against the physics (fields `aim_range`,
    /// `speed_range`, `spin_range`).
    pub fn checked(
        board: &Board,
        physics: &Physics,
        aim_range: f64,
        speed_range: (f64, f64),
        spin_range: f64,
    ) -> PyResult<ActionMap> {
        let max_speed = physics.max_speed;
        let spin_limit = max_speed / physics.disc_radius;
        let (lo, hi) = speed_range;
        if !(lo > 0.0 && lo < hi && hi <= max_speed) {
            return Err(error(format!(
                "field `speed_range`: needs 0 < low < high <= {max_speed} m/s (physics.max_speed), got ({lo}, {hi})"
            )));
        }
        if !(aim_range.is_finite() && (0.0..=std::f64::consts::FRAC_PI_2).contains(&aim_range)) {
            return Err(error(format!(
                "field `aim_range`: must be between 0 and pi/2 rad, got {aim_range}"
            )));
        }
        if !(spin_range.is_finite() && (0.0..=spin_limit).contains(&spin_range)) {
            return Err(error(format!(
                "field `spin_range`: must be between 0 and {spin_limit} rad/s, got {spin_range}"
            )));
        }
        Ok(ActionMap {
            offset: 0.9 * max_offset(board),
            aim: aim_range,
            speed: (lo, hi),
            spin: spin_range,
        })
    }

    /// The flick the seat about to shoot in `game` plays for action `a`: the action's
    /// flick if legal there, else the turn's fallback; and whether it was replaced.
    pub fn legal_flick(
        &self,
        config: &PlayConfig,
        game: &GameInPlay,
        a: [f64; 4],
    ) -> Result<(PlayerFlick, bool), PlayError> {
        let intended = self.flick(a);
        let turn = game.turn(&config.board, &config.physics)?;
        match turn.legal(&intended) {
            Some(_) => Ok((intended, false)),
            None => turn
                .fallback()
                .map(|f| (f, true))
                .map_err(|error| PlayError::NoLegalFlick {
                    game: game.index(),
                    error,
                }),
        }
    }
}

/// What one step of one game gave.
#[derive(Clone, Copy, Default)]
struct Stepped {
    reward: f64,
    terminated: bool,
    truncated: bool,
    illegal: bool,
}

/// `N` games of the agent against a built-in strategy (module documentation).
#[pyclass(module = "crokinole._crokinole")]
pub struct GameBatch {
    config: PlayConfig,
    seat: u8,
    team: u8,
    win_reward: bool,
    map: ActionMap,
    /// Disc slots of the observation: the most discs a round puts on the board.
    slots: usize,
    games: Vec<Option<GameInPlay>>,
    /// The opponent when it is a Python callable: an exception it raises stops the step
    /// and is raised again.
    python: Option<Arc<PyStrategy>>,
}

impl GameBatch {
    /// A game's error as a Python exception: the one the Python opponent raised, if it
    /// did, else `CrokinoleError` with the message.
    fn raised(&self, e: PlayError) -> PyErr {
        self.python
            .as_ref()
            .and_then(|p| p.take_error())
            .unwrap_or_else(|| error(e.to_string()))
    }

    /// The agent's lead in `game` (module documentation).
    fn lead(&self, game: &GameInPlay) -> i64 {
        lead(&self.config, game, self.team)
    }

    /// The opponent plays until it is the agent's turn or the game ends.
    fn opponents(&self, game: &mut GameInPlay) -> Result<(), PlayError> {
        while let Some(seat) = self.config.turn(game) {
            if seat == self.seat {
                break;
            }
            let decision = self.config.decide(game)?;
            self.config.execute(game, decision)?;
        }
        Ok(())
    }

    /// Game `index`, played up to the agent's first turn.
    fn start(&self, index: u64) -> Result<GameInPlay, PlayError> {
        let mut game = self.config.start(index)?;
        self.opponents(&mut game)?;
        Ok(game)
    }

    /// One step of one game (module documentation).
    fn step_one(&self, game: &mut GameInPlay, action: [f64; 4]) -> Result<Stepped, PlayError> {
        let before = self.lead(game);
        let (flick, illegal) = self.map.legal_flick(&self.config, game, action)?;
        let decision = Decision {
            flick,
            value: None,
            candidates: 1,
        };
        self.config.execute(game, decision)?;
        self.opponents(game)?;
        let over = game.game().result();
        let stopped = self.config.turn(game).is_none();
        let reward = if self.win_reward {
            match over {
                Some(GameResult::Won(t)) if t == self.team => 1.0,
                Some(GameResult::Won(_)) => -1.0,
                _ => 0.0,
            }
        } else {
            (self.lead(game) - before) as f64
        };
        Ok(Stepped {
            reward,
            terminated: over.is_some(),
            truncated: stopped && over.is_none(),
            illegal,
        })
    }

    fn game(&self, i: usize) -> PyResult<&GameInPlay> {
        self.games
            .get(i)
            .and_then(|g| g.as_ref())
            .ok_or_else(|| error(format!("game {i} has not been reset")))
    }
}

type Observation<'py> = (
    Bound<'py, PyArray3<f32>>,
    Bound<'py, PyArray2<i8>>,
    Bound<'py, PyArray2<i8>>,
    Bound<'py, PyArray2<i32>>,
    Bound<'py, PyArray2<i32>>,
    Bound<'py, PyArray2<i32>>,
);

type Steps<'py> = (
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
);

#[pymethods]
impl GameBatch {
    /// `n` games with the agent in `seat` (0 or 2) against `opponent` (a built-in
    /// strategy's name, or a Python callable as `play` takes one), every player with the error `noise` (`none` or
    /// `offset=..,aim=..,speed=..,spin=..`), under `ruleset`, stopped after `max_rounds`
    /// rounds; `reward` is `score` or `win`; the action map's ranges (see `ActionMap`).
    #[new]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (n, seat=0, opponent=None, noise_spec=crokinole_play::DEFAULT_NOISE, ruleset_name="tournament", max_rounds=100, reward="score", aim_range=0.25, speed_range=(0.3, 3.0), spin_range=20.0))]
    fn new(
        py: Python<'_>,
        n: usize,
        seat: u8,
        opponent: Option<&Bound<'_, PyAny>>,
        noise_spec: &str,
        ruleset_name: &str,
        max_rounds: u32,
        reward: &str,
        aim_range: f64,
        speed_range: (f64, f64),
        spin_range: f64,
    ) -> PyResult<GameBatch> {
        if seat != 0 && seat != 2 {
            return Err(error(format!(
                "field `seat`: must be 0 or 2 (the seats of a two-player game), got {seat}"
            )));
        }
        if n == 0 || n > 1 << 20 {
            return Err(error(format!(
                "field `num_envs`: must be between 1 and 1048576, got {n}"
            )));
        }
        let win_reward = match reward {
            "score" => false,
            "win" => true,
            other => {
                return Err(error(format!(
                    "field `reward`: expected `score` or `win`, got `{other}`"
                )));
            }
        };
        let noise = noise(noise_spec)?;
        let default = PyString::new(py, "greedy:k=8");
        let (opponent, python) = strategy(opponent.unwrap_or(&default), noise, "opponent")?;
        let ruleset = ruleset(ruleset_name)?;
        let board = Board::tournament();
        let physics = Physics::default();
        let map = ActionMap::checked(&board, &physics, aim_range, speed_range, spin_range)?;
        let mut strategies: Vec<Box<dyn Strategy>> = vec![opponent];
        let agent: Box<dyn Strategy> = Box::new(Agent);
        if seat == 0 {
            strategies.insert(0, agent);
        } else {
            strategies.push(agent);
        }
        let config = PlayConfig {
            board,
            physics,
            players: 2,
            ruleset,
            strategies,
            noise,
            seed: 0,
            max_rounds,
        };
        config.check().map_err(input_error)?;
        let team = crokinole_rules::team_of_seat(seat, 2).unwrap_or(0);
        let slots = usize::from(ruleset.discs_per_player(2)) * 2;
        Ok(GameBatch {
            config,
            seat,
            team,
            win_reward,
            map,
            slots,
            games: (0..n).map(|_| None).collect(),
            python,
        })
    }

    /// Games in the batch.
    #[getter]
    fn num_envs(&self) -> usize {
        self.games.len()
    }

    /// Disc slots of the observation.
    #[getter]
    fn slots(&self) -> usize {
        self.slots
    }

    /// The agent's seat.
    #[getter]
    fn seat(&self) -> u8 {
        self.seat
    }

    /// The agent's team.
    #[getter]
    fn team(&self) -> u8 {
        self.team
    }

    /// The flick (player terms: `offset, aim` toward the hole's centre, `speed, spin`) of
    /// each row of `actions[K, 4]`.
    fn action_flicks<'py>(
        &self,
        py: Python<'py>,
        actions: PyReadonlyArray2<'py, f64>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let a = actions.as_array();
        if a.shape()[1] != 4 {
            return Err(error(format!(
                "field `actions`: must have shape [K, 4], got {:?}",
                a.shape()
            )));
        }
        let mut out = Array2::<f64>::zeros((a.shape()[0], 4));
        for k in 0..a.shape()[0] {
            let f = self.map.flick([a[[k, 0]], a[[k, 1]], a[[k, 2]], a[[k, 3]]]);
            for (j, v) in [f.offset, f.aim, f.speed, f.spin].into_iter().enumerate() {
                out[[k, j]] = v;
            }
        }
        Ok(out.into_pyarray(py))
    }

    /// Starts game `i` of the batch as game `indices[k]` of the run, for `(i, k)` in
    /// `which` (all games, in order, if `None`), played up to the agent's first turn; the
    /// games start in one rayon batch.
    #[pyo3(signature = (indices, which=None))]
    fn reset(
        &mut self,
        py: Python<'_>,
        indices: Vec<u64>,
        which: Option<Vec<usize>>,
    ) -> PyResult<()> {
        let which = which.unwrap_or_else(|| (0..self.games.len()).collect());
        if which.len() != indices.len() {
            return Err(error(format!(
                "field `seeds`: one per game to reset ({}), got {}",
                which.len(),
                indices.len()
            )));
        }
        if let Some(&bad) = which.iter().find(|&&i| i >= self.games.len()) {
            return Err(error(format!(
                "game {bad} is not in a batch of {}",
                self.games.len()
            )));
        }
        let this = &*self;
        let started: Vec<Result<GameInPlay, PlayError>> = py.detach(|| {
            on_pool(None, || {
                indices.par_iter().map(|&index| this.start(index)).collect()
            })
        })?;
        for (i, g) in which.into_iter().zip(started) {
            self.games[i] = Some(g.map_err(|e| self.raised(e))?);
        }
        Ok(())
    }

    /// Steps every game with its row of `actions[N, 4]` in one rayon batch and returns
    /// `(reward[N], terminated[N], truncated[N], illegal[N])`. With `active[N]`, only the
    /// games marked are stepped (the others give 0 and false, their actions ignored).
    /// Every game stepped must be in play (reset, and not ended since).
    #[pyo3(signature = (actions, active=None))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray2<'py, f64>,
        active: Option<Vec<bool>>,
    ) -> PyResult<Steps<'py>> {
        let a = actions.as_array();
        let n = self.games.len();
        if a.shape() != [n, 4] {
            return Err(error(format!(
                "field `actions`: must have shape [{n}, 4], got {:?}",
                a.shape()
            )));
        }
        let active = active.unwrap_or_else(|| vec![true; n]);
        if active.len() != n {
            return Err(error(format!(
                "field `active`: must have one entry per game ({n}), got {}",
                active.len()
            )));
        }
        for (i, g) in self.games.iter().enumerate() {
            if !active[i] {
                continue;
            }
            match g {
                Some(g) if self.config.turn(g) == Some(self.seat) => {}
                Some(_) => {
                    return Err(error(format!(
                        "game {i} has ended: reset it before stepping"
                    )));
                }
                None => return Err(error(format!("game {i} has not been reset"))),
            }
        }
        let actions: Vec<[f64; 4]> = (0..n)
            .map(|k| [a[[k, 0]], a[[k, 1]], a[[k, 2]], a[[k, 3]]])
            .collect();
        let mut games = std::mem::take(&mut self.games);
        let this = &*self;
        let results: Result<Vec<Result<Stepped, PlayError>>, PyErr> = py.detach(|| {
            on_pool(None, || {
                games
                    .par_iter_mut()
                    .with_max_len(1)
                    .zip(actions.par_iter())
                    .zip(active.par_iter())
                    .map(|((g, &a), &on)| match g {
                        Some(g) if on => this.step_one(g, a),
                        _ => Ok(Stepped::default()),
                    })
                    .collect()
            })
        });
        self.games = games;
        let results = results?;
        let mut reward = Array1::<f64>::zeros(n);
        let mut terminated = Array1::<bool>::from_elem(n, false);
        let mut truncated = Array1::<bool>::from_elem(n, false);
        let mut illegal = Array1::<bool>::from_elem(n, false);
        for (k, r) in results.into_iter().enumerate() {
            let s = r.map_err(|e| self.raised(e))?;
            reward[k] = s.reward;
            terminated[k] = s.terminated;
            truncated[k] = s.truncated;
            illegal[k] = s.illegal;
        }
        Ok((
            reward.into_pyarray(py),
            terminated.into_pyarray(py),
            truncated.into_pyarray(py),
            illegal.into_pyarray(py),
        ))
    }

    /// The observation of every game: `(discs[N, S, 2] (m, board frame), own[N, S] (1 for
    /// the agent's team), mask[N, S] (1 for a disc on the board), score[N, 2] (game score,
    /// own then other), round[N, 2] (the round in progress, 20 x twenties + board score,
    /// own then other; 0 once the game is over, its last round being in the score),
    /// discs_left[N, 2] (the agent's, the opponent's))`. Discs fill the
    /// first slots in id order; empty slots are zero with mask 0.
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<Observation<'py>> {
        let (n, s) = (self.games.len(), self.slots);
        let mut discs = Array3::<f32>::zeros((n, s, 2));
        let mut own = Array2::<i8>::zeros((n, s));
        let mut mask = Array2::<i8>::zeros((n, s));
        let mut score = Array2::<i32>::zeros((n, 2));
        let mut round = Array2::<i32>::zeros((n, 2));
        let mut left = Array2::<i32>::zeros((n, 2));
        let opponent_seat = usize::from((self.seat + 2) % 4);
        for i in 0..n {
            let g = self.game(i)?.game();
            for (k, d) in g.position().iter().take(s).enumerate() {
                discs[[i, k, 0]] = d.pos.x as f32;
                discs[[i, k, 1]] = d.pos.y as f32;
                own[[i, k]] = i8::from(d.team == self.team);
                mask[[i, k]] = 1;
            }
            let (sc, totals) = standing(&self.config, g, self.team);
            score[[i, 0]] = sc[0];
            score[[i, 1]] = sc[1];
            round[[i, 0]] = totals[0];
            round[[i, 1]] = totals[1];
            let dl = g.discs_left_per_seat();
            left[[i, 0]] = i32::from(dl[usize::from(self.seat)]);
            left[[i, 1]] = i32::from(dl[opponent_seat]);
        }
        Ok((
            discs.into_pyarray(py),
            own.into_pyarray(py),
            mask.into_pyarray(py),
            score.into_pyarray(py),
            round.into_pyarray(py),
            left.into_pyarray(py),
        ))
    }

    /// Game `i`'s position as an RGB image `[size, size, 3]` (u8): the board and its
    /// discs as the library draws them ([`crate::raster::position_rgb`]).
    #[pyo3(signature = (i, size=512))]
    fn render_rgb<'py>(
        &self,
        py: Python<'py>,
        i: usize,
        size: u32,
    ) -> PyResult<Bound<'py, numpy::PyArray3<u8>>> {
        let g = self.game(i)?.game();
        let (board, physics) = (&self.config.board, &self.config.physics);
        let image =
            py.detach(|| crate::raster::position_rgb(board, physics, g.position(), size))?;
        Ok(image.into_pyarray(py))
    }

    /// Game `i`'s log so far (the JSON of `crokinole play`'s game log).
    fn log_json(&self, i: usize) -> PyResult<String> {
        let g = self.game(i)?.clone();
        Ok(crokinole_io::game_log_json(&self.config.finish(g)))
    }
}
