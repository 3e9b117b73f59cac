//! A shot: discs at rest plus one flicked disc, run to rest. The unit of work of the CLI
//! and the batch API.

use crate::board::Board;
use crate::cancel::{Cancel, Cancelled};
use crate::disc::{Disc, DiscId};
use crate::error::InputError;
use crate::limits::Limit;
use crate::params::Physics;
use crate::step::event::Event;
use crate::world::World;
use glam::DVec2;

/// A disc at rest on the board before the shot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placed {
    /// Team of the disc.
    pub team: u8,
    /// Centre, m.
    pub pos: DVec2,
}

/// The shooter's disc: where it starts and how it was flicked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Flick {
    /// Team of the shooter.
    pub team: u8,
    /// Centre at the start, m.
    pub pos: DVec2,
    /// Velocity at the start, m/s.
    pub vel: DVec2,
    /// Spin at the start, rad/s, counter-clockwise positive.
    pub spin: f64,
}

/// One shot: the discs at rest get ids `0..n` in order, the shooter id `n`.
#[derive(Clone, Debug, PartialEq)]
pub struct Shot {
    /// Discs at rest.
    pub discs: Vec<Placed>,
    /// The flicked disc.
    pub shooter: Flick,
}

/// What a shot did.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Every disc in id order: at rest (or where it was, if cut off), in the hole, or in
    /// the ditch (with the position where it left the surface).
    pub discs: Vec<Disc>,
    /// Contacts and departures in time order.
    pub events: Vec<Event>,
    /// Fixed steps taken.
    pub steps: u64,
    /// Seconds until every disc was at rest (exact, not rounded to the step), or the clock
    /// at the cut-off.
    pub time: f64,
    /// Whether the shot ended before every disc came to rest: `max_time` or a work bound
    /// stopped it ([`Outcome::limit`] says which).
    pub cut_off: bool,
    /// What ended the shot early, if anything did (`None` exactly when `cut_off` is false).
    pub limit: Option<Limit>,
    /// Steps that reached `physics.max_events_per_step` and finished without looking for
    /// further contacts (0 in any ordinary shot).
    pub capped_steps: u64,
}

impl Shot {
    /// Id of the shooter's disc.
    pub fn shooter_id(&self) -> DiscId {
        self.discs.len()
    }

    /// A world holding this shot's discs, checked (errors name `discs[k]` or `shooter`).
    pub fn world(&self, board: &Board, physics: &Physics) -> Result<World, InputError> {
        let mut world = World::new(board.clone(), physics.clone())?;
        world.discs.reserve(self.discs.len() + 1);
        world.motion.reserve(self.discs.len() + 1);
        for (disc, field) in self.placed(physics) {
            check_team(|| format!("{}.team", field.name()), disc.team)?;
            world.add_disc_lazy(disc, &|| field.name())?;
        }
        Ok(world)
    }

    /// Checks the shot exactly as [`Shot::world`] does, with the same errors, without
    /// building the world (a shot file's check pass): `scratch` holds the discs checked so
    /// far (cleared first; give the same one to every call to reuse it).
    pub fn check(
        &self,
        board: &Board,
        physics: &Physics,
        scratch: &mut Vec<Disc>,
    ) -> Result<(), InputError> {
        crate::validate::check_board(board)?;
        crate::validate::check_physics(physics)?;
        self.check_discs(board, physics, scratch)
    }

    /// [`Shot::check`] without its first part, the board's and the physics' own checks:
    /// for a caller that checked them once for many shots (a shot file).
    pub fn check_discs(
        &self,
        board: &Board,
        physics: &Physics,
        scratch: &mut Vec<Disc>,
    ) -> Result<(), InputError> {
        scratch.clear();
        for (disc, field) in self.placed(physics) {
            check_team(|| format!("{}.team", field.name()), disc.team)?;
            if scratch.len() >= crate::limits::MAX_DISCS {
                return Err(World::too_many_discs(field.name()));
            }
            crate::validate::check_disc_lazy(board, physics, scratch, &disc, &|| field.name())?;
            scratch.push(disc);
        }
        Ok(())
    }

    /// The shot's discs as the engine places them, in id order (the resting discs, then
    /// the shooter with its flick), each with the field that names it.
    fn placed(&self, physics: &Physics) -> impl Iterator<Item = (Disc, DiscField)> + '_ {
        let (r, m) = (physics.disc_radius, physics.disc_mass);
        let s = &self.shooter;
        let shooter = Disc::at_rest(s.team, s.pos, r, m).flicked(s.vel, s.spin);
        self.discs
            .iter()
            .enumerate()
            .map(move |(k, d)| (Disc::at_rest(d.team, d.pos, r, m), DiscField::Resting(k)))
            .chain(std::iter::once((shooter, DiscField::Shooter)))
    }
}

/// The field of a shot that holds a disc, for errors.
#[derive(Clone, Copy)]
enum DiscField {
    /// `discs[k]`.
    Resting(usize),
    /// `shooter`.
    Shooter,
}

impl DiscField {
    /// The field's name (`discs[3]`, `shooter`).
    fn name(self) -> String {
        match self {
            DiscField::Resting(k) => format!("discs[{k}]"),
            DiscField::Shooter => "shooter".to_string(),
        }
    }
}

fn check_team(field: impl Fn() -> String, team: u8) -> Result<(), InputError> {
    if team <= 1 {
        Ok(())
    } else {
        Err(InputError::new(
            field(),
            format!("must be 0 or 1, got {team}"),
        ))
    }
}

