//! The match referee: players as programs (or built-in strategies, or TCP connections)
//! speaking the protocol `crokinole-match/1` (docs/match.md), refereed game by game with
//! clocks, per-seat noise drawn from a committed seed, a log of every message, its replay
//! checked bit for bit, and round-robin tournaments.
//!
//! - [`bot`]: [`BuiltinPlayer`], a built-in strategy speaking the protocol.
//! - [`config`]: [`MatchConfig`], who sits where ([`PlayerSpec`]), the seed commitment.
//! - [`table`]: [`Table`], the deterministic core the match and the replay share.
//! - [`transport`]: [`Conn`], a child's stdio or a TCP stream, read and written by threads
//!   of their own with bounded lines.
//! - [`log`]: the log's lines ([`LogSink`]) and the observer each line is shown to.
//! - [`run`]: [`run_match`], a match from `hello` to `game_end`; [`resume_match`], the same
//!   match again with its built-ins' flicks from an earlier run.
//! - [`replay`]: [`replay_log`], a log checked against the seed and the engine.
//! - [`players`]: starting the programs and accepting TCP players.
//! - [`tournament`]: round robins, their standings; [`rating`]: Bradley-Terry ratings.
//! - [`view`]: [`match_view`], a match log as the page's replay view shows it.
//! - [`watch`]: [`watch_match`], a match of built-ins the page starts and watches.

pub mod bot;
pub mod config;
pub mod log;
pub mod players;
pub mod rating;
pub mod replay;
pub mod run;
pub mod table;
pub mod tournament;

pub mod transport;
pub mod view;
pub mod watch;

pub use bot::{BuiltinPlayer, Reply};
pub use config::{MatchConfig, PlayerSpec, SeatConfig, seed_commitment};
pub use log::{LogSink, Observer};
pub use players::{accept_players, join_tokens, play_match, start_players};
pub use replay::{ReplayError, ReplayReport, replay_log, replay_log_until};
pub use run::{MatchError, MatchOutcome, Player, resume_match, run_match};
pub use table::{End, Table};
pub use tournament::{TournamentConfig, parse_tournament, run_tournament};
pub use transport::Conn;
pub use view::{MatchView, is_match_log, match_view};
pub use watch::{Watched, parse_watch, watch_match};
