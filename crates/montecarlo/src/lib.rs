//! Monte Carlo studies: one shot played many times with a player's error, summarised.
//!
//! A study ([`Study`]) is a position (discs at rest), the shooter's seat, a flick described
//! the way a player makes it ([`PlayerFlick`]: where on the shooting line, which way, how
//! fast, how much spin) and a noise model ([`Noise`]: a Gaussian spread per parameter).
//! Sample `i` of a study with seed `s` draws its own flick from Philox streams keyed by
//! `s` and numbered `i`, so it depends on `(s, i)` only: never on the thread count, the
//! chunking or the other samples. Samples run in parallel on rayon in fixed-size chunks,
//! in order ([`crokinole_core::batch::map_ordered`]); the statistics are folded serially into a
//! [`Tally`] of integer counts and histograms, which shards of a study merge exactly
//! ([`Tally::merge`]), and the [`StudySummary`] is rendered from the tally alone.
//!
//! Bit-identical on every machine: the flick-to-initial-conditions conversion and the
//! sampler use only `+ - * /`, `sqrt` and the functions of [`detmath`] (no platform `sin`,
//! `cos`, `ln`). The file formats are in `docs/montecarlo.md`.
//!
//! - [`detmath`]: deterministic `sin`, `cos`, `ln`.
//! - [`flick`]: seats, quadrants, teams; [`PlayerFlick`] to initial conditions.
//! - [`noise`]: [`Noise`], the per-sample random streams, truncated Gaussians.
//! - [`philox`]: the counter-based generator (Philox4x64-10) of the draws.
//! - [`open20`]: the open 20 of the skill levels' definition and its rate under a noise.
//! - [`sampler`]: [`FlickSampler`], a player's executions of an intended flick.
//! - [`score`]: the shot disc's outcome class, the change in board score, hits.
//! - [`skill`]: [`SkillLevel`], the named levels of a player's error calibrated to real
//!   players' open-20 rates (docs/skill.md).
//! - [`situation`]: [`Situation`], a seat about to shoot as given (board, physics, table,
//!   discs, noise).
//! - [`study`]: [`StudySpec`], [`Study`], [`Sampling`], [`Shard`], [`Sample`]; running a study.
//! - [`tally`]: [`Tally`] (the mergeable state) and [`StudySummary`] (the statistics).
//!
//! The study file, the summary, the shard state and the sample lines as JSON are read and
//! written by `crokinole_io` (`io/study_file.rs`).

pub mod detmath;
pub mod flick;
pub mod noise;
pub mod open20;
pub mod philox;
pub mod sampler;
pub mod score;
pub mod situation;
pub mod skill;
pub mod study;
pub mod tally;

pub use flick::PlayerFlick;
pub use noise::Noise;
pub use sampler::FlickSampler;
pub use score::{SampleResult, ShotClass};
pub use situation::Situation;
pub use skill::SkillLevel;
pub use study::{CHUNK, Sample, Sampling, Shard, Study, StudySpec};
pub use tally::{POSITIONS_CAP, Stopped, StudySummary, Tally};
