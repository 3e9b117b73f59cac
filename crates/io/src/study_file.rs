//! The JSON of Monte Carlo studies (`docs/montecarlo.md`): reading the study file into a
//! checked [`Study`], the canonical form behind the input hash, one line per sample, the
//! summary, and the shard state that `crokinole merge` reads back.
//!
//! Conventions are those of the shot file (`docs/shot-file.md`): SI units and
//! radians, unknown keys and `null` refused, a structure only as an object, errors naming
//! the field (`flick.speed`, `discs[2].pos[0]`) and, for JSON errors, the line and column.
//! The situation's keys (`board`, `physics`, `players`, `seat`, `discs`, `noise`) are read
//! by `crates/io/src/situation.rs`, shared with the planner's suggest file; the `board` and
//! `physics` blocks by the shot-file reader itself, so they take exactly the keys and
//! defaults of a shot file.

use crate::format::{Style, to_json};
use crate::json_form::{FromJson, Json};
use crate::situation::{from_json, read_situation, situation_file};
use crate::strict::{Obj, present};
use crate::{params_json, serialize_outcome};
use crokinole_core::error::InputError;
use crokinole_montecarlo::SampleResult;
use crokinole_montecarlo::flick::PlayerFlick;
use crokinole_montecarlo::skill::unknown_level;
use crokinole_montecarlo::study::{Sample, Study, StudySpec};
use crokinole_montecarlo::tally::{POSITIONS_CAP, SampleRecord, StudySummary, Tally};
use crokinole_montecarlo::{ShotClass, SkillLevel};
use glam::DVec2;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The `format` key of a shard state file.
pub const STATE_FORMAT: &str = "crokinole-montecarlo-state";
/// The `version` of the shard state format written and read here.
pub const STATE_VERSION: u32 = 4;

situation_file! {
    /// The study file: the situation ([`crokinole_montecarlo::Situation`]), the flick and the
    /// rule set.
    #[serde(deny_unknown_fields, expecting = "a study file object")]
    struct StudyFileJson<'a> {
        flick: Obj<FlickJson>,
        #[serde(default, deserialize_with = "present")]
        ruleset: Option<String>,
    }
    own StudyOwn;
}

/// The intended flick.
#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a flick object {offset, aim, target, speed, spin}"
)]
struct FlickJson {
    #[serde(default, deserialize_with = "present")]
    offset: Option<f64>,
    #[serde(default, deserialize_with = "present")]
    aim: Option<f64>,
    #[serde(default, deserialize_with = "present")]
    target: Option<[f64; 2]>,
    speed: f64,
    #[serde(default, deserialize_with = "present")]
    spin: Option<f64>,
}

/// Parses and checks a study file ([`Study::new`]): the JSON, the `board` and `physics`
/// blocks (as in a shot file), the seat and players, every disc, the flick and the noise.
/// Errors name the field as in the file (`flick.offset`, `discs[1].pos`, `noise.speed`,
/// `physics.dt`) and, for JSON errors, the line and column.
pub fn parse_study_file(text: &str) -> Result<Study, InputError> {
    let Obj(file): Obj<StudyFileJson> = from_json(text)?;
    let (situation, own) = file.situation_json();
    let situation = read_situation(text, situation)?;
    let f = own.flick.0;
    let ruleset = match own.ruleset {
        None => None,
        Some(name) => Some(
            name.parse::<crokinole_rules::Ruleset>()
                .map_err(|problem| InputError::new("ruleset", problem))?,
        ),
    };
    let spec = StudySpec {
        situation,
        flick: PlayerFlick {
            offset: f.offset.unwrap_or(0.0),
            aim: f.aim.unwrap_or(0.0),
            target: f.target.map(DVec2::from),
            speed: f.speed,
            spin: f.spin.unwrap_or(0.0),
        },
        ruleset,
    };
    let study = Study::new(spec)?;
    let hash = input_hash(study.spec());
    Ok(study.with_input_hash(hash))
}

