//! Work split into shards that run anywhere (another process, another machine) and merge
//! exactly: a study's shard state and its merge (as `crokinole montecarlo --shard K/N` and
//! `crokinole merge`), and a run of games split into ranges of game indices whose integer
//! tallies add up to the run's. The Python package's `crokinole.distributed` sends these
//! to Dask workers; the merged results are byte for byte those of one process.

use crate::errors::{error, input_error, interruptible, on_pool};
use crate::games::play_config;
use crokinole_io::{Layout, games_summary_json, parse_state_study, state_json};
use crokinole_jobs as jobs;
use crokinole_montecarlo::study::Shard;
use crokinole_montecarlo::{CHUNK, Sampling};
use crokinole_play::{GameStats, PlayError, SummaryTally, TALLY_INTS};
use pyo3::prelude::*;
use pyo3::types::PyList;

/// Registers this module's functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(study_shard, m)?)?;
    m.add_function(wrap_pyfunction!(merge_study, m)?)?;
    m.add_function(wrap_pyfunction!(play_shard, m)?)?;
    m.add_function(wrap_pyfunction!(games_summary, m)?)?;
    Ok(())
}

/// Shard `index` of `count` (1-based) of a study of `samples` samples with `seed`: the
/// state `crokinole montecarlo --shard INDEX/COUNT` prints (compact JSON), for
/// [`merge_study`].
#[pyfunction]
#[pyo3(signature = (text, samples, seed, index, count, threads=None))]
fn study_shard(
    py: Python<'_>,
    text: &str,
    samples: u64,
    seed: u64,
    index: u64,
    count: u64,
    threads: Option<usize>,
) -> PyResult<String> {
    let study = jobs::study::read(text).map_err(input_error)?;
    let plan = Sampling::new(seed, samples, Some(Shard { index, count })).map_err(input_error)?;
    let tally = interruptible(py, |stop| {
        on_pool(threads, || {
            study.run_until(
                &plan,
                CHUNK,
                |_| (),
                |_| Ok::<(), std::convert::Infallible>(()),
                stop,
            )
        })
    })??;
    let tally = match tally {
        Ok(t) => t,
        Err(never) => match never {},
    };
    Ok(state_json(&tally, study.spec()))
}

/// The summary of a study from its shard states (every shard exactly once, in any order),
/// as `crokinole merge` makes it after re-simulating `verify` samples of each (chosen
/// from `verify_seed`): the text `crokinole.study` returns for the whole study.
#[pyfunction]
#[pyo3(signature = (states, verify=8, verify_seed=0))]
fn merge_study(
    py: Python<'_>,
    states: Vec<String>,
    verify: u64,
    verify_seed: u64,
) -> PyResult<String> {
    let mut parts = Vec::with_capacity(states.len());
    for (k, text) in states.iter().enumerate() {
        let (tally, study) = parse_state_study(text).map_err(|e| {
            input_error(crokinole_core::InputError::new(
                e.field,
                format!("{} (shard state {k})", e.problem),
            ))
        })?;
        parts.push((format!("state {k}"), tally, study));
    }
    let whole = py
        .detach(|| on_pool(None, || jobs::merge::merge(parts, verify, verify_seed)))?
        .map_err(input_error)?;
    let summary = whole.summary().map_err(input_error)?;
    Ok(jobs::study::summary_text(summary, true, Layout::Readable))
}

/// A run's tally as integers ([`SummaryTally::to_ints`]: games, wins, draws, rounds,
/// shots, 20s, totals, points, the hammer, the histogram of 20s and the moments of the
/// intervals). Tallies of disjoint ranges add up, integer by integer, to the tally of
/// their union.
type TallyInts = [u64; TALLY_INTS];

fn to_ints(t: &SummaryTally) -> TallyInts {
    t.to_ints()
}

fn from_ints(v: TallyInts) -> SummaryTally {
    SummaryTally::from_ints(&v)
}

/// Plays games `first..last` of the run `play` describes (the same arguments) and returns
/// their tally ([`TallyInts`]): games are played in parallel and added in game order.
#[allow(clippy::too_many_arguments)]
#[pyfunction]
#[pyo3(signature = (strategies, players, ruleset_name, noise_spec, seed, first, last, max_rounds, threads=None))]
fn play_shard(
    py: Python<'_>,
    strategies: &Bound<'_, PyList>,
    players: u8,
    ruleset_name: &str,
    noise_spec: &str,
    seed: u64,
    first: u64,
    last: u64,
    max_rounds: u32,
    threads: Option<usize>,
) -> PyResult<TallyInts> {
    use rayon::prelude::*;
    if first >= last || last - first > crokinole_play::summary::MAX_GAMES {
        return Err(error(format!(
            "field `games`: a shard plays 1 to {} games, got {first}..{last}",
            crokinole_play::summary::MAX_GAMES
        )));
    }
    let (config, python) = play_config(
        strategies,
        players,
        ruleset_name,
        noise_spec,
        seed,
        max_rounds,
        false,
    )?;
    let played = interruptible(py, |stop| {
        on_pool(threads, || {
            (first..last)
                .into_par_iter()
                .map(|g| config.play_until(g, stop).map(|log| GameStats::of(&log)))
                .collect::<Vec<Result<GameStats, PlayError>>>()
        })
    })??;
    if let Some(e) = python.iter().find_map(|p| p.take_error()) {
        return Err(e);
    }
    let mut tally = SummaryTally::default();
    for g in played {
        tally.add(&g.map_err(|e| error(e.to_string()))?);
    }
    Ok(to_ints(&tally))
}

/// The summary `play` prints for a run whose games' tallies add up to `tally`
/// ([`TallyInts`], from [`play_shard`]).
#[allow(clippy::too_many_arguments)]
#[pyfunction]
#[pyo3(signature = (strategies, players, ruleset_name, noise_spec, seed, max_rounds, tally))]
fn games_summary(
    strategies: &Bound<'_, PyList>,
    players: u8,
    ruleset_name: &str,
    noise_spec: &str,
    seed: u64,
    max_rounds: u32,
    tally: TallyInts,
) -> PyResult<String> {
    let (config, _) = play_config(
        strategies,
        players,
        ruleset_name,
        noise_spec,
        seed,
        max_rounds,
        false,
    )?;
    if tally[0] == 0 {
        return Err(error("field `tally`: no games"));
    }
    Ok(games_summary_json(&from_ints(tally).summary(&config)))
}
