//! A study: its definition ([`StudySpec`]), checked once ([`Study`]), which samples to run
//! ([`Sampling`], [`Shard`]), one sample ([`Sample`]), and the run itself ([`Study::run`]).
//!
//! Sample `i` with seed `s`: the intended flick, each parameter perturbed by its own
//! truncated Gaussian read from the `(s, i)` streams of [`noise`](super::noise), turned
//! into initial conditions ([`PlayerFlick::to_flick`]), added to a copy of the position
//! (checked once when the study was built) and run to rest. A run maps the samples of the
//! plan's range in parallel, a chunk at a time, in order
//! ([`crokinole_core::batch::map_ordered`]), and folds them serially into a [`Tally`].

use super::flick::PlayerFlick;
use super::sampler::{FlickSampler, flick_field};
use super::score::{SampleResult, assess, assess_ruled, score_before};
use super::situation::Situation;
use super::skill::SkillLevel;
use super::tally::Tally;
use crokinole_core::batch::{DEFAULT_CHUNK, SAMPLE_SPLIT, map_ordered_until};
use crokinole_core::board::Board;
use crokinole_core::cancel::{Cancel, Cancelled};
use crokinole_core::disc::Disc;
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_core::shot::{Outcome, Placed, Shot, outcome_from};
use crokinole_core::world::World;
use crokinole_rules::{Ruleset, check_placement, checked_team_of_seat};
use std::ops::Range;
use std::str::FromStr;

/// Samples per chunk of a run: results never depend on it (tested); it bounds memory and
/// sets how often the samples file is flushed.
pub const CHUNK: usize = DEFAULT_CHUNK;

/// Everything that defines a study, as read from a study file: the situation, the flick
/// and the rule set.
#[derive(Clone, Debug, PartialEq)]
pub struct StudySpec {
    /// The seat about to shoot: board, physics, table, discs at rest, the player's error.
    pub situation: Situation,
    /// The intended flick.
    pub flick: PlayerFlick,
    /// The rule set every sample is judged by ([`assess_ruled`]), or `None` for the
    /// physics alone ([`assess`]; no sample is then `removed`).
    pub ruleset: Option<Ruleset>,
}

/// A checked study, ready to sample.
#[derive(Clone, Debug)]
pub struct Study {
    spec: StudySpec,
    team: u8,
    /// The position alone, checked: each sample adds its shooter to a copy.
    base: World,
    input_hash: u64,
}

/// Which samples of a study to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sampling {
    /// Seed of every sample's random streams.
    pub seed: u64,
    /// Samples in the whole study.
    pub samples: u64,
    /// The samples to run here: all of them, or a shard's slice.
    pub range: Range<u64>,
}

/// Most samples in one study: about 6 hours on one core at 50,000 samples/s, and far
/// more than a 95 % interval needs (its half-width falls as `1/sqrt(n)`: 3e-5 at 1e9).
pub const MAX_SAMPLES: u64 = 1_000_000_000;

/// Shard `index` of `count` (1-based: `1/4` is the first quarter), written `K/N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, `1..=count`.
    pub index: u64,
    /// How many shards the study is split into.
    pub count: u64,
}

/// One sample of a study.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Sample number.
    pub index: u64,
    /// The flick as played (the intended one plus this sample's error).
    pub flick: PlayerFlick,
    /// What the physics did.
    pub outcome: Outcome,
    /// What that means for the shooting side.
    pub result: SampleResult,
}

impl Shard {
    /// Samples of shard `index` of `count` in a study of `samples`:
    /// `floor((K-1) S / N) .. floor(K S / N)`. Adjacent shards meet exactly, and the sizes
    /// differ by at most one.
    pub fn range(&self, samples: u64) -> Range<u64> {
        let at = |k: u64| (u128::from(k) * u128::from(samples) / u128::from(self.count)) as u64;
        at(self.index - 1)..at(self.index)
    }

