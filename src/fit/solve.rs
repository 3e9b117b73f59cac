//! The fit itself ([`fit`]): weighted least squares between observed and simulated
//! centres, over the chosen coefficients and every shot's launch (velocity and spin, a
//! nuisance parameter per shot), by Levenberg-Marquardt with finite-difference Jacobians.
//!
//! **Cost.** `chi2 = sum ((x_sim - x_obs) / sigma)^2 + ((y_sim - y_obs) / sigma)^2` over every
//! observation of the fitted shots, `sigma` its track's stated uncertainty.
//!
//! **Steps.** Each iteration simulates every shot once per parameter it depends on (the
//! coefficients and its own launch), a forward difference of `1e-5` (coefficients, m/s)
//! or a central one of `1e-3` rad/s (spin), away from a bound; accumulates `J^T J` and
//! `J^T r` shot by shot in shot order; solves `(J^T J + lambda diag(J^T J)) delta = -J^T r`
//! over the parameters that move the predictions at all (a parameter whose whole plausible
//! range moves them by less than [`MIN_SENSITIVITY`] sigma is held: the spin of a shot
//! without contacts, a peg's restitution when no disc touches a peg), steps at most 5 % of
//! a parameter's range, keeps every parameter in its bounds, and accepts the step if the
//! cost falls (lambda / 10) or tries again with lambda * 10. It stops when an accepted step
//! lowers the cost by less than `1e-6` of itself (a thousandth at a chi2 of a thousand),
//! when no step lowers it, or after the iteration count. It runs in three stages
//! (`staged`): the launch velocities alone, then the coefficients too, then the spins.
//!
//! **Uncertainty.** The covariance of the free parameters is `(J^T W J)^-1` at the
//! minimum, scaled by the reduced chi-square `chi2 / (2 N - p)`; a coefficient's is the
//! marginal one (the launches' uncertainty included).
//!
//! **Identification.** A coefficient is reported as not identified by the shots, with the
//! reason, never a number, when the predictions do not depend on it (no contact of its kind
//! in the shots, or none that the tracks see), when it is a combination of the other
//! parameters to the solver's precision, or when its uncertainty is more than
//! [`MAX_RELATIVE_UNCERTAINTY`] of its value. The fit is then run again with it held at its
//! starting value, so the others' values and uncertainties do not lean on it.
//!
//! **Held-out shots.** With a hold-out fraction, a deterministic set of shots (by the seed)
//! is left out of the fit; each is then fitted alone, its launch only, the coefficients
//! frozen at the fitted values, and its position errors reported.

use super::coefficient::Coefficient;
use super::linalg::{cholesky, cholesky_inverse, cholesky_solve};
use super::model::{Launch, Simulated, initial_launch, simulate};
use super::tracks::{TrackedShot, Tracks};
use crate::board::Board;
use crate::error::{InputError, num};
use crate::limits::MAX_FIT_ITERATIONS;
use crate::montecarlo::noise::mix;
use crate::params::Physics;
use rayon::prelude::*;

/// A coefficient whose uncertainty (1 sigma) is more than this fraction of its value is
/// reported as not identified by the shots.
pub const MAX_RELATIVE_UNCERTAINTY: f64 = 0.5;
/// A parameter whose plausible range (1 for a coefficient, 1 m/s for a launch velocity,
/// 20 rad/s for a spin) moves the weighted residuals by less than this (in sigmas, to
/// first order) is held where it is.
pub const MIN_SENSITIVITY: f64 = 1e-2;
/// The spin a fitted launch may take, rad/s, either way.
pub const MAX_SPIN: f64 = 200.0;
/// Iterations when the configuration does not say.
pub const DEFAULT_MAX_ITERATIONS: u32 = 50;

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
const MIN_PIVOT: f64 = 1e-10;

