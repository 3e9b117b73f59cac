//! How a search's budget is shared among its stages ([`Schedule`]): the coarse sweep's
//! rounds of successive halving, the heat map's own stage, the refinement rounds, the
//! race and the final evaluation, each a share of the sample budget fixed before the
//! search starts, so `samples_used` never exceeds the budget; and the sizes the search is
//! built around (parents a round keeps, the race's entrants). The stages themselves are
//! `search.rs` and `mod.rs`; the allocation is described in docs/suggest.md.

use crokinole_core::error::InputError;

/// Samples a coarse candidate gets on average, at least, for the sweep to be as dense as
/// it is ([`places_for`](super::search::places_for)) and to halve ([`Schedule::coarse_rounds`]).
pub const COARSE_MEAN: u64 = 4;

/// The coarse sweep's share of a budget of `budget` samples: 30 %.
pub fn coarse_share(budget: u64) -> u64 {
    budget * 3 / 10
}

/// How many samples each stage gets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// The coarse sweep's rounds of successive halving: the first evaluates every coarse
    /// candidate, each next the better half of those still in ([`CoarseRound`]).
    pub coarse: Vec<CoarseRound>,
    /// Samples of each refinement round, shared equally by its candidates
    /// ([`per_candidate`]: a round with fewer candidates gives each more); 0 without noise
    /// (one sample each).
    pub rounds: Vec<u64>,
    /// Samples of each round of the race, shared equally by the candidates still in it.
    /// Empty without noise or when the budget leaves too little.
    pub race: Vec<u64>,
    /// Samples per candidate of the final evaluation.
    pub last: u32,
    /// Samples per cell of the heat map's own stage (`grid`), run after a coarse sweep
    /// that halves: its first round gives a cell 1 to 6 samples at the default budget,
    /// too few for a map, so the map's cells get `min(GRID_SAMPLES, 2.5 % of the budget
    /// / cells)` each, taken from the final evaluation's share (which only reports; the
    /// search's shares are unchanged). 0 when the sweep is one round (the map is that
    /// round, as many samples a cell as any candidate) or without a grid.
    pub grid: u32,
}

/// Most samples a cell of the heat map's own stage gets ([`Schedule::grid`]).
pub const GRID_SAMPLES: u64 = 16;

/// One round of the coarse sweep's successive halving.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoarseRound {
    /// Candidates it evaluates: every coarse candidate in the first round, then the
    /// better half of the previous round's.
    pub candidates: usize,
    /// Samples per candidate.
    pub samples: u32,
}

/// The coarse sweep halves its candidates while the better half keeps at least this many
/// (twice the first refinement round's [`PARENTS`], so the parents are picked among
/// candidates that all had the most samples).
pub const COARSE_KEEP: usize = 2 * PARENTS;

/// Parents kept by each refinement round.
pub const PARENTS: usize = 8;
/// Parents of one family a refinement round keeps at most.
pub const PER_FAMILY: usize = 3;
/// Refinement rounds whose parents are picked at most one per lineage (the coarse
/// candidate a climb started from): the first round's parents are the best coarse
/// candidates, the second's the best flick of each of their neighbourhoods, so the best
/// starting points each climb two steps before they compete for the parents' places.
pub const APART: usize = 2;
/// Candidates a refinement round evaluates at most: each parent and its 6 neighbours.
pub const ROUND_SIZE: u64 = 7 * PARENTS as u64;
/// Parents whose neighbourhoods enter the race.
pub const RACE_PARENTS: usize = 6;
/// Entrants of the race at most: the [`RACE_PARENTS`] and their 6 neighbours each.
pub const RACE_SIZE: u64 = 7 * RACE_PARENTS as u64;
/// Rounds of the race (successive halving): the first evaluates every entrant, each next
/// the better half of those still in (at least 2).
pub const RACE_ROUNDS: usize = 5;
/// Smallest sample budget accepted.
pub const MIN_BUDGET: u64 = 1000;

/// The least sample budget whose schedule covers `coarse` candidates once each and the
/// final evaluation of `top` ([`Schedule::new`] refuses less).
pub fn smallest_budget(coarse: usize, top: usize) -> u64 {
    let (n, k) = (coarse.max(1) as u64, top.max(1) as u64);
    n * 10 / 3 + 1 + n + k
}

/// Samples per candidate of a round of `share` samples among `n` candidates:
/// `floor(share / n)`, at least 1 (a share of 0, without noise: one sample each).
pub fn per_candidate(share: u64, n: usize) -> u32 {
    (share / n.max(1) as u64).clamp(1, u64::from(u32::MAX)) as u32
}

