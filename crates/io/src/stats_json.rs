//! The statistics of real games' rounds as JSON (`crokinole stats`, docs/cmn.md): the
//! counts of [`RoundStats`], every key described in the docs.

use crate::format::to_json;
use crate::json_form::Json;
use crate::style::Style;
use crokinole_montecarlo::tally::Proportion;
use crokinole_play::stats::{RoundStats, StatsLine};
use serde::Serialize;

#[derive(Serialize)]
struct StatsOut<'a> {
    matches: u64,
    rounds: u64,
    all: LineOut<'a>,
    players: Vec<LineOut<'a>>,
}

#[derive(Serialize)]
struct LineOut<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    rounds: u64,
    twenties_per_player_round: Option<f64>,
    twenties_histogram: &'a [(u32, u64)],
    hammer_rounds: u64,
    hammer_won: Option<Json<'a, Proportion>>,
    hammer_tied: Option<Json<'a, Proportion>>,
    hammer_lost: Option<Json<'a, Proportion>>,
    points_per_round: Option<f64>,
    mean_round_total: Option<f64>,
}

impl<'a> LineOut<'a> {
    fn of(l: &'a StatsLine) -> LineOut<'a> {
        LineOut {
            name: l.name.as_deref(),
            rounds: l.rounds,
            twenties_per_player_round: l.twenties_per_player_round,
            twenties_histogram: &l.twenties_histogram,
            hammer_rounds: l.hammer_rounds,
            hammer_won: l.hammer_won.as_ref().map(Json),
            hammer_tied: l.hammer_tied.as_ref().map(Json),
            hammer_lost: l.hammer_lost.as_ref().map(Json),
            points_per_round: l.points_per_round,
            mean_round_total: l.mean_round_total,
        }
    }
}

/// The statistics as `crokinole stats` prints them: the top object one key a line, each
/// player on a line of its own.
pub fn round_stats_json(stats: &RoundStats) -> String {
    let out = StatsOut {
        matches: stats.matches,
        rounds: stats.all.rounds,
        all: LineOut::of(&stats.all),
        players: stats.players.iter().map(LineOut::of).collect(),
    };
    to_json(&out, Style::ROWS)
}
