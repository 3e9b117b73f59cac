//! Traces: where every disc went during a shot, for pictures and analysis.
//!
//! [`trace_shot`] runs a shot with [`World::step`], exactly the arithmetic of
//! [`run_shot`](crate::run_shot) (its outcome is bit-identical), and records:
//! - the discs at the start;
//! - a [`Frame`] at the end of every `every`-th fixed step and of the last step, holding
//!   each disc whose position changed since the previous frame (moving discs, and those
//!   that stopped or left the surface since); discs at rest cost nothing;
//! - for every logged event, where it happened ([`TracedEvent`]): the centres of its discs
//!   at its instant and the contact point (disc-disc: on the line of centres, at `r_a` from
//!   `a`; disc-peg: on the peg's sleeve, toward the disc; hole and ditch: the disc's centre
//!   where it left the surface).
//!
//! Between events a disc moves in a straight line (friction never turns it), so the polyline
//! of [`Trace::paths`] (frames plus event positions) is the exact path whatever `every` is.
//!
//! **Memory**: a frame entry is 32 bytes and only discs that moved are sampled, so a trace
//! holds at most `(steps / every + 1) * moving discs` entries plus one record per event: a
//! shot cut off after 10 s at `dt` = 1 ms with all 30 discs moving the whole time is
//! 10,000 frames of 30 entries at `every` = 1, 9.6 MB; ordinary shots a few kB.

use crate::batch::Finished;
use crate::board::Board;
use crate::cancel::{Cancel, Cancelled};
use crate::disc::{Disc, DiscId, DiscState};
use crate::error::InputError;
use crate::limits::MAX_TRACE_POINTS;
use crate::params::Physics;
use crate::shot::{Outcome, Shot, ShotError, finished};
use crate::step::event::{Event, EventKind};
use crate::world::World;
use glam::DVec2;

/// The discs that moved since the previous frame, at the end of fixed step `step`.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// Fixed steps taken (the frame is at the end of this many steps).
    pub step: u64,
    /// The clock, `step * dt`, s.
    pub t: f64,
    /// `(id, centre, state)` of every disc whose centre changed since the previous frame
    /// (or the start), in id order.
    pub discs: Vec<(DiscId, DVec2, DiscState)>,
}

/// A logged event with where it happened.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TracedEvent {
    /// The event, as in the outcome's log.
    pub event: Event,
    /// Contact point (disc-disc, disc-peg) or the centre where the disc left the surface
    /// (hole, ditch), m.
    pub point: DVec2,
    /// Centre of disc `a` at the event, m.
    pub pos_a: DVec2,
    /// Centre of disc `b` at the event (disc-disc impacts only), m.
    pub pos_b: Option<DVec2>,
}

/// A shot's trace: the start, sampled frames, the events with their places, the outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// A frame is taken every `every` fixed steps (and after the last step): the interval
    /// asked for, doubled as often as needed to keep the trace within
    /// [`MAX_TRACE_POINTS`] disc positions.
    pub every: u32,
    /// The fixed step, s.
    pub dt: f64,
    /// Every disc at the start, in id order.
    pub start: Vec<Disc>,
    /// Frames in step order.
    pub frames: Vec<Frame>,
    /// One per event of `outcome.events`, in the same order.
    pub events: Vec<TracedEvent>,
    /// The outcome, bit-identical to [`run_shot`](crate::run_shot)'s.
    pub outcome: Outcome,
}

/// A point of a disc's path: time, s, and centre, m.
pub type PathPoint = (f64, DVec2);

/// Runs `shot` step by step and records its trace, a frame every `every` steps (at least 1).
/// Errors are those of [`run_shot`](crate::run_shot).
pub fn trace_shot(
    board: &Board,
    physics: &Physics,
    shot: &Shot,
    every: u32,
) -> Result<Trace, InputError> {
    if every == 0 {
        return Err(InputError::new(
            "trace",
            "sample every 1 or more steps, got 0",
        ));
    }
    Ok(trace_world(shot.world(board, physics)?, every))
}

/// [`trace_shot`] for every shot on the current rayon pool; result `k` belongs to
/// `shots[k]`, errors carry its index (as [`run_batch`](crate::run_batch)).
pub fn trace_batch(
    board: &Board,
    physics: &Physics,
    shots: &[Shot],
    every: u32,
) -> Vec<Result<Trace, InputError>> {
    crate::batch::map_items(shots, |k, s| {
        trace_shot(board, physics, s, every).map_err(|e| e.in_shot(k))
    })
}

