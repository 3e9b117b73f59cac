//! The match log (docs/match.md, "The log"): JSON Lines, the configuration first, then
//! every message in both directions wrapped as `{"t", "dir", "seat", "msg"}` (a line that
//! was not a message as `raw`, a closed stream or a silence as `event`), the revealed seed
//! last. [`LogSink`] writes it and hands each line to an observer.

use crate::config::MatchConfig;
use crokinole_io::match_protocol::{PROTOCOL, clock_value, noise_value, params_value};
use crokinole_montecarlo::SkillLevel;
use serde_json::{Value, json};
use std::io::Write;
use std::time::Instant;

/// The longest part of a line that was not a message the log keeps (`raw`), in bytes.
pub const MAX_RAW: usize = 4096;

/// What each log line is shown to as it is written (the page watching a match): the
/// line's JSON text, without its newline.
pub type Observer<'a> = dyn FnMut(&str) + 'a;

/// The first line of a log: the match's configuration.
pub fn config_line(config: &MatchConfig) -> Value {
    let (board, physics) = params_value(&config.board, &config.physics);
    let seats: Vec<Value> = config
        .seat_numbers()
        .iter()
        .zip(&config.seats)
        .map(|(&seat, s)| {
            let mut v = json!({
                "seat": seat,
                "team": config.team(seat),
                "player": s.player.describe(),
                "noise": noise_value(&s.noise),
            });
            if let Some(level) = SkillLevel::of_noise(&s.noise) {
                v["skill"] = json!(level.name);
            }
            v
        })
        .collect();
    json!({
        "type": "match",
        "protocol": PROTOCOL,
        "game_id": config.game_id,
        "players": config.players,
        "ruleset": config.ruleset.name(),
        "board": board,
        "physics": physics,
        "seats": seats,
        "clock": clock_value(&config.clock),
        "max_rounds": config.max_rounds,
        "ready_timeout_s": config.ready_timeout_s,
        "seed_commitment": config.commitment(),
    })
}

/// The last line of a log: the seed revealed (`stopped` when the match was stopped
/// before its end).
pub fn seed_line(seed: u64, stopped: bool) -> Value {
    let mut v = json!({"type": "seed", "seed": seed});
    if stopped {
        v["stopped"] = json!(true);
    }
    v
}

/// The log being written: its lines go to a writer and to an observer.
pub struct LogSink<'a> {
    out: Box<dyn Write + 'a>,
    observer: Box<Observer<'a>>,
    start: Instant,
    /// The first write error, if any: the match goes on, the caller reports it.
    pub error: Option<std::io::Error>,
}

impl<'a> LogSink<'a> {
    /// A log written to `out`, every line shown to `observer`; times from now.
    pub fn new(out: Box<dyn Write + 'a>, observer: Box<Observer<'a>>) -> LogSink<'a> {
        LogSink {
            out,
            observer,
            start: Instant::now(),
            error: None,
        }
    }

    /// Seconds since the log began, to the microsecond.
    pub fn t(&self) -> f64 {
        (self.start.elapsed().as_secs_f64() * 1e6).round() / 1e6
    }

    /// Writes one line.
    pub fn line(&mut self, v: &Value) {
        self.text(v.to_string());
    }

    /// Writes one line given as JSON text (no newline).
    fn text(&mut self, mut text: String) {
        (self.observer)(&text);
        if self.error.is_none() {
            text.push('\n');
            if let Err(e) = self.out.write_all(text.as_bytes()) {
                self.error = Some(e);
            }
        }
    }

    /// A message to or from `seat` (`dir` is `to` or `from`).
    pub fn msg(&mut self, dir: &str, seat: u8, msg: &Value) {
        self.msg_text(dir, seat, &msg.to_string());
    }

    /// A message already written as JSON text (one object, no newline): the line is
    /// `{"dir", "msg", "seat", "t"}`, keys in the order the other lines have them.
    pub fn msg_text(&mut self, dir: &str, seat: u8, msg: &str) {
        let t = Value::from(self.t());
        self.text(format!(
            "{{\"dir\":{},\"msg\":{msg},\"seat\":{seat},\"t\":{t}}}",
            Value::from(dir)
        ));
    }

    /// A line from `seat` that was not a message (kept up to [`MAX_RAW`] bytes).
    pub fn raw(&mut self, seat: u8, text: &str) {
        let mut end = text.len().min(MAX_RAW);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let mut v = json!({"t": self.t(), "dir": "from", "seat": seat, "raw": &text[..end]});
        if end < text.len() {
            v["raw_bytes"] = json!(text.len());
        }
        self.line(&v);
    }

    /// Something that happened on `seat`'s connection that is no line: `closed`,
    /// `too_long`, `not_utf8`, `silent` (its clock ran out waiting), `not_reading`.
    pub fn event(&mut self, seat: u8, event: &str) {
        let v = json!({"t": self.t(), "dir": "from", "seat": seat, "event": event});
        self.line(&v);
    }

    /// Flushes the writer.
    pub fn flush(&mut self) {
        if self.error.is_none()
            && let Err(e) = self.out.flush()
        {
            self.error = Some(e);
        }
    }
}
