//! The shot planner: which flick should this seat play here? (`crokinole suggest`,
//! `docs/suggest.md`.)
//!
//! Given a position, the seat, the rule set and the player's error ([`Request`]), the
//! planner searches the flicks the seat can play (place along its part of the shooting
//! line, aim, speed, spin) for the one with the best expected value under the error,
//! every execution judged through the rules layer ([`objective`]). The search
//! ([`search`]) is four stages, run in this order by [`suggest`], one function each
//! (named after the stage):
//!
//! 1. **Coarse sweep** (`coarse_sweep`): a few hundred to about 1,500 candidates aimed at
//!    what matters (the 20 hole, each opponent disc for takeouts, own discs, open points of
//!    the 15 zone) from several places on the line (as many as the budget covers,
//!    [`search::places_for`]) and at several speeds, plus a grid of straight-ahead flicks
//!    over (aim, speed) from one place, which is also the output's heat map (given a
//!    stage of its own, `grid`, when the sweep halves: [`schedule::Schedule::grid`]). The sweep is
//!    a successive halving ([`schedule::CoarseRound`]): every candidate gets a few noisy
//!    executions, the better half more, and so on, so the best starting points are ranked
//!    on several times the samples of the others.
//! 2. **Refinement** (`refine`): up to three rounds; each keeps the best
//!    [`schedule::PARENTS`] candidates (at most [`schedule::PER_FAMILY`] of a kind of shot,
//!    [`parents::kind`]: the same target, and for a disc the same soft or hard takeout, so
//!    the alternatives survive, but only among the [`parents::contenders`], those within
//!    two standard errors of the best, so a kind clearly beaten leaves its places to the
//!    better ones; in the first [`schedule::APART`] rounds at most one per coarse candidate
//!    a climb started from, so several starting points climb before they compete), adds each one's neighbours (offset, aim and speed moved either
//!    way; each climb's steps are halved when its parent stayed the best of its
//!    neighbourhood, kept while a neighbour beats it and doubled on a plateau,
//!    [`search::next_levels`]), keeps one of each flick, and evaluates them all again
//!    with more samples (the rounds' shares in the ratio 1 : 2 : 4).
//! 3. **Race** (`race`): the best [`schedule::RACE_PARENTS`] of the last round and their
//!    neighbours at the last round's nominal steps race on fresh
//!    random numbers by successive halving ([`schedule::RACE_ROUNDS`] rounds): each round
//!    evaluates those still in with equal samples and keeps the better half by their sums
//!    over the race, so the budget goes to the candidates that could still be the best.
//! 4. **Final evaluation** (`final_evaluation`): the best `top` candidates (one per
//!    target first, looked for in the race, the last round, then the earlier rounds and
//!    the coarse sweep), each with the same samples, on fresh random numbers, so their
//!    estimates carry no selection bias from earlier stages. The race's entrants keep the
//!    race's order (it ranked them on more samples than the final gives each); the others
//!    follow, ranked by the final evaluation.
//!
//! **Fair comparisons**: within a round sample `j` of every candidate uses the same
//! random numbers ([`FlickSampler::sample`](crokinole_montecarlo::FlickSampler::sample) with the round's seed:
//! common random numbers), so candidates are compared under the same errors. Each round
//! has its own seed, `mix(seed, round)` ([`crokinole_montecarlo::noise::mix`]).
//!
//! **Budget** ([`Budget`]): in samples (simulated shots, the whole search included), or
//! in seconds: a pilot run of the coarse candidates measures this position's throughput
//! on this machine and turns the time into a sample budget, reported in the output;
//! re-running with that sample budget gives the same result exactly. The clock is read
//! between stages only, before each refinement round and before the race (skipped once
//! the time is up): a stage under way runs to its end, and the final evaluation always
//! runs.
//!
//! **Determinism**: all the shots of a round run in one batch on the rayon pool
//! ([`crokinole_core::batch::map_ordered`]), each a function of its index alone; results are
//! folded serially in input order into integer sums; candidates are compared by exact
//! integer sums and ties go to the lowest index. Geometry uses `+ - * /` and `sqrt` only
//! (and [`crokinole_montecarlo::detmath`] inside the flick conversion). For a sample budget
//! the plan depends on the request, the configuration and the seed only, never on the
//! thread count.
//!
//! ```
//! use crokinole_plan::{Budget, PlanConfig, Request, suggest};
//! use crokinole_montecarlo::{Noise, Situation};
//! use crokinole_rules::Ruleset;
//!
//! let noise = Noise { offset: 0.002, aim: 0.004, speed: 0.01, spin: 0.0 };
//! let seat = Situation { noise, ..Situation::at_seat(0) }; // an empty board
//! let request = Request::new(seat, Ruleset::Traditional);
//! let config = PlanConfig { budget: Budget::Samples(3000), top: 1, ..PlanConfig::default() };
//! let plan = suggest(&request, &config).unwrap();
//! assert!(plan.top[0].value.mean > 15.0); // an empty board: a 20 most of the time
//! ```

