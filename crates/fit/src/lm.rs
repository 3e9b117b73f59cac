//! The solver of the fit ([`super::solve`]): the parameters ([`Point`]: the free
//! coefficients, then each shot's launch), the problem over a set of shots ([`Problem`]:
//! residuals, finite-difference Jacobians, the normal equations, which parameters move
//! the predictions), and Levenberg-Marquardt in three stages ([`staged`]). The method, its
//! steps and its stopping rule are described in [`super::solve`]'s documentation.

use super::coefficient::Coefficient;
use super::linalg::{cholesky, cholesky_solve};
use super::model::{Launch, Simulated, simulate};
use super::tracks::TrackedShot;
use crokinole_core::board::Board;
use crokinole_core::cancel::Cancel;
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use rayon::prelude::*;

/// A parameter whose plausible range (1 for a coefficient, 1 m/s for a launch velocity,
/// 20 rad/s for a spin) moves the weighted residuals by less than this (in sigmas, to
/// first order) is held where it is.
pub const MIN_SENSITIVITY: f64 = 1e-2;
/// The spin a fitted launch may take, rad/s, either way.
pub const MAX_SPIN: f64 = 200.0;

const H_COEF: f64 = 1e-5;
const H_VEL: f64 = 1e-5;
const H_SPIN: f64 = 1e-3;
const RANGE_COEF: f64 = 1.0;
const RANGE_VEL: f64 = 1.0;
const RANGE_SPIN: f64 = 20.0;
/// Largest step of a parameter in one iteration, as a fraction of its range (0.05 for a
/// coefficient, 0.05 m/s, 1 rad/s).
const MAX_STEP: f64 = 0.05;
/// Relative pivot under which a column counts as a combination of the others.
pub(super) const MIN_PIVOT: f64 = 1e-10;

/// The parameters: the free coefficients' values, then each shot's launch.
#[derive(Clone, Debug)]
pub(super) struct Point {
    pub(super) coefs: Vec<f64>,
    pub(super) launches: Vec<Launch>,
}

/// A set of shots and the coefficients free over them.
pub(super) struct Problem<'a> {
    pub(super) board: &'a Board,
    pub(super) base: &'a Physics,
    pub(super) shots: Vec<&'a TrackedShot>,
    pub(super) free: Vec<Coefficient>,
    /// Which parameters the current stage holds.
    pub(super) hold: Hold,
    /// Stops the solver (between iterations, and within one before each simulation).
    pub(super) cancel: &'a Cancel,
}

/// Why a run of the solver gave no solution.
#[derive(Debug)]
pub(super) enum Failed {
    /// The input cannot be fitted (a shot the engine refuses from its starting launch).
    Input(InputError),
    /// `cancel` stopped it.
    Stopped,
}

impl From<InputError> for Failed {
    fn from(e: InputError) -> Self {
        Failed::Input(e)
    }
}

/// The stages of a run of the solver ([`staged`]): what each holds where it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Hold {
    /// The coefficients and the spins: each shot's launch velocity alone.
    CoefficientsAndSpins,
    /// The spins.
    Spins,
    /// Nothing.
    Nothing,
}

/// The predictions and weighted residuals at one point.
pub(super) struct Evaluated {
    pub(super) residuals: Vec<Vec<f64>>,
    pub(super) sims: Vec<Simulated>,
    pub(super) chi2: f64,
}

/// `J^T J` (row major) and `J^T r` over every parameter.
pub(super) struct Normal {
    pub(super) a: Vec<f64>,
    pub(super) g: Vec<f64>,
}

/// Where a run of the solver ended.
pub(super) struct Solution {
    pub(super) x: Point,
    pub(super) eval: Evaluated,
    pub(super) normal: Normal,
    pub(super) iterations: u32,
    pub(super) converged: bool,
    pub(super) dof: usize,
}

