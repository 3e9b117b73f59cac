//! A match the page starts and watches ([`watch_match`], `POST /api/match/watch`):
//! built-in strategies only (a browser's request may never start a program or open a
//! seat to the network), read from a small JSON request ([`parse_watch`]), refereed up to
//! a number of shots. Built-ins and the seed make the match deterministic, so the page
//! asks for the match up to one shot more each time and the server plays it again from
//! the start, taking the flicks it decided last time from [`Watched::flicks`] (kept by the
//! server, never taken from the page) so that only the new shot is decided.

use crate::config::{MAX_CLOCK_S, MatchConfig, PlayerSpec, SeatConfig};
use crate::log::LogSink;
use crate::players::start_players;
use crate::run::{MatchError, resume_match};
use crokinole_core::board::Board;
use crokinole_core::cancel::Cancel;
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_io::match_protocol::Clock;
use crokinole_io::match_protocol::{PlayerMsg, parse_player_msg};
use crokinole_montecarlo::PlayerFlick;
use crokinole_montecarlo::{Noise, SkillLevel};
use crokinole_rules::{Ruleset, seats_in_play};
use serde_json::{Map, Value};
use std::cell::RefCell;

/// Most rounds a watched match may be given (`max_rounds`).
pub const MAX_WATCH_ROUNDS: u32 = 10;
/// Rounds of a watched match when the request gives none.
pub const DEFAULT_WATCH_ROUNDS: u32 = 4;

/// Reads a watch request: `{"players": 2|4, "ruleset", "seats": [{"player":
/// "builtin:NAME", "skill": LEVEL} or {"player", "noise": {offset, aim, speed, spin}}],
/// "seed", "max_rounds"}`. Only `builtin:` players; errors name the field.
pub fn parse_watch(text: &str) -> Result<MatchConfig, InputError> {
    let v: Value = serde_json::from_str(text)
        .map_err(|e| InputError::new("body", format!("not JSON: {e}")))?;
    let obj = v
        .as_object()
        .ok_or_else(|| InputError::new("body", "expected a JSON object"))?;
    const KEYS: [&str; 5] = ["players", "ruleset", "seats", "seed", "max_rounds"];
    if let Some(k) = obj.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(InputError::new(
            k.as_str(),
            format!("not a key of a watch request ({})", KEYS.join(", ")),
        ));
    }
    let players = match obj.get("players") {
        None => 2,
        Some(p) => p
            .as_u64()
            .filter(|&p| p == 2 || p == 4)
            .ok_or_else(|| InputError::new("players", format!("expected 2 or 4, got {p}")))?
            as u8,
    };
    let ruleset: Ruleset = match obj.get("ruleset") {
        None => Ruleset::Tournament,
        Some(r) => r
            .as_str()
            .ok_or_else(|| InputError::new("ruleset", "expected a string"))?
            .parse()
            .map_err(|e: String| InputError::new("ruleset", e))?,
    };
    let seed = match obj.get("seed") {
        None => 0,
        Some(s) => s
            .as_u64()
            .ok_or_else(|| InputError::new("seed", format!("expected a whole number, got {s}")))?,
    };
    let max_rounds = match obj.get("max_rounds") {
        None => DEFAULT_WATCH_ROUNDS,
        Some(m) => m
            .as_u64()
            .filter(|&m| (1..=u64::from(MAX_WATCH_ROUNDS)).contains(&m))
            .ok_or_else(|| {
                InputError::new(
                    "max_rounds",
                    format!("expected a whole number in 1..={MAX_WATCH_ROUNDS}, got {m}"),
                )
            })? as u32,
    };
    let given = obj
        .get("seats")
        .and_then(Value::as_array)
        .ok_or_else(|| InputError::new("seats", "expected a list of seats"))?;
    let n = seats_in_play(players).len();
    if given.len() != n {
        return Err(InputError::new(
            "seats",
            format!("{players} players need {n} seats, got {}", given.len()),
        ));
    }
    let seats = given
        .iter()
        .enumerate()
        .map(|(k, s)| read_seat(k, s))
        .collect::<Result<Vec<_>, _>>()?;
    let config = MatchConfig {
        board: Board::tournament(),
        physics: Physics::default(),
        players,
        ruleset,
        seats,
        // The time budget bounds a watched match; a clock would make it depend on the
        // machine's speed, and the page replays it from the seed.
        clock: Clock {
            total_s: MAX_CLOCK_S,
            per_shot_s: MAX_CLOCK_S,
        },
        seed,
        max_rounds,
        game_id: format!("watch-{seed}"),
        ready_timeout_s: 10.0,
    };
    config.check()?;
    Ok(config)
}

