//! Tracked shots: the discs before the shot and, per disc, its observed centres at their
//! times with a stated position uncertainty; checked before anything is fitted.
//!
//! Time 0 is the launch: the shooter at its `shooter_pos` with the velocity and spin the fit
//! estimates. A disc's id is its place in the shot, as in a shot file: the discs at rest
//! `0..n`, the shooter `n`.

use crokinole_core::board::Board;
use crokinole_core::error::{InputError, num};
use crokinole_core::limits::{MAX_FIT_OBSERVATIONS, MAX_FIT_SHOTS};
use crokinole_core::params::Physics;
use crokinole_core::shot::{Flick, Placed, Shot};
use glam::DVec2;

/// One observed centre of a disc.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Observation {
    /// Time since the launch, s.
    pub t: f64,
    /// Observed centre, m.
    pub pos: DVec2,
}

/// The observations of one disc in one shot.
#[derive(Clone, Debug, PartialEq)]
pub struct Track {
    /// The disc's id in its shot (the discs at rest `0..n`, the shooter `n`).
    pub disc: usize,
    /// Standard deviation of each observed coordinate (x and y alike), m.
    pub sigma: f64,
    /// The observations, in increasing time.
    pub points: Vec<Observation>,
}

/// One tracked shot: the position before it, where the shooter starts, the tracks.
#[derive(Clone, Debug, PartialEq)]
pub struct TrackedShot {
    /// Discs at rest before the shot (ids `0..n`).
    pub discs: Vec<Placed>,
    /// The shooter's team and centre at the launch (id `n`); its velocity and spin are
    /// fitted.
    pub shooter: Placed,
    /// One track per observed disc, any order, at most one per disc.
    pub tracks: Vec<Track>,
}

/// Everything `crokinole fit` reads: the board, the physics (the coefficients to fit start
/// from its values, the others are held), the shots.
#[derive(Clone, Debug, PartialEq)]
pub struct Tracks {
    /// The board.
    pub board: Board,
    /// The physics: the fit's starting values.
    pub physics: Physics,
    /// The tracked shots.
    pub shots: Vec<TrackedShot>,
}

/// How far (in the track's sigmas) an observed centre may lie outside the surface or
/// inside a peg's sleeve before it is refused as incompatible with the board.
pub const BOARD_TOLERANCE_SIGMAS: f64 = 3.0;

impl TrackedShot {
    /// The shot with the shooter launched at `vel` and `spin`.
    pub fn shot(&self, vel: DVec2, spin: f64) -> Shot {
        Shot {
            discs: self.discs.clone(),
            shooter: Flick {
                team: self.shooter.team,
                pos: self.shooter.pos,
                vel,
                spin,
            },
        }
    }

    /// The shooter's id.
    pub fn shooter_id(&self) -> usize {
        self.discs.len()
    }

    /// The shooter's track, if any.
    pub fn shooter_track(&self) -> Option<&Track> {
        self.tracks.iter().find(|t| t.disc == self.shooter_id())
    }

    /// Observations in all.
    pub fn observations(&self) -> usize {
        self.tracks.iter().map(|t| t.points.len()).sum()
    }

    /// The latest observed time, s (0 without observations).
    pub fn last_time(&self) -> f64 {
        self.tracks
            .iter()
            .filter_map(|t| t.points.last())
            .map(|p| p.t)
            .fold(0.0, f64::max)
    }

