//! `Engine`: a board and its physics, and shot batches as numpy arrays.
//!
//! A batch of `N` shots with room for `M` discs at rest each: `discs[N, M, 2]` (m),
//! `teams[N, M]`, `counts[N]` (shot `k` uses its first `counts[k]` discs, ids
//! `0..counts[k]`), the shooter's `pos[N, 2]`, `vel[N, 2]`, `spin[N]` and `team[N]`.
//! Every shot is checked first (the messages name `shot k` and the field as the CLI does:
//! `shots[k].discs[j].pos`), then the batch runs with the GIL released on rayon
//! ([`crokinole_core::run_batch`]), a chunk of shots at a time written into the result arrays,
//! so memory beyond the arrays stays bounded by a chunk: the outcomes are bit-identical to
//! `crokinole simulate` on the same shots, for every thread count.

use crate::errors::{input_error, interruptible, on_pool};
use crokinole_core::batch::run_batch_until;
use crokinole_core::cancel::Cancel;
use crokinole_core::{Board, DiscState, InputError, Outcome, Physics, Placed, Shot};
use crokinole_io::{
    Layout, OutcomeItem, StreamWriteError, params_json, parse_shot_file, write_outcome_stream,
};
use glam::DVec2;
use numpy::ndarray::{Array1, Array2, Array3, ArrayView1, ArrayView2, ArrayView3};
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
    Vec<Option<String>>,
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
    #[pyo3(signature = (discs, teams, counts, pos, vel, spin, team, threads=None, outcomes=false, skip_invalid=false))]
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
        skip_invalid: bool,
    ) -> PyResult<BatchArrays<'py>> {
        let arrays = Arrays::of(&discs, &teams, &counts, &pos, &vel, &spin, &team)?;
        let (n, m) = (arrays.n, arrays.m);
        let mut out = Filled {
            fin: Array3::<f64>::from_elem((n, m + 1, 2), f64::NAN),
            state: Array2::<i8>::from_elem((n, m + 1), -1),
            events: Array1::<u64>::zeros(n),
            steps: Array1::<u64>::zeros(n),
            time: Array1::<f64>::zeros(n),
            cut: Array1::<bool>::from_elem(n, false),
        };
        let (board, physics) = (&self.board, &self.physics);
        // Ctrl-C stops the batch within a shot (KeyboardInterrupt; nothing is returned).
        let (json, refused) = interruptible(py, |stop| {
            on_pool(threads, || {
                run_arrays(
                    board,
                    physics,
                    &arrays,
                    &mut out,
                    outcomes,
                    skip_invalid,
                    stop,
                )
            })
        })??
        .map_err(input_error)?;
        Ok((
            out.fin.into_pyarray(py),
            out.state.into_pyarray(py),
            out.events.into_pyarray(py),
            out.steps.into_pyarray(py),
            out.time.into_pyarray(py),
            out.cut.into_pyarray(py),
            json,
            refused,
        ))
    }
}

/// Shots a chunk of a batch holds: the batch is checked and then run this many shots at a
/// time, each chunk's outcomes written into the result arrays (and the JSON) and dropped,
/// so memory beyond the arrays is bounded by a chunk whatever `N`.
const CHUNK: usize = crokinole_core::batch::DEFAULT_CHUNK;

/// The result arrays of a batch, filled a chunk at a time.
struct Filled {
    fin: Array3<f64>,
    state: Array2<i8>,
    events: Array1<u64>,
    steps: Array1<u64>,
    time: Array1<f64>,
    cut: Array1<bool>,
}

impl Filled {
    /// Writes the outcome of shot `k`.
    fn set(&mut self, k: usize, o: &Outcome) {
        for (j, d) in o.discs.iter().enumerate() {
            self.fin[[k, j, 0]] = d.pos.x;
            self.fin[[k, j, 1]] = d.pos.y;
            self.state[[k, j]] = state_code(d.state);
        }
        self.events[k] = o.events.len() as u64;
        self.steps[k] = o.steps;
        self.time[k] = o.time;
        self.cut[k] = o.cut_off;
    }
}