    /// Checks `1 <= index <= count`.
    pub fn check(&self) -> Result<(), InputError> {
        if self.count == 0 || self.index == 0 || self.index > self.count {
            return Err(InputError::new(
                "shard",
                format!(
                    "`{}/{}`: K must be between 1 and N (shards are numbered from 1)",
                    self.index, self.count
                ),
            ));
        }
        Ok(())
    }
}

impl FromStr for Shard {
    type Err = String;

    /// Parses `K/N`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("expected K/N (e.g. 2/8), got `{s}`"))?;
        let num = |x: &str| {
            x.trim()
                .parse::<u64>()
                .map_err(|e| format!("`{x}` in `{s}` is not a shard number: {e}"))
        };
        let shard = Shard {
            index: num(k)?,
            count: num(n)?,
        };
        shard.check().map_err(|e| e.problem)?;
        Ok(shard)
    }
}

impl Sampling {
    /// Every sample of a study of `samples` samples, or only `shard`'s slice. Refuses zero
    /// samples (field `samples`) and a shard outside `1..=N` (field `shard`).
    pub fn new(seed: u64, samples: u64, shard: Option<Shard>) -> Result<Sampling, InputError> {
        if samples == 0 {
            return Err(InputError::new("samples", "must be at least 1, got 0"));
        }
        if samples > MAX_SAMPLES {
            return Err(InputError::new(
                "samples",
                format!(
                    "must be 1 to {MAX_SAMPLES:e}, got {samples}: split a larger study into studies of other seeds"
                ),
            ));
        }
        let range = match shard {
            Some(s) => {
                s.check()?;
                s.range(samples)
            }
            None => 0..samples,
        };
        Ok(Sampling {
            seed,
            samples,
            range,
        })
    }
}

/// A world holding the discs at rest of a position (ids `0..n` in order), each checked
/// as the engine checks a disc: team 0 or 1 (field `discs[k].team`), on the surface, no
/// overlap (fields `discs[k].pos`).
pub fn position_world(
    board: &Board,
    physics: &Physics,
    discs: &[Placed],
) -> Result<World, InputError> {
    let mut base = World::new(board.clone(), physics.clone())?;
    let (r, m) = (physics.disc_radius, physics.disc_mass);
    for (k, d) in discs.iter().enumerate() {
        if d.team > 1 {
            return Err(InputError::new(
                format!("discs[{k}].team"),
                format!("must be 0 or 1, got {}", d.team),
            ));
        }
        base.add_disc_named(Disc::at_rest(d.team, d.pos, r, m), &format!("discs[{k}]"))?;
    }
    Ok(base)
}

impl Study {
    /// Checks a study: players and seat (the seat must be played: seats 0 and 2 with two
    /// players), the board and physics, every disc of the position, the noise widths
    /// ([`Noise::check`](super::Noise::check)) and the intended flick
    /// ([`PlayerFlick::check`](super::PlayerFlick::check), then the shooter
    /// as the engine checks it: no overlap, speeds within `max_speed`). Fields are named as
    /// in the study file (`seat`, `discs[2].pos`, `flick.offset`, `noise.aim`).
    pub fn new(spec: StudySpec) -> Result<Study, InputError> {
        let s = &spec.situation;
        let team = checked_team_of_seat(s.players, s.seat)?;
        let base = position_world(&s.board, &s.physics, &s.discs)?;
        let r = s.physics.disc_radius;
        FlickSampler::new(
            &s.board, &s.physics, s.seat, team, &base, spec.flick, s.noise,
        )?;
        let flick = spec.flick.to_flick(&s.board, s.seat, team);
        if let Some(ruleset) = spec.ruleset {
            // The samples stay in the seat's quadrant (centre inside, the traditional test,
            // the stricter one) on the shooting line, so they pass wherever this one does.
            check_placement(&s.board, r, s.seat, s.players, ruleset, &flick)
                .map_err(|e| flick_field(e.into()))?;
        }
        Ok(Study {
            spec,
            team,
            base,
            input_hash: 0,
        })
    }

    /// The definition.
    pub fn spec(&self) -> &StudySpec {
        &self.spec
    }

