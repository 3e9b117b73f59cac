//! Pictures as SVG (no raster dependencies): a shot's paths, a Monte Carlo study's cloud and
//! a planner's heat map, from the library's types or the JSON files the commands write.
//!
//! - [`shot_svg`]: the board to scale ([`board`]), the discs by team with their ids, the path
//!   of every disc that moved, contact points and where discs left the surface, from a
//!   [`Trace`](crokinole_core::trace::Trace).
//! - [`cloud_svg`]: the shot disc's final positions of a Monte Carlo summary as a cloud on
//!   the board, each coloured by its sample's class, with the outcome classes'
//!   probabilities (the summary read by `crokinole_io::parse_summary`).
//! - [`heatmap_svg`]: the expected value of a `crokinole suggest` grid over aim and speed
//!   (the plan read by `crokinole_io::parse_plan`).
//! - [`fit_svg`]: a fit of the physics to tracked shots: the observed centres as dots,
//!   the paths simulated with the fitted coefficients as lines (docs/tracks.md).
//! - [`position_svg`]: a position with no shot: the board with its scoring zones labelled
//!   and the discs at rest, each with the zone it scores in.
//!
//! The pictures take the library's own types ([`StudySummary`], [`Grid`]): the files are
//! read by the JSON layer's one reader per format, never here.
//!
//! The board pictures are in millimetres (one user unit = 1 mm, board `+y` up), every number
//! is written with 4 decimals, and nothing depends on a clock or a hash order: the same
//! input gives the same bytes. Formats and commands: docs/render.md.

pub mod board;
pub mod cloud;
pub mod fit;
pub mod heatmap;
pub mod position;
pub mod shot;
pub mod svg;

pub use cloud::{CloudView, class_colour, cloud_svg, study_cloud_svg};
pub use crokinole_montecarlo::tally::StudySummary;
pub use crokinole_plan::Grid;
pub use fit::fit_svg;
pub use heatmap::heatmap_svg;
pub use position::position_svg;
pub use shot::shot_svg;