/// FNV-1a, 64 bit.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The study in one canonical text: the `board` and `physics` blocks with every key
/// ([`params_json`]), then players, seat, discs, flick and noise with every default filled
/// in, numbers in shortest round-trip form. Two files that define the same study give the
/// same text whatever their layout, key order or omitted defaults. `ruleset` appears only
/// when the study names one, so studies without it keep the hashes they had before it
/// existed.
pub fn canonical_json(spec: &StudySpec) -> String {
    let s = &spec.situation;
    let f = &spec.flick;
    let n = &s.noise;
    let mut rest = serde_json::json!({
        "players": s.players,
        "seat": s.seat,
        "discs": s.discs.iter().map(|d| serde_json::json!({"team": d.team, "pos": d.pos.to_array()})).collect::<Vec<_>>(),
        "flick": {
            "offset": f.offset, "aim": f.aim, "target": f.target.map(|t| t.to_array()),
            "speed": f.speed, "spin": f.spin,
        },
        "noise": {"offset": n.offset, "aim": n.aim, "speed": n.speed, "spin": n.spin},
    });
    if let Some(ruleset) = spec.ruleset {
        rest["ruleset"] = ruleset.name().into();
    }
    format!(
        "crokinole montecarlo study 1\n{}\n{rest}\n",
        params_json(&s.board, &s.physics)
    )
}

/// The input hash of a study: [`fnv1a`] of its [`canonical_json`].
pub fn input_hash(spec: &StudySpec) -> u64 {
    fnv1a(canonical_json(spec).as_bytes())
}

/// One line of the samples file (compact JSON and a newline): `sample`, the `flick` as
/// played (`offset`, `aim`, `speed`, `spin`), `class`, `score_change`, `opponent_hits`,
/// `opponents_moved`, and the `outcome` exactly as in an outcome file.
pub fn sample_line(s: &Sample) -> String {
    #[derive(Serialize)]
    struct FlickOut {
        offset: f64,
        aim: f64,
        speed: f64,
        spin: f64,
    }
    /// The outcome exactly as in an outcome file.
    struct OutcomeOut<'a>(&'a crokinole_core::shot::Outcome);
    impl Serialize for OutcomeOut<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            serialize_outcome(self.0, s)
        }
    }
    #[derive(Serialize)]
    struct Line<'a> {
        sample: u64,
        flick: FlickOut,
        class: &'static str,
        score_change: i64,
        opponent_hits: u32,
        opponents_moved: bool,
        outcome: OutcomeOut<'a>,
    }
    let line = Line {
        sample: s.index,
        flick: FlickOut {
            offset: s.flick.offset,
            aim: s.flick.aim,
            speed: s.flick.speed,
            spin: s.flick.spin,
        },
        class: s.result.class.name(),
        score_change: s.result.score_change,
        opponent_hits: s.result.opponent_hits,
        opponents_moved: s.result.opponents_moved,
        outcome: OutcomeOut(&s.outcome),
    };
    let mut text = serde_json::to_string(&line).expect("plain data serializes");
    text.push('\n');
    text
}

/// The summary as printed by `crokinole montecarlo` and `crokinole merge`: indented
/// objects, arrays on one line, a trailing newline. The bytes depend on the summary only.
pub fn study_summary_json(summary: &StudySummary) -> String {
    to_json(&Json(summary), Style::TWO_LEVELS)
}

/// Reads a Monte Carlo summary (`crokinole montecarlo` or `merge` output) back into a
/// [`StudySummary`], through the same field list its writer uses: unknown keys and `null`
/// refused, errors naming the field (`shooter.ditch.p`, `shooter_positions.class[3]`) and
/// the line and column. Checks what a reader relies on: every probability in [0, 1],
/// class counts adding up to `samples`, one class per position.
pub fn parse_summary(text: &str) -> Result<StudySummary, InputError> {
    let summary: StudySummary = from_json::<FromJson<StudySummary>>(text)?.0;
    let c = &summary.shooter;
    let classes = [
        ("twenty", c.twenty),
        ("fifteen", c.fifteen),
        ("ten", c.ten),
        ("five", c.five),
        ("out", c.out),
        ("ditch", c.ditch),
        ("removed", c.removed),
    ];
    for (name, prop) in classes {
        let probs = [prop.p, prop.ci95[0], prop.ci95[1]];
        if probs.iter().any(|p| !(0.0..=1.0).contains(p)) {
            return Err(InputError::new(
                format!("shooter.{name}"),
                format!(
                    "probabilities must lie in [0, 1], got p {} and ci95 {:?}",
                    prop.p, prop.ci95
                ),
            ));
        }
    }
    let total: u64 = classes.iter().map(|(_, p)| p.count).sum();
    if total != summary.samples {
        return Err(InputError::new(
            "shooter",
            format!(
                "the class counts add up to {total}, the summary has {} samples",
                summary.samples
            ),
        ));
    }
    if let Some(p) = &summary.shooter_positions
        && p.class.len() != p.first.len()
    {
        return Err(InputError::new(
            "shooter_positions.class",
            format!(
                "needs one class per position ({}), got {}",
                p.first.len(),
                p.class.len()
            ),
        ));
    }
    Ok(summary)
}

