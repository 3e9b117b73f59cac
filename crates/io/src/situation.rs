//! The part of a study file (`docs/montecarlo.md`) and a suggest file (`docs/suggest.md`)
//! that describes the situation before a shot: the `board` and `physics` blocks, the
//! `players`, the shooter's `seat`, the `discs` at rest and the player's `noise` (an
//! object of widths or the name of a skill level, [`NoiseSpec`]). Both
//! readers declare their file with [`situation_file!`], which adds these keys (and an
//! ignored `description`) to the file's own, and turn them into the model's [`Situation`]
//! with [`read_situation`]; so both files take exactly the same keys, defaults and errors for
//! them.
//!
//! Conventions are those of the shot file (`docs/shot-file.md`): unknown keys and
//! `null` refused, a structure only as an object, errors naming the field (`discs[2].pos[0]`,
//! `noise.speed`) and, for JSON errors, the line and column. The `board` and `physics`
//! blocks are read by the shot-file reader itself ([`parse_shot_file`]), laid out at their
//! place in the file, so they take exactly the keys and defaults of a shot file and their
//! errors point into the file being read.

use crate::parse_shot_file;
use crate::shot_file::DiscJson;
use crate::strict::{Obj, present};
use crokinole_core::error::InputError;
use crokinole_core::shot::Placed;
use crokinole_montecarlo::skill::unknown_level;
use crokinole_montecarlo::{Noise, Situation, SkillLevel};
use glam::DVec2;
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;

/// The noise widths.
#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a noise object {offset, aim, speed, spin}"
)]
pub(crate) struct NoiseJson {
    #[serde(default, deserialize_with = "present")]
    offset: Option<f64>,
    #[serde(default, deserialize_with = "present")]
    aim: Option<f64>,
    #[serde(default, deserialize_with = "present")]
    speed: Option<f64>,
    #[serde(default, deserialize_with = "present")]
    spin: Option<f64>,
}

impl NoiseJson {
    /// The widths, a missing key 0.
    pub(crate) fn noise(&self) -> Noise {
        Noise {
            offset: self.offset.unwrap_or(0.0),
            aim: self.aim.unwrap_or(0.0),
            speed: self.speed.unwrap_or(0.0),
            spin: self.spin.unwrap_or(0.0),
        }
    }
}

/// The `noise` key: an object of widths (every key optional, a missing one 0) or the name
/// of a skill level (`"competitive"`: its widths, [`SkillLevel`]). An unknown name is
/// refused with the list of names; anything else is refused as neither.
pub(crate) enum NoiseSpec {
    /// Widths as given.
    Widths(NoiseJson),
    /// A named level.
    Level(&'static SkillLevel),
}

impl NoiseSpec {
    /// The widths: a level's exactly as its table gives them.
    pub(crate) fn noise(&self) -> Noise {
        match self {
            NoiseSpec::Widths(n) => n.noise(),
            NoiseSpec::Level(l) => l.noise,
        }
    }
}

impl<'de> Deserialize<'de> for NoiseSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<NoiseSpec, D::Error> {
        /// Takes a string (a level's name) or a map (the widths), nothing else.
        struct SpecVisitor;
        impl<'de> Visitor<'de> for SpecVisitor {
            type Value = NoiseSpec;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                write!(
                    f,
                    "a noise object {{offset, aim, speed, spin}} or a skill level ({})",
                    SkillLevel::names()
                )
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<NoiseSpec, E> {
                SkillLevel::by_name(name)
                    .map(NoiseSpec::Level)
                    .ok_or_else(|| E::custom(unknown_level(name)))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<NoiseSpec, A::Error> {
                NoiseJson::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(NoiseSpec::Widths)
            }
        }
        d.deserialize_any(SpecVisitor)
    }
}

/// The situation's keys as read by serde, before the blocks are resolved.
pub(crate) struct SituationJson<'a> {
    pub(crate) board: Option<&'a RawValue>,
    pub(crate) physics: Option<&'a RawValue>,
    pub(crate) players: Option<u8>,
    pub(crate) seat: u8,
    pub(crate) discs: Option<Vec<Obj<DiscJson>>>,
    pub(crate) noise: Option<NoiseSpec>,
}

