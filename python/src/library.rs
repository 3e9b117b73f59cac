//! The library beyond batches, file-shaped: shot files (simulated, judged by the rules,
//! traced), flicks in player terms, Monte Carlo studies, the planner and SVG pictures.
//!
//! Each reads the same JSON as the CLI command of the same name through the library's
//! `io` readers, so inputs are checked, defaulted and refused exactly as the CLI does, and
//! each writes what the command prints (the Python package parses it into dicts). Work runs
//! with the GIL released, on rayon; outputs never depend on the thread count.

use crate::engine::Engine;
use crate::errors::{error, input_error, interruptible, of_kind, on_pool};
use crokinole_core::InputError;
use crokinole_core::trace::trace_shot;
use crokinole_fit::{Coefficient, FitConfig};
use crokinole_io::{FileKind, Layout, parse_plan, parse_summary};
use crokinole_jobs as jobs;
use crokinole_jobs::simulate::{ShotFile, SimulateOptions, simulate_until};
use crokinole_montecarlo::{CHUNK, PlayerFlick, Sampling, ShotClass};
use crokinole_plan::{Budget, Objective, PlanConfig};
use crokinole_render::{CloudView, heatmap_svg, shot_svg, study_cloud_svg};
use crokinole_rules::Ruleset;
use glam::DVec2;
use numpy::ndarray::{Array1, Array2};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Registers this module's functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(simulate_file, m)?)?;
    m.add_function(wrap_pyfunction!(flicks, m)?)?;
    m.add_function(wrap_pyfunction!(study, m)?)?;
    m.add_function(wrap_pyfunction!(study_flicks, m)?)?;
    m.add_function(wrap_pyfunction!(suggest, m)?)?;
    m.add_function(wrap_pyfunction!(fit, m)?)?;
    m.add_function(wrap_pyfunction!(render_shot, m)?)?;
    m.add_function(wrap_pyfunction!(render_summary, m)?)?;
    m.add_function(wrap_pyfunction!(render_plan, m)?)?;
    m.add_function(wrap_pyfunction!(skills_json, m)?)?;
    Ok(())
}

/// The named skill levels as JSON (`crokinole params --skills`, docs/skill.md).
#[pyfunction]
fn skills_json() -> String {
    crokinole_io::skills_json()
}

/// A rule set by name (`traditional` or `tournament`), field `ruleset`.
pub fn ruleset(name: &str) -> PyResult<Ruleset> {
    name.parse::<Ruleset>()
        .map_err(|e| input_error(InputError::new("ruleset", e.to_string())))
}

/// `e` with ` (in `name`)` after its problem when the input came from a named file (as
/// `crokinole render` says it).
fn in_file(e: InputError, name: Option<&str>) -> PyErr {
    match name {
        Some(name) => input_error(InputError {
            problem: format!("{} (in `{name}`)", e.problem),
            ..e
        }),
        None => input_error(e),
    }
}

/// Runs a shot file as `crokinole simulate --compact` does and returns the outcome file it
/// prints: with `rules` (`traditional` / `tournament`) every shot is judged (`simulate
/// --rules`), with `trace` every outcome gains its trace sampled every `trace` steps. The
/// same job as the command line's ([`crokinole_jobs::simulate`]).
#[pyfunction]
#[pyo3(signature = (text, rules=None, trace=None, threads=None))]
fn simulate_file(
    py: Python<'_>,
    text: &str,
    rules: Option<&str>,
    trace: Option<u32>,
    threads: Option<usize>,
) -> PyResult<String> {
    let file = ShotFile::read(text).map_err(input_error)?;
    let rules = rules.map(ruleset).transpose()?;
    if trace == Some(0) {
        return Err(error("field `trace`: must be at least 1, got 0"));
    }
    // Ctrl-C stops the batch within a shot (KeyboardInterrupt; nothing is returned).
    let (simulated, _) = interruptible(py, |stop| {
        on_pool(threads, || {
            simulate_until(&file, SimulateOptions { rules, trace }, stop)
        })
    })??
    .map_err(input_error)?;
    Ok(simulated.text(Layout::Compact))
}

