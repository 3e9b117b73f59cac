//! What the planner maximises, and what one noisy execution of a flick counts for.
//!
//! Every sample is judged through the rules layer ([`Setup::judge`], i.e.
//! [`crokinole_rules::apply_rules`]): the shot disc's **fate** after the rules ([`ShotClass`], [`ShotClass::after_rules`]) and
//! the **change in the shooting side's score difference** ([`Setup::change`]). The
//! objectives ([`Objective`]) are functions of these:
//!
//! - `score` (the default): the change in `(own - other)`, zone points after the rules plus
//!   20 per 20 of the shot, minus `(own - other)` before it. An integer, a multiple of 5.
//! - `twenty`: 1 if the shot disc dropped into the 20 hole **and counts** (a 20 that breaks
//!   the must-hit rule is removed and counts 0), else 0. Its mean is P(20).
//! - `fifteen`: 1 if the shot disc rests in the 15 zone after the rules (wholly inside the
//!   15 line, not removed), else 0. Its mean is P(keeps a disc in the 15).
//!
//! Every per-sample value is an integer, so sums are exact (`i64`/`i128`), means are one
//! division and candidates with the same number of samples are compared exactly.

use super::setup::Setup;
use crokinole_montecarlo::ShotClass;
use crokinole_montecarlo::tally::{Proportion, Z95};
use crokinole_rules::ShotVerdict;
use std::fmt;
use std::str::FromStr;

/// What the planner maximises (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Objective {
    /// Expected change in the shooting side's score difference.
    #[default]
    Score,
    /// Probability that the shot disc ends in the 20 hole and counts.
    Twenty,
    /// Probability that the shot disc rests in the 15 zone after the rules.
    Fifteen,
}

impl Objective {
    /// Name on the command line and in JSON: `score`, `twenty`, `fifteen`.
    pub fn name(self) -> &'static str {
        match self {
            Objective::Score => "score",
            Objective::Twenty => "twenty",
            Objective::Fifteen => "fifteen",
        }
    }

    /// Whether the objective is a probability (a mean of 0/1 values).
    pub fn is_probability(self) -> bool {
        self != Objective::Score
    }

    /// The objective's value of one judged sample.
    pub fn value(self, j: &Judged) -> i64 {
        match self {
            Objective::Score => j.change,
            Objective::Twenty => i64::from(j.fate == ShotClass::Twenty),
            Objective::Fifteen => i64::from(j.fate == ShotClass::Fifteen),
        }
    }
}

impl fmt::Display for Objective {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Objective {
    type Err = String;

    /// `score`, `twenty` or `fifteen`.
    fn from_str(s: &str) -> Result<Objective, String> {
        match s {
            "score" => Ok(Objective::Score),
            "twenty" => Ok(Objective::Twenty),
            "fifteen" => Ok(Objective::Fifteen),
            _ => Err(format!(
                "unknown objective `{s}`: expected `score`, `twenty` or `fifteen`"
            )),
        }
    }
}

/// One noisy execution of a flick, judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judged {
    /// Change in the shooting side's score difference ([`Setup::change`]).
    pub change: i64,
    /// The shot disc's fate after the rules.
    pub fate: ShotClass,
    /// Whether the shot hit an opponent disc (the must-hit rule's test).
    pub hit_opponent: bool,
}

impl Judged {
    /// A verdict of a shot from `setup`, judged.
    pub fn of(setup: &Setup, verdict: &ShotVerdict) -> Judged {
        Judged {
            change: setup.change(verdict),
            fate: ShotClass::after_rules(verdict),
            hit_opponent: verdict.hit_opponent,
        }
    }
}

/// Exact running sums over the samples of one candidate, folded serially in sample order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Samples.
    pub n: u64,
    /// Sum of the objective's values.
    pub sum: i64,
    /// Sum of their squares.
    pub sum_sq: i128,
    /// Sum of the score changes.
    pub change_sum: i64,
    /// Sum of their squares.
    pub change_sum_sq: i128,
    /// Samples per fate, in [`ShotClass::ALL`] order.
    pub fates: [u64; 7],
    /// Samples that hit an opponent disc.
    pub hits: u64,
}

impl Stats {
    /// What candidates with the same samples are ranked by: the objective's sum, then the
    /// sum of the score changes. For `score` the two are the same, so the order is the
    /// objective's alone. For a probability (`twenty`, `fifteen`) most flicks of a hard
    /// position score 0 (a 20 past an opponent's disc is rare): ranked by the sum alone,
    /// every such flick tied and the search kept the first ones, so the sweep's and the
    /// refinement's parents were arbitrary and the plan's best flick had P(20) = 0 on most
    /// seeds. Among equal probabilities the flick that does more for the score (a takeout
    /// that stays near the centre) ranks first, and the search climbs from there.
    pub fn rank_key(&self) -> (i64, i64) {
        (self.sum, self.change_sum)
    }
}