/// Counts per outcome class, by name.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClassCounts {
    twenty: u64,
    fifteen: u64,
    ten: u64,
    five: u64,
    out: u64,
    ditch: u64,
    removed: u64,
}

/// A shard state file.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a state object")]
struct StateJson<'a> {
    format: String,
    version: u32,
    engine: String,
    input_hash: String,
    seed: u64,
    samples: u64,
    range: [u64; 2],
    classes: Obj<ClassCounts>,
    score_change: Vec<(i64, u64)>,
    opponent_hits: Vec<(u32, u64)>,
    opponents_moved: u64,
    cut_off: u64,
    positions_cap: u64,
    /// Read as text and parsed with Rust's exact float parser, so positions survive the
    /// round trip bit for bit.
    #[serde(borrow)]
    positions: &'a RawValue,
    /// The class of each position's sample, in the same order.
    #[serde(with = "crate::json_form::json")]
    position_classes: Vec<ShotClass>,
    /// The skill level of the study's noise, if it is one (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    skill: Option<String>,
    /// The study, as a study file with every key ([`study_file_json`]): what `merge
    /// --verify` re-simulates samples of. Its input hash must be `input_hash`.
    #[serde(borrow)]
    study: &'a RawValue,
    /// Every sample's result in sample order ([`records_text`]), absent for a shard of
    /// more than `RECORDS_CAP` samples.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    records: Option<String>,
    /// FNV-1a of the state written without this key, 16 hex digits: a state edited by
    /// hand is refused even when its counts still add up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    checksum: Option<String>,
}

impl Serialize for Obj<ClassCounts> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

/// The engine that wrote a state file: shards of different engine versions are not merged.
pub fn engine_version() -> String {
    format!("crokinole {}", env!("CARGO_PKG_VERSION"))
}

/// The shard state file of a complete tally of `study` (what `crokinole montecarlo
/// --shard` prints): everything [`Tally::merge`] needs, integers and positions, laid out
/// like the summary; the study itself and every sample's result, so that `crokinole merge
/// --verify` can re-simulate samples and compare.
pub fn state_json(t: &Tally, study: &StudySpec) -> String {
    let study = study_file_json(study);
    let body = state_body(t, &study, None);
    state_body(t, &study, Some(format!("{:016x}", fnv1a(body.as_bytes()))))
}

/// The study file of `spec` with every key and default written out, on one line: the
/// keys of [`canonical_json`], read back by [`parse_study_file`] to the same study (and
/// so the same input hash).
pub fn study_file_json(spec: &StudySpec) -> String {
    let s = &spec.situation;
    let f = &spec.flick;
    let n = &s.noise;
    let params: serde_json::Value =
        serde_json::from_str(&params_json(&s.board, &s.physics)).expect("params are JSON");
    let mut flick =
        serde_json::json!({"offset": f.offset, "aim": f.aim, "speed": f.speed, "spin": f.spin});
    if let Some(t) = f.target {
        flick["target"] = serde_json::json!(t.to_array());
    }
    let mut file = serde_json::json!({
        "board": params["board"],
        "physics": params["physics"],
        "players": s.players,
        "seat": s.seat,
        "discs": s.discs.iter().map(|d| serde_json::json!({"team": d.team, "pos": d.pos.to_array()})).collect::<Vec<_>>(),
        "flick": flick,
        "noise": {"offset": n.offset, "aim": n.aim, "speed": n.speed, "spin": n.spin},
    });
    if let Some(ruleset) = spec.ruleset {
        file["ruleset"] = ruleset.name().into();
    }
    serde_json::to_string(&file).expect("plain data serializes")
}

/// The `records` of a state: one `class:score_change:opponent_hits:flags` a sample,
/// separated by spaces (`class` the index in `ShotClass::ALL`, `flags` 1 if an opponent
/// moved plus 2 if cut off).
fn records_text(records: &[SampleRecord]) -> String {
    let mut text = String::with_capacity(records.len() * 8);
    for (k, r) in records.iter().enumerate() {
        let r = r.result();
        if k > 0 {
            text.push(' ');
        }
        let flags = u8::from(r.opponents_moved) + 2 * u8::from(r.cut_off);
        let _ = write!(
            text,
            "{}:{}:{}:{flags}",
            r.class.index(),
            r.score_change,
            r.opponent_hits
        );
    }
    text
}

