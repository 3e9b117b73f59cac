//! The forward model of the fit: a tracked shot simulated with given coefficients and
//! launch ([`simulate`]), each observed disc's centre read off its traced path at the
//! observed times; and the launch a fit starts from ([`initial_launch`]), estimated from
//! the shooter's first observations.
//!
//! The engine runs the shot with [`trace_shot`] at a frame every fixed step, cut off just
//! after the last observation (nothing later is compared). A disc's path is its start, the
//! frames and the events it took part in, in time order; between two of its points it moves
//! in a straight line, and the position at a time between them is interpolated linearly in
//! time: exact at events and step ends, within `a dt^2 / 8` (0.15 um at the default
//! friction and step) in between.

use super::tracks::TrackedShot;
use crokinole_core::board::Board;
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_core::step::event::EventKind;
use crokinole_core::trace::{Trace, trace_shot};
use glam::DVec2;

/// A shot's launch: the shooter's velocity and spin at time 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Launch {
    /// Velocity, m/s.
    pub vel: DVec2,
    /// Spin, rad/s, counter-clockwise positive.
    pub spin: f64,
}

/// What one simulation of a tracked shot predicts.
#[derive(Clone, Debug, PartialEq)]
pub struct Simulated {
    /// Per track (in the shot's order), the predicted centre at each observed time.
    pub predicted: Vec<Vec<DVec2>>,
    /// Disc-disc contacts logged.
    pub disc_contacts: usize,
    /// Disc-peg contacts logged.
    pub peg_contacts: usize,
    /// Whether the shot was cut off before its last observation by the physics'
    /// `max_time` or a work bound.
    pub cut_off_early: bool,
}

/// Simulates `shot` with `physics` and `launch`: its discs' centres at the observed
/// times. Errors are the engine's refusals of the shot (a launch faster than `max_speed`).
pub fn simulate(
    board: &Board,
    physics: &Physics,
    shot: &TrackedShot,
    launch: Launch,
) -> Result<Simulated, InputError> {
    let trace = trace_of(board, physics, shot, launch)?;
    let paths = all_paths(&trace);
    let predicted = shot
        .tracks
        .iter()
        .map(|track| {
            let path = &paths[track.disc];
            track
                .points
                .iter()
                .map(|p| position_at(path, p.t))
                .collect()
        })
        .collect();
    let (mut disc_contacts, mut peg_contacts) = (0, 0);
    for e in &trace.outcome.events {
        match e.kind {
            EventKind::Disc { .. } => disc_contacts += 1,
            EventKind::Peg { .. } => peg_contacts += 1,
            _ => {}
        }
    }
    let cut_off_early = trace
        .outcome
        .limit
        .is_some_and(|l| l != crokinole_core::limits::Limit::MaxTime)
        || (trace.outcome.cut_off && trace.outcome.time < shot.last_time());
    Ok(Simulated {
        predicted,
        disc_contacts,
        peg_contacts,
        cut_off_early,
    })
}

/// The trace of `shot` launched with `launch`, a frame every step, run until just after its
/// last observation (or `physics.max_time`).
pub fn trace_of(
    board: &Board,
    physics: &Physics,
    shot: &TrackedShot,
    launch: Launch,
) -> Result<Trace, InputError> {
    let mut p = physics.clone();
    p.max_time = (shot.last_time() + 2.0 * p.dt).min(physics.max_time);
    trace_shot(board, &p, &shot.shot(launch.vel, launch.spin), 1)
}

