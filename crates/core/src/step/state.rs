//! The step's state that the [`World`](crate::World) keeps between calls: each disc's
//! [`Motion`] (with how it starts, [`Motion::new`], and how it is kept in step with the
//! disc: [`Motion::sync`], [`Motion::set_anchor`]), the events the step looks for
//! ([`StepEvent`]), the contact skin, and the scratch of the contact rounds. A leaf of the
//! core: it names none of the step's algorithms, so `world.rs` can hold these and add a
//! disc without importing the step, and the step's files (which implement `World`'s
//! stages) import `world.rs` and this file only.

use crate::board::Board;
use crate::disc::{Disc, DiscId};
use crate::params::Physics;
use glam::DVec2;

/// Gap within which two bodies count as touching, m. Far below any physical length and
/// far above the rounding of positions on a 0.66 m board (~1e-16 m).
pub const CONTACT_SKIN: f64 = 1e-10;

/// Approach speed below which touching bodies count as not approaching, m/s: rounding.
pub const APPROACH_EPS: f64 = 1e-12;

/// Per-disc state the step keeps beside the public [`Disc`].
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Motion {
    /// Speed `|vel|`, m/s, kept in closed form between impacts (no square root per step).
    pub(crate) speed: f64,
    /// Direction of travel (unit), fixed between impacts: friction never turns a disc.
    pub(crate) dir: DVec2,
    /// Sliding deceleration held over the current sub-interval, m/s^2.
    pub(crate) decel: f64,
    /// Magnitude of the angular deceleration held over the current sub-interval, rad/s^2.
    pub(crate) spin_decel: f64,
    /// Distance this disc can still travel along its path before it could touch anything
    /// that does not move (pegs, discs at rest, its window's edge, the surface's edge), m.
    /// Negative forces a scan. Measured along the straight path, so an impact (which turns
    /// it) resets it to a scan; travel uses it up; a disc coming to rest cuts it to the gap.
    pub(crate) clearance: f64,
    /// Radius of this disc's support window about the hole's centre,
    /// `sqrt(r_h^2 - R^2)` (0: the disc cannot drop in). See `step/hole.rs`.
    pub(crate) window: f64,
    /// Whether the centre is inside the window now (it entered too fast to be captured).
    pub(crate) in_window: bool,
    /// Where the disc's current quiet run began (see [`Anchor`]).
    pub(crate) anchor: Anchor,
    /// `mu m g R / I` (`2 mu g / R` for a uniform disc), the angular deceleration per unit
    /// torque factor, rad/s^2.
    pub(crate) spin_scale: f64,
}

impl Motion {
    /// The state of `disc`, just added to a world on `board` at step boundary `step`: its
    /// speed and direction read from its velocity, its support window, its spin scale, no
    /// clearance yet (its first step measures it), and its anchor there.
    pub(crate) fn new(disc: &Disc, board: &Board, physics: &Physics, step: u64) -> Motion {
        let mut m = Motion {
            clearance: f64::NEG_INFINITY,
            window: board.support_window(disc.radius),
            spin_scale: physics.slide_decel() * disc.mass * disc.radius / disc.inertia(),
            ..Motion::default()
        };
        m.sync(disc);
        m.set_anchor(disc, step);
        m
    }

    /// Re-reads speed and direction from `disc.vel` after an impulse changed it.
    ///
    /// A velocity whose squared length is below the least normal `f64` (a speed under
    /// about 1.5e-154 m/s) has its length measured scaled by its larger component: the
    /// plain `sqrt(x^2 + y^2)` underflows to 0 there, which left a disc moving at
    /// 1e-162 m/s with speed 0, never stopping until `max_time`. Scaled, every such speed
    /// stops within the step as 1e-160 m/s always did; other speeds keep their bits.
    pub(crate) fn sync(&mut self, disc: &Disc) {
        let squared = disc.vel.length_squared();
        self.speed = if squared >= f64::MIN_POSITIVE || disc.vel == DVec2::ZERO {
            squared.sqrt()
        } else {
            let scale = disc.vel.abs().max_element();
            scale * (disc.vel / scale).length()
        };
        self.dir = if self.speed > 0.0 {
            disc.vel / self.speed
        } else {
            DVec2::ZERO
        };
    }

