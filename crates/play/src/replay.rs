//! A game log read back for a replay: for every logged shot, the shot that reproduces it.
//!
//! A game log (`crokinole play --games 1`, docs/play.md) records each shot's start (the
//! executed flick's initial conditions) and the position the rules left after it. The
//! discs at rest before shot `k` are the position after shot `k - 1`, or none at a
//! round's first shot; with the logged start they make shot `k`'s shot, which the
//! engine plays to the logged outcome bit for bit (`simulate --rules` gives the logged
//! verdict). The log's JSON is read by `crokinole_io::parse_game_log`.

use crokinole_core::shot::{Flick, Placed, Shot};
use crokinole_rules::{Ruleset, ShotEntry};

/// What a replay needs of a game log: the table and every shot's start and aftermath.
#[derive(Clone, Debug, PartialEq)]
pub struct LoggedGame {
    /// Players, 2 or 4.
    pub players: u8,
    /// The rule set the game was played under.
    pub ruleset: Ruleset,
    /// Every shot, in order.
    pub shots: Vec<LoggedShot>,
}

/// One shot of a game log, as a replay reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct LoggedShot {
    /// Seat that shot, 0-3.
    pub seat: u8,
    /// The executed flick's initial conditions (the log's `start`).
    pub start: Flick,
    /// The discs on the board after the rules judged the shot (`verdict.position`).
    pub after: Vec<Placed>,
    /// Whether the shot ended its round (the board is cleared before the next).
    pub round_end: bool,
}

impl LoggedGame {
    /// The shot of every logged shot, in order, with its seat and the table's players:
    /// the discs the previous shot left on the board (none at a round's first shot) and
    /// the logged start.
    pub fn shot_entries(&self) -> Vec<ShotEntry> {
        let mut position: Vec<Placed> = Vec::new();
        let mut entries = Vec::with_capacity(self.shots.len());
        for s in &self.shots {
            entries.push(ShotEntry {
                shot: Shot {
                    discs: position.clone(),
                    shooter: s.start,
                },
                seat: Some(s.seat),
                players: self.players,
            });
            position.clear();
            if !s.round_end {
                position.extend_from_slice(&s.after);
            }
        }
        entries
    }
}