/// Runs `world` to rest (or `max_time`) with [`World::step`] and records its trace, a frame
/// every `every` steps (`every` 0 counts as 1). The world should not have stepped yet.
pub fn trace_world(world: World, every: u32) -> Trace {
    match trace_world_until(world, every, &Cancel::never()) {
        Ok(t) => t,
        Err(never) => unreachable!("Cancel::never was cancelled: {never}"),
    }
}

/// [`trace_shot`] that stops when `cancel` is cancelled (checked before the shot and
/// every [`CANCEL_EVERY`](crate::step::CANCEL_EVERY) steps): a stopped shot has no trace.
pub fn trace_shot_until(
    board: &Board,
    physics: &Physics,
    shot: &Shot,
    every: u32,
    cancel: &Cancel,
) -> Result<Trace, ShotError> {
    cancel.check()?;
    if every == 0 {
        return Err(ShotError::Input(InputError::new(
            "trace",
            "sample every 1 or more steps, got 0",
        )));
    }
    Ok(trace_world_until(
        shot.world(board, physics)?,
        every,
        cancel,
    )?)
}

/// [`trace_batch`] stopped by `cancel` between and within shots: the traces of the shots
/// before the first stopped one, in order (as [`crate::batch::run_batch_until`]). The
/// shots may be anything that holds a [`Shot`] (a shot file's entries, say).
pub fn trace_batch_until<S: std::borrow::Borrow<Shot> + Sync>(
    board: &Board,
    physics: &Physics,
    shots: &[S],
    every: u32,
    cancel: &Cancel,
) -> Finished<Result<Trace, InputError>> {
    Finished::prefix(crate::batch::map_items(
        shots,
        |k, s| match trace_shot_until(board, physics, s.borrow(), every, cancel) {
            Ok(t) => Ok(Ok(t)),
            Err(ShotError::Input(e)) => Ok(Err(e.in_shot(k))),
            Err(ShotError::Cancelled(c)) => Err(c),
        },
    ))
}

/// [`trace_world`] that stops when `cancel` is cancelled.
fn trace_world_until(mut world: World, every: u32, cancel: &Cancel) -> Result<Trace, Cancelled> {
    let mut every = every.max(1);
    let mut points = 0usize;
    // Centres of frames dropped by thinning after the last kept one: they go into the next.
    let mut carry = Vec::new();
    let start = world.discs().to_vec();
    let mut last: Vec<DVec2> = start.iter().map(|d| d.pos).collect();
    let mut frames = Vec::new();
    world.event_centres = Some(Vec::new());
    // The loop of `World::run` (`run` glides over quiet steps with the same arithmetic).
    let max_steps = (world.physics.max_time / world.physics.dt).ceil() as u64;
    while !world.is_over() && world.steps() < max_steps {
        if world
            .steps()
            .is_multiple_of(u64::from(crate::step::CANCEL_EVERY))
        {
            cancel.check()?;
        }
        world.step();
        if world.steps().is_multiple_of(u64::from(every)) || world.is_at_rest() {
            let mut f = frame(&world, &mut last);
            f.discs = merge_by_id(std::mem::take(&mut carry), f.discs);
            points += f.discs.len();
            frames.push(f);
            if points > MAX_TRACE_POINTS && frames.len() > 1 {
                every = every.saturating_mul(2);
                carry = thin(&mut frames, u64::from(every));
                points = frames.iter().map(|f| f.discs.len()).sum();
            }
        }
    }
    if world.steps() > 0 && frames.last().is_none_or(|f| f.step != world.steps()) {
        let mut f = frame(&world, &mut last); // cut off between two frames
        f.discs = merge_by_id(carry, f.discs);
        frames.push(f);
    }
    let centres = world.event_centres.take().unwrap_or_default();
    let events = world
        .events()
        .iter()
        .zip(centres)
        .map(|(e, (pos_a, pos_b))| TracedEvent {
            event: *e,
            point: contact_point(&world, e.kind, pos_a, pos_b),
            pos_a,
            pos_b,
        })
        .collect();
    let dt = world.physics().dt;
    let outcome = finished(world);
    Ok(Trace {
        every,
        dt,
        start,
        frames,
        events,
        outcome,
    })
}

/// Keeps the frames at multiples of `every` steps, folding each dropped frame into the
/// next kept one (a later centre replaces an earlier one, ids stay in order), so every disc
/// still ends each kept frame where it was. Returns the centres of the dropped frames after
/// the last kept one, for the next frame taken.
fn thin(frames: &mut Vec<Frame>, every: u64) -> Vec<(DiscId, DVec2, DiscState)> {
    let n = frames.len();
    let mut kept = Vec::with_capacity(n / 2 + 1);
    let mut pending: Vec<(DiscId, DVec2, DiscState)> = Vec::new();
    for f in std::mem::take(frames) {
        let merged = merge_by_id(std::mem::take(&mut pending), f.discs);
        if f.step.is_multiple_of(every) {
            kept.push(Frame { discs: merged, ..f });
        } else {
            pending = merged;
        }
    }
    *frames = kept;
    pending
}

