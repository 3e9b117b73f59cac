//! The shot file (`docs/shot-file.md`): its serde types, the conversion to the
//! library's [`Board`], [`Physics`] and [`Shot`], the up-front validation of every shot,
//! and the `params` block (the defaults in shot-file form).

use crate::json_path::json_error;
use crate::strict::{Obj, present};
use crokinole_core::board::Board;
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_core::shot::{Flick, Placed, Shot};
use crokinole_core::validate::{check_board, check_physics};
use crokinole_rules::ShotEntry;
use glam::DVec2;
use serde::{Deserialize, Serialize};

pub(super) mod blocks;

/// The whole file. `description` is accepted (the shared benchmark files carry one) and
/// ignored.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a shot file object")]
struct ShotFileJson {
    #[serde(default, deserialize_with = "present")]
    #[allow(dead_code)]
    description: Option<String>,
    #[serde(default, deserialize_with = "present")]
    board: Option<Obj<BoardJson>>,
    #[serde(default, deserialize_with = "present")]
    physics: Option<Obj<PhysicsJson>>,
    shots: Vec<Obj<ShotJson>>,
}

/// Generates a block type whose keys are all optional (missing = default) and a
/// conversion from and to the library type. A `removed` key is refused with its type's
/// explanation (never written).
macro_rules! block {
    ($(#[$meta:meta])* $name:ident for $lib:ident { $($key:ident : $ty:ty),* $(,)? }
     special { $($skey:ident : $sty:ty => |$sv:ident| $to:expr, |$sl:ident| $from:expr);* $(;)? }
     removed { $($rkey:ident : $rty:ty),* $(,)? }) => {
        #[derive(Clone, Default, Deserialize, Serialize)]
        #[serde(deny_unknown_fields)]
        $(#[$meta])*
        struct $name {
            $(
                #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
                $key: Option<$ty>,
            )*
            $(
                #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
                $skey: Option<$sty>,
            )*
            $(
                #[serde(default, skip_serializing)]
                #[allow(dead_code)]
                $rkey: Option<$rty>,
            )*
        }

        impl $name {
            /// `base` with every key present in the block overridden.
            fn apply(self, mut base: $lib) -> $lib {
                $( if let Some(v) = self.$key { base.$key = v; } )*
                $( if let Some($sv) = self.$skey { base.$skey = $to; } )*
                base
            }

            /// Every key of `lib`, present.
            fn full(lib: &$lib) -> $name {
                $name {
                    $( $key: Some(lib.$key), )*
                    $( $skey: Some({ let $sl = &lib.$skey; $from }), )*
                    $( $rkey: None, )*
                }
            }
        }
    };
}

block! {
    /// The `board` block.
    #[serde(expecting = "a board object")]
    BoardJson for Board {
        surface_radius: f64,
        shooting_line_radius: f64,
        ten_line_radius: f64,
        fifteen_line_radius: f64,
        hole_radius: f64,
        line_width: f64,
        peg_radius: f64,
    }
    special {
        pegs: Vec<[f64; 2]> => |v| v.into_iter().map(DVec2::from).collect(),
            |l| l.iter().map(DVec2::to_array).collect();
    }
    removed {}
}

block! {
    /// The `physics` block: the keys of the spec, then the engine's own keys.
    #[serde(expecting = "a physics object")]
    PhysicsJson for Physics {
        disc_radius: f64,
        disc_mass: f64,
        board_friction: f64,
        disc_restitution: f64,
        disc_friction: f64,
        peg_restitution: f64,
        peg_friction: f64,
        gravity: f64,
        dt: f64,
        max_time: f64,
        max_speed: f64,
        max_events_per_step: u32,
    }
    special {}
    removed {
        hole_fall_depth: RemovedHoleFallDepth,
    }
}

/// `physics.hole_fall_depth`, a key of the old 20-hole model, refused with the reason.
#[derive(Clone)]
struct RemovedHoleFallDepth;

impl<'de> Deserialize<'de> for RemovedHoleFallDepth {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(d)?;
        Err(serde::de::Error::custom(
            "removed: the 20 hole no longer has a fall depth or a capture timer; whether a \
             disc drops in follows from the hole's and the disc's radii (docs/hole.md), so \
             delete this key",
        ))
    }
}

/// A disc at rest (also the study file's).
#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a disc object {team, pos}")]
pub(crate) struct DiscJson {
    pub(crate) team: u8,
    pub(crate) pos: [f64; 2],
}

/// The flicked disc.
#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a shooter object {team, pos, vel, spin}"
)]
struct ShooterJson {
    team: u8,
    pos: [f64; 2],
    vel: [f64; 2],
    #[serde(default, deserialize_with = "present")]
    spin: Option<f64>,
}

