//! The evaluation rounds of one search ([`Rounds`]): every stage's candidates evaluated
//! with the stage's own seed and recorded as a [`Stage`], the time budget and the stop
//! checked, and the race's successive halving.

use super::objective::{Objective, Stats};
use super::schedule;
use super::search::{self, Candidate};
use super::setup::Setup;
use crokinole_core::cancel::Cancel;
use crokinole_montecarlo::Noise;
use crokinole_montecarlo::noise::mix;
use std::time::Instant;

/// One stage of the search, for the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stage {
    /// `coarse`, `refine 1`.. , `final`.
    pub name: String,
    /// Candidates evaluated.
    pub candidates: usize,
    /// Samples per candidate.
    pub samples: u32,
}

/// The evaluation rounds of one search: each round's candidates evaluated with the
/// round's own seed, `mix(seed, round)`, and recorded as a [`Stage`].
pub(super) struct Rounds<'s> {
    pub(super) setup: &'s Setup,
    pub(super) noise: Noise,
    pub(super) objective: Objective,
    pub(super) seed: u64,
    pub(super) stages: Vec<Stage>,
    /// Samples simulated so far.
    pub(super) used: u64,
    /// When a time budget runs out (`None` for a sample budget).
    pub(super) deadline: Option<Instant>,
    /// Whether a stage was skipped because the deadline had passed.
    pub(super) time_up: bool,
    /// Checked by every evaluation, between and within its samples.
    pub(super) cancel: Cancel,
    /// Whether `cancel` stopped an evaluation: no later stage runs.
    pub(super) stopped: bool,
}

impl Rounds<'_> {
    /// Whether the time budget has run out; records it if so. Checked before each
    /// refinement round and the race, which are then skipped. Not checked within a stage:
    /// a stage under way (the coarse sweep, a refinement round, all the race's rounds)
    /// runs to its end, and the final evaluation always runs, so a search can overrun its
    /// time by those.
    pub(super) fn out_of_time(&mut self) -> bool {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.time_up = true;
        }
        self.time_up
    }

    /// Evaluates `cands` with `m` samples each as stage `name`, seeded for `round`. Once
    /// stopped (`cancel`), runs nothing; a stage stopped part way keeps every candidate's
    /// statistics over the rounds of samples they all finished (all `None` if none did).
    pub(super) fn run(
        &mut self,
        name: String,
        cands: &[Candidate],
        m: u32,
        round: u64,
    ) -> Vec<Option<Stats>> {
        if self.stopped {
            return vec![None; cands.len()];
        }
        let done = search::evaluate_until(
            self.setup,
            self.noise,
            self.objective,
            cands,
            m,
            mix(self.seed, round),
            &self.cancel,
        );
        self.stopped = done.stopped.is_some();
        // Stopped, every candidate has the same first `k` samples (`k` 0 when `items` is
        // empty); the stage records those.
        let k = if self.stopped {
            let n = done.items.iter().flatten().map(|s| s.n).next().unwrap_or(0);
            u32::try_from(n).unwrap_or(m)
        } else {
            m
        };
        self.stages.push(Stage {
            name,
            candidates: done.items.len(),
            samples: k,
        });
        self.used += done.items.len() as u64 * u64::from(k);
        let mut stats = done.items;
        stats.resize(cands.len(), None);
        stats
    }
}

impl Rounds<'_> {
    /// The race ([`Schedule::race`]) among the first `raced` of `pool`: round `r`
    /// evaluates those still in (all of them in the first round, then the better half of
    /// the previous round's, at least 2) on fresh numbers (seeded for stage `32 + r`), its
    /// share of samples spread equally over them; ranks them by their sums over all the
    /// race's rounds so far (every one still in has had the same samples, so the
    /// comparison is exact; ties keep the previous order) and the better ones go on.
    /// Returns the order of `pool`: the entrants as the race left them, then the rest in
    /// their order.
    pub(super) fn successive_halving(
        &mut self,
        pool: &[Candidate],
        raced: usize,
        race: &[u64],
    ) -> Vec<usize> {
        let mut ranked: Vec<(usize, Option<(i64, i64)>)> =
            (0..raced).map(|i| (i, Some((0, 0)))).collect();
        let mut size = raced;
        for (r, &share) in race.iter().enumerate() {
            if r > 0 {
                size = (size / 2).max(2);
            }
            if size < 2 {
                break;
            }
            let m = schedule::per_candidate(share, size);
            let cands: Vec<Candidate> = ranked[..size].iter().map(|&(i, _)| pool[i]).collect();
            let stats = self.run(format!("race {}", r + 1), &cands, m, 32 + r as u64);
            for (entry, s) in ranked[..size].iter_mut().zip(&stats) {
                entry.1 = match (entry.1, s) {
                    (Some((sum, change)), Some(s)) => {
                        let (a, b) = s.rank_key();
                        Some((sum + a, change + b))
                    }
                    _ => None,
                };
            }
            // Stable: full ties keep the previous order ([`Stats::rank_key`]); a refused
            // candidate goes last.
            ranked[..size].sort_by_key(|&(_, key)| std::cmp::Reverse(key));
        }
        ranked
            .iter()
            .map(|&(i, _)| i)
            .chain(raced..pool.len())
            .collect()
    }
}
