//! The world: a board, the physical parameters, the discs, the clock and the event log.
//! This file holds the data and its construction (`new`, `add_disc`) and answers
//! questions about it; what moves the world is in `step/`: `World::step` advances it by
//! one fixed step, `World::run` steps it until every disc rests or `max_time` passes
//! (both in `step/mod.rs`).

use crate::board::Board;
use crate::disc::{Disc, DiscId, DiscState};
use crate::error::InputError;
use crate::limits::{Limit, MAX_DISCS};
use crate::params::Physics;
use crate::step::event::Event;
use crate::step::state::{GroupScratch, Motion, StepEvent};
use glam::DVec2;

pub use crate::validate::PLACEMENT_TOLERANCE;

/// A simulation: board, parameters, discs, clock and event log.
///
/// Build it with [`World::new`], add discs with [`World::add_disc`], then either
/// [`World::step`] by hand or [`World::run`] to rest.
#[derive(Debug)]
pub struct World {
    pub(crate) board: Board,
    pub(crate) physics: Physics,
    pub(crate) discs: Vec<Disc>,
    pub(crate) motion: Vec<Motion>,
    /// Ids of moving discs, ascending: the only discs a step touches.
    pub(crate) moving: Vec<DiscId>,
    pub(crate) events: Vec<Event>,
    pub(crate) steps: u64,
    /// Steps before this one are proved quiet (`World::quiet_steps_ahead`): stepping by
    /// hand and `run` glide through them alike. Reset when a disc is added.
    pub(crate) quiet_until: u64,
    /// The last proof found a disc whose slide or spin is about to end: no proof can
    /// succeed before a step with events, so none is tried (`World::prove_quiet`). Cleared
    /// by a step with events and when a disc is added.
    pub(crate) unprovable: bool,
    /// Absolute time at which the last disc stopped or left the surface.
    pub(crate) settle_time: f64,
    /// Steps that hit `max_events_per_step` and finished without further contacts.
    pub(crate) capped_steps: u64,
    /// The work bound that ended the shot, if one did (`crate::limits`): from then on a
    /// step only counts the clock.
    pub(crate) stopped_by: Option<Limit>,
    /// Scratch: reach of each moving disc over the current window (index as `moving`).
    pub(crate) reach: Vec<f64>,
    /// Scratch: pairs seen touching during the current step (pressed-contact candidates).
    pub(crate) touching: Vec<StepEvent>,
    /// Scratch: the group of contacts resolved together at one instant (`step/contact.rs`).
    pub(crate) group: GroupScratch,
    /// Scratch: the pushes of the separation stage (disc, displacement).
    pub(crate) pushes: Vec<(DiscId, DVec2)>,
    /// For a trace (`crate::trace`) only: the centres of the discs of each logged event at
    /// its instant, parallel to `events`. `None` (nothing recorded) unless tracing.
    pub(crate) event_centres: Option<Vec<EventCentres>>,
}

// Written out so that `clone_from` reuses every list of the world it copies into: the
// samples of a study, the candidates of the planner and the shots of a game each run a
// copy of one position's world (`crate::shot::outcome_from`), and copying into one
// world kept per thread allocates nothing once its lists have grown. The destructuring
// names every field, so a new one fails to compile until it is copied.
impl Clone for World {
    fn clone(&self) -> World {
        let mut copy = World::empty(self.board.clone(), self.physics.clone());
        copy.clone_from(self);
        copy
    }

    fn clone_from(&mut self, source: &World) {
        let World {
            board,
            physics,
            discs,
            motion,
            moving,
            events,
            steps,
            quiet_until,
            unprovable,
            settle_time,
            capped_steps,
            stopped_by,
            reach,
            touching,
            group,
            pushes,
            event_centres,
        } = source;
        self.board.clone_from(board);
        self.physics.clone_from(physics);
        self.discs.clone_from(discs);
        self.motion.clone_from(motion);
        self.moving.clone_from(moving);
        self.events.clone_from(events);
        self.steps = *steps;
        self.quiet_until = *quiet_until;
        self.unprovable = *unprovable;
        self.settle_time = *settle_time;
        self.capped_steps = *capped_steps;
        self.stopped_by = *stopped_by;
        self.reach.clone_from(reach);
        self.touching.clone_from(touching);
        self.group.clone_from(group);
        self.pushes.clone_from(pushes);
        self.event_centres.clone_from(event_centres);
    }
}

/// The centres of an event's discs at its instant: disc `a`'s, and disc `b`'s for a
/// disc-disc impact.
pub(crate) type EventCentres = (DVec2, Option<DVec2>);

impl World {
    /// An empty world, after checking that the board and the parameters make sense.
    pub fn new(board: Board, physics: Physics) -> Result<World, InputError> {
        crate::validate::check_board(&board)?;
        crate::validate::check_physics(&physics)?;
        Ok(World::empty(board, physics))
    }

