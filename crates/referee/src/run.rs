//! A match refereed from start to end ([`run_match`]): `hello` and `ready`, then each turn
//! with the shooter's clock, the flick checked (one more try after a bad one), played with
//! the seat's noise and broadcast, rounds and the end, every message logged; a player that
//! hangs, floods, writes garbage, exits or disconnects forfeits and never stalls it.
//! [`resume_match`] plays the same match again taking its built-ins' first flicks from an
//! earlier run instead of deciding them (the page watching a match asks for it again one
//! shot longer each time).

use crate::config::MatchConfig;
use crate::log::{LogSink, seed_line};
use crate::table::{End, Table};
use crate::transport::{Conn, Incoming, SendError};
use crokinole_core::cancel::Cancel;
use crokinole_core::error::InputError;
use crokinole_io::match_protocol::{PlayerMsg, error_msg, parse_player_msg};
use crokinole_play::{AnyStrategy, PlayError};
use serde_json::{Value, json};
use std::fmt;
use std::time::{Duration, Instant};

/// How long a finished player's program has to exit before it is killed.
pub const EXIT_GRACE: Duration = Duration::from_millis(500);

/// Who sits at a seat during a match.
pub enum Player {
    /// A program or a TCP connection.
    Conn(Conn),
    /// A built-in strategy, played in-process.
    Builtin(AnyStrategy),
}

/// How a match ended.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchOutcome {
    /// Game totals per team.
    pub scores: [u32; 2],
    /// Winning team; `None` for a draw or a game stopped at its round cap undecided.
    pub winner: Option<u8>,
    /// Why it ended.
    pub end: End,
    /// Each seat in play with its player's name (`ready.name`), in seat order.
    pub names: Vec<(u8, String)>,
    /// Shots played (forfeited ones included).
    pub shots: usize,
    /// The match seed.
    pub seed: u64,
    /// Every finished round, in order (its 20s, totals and first seat: a match record's
    /// rounds, `crokinole tournament --cmn`).
    pub rounds: Vec<crokinole_rules::RoundRecord>,
}

/// Why a match could not be refereed to its end.
#[derive(Debug)]
pub enum MatchError {
    /// A bad configuration.
    Input(InputError),
    /// A player could not be started or connected, or the log not written.
    Io(String),
    /// The engine refused a shot (never for a checked flick).
    Play(PlayError),
    /// Stopped by a [`Cancel`] (Ctrl-C): the log ends with the seed, marked stopped.
    Stopped,
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Input(e) => write!(f, "{e}"),
            MatchError::Io(e) => write!(f, "{e}"),
            MatchError::Play(e) => write!(f, "{e}"),
            MatchError::Stopped => write!(f, "the match was stopped"),
        }
    }
}

impl std::error::Error for MatchError {}

/// What came of waiting for a seat's answer to its turn.
enum Answer {
    /// A legal flick.
    Flick(crokinole_montecarlo::PlayerFlick),
    /// The shot is forfeited (why).
    ForfeitShot(&'static str),
    /// The game is forfeited (why).
    ForfeitGame(String),
}

/// The referee of one match.
struct Referee<'l, 'a> {
    config: &'a MatchConfig,
    table: Table,
    players: Vec<(u8, Player)>,
    clocks: [f64; 4],
    names: Vec<(u8, String)>,
    log: &'l mut LogSink<'a>,
    cancel: &'a Cancel,
    /// Flicks the built-in seats play in turn order before they decide any (a match
    /// resumed from an earlier run: [`resume_match`]).
    decided: std::collections::VecDeque<crokinole_montecarlo::PlayerFlick>,
    /// How many of `decided` were played.
    taken: usize,
}

/// Referees the match of `config` between `players` (one per seat in play, in seat order),
/// writing every message to `log`. Checks `config` first. A player that misbehaves loses
/// by forfeit; Ctrl-C (`cancel`) stops the match ([`MatchError::Stopped`], the log ended
/// by the revealed seed marked `stopped`). The players' connections are closed (children
/// killed and reaped) on every path.
pub fn run_match<'a>(
    config: &'a MatchConfig,
    players: Vec<Player>,
    log: &mut LogSink<'a>,
    cancel: &'a Cancel,
) -> Result<MatchOutcome, MatchError> {
    resume_match(config, players, log, cancel, Vec::new())
}

