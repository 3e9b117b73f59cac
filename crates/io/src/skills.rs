//! The table of named skill levels as JSON: what `crokinole params --skills` prints, the
//! server's and the Python package's `skills` (docs/skill.md).

use crate::format::{Style, to_json};
use crokinole_montecarlo::Noise;
use crokinole_montecarlo::skill::{CALIBRATION_SAMPLES, CALIBRATION_SEED, LEVELS, MIX};
use crokinole_montecarlo::tally::Proportion;
use serde::Serialize;

/// What the open-20 rate is, in the table's own words.
pub const OPEN20_DEFINITION: &str = "P(20) of the straight open 20 (seat 0 of an empty \
     two-player tournament board, default physics, offset 0, aim 0, spin 0) at the speed \
     that maximises it";

#[derive(Serialize)]
struct WidthsOut {
    offset: f64,
    aim: f64,
    speed: f64,
    spin: f64,
}

impl From<Noise> for WidthsOut {
    fn from(n: Noise) -> WidthsOut {
        WidthsOut {
            offset: n.offset,
            aim: n.aim,
            speed: n.speed,
            spin: n.spin,
        }
    }
}

#[derive(Serialize)]
struct LevelOut {
    name: &'static str,
    target: f64,
    scale: f64,
    noise: WidthsOut,
    best_speed: f64,
    #[serde(with = "crate::json_form::json")]
    open20: Proportion,
    source: &'static str,
}

#[derive(Serialize)]
struct SkillsOut {
    open20: &'static str,
    mix: WidthsOut,
    seed: u64,
    samples: u64,
    levels: Vec<LevelOut>,
}

/// The skill levels' table: the definition of the open-20 rate, the reference mix, the
/// seed and sample count of the measurements, then one level a line (name, target rate,
/// scale, widths, best speed, the measured rate with its 95 % interval, the source).
/// A trailing newline.
pub fn skills_json() -> String {
    let out = SkillsOut {
        open20: OPEN20_DEFINITION,
        mix: MIX.into(),
        seed: CALIBRATION_SEED,
        samples: CALIBRATION_SAMPLES,
        levels: LEVELS
            .iter()
            .map(|l| LevelOut {
                name: l.name,
                target: l.target,
                scale: l.scale(),
                noise: l.noise.into(),
                best_speed: l.best_speed,
                open20: l.measured(),
                source: l.source,
            })
            .collect(),
    };
    to_json(&out, Style::ROWS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_one_line_per_level() {
        let text = skills_json();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["levels"].as_array().unwrap().len(), LEVELS.len());
        for l in &LEVELS {
            assert_eq!(
                text.lines()
                    .filter(|line| line.contains(&format!("\"name\": \"{}\"", l.name)))
                    .count(),
                1,
                "{text}"
            );
        }
        assert_eq!(v["samples"], CALIBRATION_SAMPLES);
    }
}
