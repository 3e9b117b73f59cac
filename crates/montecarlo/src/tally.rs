//! The state of a study that shards merge exactly ([`Tally`]), and the statistics rendered
//! from it ([`StudySummary`]).
//!
//! A tally holds integers only: counts per outcome class, exact histograms of the score
//! change (an integer, a multiple of 5) and of the opponent hits, and the shot disc's final
//! position for the first [`POSITIONS_CAP`] samples of the study in sample order. Samples
//! are added one by one in sample order (a serial fold, never a parallel reduction), and
//! tallies of adjacent sample ranges merge by adding counts and concatenating positions,
//! so a merged tally equals the tally of one run bit for bit. The summary is a function of
//! the tally alone: means and standard deviations come from exact integer sums with one
//! rounding at the end, quantiles from the histogram, confidence intervals from the counts.

use super::score::{SampleResult, ShotClass};
use crokinole_core::error::InputError;
use glam::DVec2;
use std::collections::BTreeMap;
use std::ops::Range;

/// The summary keeps the shot disc's final position for the first this many samples of a
/// study (sample order); the samples file has every sample's.
pub const POSITIONS_CAP: u64 = 10_000;

/// No board is larger than this (the engine's longest accepted length), m: a kept
/// position farther from the centre is not a place on any board.
const MAX_POSITION: f64 = 1e3;

/// The normal quantile of the 95 % two-sided confidence level, `Phi^-1(0.975)`.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The mergeable state of a study, or of the shard of it that ran here.
#[derive(Clone, Debug, PartialEq)]
pub struct Tally {
    /// Hash of the study's input (see [`Study::input_hash`](super::Study::input_hash)).
    pub input_hash: u64,
    /// The study's seed.
    pub seed: u64,
    /// Samples in the whole study.
    pub samples: u64,
    /// The samples this tally covers (a shard's slice, or `0..samples`).
    pub range: Range<u64>,
    /// Samples added so far (the tally is complete when this is `range` long).
    pub done: u64,
    /// Count per outcome class, in [`ShotClass::ALL`] order.
    pub classes: [u64; 7],
    /// Histogram of the change in board score: value -> count.
    pub score_change: BTreeMap<i64, u64>,
    /// Histogram of the opponent hits: hits -> count.
    pub opponent_hits: BTreeMap<u32, u64>,
    /// Samples in which an opponent disc moved.
    pub opponents_moved: u64,
    /// Samples cut off by `max_time`.
    pub cut_off: u64,
    /// Final position of the shot disc (where it left the surface, for `twenty` and
    /// `ditch`) of samples `range.start..min(range.end, POSITIONS_CAP)`, in order.
    pub positions: Vec<DVec2>,
    /// The outcome class of each of those samples (the class the counts add it to), so a
    /// picture can colour each position by its sample's class.
    pub position_classes: Vec<ShotClass>,
    /// Every sample's result, in sample order ([`SampleRecord`]), when the range holds at
    /// most [`RECORDS_CAP`] samples (else `None`): what a shard state commits to, so that
    /// `crokinole merge` can check its counts add up to them and re-simulate a random few
    /// of them against them.
    pub records: Option<Vec<SampleRecord>>,
    /// The skill level whose widths the study's noise has
    /// ([`SkillLevel::of_noise`](super::SkillLevel::of_noise)), named in the summary;
    /// `None` for any other noise. Set by [`Study::run`](super::Study::run).
    pub skill: Option<&'static str>,
}

/// A tally keeps its samples' [`SampleRecord`]s when its range holds at most this many
/// samples (8 bytes each: 16 MiB at most). A shard state of more samples carries none and
/// cannot be verified by `crokinole merge`: split such a study into more shards.
pub const RECORDS_CAP: u64 = 1 << 21;

/// One sample's result packed in 64 bits: its class, its score change, its opponent hits
/// and its two flags, everything a [`Tally`] adds up (its final position aside, which the
/// tally keeps for the first samples).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SampleRecord(u64);