/// One shot.
#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a shot object {discs, shooter, seat, players}"
)]
struct ShotJson {
    discs: Vec<Obj<DiscJson>>,
    shooter: Obj<ShooterJson>,
    #[serde(default, deserialize_with = "present")]
    seat: Option<u8>,
    #[serde(default, deserialize_with = "present")]
    players: Option<u8>,
}

impl ShotJson {
    /// The entry, with `seat` and `players` checked (fields relative to the shot).
    fn into_entry(self) -> Result<ShotEntry, InputError> {
        if let Some(seat) = self.seat
            && seat > 3
        {
            return Err(InputError::new(
                "seat",
                format!("must be 0, 1, 2 or 3, got {seat}"),
            ));
        }
        let players = self.players.unwrap_or(2);
        if !crokinole_rules::valid_players(players) {
            return Err(InputError::new(
                "players",
                format!("must be 2 or 4, got {players}"),
            ));
        }
        let s = self.shooter.0;
        let shot = Shot {
            discs: self
                .discs
                .into_iter()
                .map(|Obj(d)| Placed {
                    team: d.team,
                    pos: DVec2::from(d.pos),
                })
                .collect(),
            shooter: Flick {
                team: s.team,
                pos: DVec2::from(s.pos),
                vel: DVec2::from(s.vel),
                spin: s.spin.unwrap_or(0.0),
            },
        };
        Ok(ShotEntry {
            shot,
            seat: self.seat,
            players,
        })
    }
}

/// Parses and checks a whole shot file: the JSON itself (malformed JSON, unknown keys,
/// wrong types, `null`, numbers that overflow), the board and physics blocks, and every
/// shot (seat, players, teams, placement, speeds), so that nothing runs if anything is
/// wrong. Missing `board`/`physics` keys take the defaults of [`Board::tournament`] and
/// [`Physics::default`]; a top-level `description` string is accepted and ignored.
///
/// Errors name the field as in the file (`physics.dt`, `shots[3].discs[1].pos`) and, for
/// a shot's error, its index; JSON errors also give the line and column.
pub fn parse_shot_file(text: &str) -> Result<(Board, Physics, Vec<ShotEntry>), InputError> {
    let Obj(file): Obj<ShotFileJson> =
        serde_json::from_str(text).map_err(|e| json_error(text, &e))?;
    let board = file.board.map(|b| b.0).unwrap_or_default();
    let board = board.apply(Board::tournament());
    check_board(&board)?;
    let physics = file.physics.map(|p| p.0).unwrap_or_default();
    let physics = physics.apply(Physics::default());
    check_physics(&physics)?;
    let entries = file
        .shots
        .into_iter()
        .enumerate()
        .map(|(k, s)| {
            let entry = s.0.into_entry().map_err(|e| e.in_shot(k))?;
            entry
                .shot
                .world(&board, &physics)
                .map_err(|e| e.in_shot(k))?;
            Ok(entry)
        })
        .collect::<Result<Vec<_>, InputError>>()?;
    Ok((board, physics, entries))
}

/// What [`read_shot_stream`] found besides the shots.
#[derive(Clone, Debug)]
pub struct StreamedBlocks {
    /// The board: the `board` block over [`Board::tournament`] (not yet checked).
    pub board: Board,
    /// The physics: the `physics` block over [`Physics::default`] (not yet checked).
    pub physics: Physics,
    /// Shots read.
    pub shots: usize,
    /// A `board` or `physics` block came after `shots`: the shots were handed over with
    /// the board and physics known then (the defaults), not these.
    pub blocks_after_shots: bool,
}