/// What to fit and how.
#[derive(Clone, Debug, PartialEq)]
pub struct FitConfig {
    /// The coefficients to fit (the others keep the tracks file's values).
    pub coefficients: Vec<Coefficient>,
    /// Fraction of the shots held out of the fit, in `[0, 1)`.
    pub holdout: f64,
    /// Seed of the held-out set.
    pub seed: u64,
    /// Most Levenberg-Marquardt iterations (at most [`MAX_FIT_ITERATIONS`]).
    pub max_iterations: u32,
}

impl Default for FitConfig {
    fn default() -> Self {
        FitConfig {
            coefficients: Coefficient::ALL.to_vec(),
            holdout: 0.0,
            seed: 0,
            max_iterations: DEFAULT_MAX_ITERATIONS,
        }
    }
}

/// A coefficient's result.
#[derive(Clone, Debug, PartialEq)]
pub enum Estimate {
    /// Fitted: its value and uncertainty (1 sigma).
    Fitted {
        /// The fitted value.
        value: f64,
        /// Its uncertainty, 1 sigma.
        sigma: f64,
    },
    /// Not identified by these shots, and why; it keeps its starting value.
    NotIdentified {
        /// Why, in words.
        reason: String,
    },
}

/// One coefficient asked for: where it started and what the fit made of it.
#[derive(Clone, Debug, PartialEq)]
pub struct CoefficientFit {
    /// Which.
    pub coefficient: Coefficient,
    /// Its value in the tracks file's physics (the starting point).
    pub start: f64,
    /// The result.
    pub estimate: Estimate,
}

/// One shot's result.
#[derive(Clone, Debug, PartialEq)]
pub struct ShotFit {
    /// Its index in the tracks file.
    pub shot: usize,
    /// Whether it was held out of the fit (its launch fitted alone afterwards).
    pub held_out: bool,
    /// Its fitted launch.
    pub launch: Launch,
    /// Its observations.
    pub points: usize,
    /// Root mean square of the distance between observed and fitted centres, m.
    pub rms: f64,
    /// Largest such distance, m.
    pub max: f64,
}

/// The held-out shots' position errors.
#[derive(Clone, Debug, PartialEq)]
pub struct Holdout {
    /// Their indices in the tracks file, ascending.
    pub shots: Vec<usize>,
    /// Their observations.
    pub points: usize,
    /// Median distance between observed and predicted centres, m (nearest rank).
    pub median: f64,
    /// 90th percentile of that distance, m (nearest rank).
    pub p90: f64,
}

/// A fit's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// Every coefficient asked for, in [`Coefficient::ALL`]'s order.
    pub coefficients: Vec<CoefficientFit>,
    /// The tracks file's physics with every identified coefficient at its fitted value.
    pub physics: Physics,
    /// Every shot of the file, in order.
    pub shots: Vec<ShotFit>,
    /// Observations of the fitted shots.
    pub observations: usize,
    /// Iterations, over every run of the solver (a run again after a coefficient is found
    /// not identified included).
    pub iterations: u32,
    /// Whether the last run converged before its iteration count.
    pub converged: bool,
    /// The cost at the minimum.
    pub chi2: f64,
    /// Degrees of freedom: observed coordinates less free parameters.
    pub dof: usize,
    /// Disc-disc and disc-peg contacts in the fitted shots' simulations.
    pub contacts: (usize, usize),
    /// The held-out shots' errors, with a hold-out fraction.
    pub holdout: Option<Holdout>,
}

impl Fit {
    /// `chi2 / dof` (NaN without degrees of freedom).
    pub fn reduced_chi2(&self) -> f64 {
        if self.dof == 0 {
            f64::NAN
        } else {
            self.chi2 / self.dof as f64
        }
    }
}

/// The shots held out by `fraction` and `seed`: `round(fraction * n)` shots (at least one
/// when the fraction is positive), those whose `mix(seed, index)` is smallest, ascending.
pub fn holdout_split(n: usize, fraction: f64, seed: u64) -> Vec<usize> {
    if fraction <= 0.0 || n == 0 {
        return Vec::new();
    }
    let count = ((fraction * n as f64).round() as usize).clamp(1, n);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&k| (mix(seed, k as u64), k));
    let mut held: Vec<usize> = order[..count].to_vec();
    held.sort_unstable();
    held
}