pub mod config;
mod grid;
pub mod objective;
pub mod parents;
mod rounds;
pub mod schedule;
pub mod search;
pub mod setup;
pub mod space;

use rounds::Rounds;
pub use rounds::Stage;

pub use config::{
    Budget, DEFAULT_BUDGET, DEFAULT_TOP, MAX_BUDGET, MAX_SECONDS, MAX_TOP, PlanConfig,
};
pub use grid::Grid;
pub use objective::{Estimate, Judged, Objective, Stats};
pub use schedule::Schedule;
pub use search::{AimAt, Candidate};
pub use setup::Setup;
pub use space::{GridSpec, Space};

use crokinole_core::cancel::Cancel;
use crokinole_core::error::InputError;
use crokinole_montecarlo::noise::mix;
use crokinole_montecarlo::tally::Proportion;
use crokinole_montecarlo::{Noise, PlayerFlick, Situation};
use crokinole_rules::Ruleset;
use glam::DVec2;
use std::time::{Duration, Instant};

/// The question: a seat about to shoot (the position, the table, the player's error), the
/// rule set and the flicks to consider.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// The seat about to shoot: board, physics, table, discs at rest, the player's error.
    pub situation: Situation,
    /// The rule set the shot is judged by.
    pub ruleset: Ruleset,
    /// The flicks to consider.
    pub space: Space,
}

impl Request {
    /// A request with the default search space ([`Space::default_for`]).
    pub fn new(situation: Situation, ruleset: Ruleset) -> Request {
        let space = Space::default_for(&situation.board, &situation.physics);
        Request {
            situation,
            ruleset,
            space,
        }
    }

    /// The seat about to shoot, checked: the situation ([`Setup::new`]: table, seat,
    /// position, noise) and the search space ([`Space::check`]).
    pub fn setup(&self) -> Result<Setup, InputError> {
        let setup = Setup::new(self.situation.clone(), self.ruleset)?;
        self.space.check(setup.board(), setup.physics())?;
        Ok(setup)
    }
}

/// One suggested flick with its estimates.
#[derive(Clone, Debug, PartialEq)]
pub struct Suggestion {
    /// Rank, from 1.
    pub rank: usize,
    /// The intended flick (a study file's `flick`).
    pub flick: PlayerFlick,
    /// What it aims at.
    pub aim_at: AimAt,
    /// Samples of the final evaluation.
    pub samples: u64,
    /// The objective's mean and 95 % interval.
    pub value: Estimate,
    /// The change in score difference's mean and 95 % interval (whatever the objective).
    pub score_change: Estimate,
    /// The shot disc's fates ([`ShotClass::ALL`](crokinole_montecarlo::ShotClass::ALL) order) with
    /// Wilson intervals.
    pub fates: [Proportion; 7],
    /// Probability that the shot hits an opponent disc.
    pub hit_opponent: Proportion,
}