    /// A world of `board` and `physics` that [`World::new`] accepted already, with no
    /// discs (checked in debug builds).
    pub(crate) fn unchecked(board: Board, physics: Physics) -> World {
        debug_assert!(crate::validate::check_board(&board).is_ok());
        debug_assert!(crate::validate::check_physics(&physics).is_ok());
        World::empty(board, physics)
    }

    /// A world of `board` and `physics`, unchecked, with no discs, at time 0.
    fn empty(board: Board, physics: Physics) -> World {
        World {
            board,
            physics,
            discs: Vec::new(),
            motion: Vec::new(),
            moving: Vec::new(),
            events: Vec::new(),
            steps: 0,
            quiet_until: 0,
            unprovable: false,
            settle_time: 0.0,
            capped_steps: 0,
            stopped_by: None,
            reach: Vec::new(),
            touching: Vec::new(),
            group: GroupScratch::default(),
            pushes: Vec::new(),
            event_centres: None,
        }
    }

    /// Adds a disc and returns its id. Refuses non-finite or non-positive values, a disc
    /// off the playing surface, with its centre inside the 20 hole's support window (it
    /// would have fallen in; see [`Board::support_window`]),
    /// overlapping a peg or another disc (beyond [`PLACEMENT_TOLERANCE`]), or faster than
    /// `physics.max_speed`. The error's field is `discs[id]`.
    pub fn add_disc(&mut self, disc: Disc) -> Result<DiscId, InputError> {
        let id = self.discs.len();
        self.add_disc_lazy(disc, &|| format!("discs[{id}]"))
    }

    /// [`World::add_disc`] with the field name to use in errors (`shooter`, `discs[3]`).
    pub fn add_disc_named(&mut self, disc: Disc, field: &str) -> Result<DiscId, InputError> {
        self.add_disc_lazy(disc, &|| field.to_string())
    }

    /// [`World::add_disc_named`] with the name built only if there is an error.
    pub(crate) fn add_disc_lazy(
        &mut self,
        disc: Disc,
        field: &dyn Fn() -> String,
    ) -> Result<DiscId, InputError> {
        if self.discs.len() >= MAX_DISCS {
            return Err(World::too_many_discs(field()));
        }
        crate::validate::check_disc_lazy(&self.board, &self.physics, &self.discs, &disc, field)?;
        Ok(self.add_checked_disc(disc))
    }

    /// The error of a disc added to a world that holds [`MAX_DISCS`] already.
    pub(crate) fn too_many_discs(field: String) -> InputError {
        InputError::new(
            field,
            format!("a world holds at most {MAX_DISCS} discs (crokinole::limits::MAX_DISCS)"),
        )
    }

    /// Adds a disc that [`World::check_disc`] accepted in this world (as it is now) and
    /// returns its id.
    pub(crate) fn add_checked_disc(&mut self, mut disc: Disc) -> DiscId {
        debug_assert!(self.discs.len() < MAX_DISCS);
        debug_assert!(self.check_disc(&disc, "disc").is_ok());
        disc.state = if disc.vel == DVec2::ZERO && disc.spin == 0.0 {
            DiscState::Rest
        } else {
            DiscState::Moving
        };
        let id = self.discs.len();
        self.discs.push(disc);
        let motion = Motion::new(&disc, &self.board, &self.physics, self.steps);
        self.motion.push(motion);
        if disc.state == DiscState::Moving {
            self.moving.push(id); // ids grow, so `moving` stays sorted
        }
        self.quiet_until = 0;
        self.unprovable = false;
        id
    }

    /// Checks `disc` as [`World::add_disc`] would, without adding it; `field` names it in
    /// the error (`shooter`, `discs[3]`).
    pub fn check_disc(&self, disc: &Disc, field: &str) -> Result<(), InputError> {
        crate::validate::check_disc(&self.board, &self.physics, &self.discs, disc, field)
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The physical parameters.
    pub fn physics(&self) -> &Physics {
        &self.physics
    }

    /// Every disc, in id order, including those in the hole or the ditch.
    pub fn discs(&self) -> &[Disc] {
        &self.discs
    }

    /// The event log so far, in time order.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Fixed steps taken.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The clock: `steps * dt`, s.
    pub fn time(&self) -> f64 {
        self.steps as f64 * self.physics.dt
    }

    /// Absolute time at which the last disc stopped or left the surface (0 if none did).
    pub fn settle_time(&self) -> f64 {
        self.settle_time
    }

    /// Whether every disc on the board is at rest.
    pub fn is_at_rest(&self) -> bool {
        self.moving.is_empty()
    }

    /// Steps that reached `max_events_per_step` (0 in any ordinary shot).
    pub fn capped_steps(&self) -> u64 {
        self.capped_steps
    }

    /// The work bound that ended the shot early ([`Limit::Events`]), if one did; `None`
    /// while the shot runs, and for a shot that `max_time` cut off.
    pub fn stopped_by(&self) -> Option<Limit> {
        self.stopped_by
    }

    /// Whether the shot is over: every disc rests, or a work bound stopped it.
    pub fn is_over(&self) -> bool {
        self.moving.is_empty() || self.stopped_by.is_some()
    }
}
