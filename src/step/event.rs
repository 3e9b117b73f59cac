//! Events: what the engine logs (contacts and departures) and the total order that breaks
//! ties between simultaneous events.
//!
//! The order is (time, kind, ids): the derived `Ord` of [`EventKind`] ranks disc-disc before
//! disc-peg before hole before ditch, then by the ids, so the same input always produces
//! the same sequence, whatever happens to coincide.

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
