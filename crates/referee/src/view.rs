//! A match log as the page's replay view shows it ([`match_view`], `POST /api/replay`
//! given a `crokinole match` log): the players, every shot as the log tells it (seat,
//! intended and executed flicks, forfeit, outcome, scores, round ends), the shot file
//! that plays each shot again (the position of its `turn`, the executed flick from the
//! shooter's seat), the end, and whether the whole log verified ([`replay_log_until`]),
//! naming the first line that did not.

use crate::replay::replay_log_until;
use crokinole_core::board::Board;
use crokinole_core::cancel::Cancel;
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_core::shot::{Placed, Shot};
use crokinole_io::match_protocol::{PlayerMsg, parse_player_msg};
use crokinole_io::{parse_shot_file, shot_file_json};
use crokinole_rules::{ShotEntry, seats_in_play, team_of_seat};
use glam::DVec2;
use serde_json::{Map, Value, json};

/// Whether a text is a match log rather than a game log: its first line is a JSON object
/// with `"type": "match"`.
pub fn is_match_log(text: &str) -> bool {
    let first = text.lines().next().unwrap_or_default();
    serde_json::from_str::<Value>(first)
        .ok()
        .and_then(|v| v.get("type").and_then(Value::as_str).map(|t| t == "match"))
        .unwrap_or(false)
}

/// A match log read for the replay view.
#[derive(Clone, Debug)]
pub struct MatchView {
    /// Board of the match.
    pub board: Board,
    /// Physics of the match.
    pub physics: Physics,
    /// The view as JSON (docs/serve.md, "Replaying a match log").
    pub json: Value,
    /// Shots in the log.
    pub shots: usize,
}

fn bad(line: usize, problem: impl std::fmt::Display) -> InputError {
    InputError::new(format!("line {line}"), problem.to_string())
}

/// Reads a match log for the page: at most `max_shots` shots and `max_discs` discs in a
/// position (errors name the line). The log is verified too, watching `cancel` (its time
/// budget); `Ok(None)` if `cancel` stopped the verification, so a stop is never shown as a
/// wrong log.
pub fn match_view(
    text: &str,
    max_shots: usize,
    max_discs: usize,
    cancel: &Cancel,
) -> Result<Option<MatchView>, InputError> {
    let lines: Vec<&str> = text.lines().collect();
    let parse = |k: usize| serde_json::from_str::<Value>(lines[k]).ok();
    let first = lines
        .first()
        .and_then(|_| parse(0))
        .and_then(|v| v.as_object().cloned())
        .ok_or_else(|| bad(1, "expected the match's configuration"))?;
    let (board, physics) = read_params(&first)?;
    let players = first
        .get("players")
        .and_then(Value::as_u64)
        .filter(|&p| p == 2 || p == 4)
        .ok_or_else(|| bad(1, "players: expected 2 or 4"))? as u8;
    let ruleset = first
        .get("ruleset")
        .and_then(Value::as_str)
        .unwrap_or("tournament")
        .to_string();
    let mut seats: Vec<Value> = first
        .get("seats")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut shots: Vec<Value> = Vec::new();
    let mut files: Vec<Value> = Vec::new();
    let mut position: Vec<Placed> = Vec::new();
    let mut end = Value::Null;
    let mut stopped = false;
    let mut turn_line = 0;
    for k in 1..lines.len() {
        let no = k + 1;
        // The lines of a shot: from its `turn` to the line before the next one.
        if let Some(last) = shots.last_mut()
            && last["lines"][0] == turn_line
        {
            last["lines"][1] = json!(no);
        }
        let Some(Value::Object(entry)) = parse(k) else {
            continue;
        };
        if entry.get("type").and_then(Value::as_str) == Some("seed") {
            stopped = entry.get("stopped").and_then(Value::as_bool) == Some(true);
            continue;
        }
        let (Some(dir), Some(seat), Some(msg)) = (
            entry.get("dir").and_then(Value::as_str),
            entry.get("seat").and_then(Value::as_u64),
            entry.get("msg").and_then(Value::as_object),
        ) else {
            continue;
        };
        let kind = msg.get("type").and_then(Value::as_str).unwrap_or_default();
        match (dir, kind) {
            ("from", "ready") => {
                if let Some(s) = seats.iter_mut().find(|s| s["seat"] == seat) {
                    s["name"] = msg.get("name").cloned().unwrap_or(Value::Null);
                }
            }
            ("to", "turn") => {
                position = read_position(msg, no, max_discs)?;
                turn_line = no;
                if let Some(last) = shots.last_mut() {
                    last["lines"][1] = json!(no - 1);
                }
            }
            // Each shot is sent to every seat: the shooter's copy is the one read.
            ("to", "shot") if msg.get("seat").and_then(Value::as_u64) == Some(seat) => {
                if shots.len() == max_shots {
                    return Err(bad(
                        no,
                        format!("more than {max_shots} shots, the most this server replays"),
                    ));
                }
                let file = shot_file(&board, &physics, players, seat as u8, msg, &position)
                    .map_err(|e| bad(no, e))?;
                files.push(file);
                let mut shot = Value::Object(msg.clone());
                shot["line"] = json!(no);
                shot["lines"] = json!([turn_line, no]);
                shot["score"] = msg.get("scores").cloned().unwrap_or(Value::Null);
                shot["round_end"] = Value::Null;
                shots.push(shot);
            }
            ("to", "round_end") => {
                if let Some(last) = shots.last_mut()
                    && last["seat"] == seat
                {
                    last["round_end"] = Value::Object(msg.clone());
                }
            }
            ("to", "game_end") if end.is_null() => end = Value::Object(msg.clone()),
            _ => {}
        }
    }
    let verified = match replay_log_until(text, cancel) {
        Ok(_) => Value::Null,
        Err(_) if cancel.is_cancelled() => return Ok(None),
        Err(e) => json!({"line": e.line, "problem": e.problem}),
    };
    for s in &mut seats {
        if s.get("name").is_none() {
            s["name"] = s.get("player").cloned().unwrap_or(Value::Null);
        }
        // The replay view names a seat by `strategy`, as a game log's seats do.
        s["strategy"] = s["name"].clone();
    }
    let n = shots.len();
    let json = json!({
        "kind": "match",
        "players": players,
        "ruleset": ruleset,
        "game_id": first.get("game_id").cloned().unwrap_or(Value::Null),
        "seats": seats,
        "verified": verified.is_null(),
        "problem": verified,
        "shots": files,
        "log": {"shots": shots, "seats": seats},
        "end": end,
        "stopped": stopped,
    });
    Ok(Some(MatchView {
        board,
        physics,
        json,
        shots: n,
    }))
}