impl SampleRecord {
    /// The record of `r`, or `None` if a field does not fit (a score change beyond 32
    /// bits or more than 2^26 hits: no real shot).
    pub fn of(r: &SampleResult) -> Option<SampleRecord> {
        let score = i32::try_from(r.score_change).ok()?;
        if r.opponent_hits >= 1 << 26 {
            return None;
        }
        Some(SampleRecord(
            r.class.index() as u64
                | u64::from(r.opponents_moved) << 3
                | u64::from(r.cut_off) << 4
                | u64::from(r.opponent_hits) << 5
                | u64::from(score as u32) << 32,
        ))
    }

    /// The result recorded (everything but the position).
    pub fn result(self) -> SampleResult {
        SampleResult {
            class: ShotClass::ALL[(self.0 & 7) as usize % 7],
            score_change: i64::from((self.0 >> 32) as u32 as i32),
            opponent_hits: ((self.0 >> 5) & ((1 << 26) - 1)) as u32,
            opponents_moved: self.0 & 8 != 0,
            cut_off: self.0 & 16 != 0,
        }
    }
}

/// The sum of `counts`, refused (field `field`) if it overflows 64 bits: counts near
/// `u64::MAX` must not wrap round to a plausible total.
fn checked_total<'a>(
    field: &str,
    mut counts: impl Iterator<Item = &'a u64>,
) -> Result<u64, InputError> {
    counts
        .try_fold(0u64, |a, &c| a.checked_add(c))
        .ok_or_else(|| InputError::new(field, "counts overflow 64 bits"))
}

/// The number of positions a tally over `range` keeps.
pub fn positions_kept(range: &Range<u64>) -> usize {
    (range.end.min(POSITIONS_CAP)).saturating_sub(range.start) as usize
}

impl Tally {
    /// An empty tally over `range` of a study of `samples` samples.
    pub fn new(input_hash: u64, seed: u64, samples: u64, range: Range<u64>) -> Tally {
        let records = (range.end.saturating_sub(range.start) <= RECORDS_CAP).then(Vec::new);
        Tally {
            input_hash,
            seed,
            samples,
            range,
            done: 0,
            classes: [0; 7],
            score_change: BTreeMap::new(),
            opponent_hits: BTreeMap::new(),
            opponents_moved: 0,
            cut_off: 0,
            positions: Vec::new(),
            position_classes: Vec::new(),
            records,
            skill: None,
        }
    }

    /// Adds sample `index`, which must be the next one (`range.start + done`): the fold is
    /// serial and in order. `shooter_pos` is the shot disc's final position.
    pub fn add(&mut self, index: u64, result: &SampleResult, shooter_pos: DVec2) {
        assert_eq!(
            index,
            self.range.start + self.done,
            "samples are added in order"
        );
        assert!(index < self.range.end, "sample {index} outside the tally");
        self.done += 1;
        self.classes[result.class.index()] += 1;
        *self.score_change.entry(result.score_change).or_default() += 1;
        *self.opponent_hits.entry(result.opponent_hits).or_default() += 1;
        self.opponents_moved += u64::from(result.opponents_moved);
        self.cut_off += u64::from(result.cut_off);
        if index < POSITIONS_CAP {
            self.positions.push(shooter_pos);
            self.position_classes.push(result.class);
        }
        if let Some(records) = &mut self.records {
            match SampleRecord::of(result) {
                Some(r) => records.push(r),
                None => self.records = None,
            }
        }
    }