/// Fits `config.coefficients` to `tracks` (checked first: errors name the shot and the
/// field). See the module documentation for the method.
pub fn fit(tracks: &Tracks, config: &FitConfig) -> Result<Fit, InputError> {
    tracks.check()?;
    if tracks.shots.is_empty() {
        return Err(InputError::new("shots", "no shots to fit"));
    }
    if !(0.0..1.0).contains(&config.holdout) {
        return Err(InputError::new(
            "holdout",
            format!("must lie in [0, 1), got {}", num(config.holdout)),
        ));
    }
    if !(1..=MAX_FIT_ITERATIONS).contains(&config.max_iterations) {
        return Err(InputError::new(
            "max_iterations",
            format!(
                "must lie in 1..={MAX_FIT_ITERATIONS}, got {}",
                config.max_iterations
            ),
        ));
    }
    let n = tracks.shots.len();
    let held = holdout_split(n, config.holdout, config.seed);
    if held.len() == n {
        return Err(InputError::new(
            "holdout",
            format!(
                "holding out {} of {n} shots leaves none to fit: give more shots or a \
                 smaller fraction",
                held.len()
            ),
        ));
    }
    let fitted: Vec<usize> = (0..n).filter(|k| !held.contains(k)).collect();
    let board = &tracks.board;
    let base = &tracks.physics;
    let mut free: Vec<Coefficient> = Coefficient::ALL
        .into_iter()
        .filter(|c| config.coefficients.contains(c))
        .collect();
    let mut unidentified: Vec<(Coefficient, String)> = Vec::new();
    let mut launches: Vec<Launch> = fitted
        .iter()
        .map(|&k| initial_launch(&tracks.shots[k], base))
        .collect();
    let mut iterations = 0;
    let shots: Vec<&TrackedShot> = fitted.iter().map(|&k| &tracks.shots[k]).collect();
    let (solution, problem, estimates) = loop {
        let problem = Problem {
            board,
            base,
            shots: shots.clone(),
            free: free.clone(),
            hold: Hold::Nothing,
        };
        let start = Point {
            coefs: free.iter().map(|c| c.get(base)).collect(),
            launches: launches.clone(),
        };
        let solution = staged(&problem, start, config.max_iterations)?;
        iterations += solution.iterations;
        let estimates = problem.estimates(&solution);
        let newly: Vec<(Coefficient, String)> = free
            .iter()
            .zip(&estimates)
            .filter_map(|(&c, e)| match e {
                Estimate::NotIdentified { reason } => Some((c, reason.clone())),
                Estimate::Fitted { .. } => None,
            })
            .collect();
        if newly.is_empty() {
            break (solution, problem, estimates);
        }
        free.retain(|c| !newly.iter().any(|(d, _)| d == c));
        unidentified.extend(newly);
        launches = solution.x.launches.clone();
    };

    let physics = problem.physics(&solution.x.coefs);
    let mut coefficients = Vec::new();
    for c in Coefficient::ALL {
        if !config.coefficients.contains(&c) {
            continue;
        }
        let estimate = if let Some(k) = free.iter().position(|&d| d == c) {
            estimates[k].clone()
        } else {
            let reason = unidentified
                .iter()
                .find(|(d, _)| *d == c)
                .map(|(_, r)| r.clone())
                .unwrap_or_default();
            Estimate::NotIdentified { reason }
        };
        coefficients.push(CoefficientFit {
            coefficient: c,
            start: c.get(base),
            estimate,
        });
    }
    let mut shot_fits: Vec<Option<ShotFit>> = vec![None; n];
    for (s, &k) in fitted.iter().enumerate() {
        let (rms, max, _) = errors(&tracks.shots[k], &solution.eval.sims[s]);
        shot_fits[k] = Some(ShotFit {
            shot: k,
            held_out: false,
            launch: solution.x.launches[s],
            points: tracks.shots[k].observations(),
            rms,
            max,
        });
    }
    let mut holdout = None;
    if !held.is_empty() {
        let results = held
            .par_iter()
            .with_max_len(1)
            .map(|&k| fit_launch_only(board, &physics, &tracks.shots[k], config.max_iterations))
            .collect::<Vec<_>>();
        let mut all = Vec::new();
        for (&k, result) in held.iter().zip(results) {
            let (launch, sim) = result.map_err(|e| e.in_shot(k))?;
            let (rms, max, distances) = errors(&tracks.shots[k], &sim);
            all.extend(distances);
            shot_fits[k] = Some(ShotFit {
                shot: k,
                held_out: true,
                launch,
                points: tracks.shots[k].observations(),
                rms,
                max,
            });
        }
        all.sort_by(f64::total_cmp);
        holdout = Some(Holdout {
            shots: held.clone(),
            points: all.len(),
            median: nearest_rank(&all, 0.5),
            p90: nearest_rank(&all, 0.9),
        });
    }
    let contacts = solution.eval.sims.iter().fold((0, 0), |(d, p), s| {
        (d + s.disc_contacts, p + s.peg_contacts)
    });
    Ok(Fit {
        coefficients,
        physics,
        shots: shot_fits
            .into_iter()
            .map(|s| s.expect("every shot"))
            .collect(),
        observations: shots.iter().map(|s| s.observations()).sum(),
        iterations,
        converged: solution.converged,
        chi2: solution.eval.chi2,
        dof: solution.dof,
        contacts,
        holdout,
    })
}

