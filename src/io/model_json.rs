//! How the library's plain types read and write as JSON: the serde implementations of the
//! table, study, planner and game types, in one place so that no layer below this one
//! depends on serde (see ARCHITECTURE.md, "Layers").
//!
//! Each type is mirrored field for field by a `...Def` declaration (serde's remote
//! derive): the field names, their order and their serde attributes are the JSON
//! contract of `docs/montecarlo.md`, `docs/play.md`, `docs/rules.md` and `docs/suggest.md`.
//! A field added to one of the types must be added to its mirror here (the compiler
//! refuses a mirror whose fields differ from the type's).

use crate::disc::DiscId;
use crate::io::serialize_outcome;
use crate::montecarlo::ShotClass;
use crate::montecarlo::tally::{
    Classes, Distribution, Hits, Positions, Proportion, Quantiles, Stopped,
};
use crate::plan::Objective;
use crate::play::run::{FlickLog, NoiseLog, SeatLog, ShotLog, StartLog};
use crate::play::summary::TeamSummary;
use crate::rules::{
    BoardDisc, GameResult, RemovalReason, Removed, RoundRecord, Rule, Ruleset, ShotVerdict, Twenty,
};
use crate::shot::Outcome;
use glam::DVec2;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The `legal` key of a verdict: a verdict exists only for a legal placement.
fn placement_was_legal(_: &ShotVerdict) -> bool {
    true
}

/// A vector as `[x, y]`.
fn vec2<S: Serializer>(v: &DVec2, s: S) -> Result<S::Ok, S::Error> {
    [v.x, v.y].serialize(s)
}

