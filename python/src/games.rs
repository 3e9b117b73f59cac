//! Games between strategies: the built-in ones (`random`, `greedy:k=16`,
//! `montecarlo:k=8:m=8`, `planner:budget=2000`, as on the command line) and strategies
//! written in Python: any callable taking a turn (a dict: seat, team, position, scores,
//! discs left, seed) and returning the intended flick in player terms.
//!
//! A Python strategy is a [`Strategy`] of the library like the others: the games run
//! with the GIL released and the strategy takes it back only to call the callable. An
//! exception raised by the callable stops its game and is raised again by `play`.

use crate::errors::{error, input_error, interruptible, on_pool};
use crate::library::ruleset;
use crokinole_core::{Board, InputError, Physics};
use crokinole_io::{game_log_json, games_summary_json};
use crokinole_montecarlo::{Noise, PlayerFlick};
use crokinole_play::{
    AnyStrategy, Decision, NoLegalFlick, PlayConfig, Strategy, Turn, parse_noise,
};
use glam::DVec2;
use numpy::IntoPyArray;
use numpy::ndarray::Array2;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use std::sync::Mutex;

/// Registers this module's functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(play, m)?)?;
    Ok(())
}

/// A strategy written in Python: a callable `turn -> flick`.
pub struct PyStrategy {
    callable: Py<PyAny>,
    name: String,
    /// The first exception the callable raised (the game stops on it).
    error: Mutex<Option<PyErr>>,
    /// Whether an illegal flick forfeits its shot (`illegal="forfeit"`) instead of stopping
    /// the games with its reason.
    forfeit: bool,
}

impl PyStrategy {
    /// The callable's view of a turn (see the module documentation).
    fn turn_dict<'py>(py: Python<'py>, turn: &Turn<'_>) -> PyResult<Bound<'py, PyDict>> {
        let game = turn.game();
        let d = PyDict::new(py);
        let pos = turn.position();
        let mut xy = Array2::<f64>::zeros((pos.len(), 2));
        for (k, p) in pos.iter().enumerate() {
            xy[[k, 0]] = p.pos.x;
            xy[[k, 1]] = p.pos.y;
        }
        d.set_item("seat", turn.seat())?;
        d.set_item("team", turn.team())?;
        d.set_item("players", game.players())?;
        d.set_item("ruleset", game.ruleset().name())?;
        d.set_item("round", game.round())?;
        d.set_item("shot", game.shots_in_round())?;
        d.set_item("discs", xy.into_pyarray(py))?;
        d.set_item(
            "teams",
            pos.iter()
                .map(|p| p.team)
                .collect::<Vec<u8>>()
                .into_pyarray(py),
        )?;
        // A list of ints (a `Vec<u8>` would become `bytes`).
        let left: Vec<u32> = game
            .discs_left_per_seat()
            .iter()
            .map(|&n| n.into())
            .collect();
        d.set_item("discs_left", left)?;
        d.set_item("legal_offsets", turn.legal_offsets())?;
        d.set_item("twenties", game.twenties().to_vec())?;
        d.set_item("score", game.score().to_vec())?;
        d.set_item("seed", turn.seed())?;
        Ok(d)
    }

    /// The callable's answer as a decision: a dict `{offset, aim, speed, spin, target,
    /// value}` (`speed` required, the others optional) or a sequence `(offset, aim, speed,
    /// spin)`.
    pub fn decision(answer: &Bound<'_, PyAny>) -> PyResult<Decision> {
        let mut f = PlayerFlick {
            offset: 0.0,
            aim: 0.0,
            target: None,
            speed: 0.0,
            spin: 0.0,
        };
        let mut value = None;
        if let Ok(d) = answer.cast::<PyDict>() {
            let get = |k: &str| -> PyResult<Option<f64>> {
                d.get_item(k)?.map(|v| v.extract::<f64>()).transpose()
            };
            f.offset = get("offset")?.unwrap_or(0.0);
            f.aim = get("aim")?.unwrap_or(0.0);
            f.spin = get("spin")?.unwrap_or(0.0);
            f.speed = get("speed")?
                .ok_or_else(|| error("field `flick.speed`: missing (the strategy's answer)"))?;
            if let Some(t) = d.get_item("target")?
                && !t.is_none()
            {
                let xy: Vec<f64> = t
                    .extract()
                    .ok()
                    .filter(|v: &Vec<f64>| v.len() == 2)
                    .ok_or_else(|| error("field `flick.target`: must be a point [x, y]"))?;
                f.target = Some(DVec2::new(xy[0], xy[1]));
            }
            value = get("value")?;
        } else if !answer.is_instance_of::<PyString>() {
            let v: Vec<f64> = answer
                .extract()
                .ok()
                .filter(|v: &Vec<f64>| v.len() == 4)
                .ok_or_else(|| {
                    error(
                        "field `flick`: a strategy returns a dict {offset, aim, speed, spin, \
                         target} or a sequence (offset, aim, speed, spin)",
                    )
                })?;
            (f.offset, f.aim, f.speed, f.spin) = (v[0], v[1], v[2], v[3]);
        } else {
            return Err(error(
                "field `flick`: a strategy returns a dict {offset, aim, speed, spin, target} \
                 or a sequence (offset, aim, speed, spin), got a string",
            ));
        }
        Ok(Decision {
            flick: f,
            value,
            candidates: 1,
        })
    }