/// The records of [`records_text`], read back.
fn parse_records(text: &str) -> Result<Vec<SampleRecord>, InputError> {
    text.split_ascii_whitespace()
        .enumerate()
        .map(|(k, token)| {
            let bad = || {
                InputError::new(
                    "records",
                    format!(
                        "record {k} must be class:score_change:opponent_hits:flags, got `{}`",
                        crokinole_core::error::elide(token, 40)
                    ),
                )
            };
            let mut parts = token.split(':');
            let mut next = || parts.next().ok_or_else(bad);
            let class: usize = next()?.parse().map_err(|_| bad())?;
            let score_change: i64 = next()?.parse().map_err(|_| bad())?;
            let opponent_hits: u32 = next()?.parse().map_err(|_| bad())?;
            let flags: u8 = next()?.parse().map_err(|_| bad())?;
            if parts.next().is_some() || class >= ShotClass::ALL.len() || flags > 3 {
                return Err(bad());
            }
            SampleRecord::of(&SampleResult {
                class: ShotClass::ALL[class],
                score_change,
                opponent_hits,
                opponents_moved: flags & 1 != 0,
                cut_off: flags & 2 != 0,
            })
            .ok_or_else(bad)
        })
        .collect()
}

/// The state file of `t` and its study, with `checksum` as its last key when given.
fn state_body(t: &Tally, study: &str, checksum: Option<String>) -> String {
    let c = |k: usize| t.classes[k];
    let positions =
        serde_json::to_string(&t.positions.iter().map(|p| p.to_array()).collect::<Vec<_>>())
            .expect("finite positions serialize");
    let positions = RawValue::from_string(positions).expect("JSON");
    let state = StateJson {
        format: STATE_FORMAT.into(),
        version: STATE_VERSION,
        engine: engine_version(),
        input_hash: format!("{:016x}", t.input_hash),
        seed: t.seed,
        samples: t.samples,
        range: [t.range.start, t.range.end],
        classes: Obj(ClassCounts {
            twenty: c(0),
            fifteen: c(1),
            ten: c(2),
            five: c(3),
            out: c(4),
            ditch: c(5),
            removed: c(6),
        }),
        score_change: t.score_change.iter().map(|(&v, &c)| (v, c)).collect(),
        opponent_hits: t.opponent_hits.iter().map(|(&v, &c)| (v, c)).collect(),
        opponents_moved: t.opponents_moved,
        cut_off: t.cut_off,
        positions_cap: POSITIONS_CAP,
        positions: &positions,
        position_classes: t.position_classes.clone(),
        skill: t.skill.map(str::to_string),
        study: &RawValue::from_string(study.to_string()).expect("a study file is JSON"),
        records: t.records.as_deref().map(records_text),
        checksum,
    };
    // The positions are written as their compact JSON, verbatim.
    to_json(&state, Style::TWO_LEVELS)
}

/// An ascending histogram of distinct values.
fn histogram<K: Ord + Copy + std::fmt::Display>(
    field: &str,
    pairs: &[(K, u64)],
) -> Result<BTreeMap<K, u64>, InputError> {
    let mut map = BTreeMap::new();
    for (k, pair) in pairs.iter().enumerate() {
        if k > 0 && pairs[k - 1].0 >= pair.0 {
            return Err(InputError::new(
                format!("{field}[{k}]"),
                format!(
                    "values must be ascending and distinct, got {} after {}",
                    pair.0,
                    pairs[k - 1].0
                ),
            ));
        }
        map.insert(pair.0, pair.1);
    }
    Ok(map)
}

