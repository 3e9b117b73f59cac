//! The heat map ([`Grid`]): the plan's grid of straight-ahead flicks over (aim, speed),
//! each cell's mean and 95 % half-width, built from whichever stage evaluated the cells
//! (`Planner::heat_map` in `mod.rs`: the map's own stage when the coarse sweep halves,
//! else the sweep).

use super::objective::{Objective, Stats};
use super::space::{self, Space};

/// The coarse sweep's grid of straight-ahead flicks: the heat map. Serialized as the
/// `grid` member of the plan JSON, with these keys in this order; `crokinole render
/// suggest` reads it back.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    /// Offset it was evaluated at, m.
    pub offset: f64,
    /// Spin of its flicks, rad/s.
    pub spin: f64,
    /// Aims, ascending, rad counter-clockwise from straight ahead (seat frame).
    pub aim: Vec<f64>,
    /// Speeds, ascending, m/s.
    pub speed: Vec<f64>,
    /// The objective's mean per cell, one row per speed, one value per aim; `None` where
    /// the flick is not legal.
    pub value: Vec<Vec<Option<f64>>>,
    /// The objective the values are the mean of.
    pub objective: Objective,
    /// Samples per cell (every cell the same).
    pub samples: u32,
    /// Half the width of each cell's 95 % interval of its mean (`value`'s shape; Wilson's
    /// interval for a probability objective, `z s / sqrt(n)` otherwise), so a reader sees
    /// which differences between cells the few samples of the sweep can tell apart.
    pub half_width95: Vec<Vec<Option<f64>>>,
}

/// The heat map of the coarse sweep: the mean of each grid cell's candidate (`None` where
/// no flick was legal or the engine refused a sample).
pub(super) fn heat_map(
    space: &Space,
    cells: &[Vec<Option<usize>>],
    stats: &[Option<Stats>],
    objective: Objective,
    samples: u32,
) -> Grid {
    Grid {
        offset: space.grid_offset(),
        spin: space.spin.first().copied().unwrap_or(0.0),
        aim: space::spread(space.aim[0], space.aim[1], space.grid.aims),
        speed: space::spread(space.speed[0], space.speed[1], space.grid.speeds),
        value: cells
            .iter()
            .map(|row| {
                row.iter()
                    .map(|c| {
                        c.and_then(|i| stats[i].as_ref())
                            .map(|s| s.sum as f64 / s.n.max(1) as f64)
                    })
                    .collect()
            })
            .collect(),
        objective,
        samples,
        half_width95: cells
            .iter()
            .map(|row| {
                row.iter()
                    .map(|c| {
                        c.and_then(|i| stats[i].as_ref()).map(|s| {
                            let ci = s.value(objective).ci95;
                            0.5 * (ci[1] - ci[0])
                        })
                    })
                    .collect()
            })
            .collect(),
    }
}
