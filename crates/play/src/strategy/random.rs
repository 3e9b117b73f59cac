//! [`RandomFlick`]: one random legal flick.

use super::candidates::{Stream, TAKEOUT_SPEED_CAP, TRIES};
use super::turn::{Decision, NoLegalFlick, Strategy, Turn, check_spin};
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_montecarlo::flick::max_offset;

/// One random legal flick: a place uniform over 90 % of each half of the quadrant's
/// shooting line, aimed at a point uniform over the area inside the 10 line, at the
/// stopping speed there times `sqrt(u)` with `u` uniform in `[0.5, 3]`, with a spin
/// uniform in `[-spin, spin]`; up to [`TRIES`] proposals from [`Stream`]`(seed, 0)`, then
/// [`Turn::fallback`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RandomFlick {
    /// Largest `|spin|`, rad/s (0: no spin).
    pub spin: f64,
}

impl Strategy for RandomFlick {
    fn choose(&self, turn: &Turn<'_>) -> Result<Decision, NoLegalFlick> {
        let mut st = Stream::new(turn.seed(), 0);
        let board = turn.board();
        let spin = self.spin.min(turn.spin_limit());
        for _ in 0..TRIES {
            let offset = st.range(-0.9, 0.9) * max_offset(board);
            let target = st.in_disc(board.ten_line_radius);
            let factor = st.range(0.5, 3.0).sqrt();
            let s = if spin > 0.0 {
                st.range(-spin, spin)
            } else {
                0.0
            };
            let f = turn.toward(offset, target, factor, TAKEOUT_SPEED_CAP, s);
            if turn.legal(&f).is_some() {
                return Ok(Decision {
                    flick: f,
                    value: None,
                    candidates: 1,
                });
            }
        }
        Decision::fallback(turn)
    }

    fn name(&self) -> String {
        format!("random:spin={}", self.spin)
    }

    fn check(&self, physics: &Physics) -> Result<(), InputError> {
        check_spin(self.spin, physics)
    }
}