/// Why [`read_shot_stream`] stopped early.
#[derive(Debug)]
pub enum StreamStop {
    /// The text is not a shot file: the parser's error, with its line and column
    /// (`json_error_in` of a second reading names the field).
    Json(serde_json::Error),
    /// The caller's `each` asked to stop.
    Stopped,
}

/// The callback of [`read_shot_stream`]: shot `k` converted (seat and players checked)
/// with the board and physics known when it was read; `false` stops the reading.
pub type EachShot<'a> =
    dyn FnMut(usize, Result<ShotEntry, InputError>, &Board, &Physics) -> bool + 'a;

/// Reads a shot file from `reader` one shot at a time, holding one shot, never the file:
/// the same JSON checks as [`parse_shot_file`] (unknown keys, wrong types, `null`,
/// overflowing numbers: the first error in the text ends the reading), each shot handed
/// to `each` as soon as it is read. The board and physics are not checked here, nor the
/// shots against them ([`Shot::world`]): the caller does that, in the order
/// [`parse_shot_file`] does.
pub fn read_shot_stream<R: std::io::Read>(
    reader: R,
    each: &mut EachShot<'_>,
) -> Result<StreamedBlocks, StreamStop> {
    let reader = std::io::BufReader::with_capacity(1 << 16, reader);
    read_with(serde_json::Deserializer::from_reader(reader), each)
}

/// [`read_shot_stream`] over a text held in memory: the same shots, the same errors at the
/// same positions as [`parse_shot_file`]'s, several times faster than through a reader.
pub fn read_shot_text(text: &str, each: &mut EachShot<'_>) -> Result<StreamedBlocks, StreamStop> {
    read_with(serde_json::Deserializer::from_str(text), each)
}

/// [`read_shot_stream`] on the deserializer `de`.
fn read_with<'de, R: serde_json::de::Read<'de>>(
    mut de: serde_json::Deserializer<R>,
    each: &mut EachShot<'_>,
) -> Result<StreamedBlocks, StreamStop> {
    use serde::de::DeserializeSeed;
    let mut stopped = false;
    let seed = FileSeed {
        each,
        stopped: &mut stopped,
    };
    let read = seed.deserialize(&mut de).and_then(|blocks| {
        de.end()?;
        Ok(blocks)
    });
    match read {
        Ok(blocks) => Ok(blocks),
        Err(_) if stopped => Err(StreamStop::Stopped),
        Err(e) => Err(StreamStop::Json(e)),
    }
}

/// The top-level keys of a shot file, in the order of the derived reader's message.
const FILE_KEYS: &[&str] = &["description", "board", "physics", "shots"];

/// The whole file, read by [`read_shot_stream`].
struct FileSeed<'a, 'b> {
    each: &'a mut EachShot<'b>,
    stopped: &'a mut bool,
}

impl<'de> serde::de::DeserializeSeed<'de> for FileSeed<'_, '_> {
    type Value = StreamedBlocks;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<StreamedBlocks, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> serde::de::Visitor<'de> for FileSeed<'_, '_> {
    type Value = StreamedBlocks;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a shot file object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(
        self,
        mut map: A,
    ) -> Result<StreamedBlocks, A::Error> {
        use serde::de::Error;
        let (mut board, mut physics) = (None::<BoardJson>, None::<PhysicsJson>);
        let (mut description, mut shots) = (false, None::<usize>);
        let mut blocks_after_shots = false;
        while let Some(key) = map.next_key::<FileKey>()? {
            match key {
                FileKey::Description => {
                    if std::mem::replace(&mut description, true) {
                        return Err(A::Error::duplicate_field("description"));
                    }
                    map.next_value::<String>()?;
                }
                FileKey::Board => {
                    if board.is_some() {
                        return Err(A::Error::duplicate_field("board"));
                    }
                    board = Some(map.next_value::<Obj<BoardJson>>()?.0);
                    blocks_after_shots |= shots.is_some();
                }
                FileKey::Physics => {
                    if physics.is_some() {
                        return Err(A::Error::duplicate_field("physics"));
                    }
                    physics = Some(map.next_value::<Obj<PhysicsJson>>()?.0);
                    blocks_after_shots |= shots.is_some();
                }
                FileKey::Shots => {
                    if shots.is_some() {
                        return Err(A::Error::duplicate_field("shots"));
                    }
                    // Applied to copies: the blocks themselves are applied once, at the end.
                    let b = board.clone().unwrap_or_default().apply(Board::tournament());
                    let p = physics
                        .clone()
                        .unwrap_or_default()
                        .apply(Physics::default());
                    shots = Some(map.next_value_seed(ShotsSeed {
                        each: &mut *self.each,
                        stopped: &mut *self.stopped,
                        board: &b,
                        physics: &p,
                    })?);
                }
            }
        }
        let shots = shots.ok_or_else(|| A::Error::missing_field("shots"))?;
        Ok(StreamedBlocks {
            board: board.unwrap_or_default().apply(Board::tournament()),
            physics: physics.unwrap_or_default().apply(Physics::default()),
            shots,
            blocks_after_shots,
        })
    }
}

