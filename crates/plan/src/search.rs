//! The search itself: the candidates of the coarse sweep, their neighbours in the
//! refinement rounds, the allocation of the sample budget, and the evaluation of a round
//! (every candidate x sample shot in one batch, common random numbers, serial folding).
//!
//! **Candidates.** A candidate is an intended [`PlayerFlick`] and what it aims at
//! ([`AimAt`]). The coarse sweep, for every spin value of the search space:
//! - *hole*: from 5 places evenly spread over the offset range, aimed at the hole's
//!   centre at 0.98, 1.00, 1.03, 1.06 and 1.10 times the speed that stops there;
//! - *each opponent disc* (takeouts): from `p` places evenly spread over the offset range
//!   (both ends included; `p` is 13, 9, 5 or 3, the densest the budget covers,
//!   [`places_for`]), aimed at the disc's centre and half and a whole disc radius to either
//!   side of it (across the line of aim: cuts), at `sqrt(1.5)`, `sqrt(3)`, `sqrt(6)`, `sqrt(12)` times the
//!   speed that stops at the aiming point (a disc that would slide 1.5 to 12 times as far);
//! - *each own disc* (raises, and hits through it): from the `p` places, at its centre, at
//!   `sqrt(1.5)` and `sqrt(3)` times that speed;
//! - *open 15-zone points* (draws): 8 points on the circle halfway between the hole's edge
//!   and the innermost centre of a disc wholly in the 15 zone, at the 4 axes and 4
//!   diagonals (written with `sqrt` only), those clear of every disc by a disc diameter,
//!   from the `p` places, at 0.98 and 1.02 times the stopping speed;
//! - *the grid*: straight-ahead flicks (no target) from one place, the grid's offset, over
//!   `aims x speeds` values evenly spread over the aim and speed ranges, with the first
//!   spin value. Its cells compete like every other candidate; their values are the heat
//!   map of the output.
//!
//! Speeds are kept within the speed range; candidates that are not legal where they stand
//! ([`Setup::legal`]) are left out (a grid cell then has no value). With `targets: false`
//! only the grid is swept.
//!
//! The coarse sweep is a successive halving ([`Schedule::coarse_rounds`](super::schedule::Schedule::coarse_rounds)): every
//! candidate gets a few samples, the better half more, and so on, so the candidates that
//! could be the best starting points are ranked on several times the samples of the rest.
//!
//! The stopping speed over `d` is `sqrt(2 mu g d)` ([`Setup::stopping_speed`]): friction
//! `mu g` decelerates a sliding disc uniformly, so from `v` it slides `v^2 / (2 mu g)`.
//!
//! **Neighbours** at step level `l` (from 0, [`steps`]): the parent itself and the parent
//! with one parameter moved either way: offset by `12 mm / 2^l`, aim by `10 mrad / 2^l`,
//! speed by a factor `1 -+ 0.04 / 2^l`; those outside the search space or illegal are left
//! out. A targeted neighbour keeps its target (moving the offset turns it to still face
//! it). A parent's level is its climb's: 0 for a coarse candidate, then one more after a
//! round where the parent stayed the best of its neighbourhood, the same after a round
//! where a neighbour beat it, one less after a plateau ([`next_levels`]).
//! Neighbourhoods of nearby parents overlap: a round keeps one of each flick
//! ([`distinct`], at the finest level of the round's parents), so no budget goes to
//! evaluating the same flick twice and no two parents are the same flick.
//!
//! **The race** ([`RACE_ROUNDS`](super::schedule::RACE_ROUNDS)): after the refinement, the best [`RACE_PARENTS`](super::schedule::RACE_PARENTS)
//! candidates of the last round (at most [`PER_FAMILY`](super::schedule::PER_FAMILY) of a family) and their neighbours
//! at the last round's nominal steps (up to 42 flicks, fewer once duplicates are dropped)
//! race on fresh random numbers by successive halving: each round evaluates those still in with
//! equal samples (common random numbers), ranks them by their sums over the race so far
//! and keeps the better half, so the budget goes to the candidates that could still be the
//! best. The race can move the last round's choice one step in any parameter on more
//! samples than the round had.