impl Problem<'_> {
    pub(super) fn params(&self) -> usize {
        self.free.len() + 3 * self.shots.len()
    }

    pub(super) fn physics(&self, coefs: &[f64]) -> Physics {
        let mut p = self.base.clone();
        for (c, &v) in self.free.iter().zip(coefs) {
            c.set(&mut p, v);
        }
        p
    }

    pub(super) fn get(&self, x: &Point, j: usize) -> f64 {
        let nc = self.free.len();
        if j < nc {
            return x.coefs[j];
        }
        let l = &x.launches[(j - nc) / 3];
        match (j - nc) % 3 {
            0 => l.vel.x,
            1 => l.vel.y,
            _ => l.spin,
        }
    }

    pub(super) fn set(&self, x: &mut Point, j: usize, v: f64) {
        let nc = self.free.len();
        if j < nc {
            x.coefs[j] = v;
            return;
        }
        let l = &mut x.launches[(j - nc) / 3];
        match (j - nc) % 3 {
            0 => l.vel.x = v,
            1 => l.vel.y = v,
            _ => l.spin = v,
        }
    }

    /// Keeps every parameter in its bounds: coefficients in theirs, launches at most
    /// `max_speed` (the velocity scaled down) and [`MAX_SPIN`].
    pub(super) fn clamp(&self, x: &mut Point) {
        for (c, v) in self.free.iter().zip(&mut x.coefs) {
            let (lo, hi) = c.bounds();
            *v = v.clamp(lo, hi);
        }
        let max_speed = self.base.max_speed;
        let max_spin = MAX_SPIN.min(max_speed / self.base.disc_radius);
        for l in &mut x.launches {
            let s = l.vel.length();
            if s > max_speed {
                l.vel *= max_speed / s;
            }
            l.spin = l.spin.clamp(-max_spin, max_spin);
        }
    }

    pub(super) fn range(&self, j: usize) -> f64 {
        let nc = self.free.len();
        if j < nc {
            RANGE_COEF
        } else if (j - nc) % 3 == 2 {
            RANGE_SPIN
        } else {
            RANGE_VEL
        }
    }

    /// The finite-difference step of parameter `j` at `x`: backward at an upper bound.
    pub(super) fn step(&self, x: &Point, j: usize) -> f64 {
        let nc = self.free.len();
        if j < nc {
            let (_, hi) = self.free[j].bounds();
            return if x.coefs[j] + H_COEF > hi {
                -H_COEF
            } else {
                H_COEF
            };
        }
        let l = &x.launches[(j - nc) / 3];
        match (j - nc) % 3 {
            2 => {
                if l.spin >= 0.0 {
                    -H_SPIN
                } else {
                    H_SPIN
                }
            }
            i => {
                let toward = l.vel.length() + H_VEL > self.base.max_speed;
                let along = if i == 0 { l.vel.x } else { l.vel.y };
                if toward && along > 0.0 { -H_VEL } else { H_VEL }
            }
        }
    }

    /// The shot `s` simulated at `x`, its weighted residuals.
    pub(super) fn shot_residuals(
        &self,
        physics: &Physics,
        s: usize,
        launch: Launch,
    ) -> Option<(Vec<f64>, Simulated)> {
        let shot = self.shots[s];
        let sim = simulate(self.board, physics, shot, launch).ok()?;
        let mut r = Vec::with_capacity(2 * shot.observations());
        for (track, predicted) in shot.tracks.iter().zip(&sim.predicted) {
            for (p, q) in track.points.iter().zip(predicted) {
                r.push((q.x - p.pos.x) / track.sigma);
                r.push((q.y - p.pos.y) / track.sigma);
            }
        }
        Some((r, sim))
    }

    /// Every shot simulated at `x` (in parallel, summed in shot order); `None` if the
    /// engine refuses one.
    pub(super) fn evaluate(&self, x: &Point) -> Option<Evaluated> {
        let physics = self.physics(&x.coefs);
        let results: Vec<Option<(Vec<f64>, Simulated)>> = (0..self.shots.len())
            .into_par_iter()
            .with_max_len(1)
            .map(|s| {
                if self.cancel.is_cancelled() {
                    return None;
                }
                self.shot_residuals(&physics, s, x.launches[s])
            })
            .collect();
        let mut residuals = Vec::with_capacity(results.len());
        let mut sims = Vec::with_capacity(results.len());
        let mut chi2 = 0.0;
        for r in results {
            let (r, sim) = r?;
            chi2 += r.iter().map(|v| v * v).sum::<f64>();
            residuals.push(r);
            sims.push(sim);
        }
        Some(Evaluated {
            residuals,
            sims,
            chi2,
        })
    }

    /// `J^T J` and `J^T r` at `x` by forward differences, shot by shot (in parallel),
    /// summed in shot order. A perturbed simulation the engine refuses gives a zero column.
    pub(super) fn normal_equations(&self, x: &Point, eval: &Evaluated) -> Normal {
        let nc = self.free.len();
        let p = self.params();
        let columns: Vec<Vec<(usize, Vec<f64>)>> = (0..self.shots.len())
            .into_par_iter()
            .with_max_len(1)
            .map(|s| {
                let r0 = &eval.residuals[s];
                // Stopped: zero columns, and the solver stops before it uses them.
                let stopped = self.cancel.is_cancelled();
                let own = (0..nc).chain(nc + 3 * s..nc + 3 * s + 3);
                own.map(|j| {
                    let h = self.step(x, j);
                    let mut y = x.clone();
                    self.set(&mut y, j, self.get(x, j) + h);
                    let sim = (!stopped)
                        .then(|| self.shot_residuals(&self.physics(&y.coefs), s, y.launches[s]))
                        .flatten();
                    let col = match sim {
                        Some((r, _)) => r.iter().zip(r0).map(|(a, b)| (a - b) / h).collect(),
                        None => vec![0.0; r0.len()],
                    };
                    (j, col)
                })
                .collect()
            })
            .collect();
        let mut a = vec![0.0; p * p];
        let mut g = vec![0.0; p];
        for (s, cols) in columns.iter().enumerate() {
            let r0 = &eval.residuals[s];
            for (ja, ca) in cols {
                g[*ja] += dot(ca, r0);
                for (jb, cb) in cols {
                    a[ja * p + jb] += dot(ca, cb);
                }
            }
        }
        Normal { a, g }
    }

    /// The parameters that move the predictions (see [`MIN_SENSITIVITY`]), ascending.
    pub(super) fn active(&self, normal: &Normal) -> Vec<usize> {
        let p = self.params();
        let nc = self.free.len();
        (0..p)
            .filter(|&j| match self.hold {
                Hold::Nothing => true,
                Hold::Spins => j < nc || (j - nc) % 3 != 2,
                Hold::CoefficientsAndSpins => j >= nc && (j - nc) % 3 != 2,
            })
            .filter(|&j| normal.a[j * p + j].sqrt() * self.range(j) >= MIN_SENSITIVITY)
            .collect()
    }
}

