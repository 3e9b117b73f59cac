//! Named skill levels: a player's error ([`Noise`]) calibrated to the open-20 rates real
//! players make (docs/skill.md).
//!
//! **The open-20 rate** of a noise is the probability that the best straight open 20 goes
//! in under it: seat 0 of an empty two-player tournament board with the default physics,
//! offset 0, aim 0, spin 0, at the speed that maximises that probability. It is what the
//! published competitive figures count (a 20 shot at an empty board, made or missed).
//!
//! **The shape**: a rate does not say how a player's error splits between placement, aim,
//! speed and spin, so every level has the same split, the reference [`MIX`] (the widths of
//! the engine's steady player, `play::DEFAULT_NOISE`), times one scale: a level's widths
//! are `scale * MIX`. The scale is a multiple of 1/1000 ([`SkillLevel::milli`]), so the
//! widths are short decimals and a noise typed with them is the level bit for bit
//! ([`SkillLevel::of_noise`]).
//!
//! The constants of [`LEVELS`] (scale, best speed, the measured count) come from
//! `examples/calibrate_skills.rs`, which prints this table: for each level, a bisection on
//! the scale for the target rate, the best speed sought on a grid with common random
//! numbers inside, then a measurement at [`CALIBRATION_SAMPLES`] samples with seed
//! [`CALIBRATION_SEED`] on a fine speed grid ([`open20`](super::open20) measures a
//! rate). The tests (`tests/suite/skills.rs`) measure every level again with another seed.

use super::noise::Noise;
use super::tally::Proportion;
use crokinole_core::error::InputError;

/// The reference mix: a level's widths are its scale times these (offset 3 mm, aim
/// 10 mrad, speed 3 %, spin 0.5 rad/s, the widths of `play::DEFAULT_NOISE`).
pub const MIX: Noise = Noise {
    offset: 0.003,
    aim: 0.01,
    speed: 0.03,
    spin: 0.5,
};

/// The seed of the measurements stored in [`LEVELS`].
pub const CALIBRATION_SEED: u64 = 2023;

/// The samples of each measurement stored in [`LEVELS`].
pub const CALIBRATION_SAMPLES: u64 = 100_000;

/// One named skill level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SkillLevel {
    /// Its name, as a `noise` value takes it (`"competitive"`).
    pub name: &'static str,
    /// The open-20 rate it is calibrated to, a probability.
    pub target: f64,
    /// Where the target comes from.
    pub source: &'static str,
    /// The scale in thousandths: the widths are `milli / 1000 * MIX`.
    pub milli: u32,
    /// The widths: [`MIX`] times the scale, as short decimals.
    pub noise: Noise,
    /// The speed of the open 20 that maximises its rate under this noise, m/s (on the
    /// calibration's grid, 5 mm/s apart).
    pub best_speed: f64,
    /// 20s made in [`CALIBRATION_SAMPLES`] open 20s at `best_speed`, seed
    /// [`CALIBRATION_SEED`].
    pub made: u64,
}

