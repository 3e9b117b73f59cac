//! The player's error: the flick a player executes when it means to play another, drawn
//! from the noise model ([`Noise`], truncated Gaussians of [`noise`](super::noise)) around
//! the intended flick. One sampler serves the Monte Carlo studies ([`Study`](super::Study)),
//! the planner and the games; it needs only the position's world, not a whole study.

use super::flick::PlayerFlick;
use super::noise::{Draws, Noise, Param};
use crokinole_core::board::Board;
use crokinole_core::disc::Disc;
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_core::world::World;
use crokinole_rules::placement::in_quadrant;

/// Draws executions of one intended flick from one seat in one position.
#[derive(Clone, Copy, Debug)]
pub struct FlickSampler<'a> {
    board: &'a Board,
    physics: &'a Physics,
    seat: u8,
    team: u8,
    /// The position alone, checked (discs at rest).
    base: &'a World,
    intended: PlayerFlick,
    noise: Noise,
}

/// Renames the shooter's fields of the world's checks to the study file's.
pub(crate) fn flick_field(e: InputError) -> InputError {
    let field = match e.field.as_str() {
        "shooter.pos" => "flick.offset",
        "shooter.vel" => "flick.speed",
        "shooter.spin" => "flick.spin",
        other => other,
    };
    InputError::new(field, e.problem)
}

impl<'a> FlickSampler<'a> {
    /// Checks the noise widths ([`Noise::check`]) and the intended flick
    /// ([`PlayerFlick::check`], then the shooter as the engine checks it in `base`: no
    /// overlap, speeds within `max_speed`), named as in a study file (`noise.aim`,
    /// `flick.offset`). `team` is the seat's team and `base` the position's world, both
    /// checked by the caller.
    pub fn new(
        board: &'a Board,
        physics: &'a Physics,
        seat: u8,
        team: u8,
        base: &'a World,
        intended: PlayerFlick,
        noise: Noise,
    ) -> Result<FlickSampler<'a>, InputError> {
        noise.check(board, physics)?;
        intended.check(board, seat)?;
        let sampler =
            FlickSampler::new_unchecked(board, physics, seat, team, base, intended, noise);
        base.check_disc(&sampler.disc_of(&intended), "shooter")
            .map_err(flick_field)?;
        Ok(sampler)
    }

    /// A sampler whose inputs [`FlickSampler::new`] accepted before.
    pub(crate) fn new_unchecked(
        board: &'a Board,
        physics: &'a Physics,
        seat: u8,
        team: u8,
        base: &'a World,
        intended: PlayerFlick,
        noise: Noise,
    ) -> FlickSampler<'a> {
        FlickSampler {
            board,
            physics,
            seat,
            team,
            base,
            intended,
            noise,
        }
    }

    /// The shooter's disc for `flick`, if the engine accepts it in the position and its
    /// centre is in the seat's quadrant.
    pub fn shooter_disc(&self, flick: &PlayerFlick) -> Option<Disc> {
        let disc = self.disc_of(flick);
        let placed_ok = in_quadrant(self.seat, disc.pos);
        (placed_ok && self.base.check_disc(&disc, "shooter").is_ok()).then_some(disc)
    }

    /// The shooter's disc for `flick` from this seat, unchecked.
    fn disc_of(&self, flick: &PlayerFlick) -> Disc {
        let f = flick.to_flick(self.board, self.seat, self.team);
        let p = self.physics;
        Disc::at_rest(self.team, f.pos, p.disc_radius, p.disc_mass).flicked(f.vel, f.spin)
    }

    /// The flick of sample `index` with seed `seed`: each parameter with a non-zero width
    /// drawn from its Gaussian truncated to legal values (see [`noise`](super::noise)), in
    /// the order offset, aim, speed, spin (each legality test sees the parameters drawn
    /// before it and the intended values of the others). A parameter with width 0 keeps
    /// its intended value exactly.
    pub fn sample(&self, seed: u64, index: u64) -> PlayerFlick {
        let noise = &self.noise;
        let base = self.intended;
        let mut f = base;
        let r = self.physics.disc_radius;
        let max_speed = self.physics.max_speed;
        if noise.offset > 0.0 {
            let mut d = Draws::new(seed, index, Param::Offset);
            f.offset = d
                .truncated(
                    |z| base.offset + noise.offset * z,
                    |&o| {
                        let mut g = f;
                        g.offset = o;
                        o.abs() <= self.board.shooting_line_radius
                            && self.shooter_disc(&g).is_some()
                    },
                )
                .unwrap_or(base.offset);
        }
        if noise.aim > 0.0 {
            let mut d = Draws::new(seed, index, Param::Aim);
            f.aim = d
                .truncated(|z| base.aim + noise.aim * z, |_| true)
                .unwrap_or(base.aim);
        }
        if noise.speed > 0.0 {
            let mut d = Draws::new(seed, index, Param::Speed);
            let pos = f.position(self.board, self.seat);
            let dir = f.direction(self.seat, pos);
            f.speed = d
                .truncated(
                    |z| base.speed * (1.0 + noise.speed * z),
                    |&v| v > 0.0 && (dir * v).length() <= max_speed,
                )
                .unwrap_or(base.speed);
        }
        if noise.spin > 0.0 {
            let mut d = Draws::new(seed, index, Param::Spin);
            f.spin = d
                .truncated(
                    |z| base.spin + noise.spin * z,
                    |&w| w.abs() * r <= max_speed,
                )
                .unwrap_or(base.spin);
        }
        f
    }
}
