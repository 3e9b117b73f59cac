//! Candidate flicks: the counter-based [`Stream`] and the candidate kinds of the module
//! documentation of [`crate::strategy`] (takeouts, draws, the 20 hole).

use super::turn::Turn;
use crokinole_core::shot::Flick;
use crokinole_montecarlo::PlayerFlick;
use crokinole_montecarlo::detmath;
use crokinole_montecarlo::flick::{max_offset, start_position};
use glam::DVec2;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

/// The 24 key bytes after the seed in a [`Stream`]: keeps the strategies' random numbers
/// apart from the noise streams of [`crokinole_montecarlo::noise`].
pub const KEY_TAG: &[u8; 24] = b"crokinole strategies v1.";

/// Proposals drawn for one candidate before it is left out.
pub const TRIES: u32 = 32;

/// Highest speed a takeout candidate is given, m/s (real takeouts reach 2.5-3 m/s).
pub const TAKEOUT_SPEED_CAP: f64 = 3.0;

/// Lowest speed any candidate is given, m/s.
pub use crokinole_plan::setup::MIN_SPEED;

/// A counter-based random stream: ChaCha8 keyed by `seed` (little-endian in the first 8
/// key bytes, [`KEY_TAG`] in the other 24), stream number `stream`. Any stream is reached
/// directly, so stream `c` does not depend on how many numbers other streams used.
#[derive(Clone, Debug)]
pub struct Stream {
    rng: ChaCha8Rng,
}

impl Stream {
    /// Stream `stream` of the generator keyed by `seed`.
    pub fn new(seed: u64, stream: u64) -> Stream {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        key[8..].copy_from_slice(KEY_TAG);
        let mut rng = ChaCha8Rng::from_seed(key);
        rng.set_stream(stream);
        Stream { rng }
    }

    /// A uniform number in `[0, 1)` from the top 53 bits of the next `u64`.
    pub fn uniform(&mut self) -> f64 {
        (self.rng.next_u64() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
    }

    /// A uniform number in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.uniform()
    }

    /// A uniform index in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.uniform() * n as f64) as usize).min(n.saturating_sub(1))
    }

    /// A point uniform over the disc of radius `radius` about the origin.
    pub fn in_disc(&mut self, radius: f64) -> DVec2 {
        let r = radius * self.uniform().sqrt();
        let (s, c) = detmath::sin_cos(std::f64::consts::TAU * self.uniform());
        DVec2::new(r * c, r * s)
    }
}

/// One proposal of candidate kind for candidate `c` (see the module documentation).
fn propose(turn: &Turn<'_>, c: u64, st: &mut Stream, spin: f64) -> PlayerFlick {
    let board = turn.board();
    let r = turn.physics().disc_radius;
    let offset = st.range(-0.9, 0.9) * max_offset(board);
    let spin = if spin > 0.0 {
        st.range(-spin, spin)
    } else {
        0.0
    };
    let opponents: Vec<DVec2> = turn
        .position()
        .iter()
        .filter(|d| d.team != turn.team())
        .map(|d| d.pos)
        .collect();
    let fifteen = (board.fifteen_line_radius - 0.5 * board.line_width - r).max(0.0);
    if !opponents.is_empty() && c % 4 != 3 {
        let aim_at = opponents[st.below(opponents.len())];
        let start = start_position(board, turn.seat(), offset);
        let along = (aim_at - start).normalize_or_zero();
        let side = DVec2::new(-along.y, along.x);
        let target = aim_at + side * (st.range(-0.8, 0.8) * r);
        let factor = st.range(1.5, 6.0).sqrt();
        turn.toward(offset, target, factor, TAKEOUT_SPEED_CAP, spin)
    } else if opponents.is_empty() && c.is_multiple_of(3) {
        let target = st.in_disc(0.3 * board.hole_radius);
        let factor = st.range(1.0, 1.12);
        turn.toward(offset, target, factor, turn.physics().max_speed, spin)
    } else {
        let target = st.in_disc(fifteen);
        let factor = st.range(0.95, 1.05);
        turn.toward(offset, target, factor, turn.physics().max_speed, spin)
    }
}

/// Candidate `c` of a turn: the first legal one of up to [`TRIES`] proposals read from
/// [`Stream`]`(turn.seed(), c)`, with spins uniform in `[-spin, spin]` (see the module
/// documentation for the kinds). `None` if none was legal.
pub fn candidate(turn: &Turn<'_>, c: u64, spin: f64) -> Option<(PlayerFlick, Flick)> {
    let mut st = Stream::new(turn.seed(), c);
    let spin = spin.min(turn.spin_limit());
    (0..TRIES).find_map(|_| {
        let f = propose(turn, c, &mut st, spin);
        turn.legal(&f).map(|flick| (f, flick))
    })
}

/// The legal candidates `0..k` of a turn, with their indices.
pub(super) fn candidates(turn: &Turn<'_>, k: u32, spin: f64) -> Vec<(u32, PlayerFlick, Flick)> {
    (0..k)
        .filter_map(|c| candidate(turn, u64::from(c), spin).map(|(p, f)| (c, p, f)))
        .collect()
}
