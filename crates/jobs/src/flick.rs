//! Play one flick of a study (its intended flick, without noise): the shot it makes,
//! simulated with a trace and judged by the rules when the study has a rule set, and what
//! it counts for. `crokinole flick` and `POST /api/shot` and `/api/shotfile` are this job.

use super::simulate::{ShotFile, SimulateOptions, Simulated, simulate_until};
use crokinole_core::cancel::Cancel;
use crokinole_core::error::InputError;
use crokinole_io::shot_file_json;
use crokinole_montecarlo::{SampleResult, Study};
use crokinole_rules::ShotEntry;

/// One flick played: its shot, the simulation (one outcome with its trace, and its
/// verdict when the study has a rule set) and its result as a sample counts it.
#[derive(Clone, Debug)]
pub struct Flicked {
    /// The shot as a shot file's entry: the position, the shooter, the seat and players.
    pub entry: ShotEntry,
    /// The shot simulated: `outcomes`, `traces` and (with a rule set) `verdicts` of one.
    pub simulated: Simulated,
    /// The shot disc's class and the change in score difference, as a Monte Carlo sample
    /// of the study counts them.
    pub result: SampleResult,
}

/// Plays `study`'s intended flick, traced every `every` steps: the shot of a shot file
/// with the study's board and physics, simulated as [`super::simulate::simulate`] does (so its outcome
/// file is what `crokinole simulate` prints for that shot file), then assessed.
pub fn flick(study: &Study, every: u32) -> Result<Flicked, InputError> {
    match flick_until(study, every, &Cancel::never())? {
        Some(f) => Ok(f),
        None => unreachable!("Cancel::never was cancelled"),
    }
}

/// [`flick`] stopped by `cancel` while the shot runs: `Ok(None)` if it was.
pub fn flick_until(
    study: &Study,
    every: u32,
    cancel: &Cancel,
) -> Result<Option<Flicked>, InputError> {
    let spec = study.spec();
    let s = &spec.situation;
    let entry = intended_entry(study);
    let file = ShotFile {
        board: s.board.clone(),
        physics: s.physics.clone(),
        entries: vec![entry.clone()],
    };
    let (simulated, stopped) = simulate_until(
        &file,
        SimulateOptions {
            rules: spec.ruleset,
            trace: Some(every),
        },
        cancel,
    )?;
    if stopped.is_some() {
        return Ok(None);
    }
    let result = study.assess(&spec.flick, &simulated.outcomes[0])?;
    Ok(Some(Flicked {
        entry,
        simulated,
        result,
    }))
}

/// The shot of `study`'s intended flick as a shot file's entry: the position, the
/// shooter, the seat and the players.
pub fn intended_entry(study: &Study) -> ShotEntry {
    let s = &study.spec().situation;
    ShotEntry {
        shot: study.intended_shot(),
        seat: Some(s.seat),
        players: s.players,
    }
}

/// The shot file of `study`'s intended flick (every board and physics key written out,
/// `description` first), made without simulating it: `crokinole simulate` on it gives
/// what [`flick`] simulates, bit for bit.
pub fn shot_file_text(study: &Study, description: &str) -> String {
    let s = &study.spec().situation;
    shot_file_json(&s.board, &s.physics, &[intended_entry(study)], description)
}