use super::objective::{Judged, Objective, Stats};
use super::schedule::{COARSE_MEAN, coarse_share};
use super::setup::Setup;
use super::space::{Space, spread};
use crokinole_core::batch::{DEFAULT_CHUNK, Finished, SAMPLE_SPLIT, map_ordered_until};
use crokinole_core::cancel::{Cancel, CancelReason, Cancelled};
use crokinole_core::shot::{Flick, ShotError, run_shot_until};
use crokinole_montecarlo::flick::start_position;
use crokinole_montecarlo::{FlickSampler, Noise, PlayerFlick};
use glam::DVec2;

/// What a candidate aims at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AimAt {
    /// Nothing: `aim` is measured from straight ahead (the grid).
    Straight,
    /// The centre of the 20 hole.
    Hole,
    /// Disc `id` of the position (of team `team`), hit at its centre or to one side.
    Disc {
        /// Its id in the position.
        id: usize,
        /// Its team.
        team: u8,
    },
    /// An open point of the 15 zone.
    Point {
        /// The point, board frame, m.
        pos: DVec2,
    },
}

impl AimAt {
    /// The family of candidates aiming at the same thing: the refinement keeps at most
    /// two parents of a family and the final evaluation prefers one of each.
    pub(crate) fn family(self, points: &[DVec2]) -> u64 {
        match self {
            AimAt::Straight => 0,
            AimAt::Hole => 1,
            AimAt::Disc { id, .. } => 2 + id as u64,
            AimAt::Point { pos } => {
                1 << 32 | points.iter().position(|p| *p == pos).unwrap_or(0) as u64
            }
        }
    }
}

/// A flick the search considers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// The intended flick.
    pub flick: PlayerFlick,
    /// What it aims at.
    pub aim_at: AimAt,
    /// Its initial conditions (it is legal).
    pub start: Flick,
}

/// How many places along the offset range the targeted candidates at discs and points
/// may start from, densest first: the coarse sweep takes the densest its share of the
/// budget covers with [`COARSE_MEAN`] samples a candidate ([`places_for`]), else the last.
/// At 13 places (32 mm apart on the default range) every offset is within 16 mm of one,
/// a step and a half of the first refinement round.
pub const PLACES: [u32; 4] = [13, 9, 5, 3];

/// The coarse candidates and grid cells ([`coarse`]) at the densest of [`PLACES`] whose
/// candidates the coarse share of `budget` ([`coarse_share`]) covers with [`COARSE_MEAN`]
/// samples each, or at the sparsest if none is; without noise (one sample a flick), the
/// same rule, so the sweep stays as bounded as with noise. Returns how many places it
/// took, the candidates and the cells.
pub fn places_for(
    setup: &Setup,
    space: &Space,
    grid: bool,
    budget: u64,
) -> (u32, Vec<Candidate>, Vec<Vec<Option<usize>>>) {
    let share = coarse_share(budget);
    let mut swept = (0, Vec::new(), Vec::new());
    for (k, &places) in PLACES.iter().enumerate() {
        let (cands, cells) = coarse(setup, space, grid, places);
        swept = (places, cands, cells);
        if k + 1 == PLACES.len() || swept.1.len() as u64 * COARSE_MEAN <= share {
            break;
        }
    }
    swept
}
/// Speed factors of a 20 attempt, of the speed that stops at the hole's centre.
const HOLE_FACTORS: [f64; 5] = [0.98, 1.0, 1.03, 1.06, 1.10];
/// Stopping-distance multiples of a takeout (speed factors are their square roots).
const TAKEOUT_REACH: [f64; 4] = [1.5, 3.0, 6.0, 12.0];
/// Stopping-distance multiples of a shot at an own disc.
const RAISE_REACH: [f64; 2] = [1.5, 3.0];
/// Speed factors of a draw to a 15-zone point.
const DRAW_FACTORS: [f64; 2] = [0.98, 1.02];
/// Lateral aiming offsets on an opponent disc, in disc radii.
const TAKEOUT_SIDES: [f64; 5] = [-1.0, -0.5, 0.0, 0.5, 1.0];

/// Builds candidates, keeping the legal ones.
struct Builder<'s> {
    setup: &'s Setup,
    space: &'s Space,
    out: Vec<Candidate>,
}