    /// Checks that the records, if any, are one per sample and add up to the counts, and
    /// that the kept positions' classes are theirs: a state whose counts were edited
    /// without its records is refused here; one whose records were edited too is caught
    /// by re-simulating samples (`crokinole merge --verify`).
    pub fn check_records(&self) -> Result<(), InputError> {
        let Some(records) = &self.records else {
            return Ok(());
        };
        let len = self.range.end - self.range.start;
        if records.len() as u64 != len {
            return Err(InputError::new(
                "records",
                format!(
                    "{} records for the {len} samples of the range",
                    records.len()
                ),
            ));
        }
        let mut sums = Tally::new(self.input_hash, self.seed, self.samples, self.range.clone());
        sums.records = None;
        for (k, r) in records.iter().enumerate() {
            let result = r.result();
            let index = self.range.start + k as u64;
            let pos = self.positions.get(k).copied().unwrap_or(DVec2::ZERO);
            sums.add(index, &result, pos);
        }
        let differs = |field: &str, records: String, state: String| {
            Err(InputError::new(
                field,
                format!(
                    "the per-sample records add up to {records}, the state says {state}: it was edited; run the shard again"
                ),
            ))
        };
        for (k, class) in ShotClass::ALL.iter().enumerate() {
            if sums.classes[k] != self.classes[k] {
                return differs(
                    &format!("classes.{}", class.name()),
                    sums.classes[k].to_string(),
                    self.classes[k].to_string(),
                );
            }
        }
        if sums.score_change != self.score_change {
            return differs(
                "score_change",
                format!("{:?}", sums.score_change),
                format!("{:?}", self.score_change),
            );
        }
        if sums.opponent_hits != self.opponent_hits {
            return differs(
                "opponent_hits",
                format!("{:?}", sums.opponent_hits),
                format!("{:?}", self.opponent_hits),
            );
        }
        if sums.opponents_moved != self.opponents_moved {
            return differs(
                "opponents_moved",
                sums.opponents_moved.to_string(),
                self.opponents_moved.to_string(),
            );
        }
        if sums.cut_off != self.cut_off {
            return differs(
                "cut_off",
                sums.cut_off.to_string(),
                self.cut_off.to_string(),
            );
        }
        if sums.position_classes != self.position_classes {
            return differs("position_classes", "other classes".into(), "these".into());
        }
        Ok(())
    }

    /// Whether every sample of `range` was added.
    pub fn is_complete(&self) -> bool {
        self.done == self.range.end - self.range.start
    }

    /// Checks that a tally read from a file is consistent: complete, its range inside the
    /// study, every count summing to the range's length, the right number of positions.
    pub fn check(&self) -> Result<(), InputError> {
        let len = self.range.end.wrapping_sub(self.range.start);
        if self.samples == 0 {
            return Err(InputError::new("samples", "must be at least 1, got 0"));
        }
        if self.range.start > self.range.end || self.range.end > self.samples {
            return Err(InputError::new(
                "range",
                format!(
                    "{}..{} is not a slice of the study's {} samples",
                    self.range.start, self.range.end, self.samples
                ),
            ));
        }
        let sums = [
            ("done", self.done),
            ("classes", checked_total("classes", self.classes.iter())?),
            (
                "score_change",
                checked_total("score_change", self.score_change.values())?,
            ),
            (
                "opponent_hits",
                checked_total("opponent_hits", self.opponent_hits.values())?,
            ),
        ];
        for (field, sum) in sums {
            if sum != len {
                return Err(InputError::new(
                    field,
                    format!("counts {sum} samples, the range {len}"),
                ));
            }
        }
        for (field, count) in [
            ("opponents_moved", self.opponents_moved),
            ("cut_off", self.cut_off),
        ] {
            if count > len {
                return Err(InputError::new(
                    field,
                    format!("counts {count} samples, more than the range's {len}"),
                ));
            }
        }
        // A score change is zone points and 20s, every one a multiple of 5.
        if let Some(v) = self.score_change.keys().find(|v| *v % 5 != 0) {
            return Err(InputError::new(
                "score_change",
                format!("value {v} is not a multiple of 5"),
            ));
        }
        if let Some(p) = self
            .positions
            .iter()
            .find(|p| !(p.is_finite() && p.length() <= MAX_POSITION))
        {
            return Err(InputError::new(
                "positions",
                format!(
                    "[{}, {}] is not a place on any board",
                    crokinole_core::error::num(p.x),
                    crokinole_core::error::num(p.y)
                ),
            ));
        }
        let kept = positions_kept(&self.range);
        for (field, held) in [
            ("positions", self.positions.len()),
            ("position_classes", self.position_classes.len()),
        ] {
            if held != kept {
                return Err(InputError::new(
                    field,
                    format!("holds {held} entries, the range needs {kept}"),
                ));
            }
        }
        Ok(())
    }

