//! The noise model: how far a player's flick strays from the intended one, and the random
//! numbers behind it.
//!
//! Each parameter of a [`PlayerFlick`](super::PlayerFlick) gets Gaussian noise of its own
//! width ([`Noise`]): the placement offset and the aim additively (m, rad), the speed as a
//! fraction of itself (`v (1 + sigma z)`), the spin additively (rad/s). A draw that would
//! be illegal (centre outside the quadrant or overlapping a disc, speed not positive or
//! above `max_speed`, rim speed above `max_speed`) is drawn again: each parameter follows
//! its Gaussian truncated to the legal values. After [`MAX_TRIES`] rejected draws in a row
//! (probability below 1e-11 within the width limits of [`Noise::check`]) the intended
//! value is used.
//!
//! Random numbers: sample `i` of a study with seed `s` reads parameter `p`'s draws from
//! ChaCha8 (`rand_chacha`) keyed by `s` (little-endian in the first 8 key bytes, the tag
//! [`KEY_TAG`] in the other 24), stream `i`, starting at word `p * 2^32` of the stream.
//! ChaCha is a counter-based generator: any (key, stream, position) is reached directly,
//! without advancing a shared state, so sample `i` depends on `(s, i)` only (whatever the
//! thread count, the chunking or the shard), and each parameter on its own draws only
//! (changing the width of one leaves the others' draws alone). Its output is specified
//! bit for bit by the cipher, so it is the same on every machine and in every version of
//! the crate. Uniforms take the top 53 bits of a `u64`; Gaussians come from Marsaglia's
//! polar method (one of the pair is used), which needs only `ln` ([`detmath::ln`]) and
//! `sqrt`.

use super::detmath;
use crate::board::Board;
use crate::error::{InputError, num};
use crate::params::Physics;
use crate::rules::game::splitmix64;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

/// Widths (standard deviations) of a player's error, per parameter. All default to 0.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Noise {
    /// Placement along the shooting line, m (additive).
    pub offset: f64,
    /// Aim, rad (additive).
    pub aim: f64,
    /// Speed, as a fraction of the intended speed: `v (1 + speed z)`.
    pub speed: f64,
    /// Spin, rad/s (additive).
    pub spin: f64,
}

/// The 24 key bytes after the seed: separates these streams from any other use of a seed.
pub const KEY_TAG: &[u8; 24] = b"crokinole montecarlo v1.";

/// Rejected draws in a row after which the intended value is used.
pub const MAX_TRIES: u32 = 64;

impl Noise {
    /// No noise: every sample is the intended flick.
    pub const NONE: Noise = Noise {
        offset: 0.0,
        aim: 0.0,
        speed: 0.0,
        spin: 0.0,
    };

    /// Widths finite, not negative, and within limits that keep the legal region of each
    /// truncated Gaussian likely: offset at most `shooting_line_radius`, aim at most pi,
    /// speed at most 1 (100 %), spin at most `max_speed / disc_radius` (the spin limit).
    /// Fields are `noise.offset`, `noise.aim`, `noise.speed`, `noise.spin`.
    pub fn check(&self, board: &Board, physics: &Physics) -> Result<(), InputError> {
        let limits = [
            (
                "noise.offset",
                self.offset,
                board.shooting_line_radius,
                "m (board.shooting_line_radius)",
            ),
            ("noise.aim", self.aim, std::f64::consts::PI, "rad (pi)"),
            ("noise.speed", self.speed, 1.0, "(a fraction of the speed)"),
            (
                "noise.spin",
                self.spin,
                physics.max_speed / physics.disc_radius,
                "rad/s (physics.max_speed / physics.disc_radius)",
            ),
        ];
        for (field, width, limit, unit) in limits {
            if !width.is_finite() {
                return Err(InputError::new(
                    field,
                    format!("must be a finite number, got {}", num(width)),
                ));
            }
            if width < 0.0 {
                return Err(InputError::new(
                    field,
                    format!("a width must not be negative, got {}", num(width)),
                ));
            }
            if width > limit {
                return Err(InputError::new(
                    field,
                    format!("must be at most {} {unit}, got {}", num(limit), num(width)),
                ));
            }
        }
        Ok(())
    }
}

