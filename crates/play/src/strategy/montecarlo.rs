//! [`MonteCarlo`]: the best of `k` candidates by their mean change over `m` noisy
//! executions.

use super::candidates::candidates;
use super::turn::{Decision, NoLegalFlick, Strategy, Turn, best, check_count, check_spin};
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_montecarlo::Noise;
use crokinole_montecarlo::noise::mix;

/// Default candidates of [`MonteCarlo`].
pub const MONTECARLO_K: u32 = 8;
/// Default noisy samples per candidate of [`MonteCarlo`].
pub const MONTECARLO_M: u32 = 8;

/// The most samples [`MonteCarlo`] may play for one decision, `k` times `m`: every sample
/// is a shot built, simulated and judged in one batch, whose memory grows with it (a shot
/// and its outcome on a crowded board take a few kilobytes). 65,536, the largest `k` or
/// `m` alone, so that each key's own bound still holds alone; `k=256:m=256` is at the
/// bound. A larger product is refused before any work, naming this bound.
pub const MAX_MONTECARLO_SAMPLES: u64 = 65_536;

/// The refusal of a product `k m` over [`MAX_MONTECARLO_SAMPLES`], if it is.
pub(crate) fn check_samples(k: u32, m: u32) -> Result<(), String> {
    let samples = u64::from(k) * u64::from(m);
    if samples <= MAX_MONTECARLO_SAMPLES {
        Ok(())
    } else {
        Err(format!(
            "`montecarlo:k={k}:m={m}` plays {samples} samples a decision (k x m), more than \
             the bound of {MAX_MONTECARLO_SAMPLES}: lower k or m"
        ))
    }
}

/// Tag mixed into a turn's seed for the Monte Carlo strategy's noise draws.
const MONTECARLO_TAG: u64 = 0x6d63;

/// The best of `k` candidates by the mean change in score difference over `m` executions
/// with the player's error `noise`. Sample `j` of every candidate is
/// [`FlickSampler::sample`](crokinole_montecarlo::FlickSampler::sample)`(mix(seed, tag), j)` of that candidate: the same
/// random numbers for every candidate (common random numbers, so candidates are compared
/// under the same errors). A sample the engine would refuse plays the intended flick, as
/// in a study. The `k m` shots run in one batch; sums are exact integers, so the mean
/// compared is exact; ties go to the lowest candidate index.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MonteCarlo {
    /// Candidates tried.
    pub k: u32,
    /// Noisy executions per candidate.
    pub m: u32,
    /// Largest `|spin|` of a candidate, rad/s (0: no spin).
    pub spin: f64,
    /// The error the strategy expects of its player.
    pub noise: Noise,
}

impl Default for MonteCarlo {
    fn default() -> MonteCarlo {
        MonteCarlo {
            k: MONTECARLO_K,
            m: MONTECARLO_M,
            spin: 0.0,
            noise: Noise::NONE,
        }
    }
}

impl Strategy for MonteCarlo {
    fn choose(&self, turn: &Turn<'_>) -> Result<Decision, NoLegalFlick> {
        let seed = mix(turn.seed(), MONTECARLO_TAG);
        let mut kept = Vec::new();
        let mut flicks = Vec::new();
        for (_, intended, flick) in candidates(turn, self.k, self.spin) {
            let Ok(sampler) = turn.setup().sampler(intended, self.noise) else {
                continue;
            };
            kept.push(intended);
            for j in 0..self.m {
                let noisy = sampler.sample(seed, u64::from(j));
                flicks.push(turn.legal(&noisy).unwrap_or(flick));
            }
        }
        let values = turn.evaluate(&flicks);
        let m = self.m as usize;
        let sums: Vec<Option<i64>> = values
            .chunks(m.max(1))
            .map(|chunk| chunk.iter().copied().sum::<Option<i64>>())
            .collect();
        match best(&sums) {
            Some(i) => Ok(Decision {
                flick: kept[i],
                value: sums[i].map(|s| s as f64 / f64::from(self.m)),
                candidates: kept.len() as u32,
            }),
            None => Decision::fallback(turn),
        }
    }

    fn name(&self) -> String {
        format!("montecarlo:k={}:m={}:spin={}", self.k, self.m, self.spin)
    }

    fn check(&self, physics: &Physics) -> Result<(), InputError> {
        check_count("k", self.k)?;
        check_count("m", self.m)?;
        check_samples(self.k, self.m).map_err(|e| InputError::new("strategies", e))?;
        check_spin(self.spin, physics)
    }
}