/// Checks every shot of `arrays` (a chunk at a time, nothing run), then runs them a chunk
/// at a time on the current rayon pool, filling `out`; returns the outcome file when
/// `outcomes` is asked (written as the chunks come; with `skip_invalid`, of the valid
/// shots only) and each shot's refusal (`None` for a valid shot). Without `skip_invalid`
/// the first refused shot refuses the batch; with it, refused shots are not run and keep
/// their unused rows.
fn run_arrays(
    board: &Board,
    physics: &Physics,
    arrays: &Arrays<'_>,
    out: &mut Filled,
    outcomes: bool,
    skip_invalid: bool,
    cancel: &Cancel,
) -> Result<(Option<String>, Vec<Option<String>>), InputError> {
    use rayon::prelude::*;
    let n = arrays.n;
    let mut refused: Vec<Option<String>> = vec![None; n];
    for first in (0..n).step_by(CHUNK) {
        let checked: Vec<Result<(), InputError>> = (first..(first + CHUNK).min(n))
            .into_par_iter()
            .map(|k| {
                let shot = arrays.shot(k)?;
                shot.world(board, physics)
                    .map(drop)
                    .map_err(|e| e.in_shot(k))
            })
            .collect();
        for (k, c) in checked.into_iter().enumerate() {
            match c {
                Ok(()) => {}
                Err(e) if skip_invalid => refused[first + k] = Some(e.to_string()),
                Err(e) => return Err(e),
            }
        }
    }
    let refused_ref = &refused;
    let mut items = (0..n).step_by(CHUNK).flat_map(|first| {
        // The valid shots of the chunk (every one without `skip_invalid`: checked above).
        let ks: Vec<usize> = (first..(first + CHUNK).min(n))
            .filter(|&k| refused_ref[k].is_none())
            .collect();
        let shots: Result<Vec<Shot>, InputError> = ks.iter().map(|&k| arrays.shot(k)).collect();
        // Once stopped, the rest is skipped: a stopped batch raises KeyboardInterrupt and
        // returns nothing (`interruptible`), so what is filled then does not matter.
        let run: Vec<(usize, Result<Outcome, InputError>)> = match shots {
            Ok(shots) => run_batch_until(board, physics, &shots, cancel)
                .items
                .into_iter()
                .enumerate()
                .map(|(i, r)| (ks[i], r.map_err(|e| e.offset_shot(ks[i] - i))))
                .collect(),
            Err(e) => vec![(first, Err(e))],
        };
        run.into_iter()
    });
    let mut fill = |(k, r): (usize, Result<Outcome, InputError>)| {
        r.map(|o| {
            out.set(k, &o);
            OutcomeItem {
                outcome: o,
                verdict: None,
                trace: None,
            }
        })
    };
    if !outcomes {
        for item in items.by_ref() {
            fill(item)?;
        }
        return Ok((None, refused));
    }
    let mut text = Vec::new();
    match write_outcome_stream(&mut text, items.map(fill), Layout::Compact) {
        Ok(()) => {}
        Err(StreamWriteError::Items(e)) => return Err(e),
        Err(StreamWriteError::Io(e)) => unreachable!("writing to memory cannot fail: {e}"),
    }
    Ok((
        Some(String::from_utf8(text).expect("serde_json writes UTF-8")),
        refused,
    ))
}

/// A batch given as arrays, its shapes checked; [`Arrays::shot`] reads one shot.
struct Arrays<'a> {
    discs: ArrayView3<'a, f64>,
    teams: ArrayView2<'a, i64>,
    counts: ArrayView1<'a, i64>,
    pos: ArrayView2<'a, f64>,
    vel: ArrayView2<'a, f64>,
    spin: ArrayView1<'a, f64>,
    team: ArrayView1<'a, i64>,
    /// Shots, and room for discs at rest in each.
    n: usize,
    m: usize,
}

impl<'a> Arrays<'a> {
    /// The arrays of a batch, their shapes checked against `discs[N, M, 2]`.
    fn of(
        discs: &'a PyReadonlyArray3<'_, f64>,
        teams: &'a PyReadonlyArray2<'_, i64>,
        counts: &'a PyReadonlyArray1<'_, i64>,
        pos: &'a PyReadonlyArray2<'_, f64>,
        vel: &'a PyReadonlyArray2<'_, f64>,
        spin: &'a PyReadonlyArray1<'_, f64>,
        team_arr: &'a PyReadonlyArray1<'_, i64>,
    ) -> PyResult<Arrays<'a>> {
        let a = Arrays {
            discs: discs.as_array(),
            teams: teams.as_array(),
            counts: counts.as_array(),
            pos: pos.as_array(),
            vel: vel.as_array(),
            spin: spin.as_array(),
            team: team_arr.as_array(),
            n: 0,
            m: 0,
        };
        let [n, m, two] = [a.discs.shape()[0], a.discs.shape()[1], a.discs.shape()[2]];
        if two != 2 {
            return Err(shape(
                "discs",
                format!("must have shape [N, M, 2], got {:?}", a.discs.shape()),
            ));
        }
        for (name, got, want) in [
            ("teams", a.teams.shape().to_vec(), vec![n, m]),
            ("counts", a.counts.shape().to_vec(), vec![n]),
            ("pos", a.pos.shape().to_vec(), vec![n, 2]),
            ("vel", a.vel.shape().to_vec(), vec![n, 2]),
            ("spin", a.spin.shape().to_vec(), vec![n]),
            ("team", a.team.shape().to_vec(), vec![n]),
        ] {
            if got != want {
                return Err(shape(
                    name,
                    format!(
                        "must have shape {want:?} to match discs {:?}, got {got:?}",
                        a.discs.shape()
                    ),
                ));
            }
        }
        Ok(Arrays { n, m, ..a })
    }

    /// Shot `k`, its count and teams checked.
    fn shot(&self, k: usize) -> Result<Shot, InputError> {
        let c = self.counts[k];
        if c < 0 || c as usize > self.m {
            return Err(InputError::new(
                "counts",
                format!("must be between 0 and {}, got {c}", self.m),
            )
            .in_shot(k));
        }
        let mut placed = Vec::with_capacity(c as usize);
        for j in 0..c as usize {
            placed.push(Placed {
                team: team(|| format!("discs[{j}].team"), self.teams[[k, j]], k)?,
                pos: DVec2::new(self.discs[[k, j, 0]], self.discs[[k, j, 1]]),
            });
        }
        Ok(Shot {
            discs: placed,
            shooter: crokinole_core::Flick {
                team: team(|| "shooter.team".to_string(), self.team[k], k)?,
                pos: DVec2::new(self.pos[[k, 0]], self.pos[[k, 1]]),
                vel: DVec2::new(self.vel[[k, 0]], self.vel[[k, 1]]),
                spin: self.spin[k],
            },
        })
    }
}