/// The named levels, best first: the output of `examples/calibrate_skills.rs` (seed
/// [`CALIBRATION_SEED`], [`CALIBRATION_SAMPLES`] samples a measurement). The measured
/// rates are 75.639 %, 66.033 %, 54.978 %, 45.004 % and 35.006 %, each within 0.04
/// percentage point of its target (95 % intervals +-0.27 to +-0.31 points).
pub const LEVELS: [SkillLevel; 5] = [
    SkillLevel {
        name: "world",
        target: 0.756,
        source: "NCA 2023-24 season, compiled by The Pudding: the best player's open 20s (75.6 % of 594)",
        milli: 928,
        noise: Noise {
            offset: 0.002784,
            aim: 0.00928,
            speed: 0.02784,
            spin: 0.464,
        },
        best_speed: 0.873,
        made: 75639,
    },
    SkillLevel {
        name: "elite",
        target: 0.66,
        source: "NCA 2023-24 season, compiled by The Pudding: the next two players (66.0 % of 703, 65.9 % of 619)",
        milli: 1080,
        noise: Noise {
            offset: 0.00324,
            aim: 0.0108,
            speed: 0.0324,
            spin: 0.54,
        },
        best_speed: 0.876,
        made: 66033,
    },
    SkillLevel {
        name: "competitive",
        target: 0.55,
        source: "NCA 2023-24 season, compiled by The Pudding: an average competitive player (55 %)",
        milli: 1280,
        noise: Noise {
            offset: 0.00384,
            aim: 0.0128,
            speed: 0.0384,
            spin: 0.64,
        },
        best_speed: 0.876,
        made: 54978,
    },
    SkillLevel {
        name: "club",
        target: 0.45,
        source: "The Pudding's crokinole piece: recreational players make 20-50 %; its tier of 45 %",
        milli: 1511,
        noise: Noise {
            offset: 0.004533,
            aim: 0.01511,
            speed: 0.04533,
            spin: 0.7555,
        },
        best_speed: 0.881,
        made: 45004,
    },
    SkillLevel {
        name: "casual",
        target: 0.35,
        source: "The Pudding's crokinole piece: recreational players make 20-50 %; its tier of 35 %",
        milli: 1821,
        noise: Noise {
            offset: 0.005463,
            aim: 0.01821,
            speed: 0.05463,
            spin: 0.9105,
        },
        best_speed: 0.886,
        made: 35006,
    },
];

impl SkillLevel {
    /// The level called `name`, if any.
    pub fn by_name(name: &str) -> Option<&'static SkillLevel> {
        LEVELS.iter().find(|l| l.name == name)
    }

    /// The level whose widths `noise` has, bit for bit, if any: a noise given by a level's
    /// name, or typed with its four widths, is that level.
    pub fn of_noise(noise: &Noise) -> Option<&'static SkillLevel> {
        let bits = |n: &Noise| {
            [
                n.offset.to_bits(),
                n.aim.to_bits(),
                n.speed.to_bits(),
                n.spin.to_bits(),
            ]
        };
        LEVELS.iter().find(|l| bits(&l.noise) == bits(noise))
    }

    /// The names, for messages: `world, elite, competitive, club or casual`.
    pub fn names() -> String {
        let names: Vec<&str> = LEVELS.iter().map(|l| l.name).collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => names.join(""),
        }
    }

    /// The scale, `milli / 1000`.
    pub fn scale(&self) -> f64 {
        f64::from(self.milli) / 1000.0
    }

    /// The stored measurement: `made` of [`CALIBRATION_SAMPLES`], with its 95 % interval.
    pub fn measured(&self) -> Proportion {
        Proportion::new(self.made, CALIBRATION_SAMPLES)
    }
}

impl Noise {
    /// The widths of the skill level `name` ([`LEVELS`]); an unknown name is refused
    /// (field `noise`) with the list of names.
    pub fn level(name: &str) -> Result<Noise, InputError> {
        SkillLevel::by_name(name)
            .map(|l| l.noise)
            .ok_or_else(|| InputError::new("noise", unknown_level(name)))
    }
}

/// The problem of an unknown level name.
pub fn unknown_level(name: &str) -> String {
    format!(
        "unknown skill level `{name}`: expected {} (docs/skill.md), or the widths",
        SkillLevel::names()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_found_and_listed() {
        assert_eq!(SkillLevel::by_name("competitive").unwrap().target, 0.55);
        assert!(SkillLevel::by_name("Competitive").is_none());
        assert_eq!(
            SkillLevel::names(),
            "world, elite, competitive, club or casual"
        );
        let e = Noise::level("pro").unwrap_err();
        assert_eq!(e.field, "noise");
        assert!(
            e.problem.contains("`pro`") && e.problem.contains("club"),
            "{e}"
        );
    }
}