/// The board and physics of a log's first line, read as a shot file's blocks are.
fn read_params(first: &Map<String, Value>) -> Result<(Board, Physics), InputError> {
    let blocks = json!({
        "board": first.get("board").cloned().unwrap_or(Value::Null),
        "physics": first.get("physics").cloned().unwrap_or(Value::Null),
        "shots": [],
    });
    let (board, physics, _) = parse_shot_file(&blocks.to_string()).map_err(|e| bad(1, e))?;
    Ok((board, physics))
}

/// The discs at rest of a `turn` (`position.discs`), at most `max_discs`.
fn read_position(
    msg: &Map<String, Value>,
    no: usize,
    max_discs: usize,
) -> Result<Vec<Placed>, InputError> {
    let discs = msg
        .get("position")
        .and_then(|p| p.get("discs"))
        .and_then(Value::as_array)
        .ok_or_else(|| bad(no, "turn.position.discs: expected a list"))?;
    if discs.len() > max_discs {
        return Err(bad(
            no,
            format!(
                "turn.position.discs: {} discs, more than this server allows ({max_discs})",
                discs.len()
            ),
        ));
    }
    discs
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let team = d.get("team").and_then(Value::as_u64).filter(|&t| t < 2);
            let pos = d
                .get("pos")
                .and_then(Value::as_array)
                .and_then(|p| Some(DVec2::new(p.first()?.as_f64()?, p.get(1)?.as_f64()?)));
            match (team, pos) {
                (Some(team), Some(pos)) => Ok(Placed {
                    team: team as u8,
                    pos,
                }),
                _ => Err(bad(
                    no,
                    format!("turn.position.discs[{i}]: expected {{team: 0 or 1, pos: [x, y]}}"),
                )),
            }
        })
        .collect()
}

/// The shot file that plays a logged shot again: the turn's position and the executed
/// flick from the shooter's seat (`null` for a forfeited shot: nothing was flicked).
fn shot_file(
    board: &Board,
    physics: &Physics,
    players: u8,
    seat: u8,
    msg: &Map<String, Value>,
    position: &[Placed],
) -> Result<Value, String> {
    if msg.get("forfeit").is_some_and(|f| !f.is_null()) {
        return Ok(Value::Null);
    }
    if !seats_in_play(players).contains(&seat) {
        return Err(format!("shot.seat: {seat} is not a seat in play"));
    }
    let mut executed = msg.get("executed").cloned().unwrap_or(Value::Null);
    if !executed.is_object() {
        return Err("shot.executed: expected a flick".into());
    }
    executed["type"] = json!("flick");
    let flick = match parse_player_msg(&executed.to_string()) {
        Ok(PlayerMsg::Flick(f)) => f,
        Ok(_) => return Err("shot.executed: expected a flick".into()),
        Err(e) => return Err(format!("shot.executed: {e}")),
    };
    let team = team_of_seat(seat, players).unwrap_or(0);
    flick
        .check(board, seat)
        .map_err(|e| format!("shot.executed: {e}"))?;
    let entry = ShotEntry {
        shot: Shot {
            discs: position.to_vec(),
            shooter: flick.to_flick(board, seat, team),
        },
        seat: Some(seat),
        players,
    };
    entry
        .shot
        .world(board, physics)
        .map_err(|e| format!("the shot again: {e}"))?;
    let text = shot_file_json(
        board,
        physics,
        std::slice::from_ref(&entry),
        "a shot of a match log",
    );
    serde_json::from_str(&text).map_err(|e| e.to_string())
}