    /// The exception the callable raised, if any (taken out).
    pub fn take_error(&self) -> Option<PyErr> {
        self.error.lock().ok().and_then(|mut e| e.take())
    }
}

impl Strategy for PyStrategy {
    fn choose(&self, turn: &Turn<'_>) -> Result<Decision, NoLegalFlick> {
        let result = Python::attach(|py| {
            let view = PyStrategy::turn_dict(py, turn)?;
            let answer = self.callable.bind(py).call1((view,))?;
            let decision = PyStrategy::decision(&answer)?;
            // Checked here so that the error names the field and the reason (a NaN speed,
            // an offset outside the quadrant, an overlap and by how much).
            if self.forfeit {
                // The game forfeits the shot of an illegal flick, the reason in its log.
                return Ok(decision);
            }
            turn.check(&decision.flick).map_err(|e| {
                error(format!(
                    "the strategy `{}` chose an illegal flick: {e}",
                    self.name
                ))
            })?;
            Ok(decision)
        });
        result.map_err(|e| {
            if let Ok(mut slot) = self.error.lock() {
                slot.get_or_insert(e);
            }
            NoLegalFlick { seat: turn.seat() }
        })
    }

    fn name(&self) -> String {
        self.name.clone()
    }

    fn forfeits_illegal(&self) -> bool {
        self.forfeit
    }
}

/// One seat's strategy: a built-in one or a Python one.
enum Seat {
    BuiltIn(AnyStrategy),
    Python(std::sync::Arc<PyStrategy>),
}

/// A strategy shared between the configuration and the caller (to read its error).
struct Shared(std::sync::Arc<PyStrategy>);

impl Strategy for Shared {
    fn choose(&self, turn: &Turn<'_>) -> Result<Decision, NoLegalFlick> {
        self.0.choose(turn)
    }
    fn name(&self) -> String {
        self.0.name()
    }
    fn forfeits_illegal(&self) -> bool {
        self.0.forfeits_illegal()
    }
}

/// A noise model from its command-line form (`none`, `offset=..,aim=..`), fields `noise.*`.
pub fn noise(spec: &str) -> PyResult<Noise> {
    parse_noise(spec).map_err(input_error)
}

/// One strategy: a string as a `--strategies` entry (errors on field `field`), a callable
/// as a Python strategy named `python:NAME` (the callable's `__name__`).
fn seat(item: &Bound<'_, PyAny>, noise: Noise, forfeit: bool, field: &str) -> PyResult<Seat> {
    if let Ok(s) = item.extract::<String>() {
        let s = AnyStrategy::parse(&s, noise)
            .map_err(|e| input_error(InputError::new(field.to_string(), e)))?;
        Ok(Seat::BuiltIn(s))
    } else if item.is_callable() {
        let name = item
            .getattr("__name__")
            .and_then(|n| n.extract::<String>())
            .unwrap_or_else(|_| "strategy".to_string());
        Ok(Seat::Python(std::sync::Arc::new(PyStrategy {
            callable: item.clone().unbind(),
            name: format!("python:{name}"),
            error: Mutex::new(None),
            forfeit,
        })))
    } else {
        Err(error(format!(
            "field `{field}`: expected a strategy name or a callable"
        )))
    }
}