impl Schedule {
    /// The allocation of `budget` samples to a coarse sweep of `coarse` candidates,
    /// refinement rounds, a race and a final evaluation of `top` candidates (and the heat
    /// map's `cells`, if it has its own stage: [`Schedule::grid`]): 7 % to the
    /// final evaluation (`floor(0.07 B / top)` each), 30 % to the coarse sweep
    /// ([`Schedule::coarse_rounds`]: successive halving, every candidate at least one
    /// sample; up to 2.5 % of the budget of the final's 7 % to the heat map's own stage,
    /// when the sweep halves), 25 % to the race (its [`RACE_ROUNDS`] rounds get equal shares,
    /// `floor(0.05 B)`; no race if that is less than [`RACE_SIZE`], one sample for each
    /// entrant), the rest (with what the coarse sweep's floors leave) to three refinement
    /// rounds in the ratio 1 : 2 : 4 (two rounds 1 : 2, or one, or none when the rest is
    /// too small for [`ROUND_SIZE`] samples in the first). A round's share is spread over
    /// the candidates it actually has ([`per_candidate`]). Without noise every sample of a
    /// flick is the same, so every stage takes one (the coarse sweep one round) and there
    /// is no race. The total never exceeds `budget`; refused (field `budget`) if the coarse
    /// sweep alone would not fit.
    pub fn new(
        budget: u64,
        coarse: usize,
        top: usize,
        noisy: bool,
        cells: usize,
    ) -> Result<Schedule, InputError> {
        if !noisy {
            return Ok(Schedule {
                coarse: vec![CoarseRound {
                    candidates: coarse,
                    samples: 1,
                }],
                rounds: vec![0, 0, 0],
                race: Vec::new(),
                last: 1,
                grid: 0,
            });
        }
        let (n, k) = (coarse.max(1) as u64, top.max(1) as u64);
        let last = (budget * 7 / 100 / k).max(1);
        let sweep = Schedule::coarse_rounds(coarse_share(budget), coarse);
        let swept: u64 = sweep
            .iter()
            .map(|r| r.candidates as u64 * u64::from(r.samples))
            .sum();
        let used = swept + last * k;
        if used > budget {
            return Err(InputError::new(
                "budget",
                format!(
                    "{budget} samples do not cover the {n} candidates of the coarse sweep and \
                     the final evaluation: give at least {}",
                    smallest_budget(n as usize, k as usize)
                ),
            ));
        }
        let cap = |x: u64| x.min(u64::from(u32::MAX)) as u32;
        // The heat map's own stage comes out of the final evaluation's share, which only
        // reports: the search's shares stay as they are.
        let cells = cells as u64;
        let grid = if sweep.len() > 1 && cells > 0 {
            (budget / 40 / cells)
                .min(GRID_SAMPLES)
                .min((last - 1) * k / cells)
        } else {
            0
        };
        let last = last - (grid * cells).div_ceil(k);
        let race_budget = (budget / 4).min(budget - used);
        let share = race_budget / RACE_ROUNDS as u64;
        let race = if share >= RACE_SIZE {
            vec![share; RACE_ROUNDS]
        } else {
            Vec::new()
        };
        let rest = budget - used - race.iter().sum::<u64>();
        let mut rounds = Vec::new();
        for count in [3u32, 2, 1] {
            let unit = rest / ((1u64 << count) - 1);
            if unit >= ROUND_SIZE {
                rounds = (0..count).map(|r| unit << r).collect();
                break;
            }
        }
        Ok(Schedule {
            coarse: sweep,
            rounds,
            race,
            last: cap(last),
            grid: cap(grid),
        })
    }

