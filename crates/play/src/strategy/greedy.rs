//! [`Greedy`]: the best of `k` candidates by their immediate change in score difference.

use super::candidates::candidates;
use super::turn::{Decision, NoLegalFlick, Strategy, Turn, best, check_count, check_spin};
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_core::shot::Flick;

/// Default candidates of [`Greedy`].
pub const GREEDY_K: u32 = 16;

/// The best of `k` candidates by their immediate change in score difference, each run
/// once without error through the batch API ([`Turn::evaluate`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Greedy {
    /// Candidates tried.
    pub k: u32,
    /// Largest `|spin|` of a candidate, rad/s (0: no spin).
    pub spin: f64,
}

impl Default for Greedy {
    fn default() -> Greedy {
        Greedy {
            k: GREEDY_K,
            spin: 0.0,
        }
    }
}

impl Strategy for Greedy {
    fn choose(&self, turn: &Turn<'_>) -> Result<Decision, NoLegalFlick> {
        let cands = candidates(turn, self.k, self.spin);
        let flicks: Vec<Flick> = cands.iter().map(|c| c.2).collect();
        let values = turn.evaluate(&flicks);
        match best(&values) {
            Some(i) => Ok(Decision {
                flick: cands[i].1,
                value: values[i].map(|v| v as f64),
                candidates: cands.len() as u32,
            }),
            None => Decision::fallback(turn),
        }
    }

    fn name(&self) -> String {
        format!("greedy:k={}:spin={}", self.k, self.spin)
    }

    fn check(&self, physics: &Physics) -> Result<(), InputError> {
        check_count("k", self.k)?;
        check_spin(self.spin, physics)
    }
}
