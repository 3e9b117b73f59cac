//! Fitting the physics to tracked shots (docs/tracks.md): the coefficients of
//! [`Physics`](crokinole_core::params::Physics) that best reproduce observed disc positions, by
//! weighted least squares with the deterministic engine as the forward model.
//!
//! - [`tracks`]: the observations ([`Tracks`], [`TrackedShot`], [`Track`],
//!   [`Observation`]) and their checks (every refusal names the shot and the field).
//! - [`coefficient`]: [`Coefficient`], the fittable coefficients by name, their bounds.
//! - [`model`]: the forward model: one shot simulated with given coefficients and launch,
//!   its discs' positions at the observed times; the launch estimated from the shooter's
//!   first observations.
//! - [`linalg`]: the small dense linear algebra of the solver (Cholesky, inverse).
//! - [`solve`]: Levenberg-Marquardt over the coefficients and every shot's launch (a
//!   nuisance parameter per shot: velocity and spin), the uncertainties from the
//!   curvature of the cost, the identification test, the held-out shots ([`fit`]).
//!
//! Deterministic: shots are simulated in parallel (rayon) but every sum runs in shot order,
//! every loop in index order, so the result does not depend on the thread count.

pub mod coefficient;
pub mod linalg;
mod lm;
pub mod model;
pub mod solve;
pub mod tracks;

pub use coefficient::Coefficient;
pub use model::Launch;
pub use solve::{
    CoefficientFit, Estimate, Fit, FitConfig, Holdout, MAX_RELATIVE_UNCERTAINTY, ShotFit, fit,
    fit_until,
};
pub use tracks::{Observation, Track, TrackedShot, Tracks};
