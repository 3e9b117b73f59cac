//! A crokinole-match/1 player in Rust (docs/match.md): it reads the referee's lines on
//! standard input and answers on standard output. It knocks out the opponent's disc
//! nearest the centre when there is one (aiming at it, fast), and otherwise draws to the
//! centre; after an `error` it tries another place on its shooting line.
//!
//! ```text
//! cargo build --release --example match_player
//! crokinole match --player target/release/examples/match_player --player builtin:greedy
//! ```

use serde_json::{Value, json};
use std::io::{BufRead, Write};

/// Places on the shooting line tried in turn, m.
const OFFSETS: [f64; 7] = [0.0, 0.04, -0.04, 0.08, -0.08, 0.12, -0.12];

/// The flick for a `turn`: a takeout of the opponent's disc nearest the centre, or a
/// draw to the centre; `attempt` picks the place on the line.
fn flick(turn: &Value, team: u64, attempt: usize) -> Value {
    let discs = turn["position"]["discs"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let target = discs
        .iter()
        .filter(|d| d["team"].as_u64() != Some(team))
        .filter_map(|d| Some((d["pos"][0].as_f64()?, d["pos"][1].as_f64()?)))
        .min_by(|a, b| a.0.hypot(a.1).total_cmp(&b.0.hypot(b.1)));
    let (point, speed) = match target {
        Some((x, y)) => ([x, y], 1.6),
        None => ([0.0, 0.0], 0.85),
    };
    json!({
        "type": "flick",
        "offset": OFFSETS[attempt % OFFSETS.len()],
        "aim": 0.0,
        "target": point,
        "speed": speed,
        "spin": 0.0,
    })
}

/// Plays one game: reads the referee's lines from `input`, answers on `output`.
pub fn play(input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    let (mut team, mut attempt, mut turn) = (0, 0, Value::Null);
    for line in input.lines() {
        let msg: Value = serde_json::from_str(&line?).unwrap_or(Value::Null);
        let reply = match msg["type"].as_str() {
            Some("hello") => {
                team = msg["team"].as_u64().unwrap_or(0);
                Some(json!({"type": "ready", "name": "match_player.rs"}))
            }
            Some("turn") => {
                attempt = 0;
                turn = msg;
                Some(flick(&turn, team, attempt))
            }
            Some("error") if msg["fatal"] == false => {
                attempt += 1;
                Some(flick(&turn, team, attempt))
            }
            Some("game_end") => break,
            _ => None,
        };
        if let Some(r) = reply {
            writeln!(output, "{r}")?;
            output.flush()?;
        }
    }
    Ok(())
}

#[allow(dead_code)] // the test suite includes this file for `play` only
fn main() -> std::io::Result<()> {
    play(std::io::stdin().lock(), std::io::stdout().lock())
}
