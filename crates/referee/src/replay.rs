//! A match log checked ([`replay_log`], `crokinole match replay LOG`): the revealed seed
//! against the commitment, then the referee's core ([`Table`]) driven again by the logged
//! flicks and forfeits, every message it would send compared with the logged one, key for
//! key and number for number: the executed flicks follow from the seed, the outcomes,
//! verdicts and scores from the engine. The first line that disagrees is named.

use crate::config::{MatchConfig, PlayerSpec, SeatConfig, seed_commitment};
use crate::table::{End, Table};
use crokinole_core::cancel::Cancel;
use crokinole_core::error::InputError;
use crokinole_io::match_protocol::{Clock, PlayerMsg, flick_value, parse_player_msg};
use crokinole_io::parse_shot_file;
use crokinole_montecarlo::Noise;
use crokinole_rules::seats_in_play;
use serde_json::{Map, Value};
use std::collections::VecDeque;
use std::fmt;

/// Largest log [`replay_log`] reads, bytes.
pub const MAX_LOG_BYTES: usize = 1 << 30;

/// What a checked log holds.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayReport {
    /// Lines read.
    pub lines: usize,
    /// Shots replayed.
    pub shots: usize,
    /// Game totals per team at the end.
    pub scores: [u32; 2],
    /// The logged `game_end`'s reason and winner, if the log has one.
    pub end: Option<(String, Option<u8>)>,
    /// Whether the match was stopped before its end (Ctrl-C).
    pub stopped: bool,
    /// The seed.
    pub seed: u64,
}

/// The first disagreement: its line (from 1) and what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayError {
    /// Line of the log, from 1.
    pub line: usize,
    /// What disagrees.
    pub problem: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.problem)
    }
}

impl std::error::Error for ReplayError {}

fn err(line: usize, problem: impl Into<String>) -> ReplayError {
    ReplayError {
        line,
        problem: problem.into(),
    }
}

/// The first path where `got` (logged) and `want` (recomputed) differ, with both values.
fn first_difference(path: &str, got: &Value, want: &Value) -> Option<String> {
    match (got, want) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, w) in b {
                let g = a.get(k).unwrap_or(&Value::Null);
                if let Some(d) = first_difference(&format!("{path}.{k}"), g, w) {
                    return Some(d);
                }
            }
            a.keys()
                .find(|k| !b.contains_key(*k))
                .map(|k| format!("{path}.{k}: not a key the referee writes"))
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .enumerate()
            .find_map(|(i, (g, w))| first_difference(&format!("{path}[{i}]"), g, w)),
        _ if got == want => None,
        _ => Some(format!("{path}: logged {got}, the replay gives {want}")),
    }
}

/// A field of a JSON object, or an error naming it.
fn field<'v>(
    obj: &'v Map<String, Value>,
    key: &str,
    line: usize,
) -> Result<&'v Value, ReplayError> {
    obj.get(key)
        .ok_or_else(|| err(line, format!("missing `{key}`")))
}

fn number(v: &Value, what: &str, line: usize) -> Result<f64, ReplayError> {
    v.as_f64()
        .ok_or_else(|| err(line, format!("{what}: expected a number")))
}