    /// Merges the tallies of the shards of one study (each named, for messages, by the
    /// file it came from) into the tally of the whole study, exactly as one run would have
    /// made it. Refuses tallies of different inputs, seeds or sample counts, and ranges
    /// that overlap or leave samples out. The order of `parts` does not matter.
    pub fn merge(parts: Vec<(String, Tally)>) -> Result<Tally, InputError> {
        let mut parts = parts;
        let Some((first_name, first)) = parts.first() else {
            return Err(InputError::new("shards", "no shard to merge"));
        };
        let (first_name, input_hash, seed, samples, skill) = (
            first_name.clone(),
            first.input_hash,
            first.seed,
            first.samples,
            first.skill,
        );
        for (name, t) in &parts {
            t.check()
                .map_err(|e| InputError::new(e.field, format!("{} (shard `{name}`)", e.problem)))?;
            let differs = |field: &str, what: String, theirs: String| {
                InputError::new(
                    field,
                    format!(
                        "shard `{name}` is from another study: {what} {theirs}, `{first_name}` has {what} {}",
                        match field {
                            "input_hash" => format!("{input_hash:016x}"),
                            "seed" => seed.to_string(),
                            _ => samples.to_string(),
                        }
                    ),
                )
            };
            if t.input_hash != input_hash {
                return Err(differs(
                    "input_hash",
                    "input hash".into(),
                    format!("{:016x}", t.input_hash),
                ));
            }
            if t.seed != seed {
                return Err(differs("seed", "seed".into(), t.seed.to_string()));
            }
            if t.samples != samples {
                return Err(differs("samples", "samples".into(), t.samples.to_string()));
            }
            if t.skill != skill {
                return Err(InputError::new(
                    "skill",
                    format!(
                        "shard `{name}` is from another study: skill level {}, `{first_name}` has {}",
                        t.skill.unwrap_or("none"),
                        skill.unwrap_or("none")
                    ),
                ));
            }
        }
        parts.sort_by_key(|(_, t)| (t.range.start, t.range.end));
        let mut whole = Tally::new(input_hash, seed, samples, 0..samples);
        whole.skill = skill;
        let mut next = 0u64;
        let mut prev_name = String::new();
        for (name, t) in &parts {
            if t.range.start < next {
                return Err(InputError::new(
                    "range",
                    format!(
                        "shards overlap: `{name}` covers samples {}..{}, `{prev_name}` already covers up to {next}",
                        t.range.start, t.range.end
                    ),
                ));
            }
            if t.range.start > next {
                return Err(InputError::new(
                    "range",
                    format!(
                        "shards do not fit together: samples {next}..{} are in no shard",
                        t.range.start
                    ),
                ));
            }
            next = t.range.end;
            prev_name.clone_from(name);
            whole.done += t.done;
            for (w, c) in whole.classes.iter_mut().zip(t.classes) {
                *w += c;
            }
            for (&v, &c) in &t.score_change {
                *whole.score_change.entry(v).or_default() += c;
            }
            for (&v, &c) in &t.opponent_hits {
                *whole.opponent_hits.entry(v).or_default() += c;
            }
            whole.opponents_moved += t.opponents_moved;
            whole.cut_off += t.cut_off;
            whole.positions.extend_from_slice(&t.positions);
            match (&mut whole.records, &t.records) {
                (Some(w), Some(r)) => w.extend_from_slice(r),
                (w, _) => *w = None,
            }
            whole
                .position_classes
                .extend_from_slice(&t.position_classes);
        }
        if next != samples {
            return Err(InputError::new(
                "range",
                format!("shards do not fit together: samples {next}..{samples} are in no shard"),
            ));
        }
        Ok(whole)
    }

