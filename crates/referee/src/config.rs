//! A match's configuration: the table, the rules, who sits where (a program, a built-in
//! strategy or a TCP connection), each seat's noise, the clocks, the seed and its
//! commitment (SHA-256 of the seed's decimal text).

use crokinole_core::board::Board;
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_io::match_protocol::Clock;
use crokinole_montecarlo::Noise;
use crokinole_play::AnyStrategy;
use crokinole_rules::{Ruleset, seats_in_play, team_of_seat, valid_players};
use sha2::{Digest, Sha256};

/// Default total clock of a seat, s.
pub const DEFAULT_TOTAL_S: f64 = 600.0;
/// Default clock of one shot, s.
pub const DEFAULT_PER_SHOT_S: f64 = 30.0;
/// Time a player has to answer `hello` with `ready`, outside its clock, s.
pub const READY_TIMEOUT_S: f64 = 10.0;
/// Longest clock accepted, s (a day).
/// The shortest clock a match takes, seconds: a millisecond.
pub const MIN_CLOCK_S: f64 = 1e-3;

pub const MAX_CLOCK_S: f64 = 86_400.0;
/// Default cap on a game's rounds.
pub const DEFAULT_MAX_ROUNDS: u32 = 100;

/// Who plays a seat.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// A program started by the referee (`sh -c 'exec CMD'`), spoken to on its stdio.
    Program(String),
    /// A built-in strategy, played in-process with the decision seeds of `crokinole play`.
    Builtin {
        /// The text it was parsed from (`greedy:k=2`).
        text: String,
        /// The strategy.
        strategy: AnyStrategy,
    },
    /// A player connecting over TCP with this token.
    Remote {
        /// The seat's join token.
        token: String,
    },
}

impl PlayerSpec {
    /// Parses `builtin:NAME[:KEY=VALUE...]` (any strategy `crokinole play` accepts; the
    /// Monte Carlo strategies and the planner get `noise` as their model) or a command.
    pub fn parse(text: &str, noise: Noise) -> Result<PlayerSpec, String> {
        match text.strip_prefix("builtin:") {
            Some(rest) => Ok(PlayerSpec::Builtin {
                text: rest.to_string(),
                strategy: AnyStrategy::parse(rest, noise)?,
            }),
            None if text.trim().is_empty() => Err("empty command".into()),
            None => Ok(PlayerSpec::Program(text.to_string())),
        }
    }

    /// How the log names it: `builtin:NAME`, `program: CMD` or `tcp`.
    pub fn describe(&self) -> String {
        match self {
            PlayerSpec::Program(cmd) => format!("program: {cmd}"),
            PlayerSpec::Builtin { text, .. } => format!("builtin:{text}"),
            PlayerSpec::Remote { .. } => "tcp".to_string(),
        }
    }
}

/// One seat in play.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatConfig {
    /// Who plays it.
    pub player: PlayerSpec,
    /// Its execution error.
    pub noise: Noise,
}

/// A match: one game between 2 or 4 players.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchConfig {
    /// Board geometry.
    pub board: Board,
    /// Physical parameters.
    pub physics: Physics,
    /// Players, 2 or 4.
    pub players: u8,
    /// Rule set.
    pub ruleset: Ruleset,
    /// One per seat in play, in seat order (seats 0, 2 with two players; 0-3 with four).
    pub seats: Vec<SeatConfig>,
    /// Every seat's clock.
    pub clock: Clock,
    /// The match seed: the first shooter and every executed flick follow from it.
    pub seed: u64,
    /// A game not over after this many rounds ends there (`reason: "rounds"`).
    pub max_rounds: u32,
    /// The game's name in `hello`.
    pub game_id: String,
    /// Time to answer `hello`, s (outside the clock).
    pub ready_timeout_s: f64,
}

/// Lower-case hex SHA-256 of the seed's ASCII decimal form (`"42"`).
pub fn seed_commitment(seed: u64) -> String {
    let digest = Sha256::digest(seed.to_string().as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

impl MatchConfig {
    /// The seats in play, in seat order.
    pub fn seat_numbers(&self) -> &'static [u8] {
        seats_in_play(self.players)
    }

    /// The team of a seat in play.
    pub fn team(&self, seat: u8) -> u8 {
        team_of_seat(seat, self.players).unwrap_or(0)
    }

    /// The configuration of a seat in play.
    pub fn seat(&self, seat: u8) -> &SeatConfig {
        let k = self
            .seat_numbers()
            .iter()
            .position(|&s| s == seat)
            .unwrap_or(0);
        &self.seats[k]
    }

    /// The commitment to [`MatchConfig::seed`].
    pub fn commitment(&self) -> String {
        seed_commitment(self.seed)
    }

    /// Checks players (2 or 4), one seat configuration per seat in play, each noise
    /// ([`Noise::check`], field `seats[k].noise`), the clocks (positive, finite, at most
    /// [`MAX_CLOCK_S`]), `max_rounds >= 1`, the ready timeout and the strategies'
    /// parameters.
    pub fn check(&self) -> Result<(), InputError> {
        if !valid_players(self.players) {
            return Err(InputError::new(
                "players",
                format!("must be 2 or 4, got {}", self.players),
            ));
        }
        let n = seats_in_play(self.players).len();
        if self.seats.len() != n {
            return Err(InputError::new(
                "players",
                format!(
                    "{} players need {n} players given, got {}",
                    self.players,
                    self.seats.len()
                ),
            ));
        }
        for (k, s) in self.seats.iter().enumerate() {
            s.noise
                .check(&self.board, &self.physics)
                .map_err(|e| InputError::new(format!("seats[{k}].{}", e.field), e.problem))?;
            if let PlayerSpec::Builtin { strategy, .. } = &s.player {
                crokinole_play::Strategy::check(strategy, &self.physics)
                    .map_err(|e| InputError::new(format!("seats[{k}].{}", e.field), e.problem))?;
            }
        }
        for (field, x) in [
            ("clock.total_s", self.clock.total_s),
            ("clock.per_shot_s", self.clock.per_shot_s),
            ("ready_timeout_s", self.ready_timeout_s),
        ] {
            // At least a millisecond: a clock of 1e-300 s was accepted and forfeited every
            // shot at once.
            if !(x.is_finite() && (MIN_CLOCK_S..=MAX_CLOCK_S).contains(&x)) {
                return Err(InputError::new(
                    field,
                    format!(
                        "must be a number of seconds from {MIN_CLOCK_S} to {MAX_CLOCK_S}, got {}",
                        crokinole_core::error::num(x)
                    ),
                ));
            }
        }
        if self.max_rounds == 0 {
            return Err(InputError::new("max_rounds", "must be at least 1, got 0"));
        }
        if self.game_id.len() > 256 {
            return Err(InputError::new("game_id", "longer than 256 bytes"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_commitment_is_the_sha256_of_the_decimal_seed() {
        // printf 42 | sha256sum
        assert_eq!(
            seed_commitment(42),
            "73475cb40a568e8da8a045ced110137e159f890ac4da883b6b17dc651b3a8049"
        );
    }
}