/// `[[x, y], ...]` read with Rust's correctly rounded float parser.
fn parse_positions(raw: &str) -> Result<Vec<DVec2>, InputError> {
    let bad = |problem: String| InputError::new("positions", problem);
    let body = raw.trim();
    let body = body
        .strip_prefix('[')
        .and_then(|b| b.strip_suffix(']'))
        .ok_or_else(|| bad("must be an array of [x, y] pairs".into()))?;
    let mut out = Vec::new();
    let mut rest = body.trim();
    while !rest.is_empty() {
        let inner = rest
            .strip_prefix('[')
            .ok_or_else(|| bad(format!("position {} is not an [x, y] pair", out.len())))?;
        let close = inner
            .find(']')
            .ok_or_else(|| bad(format!("position {} is not closed", out.len())))?;
        let nums: Vec<&str> = inner[..close].split(',').map(str::trim).collect();
        let parsed: Vec<f64> = nums
            .iter()
            .filter_map(|x| x.parse::<f64>().ok().filter(|v| v.is_finite()))
            .collect();
        if nums.len() != 2 || parsed.len() != 2 {
            return Err(bad(format!(
                "position {} must be two finite numbers, got [{}]",
                out.len(),
                &inner[..close]
            )));
        }
        out.push(DVec2::new(parsed[0], parsed[1]));
        rest = inner[close + 1..].trim_start();
        if let Some(r) = rest.strip_prefix(',') {
            rest = r.trim_start();
            if rest.is_empty() {
                return Err(bad("trailing comma".into()));
            }
        } else if !rest.is_empty() {
            return Err(bad(format!(
                "expected `,` after position {}",
                out.len() - 1
            )));
        }
    }
    Ok(out)
}

/// Reads a shard state file back into its tally, checking the format, the version, the
/// engine and the consistency of the counts ([`Tally::check`]).
pub fn parse_state(text: &str) -> Result<Tally, InputError> {
    parse_state_study(text).map(|(tally, _)| tally)
}

