//! The command line's words for a run of games: the list of strategies
//! (`greedy,montecarlo:k=4`) and the players' error (`offset=0.003,aim=0.01`, `none`, a
//! skill level's name such as `competitive`, or a JSON file holding a noise object or
//! name).

use crate::strategy::AnyStrategy;
use crokinole_core::error::InputError;
use crokinole_montecarlo::{Noise, SkillLevel};

/// The default `--noise` of `crokinole play`: a steady player (the error of
/// `fixtures/montecarlo/opening.json`).
pub const DEFAULT_NOISE: &str = "offset=0.003,aim=0.01,speed=0.03,spin=0.5";

/// The default `--strategies` of `crokinole play`.
pub const DEFAULT_STRATEGIES: &str = "greedy,montecarlo";

/// Parses a comma-separated list of strategies ([`AnyStrategy::parse`]); the Monte Carlo
/// strategies get `noise` as their noise model. Errors name the field `strategies[k]`.
pub fn parse_strategies(text: &str, noise: Noise) -> Result<Vec<AnyStrategy>, InputError> {
    text.split(',')
        .enumerate()
        .map(|(k, s)| {
            AnyStrategy::parse(s, noise).map_err(|e| InputError::new(format!("strategies[{k}]"), e))
        })
        .collect()
}

/// Whether a `--noise` value is written inline (`none`, a skill level's name or
/// `KEY=VALUE,...`) rather than naming a file. A level's name is inline even if a file of
/// that name exists.
pub fn is_inline_noise(text: &str) -> bool {
    let t = text.trim();
    t == "none" || SkillLevel::by_name(t).is_some() || text.contains('=')
}

/// Parses an inline noise: `none` (no error), a skill level's name (`competitive`: its
/// widths exactly, [`SkillLevel`]) or `KEY=VALUE` pairs separated by commas, keys
/// `offset` (m), `aim` (rad), `speed` (fraction), `spin` (rad/s); a missing key is 0.
/// A word that is neither a level nor a pair is refused with the list of levels. Only
/// the form is checked here; [`Noise::check`] checks the widths.
pub fn parse_noise(text: &str) -> Result<Noise, InputError> {
    let mut noise = Noise::NONE;
    if text.trim() == "none" {
        return Ok(noise);
    }
    if !text.contains('=') {
        return Noise::level(text.trim());
    }
    for part in text.split(',') {
        let part = part.trim();
        let (key, value) = part
            .split_once('=')
            .ok_or_else(|| InputError::new("noise", format!("`{part}`: expected KEY=VALUE")))?;
        let slot = match key.trim() {
            "offset" => &mut noise.offset,
            "aim" => &mut noise.aim,
            "speed" => &mut noise.speed,
            "spin" => &mut noise.spin,
            other => {
                return Err(InputError::new(
                    "noise",
                    format!("unknown key `{other}`: expected offset, aim, speed or spin"),
                ));
            }
        };
        *slot = value.trim().parse::<f64>().map_err(|e| {
            InputError::new(
                format!("noise.{}", key.trim()),
                format!("`{}` is not a number: {e}", value.trim()),
            )
        })?;
    }
    Ok(noise)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_specs_parse() {
        // The default noise is the skill levels' reference mix, written once as text.
        assert_eq!(
            parse_noise(DEFAULT_NOISE).unwrap(),
            crokinole_montecarlo::skill::MIX
        );
        assert_eq!(parse_noise("none").unwrap(), Noise::NONE);
        assert_eq!(parse_noise("aim=0.02").unwrap().aim, 0.02);
        assert_eq!(parse_noise("wobble=1").unwrap_err().field, "noise");
        assert_eq!(parse_noise("aim=x").unwrap_err().field, "noise.aim");
        assert!(is_inline_noise("none") && !is_inline_noise("noise.json"));
    }

    #[test]
    fn skill_levels_are_inline_noises() {
        let elite = crokinole_montecarlo::SkillLevel::by_name("elite").unwrap();
        assert!(is_inline_noise("elite") && is_inline_noise(" casual "));
        assert_eq!(parse_noise("elite").unwrap(), elite.noise);
        let e = parse_noise("expert").unwrap_err();
        assert_eq!(e.field, "noise");
        assert!(
            e.problem
                .contains("world, elite, competitive, club or casual"),
            "{e}"
        );
    }

    #[test]
    fn strategy_lists_name_the_bad_entry() {
        assert_eq!(
            parse_strategies("random,greedy:k=2", Noise::NONE)
                .unwrap()
                .len(),
            2
        );
        let e = parse_strategies("random,greedy:k=0", Noise::NONE).unwrap_err();
        assert_eq!(e.field, "strategies[1]");
    }
}