    /// The statistics of the samples a stopped run finished, `0..done` of a run from
    /// sample 0: sample `i` of a study is a function of the seed and `i` alone, so they are
    /// the summary of the same study with `done` samples, marked [`Stopped`] with the
    /// count asked for. `None` for a shard's tally (its finished part is no study) or one
    /// with no sample.
    pub fn summary_of_finished(&self) -> Option<StudySummary> {
        if self.range.start != 0 || self.done == 0 {
            return None;
        }
        let finished = Tally {
            samples: self.done,
            range: 0..self.done,
            ..self.clone()
        };
        let mut summary = finished.summary().ok()?;
        if !self.is_complete() {
            summary.stopped = Some(Stopped {
                requested: self.samples,
            });
        }
        Some(summary)
    }

    /// The statistics of a complete tally of a whole study. Refuses a shard's tally (the
    /// summary of a study is made once every shard is merged).
    pub fn summary(&self) -> Result<StudySummary, InputError> {
        if self.range != (0..self.samples) || !self.is_complete() {
            return Err(InputError::new(
                "range",
                format!(
                    "a summary needs every sample of the study (0..{}), this tally has {} of {}..{}",
                    self.samples, self.done, self.range.start, self.range.end
                ),
            ));
        }
        let n = self.samples;
        let prop = |count: u64| Proportion::new(count, n);
        let c = |class: ShotClass| prop(self.classes[class.index()]);
        let hits_sum: u128 = self
            .opponent_hits
            .iter()
            .map(|(&v, &c)| u128::from(v) * u128::from(c))
            .sum();
        let no_hit = self.opponent_hits.get(&0).copied().unwrap_or(0);
        Ok(StudySummary {
            samples: n,
            seed: self.seed,
            input_hash: format!("{:016x}", self.input_hash),
            skill: self.skill.map(str::to_string),
            shooter: Classes {
                twenty: c(ShotClass::Twenty),
                fifteen: c(ShotClass::Fifteen),
                ten: c(ShotClass::Ten),
                five: c(ShotClass::Five),
                out: c(ShotClass::Out),
                ditch: c(ShotClass::Ditch),
                removed: c(ShotClass::Removed),
            },
            score_change: Distribution::of(&self.score_change, n),
            opponent_hits: Hits {
                mean: hits_sum as f64 / n as f64,
                any: prop(n - no_hit),
                histogram: self.opponent_hits.iter().map(|(&v, &c)| (v, c)).collect(),
            },
            opponents_moved: prop(self.opponents_moved),
            cut_off: self.cut_off,
            shooter_positions: Some(Positions {
                cap: POSITIONS_CAP,
                first: self.positions.iter().map(|p| p.to_array()).collect(),
                class: self.position_classes.clone(),
            }),
            stopped: None,
        })
    }
}

/// The statistics of a study, as printed by `crokinole montecarlo` and `crokinole merge`.
#[derive(Clone, Debug, PartialEq)]
pub struct StudySummary {
    /// Samples in the study.
    pub samples: u64,
    /// The seed.
    pub seed: u64,
    /// Hash of the input, 16 hex digits.
    pub input_hash: String,
    /// The skill level of the player's error, when the noise is one
    /// ([`SkillLevel::of_noise`](super::SkillLevel::of_noise)); `None` (no key) for other
    /// widths.
    pub skill: Option<String>,
    /// Probability of each outcome class of the shot disc.
    pub shooter: Classes,
    /// Distribution of the shooting side's change in board score.
    pub score_change: Distribution,
    /// Direct hits on opponent discs.
    pub opponent_hits: Hits,
    /// Probability that any opponent disc moved.
    pub opponents_moved: Proportion,
    /// Samples cut off by `max_time` (0 in any ordinary study).
    pub cut_off: u64,
    /// Final positions of the shot disc for the first samples, with each sample's class;
    /// `None` in a summary printed without them (`crokinole montecarlo` without
    /// `--positions`).
    pub shooter_positions: Option<Positions>,
    /// Set when the run was stopped before its end (Ctrl-C): the statistics are then
    /// those of the `samples` it finished, which are the study of that many samples.
    pub stopped: Option<Stopped>,
}