/// The planner's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The objective maximised.
    pub objective: Objective,
    /// The seed.
    pub seed: u64,
    /// The skill level of the request's noise, when it is one
    /// ([`SkillLevel::of_noise`](crokinole_montecarlo::SkillLevel::of_noise)).
    pub skill: Option<String>,
    /// The budget as given.
    pub budget: Budget,
    /// The sample budget the search ran with (the given one, or the one a time budget
    /// was turned into): `Budget::Samples` of it reproduces this plan.
    pub budget_samples: u64,
    /// Shots simulated (the pilot of a time budget not included); at most
    /// `budget_samples`.
    pub samples_used: u64,
    /// The stages run.
    pub stages: Vec<Stage>,
    /// A time budget ran out before the search was done: the refinement and race stages
    /// it left were skipped (the final evaluation always runs).
    pub time_up: bool,
    /// A [`Cancel`] stopped the search before its end ([`suggest_until`]): `top` is then
    /// the best so far, ranked on the statistics of the last stage that finished (or on
    /// the rounds of samples of the coarse sweep every candidate finished), not a final
    /// evaluation, and empty if not one round of the coarse sweep finished.
    pub stopped: bool,
    /// The best flicks, best first.
    pub top: Vec<Suggestion>,
    /// The heat map, if swept.
    pub grid: Option<Grid>,
}

/// Plans a shot (see the module documentation). Refuses (with the field named) a bad
/// table, seat or position (`players`, `seat`, `discs[k].pos`), noise (`noise.aim`),
/// search space (`search.speed`), `top` (field `top`), budget (`budget`), and a search
/// space in which no flick is legal (`search`). Batches run on the current rayon pool.
///
/// The search is the four stages of the module documentation, one function each, run in
/// order (methods of the private `Planner`, which holds what they share).
pub fn suggest(request: &Request, config: &PlanConfig) -> Result<Plan, InputError> {
    suggest_until(request, config, &Cancel::never())
}

/// [`suggest`] that stops when `cancel` is cancelled: every evaluation checks it between
/// and within its samples, so the search stops within milliseconds and returns its best so
/// far, marked [`Plan::stopped`]: the candidates of the last stage that finished (the
/// coarse candidates on the rounds of samples all of them finished, if the coarse sweep
/// did not) ranked on their statistics there, no final evaluation. Uncancelled, the plan
/// is [`suggest`]'s.
pub fn suggest_until(
    request: &Request,
    config: &PlanConfig,
    cancel: &Cancel,
) -> Result<Plan, InputError> {
    let setup = checked_setup(request, config)?;
    // The sparsest sweep for a time budget's pilot, then the densest the budget covers.
    let sparsest = *search::PLACES.last().expect("places");
    let (cands, _) = coarse_candidates(&setup, &request.space, config.grid, sparsest)?;
    let start = Instant::now();
    let budget_samples = sample_budget(&setup, request, config, &cands, cancel)?;
    let (places, cands, cells) =
        search::places_for(&setup, &request.space, config.grid, budget_samples);
    let noisy = request.situation.noise != Noise::NONE;
    let legal_cells = cells.iter().flatten().filter(|c| c.is_some()).count();
    let schedule = Schedule::new(
        budget_samples,
        cands.len(),
        config.top,
        noisy,
        if config.grid { legal_cells } else { 0 },
    )?;
    let mut planner = Planner::new(&setup, request, config, schedule, start, cancel);
    planner.dense = places > sparsest;

    let (coarse, grid) = planner.coarse_sweep(cands, &cells, config.grid);
    let top = if planner.rounds.stopped {
        best_so_far(&coarse, planner.rounds.objective, config.top)
    } else {
        let refined = planner.refine(coarse);
        if planner.rounds.stopped {
            best_so_far(&refined.last, planner.rounds.objective, config.top)
        } else {
            let last = Evaluated {
                cands: refined.last.cands.clone(),
                stats: refined.last.stats.clone(),
                order: refined.last.order.clone(),
            };
            let raced = planner.race(refined.last);
            let top = if planner.rounds.stopped {
                Vec::new()
            } else {
                planner.final_evaluation(raced, refined.earlier, config.top)
            };
            if planner.rounds.stopped {
                best_so_far(&last, planner.rounds.objective, config.top)
            } else {
                top
            }
        }
    };

    let rounds = planner.rounds;
    Ok(Plan {
        objective: config.objective,
        seed: config.seed,
        skill: crokinole_montecarlo::SkillLevel::of_noise(&request.situation.noise)
            .map(|l| l.name.to_string()),
        budget: config.budget,
        budget_samples,
        samples_used: rounds.used,
        time_up: rounds.time_up,
        stopped: rounds.stopped,
        stages: rounds.stages,
        top,
        grid,
    })
}