/// [`run_match`], the built-in seats' first turns played with `decided` (in turn order)
/// instead of the flicks their strategies would choose: the flicks they chose in an earlier
/// run of the same match, which they would choose again (a built-in's decision is a pure
/// function of the position and the seed's draw for its turn), so the match is the same
/// while its costly part, the deciding, is skipped. Once `decided` is used up the
/// strategies decide. Each flick is checked as a program's is: an illegal one is an
/// [`MatchError::Input`] naming it (`decided[k]`), before anything of its turn is played.
pub fn resume_match<'a>(
    config: &'a MatchConfig,
    players: Vec<Player>,
    log: &mut LogSink<'a>,
    cancel: &'a Cancel,
    decided: Vec<crokinole_montecarlo::PlayerFlick>,
) -> Result<MatchOutcome, MatchError> {
    config.check().map_err(MatchError::Input)?;
    let table = Table::new(config).map_err(MatchError::Input)?;
    if players.len() != config.seats.len() {
        return Err(MatchError::Input(InputError::new(
            "players",
            format!(
                "expected {} players, got {}",
                config.seats.len(),
                players.len()
            ),
        )));
    }
    log.line(&crate::log::config_line(config));
    let mut referee = Referee {
        config,
        table,
        players: config.seat_numbers().iter().copied().zip(players).collect(),
        clocks: [config.clock.total_s; 4],
        names: Vec::new(),
        log,
        cancel,
        decided: decided.into(),
        taken: 0,
    };
    let result = referee.run();
    let stopped = matches!(result, Err(MatchError::Stopped));
    if stopped {
        referee.broadcast(&error_msg("the referee stopped the match", true));
    }
    let Referee {
        players,
        log,
        names,
        table,
        ..
    } = referee;
    log.line(&seed_line(config.seed, stopped));
    log.flush();
    for (_, p) in players {
        if let Player::Conn(c) = p {
            c.close(EXIT_GRACE);
        }
    }
    let end = result?;
    if let Some(e) = log.error.take() {
        return Err(MatchError::Io(format!("cannot write the log: {e}")));
    }
    Ok(MatchOutcome {
        scores: table.scores(),
        winner: table.winner(&end),
        end,
        names,
        shots: table.shots().len(),
        seed: config.seed,
        rounds: table.rounds().to_vec(),
    })
}

impl Referee<'_, '_> {
    /// The whole game; the end, after `game_end` was sent.
    fn run(&mut self) -> Result<End, MatchError> {
        let end = match self.greet()? {
            Some(end) => end,
            None => self.play()?,
        };
        let msg = self.table.game_end(&end, self.config.seed);
        self.broadcast(&msg);
        Ok(end)
    }

    /// Sends `msg` to `seat` and logs it; a player that cannot take it is noted.
    fn send(&mut self, seat: u8, msg: &Value) -> Result<(), SendError> {
        self.send_text(seat, msg.to_string())
    }

    /// Sends a message already written as JSON (no newline) to `seat` and logs it.
    fn send_text(&mut self, seat: u8, text: String) -> Result<(), SendError> {
        self.log.msg_text("to", seat, &text);
        let k = self.index(seat);
        match &self.players[k].1 {
            Player::Conn(c) => {
                let mut line = text;
                line.push('\n');
                c.send(line)
            }
            Player::Builtin(_) => Ok(()),
        }
    }

    /// Sends `msg` to every seat (written as JSON once); the first seat that could not
    /// take it, with why.
    fn broadcast(&mut self, msg: &Value) -> Option<(u8, SendError)> {
        let seats: Vec<u8> = self.players.iter().map(|p| p.0).collect();
        let text = msg.to_string();
        let mut failed = None;
        for seat in seats {
            if let Err(e) = self.send_text(seat, text.clone())
                && failed.is_none()
            {
                failed = Some((seat, e));
            }
        }
        failed
    }

    fn index(&self, seat: u8) -> usize {
        self.players.iter().position(|p| p.0 == seat).unwrap_or(0)
    }

