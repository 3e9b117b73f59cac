//! Physical constants and engine limits, with their defaults and sources.
//!
//! Every value can be overridden (shot file `physics` block). Defaults are the tournament
//! disc and the calibrated coefficients of the README's engine-keys table; the engine's own
//! keys (`max_speed`, `max_events_per_step`) are documented on their fields. The 20 hole
//! takes no key: its model follows from the board's `hole_radius` and the disc's radius
//! (`step/hole.rs`, docs/hole.md).

/// Physical coefficients, the fixed time step and the engine's limits. SI units.
#[derive(Clone, Debug, PartialEq)]
pub struct Physics {
    /// Disc radius, m. 1 1/4 in diameter tournament disc: 0.015875.
    pub disc_radius: f64,
    /// Disc mass, kg. Hard maple: 0.0055. Moment of inertia is `m R^2 / 2` (uniform disc).
    pub disc_mass: f64,
    /// Sliding Coulomb coefficient disc-on-board. Waxed board, calibrated guess: 0.12.
    pub board_friction: f64,
    /// Restitution of a disc-disc impact. Wood on wood, calibrated guess: 0.6.
    pub disc_restitution: f64,
    /// Coulomb coefficient at a disc-disc contact. Calibrated guess: 0.38.
    pub disc_friction: f64,
    /// Restitution of a disc-peg impact (rubber sleeve). Calibrated guess: 0.6.
    pub peg_restitution: f64,
    /// Coulomb coefficient at a disc-peg contact (rubber sleeve). Calibrated guess: 0.5.
    pub peg_friction: f64,
    /// Gravity, m/s^2: 9.81.
    pub gravity: f64,
    /// Fixed time step, s: 0.001 (the step of the shared benchmark files). Events inside a
    /// step are found exactly, so the step bounds only the coupled slide-spin integration
    /// and the pressed-contact tolerance (see `press_speed`).
    pub dt: f64,
    /// Simulated seconds after which a shot is cut off and reported as such: 20.
    pub max_time: f64,
    /// Engine key. Highest speed a shooter may be given, m/s: 10 (real takeouts reach
    /// 2.5-3 m/s). Nothing tunnels at any speed; the cap only refuses absurd input.
    pub max_speed: f64,
    /// Engine key. Most events handled inside one fixed step: 100000. A step that reaches
    /// it finishes without further contacts and is counted in `World::capped_steps` (the
    /// outcome file does not report it); it exists so that no input can hang the engine.
    pub max_events_per_step: u32,
}

impl Default for Physics {
    fn default() -> Self {
        Physics {
            disc_radius: 0.015_875,
            disc_mass: 0.0055,
            board_friction: 0.12,
            disc_restitution: 0.6,
            disc_friction: 0.38,
            peg_restitution: 0.6,
            peg_friction: 0.5,
            gravity: 9.81,
            dt: 0.001,
            max_time: 20.0,
            max_speed: 10.0,
            max_events_per_step: 100_000,
        }
    }
}

impl Physics {
    /// Sliding deceleration `mu g` of a disc without spin, m/s^2.
    pub fn slide_decel(&self) -> f64 {
        self.board_friction * self.gravity
    }

    /// Approach speed below which an impact between bodies already touching is treated as a
    /// pressed contact: perfectly plastic and not logged. It is the most relative speed
    /// friction alone can build up between two touching discs in one step,
    /// `2 mu g dt` (2.4 mm/s by default); with `board_friction = 0` it is 0 and every
    /// impact keeps its restitution. See ARCHITECTURE.md, "Pressed contacts".
    pub fn press_speed(&self) -> f64 {
        2.0 * self.board_friction * self.gravity * self.dt
    }
}
