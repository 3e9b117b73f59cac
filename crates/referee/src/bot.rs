//! A built-in strategy as a protocol player ([`BuiltinPlayer`], `crokinole player
//! builtin:NAME`): it reads the referee's lines and answers `hello` with `ready` and each
//! `turn` with the strategy's flick, so any program can be rated against the built-ins
//! over stdio or TCP.

use crokinole_core::board::Board;
use crokinole_core::cancel::Cancel;
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_core::shot::Placed;
use crokinole_io::match_protocol::flick_value;
use crokinole_io::parse_shot_file;
use crokinole_montecarlo::noise::mix;
use crokinole_play::{AnyStrategy, Strategy, Turn};
use crokinole_rules::{Game, Ruleset};
use serde_json::{Value, json};

/// What `hello` said.
struct Seat {
    board: Board,
    physics: Physics,
    players: u8,
    ruleset: Ruleset,
}

/// A built-in strategy speaking the protocol.
pub struct BuiltinPlayer {
    strategy: AnyStrategy,
    seed: u64,
    seat: Option<Seat>,
}

/// What the player does after a line.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// Send this line (with its `\n`).
    Send(String),
    /// Nothing to say.
    Nothing,
    /// The game is over (`game_end`, or a fatal `error`): stop.
    Done,
}

fn bad(field: &str, problem: &str) -> InputError {
    InputError::new(field, problem)
}

fn get<'v>(v: &'v Value, key: &str) -> Result<&'v Value, InputError> {
    v.get(key).ok_or_else(|| bad(key, "missing"))
}

fn small(v: &Value, key: &str) -> Result<u8, InputError> {
    get(v, key)?
        .as_u64()
        .and_then(|n| u8::try_from(n).ok())
        .ok_or_else(|| bad(key, "expected a small whole number"))
}

impl BuiltinPlayer {
    /// `strategy` deciding with seeds drawn from `seed` and each turn's round and shot.
    pub fn new(strategy: AnyStrategy, seed: u64) -> BuiltinPlayer {
        BuiltinPlayer {
            strategy,
            seed,
            seat: None,
        }
    }

    /// The reply to one line from the referee.
    pub fn reply(&mut self, line: &str) -> Result<Reply, InputError> {
        let msg: Value =
            serde_json::from_str(line).map_err(|e| bad("line", &format!("not JSON: {e}")))?;
        match msg.get("type").and_then(Value::as_str).unwrap_or_default() {
            "hello" => {
                let blocks = json!({"board": get(&msg, "board")?, "physics": get(&msg, "physics")?, "shots": []});
                let (board, physics, _) = parse_shot_file(&blocks.to_string())?;
                let ruleset = get(&msg, "ruleset")?
                    .as_str()
                    .unwrap_or_default()
                    .parse()
                    .map_err(|e: String| bad("ruleset", &e))?;
                self.seat = Some(Seat {
                    board,
                    physics,
                    players: small(&msg, "players")?,
                    ruleset,
                });
                let name = format!("builtin:{}", self.strategy.name());
                Ok(Reply::Send(format!(
                    "{}\n",
                    json!({"type": "ready", "name": name})
                )))
            }
            "turn" => {
                let seat = self
                    .seat
                    .as_ref()
                    .ok_or_else(|| bad("type", "a turn before hello"))?;
                let discs = get(get(&msg, "position")?, "discs")?
                    .as_array()
                    .ok_or_else(|| bad("position.discs", "expected a list"))?;
                let mut position = Vec::with_capacity(discs.len());
                for d in discs {
                    let pos = d.get("pos").and_then(Value::as_array);
                    let xy = pos.and_then(|p| Some([p.first()?.as_f64()?, p.get(1)?.as_f64()?]));
                    let (Some(team), Some(xy)) = (d.get("team").and_then(Value::as_u64), xy) else {
                        return Err(bad("position.discs", "expected {team, pos: [x, y]}"));
                    };
                    position.push(Placed {
                        team: u8::try_from(team).unwrap_or(0),
                        pos: xy.into(),
                    });
                }
                let scores = get(&msg, "scores")?;
                let score =
                    [0, 1].map(|k| scores.get(k).and_then(Value::as_u64).unwrap_or(0) as u32);
                let game = Game::resume(
                    seat.players,
                    seat.ruleset,
                    small(&msg, "seat")?,
                    position,
                    score,
                )
                .map_err(|e| bad("seat", &e.to_string()))?;
                let round = get(&msg, "round")?.as_u64().unwrap_or(0);
                let shot = get(&msg, "shot")?.as_u64().unwrap_or(0);
                let turn = Turn::new(
                    &seat.board,
                    &seat.physics,
                    &game,
                    mix(mix(self.seed, round), shot),
                )
                .map_err(|e| bad("position", &e.to_string()))?
                .with_cancel(Cancel::never());
                let decision = self
                    .strategy
                    .choose(&turn)
                    .map_err(|e| bad("position", &e.to_string()))?;
                let mut v = flick_value(&decision.flick.into());
                v["type"] = json!("flick");
                Ok(Reply::Send(format!("{v}\n")))
            }
            "error" if msg.get("fatal") == Some(&Value::Bool(true)) => Ok(Reply::Done),
            "game_end" => Ok(Reply::Done),
            _ => Ok(Reply::Nothing),
        }
    }
}