/// How a stopped run's summary says so ([`StudySummary::stopped`], and
/// `GamesSummary::stopped` of `crokinole play`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped {
    /// What the run was asked for: samples of a study, games of `play`.
    pub requested: u64,
}

impl StudySummary {
    /// The summary without the per-sample positions (what `crokinole montecarlo` prints
    /// unless asked for them).
    pub fn without_positions(self) -> StudySummary {
        StudySummary {
            shooter_positions: None,
            ..self
        }
    }
}

/// One proportion with its 95 % Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Proportion {
    /// Samples with the property.
    pub count: u64,
    /// `count / samples`.
    pub p: f64,
    /// 95 % Wilson score interval for the probability, `[low, high]`.
    pub ci95: [f64; 2],
}

impl Proportion {
    /// `count` of `n` (`n > 0`), with the Wilson score interval at 95 %:
    /// `(p + z^2/2n -+ z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n)`, clamped to `[0, 1]`,
    /// exactly 0 (1) at the low (high) end when `count` is 0 (`n`).
    pub fn new(count: u64, n: u64) -> Proportion {
        let nf = n as f64;
        let p = count as f64 / nf;
        let z2 = Z95 * Z95;
        let denom = 1.0 + z2 / nf;
        let centre = (p + z2 / (2.0 * nf)) / denom;
        let half = Z95 * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt() / denom;
        Proportion {
            count,
            p,
            // Exact at the ends (rounding would leave 1e-17 or 1 - 1e-16 there).
            ci95: [
                if count == 0 {
                    0.0
                } else {
                    (centre - half).max(0.0)
                },
                if count == n {
                    1.0
                } else {
                    (centre + half).min(1.0)
                },
            ],
        }
    }
}

/// The outcome classes of the shot disc.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Classes {
    /// Into the 20 hole.
    pub twenty: Proportion,
    /// At rest in the 15 zone.
    pub fifteen: Proportion,
    /// At rest in the 10 zone.
    pub ten: Proportion,
    /// At rest in the 5 zone.
    pub five: Proportion,
    /// At rest touching or beyond the shooting line.
    pub out: Proportion,
    /// Off the playing surface.
    pub ditch: Proportion,
    /// Taken off by the opening or must-hit rule (always 0 without a rule set).
    pub removed: Proportion,
}

/// An integer distribution, from its exact histogram.
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    /// Mean.
    pub mean: f64,
    /// Sample standard deviation (divisor `n - 1`; 0 for one sample).
    pub std: f64,
    /// Smallest value.
    pub min: i64,
    /// Largest value.
    pub max: i64,
    /// Quantiles: the smallest value whose cumulative count reaches `ceil(q n)`.
    pub quantiles: Quantiles,
    /// `[value, count]` pairs, ascending.
    pub histogram: Vec<(i64, u64)>,
}

/// The 5th, 25th, 50th, 75th and 95th percentiles.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quantiles {
    /// 5th percentile.
    pub p05: i64,
    /// 25th percentile.
    pub p25: i64,
    /// Median.
    pub p50: i64,
    /// 75th percentile.
    pub p75: i64,
    /// 95th percentile.
    pub p95: i64,
}

