//! Legality before acting: whether a flick in player terms is legal for a seat in a
//! position, with the reason when it is not, and the offsets along the shooting line where
//! the seat may place its disc ([`crokinole_play::check_flick`],
//! [`crokinole_play::legal_offsets`]). The position is the one a Python strategy's turn
//! describes (`seat`, `players`, `ruleset`, `discs[n, 2]`, `teams[n]`) on the tournament
//! board with the default physics, the table `play` and the environments use.

use crate::errors::{error, input_error};
use crate::games::PyStrategy;
use crate::library::ruleset;
use crokinole_core::{Board, InputError, Physics, Placed};
use crokinole_montecarlo::{Noise, Situation};
use crokinole_plan::Setup;
use glam::DVec2;
use numpy::{PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;

/// Registers this module's functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check_flick, m)?)?;
    m.add_function(wrap_pyfunction!(legal_offsets, m)?)?;
    Ok(())
}

/// The seat's position, checked as a study's situation is (fields `players`, `seat`,
/// `discs[k].pos`, `discs[k].team`, `teams`).
fn setup(
    seat: u8,
    players: u8,
    ruleset_name: &str,
    discs: &PyReadonlyArray2<'_, f64>,
    teams: &PyReadonlyArray1<'_, i64>,
) -> PyResult<Setup> {
    let (d, t) = (discs.as_array(), teams.as_array());
    if d.shape()[1] != 2 {
        return Err(error(format!(
            "field `discs`: must have shape [n, 2], got {:?}",
            d.shape()
        )));
    }
    if t.len() != d.shape()[0] {
        return Err(error(format!(
            "field `teams`: must have shape [{}] (one per disc), got [{}]",
            d.shape()[0],
            t.len()
        )));
    }
    let mut placed = Vec::with_capacity(t.len());
    for (k, &team) in t.iter().enumerate() {
        let team = match team {
            0 | 1 => team as u8,
            _ => {
                return Err(error(format!(
                    "field `teams[{k}]`: must be 0 or 1, got {team}"
                )));
            }
        };
        placed.push(Placed {
            team,
            pos: DVec2::new(d[[k, 0]], d[[k, 1]]),
        });
    }
    let situation = Situation {
        board: Board::tournament(),
        physics: Physics::default(),
        players,
        seat,
        discs: placed,
        noise: Noise::NONE,
    };
    Setup::new(situation, ruleset(ruleset_name)?).map_err(input_error)
}

/// `None` if `flick` (a dict `{offset, aim, speed, spin, target}` or a sequence `(offset,
/// aim, speed, spin)`, as a strategy returns it) is legal for `seat` in the position, else
/// the reason: the field and the problem, as `play`'s error words it.
#[pyfunction]
#[pyo3(signature = (flick, seat, players, ruleset_name, discs, teams))]
fn check_flick(
    flick: &Bound<'_, PyAny>,
    seat: u8,
    players: u8,
    ruleset_name: &str,
    discs: PyReadonlyArray2<'_, f64>,
    teams: PyReadonlyArray1<'_, i64>,
) -> PyResult<Option<String>> {
    let setup = setup(seat, players, ruleset_name, &discs, &teams)?;
    let decision = PyStrategy::decision(flick)?;
    Ok(crokinole_play::check_flick(&setup, &decision.flick)
        .err()
        .map(|e: InputError| e.to_string()))
}

/// The offsets (m along the shooting line, + to the player's right) where `seat` may
/// place its disc in the position: sorted disjoint intervals `(lo, hi)`.
#[pyfunction]
#[pyo3(signature = (seat, players, ruleset_name, discs, teams))]
fn legal_offsets(
    seat: u8,
    players: u8,
    ruleset_name: &str,
    discs: PyReadonlyArray2<'_, f64>,
    teams: PyReadonlyArray1<'_, i64>,
) -> PyResult<Vec<(f64, f64)>> {
    let setup = setup(seat, players, ruleset_name, &discs, &teams)?;
    Ok(crokinole_play::legal_offsets(&setup))
}
