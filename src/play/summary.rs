//! The summary of many games: win rates with 95 % Wilson intervals, draws, mean round
//! points and totals, 20s per round, rounds per game.
//!
//! Each game is reduced to integer counts ([`GameStats`]) on the worker that played it;
//! the counts are added serially in game order ([`SummaryTally`]) and every mean is one
//! division of exact integer sums at the end, so the summary does not depend on the thread
//! count. [`summary_json`] lays it out like `crokinole montecarlo`'s summary.

use crate::montecarlo::tally::Proportion;
use crate::play::run::{GameLog, NoiseLog, PlayConfig, SeatLog};
use crate::rules::{GameResult, Ruleset};
use serde::Serialize;
use serde_json::ser::Formatter;
use std::io::{self, Write};

/// What one game contributes to a summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameStats {
    /// How it ended (`None`: stopped unfinished at `max_rounds`).
    pub result: Option<GameResult>,
    /// Rounds played.
    pub rounds: u64,
    /// Shots played.
    pub shots: u64,
    /// Shots cut off by `max_time`.
    pub cut_off: u64,
    /// 20s per team, summed over the rounds.
    pub twenties: [u64; 2],
    /// Round totals (`20 * twenties + board_score`) per team, summed over the rounds.
    pub totals: [u64; 2],
    /// Game points per team, summed over the rounds (= the final game score).
    pub points: [u64; 2],
}

impl GameStats {
    /// The counts of a game log.
    pub fn of(log: &GameLog) -> GameStats {
        let mut s = GameStats {
            result: log.result,
            rounds: log.rounds.len() as u64,
            shots: log.shots.len() as u64,
            cut_off: log.shots.iter().filter(|s| s.outcome.cut_off).count() as u64,
            ..GameStats::default()
        };
        for r in &log.rounds {
            for t in 0..2 {
                s.twenties[t] += u64::from(r.twenties[t]);
                s.totals[t] += u64::from(r.totals[t]);
                s.points[t] += u64::from(r.points[t]);
            }
        }
        s
    }
}

/// Counts of many games, added in game order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SummaryTally {
    /// Games added.
    pub games: u64,
    /// Games won per team.
    pub wins: [u64; 2],
    /// Drawn games.
    pub draws: u64,
    /// Games stopped at `max_rounds`.
    pub unfinished: u64,
    /// Sums of the games' [`GameStats`].
    pub sums: GameStats,
}

impl SummaryTally {
    /// Adds one game.
    pub fn add(&mut self, g: &GameStats) {
        self.games += 1;
        match g.result {
            Some(GameResult::Won(t)) => self.wins[usize::from(t.min(1))] += 1,
            Some(GameResult::Draw) => self.draws += 1,
            None => self.unfinished += 1,
        }
        let s = &mut self.sums;
        s.rounds += g.rounds;
        s.shots += g.shots;
        s.cut_off += g.cut_off;
        for t in 0..2 {
            s.twenties[t] += g.twenties[t];
            s.totals[t] += g.totals[t];
            s.points[t] += g.points[t];
        }
    }

    /// The summary of the games added (at least one) under `config`.
    pub fn summary(&self, config: &PlayConfig) -> Summary {
        let n = self.games.max(1);
        let rounds = self.sums.rounds;
        let per = |x: u64, d: u64| if d == 0 { 0.0 } else { x as f64 / d as f64 };
        let seats = config.seats();
        let teams = (0..2u8)
            .map(|team| {
                let t = usize::from(team);
                TeamSummary {
                    team,
                    seats: seats
                        .iter()
                        .filter(|s| s.team == team)
                        .map(|s| s.seat)
                        .collect(),
                    wins: Proportion::new(self.wins[t], n),
                    mean_round_points: per(self.sums.points[t], rounds),
                    mean_round_total: per(self.sums.totals[t], rounds),
                    twenties_per_round: per(self.sums.twenties[t], rounds),
                    mean_game_score: per(self.sums.points[t], n),
                }
            })
            .collect();
        Summary {
            games: self.games,
            seed: config.seed,
            players: config.players,
            ruleset: config.ruleset,
            noise: config.noise.into(),
            max_rounds: config.max_rounds,
            seats,
            teams,
            draws: Proportion::new(self.draws, n),
            unfinished: self.unfinished,
            rounds,
            mean_rounds_per_game: per(rounds, n),
            shots: self.sums.shots,
            cut_off: self.sums.cut_off,
        }
    }
}

/// One team's results over the games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TeamSummary {
    /// The team.
    pub team: u8,
    /// Its seats.
    pub seats: Vec<u8>,
    /// Games won, of all games (draws and unfinished games count as not won), with the
    /// 95 % Wilson score interval.
    pub wins: Proportion,
    /// Game points per round (traditional: the difference to the round's winner, 0 to the
    /// loser; tournament: 2, 1 or 0).
    pub mean_round_points: f64,
    /// Round total per round: `20 * twenties + board_score` at the end of the round.
    pub mean_round_total: f64,
    /// 20s per round.
    pub twenties_per_round: f64,
    /// Final game score per game.
    pub mean_game_score: f64,
}