    /// `hello` to every seat, then each one's `ready`; the forfeit of the first that fails.
    fn greet(&mut self) -> Result<Option<End>, MatchError> {
        let seats: Vec<u8> = self.players.iter().map(|p| p.0).collect();
        for &seat in &seats {
            let hello = self.table.hello(seat);
            if self.send(seat, &hello).is_err() {
                return Ok(Some(self.forfeit(seat, "closed before hello")));
            }
        }
        let deadline = Instant::now() + Duration::from_secs_f64(self.config.ready_timeout_s);
        for &seat in &seats {
            let k = self.index(seat);
            let name = match &self.players[k].1 {
                Player::Builtin(s) => {
                    let name = format!("builtin:{}", crokinole_play::Strategy::name(s));
                    let ready = json!({"type": "ready", "name": name});
                    self.log.msg("from", seat, &ready);
                    name
                }
                Player::Conn(c) => match c.recv(deadline) {
                    None => {
                        self.log.event(seat, "silent");
                        return Ok(Some(self.forfeit(seat, "no ready in time")));
                    }
                    Some(Incoming::Line(text)) => match parse_player_msg(&text) {
                        Ok(PlayerMsg::Ready { name }) => {
                            self.log
                                .msg("from", seat, &json!({"type": "ready", "name": name}));
                            name
                        }
                        Ok(_) => {
                            self.log_line(seat, &text);
                            let e = "expected a ready message after hello";
                            return Ok(Some(self.fatal(seat, e)));
                        }
                        Err(e) => {
                            self.log_line(seat, &text);
                            return Ok(Some(self.fatal(seat, &format!("bad ready: {e}"))));
                        }
                    },
                    Some(other) => return Ok(Some(self.lost_connection(seat, &other))),
                },
            };
            self.names.push((seat, name));
        }
        Ok(None)
    }

    /// Logs a player's line: as a message if it is JSON, else as raw text.
    fn log_line(&mut self, seat: u8, text: &str) {
        match serde_json::from_str::<Value>(text) {
            Ok(v) if v.is_object() => self.log.msg("from", seat, &v),
            _ => self.log.raw(seat, text),
        }
    }

    /// A fatal `error` to `seat`, and its forfeit.
    fn fatal(&mut self, seat: u8, message: &str) -> End {
        let _ = self.send(seat, &error_msg(message, true));
        self.forfeit(seat, message)
    }

    /// The forfeit of the game by `seat`.
    fn forfeit(&self, seat: u8, why: &str) -> End {
        End::Forfeit {
            seat,
            why: why.to_string(),
        }
    }

    /// The forfeit of a seat whose connection ended (`closed`, `too_long`, `not_utf8`).
    fn lost_connection(&mut self, seat: u8, what: &Incoming) -> End {
        match what {
            Incoming::TooLong => {
                self.log.event(seat, "too_long");
                self.fatal(seat, "line: longer than 1 MiB")
            }
            Incoming::NotUtf8 => {
                self.log.event(seat, "not_utf8");
                self.fatal(seat, "line: not UTF-8")
            }
            _ => {
                self.log.event(seat, "closed");
                self.forfeit(seat, "closed its connection or exited")
            }
        }
    }

    /// The turns until the game ends.
    fn play(&mut self) -> Result<End, MatchError> {
        while let Some(seat) = self.table.to_shoot() {
            if self.cancel.is_cancelled() {
                return Err(MatchError::Stopped);
            }
            let left = self.clocks[usize::from(seat)];
            let turn = self.table.turn_msg(left).unwrap_or(Value::Null);
            let started = Instant::now();
            if let Err(e) = self.send(seat, &turn) {
                return Ok(self.send_failed(seat, e));
            }
            let answer = self.answer(seat, started, left)?;
            let used = started.elapsed().as_secs_f64();
            self.clocks[usize::from(seat)] = (left - used).max(0.0);
            let msgs = match answer {
                Answer::Flick(f) => self.table.play(f, self.cancel),
                Answer::ForfeitShot(why) => self.table.forfeit_shot(why),
                Answer::ForfeitGame(why) => return Ok(self.forfeit(seat, &why)),
            }
            .map_err(|e| match e {
                PlayError::Stopped { .. } => MatchError::Stopped,
                e => MatchError::Play(e),
            })?;
            for m in &msgs {
                if let Some((s, e)) = self.broadcast(m) {
                    return Ok(self.send_failed(s, e));
                }
            }
        }
        Ok(self.table.end().unwrap_or(End::Rounds))
    }