impl Builder<'_> {
    /// A flick from `offset` toward `target` (or straight ahead turned by `aim` if
    /// `None`) at `speed` kept within the speed range; `Some(index)` if it was legal.
    fn push(
        &mut self,
        aim_at: AimAt,
        offset: f64,
        target: Option<DVec2>,
        aim: f64,
        speed: f64,
        spin: f64,
    ) -> Option<usize> {
        let flick = PlayerFlick {
            offset,
            aim,
            target,
            speed: speed.max(self.space.speed[0]).min(self.space.speed[1]),
            spin,
        };
        let start = self.setup.legal(&flick)?;
        self.out.push(Candidate {
            flick,
            aim_at,
            start,
        });
        Some(self.out.len() - 1)
    }

    /// A flick from `offset` toward `target` at `factor` times the stopping speed there.
    fn toward(&mut self, aim_at: AimAt, offset: f64, target: DVec2, factor: f64, spin: f64) {
        let start = start_position(self.setup.board(), self.setup.seat(), offset);
        let speed = self.setup.stopping_speed((target - start).length()) * factor;
        self.push(aim_at, offset, Some(target), 0.0, speed, spin);
    }
}

/// The open 15-zone points (see the module documentation): on the circle of radius
/// `(hole_radius + r15) / 2`, `r15` the largest distance of the centre of a disc wholly
/// inside the 15 line, at the axes and diagonals; those at least a disc diameter from
/// every disc of the position.
pub fn fifteen_points(setup: &Setup) -> Vec<DVec2> {
    let board = setup.board();
    let r = setup.physics().disc_radius;
    let r15 = board.fifteen_line_radius - 0.5 * board.line_width - r;
    let rho = 0.5 * (board.hole_radius + r15);
    let d = rho * std::f64::consts::FRAC_1_SQRT_2;
    [
        DVec2::new(0.0, -rho),
        DVec2::new(d, -d),
        DVec2::new(rho, 0.0),
        DVec2::new(d, d),
        DVec2::new(0.0, rho),
        DVec2::new(-d, d),
        DVec2::new(-rho, 0.0),
        DVec2::new(-d, -d),
    ]
    .into_iter()
    .filter(|p| {
        setup
            .discs()
            .iter()
            .all(|q| (q.pos - *p).length() >= 2.0 * r)
    })
    .collect()
}

/// The coarse sweep with the targeted candidates at discs and points from `places` places
/// evenly spread over the offset range (the hole's from 5): the candidates in a fixed
/// order, and the grid's cells (row per speed, one entry per aim: the candidate's index,
/// `None` where the flick is illegal; no rows if `grid` is false).
pub fn coarse(
    setup: &Setup,
    space: &Space,
    grid: bool,
    places: u32,
) -> (Vec<Candidate>, Vec<Vec<Option<usize>>>) {
    let mut b = Builder {
        setup,
        space,
        out: Vec::new(),
    };
    let [lo, hi] = space.offset;
    let five = spread(lo, hi, 5);
    let places = spread(lo, hi, places);
    let r = setup.physics().disc_radius;
    let points = fifteen_points(setup);
    if space.targets {
        for &spin in &space.spin {
            for &o in &five {
                for f in HOLE_FACTORS {
                    b.toward(AimAt::Hole, o, DVec2::ZERO, f, spin);
                }
            }
            for (id, d) in setup.discs().iter().enumerate() {
                let aim_at = AimAt::Disc { id, team: d.team };
                let opponent = d.team != setup.team();
                let (sides, reach): (&[f64], &[f64]) = if opponent {
                    (&TAKEOUT_SIDES, &TAKEOUT_REACH)
                } else {
                    (&[0.0], &RAISE_REACH)
                };
                for &o in &places {
                    let start = start_position(setup.board(), setup.seat(), o);
                    let along = (d.pos - start).normalize_or_zero();
                    let across = DVec2::new(-along.y, along.x);
                    for &side in sides {
                        let target = d.pos + across * (side * r);
                        for &k in reach {
                            b.toward(aim_at, o, target, k.sqrt(), spin);
                        }
                    }
                }
            }
            for &p in &points {
                for &o in &places {
                    for f in DRAW_FACTORS {
                        b.toward(AimAt::Point { pos: p }, o, p, f, spin);
                    }
                }
            }
        }
    }
    if !grid {
        return (b.out, Vec::new());
    }
    let go = space.grid_offset();
    let spin = space.spin.first().copied().unwrap_or(0.0);
    let aims = spread(space.aim[0], space.aim[1], space.grid.aims);
    let grid = spread(space.speed[0], space.speed[1], space.grid.speeds)
        .into_iter()
        .map(|v| {
            aims.iter()
                .map(|&a| b.push(AimAt::Straight, go, None, a, v, spin))
                .collect()
        })
        .collect();
    (b.out, grid)
}