/// Flicks in player terms to the shooter's initial conditions: for seat `seat` and team
/// `team`, each `(offset[k], aim[k], speed[k], spin[k])` (with `target` a point aimed at,
/// or straight ahead) checked as a study's flick is (fields `flicks[k].offset`, ...) and
/// returned as `(pos[N, 2], vel[N, 2], spin[N])`.
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
#[pyfunction]
#[pyo3(signature = (engine, seat, team, offset, aim, speed, spin, target=None))]
fn flicks<'py>(
    py: Python<'py>,
    engine: &Engine,
    seat: u8,
    team: u8,
    offset: PyReadonlyArray1<'py, f64>,
    aim: PyReadonlyArray1<'py, f64>,
    speed: PyReadonlyArray1<'py, f64>,
    spin: PyReadonlyArray1<'py, f64>,
    target: Option<(f64, f64)>,
) -> PyResult<(
    Bound<'py, PyArray2<f64>>,
    Bound<'py, PyArray2<f64>>,
    Bound<'py, PyArray1<f64>>,
)> {
    if seat > 3 {
        return Err(error(format!("field `seat`: must be 0 to 3, got {seat}")));
    }
    if team > 1 {
        return Err(error(format!("field `team`: must be 0 or 1, got {team}")));
    }
    let (offset, aim, speed, spin) = (
        offset.as_array(),
        aim.as_array(),
        speed.as_array(),
        spin.as_array(),
    );
    let n = offset.len();
    if aim.len() != n || speed.len() != n || spin.len() != n {
        return Err(error(format!(
            "field `flicks`: offset, aim, speed and spin must have one length, got {n}, {}, {} and {}",
            aim.len(),
            speed.len(),
            spin.len()
        )));
    }
    let mut pos = Array2::<f64>::zeros((n, 2));
    let mut vel = Array2::<f64>::zeros((n, 2));
    let mut w = Array1::<f64>::zeros(n);
    for k in 0..n {
        let f = PlayerFlick {
            offset: offset[k],
            aim: aim[k],
            target: target.map(|(x, y)| DVec2::new(x, y)),
            speed: speed[k],
            spin: spin[k],
        };
        f.check(&engine.board, seat).map_err(|e| {
            let field = e
                .field
                .strip_prefix("flick.")
                .unwrap_or(&e.field)
                .to_string();
            input_error(InputError::new(format!("flicks[{k}].{field}"), e.problem))
        })?;
        let s = f.to_flick(&engine.board, seat, team);
        pos[[k, 0]] = s.pos.x;
        pos[[k, 1]] = s.pos.y;
        vel[[k, 0]] = s.vel.x;
        vel[[k, 1]] = s.vel.y;
        w[k] = s.spin;
    }
    Ok((
        pos.into_pyarray(py),
        vel.into_pyarray(py),
        w.into_pyarray(py),
    ))
}

/// Per-sample columns of a study.
#[derive(Default)]
struct Columns {
    flick: Vec<[f64; 4]>,
    pos: Vec<[f64; 2]>,
    class: Vec<i8>,
    score_change: Vec<i64>,
    opponent_hits: Vec<u32>,
    opponents_moved: Vec<bool>,
    cut_off: Vec<bool>,
}

