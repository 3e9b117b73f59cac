//! The rules layer: what a shot means in a game of Crokinole (`docs/rules-reference.md`).
//!
//! The physics knows discs, pegs, the hole and the ditch; this module adds the table around
//! them: seats, teams and whose turn it is, where a shooter may place its disc, the opening
//! and must-hit rules judged from the engine's event log, the discs removed after a shot,
//! the 20s set aside, scoring, rounds and the end of a game.
//!
//! - [`ruleset`]: [`Ruleset`] (traditional or tournament) and its constants.
//! - [`placement`]: quadrants and the legal starting places of a shot ([`check_placement`]).
//! - [`verdict`]: one shot judged ([`judge_shot`], [`apply_rules`], [`ShotVerdict`]).
//! - [`judge`]: a shot file's shots judged in order ([`ShotEntry`], [`check_rules`],
//!   [`judge_outcomes`]).
//! - [`scoring`]: zone points on the board and round points ([`board_score`],
//!   [`round_points`]).
//! - [`game`]: the game state machine ([`Game`]).
//! - [`seat`]: the table itself: seats, teams and play order ([`team_of_seat`],
//!   [`next_seat`]).
//!
//! The table (`docs/shot-file.md`):
//! Seat `s` sits in the direction of polar angle 270, 180, 90, 0 degrees for `s = 0..3`;
//! play goes clockwise seen from above, 0 -> 1 -> 2 -> 3 -> 0. With two players only seats 0
//! (team 0) and 2 (team 1) are used; with four, seats 0 and 2 are team 0 and seats 1 and 3
//! team 1. Every choice the spec leaves open is listed in `docs/rules.md`.
//!
//! Everything here is deterministic: only + - * / and sqrt on the geometry, no hash maps,
//! results in id or seat order.
//!
//! ```
//! use crokinole_rules::{Game, Rule, Ruleset, judge_shot};
//! use crokinole_core::{Board, Flick, Physics};
//! use glam::DVec2;
//!
//! let (board, physics) = (Board::tournament(), Physics::default());
//! // Seat 0 opens a two-player game straight at the 20 hole: valid, a 20 for team 0.
//! let flick = Flick { team: 0, pos: DVec2::new(0.0, -0.3048), vel: DVec2::new(0.0, 0.85), spin: 0.0 };
//! let v = judge_shot(&board, &physics, &[], 0, 2, Ruleset::Traditional, flick).unwrap();
//! assert_eq!((v.rule, v.rule_met, v.twenties_per_team()), (Rule::Opening, true, [1, 0]));
//!
//! // The same shot as the first of a game: then it is seat 2's turn.
//! let mut game = Game::new(2, Ruleset::Traditional, 0).unwrap();
//! let record = game.play(0, flick, &board, &physics).unwrap();
//! assert_eq!((game.twenties(), record.next_turn), ([1, 0], Some(2)));
//! assert!(game.play(0, flick, &board, &physics).is_err()); // out of turn
//! ```

pub mod game;
pub mod judge;
pub mod placement;
pub mod ruleset;
pub mod scoring;
pub mod seat;
pub mod verdict;

pub use game::{Game, GameError, GameResult, RoundRecord, ShotRecord, first_seat_from_seed};
pub use judge::{ShotEntry, check_rules, judge_outcomes};
pub use placement::{
    PlacementError, blocked_offsets, check_placement, legal_offsets, quadrant_offset_limit,
};
pub use ruleset::Ruleset;
pub use scoring::{board_score, round_points, round_totals, score_difference};
pub use seat::{
    checked_team_of_seat, next_seat, seat_in_play, seats_in_play, team_of_seat, valid_players,
};
pub use verdict::{
    BoardDisc, Contacts, Fate, RemovalReason, Removed, Rule, ShotVerdict, Twenty, apply_rules,
    contacts, judge_shot,
};