/// The match's configuration from the log's first line, with `seed`.
fn read_config(first: &Map<String, Value>, seed: u64) -> Result<MatchConfig, ReplayError> {
    let line = 1;
    let input = |e: InputError| err(line, e.to_string());
    let blocks = serde_json::json!({
        "board": field(first, "board", line)?,
        "physics": field(first, "physics", line)?,
        "shots": [],
    });
    let (board, physics, _) = parse_shot_file(&blocks.to_string()).map_err(input)?;
    let players = field(first, "players", line)?
        .as_u64()
        .filter(|&p| p == 2 || p == 4)
        .ok_or_else(|| err(line, "players: expected 2 or 4"))? as u8;
    let ruleset = field(first, "ruleset", line)?
        .as_str()
        .ok_or_else(|| err(line, "ruleset: expected a string"))?
        .parse()
        .map_err(|e: String| err(line, format!("ruleset: {e}")))?;
    let seats_json = field(first, "seats", line)?
        .as_array()
        .ok_or_else(|| err(line, "seats: expected a list"))?;
    if seats_json.len() != seats_in_play(players).len() {
        return Err(err(line, "seats: one per seat in play expected"));
    }
    let mut seats = Vec::new();
    for (k, s) in seats_json.iter().enumerate() {
        let n = s
            .get("noise")
            .and_then(Value::as_object)
            .ok_or_else(|| err(line, format!("seats[{k}].noise: expected an object")))?;
        let w = |key: &str| {
            n.get(key).map_or(Ok(0.0), |v| {
                number(v, &format!("seats[{k}].noise.{key}"), line)
            })
        };
        seats.push(SeatConfig {
            player: PlayerSpec::Remote {
                token: String::new(),
            },
            noise: Noise {
                offset: w("offset")?,
                aim: w("aim")?,
                speed: w("speed")?,
                spin: w("spin")?,
            },
        });
    }
    let clock = field(first, "clock", line)?;
    let clock = Clock {
        total_s: number(
            clock.get("total_s").unwrap_or(&Value::Null),
            "clock.total_s",
            line,
        )?,
        per_shot_s: number(
            clock.get("per_shot_s").unwrap_or(&Value::Null),
            "clock.per_shot_s",
            line,
        )?,
    };
    let config = MatchConfig {
        board,
        physics,
        players,
        ruleset,
        seats,
        clock,
        seed,
        max_rounds: field(first, "max_rounds", line)?
            .as_u64()
            .and_then(|m| u32::try_from(m).ok())
            .ok_or_else(|| err(line, "max_rounds: expected a whole number"))?,
        game_id: field(first, "game_id", line)?
            .as_str()
            .ok_or_else(|| err(line, "game_id: expected a string"))?
            .to_string(),
        ready_timeout_s: number(
            field(first, "ready_timeout_s", line)?,
            "ready_timeout_s",
            line,
        )?,
    };
    config.check().map_err(input)?;
    Ok(config)
}

/// Checks a match log (docs/match.md, "The log"): its last line's seed against the
/// commitment of its first, then every message the referee sent against a replay of the
/// game from the logged flicks, bit for bit. The first line that disagrees is the error.
pub fn replay_log(text: &str) -> Result<ReplayReport, ReplayError> {
    replay_log_until(text, &Cancel::never())
}

