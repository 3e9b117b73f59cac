//! Merge the shard states of one study (`crokinole merge`), verifying each shard first by
//! re-simulating a random few of its samples.
//!
//! A state's checksum only guards against accidents (a truncated or damaged file): it is
//! unkeyed, so whoever edits a state can recompute it. What makes an edit detectable is
//! that samples are deterministic: a state carries its study and every sample's result
//! (`records`), its counts must add up to those records (checked on reading), and
//! [`verify_shard`] re-runs `K` samples chosen at random from a seed the forger does not
//! know and compares them with the records. A state with `m` of its `n` records edited
//! passes with probability about `(1 - m/n)^K`.

use crokinole_core::error::InputError;
use crokinole_montecarlo::tally::POSITIONS_CAP;
use crokinole_montecarlo::{SampleResult, Study, Tally};
use rayon::prelude::*;
use std::collections::BTreeSet;

/// Samples re-simulated per shard by default (`crokinole merge --verify`).
pub const DEFAULT_VERIFY: u64 = 8;

/// SplitMix64: the next value of the stream `state`.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `k` distinct samples of `tally`'s range (all of them if it holds no more), chosen from
/// `seed`, in order.
pub fn verify_picks(tally: &Tally, k: u64, seed: u64) -> Vec<u64> {
    let (start, len) = (tally.range.start, tally.range.end - tally.range.start);
    if len <= k {
        return tally.range.clone().collect();
    }
    let mut state = seed ^ start.rotate_left(17);
    let mut picks = BTreeSet::new();
    while (picks.len() as u64) < k {
        picks.insert(start + splitmix(&mut state) % len);
    }
    picks.into_iter().collect()
}

/// A sample's result in words, for a message.
fn describe(r: &SampleResult) -> String {
    format!(
        "class {}, score change {}, {} opponent hits, opponents moved {}, cut off {}",
        r.class.name(),
        r.score_change,
        r.opponent_hits,
        r.opponents_moved,
        r.cut_off
    )
}

/// Verifies the shard `name` (its tally and the study it carries): re-simulates `k`
/// samples chosen from `seed` ([`verify_picks`]) on the current rayon pool and refuses the
/// shard, naming it and the first sample that differs, if a result (or a kept final
/// position) is not what the state records. `k` 0 verifies nothing. A state without
/// records (a shard of more than `RECORDS_CAP` samples) cannot be verified and is refused
/// unless `k` is 0.
pub fn verify_shard(
    name: &str,
    tally: &Tally,
    study: &Study,
    k: u64,
    seed: u64,
) -> Result<(), InputError> {
    if k == 0 {
        return Ok(());
    }
    let Some(records) = &tally.records else {
        return Err(InputError::new(
            "records",
            format!(
                "shard `{name}` carries no per-sample records (it holds more than {} samples), so it cannot be verified: run the study in more shards, or merge with --verify 0",
                crokinole_montecarlo::tally::RECORDS_CAP
            ),
        ));
    };
    let shooter = study.spec().situation.discs.len();
    let picks = verify_picks(tally, k, seed);
    let found: Vec<Option<String>> = picks
        .par_iter()
        .with_max_len(1)
        .map(|&i| {
            let k = (i - tally.range.start) as usize;
            let s = study.sample(tally.seed, i);
            let want = records[k].result();
            if s.result != want {
                return Some(format!(
                    "re-simulated it gives {}; the state records {}",
                    describe(&s.result),
                    describe(&want)
                ));
            }
            let pos = s.outcome.discs[shooter].pos;
            match tally.positions.get(k).filter(|_| i < POSITIONS_CAP) {
                Some(kept)
                    if kept.to_array().map(f64::to_bits) != pos.to_array().map(f64::to_bits) =>
                {
                    Some(format!(
                        "re-simulated, the shot disc ends at {:?}; the state keeps {:?}",
                        pos.to_array(),
                        kept.to_array()
                    ))
                }
                _ => None,
            }
        })
        .collect();
    for (i, problem) in picks.iter().zip(found) {
        if let Some(problem) = problem {
            return Err(InputError::new(
                "records",
                format!(
                    "shard `{name}` does not hold what its study gives: sample {i}: {problem}. \
                     The state was edited or made by another engine: run the shard again"
                ),
            ));
        }
    }
    Ok(())
}

/// Merges the named tallies ([`Tally::merge`]) after verifying each with
/// [`verify_shard`] (`k` samples each, chosen from `seed`).
pub fn merge(shards: Vec<(String, Tally, Study)>, k: u64, seed: u64) -> Result<Tally, InputError> {
    let mut parts = Vec::with_capacity(shards.len());
    for (name, tally, study) in shards {
        verify_shard(&name, &tally, &study, k, seed)?;
        parts.push((name, tally));
    }
    Tally::merge(parts)
}