/// The best `top` of a stage that finished (or of a coarse sweep stopped part way, on the
/// rounds of samples every candidate finished), in that stage's order: the answer of a
/// search stopped before its final evaluation ended.
fn best_so_far(last: &Evaluated, objective: Objective, top: usize) -> Vec<Suggestion> {
    let best: Vec<usize> = last.order.iter().copied().take(top).collect();
    let cands: Vec<Candidate> = best.iter().map(|&i| last.cands[i]).collect();
    let stats: Vec<Option<Stats>> = best.iter().map(|&i| last.stats[i].clone()).collect();
    suggestions(&cands, &stats, objective, cands.len())
}

/// The coarse sweep's candidates and the grid's cells ([`search::coarse`], from `places`
/// places); refused (field `search`) when no flick of the search space is legal.
fn coarse_candidates(
    setup: &Setup,
    space: &Space,
    grid: bool,
    places: u32,
) -> Result<(Vec<Candidate>, GridCells), InputError> {
    let (cands, cells) = search::coarse(setup, space, grid, places);
    if cands.is_empty() {
        return Err(InputError::new(
            "search",
            "no legal flick in the search space (every place on the line is blocked, or \
             the ranges leave nothing)",
        ));
    }
    Ok((cands, cells))
}

/// The grid's cells: a row per speed, per aim the index of its candidate (`None` where
/// the flick is not legal).
type GridCells = Vec<Vec<Option<usize>>>;

/// One search under way: what its stages share (the seat, the search space, the open
/// 15-zone points that name the families of candidates, the schedule of samples) and the
/// evaluation rounds they run. Its methods are the stages, in the order [`suggest`] runs
/// them.
struct Planner<'s> {
    setup: &'s Setup,
    space: &'s Space,
    points: Vec<DVec2>,
    schedule: Schedule,
    rounds: Rounds<'s>,
    /// Whether the coarse sweep started from more than the sparsest places: a plateau at
    /// the widest steps then halves them ([`search::next_levels`]).
    dense: bool,
}

/// Candidates, their statistics and their order, best first (indices into `cands`): one
/// stage's result. A refinement round's order is [`parents::ranking`] of its statistics;
/// the coarse sweep's is its successive halving's (its candidates have different sample
/// counts, so their sums do not compare).
struct Evaluated {
    cands: Vec<Candidate>,
    stats: Vec<Option<Stats>>,
    order: Vec<usize>,
}

/// What the refinement leaves: its last round (the coarse sweep if no round ran), and
/// every stage before that one, the coarse sweep first, each as its candidates and their
/// ranking ([`parents::ranking`]).
struct Refined {
    last: Evaluated,
    earlier: Vec<(Vec<Candidate>, Vec<usize>)>,
}

/// What the race leaves: its pool (the entrants, then the rest of the last round), the
/// pool's order, best first, and how many of the first places the race decided (0 when it
/// did not run).
struct Ranked {
    pool: Vec<Candidate>,
    order: Vec<usize>,
    raced: usize,
}