/// Declares the JSON struct of a file that describes a situation: the keys `description`
/// (any string, ignored), `board`, `physics`, `players`, `seat`, `discs` and `noise`, then
/// the file's own fields, unknown keys refused; and a method `situation_json(self)` that
/// splits off the situation's part ([`SituationJson`]) from the file's own fields.
macro_rules! situation_file {
    (
        $(#[$meta:meta])*
        struct $name:ident<'a> { $($(#[$fmeta:meta])* $field:ident : $ty:ty,)* }
        own $own:ident;
    ) => {
        #[derive(serde::Deserialize)]
        $(#[$meta])*
        struct $name<'a> {
            #[serde(default, deserialize_with = "crate::strict::present")]
            #[allow(dead_code)]
            description: Option<String>,
            #[serde(default, borrow, deserialize_with = "crate::strict::present")]
            board: Option<&'a serde_json::value::RawValue>,
            #[serde(default, borrow, deserialize_with = "crate::strict::present")]
            physics: Option<&'a serde_json::value::RawValue>,
            #[serde(default, deserialize_with = "crate::strict::present")]
            players: Option<u8>,
            seat: u8,
            #[serde(default, deserialize_with = "crate::strict::present")]
            discs: Option<Vec<crate::strict::Obj<crate::shot_file::DiscJson>>>,
            #[serde(default, deserialize_with = "crate::strict::present")]
            noise: Option<crate::situation::NoiseSpec>,
            $($(#[$fmeta])* $field: $ty,)*
        }

        /// The file's own fields (everything but the situation).
        struct $own {
            $($field: $ty,)*
        }

        impl<'a> $name<'a> {
            /// The situation's keys and the file's own fields, apart.
            fn situation_json(self) -> (crate::situation::SituationJson<'a>, $own) {
                (
                    crate::situation::SituationJson {
                        board: self.board,
                        physics: self.physics,
                        players: self.players,
                        seat: self.seat,
                        discs: self.discs,
                        noise: self.noise,
                    },
                    $own { $($field: self.$field,)* },
                )
            }
        }
    };
}
pub(crate) use situation_file;

/// Reads `text` as JSON into `T`, with errors naming the path of the field and the line
/// and column (`file` when the error is not inside any field). Trailing text is refused.
pub(crate) fn from_json<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T, InputError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let mut path = e.path().to_string();
        let err = e.into_inner();
        if path.contains('?') {
            // A segment the deserializer could not name: read the path off the text.
            path = crate::json_path::path_at_error(text, &err);
        }
        json_error(text, path, err)
    })?;
    de.end().map_err(|e| json_error(text, String::new(), e))?;
    Ok(value)
}

/// A `serde_json` error at `path` as an [`InputError`].
fn json_error(text: &str, path: String, err: serde_json::Error) -> InputError {
    let problem = crate::json_path::problem_of(text, &err);
    // The path ends with an unknown key's name already; `.` is the top level.
    let field = if path == "." || path.is_empty() {
        "file".to_string()
    } else {
        path
    };
    InputError::new(field, problem)
}

/// Runs the shot-file reader on the `key` block alone (`board` or `physics`), laid out so
/// that the block sits at the same line and column as in `text`: its errors then name the
/// field (`board.pegs[1]`) and the position exactly as for the file being read.
pub(crate) fn read_block(text: &str, key: &str, raw: &RawValue) -> String {
    let block = raw.get();
    let offset = (block.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
    let head = format!("{{\"{key}\":");
    let mut synth = String::with_capacity(offset + block.len() + 16);
    if let Some(before) = text.get(..offset) {
        let line = before.matches('\n').count();
        let col = offset - before.rfind('\n').map_or(0, |k| k + 1);
        if col >= head.len() {
            synth.extend(std::iter::repeat_n('\n', line));
            synth.extend(std::iter::repeat_n(' ', col - head.len()));
            synth.push_str(&head);
        } else if line >= 1 {
            synth.extend(std::iter::repeat_n('\n', line - 1));
            synth.push_str(&head);
            synth.push('\n');
            synth.extend(std::iter::repeat_n(' ', col));
        } else {
            synth.push_str(&head);
        }
    } else {
        synth.push_str(&head);
    }
    synth.push_str(block);
    synth.push_str(",\"shots\":[]}");
    synth
}

/// Resolves the situation's keys of a file whose text is `text` into a [`Situation`]: the
/// `board` and `physics` blocks through the shot-file reader (errors at their place in
/// `text`), the defaults of [`Situation::at_seat`] for missing keys. Nothing else is
/// checked here: the study and the planner check players, seat, discs and noise
/// themselves.
pub(crate) fn read_situation(text: &str, json: SituationJson<'_>) -> Result<Situation, InputError> {
    let mut situation = Situation::at_seat(json.seat);
    if let Some(raw) = json.board {
        situation.board = parse_shot_file(&read_block(text, "board", raw))?.0;
    }
    if let Some(raw) = json.physics {
        situation.physics = parse_shot_file(&read_block(text, "physics", raw))?.1;
    }
    if let Some(players) = json.players {
        situation.players = players;
    }
    if let Some(discs) = json.discs {
        situation.discs = discs
            .into_iter()
            .map(|Obj(d)| Placed {
                team: d.team,
                pos: DVec2::from(d.pos),
            })
            .collect();
    }
    if let Some(spec) = json.noise {
        situation.noise = spec.noise();
    }
    Ok(situation)
}