    /// Checks the shot against the board and physics: the discs placed as a shot file
    /// places them (fields `discs[k]`, `shooter`); every track of an existing disc, one per
    /// disc (`tracks[k].disc`), with a positive finite `sigma` (`tracks[k].sigma`) and at
    /// least one observation; its times finite, within `[0, max_time]` and strictly
    /// increasing (`tracks[k].points[j].t`); its centres finite, on the surface and outside
    /// the pegs within [`BOARD_TOLERANCE_SIGMAS`] (`tracks[k].points[j].pos`); the shooter
    /// observed after the launch (`tracks`). Fields are relative to the shot.
    pub fn check(&self, board: &Board, physics: &Physics) -> Result<(), InputError> {
        self.shot(DVec2::ZERO, 0.0).world(board, physics)?;
        let n = self.shooter_id();
        let mut seen: Vec<Option<usize>> = vec![None; n + 1];
        for (k, track) in self.tracks.iter().enumerate() {
            let field = |rest: &str| format!("tracks[{k}]{rest}");
            if track.disc > n {
                return Err(InputError::new(
                    field(".disc"),
                    format!(
                        "no disc {} in this shot: it has {} at rest (ids 0..{}) and the \
                         shooter (id {n})",
                        track.disc,
                        n,
                        n.max(1) - 1
                    ),
                ));
            }
            if let Some(j) = seen[track.disc] {
                return Err(InputError::new(
                    field(".disc"),
                    format!("disc {} already has a track (tracks[{j}])", track.disc),
                ));
            }
            seen[track.disc] = Some(k);
            if !(track.sigma.is_finite() && track.sigma > 0.0) {
                return Err(InputError::new(
                    field(".sigma"),
                    format!(
                        "the position uncertainty must be a positive number of metres, got {}",
                        num(track.sigma)
                    ),
                ));
            }
            if track.points.is_empty() {
                return Err(InputError::new(
                    field(".points"),
                    "a track needs at least one observation",
                ));
            }
            let tol = BOARD_TOLERANCE_SIGMAS * track.sigma;
            let mut last: Option<f64> = None;
            for (j, p) in track.points.iter().enumerate() {
                let tf = || field(&format!(".points[{j}].t"));
                let pf = || field(&format!(".points[{j}].pos"));
                if !p.t.is_finite() || p.t < 0.0 || p.t > physics.max_time {
                    return Err(InputError::new(
                        tf(),
                        format!(
                            "must lie in [0, max_time = {}] s (time since the launch), got {}",
                            num(physics.max_time),
                            num(p.t)
                        ),
                    ));
                }
                if let Some(prev) = last {
                    if p.t == prev {
                        return Err(InputError::new(
                            tf(),
                            format!(
                                "duplicate time {} s: the previous point has it too",
                                num(p.t)
                            ),
                        ));
                    }
                    if p.t < prev {
                        return Err(InputError::new(
                            tf(),
                            format!(
                                "time goes backwards: {} s after {} s (points must be in \
                                 increasing time)",
                                num(p.t),
                                num(prev)
                            ),
                        ));
                    }
                }
                last = Some(p.t);
                if !(p.pos.x.is_finite() && p.pos.y.is_finite()) {
                    return Err(InputError::new(pf(), "must be finite"));
                }
                let r = p.pos.length();
                if r > board.surface_radius + tol {
                    return Err(InputError::new(
                        pf(),
                        format!(
                            "off the board: the centre is {} m from the board's centre, the \
                             surface's radius is {} m (wrong board, or a disc observed in \
                             the ditch: track a disc only while it is on the surface)",
                            num(r),
                            num(board.surface_radius)
                        ),
                    ));
                }
                for (q, &peg) in board.pegs.iter().enumerate() {
                    let d = (p.pos - peg).length();
                    let touch = board.peg_radius + physics.disc_radius;
                    if d < touch - tol {
                        return Err(InputError::new(
                            pf(),
                            format!(
                                "incompatible with the board: the centre is {} m from peg \
                                 {q}, a disc cannot come nearer than {} m (wrong board?)",
                                num(d),
                                num(touch)
                            ),
                        ));
                    }
                }
            }
        }
        let observed_after_launch = self
            .shooter_track()
            .is_some_and(|t| t.points.iter().any(|p| p.t > 0.0));
        if !observed_after_launch {
            return Err(InputError::new(
                "tracks",
                format!(
                    "the shooter (disc {n}) has no observation after the launch (t > 0): its \
                     first observations give its launch"
                ),
            ));
        }
        Ok(())
    }
}

impl Tracks {
    /// Checks every shot ([`TrackedShot::check`], errors carrying the shot's index and its
    /// field under `shots[k].`) and the bounds: at most [`MAX_FIT_SHOTS`] shots and
    /// [`MAX_FIT_OBSERVATIONS`] observations in all.
    pub fn check(&self) -> Result<(), InputError> {
        crokinole_core::validate::check_board(&self.board)?;
        crokinole_core::validate::check_physics(&self.physics)?;
        if self.shots.len() > MAX_FIT_SHOTS {
            return Err(InputError::new(
                "shots",
                format!(
                    "{} shots: a fit takes at most {MAX_FIT_SHOTS} (docs/limits.md)",
                    self.shots.len()
                ),
            ));
        }
        let mut total = 0usize;
        for (k, shot) in self.shots.iter().enumerate() {
            total += shot.observations();
            if total > MAX_FIT_OBSERVATIONS {
                return Err(InputError::new(
                    "tracks",
                    format!(
                        "more than {MAX_FIT_OBSERVATIONS} observations in all by this shot: \
                         a fit takes at most that many (docs/limits.md)"
                    ),
                )
                .in_shot(k));
            }
            shot.check(&self.board, &self.physics)
                .map_err(|e| e.in_shot(k))?;
        }
        Ok(())
    }

    /// Observations in all.
    pub fn observations(&self) -> usize {
        self.shots.iter().map(TrackedShot::observations).sum()
    }
}