impl<'s> Planner<'s> {
    /// A search of `request` with `config`, the time budget (if any) counted from `start`.
    fn new(
        setup: &'s Setup,
        request: &'s Request,
        config: &PlanConfig,
        schedule: Schedule,
        start: Instant,
        cancel: &Cancel,
    ) -> Planner<'s> {
        Planner {
            setup,
            space: &request.space,
            points: search::fifteen_points(setup),
            schedule,
            dense: false,
            rounds: Rounds {
                setup,
                noise: request.situation.noise,
                objective: config.objective,
                seed: config.seed,
                stages: Vec::new(),
                used: 0,
                deadline: match config.budget {
                    Budget::Seconds(t) => Some(start + Duration::from_secs_f64(t)),
                    Budget::Samples(_) => None,
                },
                time_up: false,
                cancel: cancel.clone(),
                stopped: false,
            },
        }
    }

    /// The nominal step level of the last refinement round, that of steps halved every
    /// round (0 if there is none), whatever steps the climbs had: the race's neighbours
    /// and the final evaluation's "same flick" use its steps.
    fn last_level(&self) -> u32 {
        self.schedule.rounds.len().saturating_sub(1) as u32
    }

    /// Stage 1, the coarse sweep: successive halving over the coarse candidates
    /// ([`Schedule::coarse`], stages `coarse 1`, `coarse 2`, ...; round `r` seeded for
    /// stage `16 + r`, the first for stage 0). The first round evaluates every candidate;
    /// after each round those still in are ranked by their sums over the sweep so far
    /// (all have had the same samples, so the comparison is exact; ties keep the previous
    /// order, the first round's go to the lowest index) and the better half goes on. So
    /// the candidates that could be the best start points end with several times the
    /// samples of the others, and the first refinement round's parents are picked on them.
    /// Takes the candidates and the grid's cells; returns the candidates with their
    /// statistics over all their samples, in the halving's order (those still in at the
    /// end first, then those dropped after each round, the latest first, each group by
    /// its sums), and the heat map if `grid` ([`Planner::heat_map`]: the map's own stage
    /// when the sweep halved, else its one round).
    fn coarse_sweep(
        &mut self,
        cands: Vec<Candidate>,
        cells: &[Vec<Option<usize>>],
        grid: bool,
    ) -> (Evaluated, Option<Grid>) {
        let sweep = self.schedule.coarse.clone();
        let mut stats: Vec<Option<Stats>> = vec![None; cands.len()];
        let mut first: Vec<Option<Stats>> = Vec::new();
        let mut order: Vec<usize> = (0..cands.len()).collect();
        for (r, round) in sweep.iter().enumerate() {
            if self.rounds.stopped {
                break;
            }
            let size = round.candidates.min(order.len());
            let ids = &order[..size];
            let these: Vec<Candidate> = ids.iter().map(|&i| cands[i]).collect();
            let name = if sweep.len() == 1 {
                "coarse".to_string()
            } else {
                format!("coarse {}", r + 1)
            };
            let stage = if r == 0 { 0 } else { 16 + r as u64 };
            let s = self.rounds.run(name, &these, round.samples, stage);
            if r == 0 {
                first = s.clone();
                stats = s;
            } else {
                if s.iter().all(Option::is_none) {
                    // Stopped before one round of samples finished: nothing to add.
                    break;
                }
                for (&i, s) in ids.iter().zip(s) {
                    stats[i] = match (stats[i].take(), s) {
                        (Some(mut a), Some(b)) => {
                            a.merge(&b);
                            Some(a)
                        }
                        _ => None,
                    };
                }
            }
            // Stable: full ties keep the previous order; a refused candidate goes last.
            order[..size]
                .sort_by_key(|&i| std::cmp::Reverse(stats[i].as_ref().map(Stats::rank_key)));
        }
        order.retain(|&i| stats[i].is_some());
        let grid = grid.then(|| self.heat_map(&cands, cells, first));
        (
            Evaluated {
                cands,
                stats,
                order,
            },
            grid,
        )
    }

    /// The heat map of the grid's `cells` (indices into `cands`): from the map's own stage
    /// (`grid`, [`Schedule::grid`] samples a cell, seeded for stage 8) when the coarse
    /// sweep halved, else (or if that stage was stopped) from the sweep's first round,
    /// `first`, where every cell had the same samples.
    fn heat_map(
        &mut self,
        cands: &[Candidate],
        cells: &[Vec<Option<usize>>],
        first: Vec<Option<Stats>>,
    ) -> Grid {
        let objective = self.rounds.objective;
        let first_samples = self.schedule.coarse.first().map_or(1, |r| r.samples);
        let per_cell = self.schedule.grid;
        if per_cell > 0 && !self.rounds.stopped {
            let ids: Vec<usize> = cells.iter().flatten().flatten().copied().collect();
            let these: Vec<Candidate> = ids.iter().map(|&i| cands[i]).collect();
            let s = self.rounds.run("grid".into(), &these, per_cell, 8);
            if s.iter().any(Option::is_some) {
                let mut stats = vec![None; cands.len()];
                for (&i, s) in ids.iter().zip(s) {
                    stats[i] = s;
                }
                return grid::heat_map(self.space, cells, &stats, objective, per_cell);
            }
        }
        grid::heat_map(self.space, cells, &first, objective, first_samples)
    }

    /// Stage 2, the refinement: up to [`Schedule::rounds`] rounds (`refine 1`, ...), each
    /// evaluating the best [`schedule::PARENTS`] of the previous one and their neighbours at
    /// the round's steps, one of each flick, with the round's share of samples. Takes the
    /// coarse sweep; returns the last round and the stages before it (for the final
    /// evaluation, which looks for a flick of each target there too). A round starts only
    /// while the time budget lasts.
    fn refine(&mut self, coarse: Evaluated) -> Refined {
        // `lineage[i]`: the coarse candidate whose climb `pool[i]` belongs to; the first
        // `APART` rounds take one parent of each.
        let mut lineage: Vec<usize> = (0..coarse.cands.len()).collect();
        // `level[i]`: the step level of `pool[i]`'s neighbours should it be a parent.
        let mut level = vec![0; coarse.cands.len()];
        let (mut pool, mut pool_stats, mut order) = (coarse.cands, coarse.stats, coarse.order);
        let mut earlier = Vec::new();
        for (r, &share) in self.schedule.rounds.iter().enumerate() {
            if self.rounds.out_of_time() || self.rounds.stopped {
                break;
            }
            let apart = (r < schedule::APART).then_some(&lineage[..]);
            let contenders = parents::contenders(&pool_stats, &order);
            let parents = parents::pick(
                &order,
                schedule::PARENTS,
                schedule::PER_FAMILY,
                |i| parents::kind(self.setup, &self.points, &pool[i]),
                apart,
                Some(&contenders),
            );
            // Each neighbour's parent (its place in `parents`), the level it was made at and
            // whether it is that parent itself (the first of its neighbours).
            let (mut next, mut next_lineage, mut from) = (Vec::new(), Vec::new(), Vec::new());
            for (k, &p) in parents.iter().enumerate() {
                let near = search::neighbours(self.setup, self.space, &pool[p], level[p]);
                next_lineage.extend(std::iter::repeat_n(lineage[p], near.len()));
                from.extend((0..near.len()).map(|j| (k, level[p], j == 0)));
                next.extend(near);
            }
            let finest = from.iter().map(|&(_, l, _)| l).max().unwrap_or(0);
            let all: Vec<usize> = (0..next.len()).collect();
            let kept = search::distinct(&next, &all, finest);
            let next: Vec<Candidate> = kept.iter().map(|&i| next[i]).collect();
            let next_lineage: Vec<usize> = kept.iter().map(|&i| next_lineage[i]).collect();
            let from: Vec<(usize, u32, bool)> = kept.iter().map(|&i| from[i]).collect();
            let m = schedule::per_candidate(share, next.len());
            let s = self
                .rounds
                .run(format!("refine {}", r + 1), &next, m, 1 + r as u64);
            if self.rounds.stopped {
                // A round stopped part way: the last whole one stays the best so far.
                break;
            }
            level = search::next_levels(&s, &from, self.dense);
            lineage = next_lineage;
            let ranked = parents::ranking(&s);
            earlier.push((
                std::mem::replace(&mut pool, next),
                std::mem::replace(&mut order, ranked),
            ));
            pool_stats = s;
        }
        Refined {
            last: Evaluated {
                cands: pool,
                stats: pool_stats,
                order,
            },
            earlier,
        }
    }

    /// Stage 3, the race: the best [`schedule::RACE_PARENTS`] of the last round (at most
    /// [`schedule::PER_FAMILY`] of a family) and their neighbours at its steps, one of each
    /// flick, race on fresh random numbers by successive halving
    /// ([`Rounds::successive_halving`], [`Schedule::race`]). Takes the last round; returns
    /// the entrants followed by the rest of the last round, in the order the race left
    /// them. Skipped (the order is then the pool's, and no place counts as raced) if the
    /// time budget has run out.
    fn race(&mut self, last: Evaluated) -> Ranked {
        let level = self.last_level();
        let order = last.order;
        let contenders = parents::contenders(&last.stats, &order);
        let parents = parents::pick(
            &order,
            schedule::RACE_PARENTS,
            schedule::PER_FAMILY,
            |i| parents::kind(self.setup, &self.points, &last.cands[i]),
            None,
            Some(&contenders),
        );
        let near: Vec<Candidate> = parents
            .iter()
            .flat_map(|&p| search::neighbours(self.setup, self.space, &last.cands[p], level))
            .collect();
        let all: Vec<usize> = (0..near.len()).collect();
        let mut entrants: Vec<Candidate> = search::distinct(&near, &all, level)
            .into_iter()
            .map(|i| near[i])
            .collect();
        let rest = order
            .iter()
            .filter(|i| !parents.contains(i))
            .map(|&i| last.cands[i]);
        let raced = entrants.len();
        entrants.extend(rest);
        let race = if self.rounds.out_of_time() || self.rounds.stopped {
            &[][..]
        } else {
            &self.schedule.race[..]
        };
        let order = self.rounds.successive_halving(&entrants, raced, race);
        Ranked {
            pool: entrants,
            order,
            raced: if race.is_empty() { 0 } else { raced },
        }
    }

    /// Stage 4, the final evaluation: the best `top` flicks ([`Planner::finalists`]: one
    /// per target first, looked for in the race's order, then in the earlier stages', the
    /// latest first), each with the same [`Schedule::last`] samples on fresh random
    /// numbers, so their estimates carry no selection bias from the earlier stages. Takes
    /// the race and the stages before the last round; returns the suggestions, best
    /// first ([`suggestions`]). Runs whatever the time.
    fn final_evaluation(
        &mut self,
        raced: Ranked,
        earlier: Vec<(Vec<Candidate>, Vec<usize>)>,
        top: usize,
    ) -> Vec<Suggestion> {
        let Ranked {
            mut pool,
            mut order,
            raced,
        } = raced;
        // Then the earlier rounds' candidates, the latest round first, and the coarse
        // sweep's: the best of each target the last round no longer has (one flick of
        // each).
        for (cands, ranked) in earlier.into_iter().rev() {
            order.extend(ranked.into_iter().map(|i| pool.len() + i));
            pool.extend(cands);
        }
        let order = search::distinct(&pool, &order, self.last_level());
        let (finals, in_race) = self.finalists(&pool, &order, raced, top);
        let stats = self
            .rounds
            .run("final".into(), &finals, self.schedule.last, 1 << 16);
        suggestions(&finals, &stats, self.rounds.objective, in_race)
    }

    /// The final evaluation's `top` candidates, picked from `pool` in `order`: one per
    /// target first, then the next best ([`parents::pick`]). Among the firsts, the race's
    /// entrants (the first `raced` of `pool`) come first in the race's order (it ranked
    /// them on more samples than the final evaluation gives each). Returns them and how
    /// many lead in the race's order.
    fn finalists(
        &self,
        pool: &[Candidate],
        order: &[usize],
        raced: usize,
        top: usize,
    ) -> (Vec<Candidate>, usize) {
        // `pick` lists one per target first, then the next best; each part keeps that split.
        let mut picked = parents::pick(
            order,
            top,
            1,
            |i| pool[i].aim_at.family(&self.points),
            None,
            None,
        );
        let mut families = Vec::new();
        let firsts = picked
            .iter()
            .take_while(|&&i| {
                let f = pool[i].aim_at.family(&self.points);
                let new = !families.contains(&f);
                families.push(f);
                new
            })
            .count();
        let place = |i: usize| order.iter().position(|&j| j == i).unwrap_or(usize::MAX);
        picked[..firsts].sort_by_key(|&i| if i < raced { place(i) } else { usize::MAX });
        let in_race = picked[..firsts].iter().filter(|&&i| i < raced).count();
        let finals = picked.into_iter().map(|i| pool[i]).collect();
        (finals, in_race)
    }
}

