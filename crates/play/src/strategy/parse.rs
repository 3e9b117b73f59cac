//! [`AnyStrategy`]: the built-in strategies as parsed from the command line.

use super::greedy::{GREEDY_K, Greedy};
use super::montecarlo::{MONTECARLO_K, MONTECARLO_M, MonteCarlo, check_samples};
use super::planner::{MAX_PLANNER_BUDGET, PLANNER_BUDGET, Planner};
use super::random::RandomFlick;
use super::turn::{Decision, MAX_CANDIDATES, NoLegalFlick, Strategy, Turn};
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_montecarlo::Noise;
use std::fmt;
use std::str::FromStr;

/// One of the built-in strategies, as parsed from the command line:
/// `random[:spin=S]`, `greedy[:k=K][:spin=S]`, `montecarlo[:k=K][:m=M][:spin=S]` (also
/// `mc`), `planner[:budget=N][:spin=S]`. Missing keys take the defaults ([`GREEDY_K`],
/// [`MONTECARLO_K`] x [`MONTECARLO_M`], [`PLANNER_BUDGET`], spin 0). The Monte Carlo
/// strategy's `k` times `m` is bounded by
/// [`MAX_MONTECARLO_SAMPLES`](super::MAX_MONTECARLO_SAMPLES), refused before any work. The Monte Carlo
/// strategy's and the planner's noise is not part of the text: [`AnyStrategy::parse`]
/// takes it (the CLI gives it the players' `--noise`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AnyStrategy {
    /// [`RandomFlick`].
    Random(RandomFlick),
    /// [`Greedy`].
    Greedy(Greedy),
    /// [`MonteCarlo`].
    MonteCarlo(MonteCarlo),
    /// [`Planner`].
    Planner(Planner),
}

impl AnyStrategy {
    /// Parses one strategy; `noise` is the Monte Carlo strategy's and the planner's noise
    /// model.
    pub fn parse(text: &str, noise: Noise) -> Result<AnyStrategy, String> {
        let mut parts = text.trim().split(':');
        let name = parts.next().unwrap_or_default();
        let mut k = None;
        let mut m = None;
        let mut budget = None;
        let mut spin = 0.0;
        let allowed: &[&str] = match name {
            "random" => &["spin"],
            "greedy" => &["k", "spin"],
            "montecarlo" | "mc" => &["k", "m", "spin"],
            "planner" => &["budget", "spin"],
            _ => {
                return Err(format!(
                    "unknown strategy `{name}`: expected `random`, `greedy`, `montecarlo` or \
                     `planner`"
                ));
            }
        };
        for part in parts {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("`{part}` in `{text}`: expected KEY=VALUE"))?;
            if !allowed.contains(&key) {
                return Err(format!(
                    "unknown key `{key}` for `{name}`: expected one of {}",
                    allowed.join(", ")
                ));
            }
            let count = || {
                value
                    .parse::<u32>()
                    .ok()
                    .filter(|n| (1..=MAX_CANDIDATES).contains(n))
                    .ok_or_else(|| {
                        format!(
                            "`{key}={value}`: expected a whole number from 1 to {MAX_CANDIDATES}"
                        )
                    })
            };
            match key {
                "k" => k = Some(count()?),
                "m" => m = Some(count()?),
                "budget" => {
                    let min = crokinole_plan::schedule::MIN_BUDGET;
                    budget = Some(
                        value
                            .parse::<u64>()
                            .ok()
                            .filter(|n| (min..=MAX_PLANNER_BUDGET).contains(n))
                            .ok_or_else(|| {
                                format!(
                                    "`budget={value}`: expected a whole number of samples from \
                                     {min} to {MAX_PLANNER_BUDGET}"
                                )
                            })?,
                    );
                }
                _ => {
                    spin = value
                        .parse::<f64>()
                        .ok()
                        .filter(|s| s.is_finite() && *s >= 0.0)
                        .ok_or_else(|| {
                            format!("`spin={value}`: expected a number of rad/s, at least 0")
                        })?;
                }
            }
        }
        Ok(match name {
            "random" => AnyStrategy::Random(RandomFlick { spin }),
            "greedy" => AnyStrategy::Greedy(Greedy {
                k: k.unwrap_or(GREEDY_K),
                spin,
            }),
            "planner" => AnyStrategy::Planner(Planner {
                budget: budget.unwrap_or(PLANNER_BUDGET),
                spin,
                noise,
            }),
            _ => {
                let (k, m) = (k.unwrap_or(MONTECARLO_K), m.unwrap_or(MONTECARLO_M));
                check_samples(k, m)?;
                AnyStrategy::MonteCarlo(MonteCarlo { k, m, spin, noise })
            }
        })
    }

    /// The strategy as a trait object.
    pub fn as_strategy(&self) -> &dyn Strategy {
        match self {
            AnyStrategy::Random(s) => s,
            AnyStrategy::Greedy(s) => s,
            AnyStrategy::MonteCarlo(s) => s,
            AnyStrategy::Planner(s) => s,
        }
    }
}

impl Strategy for AnyStrategy {
    fn choose(&self, turn: &Turn<'_>) -> Result<Decision, NoLegalFlick> {
        self.as_strategy().choose(turn)
    }

    fn name(&self) -> String {
        self.as_strategy().name()
    }

    fn check(&self, physics: &Physics) -> Result<(), InputError> {
        self.as_strategy().check(physics)
    }
}

impl FromStr for AnyStrategy {
    type Err = String;

    /// [`AnyStrategy::parse`] with no noise for the Monte Carlo strategy.
    fn from_str(s: &str) -> Result<AnyStrategy, String> {
        AnyStrategy::parse(s, Noise::NONE)
    }
}

impl fmt::Display for AnyStrategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}
