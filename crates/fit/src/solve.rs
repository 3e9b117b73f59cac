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
use super::linalg::{cholesky, cholesky_inverse};
use super::lm::{Failed, Hold, MIN_PIVOT, Point, Problem, Solution, staged};
pub use super::lm::{MAX_SPIN, MIN_SENSITIVITY};
use super::model::{Launch, Simulated, initial_launch};
use super::tracks::{TrackedShot, Tracks};
use crokinole_core::board::Board;
use crokinole_core::cancel::Cancel;
use crokinole_core::error::{InputError, num};
use crokinole_core::limits::MAX_FIT_ITERATIONS;
use crokinole_core::params::Physics;
use crokinole_montecarlo::noise::mix;
use rayon::prelude::*;

/// A coefficient whose uncertainty (1 sigma) is more than this fraction of its value is
/// reported as not identified by the shots.
pub const MAX_RELATIVE_UNCERTAINTY: f64 = 0.5;
/// Iterations when the configuration does not say.
pub const DEFAULT_MAX_ITERATIONS: u32 = 50;

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
    let fit = fit_until(tracks, config, &Cancel::never())?;
    Ok(fit.expect("a fit that cannot be cancelled ends"))
}

/// [`fit`], stopped by `cancel` (between the solver's iterations, and within one before
/// each simulation): `None` once stopped, nothing of the fit kept. The same fit when not
/// stopped.
pub fn fit_until(
    tracks: &Tracks,
    config: &FitConfig,
    cancel: &Cancel,
) -> Result<Option<Fit>, InputError> {
    tracks.check()?;
    if config.coefficients.is_empty() {
        return Err(InputError::new(
            "coefficients",
            "name at least one coefficient",
        ));
    }
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
            cancel,
        };
        let start = Point {
            coefs: free.iter().map(|c| c.get(base)).collect(),
            launches: launches.clone(),
        };
        let Some(solution) = unless_stopped(staged(&problem, start, config.max_iterations))? else {
            return Ok(None);
        };
        iterations += solution.iterations;
        let estimates = estimates(&problem, &solution);
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
            .map(|&k| {
                let shot = &tracks.shots[k];
                fit_launch_only(board, &physics, shot, config.max_iterations, cancel)
            })
            .collect::<Vec<_>>();
        let mut all = Vec::new();
        for (&k, result) in held.iter().zip(results) {
            let Some((launch, sim)) = unless_stopped(result).map_err(|e| e.in_shot(k))? else {
                return Ok(None);
            };
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
    Ok(Some(Fit {
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
    }))
}

/// A solver's result as [`fit_until`] reports it: stopped, `None`; a wrong input, its
/// error.
fn unless_stopped<T>(result: Result<T, Failed>) -> Result<Option<T>, InputError> {
    match result {
        Ok(value) => Ok(Some(value)),
        Err(Failed::Stopped) => Ok(None),
        Err(Failed::Input(e)) => Err(e),
    }
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
    cancel: &Cancel,
) -> Result<(Launch, Simulated), Failed> {
    let problem = Problem {
        board,
        base: physics,
        shots: vec![shot],
        free: Vec::new(),
        hold: Hold::Nothing,
        cancel,
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

/// The coefficients' estimates at a solution of `problem` (see the module documentation).
fn estimates(problem: &Problem, sol: &Solution) -> Vec<Estimate> {
    let nc = problem.free.len();
    let p = problem.params();
    let active = problem.active(&sol.normal);
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
            let c = problem.free[j];
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

/// A number with 4 significant digits, for messages.
fn fmt4(x: f64) -> String {
    format!("{x:.4e}")
        .parse::<f64>()
        .map(|v| format!("{v}"))
        .unwrap_or_else(|_| format!("{x}"))
}
