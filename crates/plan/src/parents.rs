//! Which candidates of a round go on: their order by value ([`ranking`]), those that could
//! still be the best ([`contenders`]), the kind of shot each is ([`kind`]: its target, and
//! for a disc a soft or a hard takeout), and the pick of a round's parents or the race's
//! entrants ([`pick`]): the best in rank order, a few of each kind and, early on, one per
//! climb's starting point, so the alternatives survive while they could still win.

use super::objective::Stats;
use super::search::{AimAt, Candidate};
use super::setup::Setup;
use glam::DVec2;

/// The order of candidates by their objective sums, best first, equal sums by their
/// score changes ([`Stats::rank_key`]); full ties go to the lowest index. Candidates
/// without statistics (a sample the engine refused) come last. Sums of candidates with
/// the same sample count compare exactly.
pub fn ranking(stats: &[Option<Stats>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..stats.len()).filter(|&i| stats[i].is_some()).collect();
    // A stable sort keeps full ties in index order.
    order.sort_by_key(|&i| std::cmp::Reverse(stats[i].as_ref().map(Stats::rank_key)));
    order
}

/// How many standard errors below the best a candidate may be and still count as a
/// contender ([`contenders`]).
pub const CONTENDER_Z: f64 = 2.0;

/// Which candidates could still be the best, by their statistics: those whose mean is
/// within [`CONTENDER_Z`] standard errors of the best's (`order[0]`), the two standard
/// errors added, `mean_i + z (se_i + se_best) >= mean_best`. Without statistics (a refused
/// sample) a candidate is not one. Every candidate is one when no sample varied (a search
/// without noise: the values are exact, and diversity is what lets a worse start climb
/// past a better one).
pub fn contenders(stats: &[Option<Stats>], order: &[usize]) -> Vec<bool> {
    let mean_se = |s: &Stats| {
        let n = s.n.max(1) as f64;
        let mean = s.sum as f64 / n;
        let var = if s.n > 1 {
            ((s.sum_sq as f64 - s.sum as f64 * mean) / (n - 1.0)).max(0.0)
        } else {
            0.0
        };
        (mean, (var / n).sqrt())
    };
    let Some(best) = order.first().and_then(|&b| stats[b].as_ref()) else {
        return vec![false; stats.len()];
    };
    let noiseless = stats.iter().flatten().all(|s| mean_se(s).1 == 0.0);
    let (best_mean, best_se) = mean_se(best);
    stats
        .iter()
        .map(|s| {
            s.as_ref().is_some_and(|s| {
                let (mean, se) = mean_se(s);
                noiseless || mean + CONTENDER_Z * (se + best_se) >= best_mean
            })
        })
        .collect()
}

/// The speed, as a multiple of the speed that would just stop at it, above which a flick
/// at a disc counts as a hard takeout ([`kind`]): between the soft takeouts' reaches (1.5
/// and 3 times the distance, factors 1.22 and 1.73, `TAKEOUT_REACH` in `search.rs`) and the hard ones'
/// (6 and 12 times, factors 2.45 and 3.46).
pub const HARD_FACTOR: f64 = 2.0;

/// The kind of shot a candidate is, for the parents' diversity ([`pick`]): its target's
/// family (`AimAt::family`) and, for a flick at a disc, whether it is soft (the shooter
/// stays near where the disc was) or hard (it follows through or clears the area): two
/// different shots at one disc, each of which may be the best, which a quota by target
/// alone let the one that looked better early crowd out.
pub fn kind(setup: &Setup, points: &[DVec2], c: &Candidate) -> u64 {
    match c.aim_at {
        AimAt::Disc { id, .. } => {
            let reach = setup
                .discs()
                .get(id)
                .map_or(0.0, |d| (d.pos - c.start.pos).length());
            let hard = c.flick.speed > HARD_FACTOR * setup.stopping_speed(reach);
            c.aim_at.family(points) | u64::from(hard) << 40
        }
        other => other.family(points),
    }
}