    /// The shooter's team.
    pub fn team(&self) -> u8 {
        self.team
    }

    /// The identity of the study's input that its tallies carry: shards of one study carry
    /// the same hash, and `merge` refuses shards whose hashes differ. 0 unless set by
    /// [`with_input_hash`](Study::with_input_hash); the study file reader sets FNV-1a
    /// (64 bit) of the canonical JSON (`crokinole_io::input_hash`).
    pub fn input_hash(&self) -> u64 {
        self.input_hash
    }

    /// The study with `input_hash` as its [`input_hash`](Study::input_hash).
    pub fn with_input_hash(self, input_hash: u64) -> Study {
        Study { input_hash, ..self }
    }

    /// The shot of a flick: the position plus the shooter flicked as `flick` says.
    pub fn shot(&self, flick: &PlayerFlick) -> Shot {
        Shot {
            discs: self.spec.situation.discs.clone(),
            shooter: flick.to_flick(
                &self.spec.situation.board,
                self.spec.situation.seat,
                self.team,
            ),
        }
    }

    /// The intended shot, without noise.
    pub fn intended_shot(&self) -> Shot {
        self.shot(&self.spec.flick)
    }

    /// The sampler of this study's executions ([`FlickSampler`]).
    pub fn sampler(&self) -> FlickSampler<'_> {
        let s = &self.spec.situation;
        FlickSampler::new_unchecked(
            &s.board,
            &s.physics,
            s.seat,
            self.team,
            &self.base,
            self.spec.flick,
            s.noise,
        )
    }

    /// The shooter's disc for `flick`, if the engine accepts it in the position.
    fn shooter_disc(&self, flick: &PlayerFlick) -> Option<Disc> {
        self.sampler().shooter_disc(flick)
    }

    /// The flick of sample `index` with seed `seed`, drawn by [`FlickSampler::sample`].
    pub fn sample_flick(&self, seed: u64, index: u64) -> PlayerFlick {
        self.sampler().sample(seed, index)
    }

    /// Runs `flick` from the position as sample `index`.
    pub fn run_flick(&self, index: u64, flick: PlayerFlick) -> Sample {
        match self.run_flick_until(index, flick, &Cancel::never()) {
            Ok(s) => s,
            Err(never) => unreachable!("Cancel::never was cancelled: {never}"),
        }
    }

    /// [`Study::run_flick`] that stops when `cancel` is cancelled (while the shot runs,
    /// [`World::run_until`]): a stopped sample has no result.
    pub fn run_flick_until(
        &self,
        index: u64,
        flick: PlayerFlick,
        cancel: &Cancel,
    ) -> Result<Sample, Cancelled> {
        cancel.check()?;
        // Every drawn parameter passed the engine's own checks; should a combination of
        // fall-backs still fail them, the sample plays the intended flick (checked in
        // `Study::new`), so no sample can be an error.
        let (flick, disc) = match self.shooter_disc(&flick) {
            Some(disc) => (flick, disc),
            None => {
                let f = self.spec.flick;
                let disc = self
                    .shooter_disc(&f)
                    .expect("the intended flick was checked");
                (f, disc)
            }
        };
        // `shooter_disc` checked the disc against the position's world.
        let outcome = outcome_from(&self.base, disc, cancel)?;
        let result = self
            .assess(&flick, &outcome)
            .expect("every sample's placement passes the rules (checked on the intended flick)");
        Ok(Sample {
            index,
            flick,
            outcome,
            result,
        })
    }

    /// What the outcome of `flick` from the position counts for, as a sample counts it:
    /// the shot disc's class, the change in score difference, the contacts; judged by the
    /// rules first when the study has a rule set (an error only if `flick`'s placement
    /// breaks them).
    pub fn assess(
        &self,
        flick: &PlayerFlick,
        outcome: &Outcome,
    ) -> Result<SampleResult, InputError> {
        let s = &self.spec.situation;
        match self.spec.ruleset {
            None => Ok(assess(&s.board, &s.discs, self.team, outcome)),
            Some(ruleset) => assess_ruled(
                &s.board,
                &s.physics,
                &self.shot(flick),
                outcome,
                (s.seat, s.players, ruleset),
            ),
        }
    }

    /// Sample `index` of the study seeded with `seed`: a function of `(seed, index)` only.
    pub fn sample(&self, seed: u64, index: u64) -> Sample {
        self.run_flick(index, self.sample_flick(seed, index))
    }

    /// [`Study::sample`] that stops when `cancel` is cancelled.
    pub fn sample_until(
        &self,
        seed: u64,
        index: u64,
        cancel: &Cancel,
    ) -> Result<Sample, Cancelled> {
        self.run_flick_until(index, self.sample_flick(seed, index), cancel)
    }

    /// The board score of teams 0 and 1 before the shot.
    pub fn score_before(&self) -> [i64; 2] {
        score_before(
            &self.spec.situation.board,
            self.spec.situation.physics.disc_radius,
            &self.spec.situation.discs,
        )
    }

    /// Runs the samples of `plan.range` on the current rayon pool, `chunk` at a time in
    /// order ([`crokinole_core::batch::map_ordered`]), and folds them serially into the plan's
    /// [`Tally`]. For each sample, `map` runs on the worker that simulated it (to format an output line,
    /// say) and `sink` then receives its result on the calling thread, in sample order; an
    /// error from `sink` stops the run. Nothing here depends on `chunk` or the thread
    /// count.
    pub fn run<T, E, M, S>(
        &self,
        plan: &Sampling,
        chunk: usize,
        map: M,
        sink: S,
    ) -> Result<Tally, E>
    where
        T: Send,
        M: Fn(&Sample) -> T + Sync,
        S: FnMut(T) -> Result<(), E>,
    {
        self.run_until(plan, chunk, map, sink, &Cancel::never())
    }

    /// [`Study::run`] that stops when `cancel` is cancelled: every sample checks it before
    /// it starts and while its shot runs ([`World::run_until`]), and no chunk starts once
    /// it is. The tally returned then holds the first samples of the range, in order, up
    /// to the first stopped one: `plan.range.start..plan.range.start + tally.done`
    /// ([`Tally::is_complete`] tells which), and `sink` has received exactly those, so a
    /// samples file and the summary of the finished samples agree (the summary of the same
    /// study with `--samples tally.done` when the range starts at 0). Samples after a
    /// stopped one that happened to finish are dropped. A request is seen within
    /// milliseconds, whatever a sample costs.
    pub fn run_until<T, E, M, S>(
        &self,
        plan: &Sampling,
        chunk: usize,
        map: M,
        mut sink: S,
        cancel: &Cancel,
    ) -> Result<Tally, E>
    where
        T: Send,
        M: Fn(&Sample) -> T + Sync,
        S: FnMut(T) -> Result<(), E>,
    {
        let mut tally = Tally::new(self.input_hash, plan.seed, plan.samples, plan.range.clone());
        tally.skill = SkillLevel::of_noise(&self.spec.situation.noise).map(|l| l.name);
        let shooter = self.spec.situation.discs.len();
        let items = map_ordered_until(
            plan.range.clone(),
            chunk,
            |i| {
                let s = self.sample_until(plan.seed, i, cancel)?;
                Ok::<_, Cancelled>((s.index, s.result, s.outcome.discs[shooter].pos, map(&s)))
            },
            || cancel.is_cancelled(),
        )
        .split(SAMPLE_SPLIT);
        for item in items {
            let Ok((index, result, pos, item)) = item else {
                break;
            };
            tally.add(index, &result, pos);
            sink(item)?;
        }
        Ok(tally)
    }

    /// The tally of `plan` (a run without per-sample output), chunk [`CHUNK`].
    pub fn tally(&self, plan: &Sampling) -> Tally {
        let run = self.run(
            plan,
            CHUNK,
            |_| (),
            |()| Ok::<(), std::convert::Infallible>(()),
        );
        match run {
            Ok(t) => t,
            Err(never) => match never {},
        }
    }
}