/// The outcome of `base` (a world of discs at rest, not yet run) with `shooter` added:
/// the same as adding `shooter` to a clone of `base` and [`outcome_of`] it, but run in a
/// world kept for the calling thread and copied from `base` each time
/// ([`World::clone_from`], which reuses its lists), so the many runs of one position (the
/// samples of a study, the planner's candidates) allocate only their outcome. `shooter`
/// must pass `base.check_disc` (unchecked here but in debug builds). Stops when `cancel`
/// is cancelled ([`World::run_until`]; the thread's world is copied afresh next time).
pub fn outcome_from(base: &World, shooter: Disc, cancel: &Cancel) -> Result<Outcome, Cancelled> {
    in_scratch(base, cancel, |world| {
        world.add_checked_disc(shooter);
    })
}

/// The outcome of `shot`, which [`Shot::check`] accepted on the board and physics of
/// `empty` (a world without discs): run in the calling thread's world, copied from
/// `empty` ([`outcome_from`]), its discs added unchecked (in debug builds checked), so a
/// batch of checked shots allocates only their outcomes; the same outcome as
/// [`run_shot_until`].
pub(crate) fn checked_outcome_from(
    empty: &World,
    shot: &Shot,
    cancel: &Cancel,
) -> Result<Outcome, Cancelled> {
    debug_assert!(empty.discs().is_empty());
    debug_assert!(shot.world(empty.board(), empty.physics()).is_ok());
    in_scratch(empty, cancel, |world| {
        for (disc, _) in shot.placed(empty.physics()) {
            world.add_checked_disc(disc);
        }
    })
}

/// Runs a copy of `base`, given its last discs by `add`, in a world kept for the calling
/// thread (copied from `base` with [`World::clone_from`], which reuses its lists).
fn in_scratch(
    base: &World,
    cancel: &Cancel,
    add: impl FnOnce(&mut World),
) -> Result<Outcome, Cancelled> {
    thread_local! {
        static SCRATCH: std::cell::RefCell<Option<World>> = const { std::cell::RefCell::new(None) };
    }
    let run = |world: &mut World| {
        add(world);
        world.run_until(cancel)?;
        Ok(finished_in_place(world))
    };
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut slot) => {
            let world = match slot.as_mut() {
                Some(world) => {
                    world.clone_from(base);
                    world
                }
                None => slot.insert(base.clone()),
            };
            run(world)
        }
        // Re-entered on this thread (not done today): a world of its own.
        Err(_) => run(&mut base.clone()),
    })
}

/// Runs a world to rest (or `max_time`) and reports it.
pub fn outcome_of(mut world: World) -> Outcome {
    world.run();
    finished(world)
}

/// [`outcome_of`] that stops when `cancel` is cancelled ([`World::run_until`]): a stopped
/// shot has no outcome, only the error.
pub fn outcome_until(mut world: World, cancel: &Cancel) -> Result<Outcome, Cancelled> {
    world.run_until(cancel)?;
    Ok(finished(world))
}

/// The report of a world that has been run: at rest, or stopped by `max_time` with discs
/// still moving (`cut_off`). The world ends here: its logs move into the outcome, no copy.
pub(crate) fn finished(mut world: World) -> Outcome {
    finished_in_place(&mut world)
}

/// [`finished`] of a world kept afterwards: its disc list and event log move into the
/// outcome, leaving them empty.
fn finished_in_place(world: &mut World) -> Outcome {
    let rested = world.is_at_rest();
    let limit = world
        .stopped_by()
        .or(if rested { None } else { Some(Limit::MaxTime) });
    Outcome {
        time: if rested {
            world.settle_time()
        } else {
            world.time()
        },
        steps: world.steps(),
        cut_off: limit.is_some(),
        limit,
        capped_steps: world.capped_steps(),
        events: std::mem::take(&mut world.events),
        discs: std::mem::take(&mut world.discs),
    }
}

/// Runs one shot to rest. Errors name the field (`discs[2].pos`, `shooter.vel`, ...); the
/// batch and the CLI add the shot's index.
pub fn run_shot(board: &Board, physics: &Physics, shot: &Shot) -> Result<Outcome, InputError> {
    Ok(outcome_of(shot.world(board, physics)?))
}

/// Why a shot has no outcome: its input was refused, or it was stopped mid-way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShotError {
    /// Bad input, refused before any physics ran.
    Input(InputError),
    /// A [`Cancel`] stopped the shot before its end.
    Cancelled(Cancelled),
}

impl std::fmt::Display for ShotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShotError::Input(e) => write!(f, "{e}"),
            ShotError::Cancelled(e) => write!(f, "{e}"),
        }
    }
}

/// Its source is the input error or the stop it wraps.
impl std::error::Error for ShotError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ShotError::Input(e) => Some(e),
            ShotError::Cancelled(e) => Some(e),
        }
    }
}

impl From<InputError> for ShotError {
    fn from(e: InputError) -> ShotError {
        ShotError::Input(e)
    }
}

impl From<Cancelled> for ShotError {
    fn from(e: Cancelled) -> ShotError {
        ShotError::Cancelled(e)
    }
}

/// [`run_shot`] that stops when `cancel` is cancelled (checked before the shot starts and
/// while it runs, [`World::run_until`]); an uncancelled shot gives the same bits.
pub fn run_shot_until(
    board: &Board,
    physics: &Physics,
    shot: &Shot,
    cancel: &Cancel,
) -> Result<Outcome, ShotError> {
    cancel.check()?;
    Ok(outcome_until(shot.world(board, physics)?, cancel)?)
}
