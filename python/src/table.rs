//! `Table`: one game of 2 or 4 players in which every seat's flick comes from Python, a
//! shot at a time: the native core of the PettingZoo environment
//! (`crokinole/crokinole_v0.py`), one agent per seat.
//!
//! A shot: the seat to shoot gives an action (four numbers in `[-1, 1]`, mapped to a flick
//! by the Gymnasium environment's [`ActionMap`]); an action whose flick is not legal where
//! it stands is replaced by the turn's fallback flick, and the shot says so. The players'
//! error perturbs it as in `crokinole play` (its noise and seeds), the engine runs it and
//! the rules judge it. A game depends only on its game index and the actions.

use crate::env::{ActionMap, Agent, lead, standing};
use crate::errors::{error, on_pool};
use crate::games::noise;
use crate::library::ruleset;
use crokinole_core::{Board, Physics};
use crokinole_play::{Decision, GameInPlay, PlayConfig, PlayError, Strategy};
use crokinole_rules::{checked_team_of_seat, team_of_seat};
use numpy::ndarray::{Array1, Array2};
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::prelude::*;

/// One seat's view: `(discs[S, 2], own[S], mask[S], score[2], round[2],
/// discs_left[players])`.
type View<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<i8>>,
    Bound<'py, PyArray1<i8>>,
    Bound<'py, PyArray1<i32>>,
    Bound<'py, PyArray1<i32>>,
    Bound<'py, PyArray1<i32>>,
);

/// One game with every seat played from Python (module documentation).
#[pyclass(module = "crokinole._crokinole")]
pub struct Table {
    config: PlayConfig,
    map: ActionMap,
    slots: usize,
    game: Option<GameInPlay>,
}

impl Table {
    fn game(&self) -> PyResult<&GameInPlay> {
        self.game
            .as_ref()
            .ok_or_else(|| error("the game has not been reset"))
    }
}

#[pymethods]
impl Table {
    /// A table of `players` (2 or 4) under `ruleset`, every player with the error `noise`,
    /// stopped after `max_rounds` rounds; the action map's ranges as the Gymnasium
    /// environment's.
    #[new]
    #[pyo3(signature = (players=2, noise_spec=crokinole_play::DEFAULT_NOISE, ruleset_name="tournament", max_rounds=100, aim_range=0.25, speed_range=(0.3, 3.0), spin_range=20.0))]
    fn new(
        players: u8,
        noise_spec: &str,
        ruleset_name: &str,
        max_rounds: u32,
        aim_range: f64,
        speed_range: (f64, f64),
        spin_range: f64,
    ) -> PyResult<Table> {
        if players != 2 && players != 4 {
            return Err(error(format!(
                "field `players`: must be 2 or 4, got {players}"
            )));
        }
        let board = Board::tournament();
        let physics = Physics::default();
        let map = ActionMap::checked(&board, &physics, aim_range, speed_range, spin_range)?;
        let ruleset = ruleset(ruleset_name)?;
        let config = PlayConfig {
            board,
            physics,
            players,
            ruleset,
            strategies: (0..players)
                .map(|_| Box::new(Agent) as Box<dyn Strategy>)
                .collect(),
            noise: noise(noise_spec)?,
            seed: 0,
            max_rounds,
        };
        config.check().map_err(crate::errors::input_error)?;
        let slots = usize::from(ruleset.discs_per_player(players)) * usize::from(players);
        Ok(Table {
            config,
            map,
            slots,
            game: None,
        })
    }

    /// Disc slots of an observation: the most discs a round puts on the board.
    #[getter]
    fn slots(&self) -> usize {
        self.slots
    }

    /// Players at the table.
    #[getter]
    fn players(&self) -> u8 {
        self.config.players
    }

    /// Starts game `index` of the run (as `crokinole play --seed 0` numbers its games).
    fn reset(&mut self, index: u64) -> PyResult<()> {
        let game = self.config.start(index).map_err(|e| error(e.to_string()))?;
        self.game = Some(game);
        Ok(())
    }

    /// The seat to shoot next; `None` once the game is over or capped by `max_rounds`.
    fn turn(&self) -> PyResult<Option<u8>> {
        Ok(self.config.turn(self.game()?))
    }

    /// Whether the game is over (a winner, or a draw at the end).
    fn over(&self) -> PyResult<bool> {
        Ok(self.game()?.game().is_over())
    }