/// [`replay_log`] whose shots stop when `cancel` is cancelled (the server's time budget):
/// then an error whose problem names the stop, so the caller asks `cancel` before calling
/// the log wrong.
pub fn replay_log_until(text: &str, cancel: &Cancel) -> Result<ReplayReport, ReplayError> {
    if text.len() > MAX_LOG_BYTES {
        return Err(err(
            0,
            format!("the log is larger than {MAX_LOG_BYTES} bytes"),
        ));
    }
    let lines: Vec<&str> = text.lines().collect();
    let parsed = |k: usize| -> Result<Map<String, Value>, ReplayError> {
        match serde_json::from_str::<Value>(lines[k]) {
            Ok(Value::Object(o)) => Ok(o),
            Ok(_) => Err(err(k + 1, "expected a JSON object")),
            Err(e) => Err(err(k + 1, format!("not JSON: {e}"))),
        }
    };
    if lines.len() < 2 {
        return Err(err(
            lines.len(),
            "a log has at least its configuration and its seed",
        ));
    }
    let first = parsed(0)?;
    if first.get("type").and_then(Value::as_str) != Some("match") {
        return Err(err(1, "type: expected \"match\" (the configuration)"));
    }
    let last_no = lines.len();
    let last = parsed(last_no - 1)?;
    if last.get("type").and_then(Value::as_str) != Some("seed") {
        return Err(err(last_no, "type: expected \"seed\" (the revealed seed)"));
    }
    let seed = field(&last, "seed", last_no)?
        .as_u64()
        .ok_or_else(|| err(last_no, "seed: expected a whole number"))?;
    let committed = field(&first, "seed_commitment", 1)?
        .as_str()
        .unwrap_or_default();
    if seed_commitment(seed) != committed {
        return Err(err(
            last_no,
            format!("seed: SHA-256 of \"{seed}\" is not the seed_commitment of line 1"),
        ));
    }
    let stopped = last
        .get("stopped")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let config = read_config(&first, seed)?;
    let mut table = Table::new(&config).map_err(|e| err(1, e.to_string()))?;
    let seats: Vec<u8> = config.seat_numbers().to_vec();
    let mut last_flick: [Option<Value>; 4] = Default::default();
    // The shooter's answers since its turn (whether each was a legal flick), and when the
    // turn was sent.
    let mut answers: Vec<bool> = Vec::new();
    let mut turn_t = 0.0;
    // Messages to every seat the replay expects next, with the seats still to receive them.
    let mut expect: VecDeque<(Value, Vec<u8>)> = VecDeque::new();
    let mut end = None;
    for (k, _) in lines.iter().enumerate().take(last_no - 1).skip(1) {
        let no = k + 1;
        let entry = parsed(k)?;
        let dir = field(&entry, "dir", no)?
            .as_str()
            .unwrap_or_default()
            .to_string();
        let seat = field(&entry, "seat", no)?
            .as_u64()
            .filter(|s| seats.contains(&(*s as u8)))
            .ok_or_else(|| err(no, "seat: expected a seat in play"))? as u8;
        let t = entry.get("t").and_then(Value::as_f64).unwrap_or(0.0);
        let shooter = dir == "from" && table.to_shoot() == Some(seat);
        let Some(msg) = entry.get("msg") else {
            // A raw line (a bad answer) or an event: nothing to recompute.
            if shooter && entry.contains_key("raw") {
                answers.push(false);
            }
            continue;
        };
        let kind = msg.get("type").and_then(Value::as_str).unwrap_or_default();
        match (dir.as_str(), kind) {
            ("from", "flick") => {
                let flick = match parse_player_msg(&msg.to_string()) {
                    Ok(PlayerMsg::Flick(f)) => Some(f),
                    _ => None,
                };
                if shooter {
                    answers.push(flick.is_some_and(|f| table.check_flick(&f).is_ok()));
                }
                if let Some(f) = flick {
                    last_flick[usize::from(seat)] = Some(flick_value(&f.into()));
                }
            }
            ("from", "ready") => {}
            ("from", _) if shooter => answers.push(false),
            ("from", _) | ("to", "error") => {}
            ("to", "hello") => compare(no, msg, &table.hello(seat))?,
            ("to", "turn") => {
                let left = number(
                    msg.get("clock_left_s").unwrap_or(&Value::Null),
                    "clock_left_s",
                    no,
                )?;
                let want = table
                    .turn_msg(left)
                    .ok_or_else(|| err(no, "a turn after the game's end"))?;
                compare(no, msg, &want)?;
                last_flick = Default::default();
                answers.clear();
                turn_t = t;
            }
            ("to", "shot" | "round_end" | "game_end") => {
                if expect.is_empty() {
                    let produced = if kind == "game_end" {
                        let e = logged_end(msg, &table, no)?;
                        let want = table.game_end(&e, seed);
                        end = Some(e);
                        vec![want]
                    } else if kind == "round_end" {
                        return Err(err(no, "a round_end after no shot that ended a round"));
                    } else {
                        let waited = t - turn_t;
                        let answered = Answered {
                            last_flick: &last_flick,
                            answers: &answers,
                            waited,
                            per_shot_s: config.clock.per_shot_s,
                        };
                        replay_shot(&mut table, msg, &answered, cancel, no)?
                    };
                    expect.extend(produced.into_iter().map(|m| (m, seats.clone())));
                }
                let (want, left) = expect
                    .front_mut()
                    .ok_or_else(|| err(no, "an unexpected message"))?;
                let Some(i) = left.iter().position(|&s| s == seat) else {
                    return Err(err(
                        no,
                        format!("seat {seat} was already sent this message"),
                    ));
                };
                left.remove(i);
                compare(no, msg, want)?;
                if left.is_empty() {
                    expect.pop_front();
                }
            }
            (_, other) => {
                return Err(err(
                    no,
                    format!("unknown message `{other}` in direction `{dir}`"),
                ));
            }
        }
    }
    if let Some((m, _)) = expect.front() {
        return Err(err(
            last_no,
            format!("the log ends before every seat got the {}", m["type"]),
        ));
    }
    if end.is_none() && !stopped {
        return Err(err(
            last_no,
            "the log has no game_end and is not marked stopped",
        ));
    }
    Ok(ReplayReport {
        lines: last_no,
        shots: table.shots().len(),
        scores: table.scores(),
        end: end.map(|e| {
            let w = table.winner(&e);
            (e.reason().to_string(), w)
        }),
        stopped,
        seed,
    })
}

