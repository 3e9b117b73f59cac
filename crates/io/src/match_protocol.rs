//! The messages of the match protocol `crokinole-match/1` (docs/match.md) as JSON: the
//! referee's messages built as JSON values (`hello`, `turn`, `shot`, `round_end`,
//! `game_end`, `error`) and the players' lines read (`ready`, `flick`, `join`), every
//! line bounded, every field checked and named in the error.

use crate::json_form::Json;
use crate::params_json;
use crate::serialize_outcome;
use crokinole_core::board::Board;
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_core::shot::{Outcome, Placed};
use crokinole_montecarlo::{Noise, PlayerFlick};
use crokinole_play::ShotLog;
use crokinole_play::run::FlickLog;
use crokinole_rules::Ruleset;
use glam::DVec2;
use serde::Serialize;
use serde_json::{Map, Value, json};

/// The protocol's name, sent in `hello`.
pub const PROTOCOL: &str = "crokinole-match/1";

/// Longest line either side may send, in bytes, its `\n` excluded.
pub const MAX_LINE: usize = 1 << 20;

/// Longest player name (`ready.name`), in characters.
pub const MAX_NAME: usize = 64;

/// A player's clock: its total thinking time and the limit of one shot, seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// The whole game's thinking time, s.
    pub total_s: f64,
    /// One shot's thinking time, s.
    pub per_shot_s: f64,
}

/// A line from a player, read.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerMsg {
    /// `ready`: the player's name.
    Ready {
        /// At most [`MAX_NAME`] characters.
        name: String,
    },
    /// `flick`: the intended flick.
    Flick(PlayerFlick),
    /// `join` (TCP): the seat's token.
    Join {
        /// The token.
        token: String,
    },
}

/// The board and physics blocks with every key written out, as JSON values.
pub fn params_value(board: &Board, physics: &Physics) -> (Value, Value) {
    let mut v: Map<String, Value> =
        serde_json::from_str(&params_json(board, physics)).unwrap_or_default();
    (
        v.remove("board").unwrap_or(Value::Null),
        v.remove("physics").unwrap_or(Value::Null),
    )
}

/// Noise widths as `{"offset", "aim", "speed", "spin"}`.
pub fn noise_value(n: &Noise) -> Value {
    json!({"offset": n.offset, "aim": n.aim, "speed": n.speed, "spin": n.spin})
}

/// A clock as `{"total_s", "per_shot_s"}`.
pub fn clock_value(c: &Clock) -> Value {
    json!({"total_s": c.total_s, "per_shot_s": c.per_shot_s})
}

/// The `hello` of one seat.
#[allow(clippy::too_many_arguments)]
pub fn hello_msg(
    game_id: &str,
    seat: u8,
    players: u8,
    team: u8,
    ruleset: Ruleset,
    params: &(Value, Value),
    noise: &Noise,
    clock: &Clock,
    seed_commitment: &str,
) -> Value {
    json!({
        "type": "hello",
        "protocol": PROTOCOL,
        "game_id": game_id,
        "seat": seat,
        "players": players,
        "team": team,
        "ruleset": ruleset.name(),
        "board": params.0,
        "physics": params.1,
        "noise": noise_value(noise),
        "clock": clock_value(clock),
        "seed_commitment": seed_commitment,
    })
}

/// The discs at rest as `{"discs": [{"team", "pos"}, ...]}`.
pub fn position_value(discs: &[Placed]) -> Value {
    let discs: Vec<Value> = discs
        .iter()
        .map(|d| json!({"team": d.team, "pos": [d.pos.x, d.pos.y]}))
        .collect();
    json!({ "discs": discs })
}

/// The `turn` of `seat`: `round` from 1, `shot` in the round from 0, the position, discs
/// left per seat 0-3 (0 for a seat not in play), the game's totals per team and the seat's
/// remaining clock.
#[allow(clippy::too_many_arguments)]
pub fn turn_msg(
    round: u32,
    shot: u32,
    seat: u8,
    position: &[Placed],
    discs_left: [u8; 4],
    scores: [u32; 2],
    round_totals: [u32; 2],
    clock_left_s: f64,
) -> Value {
    json!({
        "type": "turn",
        "round": round,
        "shot": shot,
        "seat": seat,
        "position": position_value(position),
        "discs_left": discs_left,
        "scores": scores,
        "round_totals": round_totals,
        "clock_left_s": clock_left_s,
    })
}