    /// The seat to shoot plays `action` (module documentation) with the GIL released;
    /// returns whether the action's flick was illegal and replaced by the fallback.
    fn shoot(&mut self, py: Python<'_>, action: [f64; 4]) -> PyResult<bool> {
        let mut game = self
            .game
            .take()
            .ok_or_else(|| error("the game has not been reset"))?;
        if self.config.turn(&game).is_none() {
            self.game = Some(game);
            return Err(error("the game has ended: reset it before shooting"));
        }
        let (config, map) = (&self.config, &self.map);
        let result = py.detach(|| {
            on_pool(None, || -> Result<bool, PlayError> {
                let (flick, illegal) = map.legal_flick(config, &game, action)?;
                let decision = Decision {
                    flick,
                    value: None,
                    candidates: 1,
                };
                config.execute(&mut game, decision)?;
                Ok(illegal)
            })
        });
        self.game = Some(game);
        result?.map_err(|e| error(e.to_string()))
    }

    /// Each team's lead (`(own - other)` game score plus the round in progress).
    fn leads(&self) -> PyResult<(i64, i64)> {
        let g = self.game()?;
        Ok((lead(&self.config, g, 0), lead(&self.config, g, 1)))
    }

    /// The winning team once the game is over (`None` for a draw or a game not over).
    fn winner(&self) -> PyResult<Option<u8>> {
        Ok(self
            .game()?
            .game()
            .result()
            .and_then(crokinole_rules::GameResult::winner))
    }

    /// Seat `seat`'s view of the game: `(discs[S, 2] (m, board frame), own[S] (1 for its
    /// team's discs), mask[S] (1 for a disc), score[2] (game score, own team then the
    /// other), round[2] (the round in progress, 20 x twenties + board score, own then
    /// other; 0 once the game is over), discs_left[players] (discs left to shoot this
    /// round, from this seat on in turn order))`. Discs fill the first slots in id order.
    fn observe<'py>(&self, py: Python<'py>, seat: u8) -> PyResult<View<'py>> {
        let players = self.config.players;
        let team = team_of_seat(seat, players)
            .ok_or_else(|| error(format!("field `seat`: no one sits at seat {seat}")))?;
        let g = self.game()?.game();
        let s = self.slots;
        let mut discs = Array2::<f32>::zeros((s, 2));
        let mut own = Array1::<i8>::zeros(s);
        let mut mask = Array1::<i8>::zeros(s);
        for (k, d) in g.position().iter().take(s).enumerate() {
            discs[[k, 0]] = d.pos.x as f32;
            discs[[k, 1]] = d.pos.y as f32;
            own[k] = i8::from(d.team == team);
            mask[k] = 1;
        }
        let (sc, totals) = standing(&self.config, g, team);
        let score = Array1::from(sc.to_vec());
        let round = Array1::from(totals.to_vec());
        let left_per_seat = g.discs_left_per_seat();
        let step = 4 / usize::from(players);
        let left: Vec<i32> = (0..usize::from(players))
            .map(|k| i32::from(left_per_seat[(usize::from(seat) + k * step) % 4]))
            .collect();
        Ok((
            discs.into_pyarray(py),
            own.into_pyarray(py),
            mask.into_pyarray(py),
            score.into_pyarray(py),
            round.into_pyarray(py),
            Array1::from(left).into_pyarray(py),
        ))
    }

    /// The position as an RGB image `[size, size, 3]` (u8), as
    /// [`crate::raster::position_rgb`] draws it.
    #[pyo3(signature = (size=512))]
    fn render_rgb<'py>(
        &self,
        py: Python<'py>,
        size: u32,
    ) -> PyResult<Bound<'py, numpy::PyArray3<u8>>> {
        let g = self.game()?.game();
        let (board, physics) = (&self.config.board, &self.config.physics);
        let image =
            py.detach(|| crate::raster::position_rgb(board, physics, g.position(), size))?;
        Ok(image.into_pyarray(py))
    }

    /// The game so far as `crokinole play` logs it (JSON).
    fn log_json(&self) -> PyResult<String> {
        let g = self.game()?.clone();
        Ok(crokinole_io::game_log_json(&self.config.finish(g)))
    }
}

/// `team_of_seat(seat, players=2)`: the library's team of a seat in play
/// (`rules::checked_team_of_seat`); a seat not in play (seat 1 or 3 with two players) or a
/// player count other than 2 or 4 raises `CrokinoleError` naming the field.
#[pyfunction]
#[pyo3(name = "team_of_seat", signature = (seat, players=2))]
pub fn team_of_seat_py(seat: i64, players: i64) -> PyResult<u8> {
    // Out of u8's range is out of range for the library's check too: 255 says so by name.
    let small = |n: i64| u8::try_from(n).unwrap_or(u8::MAX);
    checked_team_of_seat(small(players), small(seat)).map_err(crate::errors::input_error)
}