    /// Makes the disc's current state the start of its quiet run, at step boundary `step`
    /// (its place on its master curve not looked up yet: `Curve::Stale`).
    #[inline]
    pub(crate) fn set_anchor(&mut self, disc: &Disc, step: u64) {
        self.anchor = Anchor {
            step,
            pos: disc.pos,
            speed: self.speed,
            clearance: self.clearance,
            curve: Curve::Stale,
        };
    }
}

/// The state of a disc at the start of its current run of quiet steps: a step boundary
/// (`step`), its centre, speed and clearance there, and for a disc that slides and spins its
/// place on its master curve (`curve`). Through quiet steps a disc's state at the end of
/// any later quiet step `k` is defined as one closed-form advance from the anchor by
/// `T = (k - step) dt`:
///
/// - without spin, at the constant deceleration `mu g`: `pos + dir (speed T - mu g T^2 / 2)`,
///   `speed - mu g T`, clearance minus the distance. In exact arithmetic that is the result
///   of `k - step` single steps.
/// - sliding and spinning, along its master curve (`step/spin_curve.rs`): the exact solution
///   of the Farkas equations, which the per-step model approaches as the step shrinks.
/// - spinning in place, at the constant angular deceleration `(2/3) mu m g R / I`: the spin
///   less that times `T`.
///
/// As defined, it costs the same whether one step or a million are taken, and stepping by
/// hand and `World::run` compute it the same way. Set at every step boundary that is not
/// the end of a quiet step of a disc without spin; a spinning disc's place on its curve is
/// looked up only when a quiet run is proved (`Curve::Stale` until then).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Anchor {
    pub(crate) step: u64,
    pub(crate) pos: DVec2,
    pub(crate) speed: f64,
    pub(crate) clearance: f64,
    pub(crate) curve: Curve,
}

/// A spinning disc's place on its master curve at its anchor.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) enum Curve {
    /// Not looked up since the anchor was set.
    #[default]
    Stale,
    /// Not on the tables (a ratio the tables leave to the per-step model, or no board
    /// friction): quiet steps are taken one at a time.
    Off,
    /// Spinning in place with this spin at the anchor: the spin falls at the constant
    /// `(2/3) mu m g R / I`, so quiet steps are one closed-form advance like a slide's.
    InPlace(f64),
    /// On the tables: quiet steps are one closed-form advance from the anchor.
    On(OnCurve),
}

/// A disc's place on its master curve at its run's anchor: what `spin_curve.rs` needs to
/// advance it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct OnCurve {
    /// The sliding-dominated branch (`x > x*`)?
    pub(crate) above: bool,
    /// The scale `lambda = s / S(xi)`.
    pub(crate) lambda: f64,
    /// `tau(xi)` and `sigma(xi)` at the anchor.
    pub(crate) tau: f64,
    pub(crate) sigma: f64,
    /// `a / lambda`: master time per second.
    pub(crate) time_scale: f64,
    /// `lambda^2 / a`: metres per unit of `sigma`.
    pub(crate) dist_scale: f64,
}

impl OnCurve {
    /// Time from the anchor until the disc rests (slide and spin together), s.
    #[inline]
    pub(crate) fn life(&self) -> f64 {
        self.tau / self.time_scale
    }
}

/// An event the step handles. The derived order (variant, then ids) breaks time ties.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum StepEvent {
    /// Impact between moving or resting discs `a < b`.
    Disc(DiscId, DiscId),
    /// Impact of disc `a` on peg `k`.
    Peg(DiscId, usize),
    /// Disc `a`'s centre leaves the hole's support window.
    HoleExit(DiscId),
    /// Disc `a`'s centre enters the hole's support window: captured or crossing.
    HoleEnter(DiscId),
    /// Disc `a`'s centre passes the surface's edge.
    Ditch(DiscId),
    /// Disc `a` stops spinning but still slides.
    SpinEnd(DiscId),
    /// Disc `a` comes to rest.
    Stop(DiscId),
}