/// A mean with its 95 % confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The sample mean.
    pub mean: f64,
    /// Sample standard deviation (divisor `n - 1`; 0 for one sample).
    pub std: f64,
    /// 95 % interval: Wilson's for a probability, `mean -+ z s / sqrt(n)` otherwise.
    pub ci95: [f64; 2],
}

impl Stats {
    /// Adds one sample.
    pub fn add(&mut self, objective: Objective, j: &Judged) {
        let v = objective.value(j);
        self.n += 1;
        self.sum += v;
        self.sum_sq += i128::from(v) * i128::from(v);
        self.change_sum += j.change;
        self.change_sum_sq += i128::from(j.change) * i128::from(j.change);
        self.fates[j.fate as usize] += 1;
        self.hits += u64::from(j.hit_opponent);
    }

    /// Adds the samples of `other` (exact: every sum is an integer), as if they had been
    /// added one by one: the statistics of a candidate over several evaluations.
    pub fn merge(&mut self, other: &Stats) {
        self.n += other.n;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
        self.change_sum += other.change_sum;
        self.change_sum_sq += other.change_sum_sq;
        for (a, b) in self.fates.iter_mut().zip(other.fates) {
            *a += b;
        }
        self.hits += other.hits;
    }

    /// The objective's mean and interval: Wilson's score interval for the probability
    /// objectives, the normal interval `mean -+ 1.96 s / sqrt(n)` for the score.
    pub fn value(&self, objective: Objective) -> Estimate {
        if objective.is_probability() {
            let p = Proportion::new(self.sum.max(0) as u64, self.n.max(1));
            Estimate {
                mean: p.p,
                std: std_of(self.n, i128::from(self.sum), self.sum_sq),
                ci95: p.ci95,
            }
        } else {
            self.change()
        }
    }

    /// The score change's mean and normal interval.
    pub fn change(&self) -> Estimate {
        let n = self.n.max(1);
        let mean = self.change_sum as f64 / n as f64;
        let std = std_of(self.n, i128::from(self.change_sum), self.change_sum_sq);
        let half = Z95 * std / (n as f64).sqrt();
        Estimate {
            mean,
            std,
            ci95: [mean - half, mean + half],
        }
    }

    /// The fate probabilities with Wilson intervals, in [`ShotClass::ALL`] order.
    pub fn fates(&self) -> [Proportion; 7] {
        self.fates.map(|c| Proportion::new(c, self.n.max(1)))
    }

    /// The probability of hitting an opponent disc, with its Wilson interval.
    pub fn hit_opponent(&self) -> Proportion {
        Proportion::new(self.hits, self.n.max(1))
    }
}

/// Sample standard deviation from exact sums: `var = (n S2 - S1^2) / (n (n - 1))`, the
/// numerator an exact integer (so never negative), one rounding to `f64`.
fn std_of(n: u64, s1: i128, s2: i128) -> f64 {
    if n < 2 {
        return 0.0;
    }
    let n = i128::from(n);
    let num = n * s2 - s1 * s1;
    (num as f64 / (n * (n - 1)) as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objectives_parse_and_name_themselves() {
        for o in [Objective::Score, Objective::Twenty, Objective::Fifteen] {
            assert_eq!(o.name().parse::<Objective>(), Ok(o));
        }
        assert!("20".parse::<Objective>().is_err());
    }

    #[test]
    fn sums_give_exact_means_and_intervals() {
        let mut s = Stats::default();
        for (change, fate) in [
            (20, ShotClass::Twenty),
            (15, ShotClass::Fifteen),
            (20, ShotClass::Twenty),
        ] {
            let j = Judged {
                change,
                fate,
                hit_opponent: false,
            };
            s.add(Objective::Twenty, &j);
        }
        assert_eq!((s.n, s.sum, s.fates[0], s.fates[1]), (3, 2, 2, 1));
        let c = s.change();
        assert!((c.mean - 55.0 / 3.0).abs() < 1e-12);
        // Sample variance of (20, 15, 20): 25/3.
        assert!((c.std - (25.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert!(c.ci95[0] < c.mean && c.mean < c.ci95[1]);
        let v = s.value(Objective::Twenty);
        assert!((v.mean - 2.0 / 3.0).abs() < 1e-15);
        assert!(v.ci95[0] > 0.0 && v.ci95[1] < 1.0);
        // Merging the statistics of two evaluations is adding their samples one by one.
        let (mut a, mut b) = (Stats::default(), Stats::default());
        for (k, (change, fate)) in [
            (20, ShotClass::Twenty),
            (15, ShotClass::Fifteen),
            (20, ShotClass::Twenty),
        ]
        .into_iter()
        .enumerate()
        {
            let j = Judged {
                change,
                fate,
                hit_opponent: k == 1,
            };
            if k == 0 {
                a.add(Objective::Twenty, &j)
            } else {
                b.add(Objective::Twenty, &j)
            }
        }
        a.merge(&b);
        assert_eq!(
            (a.n, a.sum, a.sum_sq, a.change_sum, a.change_sum_sq),
            (3, 2, 2, 55, 1025)
        );
        assert_eq!((a.fates, a.hits), (s.fates, 1));
    }
}