/// The value at rank `ceil(p n)` of the sorted `v` (0 if empty).
fn nearest_rank(v: &[f64], p: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let k = ((p * v.len() as f64).ceil() as usize).clamp(1, v.len());
    v[k - 1]
}

/// RMS and largest distance between observed and predicted centres, and every distance.
fn errors(shot: &TrackedShot, sim: &Simulated) -> (f64, f64, Vec<f64>) {
    let mut d = Vec::with_capacity(shot.observations());
    for (track, predicted) in shot.tracks.iter().zip(&sim.predicted) {
        for (p, q) in track.points.iter().zip(predicted) {
            d.push((p.pos - *q).length());
        }
    }
    let sq: f64 = d.iter().map(|x| x * x).sum();
    let rms = if d.is_empty() {
        0.0
    } else {
        (sq / d.len() as f64).sqrt()
    };
    let max = d.iter().copied().fold(0.0, f64::max);
    (rms, max, d)
}

/// One held-out shot's launch fitted alone with `physics` frozen.
fn fit_launch_only(
    board: &Board,
    physics: &Physics,
    shot: &TrackedShot,
    max_iterations: u32,
) -> Result<(Launch, Simulated), InputError> {
    let problem = Problem {
        board,
        base: physics,
        shots: vec![shot],
        free: Vec::new(),
        hold: Hold::Nothing,
    };
    let start = Point {
        coefs: Vec::new(),
        launches: vec![initial_launch(shot, physics)],
    };
    let mut solution = staged(&problem, start, max_iterations)?;
    Ok((
        solution.x.launches[0],
        solution.eval.sims.pop().expect("one shot"),
    ))
}

/// The parameters: the free coefficients' values, then each shot's launch.
#[derive(Clone, Debug)]
struct Point {
    coefs: Vec<f64>,
    launches: Vec<Launch>,
}

/// A set of shots and the coefficients free over them.
struct Problem<'a> {
    board: &'a Board,
    base: &'a Physics,
    shots: Vec<&'a TrackedShot>,
    free: Vec<Coefficient>,
    /// Which parameters the current stage holds.
    hold: Hold,
}

/// The stages of a run of the solver ([`staged`]): what each holds where it is.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Hold {
    /// The coefficients and the spins: each shot's launch velocity alone.
    CoefficientsAndSpins,
    /// The spins.
    Spins,
    /// Nothing.
    Nothing,
}