/// Which parameter a stream of draws feeds; its number `p` places the draws at word
/// `p * 2^32` of the sample's stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    /// Placement offset.
    Offset = 0,
    /// Aim.
    Aim = 1,
    /// Speed.
    Speed = 2,
    /// Spin.
    Spin = 3,
}

/// The random draws of one parameter of one sample.
#[derive(Clone, Debug)]
pub struct Draws {
    rng: ChaCha8Rng,
}

impl Draws {
    /// The draws of `param` for sample `sample` of a study seeded with `seed`.
    pub fn new(seed: u64, sample: u64, param: Param) -> Draws {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        key[8..].copy_from_slice(KEY_TAG);
        let mut rng = ChaCha8Rng::from_seed(key);
        rng.set_stream(sample);
        rng.set_word_pos(u128::from(param as u32) << 32);
        Draws { rng }
    }

    /// A uniform number in `[0, 1)` from the top 53 bits of the next `u64`.
    pub fn uniform(&mut self) -> f64 {
        (self.rng.next_u64() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
    }

    /// A standard normal number (Marsaglia's polar method; the first of the pair).
    pub fn gaussian(&mut self) -> f64 {
        loop {
            let u = 2.0 * self.uniform() - 1.0;
            let v = 2.0 * self.uniform() - 1.0;
            let s = u * u + v * v;
            if s < 1.0 && s > 0.0 {
                return u * (-2.0 * detmath::ln(s) / s).sqrt();
            }
        }
    }

    /// `make(z)` for standard normal `z`, drawn again until `legal` accepts it: the
    /// Gaussian truncated to the legal values. `None` after [`MAX_TRIES`] rejections.
    pub fn truncated<T>(
        &mut self,
        make: impl Fn(f64) -> T,
        mut legal: impl FnMut(&T) -> bool,
    ) -> Option<T> {
        (0..MAX_TRIES).find_map(|_| {
            let value = make(self.gaussian());
            legal(&value).then_some(value)
        })
    }
}

/// Combines a seed with a number into a new seed: `splitmix64(a ^ splitmix64(b))`
/// ([`splitmix64`]). Used to give every game, shot and purpose its own seed.
pub fn mix(a: u64, b: u64) -> u64 {
    splitmix64(a ^ splitmix64(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_depend_on_seed_sample_and_parameter_only() {
        let a: Vec<f64> = {
            let mut d = Draws::new(7, 123, Param::Aim);
            (0..5).map(|_| d.uniform()).collect()
        };
        let mut d = Draws::new(7, 123, Param::Aim);
        let b: Vec<f64> = (0..5).map(|_| d.uniform()).collect();
        assert_eq!(a, b);
        for other in [
            Draws::new(8, 123, Param::Aim),
            Draws::new(7, 124, Param::Aim),
            Draws::new(7, 123, Param::Speed),
        ] {
            let mut o = other;
            assert_ne!(o.uniform(), a[0]);
        }
    }

    #[test]
    fn uniforms_and_gaussians_have_the_right_moments() {
        let n = 20_000;
        let (mut su, mut sg, mut sg2) = (0.0, 0.0, 0.0);
        for i in 0..n {
            let mut d = Draws::new(1, i, Param::Offset);
            let u = d.uniform();
            assert!((0.0..1.0).contains(&u));
            su += u;
            let g = d.gaussian();
            sg += g;
            sg2 += g * g;
        }
        let n = n as f64;
        assert!((su / n - 0.5).abs() < 0.01);
        assert!((sg / n).abs() < 0.03);
        assert!((sg2 / n - 1.0).abs() < 0.04);
    }

    #[test]
    fn widths_are_checked() {
        let (b, p) = (Board::tournament(), Physics::default());
        assert!(Noise::NONE.check(&b, &p).is_ok());
        let e = Noise {
            speed: -0.1,
            ..Noise::NONE
        }
        .check(&b, &p)
        .unwrap_err();
        assert_eq!(e.field, "noise.speed");
        assert!(e.problem.contains("must not be negative"), "{e}");
        let e = Noise {
            aim: f64::NAN,
            ..Noise::NONE
        }
        .check(&b, &p)
        .unwrap_err();
        assert_eq!(e.field, "noise.aim");
        let e = Noise {
            offset: 0.5,
            ..Noise::NONE
        }
        .check(&b, &p)
        .unwrap_err();
        assert!(e.problem.contains("at most 0.3048"), "{e}");
    }
}