/// Up to `count` candidates in rank order: first the contenders (`contender[i]`; all
/// when `None`), at most `per_family` of each family and, with `lineage` (a number per
/// candidate: where its climb started), at most one of each lineage; if that leaves fewer
/// than `count`, the best of the rest fill up, in rank order. A candidate's family is
/// `family(i)` ([`kind`] for the search's parents, `AimAt::family` for the reported
/// alternatives). So a family is kept alive by its own quota only while it could still be
/// the best: a family clearly beaten leaves its places to more climbs of the better ones.
pub fn pick(
    order: &[usize],
    count: usize,
    per_family: usize,
    family: impl Fn(usize) -> u64,
    lineage: Option<&[usize]>,
    contender: Option<&[bool]>,
) -> Vec<usize> {
    let mut chosen: Vec<usize> = Vec::new();
    let mut families: Vec<(u64, usize)> = Vec::new();
    let mut lines: Vec<usize> = Vec::new();
    for &i in order {
        if chosen.len() == count {
            break;
        }
        if contender.is_some_and(|c| !c[i]) {
            continue;
        }
        let line = lineage.map(|l| l[i]);
        if line.is_some_and(|l| lines.contains(&l)) {
            continue;
        }
        let fam = family(i);
        let slot = match families.iter_mut().find(|(f, _)| *f == fam) {
            Some(slot) => slot,
            None => {
                families.push((fam, 0));
                families.last_mut().expect("just pushed")
            }
        };
        if slot.1 < per_family {
            slot.1 += 1;
            chosen.push(i);
            lines.extend(line);
        }
    }
    for &i in order {
        if chosen.len() == count {
            break;
        }
        if !chosen.contains(&i) {
            chosen.push(i);
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crokinole_montecarlo::PlayerFlick;

    /// Stats of `values`, one sample each.
    fn stats_of(values: &[i64]) -> Option<Stats> {
        Some(Stats {
            n: values.len() as u64,
            sum: values.iter().sum(),
            sum_sq: values.iter().map(|&v| i128::from(v) * i128::from(v)).sum(),
            ..Stats::default()
        })
    }

    #[test]
    fn contenders_are_within_two_standard_errors_of_the_best() {
        // The best: mean 10, se 1 (values 8 and 12 alternating, 8 samples: sd 2.14, se 0.76).
        let best = stats_of(&[8, 12, 8, 12, 8, 12, 8, 12]);
        // Mean 8 with the same spread: 10 - 8 = 2 < 2 (0.76 + 0.76), a contender.
        let close = stats_of(&[6, 10, 6, 10, 6, 10, 6, 10]);
        // Mean 5: 5 > 3.0 below, not one.
        let far = stats_of(&[3, 7, 3, 7, 3, 7, 3, 7]);
        let stats = [far, best, None, close];
        let order = ranking(&stats);
        assert_eq!(order, [1, 3, 0]);
        assert_eq!(contenders(&stats, &order), [false, true, false, true]);
        // Without noise (no sample varied) every candidate with statistics is one.
        let exact = [stats_of(&[5, 5]), stats_of(&[9, 9]), None];
        let order = ranking(&exact);
        assert_eq!(contenders(&exact, &order), [true, true, false]);
    }

    #[test]
    fn equal_probabilities_rank_by_their_score_changes() {
        // P(20) of 0 for all three (a hard position): the flick that does more for the
        // score ranks first, whatever its index; a higher sum still beats any change.
        let with = |sum: i64, change_sum: i64| {
            Some(Stats {
                n: 4,
                sum,
                change_sum,
                ..Stats::default()
            })
        };
        let stats = [with(0, 0), with(0, 100), with(0, 40), with(1, -20)];
        assert_eq!(ranking(&stats), [3, 1, 2, 0]);
        // Full ties keep the index order.
        assert_eq!(ranking(&[with(0, 5), with(0, 5)]), [0, 1]);
    }

    #[test]
    fn pick_fills_a_kinds_quota_only_with_contenders() {
        // In rank order: three of kind 0, then one of kind 1 that is not a contender.
        let kinds = [0u64, 0, 0, 1];
        let order = [0, 1, 2, 3];
        let contender = [true, true, true, false];
        // Quota 2 a kind, 3 places: by kind alone the beaten kind 1 takes the third place
        // ahead of the third of kind 0; as a non-contender it waits for the rest.
        assert_eq!(pick(&order, 3, 2, |i| kinds[i], None, None), [0, 1, 3]);
        assert_eq!(
            pick(&order, 3, 2, |i| kinds[i], None, Some(&contender)),
            [0, 1, 2]
        );
        assert_eq!(
            pick(&order, 4, 2, |i| kinds[i], None, Some(&contender)),
            [0, 1, 2, 3]
        );
    }

    #[test]
    fn a_flick_at_a_disc_is_soft_or_hard_by_its_speed_for_the_distance() {
        let mut situation = crokinole_montecarlo::Situation::at_seat(0);
        situation.discs = vec![crokinole_core::shot::Placed {
            team: 1,
            pos: DVec2::new(0.0, 0.1),
        }];
        let setup = Setup::new(situation, crokinole_rules::Ruleset::Traditional).unwrap();
        let at = |speed: f64, aim_at: AimAt| {
            let flick = PlayerFlick {
                offset: 0.0,
                aim: 0.0,
                target: None,
                speed,
                spin: 0.0,
            };
            let start = setup.legal(&flick).unwrap();
            Candidate {
                flick,
                aim_at,
                start,
            }
        };
        let disc = AimAt::Disc { id: 0, team: 1 };
        // The disc is 0.4048 m from the line's middle: the speed that just stops there.
        let need = setup.stopping_speed(0.1 + 0.3048);
        let soft = kind(&setup, &[], &at(1.9 * need, disc));
        let hard = kind(&setup, &[], &at(2.1 * need, disc));
        assert_eq!(soft, disc.family(&[]));
        assert_ne!(soft, hard);
        // Other targets keep their family whatever the speed.
        assert_eq!(
            kind(&setup, &[], &at(2.1 * need, AimAt::Straight)),
            AimAt::Straight.family(&[])
        );
    }

    #[test]
    fn ties_rank_by_index_and_families_spread() {
        let s = |sum| {
            Some(Stats {
                n: 1,
                sum,
                ..Stats::default()
            })
        };
        assert_eq!(
            ranking(&[s(5), None, s(10), s(10), s(-5)]),
            vec![2, 3, 0, 4]
        );
    }

    #[test]
    fn one_parent_per_lineage_then_the_rest() {
        // One kind; candidates 0 and 1 started from the same place (lineage 7).
        let (order, lineage) = ([0, 1, 2, 3], [7, 7, 8, 9]);
        let kind = |_: usize| 0;
        assert_eq!(pick(&order, 3, 3, kind, Some(&lineage), None), [0, 2, 3]);
        assert_eq!(pick(&order, 4, 3, kind, Some(&lineage), None), [0, 2, 3, 1]);
        assert_eq!(pick(&order, 3, 3, kind, None, None), [0, 1, 2]);
    }
}
