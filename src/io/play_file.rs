//! The JSON of games between strategies (`docs/play.md`): the game log, the summary of
//! many games and the noise file of `crokinole play --noise FILE`.

use crate::error::InputError;
use crate::io::format::{Style, to_json};
use crate::io::situation::{NoiseJson, from_json};
use crate::io::strict::Obj;
use crate::montecarlo::Noise;
use crate::play::{GameLog, GamesSummary};

/// The game log as printed by `crokinole play --games 1`: the top object one key a line,
/// each seat, each shot and each round on a line of its own; a trailing newline.
/// `--compact` puts it on one line ([`crate::io::compact_json`]).
pub fn game_log_json(log: &GameLog) -> String {
    let compact = serde_json::to_string(log).expect("plain data always serializes");
    crate::io::format::outline(&compact, 0, 1)
}

/// The summary of many games as printed by `crokinole play`: the top object one key a
/// line, every other value on one line except arrays of objects, which put each object on
/// its own line; a trailing newline ([`Style::Rows`]). The bytes depend on the summary
/// only.
pub fn games_summary_json(summary: &GamesSummary) -> String {
    to_json(summary, Style::Rows)
}

/// Parses a noise file's text (`crokinole play --noise FILE`): a JSON object with any of
/// `offset`, `aim`, `speed`, `spin`, missing keys 0; read exactly as the `noise` block of
/// a study or suggest file (unknown keys, `null` and a non-object refused). Errors name
/// the field `noise` or `noise.KEY`, with the line and column of JSON errors.
pub fn parse_noise_json(text: &str) -> Result<Noise, InputError> {
    let Obj(n): Obj<NoiseJson> = from_json(text).map_err(|e| InputError {
        field: match e.field.as_str() {
            "file" => "noise".to_string(),
            key => format!("noise.{key}"),
        },
        ..e
    })?;
    Ok(n.noise())
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