/// One seat of a watch request: a built-in player and its noise.
fn read_seat(k: usize, s: &Value) -> Result<SeatConfig, InputError> {
    let field = |name: &str| format!("seats[{k}].{name}");
    let s = s
        .as_object()
        .ok_or_else(|| InputError::new(format!("seats[{k}]"), "expected an object"))?;
    if let Some(key) = s
        .keys()
        .find(|key| !["player", "skill", "noise"].contains(&key.as_str()))
    {
        return Err(InputError::new(
            field(key),
            "not a key of a seat (player, skill, noise)",
        ));
    }
    let noise = read_noise(s, &field)?;
    let text = s
        .get("player")
        .and_then(Value::as_str)
        .ok_or_else(|| InputError::new(field("player"), "expected `builtin:NAME`"))?;
    if !text.starts_with("builtin:") {
        return Err(InputError::new(
            field("player"),
            format!(
                "`{text}`: only built-in strategies (`builtin:NAME`) can play a match started \
                 from the page; programs and network players cannot"
            ),
        ));
    }
    let player = PlayerSpec::parse(text, noise).map_err(|e| InputError::new(field("player"), e))?;
    Ok(SeatConfig { player, noise })
}

/// A seat's noise: `skill` (a level's name) or `noise` (widths), not both; none is none.
fn read_noise(s: &Map<String, Value>, field: &dyn Fn(&str) -> String) -> Result<Noise, InputError> {
    match (s.get("skill"), s.get("noise")) {
        (Some(_), Some(_)) => Err(InputError::new(
            field("skill"),
            "give a skill or a noise, not both",
        )),
        (Some(level), None) => {
            let name = level.as_str().unwrap_or_default();
            SkillLevel::by_name(name).map(|l| l.noise).ok_or_else(|| {
                InputError::new(
                    field("skill"),
                    format!("expected one of {}, got {level}", SkillLevel::names()),
                )
            })
        }
        (None, Some(widths)) => {
            let w = widths
                .as_object()
                .ok_or_else(|| InputError::new(field("noise"), "expected an object"))?;
            let width = |key: &str| match w.get(key) {
                None => Ok(0.0),
                Some(x) => x.as_f64().ok_or_else(|| {
                    InputError::new(field(&format!("noise.{key}")), "expected a number")
                }),
            };
            Ok(Noise {
                offset: width("offset")?,
                aim: width("aim")?,
                speed: width("speed")?,
                spin: width("spin")?,
            })
        }
        (None, None) => Ok(Noise::NONE),
    }
}

/// A watched match up to `shots` shots.
#[derive(Clone, Debug, PartialEq)]
pub struct Watched {
    /// The log (JSON Lines): complete with `game_end` when the game ended within `shots`,
    /// else ended after shot `shots` by the seed marked `stopped`.
    pub log: String,
    /// Whether the game ended.
    pub over: bool,
    /// The flicks the built-ins played, in turn order: `decided` for the next request of
    /// the same match ([`watch_match`]).
    pub flicks: Vec<PlayerFlick>,
    /// How many of them the strategies decided in this call (the others came from
    /// `decided`).
    pub decisions: usize,
}

/// Referees the match of `config` (built-in players only) up to `shots` shots (at
/// least one) or its end, watching `cancel` (the request's budget:
/// `Err(MatchError::Stopped)`).
///
/// `decided`: the flicks an earlier call on the same `config` returned
/// ([`Watched::flicks`]), played instead of deciding them again ([`resume_match`]): the
/// same match, the page's `N`th request then deciding one flick instead of `N`. Give
/// only flicks this function returned for this `config`: others make another match (an
/// illegal one is refused, [`MatchError::Input`]).
pub fn watch_match(
    config: &MatchConfig,
    shots: usize,
    decided: Vec<PlayerFlick>,
    cancel: &Cancel,
) -> Result<Watched, MatchError> {
    if let Some(k) = config
        .seats
        .iter()
        .position(|s| !matches!(s.player, PlayerSpec::Builtin { .. }))
    {
        return Err(MatchError::Input(InputError::new(
            format!("seats[{k}].player"),
            "a watched match takes built-in strategies only",
        )));
    }
    let given = decided.len();
    let enough = cancel.child();
    let counted = RefCell::new(0usize);
    let flicks = RefCell::new(Vec::new());
    let observer = |line: &str| {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            return;
        };
        let msg = &v["msg"];
        if v["dir"] == "from"
            && msg["type"] == "flick"
            && let Ok(PlayerMsg::Flick(f)) = parse_player_msg(&msg.to_string())
        {
            flicks.borrow_mut().push(f);
        }
        if v["dir"] == "to" && msg["type"] == "shot" && msg["seat"] == v["seat"] {
            *counted.borrow_mut() += 1;
            if *counted.borrow() >= shots.max(1) {
                enough.cancel();
            }
        }
    };
    let mut out: Vec<u8> = Vec::new();
    // Built-ins only: nothing is started. `resume_match` checks `config`.
    let players = start_players(config, None, Vec::new())?;
    let result = {
        let mut sink = LogSink::new(Box::new(&mut out), Box::new(observer));
        resume_match(config, players, &mut sink, &enough, decided)
    };
    let over = match result {
        Ok(_) => true,
        Err(MatchError::Stopped) if !cancel.is_cancelled() => false,
        Err(e) => return Err(e),
    };
    let flicks = flicks.into_inner();
    Ok(Watched {
        log: String::from_utf8_lossy(&out).into_owned(),
        over,
        decisions: flicks.len().saturating_sub(given),
        flicks,
    })
}