impl StepEvent {
    /// The discs of an impact: `(a, Some(b))` for two discs, `(a, None)` for a disc and a
    /// peg (or any one-disc event).
    pub(crate) fn discs(self) -> (DiscId, Option<DiscId>) {
        match self {
            StepEvent::Disc(a, b) => (a, Some(b)),
            StepEvent::Peg(a, _)
            | StepEvent::HoleExit(a)
            | StepEvent::HoleEnter(a)
            | StepEvent::Ditch(a)
            | StepEvent::SpinEnd(a)
            | StepEvent::Stop(a) => (a, None),
        }
    }
}

/// One contact of a group: disc `a` against disc `b` or peg `peg`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Contact {
    /// The contact as the event search names it: `StepEvent::Disc(a, b)` or `StepEvent::Peg(a, k)`.
    pub(crate) ev: StepEvent,
    /// Unit normal from `a`'s centre towards the other body's.
    pub(crate) n: DVec2,
    /// Approach speed `-v_n` before the group's impulses, m/s.
    pub(crate) approach: f64,
    /// Restitution and contact friction for this pair.
    pub(crate) e: f64,
    pub(crate) mu: f64,
    /// Normal impulse of the compression phase and tangential impulse, N s.
    pub(crate) lam: f64,
    pub(crate) jt: f64,
    /// Rank of the contact's group in the round.
    pub(crate) group: usize,
    /// Closing speed the compression allows, m/s: 0 for a touching contact; for a pair a
    /// gap `g` apart in a closure, `g / rem`, so it may close the gap by the step's end
    /// but not sooner (a speculative contact).
    pub(crate) bias: f64,
}

/// Reusable buffers for rounds (kept in the `World` so a step allocates nothing).
#[derive(Debug, Default)]
pub(crate) struct GroupScratch {
    /// The round's contacts, by group, each group in place order.
    pub(crate) contacts: Vec<Contact>,
    /// Where each group ends in `contacts`.
    pub(crate) ends: Vec<usize>,
    /// The round's discs, in place order.
    pub(crate) discs: Vec<DiscId>,
    /// Velocities and spins before the round's impulses, parallel to `discs`.
    pub(crate) before: Vec<(DVec2, f64)>,
    /// Velocities after compression, parallel to a group's discs (energy fallback).
    pub(crate) v_c: Vec<DVec2>,
    /// Union-find parents by disc id, to split the round into groups.
    pub(crate) parent: Vec<DiscId>,
    /// The step (its index, `World::steps`) of the last round: past
    /// `contact::CLOSURE_ROUNDS` rounds in one step, the rest of the step's rounds are
    /// closures.
    pub(crate) round_step: u64,
    /// Rounds in `round_step` so far.
    pub(crate) rounds: u32,
    /// Whether a closure round has run in `round_step`: from then on a touching pair
    /// approaching slower than `press_speed` is left to the end of the step.
    pub(crate) closed: bool,
    /// Discs reached by the closure's walk over touching contacts, by disc id.
    pub(crate) reached: Vec<bool>,
}

// Written out so that `clone_from` reuses the buffers (`World::copy_from`); the
// destructuring names every field, so a new one fails to compile until it is copied.
impl Clone for GroupScratch {
    fn clone(&self) -> GroupScratch {
        let mut copy = GroupScratch::default();
        copy.clone_from(self);
        copy
    }

    fn clone_from(&mut self, source: &GroupScratch) {
        let GroupScratch {
            contacts,
            ends,
            discs,
            before,
            v_c,
            parent,
            round_step,
            rounds,
            closed,
            reached,
        } = source;
        self.contacts.clone_from(contacts);
        self.ends.clone_from(ends);
        self.discs.clone_from(discs);
        self.before.clone_from(before);
        self.v_c.clone_from(v_c);
        self.parent.clone_from(parent);
        self.round_step = *round_step;
        self.rounds = *rounds;
        self.closed = *closed;
        self.reached.clone_from(reached);
    }
}