/// Runs a study file as `crokinole montecarlo --samples N --seed S` does and returns
/// `(summary_json, columns)`: the summary the command prints, and with `per_sample` a
/// dict of per-sample arrays in sample order (`offset`, `aim`, `speed`, `spin` of the
/// executed flick, `x`, `y` where the shot disc ended, `class` (index into `classes`),
/// `score_change`, `opponent_hits`, `opponents_moved`, `cut_off`).
#[pyfunction]
#[pyo3(signature = (text, samples=10_000, seed=0, threads=None, per_sample=false))]
fn study<'py>(
    py: Python<'py>,
    text: &str,
    samples: u64,
    seed: u64,
    threads: Option<usize>,
    per_sample: bool,
) -> PyResult<(String, Option<Bound<'py, PyDict>>)> {
    let study = jobs::study::read(text).map_err(input_error)?;
    if samples == 0 {
        return Err(error("field `samples`: must be at least 1, got 0"));
    }
    let plan = Sampling::new(seed, samples, None).map_err(input_error)?;
    let shooter = study.spec().situation.discs.len();
    let (tally, cols) = interruptible(py, |stop| {
        on_pool(threads, || {
            let mut cols = Columns::default();
            let tally = study.run_until(
                &plan,
                CHUNK,
                |s| {
                    per_sample.then(|| {
                        let f = s.flick;
                        let p = s.outcome.discs[shooter].pos;
                        (
                            [f.offset, f.aim, f.speed, f.spin],
                            [p.x, p.y],
                            s.result.class,
                            s.result.score_change,
                            s.result.opponent_hits,
                            s.result.opponents_moved,
                            s.result.cut_off,
                        )
                    })
                },
                |row| {
                    if let Some((f, p, class, change, hits, moved, cut)) = row {
                        cols.flick.push(f);
                        cols.pos.push(p);
                        cols.class.push(
                            ShotClass::ALL.iter().position(|&c| c == class).unwrap_or(0) as i8,
                        );
                        cols.score_change.push(change);
                        cols.opponent_hits.push(hits);
                        cols.opponents_moved.push(moved);
                        cols.cut_off.push(cut);
                    }
                    Ok::<(), std::convert::Infallible>(())
                },
                stop,
            );
            (tally, cols)
        })
    })??;
    let tally = match tally {
        Ok(t) => t,
        Err(never) => match never {},
    };
    let summary = tally.summary().map_err(input_error)?;
    let json = jobs::study::summary_text(summary, true, Layout::Readable);
    if !per_sample {
        return Ok((json, None));
    }
    let d = PyDict::new(py);
    let column = |k: usize| cols.flick.iter().map(|f| f[k]).collect::<Vec<f64>>();
    d.set_item("offset", column(0).into_pyarray(py))?;
    d.set_item("aim", column(1).into_pyarray(py))?;
    d.set_item("speed", column(2).into_pyarray(py))?;
    d.set_item("spin", column(3).into_pyarray(py))?;
    d.set_item(
        "x",
        cols.pos
            .iter()
            .map(|p| p[0])
            .collect::<Vec<f64>>()
            .into_pyarray(py),
    )?;
    d.set_item(
        "y",
        cols.pos
            .iter()
            .map(|p| p[1])
            .collect::<Vec<f64>>()
            .into_pyarray(py),
    )?;
    d.set_item("class", cols.class.into_pyarray(py))?;
    d.set_item("score_change", cols.score_change.into_pyarray(py))?;
    d.set_item("opponent_hits", cols.opponent_hits.into_pyarray(py))?;
    d.set_item("opponents_moved", cols.opponents_moved.into_pyarray(py))?;
    d.set_item("cut_off", cols.cut_off.into_pyarray(py))?;
    d.set_item(
        "classes",
        ShotClass::ALL
            .iter()
            .map(|c| c.name())
            .collect::<Vec<&str>>(),
    )?;
    Ok((json, Some(d)))
}

/// The executions a study's player makes of its flick: samples `0..n` with `seed`, as
/// `crokinole montecarlo` draws them, `(offset, aim, speed, spin)` arrays.
#[allow(clippy::type_complexity)]
#[pyfunction]
fn study_flicks<'py>(
    py: Python<'py>,
    text: &str,
    n: u64,
    seed: u64,
) -> PyResult<(
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<f64>>,
)> {
    let study = jobs::study::read(text).map_err(input_error)?;
    let flicks: Vec<PlayerFlick> = (0..n).map(|i| study.sample_flick(seed, i)).collect();
    let col = |f: fn(&PlayerFlick) -> f64| flicks.iter().map(f).collect::<Vec<f64>>();
    Ok((
        col(|f| f.offset).into_pyarray(py),
        col(|f| f.aim).into_pyarray(py),
        col(|f| f.speed).into_pyarray(py),
        col(|f| f.spin).into_pyarray(py),
    ))
}

/// Runs the planner on a suggest file as `crokinole suggest` does and returns the plan it
/// prints. `budget` is a sample count (`"20000"`) or seconds (`"3s"`).
#[pyfunction]
#[pyo3(signature = (text, budget="20000", objective="score", top=5, seed=0, threads=None))]
fn suggest(
    py: Python<'_>,
    text: &str,
    budget: &str,
    objective: &str,
    top: usize,
    seed: u64,
    threads: Option<usize>,
) -> PyResult<String> {
    let request = jobs::plan::read(text).map_err(input_error)?;
    let budget: Budget = budget
        .parse()
        .map_err(|e: String| input_error(InputError::new("budget", e)))?;
    let objective: Objective = objective
        .parse()
        .map_err(|e: String| input_error(InputError::new("objective", e)))?;
    let config = PlanConfig {
        objective,
        budget,
        seed,
        top,
        grid: true,
    };
    // Ctrl-C stops the search between and within its evaluations (KeyboardInterrupt).
    let plan = interruptible(py, |stop| {
        on_pool(threads, || jobs::plan::plan_until(&request, &config, stop))
    })??
    .map_err(input_error)?;
    Ok(jobs::plan::text(&plan, Layout::Readable))
}

