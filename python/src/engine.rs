//! `Engine`: a board and its physics, and shot batches as numpy arrays.
//!
//! A batch of `N` shots with room for `M` discs at rest each: `discs[N, M, 2]` (m),
//! `teams[N, M]`, `counts[N]` (shot `k` uses its first `counts[k]` discs, ids
//! `0..counts[k]`), the shooter's `pos[N, 2]`, `vel[N, 2]`, `spin[N]` and `team[N]`.
//! Every shot is checked first (the messages name `shot k` and the field as the CLI does:
//! `shots[k].discs[j].pos`), then the batch runs with the GIL released on rayon
//! ([`crokinole::run_batch`]): the outcomes are bit-identical to `crokinole simulate` on
//! the same shots, for every thread count.

use crate::errors::{input_error, interruptible, on_pool};
use crokinole::batch::run_batch_until;
use crokinole::io::{outcomes_to_string, params_json, parse_shot_file};
use crokinole::{Board, DiscState, InputError, Outcome, Physics, Placed, Shot};
use glam::DVec2;
use numpy::ndarray::{Array1, Array2, Array3};
use numpy::{
    IntoPyArray, PyArray1, PyArray2, PyArray3, PyReadonlyArray1, PyReadonlyArray2, PyReadonlyArray3,
};
use pyo3::prelude::*;

/// Code of a disc's final state in the `state` array.
pub fn state_code(s: DiscState) -> i8 {
    match s {
        DiscState::Rest | DiscState::Moving => 0,
        DiscState::Hole => 1,
        DiscState::Ditch => 2,
    }
}

/// A board and its physical parameters, checked as a shot file's `board` and `physics`
/// blocks are.
#[pyclass(module = "crokinole._crokinole", frozen)]
pub struct Engine {
    /// Board geometry.
    pub board: Board,
    /// Physical parameters.
    pub physics: Physics,
}

/// What a batch gives back as arrays (see [`Engine::simulate_arrays`]).
type BatchArrays<'py> = (
    Bound<'py, PyArray3<f64>>,
    Bound<'py, PyArray2<i8>>,
    Bound<'py, PyArray1<u64>>,
    Bound<'py, PyArray1<u64>>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<bool>>,
    Option<String>,
);

/// A team from an integer array, checked as the engine checks it (0 or 1).
fn team(field: impl Fn() -> String, t: i64, shot: usize) -> Result<u8, InputError> {
    match t {
        0 | 1 => Ok(t as u8),
        _ => Err(InputError::new(field(), format!("must be 0 or 1, got {t}")).in_shot(shot)),
    }
}

/// A shape error on array `name`.
fn shape(name: &str, problem: String) -> PyErr {
    input_error(InputError::new(name, problem))
}

#[pymethods]
impl Engine {
    /// `Engine(shot_file_text)`: the `board` and `physics` blocks of a shot file (its
    /// `shots` are ignored). The Python package builds the text from dicts.
    #[new]
    fn new(text: &str) -> PyResult<Engine> {
        let (board, physics, _) = parse_shot_file(text).map_err(input_error)?;
        Ok(Engine { board, physics })
    }

    /// The `board` and `physics` blocks as JSON (what `crokinole params` prints for the
    /// defaults).
    fn params_json(&self) -> String {
        params_json(&self.board, &self.physics)
    }