/// A top-level key of a shot file.
enum FileKey {
    Description,
    Board,
    Physics,
    Shots,
}

impl<'de> Deserialize<'de> for FileKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<FileKey, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = FileKey;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("field identifier")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<FileKey, E> {
                Ok(match v {
                    "description" => FileKey::Description,
                    "board" => FileKey::Board,
                    "physics" => FileKey::Physics,
                    "shots" => FileKey::Shots,
                    _ => return Err(E::unknown_field(v, FILE_KEYS)),
                })
            }
        }
        d.deserialize_identifier(V)
    }
}

/// The `shots` array, each shot handed over as it is read.
struct ShotsSeed<'a, 'b> {
    each: &'a mut EachShot<'b>,
    stopped: &'a mut bool,
    board: &'a Board,
    physics: &'a Physics,
}

impl<'de> serde::de::DeserializeSeed<'de> for ShotsSeed<'_, '_> {
    type Value = usize;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> serde::de::Visitor<'de> for ShotsSeed<'_, '_> {
    type Value = usize;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<usize, A::Error> {
        let mut k = 0;
        while let Some(Obj(shot)) = seq.next_element::<Obj<ShotJson>>()? {
            let entry = shot.into_entry().map_err(|e| e.in_shot(k));
            if !(self.each)(k, entry, self.board, self.physics) {
                *self.stopped = true;
                return Err(serde::de::Error::custom("stopped by the reader's caller"));
            }
            k += 1;
        }
        Ok(k)
    }
}

/// The `board` and `physics` blocks with every key, pretty-printed in shot-file form
/// (`{"board": {...}, "physics": {...}}`, one peg a line, no trailing newline). Adding `"shots": [...]`
/// makes it a shot file that reproduces `board` and `physics` exactly.
pub fn params_json(board: &Board, physics: &Physics) -> String {
    #[derive(Serialize)]
    struct Params {
        board: BoardJson,
        physics: PhysicsJson,
    }
    let params = Params {
        board: BoardJson::full(board),
        physics: PhysicsJson::full(physics),
    };
    crate::format::to_json(&params, crate::format::Style::PRETTY)
}