/// The union of two id-ordered lists of disc centres, `later`'s entry winning a shared id.
fn merge_by_id(
    earlier: Vec<(DiscId, DVec2, DiscState)>,
    later: Vec<(DiscId, DVec2, DiscState)>,
) -> Vec<(DiscId, DVec2, DiscState)> {
    if earlier.is_empty() {
        return later;
    }
    let mut out = Vec::with_capacity(earlier.len() + later.len());
    let (mut a, mut b) = (earlier.into_iter().peekable(), later.into_iter().peekable());
    loop {
        match (a.peek(), b.peek()) {
            (Some(x), Some(y)) if x.0 < y.0 => out.extend(a.next()),
            (Some(x), Some(y)) if x.0 == y.0 => {
                a.next();
                out.extend(b.next());
            }
            (_, Some(_)) => out.extend(b.next()),
            (Some(_), None) => out.extend(a.next()),
            (None, None) => return out,
        }
    }
}

/// The frame at the world's clock: discs whose centre differs (bitwise) from `last`.
fn frame(world: &World, last: &mut [DVec2]) -> Frame {
    let mut discs = Vec::new();
    for (i, d) in world.discs().iter().enumerate() {
        if d.pos.x.to_bits() != last[i].x.to_bits() || d.pos.y.to_bits() != last[i].y.to_bits() {
            discs.push((i, d.pos, d.state));
            last[i] = d.pos;
        }
    }
    Frame {
        step: world.steps(),
        t: world.time(),
        discs,
    }
}

/// Where event `kind` happened, from its discs' centres at its instant.
fn contact_point(world: &World, kind: EventKind, pos_a: DVec2, pos_b: Option<DVec2>) -> DVec2 {
    let discs = world.discs();
    match (kind, pos_b) {
        (EventKind::Disc { a, b }, Some(pb)) => {
            let (ra, rb) = (discs[a].radius, discs[b].radius);
            pos_a + (pb - pos_a) * (ra / (ra + rb))
        }
        (EventKind::Peg { peg, .. }, _) => {
            let c = world.board().pegs[peg];
            let off = pos_a - c;
            let len = off.length();
            if len > 0.0 {
                c + off * (world.board().peg_radius / len)
            } else {
                c
            }
        }
        _ => pos_a,
    }
}

impl Trace {
    /// Ids of the discs that moved during the shot (their centre changed), ascending.
    pub fn moved(&self) -> Vec<DiscId> {
        let mut moved = vec![false; self.start.len()];
        for f in &self.frames {
            for &(i, _, _) in &f.discs {
                moved[i] = true;
            }
        }
        (0..moved.len()).filter(|&i| moved[i]).collect()
    }

    /// The path of every disc that moved, in id order: its start, the frames and the events
    /// it took part in, in time order (an event before a frame at the same time), ending
    /// where it rests or left the surface. Straight between consecutive points.
    pub fn paths(&self) -> Vec<(DiscId, Vec<PathPoint>)> {
        let mut paths: Vec<Vec<PathPoint>> =
            self.start.iter().map(|d| vec![(0.0, d.pos)]).collect();
        let mut frames = self.frames.iter().peekable();
        let mut events = self.events.iter().peekable();
        loop {
            let take_event = match (events.peek(), frames.peek()) {
                (Some(e), Some(f)) => e.event.t <= f.t,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            if take_event {
                let e = events.next().expect("peeked");
                let (a, b) = match e.event.kind {
                    EventKind::Disc { a, b } => (a, Some(b)),
                    EventKind::Peg { a, .. } | EventKind::Hole { a } | EventKind::Ditch { a } => {
                        (a, None)
                    }
                };
                push_point(&mut paths[a], e.event.t, e.pos_a);
                if let (Some(b), Some(pb)) = (b, e.pos_b) {
                    push_point(&mut paths[b], e.event.t, pb);
                }
            } else {
                let f = frames.next().expect("peeked");
                for &(i, pos, _) in &f.discs {
                    push_point(&mut paths[i], f.t, pos);
                }
            }
        }
        self.moved()
            .into_iter()
            .map(|i| (i, std::mem::take(&mut paths[i])))
            .collect()
    }
}

/// Appends a point unless the path already ends at that centre.
fn push_point(path: &mut Vec<PathPoint>, t: f64, pos: DVec2) {
    if path.last().is_none_or(|&(_, p)| p != pos) {
        path.push((t, pos));
    }
}
