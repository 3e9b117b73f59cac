//! The open 20 of the skill levels' definition ([`skill`](super::skill), docs/skill.md):
//! the straight 20 from the middle of seat 0's line on an empty two-player tournament
//! board with the default physics, and the share of its executions under a noise that go
//! in.

use super::flick::PlayerFlick;
use super::noise::Noise;
use super::situation::Situation;
use super::study::{Sampling, Study, StudySpec};
use super::tally::Proportion;
use crokinole_core::error::InputError;

/// The straight open 20 at `speed`: offset 0, aim 0, spin 0.
pub fn open20_flick(speed: f64) -> PlayerFlick {
    PlayerFlick {
        offset: 0.0,
        aim: 0.0,
        target: None,
        speed,
        spin: 0.0,
    }
}

/// The study of the straight open 20 at `speed` under `noise`: seat 0 of an empty
/// two-player tournament board, default physics, no rule set.
pub fn open20_study(noise: Noise, speed: f64) -> Result<Study, InputError> {
    Study::new(StudySpec {
        situation: Situation {
            noise,
            ..Situation::at_seat(0)
        },
        flick: open20_flick(speed),
        ruleset: None,
    })
}

/// The share of `samples` straight open 20s at `speed` under `noise` (seed `seed`) that
/// go in, with its 95 % interval; runs on the current rayon pool and does not depend on
/// its size.
pub fn open20_rate(
    noise: Noise,
    speed: f64,
    seed: u64,
    samples: u64,
) -> Result<Proportion, InputError> {
    let study = open20_study(noise, speed)?;
    let tally = study.tally(&Sampling::new(seed, samples, None)?);
    Ok(tally.summary()?.shooter.twenty)
}