/// A seat's strategy for a configuration, and the Python strategy behind it if any.
pub type SeatStrategy = (Box<dyn Strategy>, Option<std::sync::Arc<PyStrategy>>);

/// A seat's strategy (`strategy(item)` as in [`seat`]) for a configuration, with the
/// Python strategy to read its error from when it is one.
pub fn strategy(item: &Bound<'_, PyAny>, noise: Noise, field: &str) -> PyResult<SeatStrategy> {
    Ok(match seat(item, noise, false, field)? {
        Seat::BuiltIn(b) => (Box::new(b), None),
        Seat::Python(p) => (Box::new(Shared(p.clone())), Some(p)),
    })
}

/// Parses a list of strategies (field `strategies[k]`, [`seat`]).
fn seats(items: &Bound<'_, PyList>, noise: Noise, forfeit: bool) -> PyResult<Vec<Seat>> {
    items
        .iter()
        .enumerate()
        .map(|(k, item)| seat(&item, noise, forfeit, &format!("strategies[{k}]")))
        .collect()
}

/// The configuration of a `play` run (its arguments checked as `play` checks them) and
/// its Python strategies, whose errors to read after the games.
pub fn play_config(
    strategies: &Bound<'_, PyList>,
    players: u8,
    ruleset_name: &str,
    noise_spec: &str,
    seed: u64,
    max_rounds: u32,
    forfeit: bool,
) -> PyResult<(PlayConfig, Vec<std::sync::Arc<PyStrategy>>)> {
    let ruleset = ruleset(ruleset_name)?;
    let noise = noise(noise_spec)?;
    let seats = seats(strategies, noise, forfeit)?;
    let python: Vec<std::sync::Arc<PyStrategy>> = seats
        .iter()
        .filter_map(|s| match s {
            Seat::Python(p) => Some(p.clone()),
            Seat::BuiltIn(_) => None,
        })
        .collect();
    let config = PlayConfig {
        board: Board::tournament(),
        physics: Physics::default(),
        players,
        ruleset,
        strategies: seats
            .into_iter()
            .map(|s| match s {
                Seat::BuiltIn(b) => Box::new(b) as Box<dyn Strategy>,
                Seat::Python(p) => Box::new(Shared(p)) as Box<dyn Strategy>,
            })
            .collect(),
        noise,
        seed,
        max_rounds,
    };
    config.check().map_err(input_error)?;
    Ok((config, python))
}

/// Plays games as `crokinole play` does and returns what it prints: the game log of game
/// 0 when `games` is 1, the summary of games `0..games` otherwise. `strategies` holds one
/// entry per seat in play (or per team with four players): a built-in strategy's name or
/// a Python callable. `illegal` says what a Python strategy's illegal flick does: `raise`
/// (stop with its reason) or `forfeit` (the shot is forfeited, the reason in the log).
#[allow(clippy::too_many_arguments)]
#[pyfunction]
#[pyo3(signature = (strategies, players=2, ruleset_name="traditional", noise_spec=crokinole_play::DEFAULT_NOISE, seed=0, games=1, max_rounds=100, threads=None, illegal="raise"))]
fn play(
    py: Python<'_>,
    strategies: &Bound<'_, PyList>,
    players: u8,
    ruleset_name: &str,
    noise_spec: &str,
    seed: u64,
    games: u64,
    max_rounds: u32,
    threads: Option<usize>,
    illegal: &str,
) -> PyResult<String> {
    let forfeit = match illegal {
        "raise" => false,
        "forfeit" => true,
        other => {
            return Err(error(format!(
                "field `illegal`: expected `raise` or `forfeit`, got `{other}`"
            )));
        }
    };
    if games == 0 {
        return Err(error("field `games`: must be at least 1, got 0"));
    }
    let (config, python) = play_config(
        strategies,
        players,
        ruleset_name,
        noise_spec,
        seed,
        max_rounds,
        forfeit,
    )?;
    let played = interruptible(py, |stop| {
        on_pool(threads, || {
            if games == 1 {
                config.play_until(0, stop).map(|log| game_log_json(&log))
            } else {
                config
                    .play_many_until(games, || (), stop)
                    .map(|s| games_summary_json(&s))
            }
        })
    })??;
    if let Some(e) = python.iter().find_map(|p| p.take_error()) {
        return Err(e);
    }
    played.map_err(|e| error(e.to_string()))
}