/// [`parse_state`], with the study the state carries (its input hash checked against the
/// state's), and the records checked against the counts ([`Tally::check_records`]).
pub fn parse_state_study(text: &str) -> Result<(Tally, Study), InputError> {
    // The format first, so that another kind of file is named as such.
    #[derive(Deserialize)]
    struct Header {
        format: Option<serde_json::Value>,
    }
    if let Ok(Header { format }) = serde_json::from_str::<Header>(text)
        && format.as_ref().and_then(|f| f.as_str()) != Some(STATE_FORMAT)
    {
        let got = format.map_or("no `format` key".into(), |f| format!("`{f}`"));
        return Err(InputError::new(
            "format",
            format!("expected `{STATE_FORMAT}`, got {got}: not a shard state file"),
        ));
    }
    let Obj(s): Obj<StateJson> = from_json(text)?;
    if s.version != STATE_VERSION {
        return Err(InputError::new(
            "version",
            format!(
                "this build reads version {STATE_VERSION}, got {}",
                s.version
            ),
        ));
    }
    if s.engine != engine_version() {
        return Err(InputError::new(
            "engine",
            format!(
                "written by `{}`, this is `{}`: results of different engines do not merge",
                s.engine,
                engine_version()
            ),
        ));
    }
    if s.positions_cap != POSITIONS_CAP {
        return Err(InputError::new(
            "positions_cap",
            format!("expected {POSITIONS_CAP}, got {}", s.positions_cap),
        ));
    }
    let input_hash = u64::from_str_radix(&s.input_hash, 16)
        .ok()
        .filter(|_| s.input_hash.len() == 16)
        .ok_or_else(|| {
            InputError::new(
                "input_hash",
                format!("expected 16 hex digits, got `{}`", s.input_hash),
            )
        })?;
    let c = s.classes.0;
    let [start, end] = s.range;
    let tally = Tally {
        input_hash,
        seed: s.seed,
        samples: s.samples,
        range: start..end,
        done: end.saturating_sub(start),
        classes: [
            c.twenty, c.fifteen, c.ten, c.five, c.out, c.ditch, c.removed,
        ],
        score_change: histogram("score_change", &s.score_change)?,
        opponent_hits: histogram("opponent_hits", &s.opponent_hits)?,
        opponents_moved: s.opponents_moved,
        cut_off: s.cut_off,
        positions: parse_positions(s.positions.get())?,
        position_classes: s.position_classes,
        skill: match s.skill {
            None => None,
            Some(name) => Some(
                SkillLevel::by_name(&name)
                    .ok_or_else(|| InputError::new("skill", unknown_level(&name)))?
                    .name,
            ),
        },
        records: s.records.as_deref().map(parse_records).transpose()?,
    };
    tally.check()?;
    tally.check_records()?;
    let study = parse_study_file(s.study.get())
        .map_err(|e| InputError::new(format!("study.{}", e.field), e.problem))?;
    if study.input_hash() != input_hash {
        return Err(InputError::new(
            "study",
            format!(
                "its input hash is {:016x}, the state's is {input_hash:016x}: it was edited",
                study.input_hash()
            ),
        ));
    }
    let expected = format!(
        "{:016x}",
        fnv1a(state_body(&tally, s.study.get(), None).as_bytes())
    );
    match s.checksum {
        Some(sum) if sum == expected => Ok((tally, study)),
        Some(sum) => Err(InputError::new(
            "checksum",
            format!(
                "the state's content does not match its checksum ({} given, {expected} computed): \
                 it was edited or damaged; run the shard again",
                crokinole_core::error::elide(&sum, 40)
            ),
        )),
        None => Err(InputError::new(
            "checksum",
            "missing: every state `crokinole montecarlo --shard` writes has one",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_shot_file;

    #[test]
    fn errors_in_the_blocks_keep_their_line_and_column() {
        // The same block at the same place in a shot file gives the same message.
        for (study, shots) in [
            (
                "{\"seat\": 0, \"flick\": {\"speed\": 0.8},\n  \"board\":\n{\"hole_radiu\": 1}}",
                "{\"shots\": [],\n \"board\":\n{\"hole_radiu\": 1}}",
            ),
            (
                "{\"seat\": 0, \"flick\": {\"speed\": 0.8}, \"physics\": {\"dt\": null}}",
                "{\"shots\": [],                        \"physics\": {\"dt\": null}}",
            ),
            (
                "{\"physics\": {\"gravity\": \"g\"}, \"seat\": 0, \"flick\": {\"speed\": 0.8}}",
                "{\"physics\": {\"gravity\": \"g\"}, \"shots\": []}",
            ),
        ] {
            let got = parse_study_file(study).unwrap_err();
            let want = parse_shot_file(shots).unwrap_err();
            assert_eq!(got, want, "{study}");
            assert!(got.problem.contains(" at line "), "{got}");
        }
    }

    #[test]
    fn study_errors_name_the_field() {
        let err = |text: &str| parse_study_file(text).unwrap_err();
        let e = err(
            r#"{"seat": 0, "flick": {"speed": 0.8}, "discs": [{"team": 1, "pos": [0.1, 0]}, {"team": 1, "pos": [true, 0]}]}"#,
        );
        assert_eq!(e.field, "discs[1].pos[0]");
        assert!(e.problem.contains("invalid type: boolean"), "{e}");
        let e = err(r#"{"seat": 0, "flick": {"speed": 0.8}, "noise": {"spin": null}}"#);
        assert_eq!(e.field, "noise.spin");
        let e = err(r#"{"seat": 0, "flick": {"speed": 0.8}, "noise": [0.1]}"#);
        assert_eq!(e.field, "noise");
        assert!(e.problem.contains("expected a noise object"), "{e}");
        let e = err(r#"{"seat": 0, "flick": {"speed": 0.8}, "extra": 1}"#);
        assert_eq!(e.field, "extra");
        let e = err(r#"{"seat": 0, "flick": {"speed": 0.8}} {}"#);
        assert_eq!(e.field, "file");
        assert!(e.problem.contains("trailing characters"), "{e}");
    }

    #[test]
    fn equal_studies_hash_alike_whatever_their_layout() {
        let a = parse_study_file(r#"{"seat": 0, "flick": {"speed": 0.8}}"#).unwrap();
        let b = parse_study_file(
            r#"{"flick": {"spin": 0, "speed": 0.8, "offset": 0.0},
                "noise": {}, "players": 2, "physics": {"dt": 0.001}, "seat": 0, "discs": []}"#,
        )
        .unwrap();
        let c = parse_study_file(r#"{"seat": 0, "flick": {"speed": 0.81}}"#).unwrap();
        assert_eq!(a.input_hash(), b.input_hash());
        assert_ne!(a.input_hash(), c.input_hash());
    }

    #[test]
    fn positions_round_trip_exactly() {
        let ps = vec![
            DVec2::new(0.1, -0.2),
            DVec2::new(1.0 / 3.0, 2.0f64.sqrt()),
            DVec2::new(-1.2345678901234567e-7, 0.30479999999999996),
        ];
        let text =
            serde_json::to_string(&ps.iter().map(|p| p.to_array()).collect::<Vec<_>>()).unwrap();
        assert_eq!(parse_positions(&text).unwrap(), ps);
        assert_eq!(parse_positions("[]").unwrap(), vec![]);
        assert!(parse_positions("[[1, 2],]").is_err());
        assert!(parse_positions("[[1, 2, 3]]").is_err());
        assert!(parse_positions("[[1, 2] [3, 4]]").is_err());
    }
}
