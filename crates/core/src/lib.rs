//! # crokinole-core: the engine
//!
//! The lowest layer of crokinole (ARCHITECTURE.md), on glam and rayon alone: a deterministic physics core for the board game Crokinole: a fixed-timestep 2D engine
//! specialised for what a board holds (discs with spin, eight rubber-sleeved pegs, the
//! sunken 20 hole, the edge and the ditch), with exact event handling inside each step.
//! Same input, same bits: on every run, machine and thread count.
//!
//! ```
//! use crokinole_core::{Board, DVec2, DiscState, Flick, Physics, Shot, run_shot};
//!
//! // A flick from seat 0's shooting line straight at the 20 hole.
//! let shot = Shot {
//!     discs: vec![],
//!     shooter: Flick { team: 0, pos: DVec2::new(0.0, -0.3048), vel: DVec2::new(0.0, 0.85), spin: 0.0 },
//! };
//! let out = run_shot(&Board::tournament(), &Physics::default(), &shot).unwrap();
//! assert_eq!(out.discs[0].state, DiscState::Hole);
//! ```
//!
//! Layout: geometry in [`board`], constants in [`params`], the step in `step/` (stages
//! listed on [`World::step`]), shots in [`shot`], batches in [`batch`]. The JSON contract
//! is the `crokinole-io` crate's, above this one. See ARCHITECTURE.md.

pub mod batch;
pub mod board;
pub mod cancel;
pub mod disc;
pub mod error;
pub mod limits;
pub mod params;
pub mod scenes;
pub mod shot;
pub mod step;
pub mod trace;
pub mod validate;
pub mod world;

/// The vector library of the public API (positions and velocities are [`DVec2`]):
/// re-exported so a program needs no `glam` dependency of its own, and gets the version
/// the crate was built with.
pub use glam;
/// A 2D vector of `f64`: positions (m), velocities (m/s). `glam::DVec2`, re-exported.
pub use glam::DVec2;

pub use batch::run_batch;
pub use board::{Board, Zone};
pub use disc::{Disc, DiscId, DiscState};
pub use error::InputError;
pub use limits::Limit;
pub use params::Physics;
pub use shot::{Flick, Outcome, Placed, Shot, run_shot};
pub use step::event::{Event, EventKind};
pub use world::World;