/// The seat about to shoot, with the request ([`Request::setup`]) and the configuration
/// checked: the budget and `top`.
fn checked_setup(request: &Request, config: &PlanConfig) -> Result<Setup, InputError> {
    let setup = request.setup()?;
    config.budget.check()?;
    if !(1..=MAX_TOP).contains(&config.top) {
        return Err(InputError::new(
            "top",
            format!("must be 1 to {MAX_TOP}, got {}", config.top),
        ));
    }
    Ok(setup)
}

/// The budget in samples: as given, or for a time budget, what this machine simulates in
/// 70 % of the time the pilot leaves, at the pilot's rate. The pilot runs the coarse
/// candidates one sample each, in chunks spread over the whole list, until a tenth of the
/// time is spent (or every candidate ran), so it never takes the budget itself, however
/// slow a shot is. Refused (field `budget`) when the time would not cover the coarse sweep
/// and the final evaluation, with the time that would.
fn sample_budget(
    setup: &Setup,
    request: &Request,
    config: &PlanConfig,
    cands: &[Candidate],
    cancel: &Cancel,
) -> Result<u64, InputError> {
    let t = match config.budget {
        Budget::Samples(n) => return Ok(n),
        Budget::Seconds(t) => t,
    };
    let clock = Instant::now();
    let n = cands.len();
    let chunks = n.div_ceil(PILOT_CHUNK);
    let mut ran = 0;
    for c in 0..chunks {
        if ran > 0 && clock.elapsed().as_secs_f64() >= 0.1 * t {
            break;
        }
        // Chunk c: every `chunks`-th candidate from c, so each chunk samples the whole list.
        let chunk: Vec<Candidate> = cands.iter().skip(c).step_by(chunks).copied().collect();
        let pilot = search::evaluate_until(
            setup,
            request.situation.noise,
            config.objective,
            &chunk,
            1,
            mix(config.seed, 1 << 20),
            cancel,
        );
        ran += chunk.len();
        if pilot.stopped.is_some() {
            // Stopped in the pilot: the search that follows stops at once too.
            break;
        }
    }
    let per_shot = (clock.elapsed().as_secs_f64() / ran as f64).max(1e-9);
    let left = (t - clock.elapsed().as_secs_f64()).max(0.0);
    let covered = (0.7 * left / per_shot) as u64;
    let samples = covered.max(schedule::MIN_BUDGET);
    let noisy = request.situation.noise != Noise::NONE;
    let need = schedule::smallest_budget(n, config.top);
    if covered < need || Schedule::new(samples, n, config.top, noisy, 0).is_err() {
        return Err(InputError::new(
            "budget",
            format!(
                "{} s covers about {covered} samples of this position on this machine (a \
                 shot takes {:.1} ms), but the coarse sweep of {n} candidates and the final \
                 evaluation need at least {need}: give about {} s, or a sample budget of \
                 at least {need}",
                crokinole_core::error::num(t),
                per_shot * 1e3,
                crokinole_core::error::num((need as f64 * per_shot / 0.7 + 0.1 * t).ceil()),
            ),
        ));
    }
    Ok(samples)
}

/// Candidates per chunk of a time budget's pilot run.
const PILOT_CHUNK: usize = 8;

/// The final candidates as suggestions, best first: the first `in_race` (the race's
/// entrants, in the race's order) as they are, then the others by their final sums (ties
/// to the lowest index); a candidate one of whose samples the engine refused is left out.
fn suggestions(
    finals: &[Candidate],
    stats: &[Option<Stats>],
    objective: Objective,
    in_race: usize,
) -> Vec<Suggestion> {
    let ranked = parents::ranking(stats)
        .into_iter()
        .filter(|&i| i >= in_race);
    (0..in_race)
        .filter(|&i| stats[i].is_some())
        .chain(ranked)
        .enumerate()
        .filter_map(|(k, i)| {
            let s = stats[i].as_ref()?;
            Some(Suggestion {
                rank: k + 1,
                flick: finals[i].flick,
                aim_at: finals[i].aim_at,
                samples: s.n,
                value: s.value(objective),
                score_change: s.change(),
                fates: s.fates(),
                hit_opponent: s.hit_opponent(),
            })
        })
        .collect()
}