/// Every disc's path in id order (a disc that never moved: its start alone): its start,
/// the frames and its events in time order (an event before a frame at the same time). A
/// point at a later time is kept even at the same centre, so a disc at rest until an impact
/// stays where it was until the impact's time.
pub fn all_paths(trace: &Trace) -> Vec<Vec<(f64, DVec2)>> {
    let mut paths: Vec<Vec<(f64, DVec2)>> =
        trace.start.iter().map(|d| vec![(0.0, d.pos)]).collect();
    let push = |path: &mut Vec<(f64, DVec2)>, t: f64, pos: DVec2| {
        if path.last() != Some(&(t, pos)) {
            path.push((t, pos));
        }
    };
    let (mut f, mut e) = (0, 0);
    while f < trace.frames.len() || e < trace.events.len() {
        let take_event = match (trace.events.get(e), trace.frames.get(f)) {
            (Some(ev), Some(fr)) => ev.event.t <= fr.t,
            (Some(_), None) => true,
            _ => false,
        };
        if take_event {
            let ev = &trace.events[e];
            e += 1;
            let (a, b) = match ev.event.kind {
                EventKind::Disc { a, b } => (a, Some(b)),
                EventKind::Peg { a, .. } | EventKind::Hole { a } | EventKind::Ditch { a } => {
                    (a, None)
                }
            };
            push(&mut paths[a], ev.event.t, ev.pos_a);
            if let (Some(b), Some(pb)) = (b, ev.pos_b) {
                push(&mut paths[b], ev.event.t, pb);
            }
        } else {
            let fr = &trace.frames[f];
            f += 1;
            for &(i, pos, _) in &fr.discs {
                push(&mut paths[i], fr.t, pos);
            }
        }
    }
    paths
}

/// The centre on `path` at time `t`: linear in time between the points around it, the
/// first before the path starts, the last after it ends.
pub fn position_at(path: &[(f64, DVec2)], t: f64) -> DVec2 {
    let k = path.partition_point(|&(tp, _)| tp < t);
    if k == 0 {
        return path[0].1;
    }
    if k == path.len() {
        return path[k - 1].1;
    }
    let ((t0, p0), (t1, p1)) = (path[k - 1], path[k]);
    if t1 > t0 {
        p0 + (p1 - p0) * ((t - t0) / (t1 - t0))
    } else {
        p1
    }
}

/// Most observations (after the launch, within [`LAUNCH_WINDOW`]) the launch estimate
/// uses.
pub const LAUNCH_POINTS: usize = 30;
/// The shooter's observations within this time of the launch (and at least its first
/// after it) give the starting launch, s.
pub const LAUNCH_WINDOW: f64 = 0.1;

/// The launch a fit starts from: the shooter's first observations (up to
/// [`LAUNCH_POINTS`] within [`LAUNCH_WINDOW`] s, at least the first after the launch) as a
/// straight slide from its start at the deceleration `mu g` of `physics`: the direction of
/// their mean displacement, the speed that fits `s = v t - mu g t^2 / 2` by least squares
/// (at most `max_speed`); no spin. Zero if the shooter has no observation after the
/// launch.
pub fn initial_launch(shot: &TrackedShot, physics: &Physics) -> Launch {
    let Some(track) = shot.shooter_track() else {
        return Launch {
            vel: DVec2::ZERO,
            spin: 0.0,
        };
    };
    let after: Vec<_> = track.points.iter().filter(|p| p.t > 0.0).collect();
    let used: Vec<_> = after
        .iter()
        .enumerate()
        .filter(|&(k, p)| k == 0 || p.t <= LAUNCH_WINDOW)
        .take(LAUNCH_POINTS)
        .map(|(_, p)| *p)
        .collect();
    let p0 = shot.shooter.pos;
    let sum = used.iter().fold(DVec2::ZERO, |s, p| s + (p.pos - p0));
    let len = sum.length();
    if used.is_empty() || len == 0.0 {
        return Launch {
            vel: DVec2::ZERO,
            spin: 0.0,
        };
    }
    let u = sum / len;
    let a = physics.slide_decel();
    let (mut num, mut den) = (0.0, 0.0);
    for p in &used {
        let s = (p.pos - p0).dot(u);
        num += p.t * (s + 0.5 * a * p.t * p.t);
        den += p.t * p.t;
    }
    let speed = (num / den).clamp(0.0, physics.max_speed);
    Launch {
        vel: u * speed,
        spin: 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_interpolate_in_time_and_hold_at_the_ends() {
        let path = [
            (0.0, DVec2::ZERO),
            (0.5, DVec2::ZERO),
            (1.0, DVec2::new(1.0, 0.0)),
        ];
        assert_eq!(position_at(&path, 0.25), DVec2::ZERO);
        assert_eq!(position_at(&path, 0.75), DVec2::new(0.5, 0.0));
        assert_eq!(position_at(&path, 2.0), DVec2::new(1.0, 0.0));
    }
}