/// A flick in player terms (`offset`, `aim`, `speed`, `spin`, `target` when given).
pub fn flick_value(f: &FlickLog) -> Value {
    let mut v = json!({"offset": f.offset, "aim": f.aim, "speed": f.speed, "spin": f.spin});
    if let Some(t) = f.target {
        v["target"] = json!(t);
    }
    v
}

/// An outcome as in an outcome file.
pub fn outcome_value(o: &Outcome) -> Value {
    serialize_outcome(o, serde_json::value::Serializer).unwrap_or(Value::Null)
}

/// Any serialisable value (a verdict, a round) as JSON; `null` if it cannot be.
pub fn to_value<T: Serialize>(x: &T) -> Value {
    serde_json::to_value(x).unwrap_or(Value::Null)
}

/// The `shot` of a played (or forfeited) shot: `round` from 1, the flick as received and
/// as executed, the outcome, the verdict, the change in `(own - other)` of the round's
/// running totals, the game's totals (`scores`, which change at a round's end) and the
/// round's running totals (`round_totals`: 20 per 20 set aside plus the board score).
/// A forfeited shot has `forfeit` (why) and `null` for `intended` and `executed`.
pub fn shot_msg(s: &ShotLog, score_change: i64) -> Value {
    let forfeit = s.forfeit.as_deref();
    let (intended, executed) = match forfeit {
        Some(_) => (Value::Null, Value::Null),
        None => (flick_value(&s.intended), flick_value(&s.executed)),
    };
    let mut v = json!({
        "type": "shot",
        "round": s.round + 1,
        "shot": s.shot,
        "number": s.number,
        "seat": s.seat,
        "team": s.team,
        "intended": intended,
        "executed": executed,
        "outcome": outcome_value(&s.outcome),
        "verdict": to_value(&Json(&s.verdict)),
        "score_change": score_change,
        "scores": s.score,
        "round_totals": s.round_totals,
        "discs_left": s.discs_left,
    });
    if let Some(why) = forfeit {
        v["forfeit"] = json!(why);
    }
    v
}

/// The `round_end`: `round` from 1, the round's points per team, the totals.
pub fn round_end_msg(round: u32, round_points: [u32; 2], scores: [u32; 2]) -> Value {
    json!({"type": "round_end", "round": round, "round_points": round_points, "scores": scores})
}

/// The `game_end`: totals, winning team (`None`: a draw or no winner), reason (`score`,
/// `rounds`, `forfeit`), the revealed seed, and for a forfeit the seat and why.
pub fn game_end_msg(
    scores: [u32; 2],
    winner: Option<u8>,
    reason: &str,
    seed: u64,
    forfeit: Option<(u8, &str)>,
) -> Value {
    let mut v = json!({
        "type": "game_end",
        "scores": scores,
        "winner": winner,
        "reason": reason,
        "seed": seed,
    });
    if let Some((seat, why)) = forfeit {
        v["forfeit"] = json!({"seat": seat, "why": why});
    }
    v
}

/// An `error`: what was wrong, naming the field, and whether the game is lost by it.
pub fn error_msg(message: &str, fatal: bool) -> Value {
    json!({"type": "error", "message": message, "fatal": fatal})
}

/// A message as one line of compact JSON, with its `\n`.
pub fn line(v: &Value) -> String {
    let mut s = v.to_string();
    s.push('\n');
    s
}