    /// The coarse sweep's successive halving for `share` samples and `n` candidates: the
    /// rounds' sizes are `n`, then half the previous (rounded down) while that keeps at
    /// least [`COARSE_KEEP`], as many rounds as give every candidate of the first at
    /// least one sample of an equal share (`share / rounds >= n`); round `r` gets the
    /// share left over `rounds - r` (so what a round's floor leaves goes to the next),
    /// `floor(left / (rounds - r) / size)` samples each. A share below `n` gives one
    /// round of one sample each (which the budget may then not cover).
    pub fn coarse_rounds(share: u64, n: usize) -> Vec<CoarseRound> {
        let mut sizes = vec![n];
        while let Some(&s) = sizes.last() {
            if s / 2 < COARSE_KEEP {
                break;
            }
            sizes.push(s / 2);
        }
        let n64 = n.max(1) as u64;
        let count = if n64 * COARSE_MEAN <= share {
            (share / n64).min(sizes.len() as u64) as usize
        } else {
            1
        };
        sizes.truncate(count);
        let mut left = share;
        sizes
            .iter()
            .enumerate()
            .map(|(r, &size)| {
                let m = (left / (count - r) as u64 / size.max(1) as u64).max(1);
                left = left.saturating_sub(m * size as u64);
                CoarseRound {
                    candidates: size,
                    samples: m.min(u64::from(u32::MAX)) as u32,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_stays_within_the_budget() {
        let cases = [
            (20_000, 170, 5, 0),
            (2_000, 150, 1, 0),
            (1_000_000, 400, 10, 0),
            (20_000, 1_200, 5, 99),
            (20_000, 1_200, 1, 400),
            (1_000_000, 1_500, 10, 99),
        ];
        for (budget, n, k, cells) in cases {
            let s = Schedule::new(budget, n, k, true, cells).unwrap();
            let rounds: u64 = s.rounds.iter().sum();
            let race: u64 = s.race.iter().sum();
            let swept: u64 = s
                .coarse
                .iter()
                .map(|r| r.candidates as u64 * u64::from(r.samples))
                .sum();
            assert_eq!(s.coarse[0].candidates, n, "{budget}: {s:?}");
            assert!(s.coarse.iter().all(|r| r.samples >= 1), "{budget}: {s:?}");
            let map = u64::from(s.grid) * cells as u64;
            assert!(map <= budget / 40, "{budget}: {s:?}");
            assert!(s.last >= 1, "{budget}: {s:?}");
            // The map's stage only when the sweep halves, out of the final's share: the
            // search's shares are those of the schedule without a map.
            let plain = Schedule::new(budget, n, k, true, 0).unwrap();
            assert_eq!(
                s.grid > 0,
                cells > 0 && s.coarse.len() > 1,
                "{budget}: {s:?}"
            );
            assert_eq!(
                (&s.coarse, &s.rounds, &s.race),
                (&plain.coarse, &plain.rounds, &plain.race)
            );
            assert!(u64::from(s.last) * k as u64 + map <= u64::from(plain.last) * k as u64);
            let total = swept + rounds + race + u64::from(s.last) * k as u64 + map;
            assert!(total <= budget, "{budget}: {s:?}");
            // Floors lose a little: at most a round's worth of rounding per stage.
            assert!(total * 10 >= budget * 8, "{budget}: {s:?}");
        }
        assert_eq!(Schedule::new(20_000, 170, 5, false, 0).unwrap().last, 1);
        let e = Schedule::new(100, 170, 5, true, 0).unwrap_err();
        assert_eq!(e.field, "budget");
    }

    #[test]
    fn the_coarse_sweep_halves_on_equal_shares_down_to_its_keep() {
        let r = |candidates, samples| CoarseRound {
            candidates,
            samples,
        };
        // 6000 samples over 220 candidates: 220, 110, 55, 27 (13 would be below 16); each
        // round the share left over the rounds left, floored: 1320, 1540, 1540, 1593.
        assert_eq!(
            Schedule::coarse_rounds(6000, 220),
            [r(220, 6), r(110, 14), r(55, 28), r(27, 59)]
        );
        // As many rounds as give the first one sample each of an equal share.
        assert_eq!(
            Schedule::coarse_rounds(2000, 400),
            [r(400, 1), r(200, 2), r(100, 4), r(50, 8), r(25, 16)]
        );
        // Too few samples to halve (fewer than COARSE_MEAN a candidate): one round, as
        // many each as the share gives, at least one.
        assert_eq!(Schedule::coarse_rounds(600, 220), [r(220, 2)]);
        assert_eq!(Schedule::coarse_rounds(100, 220), [r(220, 1)]);
        for (share, n) in [(6000, 1476), (6000, 17), (60_000, 300), (300_000, 4624)] {
            let rounds = Schedule::coarse_rounds(share, n);
            let used: u64 = rounds
                .iter()
                .map(|r| r.candidates as u64 * u64::from(r.samples))
                .sum();
            assert!(used <= share, "{share} {n}: {rounds:?}");
            assert_eq!(rounds[0].candidates, n);
            assert!(
                rounds
                    .windows(2)
                    .all(|w| w[1].candidates == w[0].candidates / 2)
            );
            assert!(rounds.last().unwrap().candidates >= COARSE_KEEP.min(n));
        }
    }
}