/// The summary of a run of games (`crokinole play --games N`, `N > 1`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Games played.
    pub games: u64,
    /// Seed of the run.
    pub seed: u64,
    /// Players, 2 or 4.
    pub players: u8,
    /// Rule set.
    pub ruleset: Ruleset,
    /// The players' error.
    pub noise: NoiseLog,
    /// Cap on the rounds of a game.
    pub max_rounds: u32,
    /// Who sits where.
    pub seats: Vec<SeatLog>,
    /// Team 0, team 1.
    pub teams: Vec<TeamSummary>,
    /// Drawn games (tournament rules only), with the 95 % Wilson score interval.
    pub draws: Proportion,
    /// Games stopped at `max_rounds`.
    pub unfinished: u64,
    /// Rounds played in all.
    pub rounds: u64,
    /// Rounds per game.
    pub mean_rounds_per_game: f64,
    /// Shots played in all.
    pub shots: u64,
    /// Shots cut off by `max_time` (0 in ordinary games).
    pub cut_off: u64,
}

/// The summary as printed by `crokinole play`: the top object one key a line, every
/// other value on one line except arrays of objects, which put each object on its own line;
/// a trailing newline. The bytes depend on the summary only.
pub fn summary_json(summary: &Summary) -> String {
    layout_json(summary)
}

/// `value` laid out like the summary (the top object one key a line, arrays of objects
/// one object a line, everything else on one line), with a trailing newline. Also the
/// planner's output (`crate::plan::plan_json`).
pub(crate) fn layout_json<T: Serialize>(value: &T) -> String {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Layout::default());
    value
        .serialize(&mut ser)
        .expect("plain data always serializes");
    out.push(b'\n');
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// An open container of [`Layout`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    /// The top object: one key a line.
    Block { used: bool },
    /// Any other object: on one line.
    Inline,
    /// An array; `broken` once an object in it went on its own line.
    Array { broken: bool },
}

/// The formatter of [`summary_json`].
#[derive(Default)]
struct Layout {
    stack: Vec<Open>,
    /// An array value has begun and its separator (`" "` or a line break) is owed.
    pending: Option<bool>,
}

impl Layout {
    fn newline<W: ?Sized + Write>(&self, w: &mut W) -> io::Result<()> {
        let depth = self
            .stack
            .iter()
            .filter(|o| matches!(o, Open::Block { .. } | Open::Array { broken: true }))
            .count();
        w.write_all(b"\n")?;
        (0..depth).try_for_each(|_| w.write_all(b"  "))
    }

    /// Pays an owed separator before a scalar or an array: a space after a comma.
    fn scalar<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        match self.pending.take() {
            Some(false) => w.write_all(b" "),
            _ => Ok(()),
        }
    }
}

macro_rules! scalars {
    ($($method:ident($ty:ty)),* $(,)?) => {
        $(
            fn $method<W: ?Sized + Write>(&mut self, w: &mut W, value: $ty) -> io::Result<()> {
                self.scalar(w)?;
                serde_json::ser::CompactFormatter.$method(w, value)
            }
        )*
    };
}

impl Formatter for Layout {
    scalars! {
        write_bool(bool), write_i8(i8), write_i16(i16), write_i32(i32), write_i64(i64),
        write_i128(i128), write_u8(u8), write_u16(u16), write_u32(u32), write_u64(u64),
        write_u128(u128), write_f32(f32), write_f64(f64), write_number_str(&str),
    }

    fn write_null<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.scalar(w)?;
        w.write_all(b"null")
    }

    fn begin_string<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.scalar(w)?;
        w.write_all(b"\"")
    }

    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.scalar(w)?;
        self.stack.push(Open::Array { broken: false });
        w.write_all(b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        let open = self.stack.pop();
        if open == Some(Open::Array { broken: true }) {
            self.newline(w)?;
        }
        w.write_all(b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        self.pending = Some(first);
        Ok(())
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        if self.stack.is_empty() {
            self.stack.push(Open::Block { used: false });
        } else {
            if self.pending.take().is_some()
                && let Some(top) = self.stack.last_mut()
            {
                *top = Open::Array { broken: true };
                self.newline(w)?;
            }
            self.stack.push(Open::Inline);
        }
        w.write_all(b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        if let Some(Open::Block { used: true }) = self.stack.pop() {
            self.newline(w)?;
        }
        w.write_all(b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        match self.stack.last_mut() {
            Some(Open::Block { used }) => {
                *used = true;
                if !first {
                    w.write_all(b",")?;
                }
                self.newline(w)
            }
            _ => w.write_all(if first { b"" } else { b", " }),
        }
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_breaks_only_the_top_object_and_arrays_of_objects() {
        #[derive(Serialize)]
        struct T {
            a: u8,
            b: Vec<f64>,
            c: Vec<serde_json::Value>,
            d: serde_json::Value,
            e: Option<u8>,
            f: Vec<Vec<i32>>,
        }
        let t = T {
            a: 1,
            b: vec![0.5, 2.0],
            c: vec![
                serde_json::json!({"x": [1, 2], "y": "s"}),
                serde_json::json!({"x": []}),
            ],
            d: serde_json::json!({"p": {"q": 1}}),
            e: None,
            f: vec![vec![1, 2], vec![]],
        };
        let mut out = Vec::new();
        let mut ser = serde_json::Serializer::with_formatter(&mut out, Layout::default());
        t.serialize(&mut ser).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "{\n  \"a\": 1,\n  \"b\": [0.5, 2.0],\n  \"c\": [\n    {\"x\": [1, 2], \"y\": \"s\"},\n    {\"x\": []}\n  ],\n  \"d\": {\"p\": {\"q\": 1}},\n  \"e\": null,\n  \"f\": [[1, 2], []]\n}"
        );
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["c"][0]["y"], "s");
    }
}
