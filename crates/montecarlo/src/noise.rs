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
//! Philox4x64-10 ([`philox`](super::philox)) keyed by `(s, KEY_TAG)`, at the counters
//! `(i, p, 0, 0)`, `(i, p, 1, 0)`, ... (four 64-bit words each). Philox is a
//! counter-based generator: the words at any counter are computed directly, without
//! advancing a shared state, so sample `i` depends on `(s, i)` only (whatever the thread
//! count, the chunking or the shard), and each parameter on its own draws only (changing
//! the width of one leaves the others' draws alone). Its output is specified bit for bit
//! by the algorithm (integer arithmetic only), so it is the same on every machine. Uniforms
//! take the top 53 bits of a `u64`; Gaussians come from Marsaglia's polar method (one of
//! the pair is used), which needs only `ln` ([`detmath::ln`]) and `sqrt`.

use super::detmath;
use super::philox::philox4x64;
use crokinole_core::board::Board;
use crokinole_core::error::{InputError, num};
use crokinole_core::params::Physics;
use crokinole_rules::game::splitmix64;

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

/// The second word of the key (the first is the seed): separates these streams from any
/// other use of a seed. The ASCII of `crokmc02` (version 2 of the draws; version 1 read
/// ChaCha8 streams).
pub const KEY_TAG: u64 = u64::from_be_bytes(*b"crokmc02");

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

/// The random draws of one parameter of one sample: the words of the Philox blocks
/// `(sample, param, 0, 0)`, `(sample, param, 1, 0)`, ... in order.
#[derive(Clone, Debug)]
pub struct Draws {
    key: [u64; 2],
    counter: [u64; 4],
    /// The current block's words and how many of them are used.
    block: [u64; 4],
    used: usize,
}

impl Draws {
    /// The draws of `param` for sample `sample` of a study seeded with `seed`.
    pub fn new(seed: u64, sample: u64, param: Param) -> Draws {
        let key = [seed, KEY_TAG];
        let counter = [sample, param as u64, 0, 0];
        Draws {
            key,
            counter,
            block: philox4x64(counter, key),
            used: 0,
        }
    }

    /// The next 64-bit word.
    fn next_u64(&mut self) -> u64 {
        if self.used == self.block.len() {
            self.counter[2] = self.counter[2].wrapping_add(1);
            self.block = philox4x64(self.counter, self.key);
            self.used = 0;
        }
        let word = self.block[self.used];
        self.used += 1;
        word
    }

    /// A uniform number in `[0, 1)` from the top 53 bits of the next `u64`.
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
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