    /// Runs a batch given as arrays (module documentation) and returns
    /// `(pos[N, M+1, 2], state[N, M+1], events[N], steps[N], time[N], cut_off[N],
    /// outcomes_json)`: disc `j` of shot `k` (the shooter is `j = counts[k]`) ends at
    /// `pos[k, j]` with `state[k, j]` 0 on the board, 1 in the 20 hole, 2 in the ditch;
    /// unused slots hold NaN and -1. `outcomes_json` is the outcome file (JSON) when
    /// `outcomes` is true.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (discs, teams, counts, pos, vel, spin, team, threads=None, outcomes=false))]
    fn simulate_arrays<'py>(
        &self,
        py: Python<'py>,
        discs: PyReadonlyArray3<'py, f64>,
        teams: PyReadonlyArray2<'py, i64>,
        counts: PyReadonlyArray1<'py, i64>,
        pos: PyReadonlyArray2<'py, f64>,
        vel: PyReadonlyArray2<'py, f64>,
        spin: PyReadonlyArray1<'py, f64>,
        team: PyReadonlyArray1<'py, i64>,
        threads: Option<usize>,
        outcomes: bool,
    ) -> PyResult<BatchArrays<'py>> {
        let shots = shots_of(&discs, &teams, &counts, &pos, &vel, &spin, &team)?;
        let m = discs.as_array().shape()[1];
        let (board, physics) = (&self.board, &self.physics);
        // Ctrl-C stops the batch within a shot (KeyboardInterrupt; nothing is returned).
        let results = interruptible(py, |stop| {
            on_pool(threads, || {
                run_batch_until(board, physics, &shots, stop).items
            })
        })??;
        let outs = results
            .into_iter()
            .collect::<Result<Vec<Outcome>, _>>()
            .map_err(input_error)?;
        let json = outcomes.then(|| outcomes_to_string(&outs));
        let n = outs.len();
        let mut fin = Array3::<f64>::from_elem((n, m + 1, 2), f64::NAN);
        let mut state = Array2::<i8>::from_elem((n, m + 1), -1);
        let mut events = Array1::<u64>::zeros(n);
        let mut steps = Array1::<u64>::zeros(n);
        let mut time = Array1::<f64>::zeros(n);
        let mut cut = Array1::<bool>::from_elem(n, false);
        for (k, o) in outs.iter().enumerate() {
            for (j, d) in o.discs.iter().enumerate() {
                fin[[k, j, 0]] = d.pos.x;
                fin[[k, j, 1]] = d.pos.y;
                state[[k, j]] = state_code(d.state);
            }
            events[k] = o.events.len() as u64;
            steps[k] = o.steps;
            time[k] = o.time;
            cut[k] = o.cut_off;
        }
        Ok((
            fin.into_pyarray(py),
            state.into_pyarray(py),
            events.into_pyarray(py),
            steps.into_pyarray(py),
            time.into_pyarray(py),
            cut.into_pyarray(py),
            json,
        ))
    }
}

/// The shots of a batch given as arrays, shapes and teams checked.
fn shots_of(
    discs: &PyReadonlyArray3<'_, f64>,
    teams: &PyReadonlyArray2<'_, i64>,
    counts: &PyReadonlyArray1<'_, i64>,
    pos: &PyReadonlyArray2<'_, f64>,
    vel: &PyReadonlyArray2<'_, f64>,
    spin: &PyReadonlyArray1<'_, f64>,
    team_arr: &PyReadonlyArray1<'_, i64>,
) -> PyResult<Vec<Shot>> {
    let (discs, teams, counts) = (discs.as_array(), teams.as_array(), counts.as_array());
    let (pos, vel, spin, team_arr) = (
        pos.as_array(),
        vel.as_array(),
        spin.as_array(),
        team_arr.as_array(),
    );
    let [n, m, two] = [discs.shape()[0], discs.shape()[1], discs.shape()[2]];
    if two != 2 {
        return Err(shape(
            "discs",
            format!("must have shape [N, M, 2], got {:?}", discs.shape()),
        ));
    }
    for (name, got, want) in [
        ("teams", teams.shape().to_vec(), vec![n, m]),
        ("counts", counts.shape().to_vec(), vec![n]),
        ("pos", pos.shape().to_vec(), vec![n, 2]),
        ("vel", vel.shape().to_vec(), vec![n, 2]),
        ("spin", spin.shape().to_vec(), vec![n]),
        ("team", team_arr.shape().to_vec(), vec![n]),
    ] {
        if got != want {
            return Err(shape(
                name,
                format!(
                    "must have shape {want:?} to match discs {:?}, got {got:?}",
                    discs.shape()
                ),
            ));
        }
    }
    let mut shots = Vec::with_capacity(n);
    for k in 0..n {
        let c = counts[k];
        if c < 0 || c as usize > m {
            return Err(input_error(
                InputError::new("counts", format!("must be between 0 and {m}, got {c}")).in_shot(k),
            ));
        }
        let mut placed = Vec::with_capacity(c as usize);
        for j in 0..c as usize {
            placed.push(Placed {
                team: team(|| format!("discs[{j}].team"), teams[[k, j]], k).map_err(input_error)?,
                pos: DVec2::new(discs[[k, j, 0]], discs[[k, j, 1]]),
            });
        }
        shots.push(Shot {
            discs: placed,
            shooter: crokinole::Flick {
                team: team(|| "shooter.team".to_string(), team_arr[k], k).map_err(input_error)?,
                pos: DVec2::new(pos[[k, 0]], pos[[k, 1]]),
                vel: DVec2::new(vel[[k, 0]], vel[[k, 1]]),
                spin: spin[k],
            },
        });
    }
    Ok(shots)
}
