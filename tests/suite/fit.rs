//! `crokinole fit` (docs/tracks.md): tracks made by the engine with known coefficients are
//! fitted back within their reported uncertainty, over repeated noise draws; a coefficient
//! the shots cannot inform is reported as such; a missing disc, an impossible track and a
//! wrong board are refused naming the shot and the field; the command runs end to end.

use crokinole::fit::model::{all_paths, position_at, trace_of};
use crokinole::fit::{
    Coefficient, Estimate, FitConfig, Launch, Observation, Track, TrackedShot, Tracks, fit,
};
use crokinole::montecarlo::noise::{Draws, Param};
use crokinole::{Board, EventKind, Physics, Placed};
use glam::DVec2;

/// The coefficients the synthetic tracks are made with (none at its default).
fn truth() -> Physics {
    Physics {
        board_friction: 0.15,
        disc_restitution: 0.75,
        disc_friction: 0.3,
        peg_restitution: 0.5,
        peg_friction: 0.4,
        ..Physics::default()
    }
}

/// A shot to track: the discs at rest, the shooter's team and start, its launch.
struct Setup {
    discs: Vec<DVec2>,
    start: DVec2,
    vel: DVec2,
    spin: f64,
}

fn setup(discs: &[[f64; 2]], start: [f64; 2], vel: [f64; 2]) -> Setup {
    Setup {
        discs: discs.iter().map(|&p| DVec2::from(p)).collect(),
        start: DVec2::from(start),
        vel: DVec2::from(vel),
        spin: 0.0,
    }
}

/// Disc-disc hits (head-on and oblique), peg hits and a lone slide.
fn setups() -> Vec<Setup> {
    vec![
        setup(&[[0.0, -0.12]], [0.0, -0.3048], [0.0, 1.0]),
        setup(&[[-0.015, -0.06]], [0.0, -0.3048], [0.0, 1.1]),
        setup(&[], [0.03, -0.3048], [0.0, 0.9]),
        setup(&[[-0.06, 0.05]], [0.09, -0.28], [0.02, 0.95]),
        setup(&[], [-0.05, -0.3048], [0.0, 0.8]),
    ]
}

/// The tracks of `setups` simulated with `physics`: every disc that moves, sampled at
/// 60, 120 or 240 frames a second (by shot) from the first frame after the launch until
/// a tenth of a second after everything rests (or until it leaves the surface), with
/// Gaussian noise of 1 or 2 mm (by shot) from `seed`. The file's physics is the default.
fn synthetic(setups: &[Setup], physics: &Physics, seed: u64) -> Tracks {
    let board = Board::tournament();
    let mut draws = Draws::new(seed, 0, Param::Offset);
    let shots = setups
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let fps = [60.0, 120.0, 240.0][k % 3];
            let sigma = [0.001, 0.002][k % 2];
            let mut shot = TrackedShot {
                discs: s.discs.iter().map(|&pos| Placed { team: 1, pos }).collect(),
                shooter: Placed {
                    team: 0,
                    pos: s.start,
                },
                tracks: vec![],
            };
            // A long last time so the whole shot is traced.
            shot.tracks.push(Track {
                disc: s.discs.len(),
                sigma,
                points: vec![Observation {
                    t: physics.max_time,
                    pos: DVec2::ZERO,
                }],
            });
            let launch = Launch {
                vel: s.vel,
                spin: s.spin,
            };
            let trace = trace_of(&board, physics, &shot, launch).unwrap();
            let paths = all_paths(&trace);
            let end = trace.outcome.time + 0.1;
            let moved = trace.moved();
            shot.tracks.clear();
            for id in moved {
                let gone = trace
                    .outcome
                    .events
                    .iter()
                    .find(|e| matches!(e.kind, EventKind::Ditch { a } | EventKind::Hole { a } if a == id))
                    .map_or(f64::INFINITY, |e| e.t);
                let mut points = Vec::new();
                let mut i = 1;
                loop {
                    let t = i as f64 / fps;
                    if t > end || t >= gone {
                        break;
                    }
                    let p = position_at(&paths[id], t);
                    let noise = DVec2::new(draws.gaussian(), draws.gaussian()) * sigma;
                    points.push(Observation { t, pos: p + noise });
                    i += 1;
                }
                shot.tracks.push(Track {
                    disc: id,
                    sigma,
                    points,
                });
            }
            shot
        })
        .collect();
    Tracks {
        board,
        physics: Physics::default(),
        shots,
    }
}

#[test]
fn explore() {
    let tracks = synthetic(&setups(), &truth(), 1);
    let t0 = std::time::Instant::now();
    let f = fit(&tracks, &FitConfig::default()).unwrap();
    eprintln!("{:?}", t0.elapsed());
    for c in &f.coefficients {
        eprintln!(
            "{:?} {:?} truth {}",
            c.coefficient,
            c.estimate,
            c.coefficient.get(&truth())
        );
    }
    eprintln!(
        "iter {} conv {} chi2 {} dof {} contacts {:?}",
        f.iterations, f.converged, f.chi2, f.dof, f.contacts
    );
    for s in &f.shots {
        eprintln!("{:?}", s);
    }
    let _ = (
        Coefficient::ALL,
        Estimate::NotIdentified {
            reason: String::new(),
        },
    );
}