/// Fits physics coefficients to a tracks file as `crokinole fit` does (docs/tracks.md):
/// `coefficients` by name (all five if `None`), `holdout` the fraction of shots held out
/// (chosen by `seed`), `max_iterations` the solver's bound. Returns the JSON report
/// (`crokinole fit --json --compact`), the `board` and `physics` blocks (`--physics-out`)
/// and the picture titled `title` (`--svg`). Ctrl-C stops the fit within a simulation
/// (KeyboardInterrupt).
#[allow(clippy::too_many_arguments)]
#[pyfunction]
#[pyo3(signature = (text, coefficients=None, holdout=0.0, seed=0, max_iterations=None, threads=None, title="fit"))]
fn fit(
    py: Python<'_>,
    text: &str,
    coefficients: Option<Vec<String>>,
    holdout: f64,
    seed: u64,
    max_iterations: Option<u32>,
    threads: Option<usize>,
    title: &str,
) -> PyResult<(String, String, String)> {
    let tracks = jobs::fit::read(text).map_err(input_error)?;
    let coefficients = match coefficients {
        None => Coefficient::ALL.to_vec(),
        Some(names) => names
            .iter()
            .enumerate()
            .map(|(k, name)| {
                name.parse::<Coefficient>()
                    .map_err(|e| input_error(InputError::new(format!("coefficients[{k}]"), e)))
            })
            .collect::<PyResult<Vec<_>>>()?,
    };
    let config = FitConfig {
        coefficients,
        holdout,
        seed,
        max_iterations: max_iterations.unwrap_or(crokinole_fit::solve::DEFAULT_MAX_ITERATIONS),
    };
    let fitted = interruptible(py, |stop| {
        on_pool(threads, || jobs::fit::fit_until(&tracks, &config, stop))
    })??
    .map_err(input_error)?
    .ok_or_else(|| error("the fit was stopped"))?;
    let svg = fitted.svg(title).map_err(input_error)?;
    Ok((fitted.json(Layout::Compact), fitted.params(), svg))
}

/// `crokinole render shot`: shot `shot` of a shot file, traced every `every` steps, as SVG.
/// `name` (the file's name, if any) goes into messages and the default title.
#[pyfunction]
#[pyo3(signature = (text, shot=0, title=None, name=None, every=10))]
fn render_shot(
    text: &str,
    shot: usize,
    title: Option<String>,
    name: Option<&str>,
    every: u32,
) -> PyResult<String> {
    let ShotFile {
        board,
        physics,
        entries,
    } = ShotFile::read(text).map_err(|e| in_file(e, name))?;
    let entry = entries.get(shot).ok_or_else(|| {
        error(format!(
            "field `shot`: no shot {shot}: `{}` has {} shots",
            name.unwrap_or("the file"),
            entries.len()
        ))
    })?;
    let trace = trace_shot(&board, &physics, &entry.shot, every.max(1))
        .map_err(|e| in_file(e.in_shot(shot), name))?;
    // The command line's title: the file's name (not its path), then the shot.
    let label = name.map_or_else(
        || "shot file".to_string(),
        |n| {
            std::path::Path::new(n)
                .file_name()
                .map_or_else(|| n.to_string(), |f| f.to_string_lossy().into_owned())
        },
    );
    let title = title.unwrap_or_else(|| format!("{label}, shot {shot}"));
    Ok(shot_svg(&board, &trace, &title))
}

/// `crokinole render montecarlo`: a study summary's cloud and class probabilities as SVG,
/// on the study's board with its position and intended shot when `study` is given.
#[pyfunction]
#[pyo3(signature = (summary, study=None, title=None, zoom=false))]
fn render_summary(
    summary: &str,
    study: Option<&str>,
    title: Option<String>,
    zoom: bool,
) -> PyResult<String> {
    let cloud = parse_summary(summary).map_err(|e| of_kind(e, summary, FileKind::Summary))?;
    let study = study
        .map(|t| jobs::study::read(t).map_err(input_error))
        .transpose()?;
    let title = title.unwrap_or_else(|| "Monte Carlo study".to_string());
    let view = if zoom {
        CloudView::Zoom
    } else {
        CloudView::Board
    };
    study_cloud_svg(&cloud, study.as_ref(), &title, view).map_err(input_error)
}

/// `crokinole render suggest`: a plan's heat map of expected value over aim and speed.
#[pyfunction]
#[pyo3(signature = (plan, title=None))]
fn render_plan(plan: &str, title: Option<String>) -> PyResult<String> {
    let plan = parse_plan(plan).map_err(|e| of_kind(e, plan, FileKind::Plan))?;
    let Some(grid) = &plan.grid else {
        return Err(input_error(InputError::new(
            "grid",
            "missing: this plan has no heat map",
        )));
    };
    Ok(heatmap_svg(
        grid,
        plan.top.first(),
        &title.unwrap_or_else(|| "Planner".to_string()),
    ))
}
