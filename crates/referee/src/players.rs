//! Getting the players to the table: programs started with their standard error in a file
//! ([`start_players`]), TCP players accepted by their join token ([`accept_players`]), and
//! the tokens themselves ([`join_tokens`]).

use crate::config::{MatchConfig, PlayerSpec};
use crate::run::{MatchError, Player};
use crate::transport::{Conn, Incoming};
use crokinole_core::cancel::Cancel;
use crokinole_io::match_protocol::{PlayerMsg, parse_player_msg};
use crokinole_montecarlo::noise::mix;
use std::fs::File;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// Time a connection has to send its `join`.
pub const JOIN_TIMEOUT: Duration = Duration::from_secs(10);

/// Where seat `seat`'s standard error goes beside the log `log`: `LOG.seatN.stderr`.
pub fn stderr_path(log: &Path, seat: u8) -> PathBuf {
    let mut name = log.as_os_str().to_owned();
    name.push(format!(".seat{seat}.stderr"));
    PathBuf::from(name)
}

/// Starts the players of `config` that are programs (standard error beside `log`, if
/// given) and readies the built-ins; a TCP seat must come from [`accept_players`]
/// (`remote`, taken in seat order). Started children are killed if a later one fails.
pub fn start_players(
    config: &MatchConfig,
    log: Option<&Path>,
    mut remote: Vec<(u8, Conn)>,
) -> Result<Vec<Player>, MatchError> {
    let mut players = Vec::new();
    for (&seat, s) in config.seat_numbers().iter().zip(&config.seats) {
        let player = match &s.player {
            PlayerSpec::Builtin { strategy, .. } => Player::Builtin(*strategy),
            PlayerSpec::Program(cmd) => {
                let stderr = match log {
                    Some(log) => {
                        let path = stderr_path(log, seat);
                        Some(File::create(&path).map_err(|e| {
                            MatchError::Io(format!("cannot create {}: {e}", path.display()))
                        })?)
                    }
                    None => None,
                };
                Player::Conn(Conn::spawn(cmd, stderr).map_err(|e| {
                    MatchError::Io(format!("seat {seat}: cannot start `{cmd}`: {e}"))
                })?)
            }
            PlayerSpec::Remote { .. } => {
                let k = remote.iter().position(|(s, _)| *s == seat).ok_or_else(|| {
                    MatchError::Io(format!("seat {seat}: no TCP player connected"))
                })?;
                Player::Conn(remote.swap_remove(k).1)
            }
        };
        players.push(player);
    }
    Ok(players)
}

/// One join token per seat of `config` that has none, drawn from `salt` (hex, 16
/// digits); a seat given as [`PlayerSpec::Remote`] keeps its own.
pub fn join_tokens(config: &mut MatchConfig, salt: u64) {
    let seats: Vec<u8> = config.seat_numbers().to_vec();
    for (k, seat) in seats.into_iter().enumerate() {
        if let PlayerSpec::Remote { token } = &mut config.seats[k].player
            && token.is_empty()
        {
            *token = format!("{:016x}", mix(salt, u64::from(seat)));
        }
    }
}

/// Accepts a TCP player for each [`PlayerSpec::Remote`] seat of `config`: a connection's
/// first line must be `{"type": "join", "token": T}` within [`JOIN_TIMEOUT`], `T` the
/// token of a seat not yet taken; anything else closes that connection. Waits until every
/// such seat is taken, `timeout` passes or `cancel` is cancelled.
pub fn accept_players(
    config: &MatchConfig,
    listener: &TcpListener,
    timeout: Duration,
    cancel: &Cancel,
) -> Result<Vec<(u8, Conn)>, MatchError> {
    let mut wanted: Vec<(u8, String)> = config
        .seat_numbers()
        .iter()
        .zip(&config.seats)
        .filter_map(|(&seat, s)| match &s.player {
            PlayerSpec::Remote { token } => Some((seat, token.clone())),
            _ => None,
        })
        .collect();
    listener
        .set_nonblocking(true)
        .map_err(|e| MatchError::Io(format!("cannot listen: {e}")))?;
    let (tx, rx) = mpsc::channel::<(String, Conn)>();
    let end = Instant::now() + timeout;
    let mut joined = Vec::new();
    while !wanted.is_empty() {
        if cancel.is_cancelled() {
            return Err(MatchError::Stopped);
        }
        if Instant::now() >= end {
            let seats: Vec<String> = wanted.iter().map(|(s, _)| s.to_string()).collect();
            return Err(MatchError::Io(format!(
                "no player joined seat(s) {} in time",
                seats.join(", ")
            )));
        }
        match listener.accept() {
            Ok((stream, _)) => {
                let tx = tx.clone();
                let _ = stream.set_nonblocking(false);
                thread::spawn(move || {
                    let Ok(conn) = Conn::tcp(stream) else { return };
                    if let Some(Incoming::Line(text)) = conn.recv(Instant::now() + JOIN_TIMEOUT)
                        && let Ok(PlayerMsg::Join { token }) = parse_player_msg(&text)
                    {
                        let _ = tx.send((token, conn));
                    }
                    // Anything else: `conn` dropped, the connection closed.
                });
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(MatchError::Io(format!("cannot accept: {e}"))),
        }
        match rx.recv_timeout(Duration::from_millis(20)) {
            Ok((token, conn)) => {
                if let Some(k) = wanted.iter().position(|(_, t)| *t == token) {
                    joined.push((wanted.remove(k).0, conn));
                }
                // A wrong or used token: `conn` dropped, closed.
            }
            Err(_) => continue,
        }
    }
    Ok(joined)
}

/// A whole match in one call, the entry point of every front end: starts the programs of
/// `config` (standard error beside `log_path`, if given), takes the TCP players already
/// accepted (`remote`), referees the game writing the log to `log` and showing each line
/// to `observer` (the page watching a match), and ends every player.
pub fn play_match<'a>(
    config: &'a MatchConfig,
    remote: Vec<(u8, Conn)>,
    log: Box<dyn std::io::Write + 'a>,
    log_path: Option<&Path>,
    observer: Box<crate::log::Observer<'a>>,
    cancel: &'a Cancel,
) -> Result<crate::run::MatchOutcome, MatchError> {
    config.check().map_err(MatchError::Input)?;
    let players = start_players(config, log_path, remote)?;
    let mut sink = crate::log::LogSink::new(log, observer);
    crate::run::run_match(config, players, &mut sink, cancel)
}