/// The predictions and weighted residuals at one point.
struct Evaluated {
    residuals: Vec<Vec<f64>>,
    sims: Vec<Simulated>,
    chi2: f64,
}

/// `J^T J` (row major) and `J^T r` over every parameter.
struct Normal {
    a: Vec<f64>,
    g: Vec<f64>,
}

/// Where a run of the solver ended.
struct Solution {
    x: Point,
    eval: Evaluated,
    normal: Normal,
    iterations: u32,
    converged: bool,
    dof: usize,
}

impl Problem<'_> {
    fn params(&self) -> usize {
        self.free.len() + 3 * self.shots.len()
    }

    fn physics(&self, coefs: &[f64]) -> Physics {
        let mut p = self.base.clone();
        for (c, &v) in self.free.iter().zip(coefs) {
            c.set(&mut p, v);
        }
        p
    }

    fn get(&self, x: &Point, j: usize) -> f64 {
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

    fn set(&self, x: &mut Point, j: usize, v: f64) {
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
    fn clamp(&self, x: &mut Point) {
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

    fn range(&self, j: usize) -> f64 {
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
    fn step(&self, x: &Point, j: usize) -> f64 {
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
    fn shot_residuals(
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
    fn evaluate(&self, x: &Point) -> Option<Evaluated> {
        let physics = self.physics(&x.coefs);
        let results: Vec<Option<(Vec<f64>, Simulated)>> = (0..self.shots.len())
            .into_par_iter()
            .with_max_len(1)
            .map(|s| self.shot_residuals(&physics, s, x.launches[s]))
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
    fn normal_equations(&self, x: &Point, eval: &Evaluated) -> Normal {
        let nc = self.free.len();
        let p = self.params();
        let columns: Vec<Vec<(usize, Vec<f64>)>> = (0..self.shots.len())
            .into_par_iter()
            .with_max_len(1)
            .map(|s| {
                let r0 = &eval.residuals[s];
                let own = (0..nc).chain(nc + 3 * s..nc + 3 * s + 3);
                own.map(|j| {
                    let h = self.step(x, j);
                    let mut y = x.clone();
                    self.set(&mut y, j, self.get(x, j) + h);
                    let col = match self.shot_residuals(&self.physics(&y.coefs), s, y.launches[s]) {
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
    fn active(&self, normal: &Normal) -> Vec<usize> {
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

    /// The coefficients' estimates at a solution (see the module documentation).
    fn estimates(&self, sol: &Solution) -> Vec<Estimate> {
        let nc = self.free.len();
        let p = self.params();
        let active = self.active(&sol.normal);
        // Launches first: a coefficient that is a combination of launches is the one named.
        let mut order: Vec<usize> = active.iter().copied().filter(|&j| j >= nc).collect();
        order.extend(active.iter().copied().filter(|&j| j < nc));
        let mut degenerate = Vec::new();
        let (kept, inverse) = loop {
            let m = order.len();
            let scale: Vec<f64> = order
                .iter()
                .map(|&j| 1.0 / sol.normal.a[j * p + j].sqrt())
                .collect();
            let mut s = vec![0.0; m * m];
            for (u, &i) in order.iter().enumerate() {
                for (v, &j) in order.iter().enumerate() {
                    s[u * m + v] = sol.normal.a[i * p + j] * scale[u] * scale[v];
                }
            }
            match cholesky(&s, m, MIN_PIVOT) {
                Ok(l) => {
                    let inv = cholesky_inverse(&l, m);
                    let var: Vec<f64> = (0..m)
                        .map(|u| inv[u * m + u] * scale[u] * scale[u])
                        .collect();
                    break (order.clone(), var);
                }
                Err(k) => {
                    if order[k] < nc {
                        degenerate.push(order[k]);
                    }
                    order.remove(k);
                }
            }
        };
        let reduced = if sol.dof == 0 {
            f64::NAN
        } else {
            sol.eval.chi2 / sol.dof as f64
        };
        let (disc, peg) = sol.eval.sims.iter().fold((0, 0), |(d, p), s| {
            (d + s.disc_contacts, p + s.peg_contacts)
        });
        (0..nc)
            .map(|j| {
                let c = self.free[j];
                let reason = if !active.contains(&j) {
                    Some(match c.needs_peg_contact() {
                        Some(true) if peg == 0 => "no disc touches a peg in these shots".into(),
                        Some(false) if disc == 0 => "no two discs touch in these shots".into(),
                        _ if c.is_friction() => "the observed positions do not depend on \
                             it: at these shots' contacts the slip stops before friction \
                             reaches its limit, or the tracks do not see the contacts' effect"
                            .into(),
                        _ => "the observed positions do not depend on it: the tracks do not \
                              see the effect of the contacts it governs"
                            .into(),
                    })
                } else if degenerate.contains(&j) {
                    Some(
                        "it cannot be told apart from the other parameters by these shots \
                         (its effect on the observed positions is a combination of theirs)"
                            .into(),
                    )
                } else if sol.dof == 0 {
                    Some("as many parameters as observed coordinates: no uncertainty".into())
                } else {
                    let u = kept.iter().position(|&i| i == j).expect("kept");
                    let sigma = (inverse[u] * reduced).sqrt();
                    let value = sol.x.coefs[j];
                    (sigma > MAX_RELATIVE_UNCERTAINTY * value.abs()).then(|| {
                        format!(
                            "its uncertainty ({}) is more than {}% of its value ({})",
                            fmt4(sigma),
                            MAX_RELATIVE_UNCERTAINTY * 100.0,
                            fmt4(value)
                        )
                    })
                };
                match reason {
                    Some(reason) => Estimate::NotIdentified { reason },
                    None => {
                        let u = kept.iter().position(|&i| i == j).expect("kept");
                        Estimate::Fitted {
                            value: sol.x.coefs[j],
                            sigma: (inverse[u] * reduced).sqrt(),
                        }
                    }
                }
            })
            .collect()
    }
}

/// A number with 4 significant digits, for messages.
fn fmt4(x: f64) -> String {
    format!("{x:.4e}")
        .parse::<f64>()
        .map(|v| format!("{v}"))
        .unwrap_or_else(|_| format!("{x}"))
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Levenberg-Marquardt from `start` in three stages: each shot's launch velocity alone,
/// the coefficients held where they start; then the coefficients too; then every
/// parameter, the spins too, each stage from the previous one's minimum. Far from the
/// minimum the coefficients and the launches pull each other into the wrong basin, and a
/// spin, whose effect is weak (and for a lone slide even in the spin), wanders. The
/// iteration count bounds each stage.
fn staged(problem: &Problem, start: Point, max_iterations: u32) -> Result<Solution, InputError> {
    let mut x = start;
    let mut iterations = 0;
    for hold in [Hold::CoefficientsAndSpins, Hold::Spins] {
        let stage = Problem {
            board: problem.board,
            base: problem.base,
            shots: problem.shots.clone(),
            free: problem.free.clone(),
            hold,
        };
        let s = levenberg_marquardt(&stage, x, max_iterations)?;
        iterations += s.iterations;
        x = s.x;
    }
    let mut last = levenberg_marquardt(problem, x, max_iterations)?;
    last.iterations += iterations;
    Ok(last)
}

/// Levenberg-Marquardt from `start` (see the module documentation).
fn levenberg_marquardt(
    problem: &Problem,
    start: Point,
    max_iterations: u32,
) -> Result<Solution, InputError> {
    let mut x = start;
    problem.clamp(&mut x);
    let mut eval = problem.evaluate(&x).ok_or_else(|| {
        InputError::new(
            "shots",
            "a shot cannot be simulated from its starting launch (the engine refuses it)",
        )
    })?;
    let p = problem.params();
    let mut lambda = 1e-3;
    let mut iterations = 0;
    let mut converged = false;
    let mut normal = problem.normal_equations(&x, &eval);
    while iterations < max_iterations {
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
