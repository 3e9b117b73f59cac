//! How a search is configured: its budget (samples or seconds, with the bounds and the
//! text form `20000` / `3s` of the command line and the files) and [`PlanConfig`] (the
//! objective, the budget, the seed, the flicks to report, the grid).

use super::objective::Objective;
use super::schedule;
use crokinole_core::error::InputError;
use std::fmt;
use std::str::FromStr;

/// Default sample budget.
pub const DEFAULT_BUDGET: u64 = 20_000;
/// Default number of flicks reported.
pub const DEFAULT_TOP: usize = 5;
/// Largest number of flicks reported.
pub const MAX_TOP: usize = 50;
/// Longest time budget accepted, s.
pub const MAX_SECONDS: f64 = 3600.0;
/// Largest sample budget: about as many samples as an hour simulates on a few cores.
pub const MAX_BUDGET: u64 = 1_000_000_000;

/// How much the search may spend.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Simulated shots in all (deterministic).
    Samples(u64),
    /// Seconds of wall time, turned into samples by a pilot run (not reproducible).
    Seconds(f64),
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::Samples(DEFAULT_BUDGET)
    }
}

impl Budget {
    /// Checks the budget (field `budget`): at least [`schedule::MIN_BUDGET`] samples, or a
    /// finite positive number of seconds up to [`MAX_SECONDS`].
    pub fn check(&self) -> Result<(), InputError> {
        match *self {
            Budget::Samples(n) if n < schedule::MIN_BUDGET => Err(InputError::new(
                "budget",
                format!("must be at least {} samples, got {n}", schedule::MIN_BUDGET),
            )),
            Budget::Samples(n) if n > MAX_BUDGET => Err(InputError::new(
                "budget",
                format!("must be at most {MAX_BUDGET:e} samples, got {n}"),
            )),
            Budget::Seconds(t) if !(t > 0.0 && t <= MAX_SECONDS) => Err(InputError::new(
                "budget",
                format!("seconds must be more than 0 and at most {MAX_SECONDS}, got {t}"),
            )),
            _ => Ok(()),
        }
    }
}

impl FromStr for Budget {
    type Err = String;

    /// `N` (samples, a whole number) or `Ts` (seconds, e.g. `3s`, `0.5s`), checked.
    fn from_str(s: &str) -> Result<Budget, String> {
        let s = s.trim();
        let budget = if let Some(t) = s.strip_suffix('s') {
            let t: f64 = t
                .trim()
                .parse()
                .map_err(|_| format!("`{s}`: expected samples (20000) or seconds (3s)"))?;
            Budget::Seconds(t)
        } else {
            Budget::Samples(
                s.parse()
                    .map_err(|_| format!("`{s}`: expected samples (20000) or seconds (3s)"))?,
            )
        };
        budget.check().map_err(|e| e.problem)?;
        Ok(budget)
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Samples(n) => write!(f, "{n}"),
            Budget::Seconds(t) => write!(f, "{t}s"),
        }
    }
}

/// How to search: what to maximise, how much to spend, the seed, how many flicks to
/// report, whether to keep the grid.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlanConfig {
    /// The objective.
    pub objective: Objective,
    /// The budget.
    pub budget: Budget,
    /// Seed of the players' errors drawn by the search.
    pub seed: u64,
    /// Flicks to report (the final evaluation's size), 1 to [`MAX_TOP`].
    pub top: usize,
    /// Whether to sweep the grid of straight-ahead flicks (the heat map). The strategy of
    /// `crokinole play` leaves it out.
    pub grid: bool,
}

impl Default for PlanConfig {
    fn default() -> PlanConfig {
        PlanConfig {
            objective: Objective::Score,
            budget: Budget::default(),
            seed: 0,
            top: DEFAULT_TOP,
            grid: true,
        }
    }
}