/// Reads one player line (its `\n` removed). The line must be a JSON object with a string
/// `type` among `ready`, `flick`, `join`; unknown keys are ignored (players may add
/// fields). Errors name the field and the problem.
pub fn parse_player_msg(text: &str) -> Result<PlayerMsg, InputError> {
    if text.len() > MAX_LINE {
        return Err(InputError::new(
            "line",
            format!("longer than {MAX_LINE} bytes"),
        ));
    }
    let v: Value = serde_json::from_str(text)
        .map_err(|e| InputError::new("line", format!("not JSON: {e}")))?;
    let Value::Object(obj) = v else {
        return Err(InputError::new("line", "expected a JSON object"));
    };
    let kind = match obj.get("type") {
        Some(Value::String(s)) => s.as_str(),
        Some(_) => return Err(InputError::new("type", "expected a string")),
        None => return Err(InputError::new("type", "missing")),
    };
    let string = |key: &str| match obj.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(InputError::new(key, "expected a string")),
        None => Err(InputError::new(key, "missing")),
    };
    match kind {
        "ready" => {
            let name = string("name")?;
            if name.chars().count() > MAX_NAME {
                return Err(InputError::new(
                    "name",
                    format!("longer than {MAX_NAME} characters"),
                ));
            }
            // A name is printed (the result, the standings): a newline or an escape
            // sequence in it could forge lines or hide the terminal's output.
            if let Some(c) = name.chars().find(|c| c.is_control()) {
                return Err(InputError::new(
                    "name",
                    format!(
                        "holds the control character U+{:04X}: a name is printed, so it may hold \
                         none",
                        c as u32
                    ),
                ));
            }
            Ok(PlayerMsg::Ready { name })
        }
        "join" => Ok(PlayerMsg::Join {
            token: string("token")?,
        }),
        "flick" => {
            let num = |key: &str| match obj.get(key) {
                Some(Value::Number(n)) => n
                    .as_f64()
                    .ok_or_else(|| InputError::new(key, "expected a number")),
                Some(_) => Err(InputError::new(key, "expected a number")),
                None => Err(InputError::new(key, "missing")),
            };
            let target = match obj.get("target") {
                None | Some(Value::Null) => None,
                Some(Value::Array(a)) if a.len() == 2 => match (a[0].as_f64(), a[1].as_f64()) {
                    (Some(x), Some(y)) => Some(DVec2::new(x, y)),
                    _ => return Err(InputError::new("target", "expected [x, y], numbers")),
                },
                Some(_) => return Err(InputError::new("target", "expected [x, y]")),
            };
            Ok(PlayerMsg::Flick(PlayerFlick {
                offset: num("offset")?,
                aim: num("aim")?,
                target,
                speed: num("speed")?,
                spin: num("spin")?,
            }))
        }
        other => Err(InputError::new(
            "type",
            format!("unknown message type `{other}`: expected ready, flick or join"),
        )),
    }
}

/// The flick of a `flick` message as the log and the `shot` write it.
pub fn flick_log(f: &PlayerFlick) -> FlickLog {
    FlickLog::from(*f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_lines_parse_and_name_bad_fields() {
        let f = parse_player_msg(
            r#"{"type":"flick","offset":0.01,"aim":0,"speed":2,"spin":0,"extra":1}"#,
        )
        .unwrap();
        assert!(matches!(f, PlayerMsg::Flick(p) if p.speed == 2.0 && p.target.is_none()));
        let e = parse_player_msg(r#"{"type":"flick","offset":0,"aim":"x","speed":2,"spin":0}"#)
            .unwrap_err();
        assert_eq!(e.field, "aim");
        assert_eq!(parse_player_msg("nope").unwrap_err().field, "line");
        assert_eq!(parse_player_msg("[1]").unwrap_err().field, "line");
        assert_eq!(
            parse_player_msg(r#"{"type":"x"}"#).unwrap_err().field,
            "type"
        );
        let long = format!(r#"{{"type":"ready","name":"{}"}}"#, "n".repeat(65));
        assert_eq!(parse_player_msg(&long).unwrap_err().field, "name");
        assert_eq!(
            parse_player_msg(r#"{"type":"ready","name":"bot"}"#).unwrap(),
            PlayerMsg::Ready { name: "bot".into() }
        );
    }

    /// Issue #42, item 5: a `ready.name` holding a newline and escape sequences printed a
    /// forged "team 0 wins" line and then hid the terminal's output.
    #[test]
    fn a_name_with_a_control_character_is_refused() {
        for name in ["evil\\nteam 0 wins", "\\u001b[2J", "tab\\there", "\\u0085"] {
            let line = format!(r#"{{"type":"ready","name":"{name}"}}"#);
            let e = parse_player_msg(&line).unwrap_err();
            assert_eq!(e.field, "name", "{name}");
            assert!(e.problem.contains("control character"), "{}", e.problem);
        }
        assert!(parse_player_msg(r#"{"type":"ready","name":"Zoë 🥌"}"#).is_ok());
    }
}
