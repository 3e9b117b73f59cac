//! [`Planner`]: the shot planner of [`crokinole_plan`] as a strategy.

use super::turn::{Decision, NoLegalFlick, Strategy, Turn, check_spin};
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_montecarlo::Noise;

/// Default sample budget of [`Planner`] per decision.
pub const PLANNER_BUDGET: u64 = 2000;
/// Largest sample budget [`Planner`] accepts per decision.
pub const MAX_PLANNER_BUDGET: u64 = 100_000_000;

/// The shot planner ([`crokinole_plan::suggest`]) as a strategy: for each decision it runs
/// the planner's search (coarse sweep, refinement, final evaluation; no grid) with
/// `budget` samples under its noise model, maximising the expected change in score
/// difference, and plays the best flick. With spin `S > 0` the search also tries spins
/// `-S` and `S`. The planner's seed is the decision's seed. No legal flick at all: the
/// turn's fallback.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Planner {
    /// Samples (simulated shots) per decision.
    pub budget: u64,
    /// Spin magnitude tried besides 0, rad/s (0: no spin).
    pub spin: f64,
    /// The error the planner expects of its player.
    pub noise: Noise,
}

impl Default for Planner {
    fn default() -> Planner {
        Planner {
            budget: PLANNER_BUDGET,
            spin: 0.0,
            noise: Noise::NONE,
        }
    }
}

impl Strategy for Planner {
    fn choose(&self, turn: &Turn<'_>) -> Result<Decision, NoLegalFlick> {
        use crokinole_montecarlo::Situation;
        use crokinole_plan::{Budget, Objective, PlanConfig, Request, suggest_until};
        let situation = Situation {
            board: turn.board().clone(),
            physics: turn.physics().clone(),
            players: turn.game().players(),
            seat: turn.seat(),
            discs: turn.position().to_vec(),
            noise: self.noise,
        };
        let mut request = Request::new(situation, turn.game().ruleset());
        let spin = self.spin.min(turn.spin_limit());
        if spin > 0.0 {
            request.space.spin = vec![0.0, -spin, spin];
        }
        let config = PlanConfig {
            objective: Objective::Score,
            budget: Budget::Samples(self.budget),
            seed: turn.seed(),
            top: 1,
            grid: false,
        };
        let plan = suggest_until(&request, &config, turn.cancel());
        match plan.ok().as_ref().and_then(|p| Some((p, p.top.first()?))) {
            Some((plan, best)) if turn.legal(&best.flick).is_some() => Ok(Decision {
                flick: best.flick,
                value: Some(best.value.mean),
                candidates: plan.stages.first().map_or(0, |s| s.candidates as u32),
            }),
            _ => Decision::fallback(turn),
        }
    }

    fn name(&self) -> String {
        format!("planner:budget={}:spin={}", self.budget, self.spin)
    }

    fn check(&self, physics: &Physics) -> Result<(), InputError> {
        let min = crokinole_plan::schedule::MIN_BUDGET;
        if !(min..=MAX_PLANNER_BUDGET).contains(&self.budget) {
            return Err(InputError::new(
                "strategies",
                format!(
                    "`budget` must be between {min} and {MAX_PLANNER_BUDGET}, got {}",
                    self.budget
                ),
            ));
        }
        check_spin(self.spin, physics)
    }
}
