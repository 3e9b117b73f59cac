//! A disc: position, velocity, spin, size, mass, team and state.
//!
//! Units: metres, seconds, kilograms, radians; spin is counter-clockwise seen from above.

use glam::DVec2;

/// Index of a disc in its [`World`](crate::World), in the order discs were added.
pub type DiscId = usize;

/// Where a disc is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DiscState {
    /// On the playing surface, not moving; costs nothing until something touches it.
    Rest,
    /// On the playing surface, sliding or spinning.
    Moving,
    /// Dropped into the 20 hole; no longer simulated.
    Hole,
    /// Went over the edge of the playing surface; no longer simulated.
    Ditch,
}

/// A flat uniform disc. `inertia()` is `m R^2 / 2`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Disc {
    /// Centre, m (origin at the centre of the 20 hole). For a disc in the hole or the ditch,
    /// where it left the surface.
    pub pos: DVec2,
    /// Velocity of the centre, m/s.
    pub vel: DVec2,
    /// Spin, rad/s, counter-clockwise positive.
    pub spin: f64,
    /// Radius, m.
    pub radius: f64,
    /// Mass, kg.
    pub mass: f64,
    /// Team (0 or 1 in a game; the engine itself does not care).
    pub team: u8,
    /// Rest, moving, in the hole or in the ditch.
    pub state: DiscState,
}

impl Disc {
    /// A disc at rest at `pos`.
    pub fn at_rest(team: u8, pos: DVec2, radius: f64, mass: f64) -> Disc {
        Disc {
            pos,
            vel: DVec2::ZERO,
            spin: 0.0,
            radius,
            mass,
            team,
            state: DiscState::Rest,
        }
    }

    /// The same disc given a velocity and a spin (a flick). Its state becomes `Moving`
    /// unless both are zero.
    pub fn flicked(mut self, vel: DVec2, spin: f64) -> Disc {
        self.vel = vel;
        self.spin = spin;
        self.state = if vel == DVec2::ZERO && spin == 0.0 {
            DiscState::Rest
        } else {
            DiscState::Moving
        };
        self
    }

    /// Moment of inertia about the centre, `m R^2 / 2`, kg m^2.
    pub fn inertia(&self) -> f64 {
        0.5 * self.mass * self.radius * self.radius
    }

    /// Whether the disc is still on the playing surface (at rest or moving).
    pub fn on_board(&self) -> bool {
        matches!(self.state, DiscState::Rest | DiscState::Moving)
    }

    /// Kinetic energy, translational plus rotational, J.
    pub fn kinetic_energy(&self) -> f64 {
        0.5 * self.mass * self.vel.length_squared() + 0.5 * self.inertia() * self.spin * self.spin
    }
}
