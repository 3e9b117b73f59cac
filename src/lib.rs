//! # crokinole
//!
//! A deterministic physics core for the board game Crokinole: a fixed-timestep 2D engine
//! specialised for what a board holds (discs with spin, eight rubber-sleeved pegs, the
//! sunken 20 hole, the edge and the ditch), with exact event handling inside each step.
//! Same input, same bits: on every run, machine and thread count.
//!
//! ```
//! use crokinole::{Board, DVec2, DiscState, Flick, Physics, Shot, run_shot};
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
//! This crate is the facade of the workspace: each layer is a crate of its own
//! (ARCHITECTURE.md), re-exported here under the module name it has always had, so one
//! dependency on `crokinole` reaches all of them: the engine ([`board`], [`params`],
//! [`step`], [`shot`], [`batch`], from `crokinole-core`, re-exported at the top as well),
//! [`rules`], [`montecarlo`], [`fit`], [`plan`], [`play`], the file formats in [`io`],
//! the pictures in [`render`], the [`jobs`] every front end runs, the [`referee`] and the
//! web server ([`serve`]). The package's binary is the command line (`src/cli/`).
//!
//! A program that needs only a layer (the Python extension, say) depends on that crate
//! and pulls in nothing above it.

pub use crokinole_core::*;

pub use crokinole_fit as fit;
pub use crokinole_io as io;
pub use crokinole_jobs as jobs;
pub use crokinole_montecarlo as montecarlo;
pub use crokinole_plan as plan;
pub use crokinole_play as play;
pub use crokinole_referee as referee;
pub use crokinole_render as render;
pub use crokinole_rules as rules;
pub use crokinole_serve as serve;

/// The README's library example, compiled and run as a test of the crate as a dependency
/// sees it (`cargo test --doc`).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