/// The neighbours of `parent` at step level `level` (steps halved `level` times; see the
/// module documentation), the parent first.
pub fn neighbours(setup: &Setup, space: &Space, parent: &Candidate, level: u32) -> Vec<Candidate> {
    let (dof, daim, dspeed) = steps(level);
    let f = parent.flick;
    let mut out = vec![*parent];
    let aim_limit = match parent.aim_at {
        AimAt::Straight => space.aim,
        _ => [-std::f64::consts::PI, std::f64::consts::PI],
    };
    let [olo, ohi] = space.offset;
    let [vlo, vhi] = space.speed;
    let moves = [
        (f.offset - dof, f.aim, f.speed),
        (f.offset + dof, f.aim, f.speed),
        (f.offset, f.aim - daim, f.speed),
        (f.offset, f.aim + daim, f.speed),
        (f.offset, f.aim, f.speed * (1.0 - dspeed)),
        (f.offset, f.aim, f.speed * (1.0 + dspeed)),
    ];
    for (offset, aim, speed) in moves {
        let inside = (olo..=ohi).contains(&offset)
            && (aim_limit[0]..=aim_limit[1]).contains(&aim)
            && (vlo..=vhi).contains(&speed);
        if !inside {
            continue;
        }
        let flick = PlayerFlick {
            offset,
            aim,
            speed,
            ..f
        };
        if let Some(start) = setup.legal(&flick) {
            out.push(Candidate {
                flick,
                aim_at: parent.aim_at,
                start,
            });
        }
    }
    out
}

/// The steps of the neighbours at step level `level`: offset (m), aim (rad) and speed
/// (a fraction of the speed), 12 mm, 10 mrad and 4 % halved `level` times.
pub fn steps(level: u32) -> (f64, f64, f64) {
    let mut scale = 1.0;
    for _ in 0..level {
        scale *= 0.5;
    }
    (0.012 * scale, 0.010 * scale, 0.04 * scale)
}

/// The step level of each candidate of a refinement round as a parent of the next one,
/// from the round's statistics and, for each candidate `i`, `from[i]`: which parent's
/// neighbourhood it is in (its place among the round's parents), that neighbourhood's
/// level `l`, and whether it is the parent itself. By what the round said about the
/// parent's neighbourhood:
/// - **the parent stayed the best** (its sum above every neighbour's): the climb is near
///   a top, and the next steps are half as long (`l + 1`);
/// - **a neighbour beat it**: the climb moves and may have farther to go, and the steps
///   keep their length (`l`), so a climb whose best flick lies several coarse steps away
///   gets there instead of stalling on shrinking steps;
/// - **a plateau**: the parent has the best sum and a neighbour exactly the same, so the
///   round could not tell the climb which way to go (ties go to the lowest index, the
///   parent, so the climb would stand still while its steps shrink); the next steps are
///   twice as long (`l - 1`). At the widest steps already (`l` 0) they stay so, unless
///   `dense` (the coarse sweep started from more than the sparsest [`PLACES`]): then no
///   climb needs the widest steps to travel to its top (every offset is within a step or
///   two of a start), the same neighbourhood again would tell nothing new, and the steps
///   are halved (`l + 1`), so a narrow ridge between the widest steps is found (on
///   `takeout.json` a cut 6 mm from a start, worth a point more than the plateau around
///   it).
///
/// Without the parent's own statistics in the round (it refused a sample, or it was
/// another parent's neighbour and counted there) the steps are halved.
pub fn next_levels(stats: &[Option<Stats>], from: &[(usize, u32, bool)], dense: bool) -> Vec<u32> {
    let parents = from.iter().map(|&(k, _, _)| k + 1).max().unwrap_or(0);
    let sum = |i: usize| stats.get(i).and_then(|s| s.as_ref()).map(Stats::rank_key);
    // Per neighbourhood: the parent's rank key ([`Stats::rank_key`]: the sum, then the
    // score changes') if it was evaluated in this round, the best key and how many of
    // its flicks have it.
    let mut own: Vec<Option<(i64, i64)>> = vec![None; parents];
    let mut best: Vec<Option<((i64, i64), usize)>> = vec![None; parents];
    for (i, &(k, _, parent)) in from.iter().enumerate() {
        let Some(s) = sum(i) else { continue };
        if parent {
            own[k] = Some(s);
        }
        best[k] = match best[k] {
            Some((b, n)) if b == s => Some((b, n + 1)),
            Some((b, n)) if b > s => Some((b, n)),
            _ => Some((s, 1)),
        };
    }
    from.iter()
        .map(|&(k, l, _)| match (own[k], best[k]) {
            (Some(o), Some((b, ties))) if o == b && ties >= 2 => match l {
                0 if dense => 1,
                _ => l.saturating_sub(1),
            },
            (Some(o), Some((b, _))) if o < b => l,
            _ => l + 1,
        })
        .collect()
}

