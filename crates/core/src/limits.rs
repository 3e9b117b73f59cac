//! The work bounds of one shot: what no input can make a shot exceed, chosen so that
//! ordinary play never meets them (docs/limits.md has the table of every limit of the
//! project, its value and what happens when it is met).
//!
//! Two kinds:
//! - knowable up front, refused with the input: more than [`MAX_STEPS`] fixed steps
//!   (`max_time / dt`), more than [`MAX_DISCS`] discs, more than [`MAX_PEGS`] pegs;
//! - met while running: the shot ends where it stands, its outcome flagged with the
//!   [`Limit`] that ended it (as a shot cut off by `max_time` is), and a batch goes on
//!   with the next shot.

/// Most fixed steps one shot may take (`max_time / dt`), refused up front: with the
/// default `dt` of 1 ms that is 10,000 s of simulated time, far beyond the 20 s default.
/// A disc at a slide-to-spin ratio the master curves leave out is stepped one step at a
/// time, so this bounds a shot's time too.
pub const MAX_STEPS: f64 = 1e7;

/// Most discs one shot may hold, refused up front (the field names the first disc too
/// many). A game's board holds at most 28 and the engine is tested with 150; checking a
/// new disc against every other is quadratic, so this also bounds the time to accept or
/// refuse a shot.
pub const MAX_DISCS: usize = 1024;

/// Most pegs a board may hold, refused up front (field `board.pegs`). A tournament
/// board has 8. Every moving disc's clearance and contacts are checked against the pegs
/// near it, so thousands of pegs cost seconds a shot (5,000 cost 24 s); this keeps the
/// heaviest board within the cost of a crowded one.
pub const MAX_PEGS: usize = 256;

/// Most events one shot may log. An ordinary shot logs tens; a crowded 28-disc board a
/// few hundred. A shot that reaches it ends there ([`Limit::Events`]), which bounds the
/// memory of its event log and the size of its outcome (about 120 bytes of JSON an event).
pub const MAX_EVENTS_PER_SHOT: usize = 100_000;

/// Most disc positions one trace may hold (summed over its frames). A trace that would
/// hold more is thinned: every other frame is folded into the next and the sampling
/// interval doubles, so the trace still covers the whole shot (`Trace::every` says the
/// interval it ended with).
pub const MAX_TRACE_POINTS: usize = 1_000_000;

/// Most shots one fit may take (`crokinole fit`, docs/tracks.md), refused up front. Each
/// iteration simulates every shot once per free parameter it depends on, and the solver's
/// normal matrix holds three launch parameters per shot, so this bounds the fit's time and
/// memory.
pub const MAX_FIT_SHOTS: usize = 200;

/// Most observed positions one fit may take, summed over its shots' tracks, refused up
/// front (the field names the shot that passes it).
pub const MAX_FIT_OBSERVATIONS: usize = 200_000;

/// Most Levenberg-Marquardt iterations a fit may be asked for (`--max-iterations`); a fit
/// that has not converged within its count reports so.
pub const MAX_FIT_ITERATIONS: u32 = 500;

/// Why a shot ended before every disc came to rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// The clock reached `physics.max_time`.
    MaxTime,
    /// The shot logged [`MAX_EVENTS_PER_SHOT`] events.
    Events,
}

impl Limit {
    /// The name used in outcome files: `max_time` or `max_events`.
    pub fn name(self) -> &'static str {
        match self {
            Limit::MaxTime => "max_time",
            Limit::Events => "max_events",
        }
    }
}
