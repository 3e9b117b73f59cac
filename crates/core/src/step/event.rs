//! The event log: what the engine reports of a shot (contacts and departures), in time
//! order. The order in which the step *handles* events that coincide is not decided here
//! but by `StepEvent` (`step/state.rs`: time, then kind, then ids) and, for contacts at one
//! instant, by `step/contact.rs` (together, logged in place order).

use crate::disc::DiscId;

/// What happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EventKind {
    /// Impact between discs `a < b`.
    Disc { a: DiscId, b: DiscId },
    /// Impact of disc `a` on peg `peg` (index into `Board::pegs`).
    Peg { a: DiscId, peg: usize },
    /// Disc `a` dropped into the 20 hole and left the simulation.
    Hole { a: DiscId },
    /// Disc `a` went over the edge of the playing surface into the ditch.
    Ditch { a: DiscId },
}

/// A logged event at absolute simulated time `t`, s.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Event {
    /// Seconds since the start of the shot.
    pub t: f64,
    /// What happened.
    pub kind: EventKind,
}