pub(super) fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Levenberg-Marquardt from `start` in three stages: each shot's launch velocity alone,
/// the coefficients held where they start; then the coefficients too; then every
/// parameter, the spins too, each stage from the previous one's minimum. Far from the
/// minimum the coefficients and the launches pull each other into the wrong basin, and a
/// spin, whose effect is weak (and for a lone slide even in the spin), wanders. The
/// iteration count bounds each stage.
pub(super) fn staged(
    problem: &Problem,
    start: Point,
    max_iterations: u32,
) -> Result<Solution, Failed> {
    let mut x = start;
    let mut iterations = 0;
    for hold in [Hold::CoefficientsAndSpins, Hold::Spins] {
        let stage = Problem {
            board: problem.board,
            base: problem.base,
            shots: problem.shots.clone(),
            free: problem.free.clone(),
            hold,
            cancel: problem.cancel,
        };
        let s = levenberg_marquardt(&stage, x, max_iterations)?;
        iterations += s.iterations;
        x = s.x;
    }
    let mut last = levenberg_marquardt(problem, x, max_iterations)?;
    last.iterations += iterations;
    Ok(last)
}

/// Levenberg-Marquardt from `start` (see the module documentation); stopped by
/// `problem.cancel` within a simulation's time.
pub(super) fn levenberg_marquardt(
    problem: &Problem,
    start: Point,
    max_iterations: u32,
) -> Result<Solution, Failed> {
    let mut x = start;
    problem.clamp(&mut x);
    let stopped = || problem.cancel.is_cancelled();
    let mut eval = match problem.evaluate(&x) {
        Some(eval) => eval,
        None if stopped() => return Err(Failed::Stopped),
        None => {
            return Err(Failed::Input(InputError::new(
                "shots",
                "a shot cannot be simulated from its starting launch (the engine refuses it)",
            )));
        }
    };
    let p = problem.params();
    let mut lambda = 1e-3;
    let mut iterations = 0;
    let mut converged = false;
    let mut normal = problem.normal_equations(&x, &eval);
    while iterations < max_iterations {
        if stopped() {
            return Err(Failed::Stopped);
        }
        iterations += 1;
        let active = problem.active(&normal);
        if active.is_empty() {
            converged = true;
            break;
        }
        let m = active.len();
        let b: Vec<f64> = active.iter().map(|&j| -normal.g[j]).collect();
        let mut accepted = None;
        while lambda <= 1e12 {
            let mut s = vec![0.0; m * m];
            for (u, &i) in active.iter().enumerate() {
                for (v, &j) in active.iter().enumerate() {
                    s[u * m + v] = normal.a[i * p + j];
                }
                s[u * m + u] *= 1.0 + lambda;
            }
            let Ok(l) = cholesky(&s, m, 1e-15) else {
                lambda *= 10.0;
                continue;
            };
            let delta = cholesky_solve(&l, m, &b);
            let worst = active
                .iter()
                .zip(&delta)
                .map(|(&j, d)| d.abs() / problem.range(j))
                .fold(0.0, f64::max);
            let shrink = if worst > MAX_STEP {
                MAX_STEP / worst
            } else {
                1.0
            };
            let mut trial = x.clone();
            for (&j, d) in active.iter().zip(&delta) {
                problem.set(&mut trial, j, problem.get(&x, j) + d * shrink);
            }
            problem.clamp(&mut trial);
            match problem.evaluate(&trial) {
                Some(t) if t.chi2 < eval.chi2 => {
                    accepted = Some((trial, t));
                    lambda = (lambda / 10.0).max(1e-9);
                    break;
                }
                None if stopped() => return Err(Failed::Stopped),
                _ => lambda *= 10.0,
            }
        }
        let Some((trial, t)) = accepted else {
            converged = true; // no step lowers the cost: a minimum
            break;
        };
        let small = eval.chi2 - t.chi2 <= 1e-6 * eval.chi2;
        x = trial;
        eval = t;
        normal = problem.normal_equations(&x, &eval);
        if small {
            converged = true;
            break;
        }
    }
    // A stop may have skipped simulations of the last normal equations (zero columns) or
    // of a trial: nothing computed after it is returned.
    if stopped() {
        return Err(Failed::Stopped);
    }
    let observed: usize = eval.residuals.iter().map(Vec::len).sum();
    let free = problem.active(&normal).len();
    Ok(Solution {
        x,
        eval,
        normal,
        iterations,
        converged,
        dof: observed.saturating_sub(free),
    })
}
