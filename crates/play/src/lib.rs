//! Full games between strategies: the game layer on top of the rules, the batch API and
//! the Monte Carlo noise model (`docs/play.md`).
//!
//! A strategy ([`Strategy`]) picks the flick a player means to play; the player executes it
//! with its error (the noise model of [`crokinole_montecarlo`]); the rules layer
//! ([`crokinole_rules::Game`]) judges it and keeps the score. [`PlayConfig::play`] plays one
//! game into a [`GameLog`] (every shot with its intended and executed flick, outcome and
//! verdict; every round; the winner); [`PlayConfig::play_many`] plays many in parallel
//! into a [`GamesSummary`]. Everything is a function of the configuration and its seed: the
//! same for every thread count.
//!
//! - [`strategy`]: the [`Strategy`] trait and the built-in strategies ([`RandomFlick`],
//!   [`Greedy`], [`MonteCarlo`], parsed by [`AnyStrategy`]).
//! - [`run`]: [`PlayConfig`], [`GameLog`] and the seeds of games, decisions and executions;
//!   [`GameInPlay`], a game played one shot at a time (for callers that decide some shots
//!   themselves).
//! - [`legality`]: whether a flick is legal where a seat stands, why not, and the offsets
//!   along the shooting line where it may place its disc.
//! - [`replay`]: [`LoggedGame`], a game log read back, and the shot of each logged shot.
//! - [`summary`]: [`GameStats`], [`SummaryTally`], [`GamesSummary`]; [`PlayConfig::play_many`].
//!
//! The game log, the summary and the noise file as JSON are in `crokinole_io`.
//! - [`config`]: the command line's strategy lists and noise specifications.
//!
//! ```
//! use crokinole_play::{AnyStrategy, PlayConfig, Strategy};
//! use crokinole_montecarlo::Noise;
//! use crokinole_rules::Ruleset;
//! use crokinole_core::{Board, Physics};
//!
//! let config = PlayConfig {
//!     board: Board::tournament(),
//!     physics: Physics::default(),
//!     players: 2,
//!     ruleset: Ruleset::Tournament,
//!     strategies: vec![
//!         Box::new("random".parse::<AnyStrategy>().unwrap()),
//!         Box::new("greedy:k=2".parse::<AnyStrategy>().unwrap()),
//!     ],
//!     noise: Noise { aim: 0.01, ..Noise::NONE },
//!     seed: 7,
//!     max_rounds: 1,
//! };
//! config.check().unwrap();
//! let log = config.play(0).unwrap();
//! assert_eq!(log.rounds.len(), 1); // capped after one round
//! assert_eq!(log.shots.len(), 16); // 8 discs each
//! ```

pub mod config;
pub mod legality;
pub mod replay;
pub mod run;
pub mod stats;
pub mod strategy;
pub mod summary;

pub use config::{
    DEFAULT_NOISE, DEFAULT_STRATEGIES, is_inline_noise, parse_noise, parse_strategies,
};
pub use legality::{check_flick, legal_offsets};
pub use replay::{LoggedGame, LoggedShot};
pub use run::{GameInPlay, GameLog, PlayConfig, PlayError, ShotLog};
pub use strategy::{
    AnyStrategy, Decision, Greedy, MAX_MONTECARLO_SAMPLES, MonteCarlo, NoLegalFlick, Planner,
    RandomFlick, Strategy, Turn,
};
pub use summary::{
    GameStats, GamesSummary, HammerSummary, Mean, Moments, SummaryTally, TALLY_INTS, TeamSummary,
};