/// Whether `a` and `b` are the same flick at step level `level`: the same target (or
/// none), spin and what they aim at, and offset, aim and speed within a quarter of the
/// level's steps of each other. Neighbourhoods of nearby parents share flicks, reached by
/// steps in another order: a rounding error apart, or a squared step for the speed
/// (`v (1 + d)(1 - d)` next to `v`).
pub fn same(a: &Candidate, b: &Candidate, level: u32) -> bool {
    let (dof, daim, dspeed) = steps(level);
    let (f, g) = (a.flick, b.flick);
    a.aim_at == b.aim_at
        && f.target == g.target
        && f.spin == g.spin
        && (f.offset - g.offset).abs() <= 0.25 * dof
        && (f.aim - g.aim).abs() <= 0.25 * daim
        && (f.speed - g.speed).abs() <= 0.25 * dspeed * f.speed.min(g.speed)
}

/// The indices of `order` (into `cands`), in order, without those that are the [`same`]
/// flick at step level `level` as an earlier one (the first of each flick is kept).
pub fn distinct(cands: &[Candidate], order: &[usize], level: u32) -> Vec<usize> {
    let mut kept: Vec<usize> = Vec::new();
    for &i in order {
        if !kept.iter().any(|&k| same(&cands[k], &cands[i], level)) {
            kept.push(i);
        }
    }
    kept
}

/// Evaluates every candidate with `m` noisy executions, in one batch: sample `j` of every
/// candidate is [`FlickSampler::sample`](crokinole_montecarlo::FlickSampler::sample)`(seed, j)` of that candidate under
/// `noise` (common random numbers: the same errors for every candidate), played as drawn
/// if it is legal here and as intended otherwise, run by the engine, judged by the rules
/// ([`Setup::judge`]). Shot `j n + c` of the batch (of `n` candidates) is candidate
/// `c`'s sample `j`; the batch runs on the current rayon pool through
/// [`crokinole_core::batch::map_ordered`] and the results are folded serially, each candidate's
/// in the order of `j`, so nothing depends on the thread count. `None` for a candidate
/// one of whose samples the engine refused (never for a legal flick).
pub fn evaluate(
    setup: &Setup,
    noise: Noise,
    objective: Objective,
    cands: &[Candidate],
    m: u32,
    seed: u64,
) -> Vec<Option<Stats>> {
    let done = evaluate_until(setup, noise, objective, cands, m, seed, &Cancel::never());
    done.items
}

