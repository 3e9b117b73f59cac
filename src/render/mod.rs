//! Pictures as SVG (no raster dependencies): a shot's paths, a Monte Carlo study's cloud and
//! a planner's heat map, from the library's types or the JSON files the commands write.
//!
//! - [`shot_svg`]: the board to scale ([`board`]), the discs by team with their ids, the path
//!   of every disc that moved, contact points and where discs left the surface, from a
//!   [`Trace`](crate::trace::Trace).
//! - [`cloud_svg`]: the shot disc's final positions of a Monte Carlo summary as a cloud on
//!   the board, with the outcome classes' probabilities ([`parse_summary`]).
//! - [`heatmap_svg`]: the expected value of a `crokinole suggest` grid over aim and speed
//!   ([`parse_suggest`]).
//!
//! The board pictures are in millimetres (one user unit = 1 mm, board `+y` up), every number
//! is written with 4 decimals, and nothing depends on a clock or a hash order: the same
//! input gives the same bytes. Formats and commands: docs/render.md.

pub mod board;
pub mod cloud;
pub mod heatmap;
pub mod shot;
pub mod svg;

pub use crate::plan::Grid;
pub use cloud::{ClassRow, CloudSummary, cloud_svg};
pub use heatmap::heatmap_svg;
pub use shot::shot_svg;

use crate::error::InputError;
use crate::io::json_path::json_error;
use glam::DVec2;
use serde::Deserialize;
use serde::de::{Deserializer, MapAccess, Visitor};

/// `{"count", "p", "ci95"}` of one class.
#[derive(Deserialize)]
struct ClassJson {
    count: u64,
    p: f64,
    ci95: [f64; 2],
}

/// The `shooter` object, in file order (a map would sort the keys).
struct ClassesJson(Vec<(String, ClassJson)>);

impl<'de> Deserialize<'de> for ClassesJson {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ClassesJson;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of outcome classes")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ClassesJson, A::Error> {
                let mut v = Vec::new();
                while let Some((k, c)) = map.next_entry::<String, ClassJson>()? {
                    v.push((k, c));
                }
                Ok(ClassesJson(v))
            }
        }
        d.deserialize_map(V)
    }
}

#[derive(Deserialize)]
struct PositionsJson {
    first: Vec<[f64; 2]>,
}

#[derive(Deserialize)]
struct MeanJson {
    mean: f64,
}

/// The members of a summary the picture reads; others are ignored.
#[derive(Deserialize)]
struct SummaryJson {
    samples: u64,
    seed: u64,
    shooter: ClassesJson,
    shooter_positions: PositionsJson,
    #[serde(default)]
    score_change: Option<MeanJson>,
}

/// Reads a Monte Carlo summary (`crokinole montecarlo` or `merge` output; other members are
/// ignored). Errors name the field: malformed JSON, a missing member, a probability outside
/// [0, 1].
pub fn parse_summary(text: &str) -> Result<CloudSummary, InputError> {
    let s: SummaryJson = serde_json::from_str(text).map_err(|e| json_error(text, &e))?;
    let mut classes = Vec::with_capacity(s.shooter.0.len());
    for (name, c) in s.shooter.0 {
        let probs = [c.p, c.ci95[0], c.ci95[1]];
        if probs.iter().any(|p| !(0.0..=1.0).contains(p)) {
            return Err(InputError::new(
                format!("shooter.{name}"),
                format!(
                    "probabilities must lie in [0, 1], got p {} and ci95 {:?}",
                    c.p, c.ci95
                ),
            ));
        }
        classes.push(ClassRow {
            name,
            count: c.count,
            p: c.p,
            ci95: c.ci95,
        });
    }
    Ok(CloudSummary {
        samples: s.samples,
        seed: s.seed,
        classes,
        positions: s
            .shooter_positions
            .first
            .iter()
            .map(|&p| DVec2::from(p))
            .collect(),
        score_mean: s.score_change.map(|m| m.mean),
    })
}

#[derive(Deserialize)]
struct SuggestJson {
    grid: Grid,
}

/// Checks that an axis is not empty and strictly ascending.
fn check_axis(name: &str, v: &[f64]) -> Result<(), InputError> {
    if v.is_empty() {
        return Err(InputError::new(format!("grid.{name}"), "must not be empty"));
    }
    for k in 1..v.len() {
        if v[k] <= v[k - 1] {
            return Err(InputError::new(
                format!("grid.{name}[{k}]"),
                format!("must be ascending: {} follows {}", v[k], v[k - 1]),
            ));
        }
    }
    Ok(())
}

/// Reads the `grid` of a `crokinole suggest` output (other members are ignored) and checks
/// it: both axes non-empty and strictly ascending, `value` one row per speed of one entry
/// per aim (a number or `null`). Errors name the field (`grid.value[2]`).
pub fn parse_suggest(text: &str) -> Result<Grid, InputError> {
    let s: SuggestJson = serde_json::from_str(text).map_err(|e| json_error(text, &e))?;
    let g = s.grid;
    check_axis("aim", &g.aim)?;
    check_axis("speed", &g.speed)?;
    if g.value.len() != g.speed.len() {
        return Err(InputError::new(
            "grid.value",
            format!(
                "needs one row per speed ({}), got {}",
                g.speed.len(),
                g.value.len()
            ),
        ));
    }
    for (k, row) in g.value.iter().enumerate() {
        if row.len() != g.aim.len() {
            return Err(InputError::new(
                format!("grid.value[{k}]"),
                format!(
                    "needs one value per aim ({}), got {}",
                    g.aim.len(),
                    row.len()
                ),
            ));
        }
    }
    Ok(g)
}
