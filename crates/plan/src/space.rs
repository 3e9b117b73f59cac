//! The search space of the planner (the suggest file's `search` block): the offsets,
//! aims, speeds and spins the search may try, the grid of straight-ahead flicks swept for
//! the heat map, and [`spread`], the evenly spread values of a range.

use crokinole_core::error::{InputError, num};
use crokinole_montecarlo::flick::max_offset;

/// The search space (the suggest file's `search` block).
#[derive(Clone, Debug, PartialEq)]
pub struct Space {
    /// Offsets along the shooting line, `[low, high]`, m (seat frame, positive to the
    /// player's right).
    pub offset: [f64; 2],
    /// Aims of the grid (straight ahead), `[low, high]`, rad counter-clockwise.
    pub aim: [f64; 2],
    /// Speeds, `[low, high]`, m/s: every candidate's speed is kept within it.
    pub speed: [f64; 2],
    /// Spin values, rad/s: the sweep is repeated for each.
    pub spin: Vec<f64>,
    /// Whether to sweep the targeted candidates (hole, discs, 15-zone points).
    pub targets: bool,
    /// The grid (straight-ahead flicks from one place).
    pub grid: GridSpec,
}

/// The grid of straight-ahead flicks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridSpec {
    /// Offset it is evaluated at, m; `None`: the middle of the offset range.
    pub offset: Option<f64>,
    /// Aim values.
    pub aims: u32,
    /// Speed values.
    pub speeds: u32,
}

/// Largest number of grid values per axis.
pub const MAX_GRID: u32 = 101;
/// Largest number of spin values.
pub const MAX_SPINS: usize = 9;

impl Space {
    /// The default space: offsets over 90 % of each half of the quadrant's line, aims
    /// within 0.5 rad of straight ahead, speeds 0.3 to 3 m/s (at most `max_speed`), no
    /// spin, targets on, an 11 x 9 grid at the middle offset.
    pub fn default_for(board: &crokinole_core::Board, physics: &crokinole_core::Physics) -> Space {
        let o = 0.9 * max_offset(board);
        Space {
            offset: [-o, o],
            aim: [-0.5, 0.5],
            speed: [0.3f64.min(physics.max_speed), 3.0f64.min(physics.max_speed)],
            spin: vec![0.0],
            targets: true,
            grid: GridSpec {
                offset: None,
                aims: 11,
                speeds: 9,
            },
        }
    }

    /// The grid's offset.
    pub fn grid_offset(&self) -> f64 {
        self.grid
            .offset
            .unwrap_or(0.5 * (self.offset[0] + self.offset[1]))
    }

    /// Checks the space (fields `search.offset`, `search.aim`, `search.speed`,
    /// `search.spin`, `search.grid.*`): finite ranges written low to high, offsets within
    /// the quadrant, aims within pi, speeds positive and at most `max_speed`, 1 to
    /// [`MAX_SPINS`] spins with rim speed at most `max_speed`, 1 to [`MAX_GRID`] grid
    /// values per axis.
    pub fn check(
        &self,
        board: &crokinole_core::Board,
        physics: &crokinole_core::Physics,
    ) -> Result<(), InputError> {
        let limit = max_offset(board);
        let range = |field: &str, r: [f64; 2], lo: f64, hi: f64, what: &str| {
            if !(r[0].is_finite() && r[1].is_finite()) {
                return Err(InputError::new(
                    field,
                    format!("must be finite, got [{}, {}]", r[0], r[1]),
                ));
            }
            if r[0] > r[1] {
                return Err(InputError::new(
                    field,
                    format!("must be [low, high], got [{}, {}]", num(r[0]), num(r[1])),
                ));
            }
            if r[0] < lo || r[1] > hi {
                return Err(InputError::new(
                    field,
                    format!(
                        "must lie within [{}, {}] {what}, got [{}, {}]",
                        num(lo),
                        num(hi),
                        num(r[0]),
                        num(r[1])
                    ),
                ));
            }
            Ok(())
        };
        range(
            "search.offset",
            self.offset,
            -limit,
            limit,
            "m (the quadrant: shooting_line_radius / sqrt(2))",
        )?;
        let pi = std::f64::consts::PI;
        range("search.aim", self.aim, -pi, pi, "rad")?;
        range(
            "search.speed",
            self.speed,
            0.0,
            physics.max_speed,
            "m/s (physics.max_speed)",
        )?;
        if self.speed[0] <= 0.0 {
            return Err(InputError::new(
                "search.speed",
                format!("speeds must be positive, got {}", num(self.speed[0])),
            ));
        }
        let spin_limit = physics.max_speed / physics.disc_radius;
        if self.spin.is_empty() || self.spin.len() > MAX_SPINS {
            return Err(InputError::new(
                "search.spin",
                format!(
                    "must hold 1 to {MAX_SPINS} spin values, got {}",
                    self.spin.len()
                ),
            ));
        }
        for (k, &w) in self.spin.iter().enumerate() {
            if !(w.is_finite() && w.abs() <= spin_limit) {
                return Err(InputError::new(
                    format!("search.spin[{k}]"),
                    format!(
                        "must be finite with |spin| at most {} rad/s \
                         (physics.max_speed / physics.disc_radius), got {}",
                        num(spin_limit),
                        num(w)
                    ),
                ));
            }
        }
        if let Some(o) = self.grid.offset
            && !(o.is_finite() && self.offset[0] <= o && o <= self.offset[1])
        {
            return Err(InputError::new(
                "search.grid.offset",
                format!(
                    "must lie within the searched offsets [{}, {}] m (search.offset), got {}",
                    self.offset[0],
                    self.offset[1],
                    crokinole_core::error::num(o)
                ),
            ));
        }
        for (field, n) in [
            ("search.grid.aims", self.grid.aims),
            ("search.grid.speeds", self.grid.speeds),
        ] {
            if !(1..=MAX_GRID).contains(&n) {
                return Err(InputError::new(
                    field,
                    format!("must be 1 to {MAX_GRID}, got {n}"),
                ));
            }
        }
        Ok(())
    }
}

/// `n` values evenly spread over `[lo, hi]`, both ends included (`lo` alone if `n` is 1
/// or the range is a point): `(lo (n - 1 - k) + hi k) / (n - 1)`, which gives the ends
/// exactly and round values where they exist (`[-0.5, 0.5]` in 11 gives `-0.1`, not
/// `-0.09999999999999998`).
pub fn spread(lo: f64, hi: f64, n: u32) -> Vec<f64> {
    if n <= 1 || lo == hi {
        return vec![lo];
    }
    let last = f64::from(n - 1);
    (0..n)
        .map(|k| match k {
            0 => lo,
            _ if k == n - 1 => hi,
            _ => {
                let k = f64::from(k);
                (lo * (last - k) + hi * k) / last
            }
        })
        .collect()
}