/// An objective by its name (`expected_score`, ...).
impl Serialize for Objective {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Objective {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Objective, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

#[derive(Serialize)]
#[serde(remote = "crate::rules::Ruleset")]
#[serde(rename_all = "snake_case")]
enum RulesetDef {
    Traditional,
    Tournament,
}

#[derive(Serialize)]
#[serde(remote = "crate::rules::Rule")]
#[serde(rename_all = "snake_case")]
enum RuleDef {
    Opening,
    MustHit,
}

#[derive(Serialize)]
#[serde(remote = "crate::rules::RemovalReason")]
#[serde(rename_all = "snake_case")]
enum RemovalReasonDef {
    Ditch,
    OpeningRule,
    MustHit,
    OnOrBeyondShootingLine,
}

#[derive(Serialize)]
#[serde(remote = "crate::rules::Removed")]
struct RemovedDef {
    pub id: DiscId,
    pub team: u8,
    pub reason: RemovalReason,
}

#[derive(Serialize)]
#[serde(remote = "crate::rules::Twenty")]
struct TwentyDef {
    pub id: DiscId,
    pub team: u8,
}

#[derive(Serialize)]
#[serde(remote = "crate::rules::BoardDisc")]
struct BoardDiscDef {
    pub id: DiscId,
    pub team: u8,
    #[serde(serialize_with = "vec2")]
    pub pos: DVec2,
    pub points: u32,
}

#[derive(Serialize)]
#[serde(remote = "crate::rules::ShotVerdict")]
struct ShotVerdictDef {
    /// Always `true` in the JSON (the contract of `docs/rules.md`): an illegal placement
    /// gets no verdict, it is refused with a `PlacementError` before any physics runs.
    #[serde(getter = "placement_was_legal")]
    pub legal: bool,
    pub ruleset: Ruleset,
    pub seat: u8,
    pub team: u8,
    pub shooter: DiscId,
    pub opponents_on_board: bool,
    pub rule: Rule,
    pub rule_met: bool,
    pub hit_opponent: bool,
    pub struck: Vec<DiscId>,
    pub removed: Vec<Removed>,
    pub twenties: Vec<Twenty>,
    pub board_score: [u32; 2],
    pub position: Vec<BoardDisc>,
}

#[derive(Serialize)]
#[serde(remote = "crate::rules::GameResult")]
#[serde(rename_all = "snake_case")]
enum GameResultDef {
    Won(u8),
    Draw,
}

#[derive(Serialize)]
#[serde(remote = "crate::rules::RoundRecord")]
struct RoundRecordDef {
    pub round: u32,
    pub first_seat: u8,
    pub shots: u32,
    pub twenties: [u32; 2],
    pub board_score: [u32; 2],
    pub totals: [u32; 2],
    pub points: [u32; 2],
    pub score: [u32; 2],
}

#[derive(Serialize)]
#[serde(remote = "crate::rules::ShotRecord")]
struct ShotRecordDef {
    pub round: u32,
    pub shot: u32,
    pub seat: u8,
    pub verdict: ShotVerdict,
    pub discs_left: [u8; 4],
    pub round_end: Option<RoundRecord>,
    pub next_turn: Option<u8>,
    pub result: Option<GameResult>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(remote = "crate::montecarlo::tally::StudySummary")]
struct StudySummaryDef {
    pub samples: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<Stopped>,
    pub seed: u64,
    pub input_hash: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill: Option<String>,
    pub shooter: Classes,
    pub score_change: Distribution,
    pub opponent_hits: Hits,
    pub opponents_moved: Proportion,
    pub cut_off: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shooter_positions: Option<Positions>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(remote = "crate::montecarlo::tally::Proportion")]
struct ProportionDef {
    pub count: u64,
    pub p: f64,
    pub ci95: [f64; 2],
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(remote = "crate::montecarlo::tally::Classes")]
struct ClassesDef {
    pub twenty: Proportion,
    pub fifteen: Proportion,
    pub ten: Proportion,
    pub five: Proportion,
    pub out: Proportion,
    pub ditch: Proportion,
    pub removed: Proportion,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(remote = "crate::montecarlo::tally::Distribution")]
struct DistributionDef {
    pub mean: f64,
    pub std: f64,
    pub min: i64,
    pub max: i64,
    pub quantiles: Quantiles,
    pub histogram: Vec<(i64, u64)>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(remote = "crate::montecarlo::tally::Quantiles")]
struct QuantilesDef {
    pub p05: i64,
    pub p25: i64,
    pub p50: i64,
    pub p75: i64,
    pub p95: i64,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(remote = "crate::montecarlo::tally::Hits")]
struct HitsDef {
    pub mean: f64,
    pub any: Proportion,
    pub histogram: Vec<(u32, u64)>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(remote = "crate::montecarlo::tally::Stopped")]
struct StoppedDef {
    pub requested: u64,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(remote = "crate::montecarlo::tally::Positions")]
struct PositionsDef {
    pub cap: u64,
    pub first: Vec<[f64; 2]>,
    pub class: Vec<ShotClass>,
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "crate::plan::Grid")]
struct GridDef {
    pub offset: f64,
    pub spin: f64,
    pub aim: Vec<f64>,
    pub speed: Vec<f64>,
    pub value: Vec<Vec<Option<f64>>>,
    pub objective: Objective,
    pub samples: u32,
    /// Absent from plans written before it existed: read as no intervals.
    #[serde(default)]
    pub half_width95: Vec<Vec<Option<f64>>>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(remote = "crate::play::run::FlickLog")]
struct FlickLogDef {
    pub offset: f64,
    pub aim: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<[f64; 2]>,
    pub speed: f64,
    pub spin: f64,
}

#[derive(Serialize)]
#[serde(remote = "crate::play::run::StartLog")]
struct StartLogDef {
    pub team: u8,
    pub pos: [f64; 2],
    pub vel: [f64; 2],
    pub spin: f64,
}

#[derive(Serialize)]
#[serde(remote = "crate::play::run::NoiseLog")]
struct NoiseLogDef {
    pub offset: f64,
    pub aim: f64,
    pub speed: f64,
    pub spin: f64,
}

#[derive(Serialize)]
#[serde(remote = "crate::play::run::SeatLog")]
struct SeatLogDef {
    pub seat: u8,
    pub team: u8,
    pub strategy: String,
}

#[derive(Serialize)]
#[serde(remote = "crate::play::run::ShotLog")]
struct ShotLogDef {
    pub round: u32,
    pub shot: u32,
    pub number: u64,
    pub seat: u8,
    pub team: u8,
    pub intended: FlickLog,
    pub value: Option<f64>,
    pub candidates: u32,
    pub executed: FlickLog,
    pub start: StartLog,
    #[serde(serialize_with = "serialize_outcome")]
    pub outcome: Outcome,
    pub verdict: ShotVerdict,
    pub discs_left: [u8; 4],
    pub twenties: [u32; 2],
    pub round_totals: [u32; 2],
    pub score: [u32; 2],
    pub round_end: bool,
    pub next_turn: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<String>,
}

#[derive(Serialize)]
#[serde(remote = "crate::play::run::GameLog")]
struct GameLogDef {
    pub game: u64,
    pub seed: u64,
    pub players: u8,
    pub ruleset: Ruleset,
    pub noise: NoiseLog,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill: Option<&'static str>,
    pub max_rounds: u32,
    pub seats: Vec<SeatLog>,
    pub first_seat: u8,
    pub shots: Vec<ShotLog>,
    pub rounds: Vec<RoundRecord>,
    pub score: [u32; 2],
    pub result: Option<GameResult>,
    pub winner: Option<u8>,
    pub capped: bool,
}

#[derive(Serialize)]
#[serde(remote = "crate::play::summary::TeamSummary")]
struct TeamSummaryDef {
    pub team: u8,
    pub seats: Vec<u8>,
    pub wins: Proportion,
    pub mean_round_points: f64,
    pub mean_round_total: f64,
    pub twenties_per_round: f64,
    pub mean_game_score: f64,
}

#[derive(Serialize)]
#[serde(remote = "crate::play::summary::GamesSummary")]
struct GamesSummaryDef {
    pub games: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<Stopped>,
    pub seed: u64,
    pub players: u8,
    pub ruleset: Ruleset,
    pub noise: NoiseLog,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill: Option<&'static str>,
    pub max_rounds: u32,
    pub seats: Vec<SeatLog>,
    pub teams: Vec<TeamSummary>,
    pub draws: Proportion,
    pub unfinished: u64,
    pub rounds: u64,
    pub mean_rounds_per_game: f64,
    pub shots: u64,
    pub cut_off: u64,
}

/// `impl Serialize for TYPE` through its mirror `DEF` (serde's remote derive), one line
/// per type.
macro_rules! serialize_via {
    ($($ty:ty => $def:ident),+ $(,)?) => {$(
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                $def::serialize(self, s)
            }
        }
    )+};
}