    /// The forfeit of a seat that could not take a message.
    fn send_failed(&mut self, seat: u8, e: SendError) -> End {
        match e {
            SendError::NotReading => {
                self.log.event(seat, "not_reading");
                self.forfeit(seat, "does not read its input")
            }
            SendError::Gone => {
                self.log.event(seat, "closed");
                self.forfeit(seat, "closed its connection or exited")
            }
        }
    }

    /// Waits for `seat`'s flick after its `turn` (sent at `started`, `left` s on its
    /// clock): one more try after a bad answer, a forfeit for a second, for the shot clock
    /// or the total clock, or a lost connection.
    fn answer(&mut self, seat: u8, started: Instant, left: f64) -> Result<Answer, MatchError> {
        let per_shot = self.config.clock.per_shot_s;
        let limit = per_shot.min(left);
        let deadline = started + Duration::from_secs_f64(limit.max(0.0));
        let k = self.index(seat);
        if let Player::Builtin(strategy) = &self.players[k].1 {
            let strategy = *strategy;
            let flick = match self.decided.pop_front() {
                Some(flick) => {
                    self.table.check_flick(&flick).map_err(|e| {
                        MatchError::Input(InputError::new(
                            format!("decided[{}]", self.taken),
                            e.to_string(),
                        ))
                    })?;
                    self.taken += 1;
                    flick
                }
                None => self
                    .table
                    .decide(&strategy, self.cancel)
                    .map_err(|e| match e {
                        PlayError::Stopped { .. } => MatchError::Stopped,
                        e => MatchError::Play(e),
                    })?,
            };
            if self.cancel.is_cancelled() {
                return Err(MatchError::Stopped);
            }
            let msg = crokinole_io::match_protocol::flick_value(&flick.into());
            let mut msg = msg;
            msg["type"] = json!("flick");
            self.log.msg("from", seat, &msg);
            return Ok(self.timed(started, left, per_shot, Answer::Flick(flick)));
        }
        let mut bad = 0;
        loop {
            if self.cancel.is_cancelled() {
                return Err(MatchError::Stopped);
            }
            // Wake up at least every 50 ms to see a Ctrl-C.
            let wake = deadline.min(Instant::now() + Duration::from_millis(50));
            let Player::Conn(conn) = &self.players[k].1 else {
                return Ok(Answer::ForfeitGame("no connection".into()));
            };
            let got = conn.recv(wake);
            let problem = match got {
                None if Instant::now() < deadline => continue,
                None => {
                    self.log.event(seat, "silent");
                    return Ok(if left <= per_shot {
                        Answer::ForfeitGame("its total clock ran out".into())
                    } else {
                        Answer::ForfeitShot("shot clock")
                    });
                }
                Some(Incoming::Line(text)) => {
                    self.log_line(seat, &text);
                    match parse_player_msg(&text) {
                        Ok(PlayerMsg::Flick(f)) => match self.table.check_flick(&f) {
                            Ok(()) => {
                                return Ok(self.timed(started, left, per_shot, Answer::Flick(f)));
                            }
                            Err(e) => format!("illegal flick: {e}"),
                        },
                        Ok(_) => "type: expected a flick after turn".to_string(),
                        // A line that is not a JSON object: the stream is garbage.
                        Err(e) if e.field == "line" => {
                            let why = format!("{e}");
                            let _ = self.send(seat, &error_msg(&why, true));
                            return Ok(Answer::ForfeitGame(why));
                        }
                        Err(e) => format!("bad message: {e}"),
                    }
                }
                Some(other) => {
                    return Ok(Answer::ForfeitGame(
                        match self.lost_connection(seat, &other) {
                            End::Forfeit { why, .. } => why,
                            _ => "lost".into(),
                        },
                    ));
                }
            };
            bad += 1;
            let _ = self.send(seat, &error_msg(&problem, false));
            if bad >= 2 {
                return Ok(Answer::ForfeitShot("bad flick"));
            }
        }
    }

    /// `answer`, unless it came after the clock ran out (a built-in's, or one that
    /// raced the deadline): then the forfeit the clock gives.
    fn timed(&mut self, started: Instant, left: f64, per_shot: f64, answer: Answer) -> Answer {
        let used = started.elapsed().as_secs_f64();
        if used >= left {
            Answer::ForfeitGame("its total clock ran out".into())
        } else if used > per_shot {
            Answer::ForfeitShot("shot clock")
        } else {
            answer
        }
    }
}