fn compare(line: usize, got: &Value, want: &Value) -> Result<(), ReplayError> {
    let kind = want["type"].as_str().unwrap_or("message");
    match first_difference(kind, got, want) {
        None => Ok(()),
        Some(d) => Err(err(line, d)),
    }
}

/// What the shooter answered to its turn, as logged.
struct Answered<'a> {
    /// Each seat's last flick.
    last_flick: &'a [Option<Value>; 4],
    /// Whether each answer since the turn was a legal flick.
    answers: &'a [bool],
    /// Seconds from the turn to the shot.
    waited: f64,
    /// The shot clock.
    per_shot_s: f64,
}

/// Replays the shot a logged `shot` message reports: its forfeit (a bad flick must follow
/// two bad answers, a shot clock a wait of the clock), or its intended flick (which must
/// be the flick the seat sent last).
fn replay_shot(
    table: &mut Table,
    msg: &Value,
    answered: &Answered<'_>,
    cancel: &Cancel,
    no: usize,
) -> Result<Vec<Value>, ReplayError> {
    let seat = table
        .to_shoot()
        .ok_or_else(|| err(no, "a shot after the game's end"))?;
    if let Some(why) = msg.get("forfeit").and_then(Value::as_str) {
        let bad = answered.answers.iter().filter(|ok| !**ok).count();
        let justified = match why {
            "bad flick" => bad >= 2,
            // The log's times are to the microsecond.
            "shot clock" => answered.waited >= answered.per_shot_s - 1e-3,
            _ => false,
        };
        if !justified {
            return Err(err(
                no,
                format!(
                    "shot.forfeit: `{why}` does not follow from seat {seat}'s answers and times"
                ),
            ));
        }
        return table.forfeit_shot(why).map_err(|e| err(no, e.to_string()));
    }
    let intended = msg.get("intended").cloned().unwrap_or(Value::Null);
    if answered.last_flick[usize::from(seat)].as_ref() != Some(&intended) {
        return Err(err(
            no,
            format!("shot.intended: not the flick seat {seat} sent for this turn"),
        ));
    }
    let mut text = intended.clone();
    text["type"] = Value::from("flick");
    let Ok(PlayerMsg::Flick(f)) = parse_player_msg(&text.to_string()) else {
        return Err(err(no, "shot.intended: not a flick"));
    };
    table
        .check_flick(&f)
        .map_err(|e| err(no, format!("shot.intended: {e}")))?;
    table.play(f, cancel).map_err(|e| err(no, e.to_string()))
}

/// The end a logged `game_end` claims, checked against the table for a game played out.
fn logged_end(msg: &Value, table: &Table, no: usize) -> Result<End, ReplayError> {
    match msg.get("reason").and_then(Value::as_str) {
        Some("forfeit") => {
            let f = msg
                .get("forfeit")
                .ok_or_else(|| err(no, "game_end.forfeit: missing"))?;
            Ok(End::Forfeit {
                seat: f.get("seat").and_then(Value::as_u64).unwrap_or(0) as u8,
                why: f
                    .get("why")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
            })
        }
        _ => table
            .end()
            .ok_or_else(|| err(no, "game_end: the game is not over")),
    }
}