/// [`evaluate`] that stops when `cancel` is cancelled (every sample checks it before and
/// while its shot runs, and no chunk of samples starts once it is). The samples run round
/// by round (sample `j` of every candidate, then sample `j + 1`), and a round counts only
/// when all of it finished, so a stopped evaluation gives every candidate's statistics
/// over the same first `k` samples (an empty `items` if not one round finished) and says
/// it stopped. Each candidate's samples are folded in the order of `j` either way, so
/// uncancelled, `items` is [`evaluate`]'s answer bit for bit.
pub fn evaluate_until(
    setup: &Setup,
    noise: Noise,
    objective: Objective,
    cands: &[Candidate],
    m: u32,
    seed: u64,
    cancel: &Cancel,
) -> Finished<Option<Stats>> {
    let samplers: Vec<Option<FlickSampler>> = cands
        .iter()
        .map(|c| setup.sampler(c.flick, noise).ok())
        .collect();
    let n = cands.len() as u64;
    let m64 = u64::from(m.max(1));
    let total = n * m64;
    // Shot `j n + c` is candidate `c`'s sample `j`.
    let sample = |i: u64| -> Result<Option<Judged>, Cancelled> {
        let (c, j) = ((i % n) as usize, i / n);
        let cand = &cands[c];
        let Some(sampler) = samplers[c].as_ref() else {
            return Ok(None);
        };
        let noisy = sampler.sample(seed, j);
        let flick = setup.legal(&noisy).unwrap_or(cand.start);
        let shot = setup.shot(flick);
        let outcome = match run_shot_until(setup.board(), setup.physics(), &shot, cancel) {
            Ok(o) => o,
            Err(ShotError::Input(_)) => return Ok(None),
            Err(ShotError::Cancelled(c)) => return Err(c),
        };
        Ok(setup
            .judge(&shot, &outcome)
            .map(|verdict| Judged::of(setup, &verdict)))
    };
    let judged = map_ordered_until(0..total, DEFAULT_CHUNK, sample, || cancel.is_cancelled())
        .split(SAMPLE_SPLIT);
    let mut stats: Vec<Option<Stats>> = vec![Some(Stats::default()); cands.len()];
    // The round under way, folded once whole.
    let mut round: Vec<Option<Judged>> = Vec::with_capacity(cands.len());
    let mut rounds = 0;
    for j in judged {
        let Ok(j) = j else { break };
        round.push(j);
        if round.len() == cands.len() {
            for (c, j) in round.drain(..).enumerate() {
                match (j, &mut stats[c]) {
                    (Some(j), Some(s)) => s.add(objective, &j),
                    _ => stats[c] = None,
                }
            }
            rounds += 1;
        }
    }
    if rounds < m64 && !cands.is_empty() {
        if rounds == 0 {
            stats.clear();
        }
        return Finished {
            items: stats,
            stopped: Some(
                cancel
                    .check()
                    .err()
                    .unwrap_or(Cancelled(CancelReason::Requested)),
            ),
        };
    }
    Finished {
        items: stats,
        stopped: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::per_candidate;

    #[test]
    fn spread_includes_both_ends() {
        assert_eq!(spread(-1.0, 1.0, 3), vec![-1.0, 0.0, 1.0]);
        assert_eq!(spread(0.3, 3.0, 1), vec![0.3]);
        assert_eq!(spread(2.0, 2.0, 5), vec![2.0]);
        let s = spread(0.1, 0.7, 7);
        assert_eq!((s[0], s[6], s.len()), (0.1, 0.7, 7));
        assert!(s.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn the_sweep_is_as_dense_as_the_budget_covers() {
        let mut situation = crokinole_montecarlo::Situation::at_seat(0);
        situation.discs = vec![crokinole_core::shot::Placed {
            team: 1,
            pos: DVec2::new(0.1, -0.14),
        }];
        let setup = Setup::new(situation, crokinole_rules::Ruleset::Traditional).unwrap();
        let space = Space::default_for(setup.board(), setup.physics());
        let count = |places| coarse(&setup, &space, true, places).0.len();
        let sizes = PLACES.map(count);
        assert!(sizes.windows(2).all(|w| w[0] > w[1]), "{sizes:?}");
        // The densest whose candidates the coarse share covers with COARSE_MEAN samples.
        let chosen = |budget| places_for(&setup, &space, true, budget).1.len();
        assert_eq!(chosen(20_000), sizes[0]);
        let just = |n: usize| (n as u64 * COARSE_MEAN * 10).div_ceil(3);
        assert_eq!(chosen(just(sizes[1])), sizes[1]);
        assert_eq!(chosen(just(sizes[1]) - 4), sizes[2]);
        // None covered: the sparsest.
        assert_eq!(chosen(1000), sizes[3]);
        // The same candidates as `coarse` at that many places, grid cells included.
        assert_eq!(places_for(&setup, &space, true, 20_000), {
            let (cands, cells) = coarse(&setup, &space, true, PLACES[0]);
            (PLACES[0], cands, cells)
        });
    }

    #[test]
    fn steps_halve_at_a_top_hold_on_a_slope_and_widen_on_a_plateau() {
        let s = |sum| {
            Some(Stats {
                n: 4,
                sum,
                ..Stats::default()
            })
        };
        // Parent 0 (level 1): its sum, 100, is the best and a neighbour has it too: a
        // plateau, wider. Parent 1 (level 2): a neighbour is better (90): the climb moves,
        // same steps. Parent 2 (level 2): two neighbours tie above the parent: it moves.
        // Parent 3 (level 0): a plateau already at the widest steps stays there.
        // Parent 4 (level 1): alone, the best of its neighbourhood: halved. Parents 5
        // and 6 (level 1): its parent refused a sample, or was another's neighbour (not
        // in its own neighbourhood): halved. Parent 7 (level 0): the best: halved.
        let stats = [
            s(100),
            s(100),
            s(80),
            s(70),
            s(90),
            s(70),
            s(10),
            s(20),
            s(20),
            s(5),
            s(5),
            s(40),
            None,
            s(40),
            s(40),
            s(40),
            s(50),
            s(30),
        ];
        let from = [
            (0, 1, true),
            (0, 1, false),
            (0, 1, false),
            (1, 2, true),
            (1, 2, false),
            (1, 2, false),
            (2, 2, true),
            (2, 2, false),
            (2, 2, false),
            (3, 0, true),
            (3, 0, false),
            (4, 1, true),
            (5, 1, true),
            (5, 1, false),
            (6, 1, false),
            (6, 1, false),
            (7, 0, true),
            (7, 0, false),
        ];
        assert_eq!(
            next_levels(&stats, &from, false),
            [0, 0, 0, 2, 2, 2, 2, 2, 2, 0, 0, 2, 2, 2, 2, 2, 1, 1]
        );
        // After a dense sweep, parent 3's plateau at the widest steps halves them instead.
        assert_eq!(
            next_levels(&stats, &from, true),
            [0, 0, 0, 2, 2, 2, 2, 2, 2, 1, 1, 2, 2, 2, 2, 2, 1, 1]
        );
        assert!(next_levels(&[], &[], false).is_empty());
    }

    #[test]
    fn rounds_keep_one_of_each_flick_and_share_their_samples() {
        let situation = crokinole_montecarlo::Situation::at_seat(0);
        let setup = Setup::new(situation, crokinole_rules::Ruleset::Traditional).unwrap();
        let space = Space::default_for(setup.board(), setup.physics());
        let at = |offset: f64, speed: f64| {
            let flick = PlayerFlick {
                offset,
                aim: 0.0,
                target: None,
                speed,
                spin: 0.0,
            };
            let start = setup.legal(&flick).unwrap();
            Candidate {
                flick,
                aim_at: AimAt::Straight,
                start,
            }
        };
        // Level 1 steps 6 mm: a and b are each other's neighbours; c's slower neighbour is
        // a's speed times (1 + 2 %)(1 - 2 %), a squared step from it.
        let (a, b, c) = (at(0.0, 1.0), at(0.006, 1.0), at(0.0, 1.02));
        let near: Vec<Candidate> = [a, b, c]
            .iter()
            .flat_map(|p| neighbours(&setup, &space, p, 1))
            .collect();
        assert_eq!(near.len(), 21);
        let all: Vec<usize> = (0..near.len()).collect();
        let kept = distinct(&near, &all, 1);
        // Among b's: b itself and a; among c's: c itself (a's faster neighbour), its
        // slower neighbour (a) and its neighbour 6 mm right (b's faster one).
        assert_eq!(
            kept,
            [0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 15, 17, 18, 20]
        );
        assert!(kept.windows(2).all(|w| w[0] < w[1]) && kept[0] == 0);
        for (k, &i) in kept.iter().enumerate() {
            assert!(kept[..k].iter().all(|&j| !same(&near[j], &near[i], 1)));
        }
        // Farther than a quarter step is another flick.
        assert!(!same(&a, &at(0.0016, 1.0), 1) && same(&a, &at(0.0014, 1.0), 1));
        assert_eq!(per_candidate(1000, 42), 23);
        assert_eq!(per_candidate(1000, 17), 58);
        assert_eq!(per_candidate(0, 17), 1);
    }
}