/// A shot file holding `entries`, with every `board` and `physics` key written out (as
/// [`params_json`] does) and a `description`: what `crokinole flick --shot-out` writes.
/// [`parse_shot_file`] reads it back to the same board, physics and shots, bit for bit
/// (numbers in shortest round-trip form). One shot a line; a trailing newline.
pub fn shot_file_json(
    board: &Board,
    physics: &Physics,
    entries: &[ShotEntry],
    description: &str,
) -> String {
    #[derive(Serialize)]
    struct DiscOut {
        team: u8,
        pos: [f64; 2],
    }
    #[derive(Serialize)]
    struct ShooterOut {
        team: u8,
        pos: [f64; 2],
        vel: [f64; 2],
        spin: f64,
    }
    #[derive(Serialize)]
    struct ShotOut {
        discs: Vec<DiscOut>,
        shooter: ShooterOut,
        #[serde(skip_serializing_if = "Option::is_none")]
        seat: Option<u8>,
        players: u8,
    }
    #[derive(Serialize)]
    struct FileOut<'a> {
        description: &'a str,
        board: BoardJson,
        physics: PhysicsJson,
        shots: Vec<ShotOut>,
    }
    let file = FileOut {
        description,
        board: BoardJson::full(board),
        physics: PhysicsJson::full(physics),
        shots: entries
            .iter()
            .map(|e| {
                let f = &e.shot.shooter;
                ShotOut {
                    discs: e
                        .shot
                        .discs
                        .iter()
                        .map(|d| DiscOut {
                            team: d.team,
                            pos: d.pos.to_array(),
                        })
                        .collect(),
                    shooter: ShooterOut {
                        team: f.team,
                        pos: f.pos.to_array(),
                        vel: f.vel.to_array(),
                        spin: f.spin,
                    },
                    seat: e.seat,
                    players: e.players,
                }
            })
            .collect(),
    };
    crate::format::to_json(&file, crate::format::Style::ROWS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shot_file_written_reads_back_to_the_same_shot_bit_for_bit() {
        let board = Board::tournament();
        let physics = Physics::default();
        let entry = ShotEntry {
            shot: Shot {
                discs: vec![Placed {
                    team: 1,
                    pos: glam::DVec2::new(0.1 / 3.0, -0.2 / 7.0),
                }],
                shooter: crokinole_core::Flick {
                    team: 0,
                    pos: glam::DVec2::new(0.0, -0.3048),
                    vel: glam::DVec2::new(0.1 / 9.0, 1.0 / 3.0),
                    spin: -2.0 / 3.0,
                },
            },
            seat: Some(0),
            players: 2,
        };
        let text = shot_file_json(&board, &physics, std::slice::from_ref(&entry), "");
        let (b, p, entries) = parse_shot_file(&text).unwrap();
        assert_eq!((b, p), (board, physics));
        assert_eq!(entries, vec![entry]);
    }

    #[test]
    fn an_error_found_through_a_reader_names_the_same_field_as_in_the_text() {
        // The streamed reading of a large shot file names the field by scanning it again
        // (a block at a time: blocks of one byte here too) up to the reader's error.
        struct Trickle<'a>(&'a [u8]);
        impl std::io::Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = self.0.len().min(buf.len()).min(1);
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let cases = [
            (
                "{\"shots\": [{\"discs\": [], \"shooter\": {\"team\": 0, \"pos\": [0, -0.3], \"vel\": [0, 1]}},\n {\"discs\": [{\"team\": \"x\"}]}]}",
                "shots[1].discs[0].team",
            ),
            (
                "{\"shots\": [\n{\"shooter\": {\"pos\": [0, NaN]}}]}",
                "shots[0].shooter.pos[1]",
            ),
            (
                "{\"board\": {\"pegs\": [[0, 1], [2, tru",
                "board.pegs[1][1]",
            ),
            ("{\"shots\": [], \"flick\": {}}", "flick"),
            ("  \n ", "file"),
        ];
        for (text, field) in cases {
            let read = crate::read_shot_stream(text.as_bytes(), &mut |_, _, _, _| true);
            let Err(crate::StreamStop::Json(err)) = read else {
                panic!("{text}: read");
            };
            for reader in [
                Box::new(text.as_bytes()) as Box<dyn std::io::Read>,
                Box::new(Trickle(text.as_bytes())),
            ] {
                let e = crate::json_path::json_error_in(reader, &err);
                assert_eq!(e.field, field, "{text}: {e}");
            }
        }
        let err = serde_json::from_str::<serde_json::Value>("[NaN]").unwrap_err();
        assert!(
            crate::json_path::json_error_in("[NaN]".as_bytes(), &err)
                .problem
                .contains("not JSON numbers")
        );
    }

    fn err(text: &str) -> InputError {
        parse_shot_file(text).unwrap_err()
    }

    const SHOOTER: &str = r#""shooter": {"team": 0, "pos": [0, -0.3048], "vel": [0, 0.9]}"#;

    #[test]
    fn an_empty_file_takes_the_defaults() {
        let (b, p, s) = parse_shot_file(r#"{"shots": []}"#).unwrap();
        assert_eq!(
            (b, p, s.len()),
            (Board::tournament(), Physics::default(), 0)
        );
    }

    #[test]
    fn params_round_trip() {
        let mut board = Board::tournament();
        board.pegs.truncate(3);
        let physics = Physics {
            dt: 0.000_5,
            ..Physics::default()
        };
        let text = params_json(&board, &physics);
        let text = format!("{{\"shots\": [], {}", &text.trim_start()[1..]);
        let (b, p, _) = parse_shot_file(&text).unwrap();
        assert_eq!((b, p), (board, physics));
    }

    #[test]
    fn missing_keys_take_the_defaults_and_present_ones_override() {
        let text = format!(
            r#"{{"description": "x", "board": {{"pegs": []}}, "physics": {{"dt": 0.002}},
               "shots": [{{"discs": [{{"team": 1, "pos": [0.1, 0.0]}}], {SHOOTER}, "seat": 3, "players": 4}}]}}"#
        );
        let (b, p, s) = parse_shot_file(&text).unwrap();
        assert!(b.pegs.is_empty());
        assert_eq!(b.surface_radius, Board::tournament().surface_radius);
        assert_eq!(p.dt, 0.002);
        assert_eq!(p.gravity, Physics::default().gravity);
        assert_eq!((s[0].seat, s[0].players), (Some(3), 4));
        assert_eq!(s[0].shot.shooter.spin, 0.0);
        assert_eq!(s[0].shot.discs[0].pos, DVec2::new(0.1, 0.0));
    }

    #[test]
    fn json_errors_name_the_field_and_the_position() {
        let e = err(&format!(
            "{{\"shots\": [{{\"discs\": [],\n {SHOOTER}}}, {{\"discs\": [{{\"team\": 0, \"pos\": [0.1, 1e999]}}], {SHOOTER}}}]}}"
        ));
        assert_eq!(e.shot, Some(1));
        assert_eq!(e.field, "shots[1].discs[0].pos[1]");
        assert!(e.problem.contains("out of range at line 2"), "{e}");

        let e = err(&format!(
            r#"{{"shots": [{{"discs": [], {SHOOTER}, "sat": 1}}]}}"#
        ));
        assert_eq!(e.field, "shots[0].sat");
        assert!(e.problem.contains("unknown field `sat`"), "{e}");

        let e = err(r#"{"shots": [{"discs": []}]}"#);
        assert_eq!((e.shot, e.field.as_str()), (Some(0), "shots[0]"));
        assert!(e.problem.contains("missing field `shooter`"), "{e}");

        let e = err(r#"{"physics": {"dt": null}, "shots": []}"#);
        assert_eq!(e.field, "physics.dt");

        let e = err(r#"{"physics": {"hole_fall_depth": 0.004, "dt": 0.001}, "shots": []}"#);
        assert_eq!(e.field, "physics.hole_fall_depth", "{e}");
        assert!(e.problem.contains("removed"), "{e}");
        assert!(!params_json(&Board::tournament(), &Physics::default()).contains("hole_fall"));

        let e = err(r#"{"board": {"pegs": [[0, 1], [0, 1, 2]]}, "shots": []}"#);
        assert_eq!(e.field, "board.pegs[1][2]", "{e}");
        assert!(e.problem.contains("trailing"), "{e}");

        let e = err(r#"{"shots": [}"#);
        assert!(e.problem.contains("line 1 column"), "{e}");
        let e = err("");
        assert_eq!(e.field, "file");
    }

    #[test]
    fn shot_errors_carry_the_shot_index() {
        let text = format!(
            r#"{{"shots": [{{"discs": [], {SHOOTER}}}, {{"discs": [], {SHOOTER}, "seat": 4}}]}}"#
        );
        let e = err(&text);
        assert_eq!((e.shot, e.field.as_str()), (Some(1), "shots[1].seat"));
        let text = format!(
            r#"{{"shots": [{{"discs": [{{"team": 1, "pos": [0.1, 0]}}, {{"team": 1, "pos": [0.11, 0]}}], {SHOOTER}}}]}}"#
        );
        let e = err(&text);
        assert_eq!(e.field, "shots[0].discs[1].pos");
        assert!(e.problem.contains("overlaps disc 0"), "{e}");
    }
}