serialize_via! {
    crate::rules::Ruleset => RulesetDef,
    crate::rules::Rule => RuleDef,
    crate::rules::RemovalReason => RemovalReasonDef,
    crate::rules::Removed => RemovedDef,
    crate::rules::Twenty => TwentyDef,
    crate::rules::BoardDisc => BoardDiscDef,
    crate::rules::ShotVerdict => ShotVerdictDef,
    crate::rules::GameResult => GameResultDef,
    crate::rules::RoundRecord => RoundRecordDef,
    crate::rules::ShotRecord => ShotRecordDef,
    crate::montecarlo::tally::StudySummary => StudySummaryDef,
    crate::montecarlo::tally::Proportion => ProportionDef,
    crate::montecarlo::tally::Classes => ClassesDef,
    crate::montecarlo::tally::Distribution => DistributionDef,
    crate::montecarlo::tally::Quantiles => QuantilesDef,
    crate::montecarlo::tally::Hits => HitsDef,
    crate::montecarlo::tally::Positions => PositionsDef,
    crate::montecarlo::tally::Stopped => StoppedDef,
    crate::plan::Grid => GridDef,
    crate::play::run::FlickLog => FlickLogDef,
    crate::play::run::StartLog => StartLogDef,
    crate::play::run::NoiseLog => NoiseLogDef,
    crate::play::run::SeatLog => SeatLogDef,
    crate::play::run::ShotLog => ShotLogDef,
    crate::play::run::GameLog => GameLogDef,
    crate::play::summary::TeamSummary => TeamSummaryDef,
    crate::play::summary::GamesSummary => GamesSummaryDef,
}

/// `impl Deserialize for TYPE` through its mirror `DEF`, one line per type: the readers
/// of the files the crate writes use the same mirrors as their writers, so no schema is
/// declared twice.
macro_rules! deserialize_via {
    ($($ty:ty => $def:ident),+ $(,)?) => {$(
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                $def::deserialize(d)
            }
        }
    )+};
}

deserialize_via! {
    crate::montecarlo::tally::StudySummary => StudySummaryDef,
    crate::montecarlo::tally::Proportion => ProportionDef,
    crate::montecarlo::tally::Classes => ClassesDef,
    crate::montecarlo::tally::Distribution => DistributionDef,
    crate::montecarlo::tally::Quantiles => QuantilesDef,
    crate::montecarlo::tally::Hits => HitsDef,
    crate::montecarlo::tally::Positions => PositionsDef,
    crate::montecarlo::tally::Stopped => StoppedDef,
    crate::plan::Grid => GridDef,
    crate::play::run::FlickLog => FlickLogDef,
}

/// An outcome class by its name (`twenty`, ..., `removed`).
impl Serialize for ShotClass {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for ShotClass {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ShotClass, D::Error> {
        let name = String::deserialize(d)?;
        ShotClass::ALL
            .into_iter()
            .find(|c| c.name() == name)
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "unknown outcome class `{name}`, expected one of twenty, fifteen, ten, \
                     five, out, ditch, removed"
                ))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verdict_still_says_legal_first() {
        use crate::{Board, Flick, Physics};
        let flick = Flick {
            team: 0,
            pos: DVec2::new(0.0, -0.3048),
            vel: DVec2::new(0.0, 0.85),
            spin: 0.0,
        };
        let (board, physics) = (Board::tournament(), Physics::default());
        let v = crate::rules::judge_shot(&board, &physics, &[], 0, 2, Ruleset::Traditional, flick)
            .unwrap();
        let text = serde_json::to_string(&v).unwrap();
        assert!(
            text.starts_with(r#"{"legal":true,"ruleset":"traditional","seat":0,"#),
            "{text}"
        );
    }

    #[test]
    fn rule_sets_serialize_as_their_names() {
        for r in Ruleset::ALL {
            assert_eq!(serde_json::to_string(&r).unwrap(), format!("\"{r}\""));
        }
    }
}
