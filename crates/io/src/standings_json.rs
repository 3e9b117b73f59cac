//! A tournament's results as JSON (`crokinole tournament --json`, docs/match.md): the
//! standings with their Bradley-Terry ratings and every game's result, for a script or a
//! notebook to read instead of the text table.

use crate::format::to_json;
use crate::style::Style;
use serde::Serialize;

/// The results of a round robin, as `tournament --json` prints them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TournamentJson {
    /// Entrants.
    pub entrants: usize,
    /// Games scheduled.
    pub games: usize,
    /// Games played (fewer when Ctrl-C stopped the tournament).
    pub played: usize,
    /// The tournament's seed.
    pub seed: u64,
    /// Whether it was stopped before every game was played.
    pub stopped: bool,
    /// The folder of the games' logs.
    pub logs: String,
    /// Best rating first.
    pub standings: Vec<StandingJson>,
    /// Every game played, in schedule order.
    pub results: Vec<GameResultJson>,
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StandingJson {
    /// 1 for the best.
    pub rank: usize,
    /// The entrant's name.
    pub name: String,
    /// Bradley-Terry rating on the Elo scale, mean 0.
    pub rating: f64,
    /// Its 95 % interval (`null` ends: an entrant who met nobody).
    pub interval: [f64; 2],
    /// Games won, drawn, lost, forfeited.
    pub won: u32,
    /// Draws.
    pub drew: u32,
    /// Losses.
    pub lost: u32,
    /// Forfeits.
    pub forfeits: u32,
}

/// One game's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameResultJson {
    /// Its index in the schedule (its log is `game-INDEX.jsonl`).
    pub game: usize,
    /// The entrants at seat 0 (team 0) and seat 2 (team 1).
    pub players: [String; 2],
    /// Game totals per team.
    pub scores: [u32; 2],
    /// The winning team, `null` for a draw or a game undecided at its round cap.
    pub winner: Option<u8>,
    /// How it ended: `score`, `rounds` or `forfeit`.
    pub end: &'static str,
    /// Shots played.
    pub shots: usize,
}

/// The text of `tournament --json`: the top object one key a line, each standing and each
/// game on a line of its own.
pub fn tournament_json(t: &TournamentJson) -> String {
    to_json(t, Style::ROWS)
}
