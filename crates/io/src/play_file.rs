//! The JSON of games between strategies (`docs/play.md`): the game log, the summary of
//! many games and the noise file of `crokinole play --noise FILE`.

use crate::format::{Style, to_json};
use crate::json_form::Json;
use crate::situation::{NoiseSpec, from_json};
use crate::strict::Obj;
use crokinole_core::error::InputError;
use crokinole_core::shot::{Flick, Placed};
use crokinole_montecarlo::Noise;
use crokinole_play::{GameLog, GamesSummary, LoggedGame, LoggedShot};
use crokinole_rules::Ruleset;
use serde::Deserialize;

/// The game log as printed by `crokinole play --games 1`: the top object one key a line,
/// each seat, each shot and each round on a line of its own; a trailing newline
/// (`Style::GAME_LOG`). `--compact` puts it on one line ([`crate::compact_json`]).
pub fn game_log_json(log: &GameLog) -> String {
    to_json(&Json(log), Style::GAME_LOG)
}

/// The summary of many games as printed by `crokinole play`: the top object one key a
/// line, every other value on one line except arrays of objects, which put each object on
/// its own line; a trailing newline (`Style::ROWS`). The bytes depend on the summary
/// only.
pub fn games_summary_json(summary: &GamesSummary) -> String {
    to_json(&Json(summary), Style::ROWS)
}

/// Parses a noise file's text (`crokinole play --noise FILE`): a JSON object with any of
/// `offset`, `aim`, `speed`, `spin`, missing keys 0, or a skill level's name as a JSON
/// string (`"club"`); read exactly as the `noise` block of a study or suggest file
/// (unknown keys, unknown names, `null` and anything else refused). Errors name
/// the field `noise` or `noise.KEY`, with the line and column of JSON errors.
pub fn parse_noise_json(text: &str) -> Result<Noise, InputError> {
    let n: NoiseSpec = from_json(text).map_err(|e| InputError {
        field: match e.field.as_str() {
            "file" => "noise".to_string(),
            key => format!("noise.{key}"),
        },
        ..e
    })?;
    Ok(n.noise())
}

/// The keys of a game log a replay reads; every other key of the log is ignored.
#[derive(Deserialize)]
#[serde(expecting = "a game log object")]
struct LogJson {
    players: u8,
    ruleset: String,
    shots: Vec<Obj<LogShotJson>>,
}

/// One logged shot: its seat, its start and the position after it.
#[derive(Deserialize)]
struct LogShotJson {
    seat: u8,
    start: Obj<StartJson>,
    verdict: Obj<VerdictJson>,
    #[serde(default)]
    round_end: bool,
    // Not needed for a replay, but shown by the page (`crokinole serve`): checked for
    // their types, so no text in their place reaches it.
    #[serde(default, rename = "round")]
    _round: Option<u64>,
    #[serde(default, rename = "team")]
    _team: Option<u8>,
    #[serde(default, rename = "round_totals")]
    _round_totals: Option<[i64; 2]>,
    #[serde(default, rename = "score")]
    _score: Option<[i64; 2]>,
}

/// A logged shot's `start` (a shot file's `shooter`).
#[derive(Deserialize)]
struct StartJson {
    team: u8,
    pos: [f64; 2],
    vel: [f64; 2],
    spin: f64,
}

/// The part of a logged verdict a replay needs.
#[derive(Deserialize)]
struct VerdictJson {
    position: Vec<Obj<PlacedJson>>,
}

/// A disc of a verdict's `position`.
#[derive(Deserialize)]
struct PlacedJson {
    team: u8,
    pos: [f64; 2],
}

/// Parses a game log's text (`crokinole play --games 1`, docs/play.md) into what a replay
/// needs ([`LoggedGame`]): `players`, `ruleset` and, per shot, `seat`, `start`,
/// `verdict.position` and `round_end`; `round`, `team`, `round_totals` and `score`, when
/// present, must be a whole number, a team and pairs of whole numbers; other keys are not
/// read. Errors name the field as
/// in the log (`shots[3].start.pos`), with the line and column of JSON errors. The
/// positions are not checked against the board here: the shots they make are
/// ([`LoggedGame::shot_entries`], then the engine's checks).
pub fn parse_game_log(text: &str) -> Result<LoggedGame, InputError> {
    let Obj(log): Obj<LogJson> = from_json(text)?;
    if log.players != 2 && log.players != 4 {
        return Err(InputError::new(
            "players",
            format!("expected 2 or 4, got {}", log.players),
        ));
    }
    let ruleset: Ruleset = log
        .ruleset
        .parse()
        .map_err(|e| InputError::new("ruleset", e))?;
    let team = |field: String, team: u8| {
        if team < 2 {
            Ok(team)
        } else {
            Err(InputError::new(
                field,
                format!("expected 0 or 1, got {team}"),
            ))
        }
    };
    let mut shots = Vec::with_capacity(log.shots.len());
    for (k, Obj(s)) in log.shots.into_iter().enumerate() {
        if s.seat > 3 {
            return Err(InputError::new(
                format!("shots[{k}].seat"),
                format!("expected a seat 0-3, got {}", s.seat),
            ));
        }
        let Obj(start) = s.start;
        let mut after = Vec::with_capacity(s.verdict.0.position.len());
        for (j, Obj(d)) in s.verdict.0.position.into_iter().enumerate() {
            after.push(Placed {
                team: team(format!("shots[{k}].verdict.position[{j}].team"), d.team)?,
                pos: d.pos.into(),
            });
        }
        shots.push(LoggedShot {
            seat: s.seat,
            start: Flick {
                team: team(format!("shots[{k}].start.team"), start.team)?,
                pos: start.pos.into(),
                vel: start.vel.into(),
                spin: start.spin,
            },
            after,
            round_end: s.round_end,
        });
    }
    Ok(LoggedGame {
        players: log.players,
        ruleset,
        shots,
    })
}

/// The answer of a replay: `{"players", "ruleset", "shots": [...]}` with each of `files`
/// (shot files as [`crate::shot_file_json`] writes them) in its compact form, all on
/// one line, and a newline.
pub fn replay_json(players: u8, ruleset: Ruleset, files: &[String]) -> String {
    let mut out = format!(
        "{{\"players\":{players},\"ruleset\":\"{}\",\"shots\":[",
        ruleset.name()
    );
    for (k, file) in files.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        out.push_str(crate::compact_json(file).trim_end());
    }
    out.push_str("]}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_noise_file_is_read_like_a_study_files_noise_block() {
        assert_eq!(parse_noise_json(r#"{"speed": 0.1}"#).unwrap().speed, 0.1);
        assert_eq!(parse_noise_json("{}").unwrap(), Noise::NONE);
        assert_eq!(
            parse_noise_json(r#"{"sped": 0.1}"#).unwrap_err().field,
            "noise.sped"
        );
        assert_eq!(
            parse_noise_json(r#"{"speed": null}"#).unwrap_err().field,
            "noise.speed"
        );
        // An array is refused here as in a study file (serde alone would take it).
        assert_eq!(
            parse_noise_json("[0, 0.01, 0, 0]").unwrap_err().field,
            "noise"
        );
    }
}