impl Distribution {
    /// The distribution of a histogram of `n > 0` values.
    pub fn of(histogram: &BTreeMap<i64, u64>, n: u64) -> Distribution {
        let (mut sum, mut sum2) = (0i128, 0i128);
        for (&v, &c) in histogram {
            sum += i128::from(v) * i128::from(c);
            sum2 += i128::from(v) * i128::from(v) * i128::from(c);
        }
        let nn = i128::from(n);
        // n * sum(v^2) - sum(v)^2 = n (n - 1) s^2, exact in integers.
        let spread = nn * sum2 - sum * sum;
        let std = if n > 1 {
            (spread as f64 / (n as f64 * (n - 1) as f64)).sqrt()
        } else {
            0.0
        };
        let quantile = |percent: u128| -> i64 {
            // Rank ceil(percent n / 100), at least 1.
            let rank = ((percent * u128::from(n)).div_ceil(100)).max(1);
            let mut seen = 0u128;
            for (&v, &c) in histogram {
                seen += u128::from(c);
                if seen >= rank {
                    return v;
                }
            }
            unreachable!("the histogram holds n values")
        };
        Distribution {
            mean: sum as f64 / n as f64,
            std,
            min: histogram.keys().next().copied().unwrap_or(0),
            max: histogram.keys().next_back().copied().unwrap_or(0),
            quantiles: Quantiles {
                p05: quantile(5),
                p25: quantile(25),
                p50: quantile(50),
                p75: quantile(75),
                p95: quantile(95),
            },
            histogram: histogram.iter().map(|(&v, &c)| (v, c)).collect(),
        }
    }
}

/// Direct hits on opponent discs.
#[derive(Clone, Debug, PartialEq)]
pub struct Hits {
    /// Mean number of distinct opponent discs hit directly.
    pub mean: f64,
    /// Probability of hitting at least one.
    pub any: Proportion,
    /// `[hits, count]` pairs, ascending.
    pub histogram: Vec<(u32, u64)>,
}

/// Final positions of the shot disc for the first samples of the study.
#[derive(Clone, Debug, PartialEq)]
pub struct Positions {
    /// At most this many are kept ([`POSITIONS_CAP`]).
    pub cap: u64,
    /// `[x, y]` of samples `0..min(samples, cap)`, in sample order: where the disc rests,
    /// or where it left the surface for `twenty` and `ditch`.
    pub first: Vec<[f64; 2]>,
    /// The outcome class of each of those samples, in the same order: the class the
    /// summary's `shooter` table counts it in (with a rule set, `removed` for a shot the
    /// rules took off, wherever it lies).
    pub class: Vec<ShotClass>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_intervals_match_known_values() {
        // 0 of 10: [0, 0.2775]; 10 of 10: [0.7225, 1]; 5 of 10: [0.2366, 0.7634].
        let p = Proportion::new(0, 10);
        assert_eq!(p.ci95[0], 0.0);
        assert!((p.ci95[1] - 0.277_533).abs() < 1e-6, "{p:?}");
        let p = Proportion::new(10, 10);
        assert_eq!(p.ci95[1], 1.0);
        assert!((p.ci95[0] - 0.722_467).abs() < 1e-6, "{p:?}");
        let p = Proportion::new(5, 10);
        assert!((p.ci95[0] - 0.236_593).abs() < 1e-6, "{p:?}");
        assert!((p.ci95[1] - 0.763_407).abs() < 1e-6, "{p:?}");
    }

    #[test]
    fn distributions_are_exact() {
        let h: BTreeMap<i64, u64> = [(-5, 1), (0, 2), (5, 1), (20, 1)].into_iter().collect();
        let d = Distribution::of(&h, 5);
        assert_eq!(d.mean, 4.0);
        // Values -5 0 0 5 20: squared deviations 81 16 16 1 256 = 370, / 4.
        assert_eq!(d.std, 92.5f64.sqrt());
        assert_eq!((d.min, d.max), (-5, 20));
        assert_eq!(
            (d.quantiles.p05, d.quantiles.p25, d.quantiles.p50),
            (-5, 0, 0)
        );
        assert_eq!((d.quantiles.p75, d.quantiles.p95), (5, 20));
    }
}
