//! How the library's plain types read and write as JSON: the serde implementations of the
//! table, study, planner and game types, in one place so that no layer below this one
//! depends on serde (see ARCHITECTURE.md, "Layers").
//!
//! Each type is mirrored field for field by a `...Def` declaration (serde's remote
//! derive): the field names, their order and their serde attributes are the JSON
//! contract of `docs/montecarlo.md`, `docs/play.md`, `docs/rules.md` and `docs/suggest.md`.
//! A field added to one of the types must be added to its mirror here (the compiler
//! refuses a mirror whose fields differ from the type's).

use crate::json_form::{ReadJson, ToJson, json};
use crate::serialize_outcome;
use crokinole_core::disc::DiscId;
use crokinole_core::shot::Outcome;
use crokinole_montecarlo::ShotClass;
use crokinole_montecarlo::tally::{
    Classes, Distribution, Hits, Positions, Proportion, Quantiles, Stopped,
};
use crokinole_plan::Objective;
use crokinole_play::run::{FlickLog, NoiseLog, SeatLog, ShotLog, StartLog};
use crokinole_play::summary::{HammerSummary, Mean, TeamSummary};
use crokinole_rules::{
    BoardDisc, GameResult, RemovalReason, Removed, RoundRecord, Rule, Ruleset, ShotVerdict, Twenty,
};
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
impl ToJson for Objective {
    fn to_json<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl ReadJson for Objective {
    fn read_json<'de, D: Deserializer<'de>>(d: D) -> Result<Objective, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

#[derive(Serialize)]
#[serde(remote = "crokinole_rules::Ruleset")]
#[serde(rename_all = "snake_case")]
enum RulesetDef {
    Traditional,
    Tournament,
}

#[derive(Serialize)]
#[serde(remote = "crokinole_rules::Rule")]
#[serde(rename_all = "snake_case")]
enum RuleDef {
    Opening,
    MustHit,
}

#[derive(Serialize)]
#[serde(remote = "crokinole_rules::RemovalReason")]
#[serde(rename_all = "snake_case")]
enum RemovalReasonDef {
    Ditch,
    OpeningRule,
    MustHit,
    OnOrBeyondShootingLine,
}

#[derive(Serialize)]
#[serde(remote = "crokinole_rules::Removed")]
struct RemovedDef {
    pub id: DiscId,
    pub team: u8,
    #[serde(with = "json")]
    pub reason: RemovalReason,
}

#[derive(Serialize)]
#[serde(remote = "crokinole_rules::Twenty")]
struct TwentyDef {
    pub id: DiscId,
    pub team: u8,
}

#[derive(Serialize)]
#[serde(remote = "crokinole_rules::BoardDisc")]
struct BoardDiscDef {
    pub id: DiscId,
    pub team: u8,
    #[serde(serialize_with = "vec2")]
    pub pos: DVec2,
    pub points: u32,
}

#[derive(Serialize)]
#[serde(remote = "crokinole_rules::ShotVerdict")]
struct ShotVerdictDef {
    /// Always `true` in the JSON (the contract of `docs/rules.md`): an illegal placement
    /// gets no verdict, it is refused with a `PlacementError` before any physics runs.
    #[serde(getter = "placement_was_legal")]
    pub legal: bool,
    #[serde(with = "json")]
    pub ruleset: Ruleset,
    pub seat: u8,
    pub team: u8,
    pub shooter: DiscId,
    pub opponents_on_board: bool,
    #[serde(with = "json")]
    pub rule: Rule,
    pub rule_met: bool,
    pub hit_opponent: bool,
    pub struck: Vec<DiscId>,
    #[serde(with = "json")]
    pub removed: Vec<Removed>,
    #[serde(with = "json")]
    pub twenties: Vec<Twenty>,
    pub board_score: [u32; 2],
    #[serde(with = "json")]
    pub position: Vec<BoardDisc>,
}

#[derive(Serialize)]
#[serde(remote = "crokinole_rules::GameResult")]
#[serde(rename_all = "snake_case")]
enum GameResultDef {
    Won(u8),
    Draw,
}

#[derive(Serialize)]
#[serde(remote = "crokinole_rules::RoundRecord")]
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
#[serde(remote = "crokinole_rules::ShotRecord")]
struct ShotRecordDef {
    pub round: u32,
    pub shot: u32,
    pub seat: u8,
    #[serde(with = "json")]
    pub verdict: ShotVerdict,
    pub discs_left: [u8; 4],
    #[serde(with = "json")]
    pub round_end: Option<RoundRecord>,
    pub next_turn: Option<u8>,
    #[serde(with = "json")]
    pub result: Option<GameResult>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(remote = "crokinole_montecarlo::tally::StudySummary")]
struct StudySummaryDef {
    pub samples: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(with = "json")]
    pub stopped: Option<Stopped>,
    pub seed: u64,
    pub input_hash: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill: Option<String>,
    #[serde(with = "json")]
    pub shooter: Classes,
    #[serde(with = "json")]
    pub score_change: Distribution,
    #[serde(with = "json")]
    pub opponent_hits: Hits,
    #[serde(with = "json")]
    pub opponents_moved: Proportion,
    pub cut_off: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(with = "json")]
    pub shooter_positions: Option<Positions>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(remote = "crokinole_montecarlo::tally::Proportion")]
struct ProportionDef {
    pub count: u64,
    pub p: f64,
    pub ci95: [f64; 2],
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(remote = "crokinole_montecarlo::tally::Classes")]
struct ClassesDef {
    #[serde(with = "json")]
    pub twenty: Proportion,
    #[serde(with = "json")]
    pub fifteen: Proportion,
    #[serde(with = "json")]
    pub ten: Proportion,
    #[serde(with = "json")]
    pub five: Proportion,
    #[serde(with = "json")]
    pub out: Proportion,
    #[serde(with = "json")]
    pub ditch: Proportion,
    #[serde(with = "json")]
    pub removed: Proportion,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(remote = "crokinole_montecarlo::tally::Distribution")]
struct DistributionDef {
    pub mean: f64,
    pub std: f64,
    pub min: i64,
    pub max: i64,
    #[serde(with = "json")]
    pub quantiles: Quantiles,
    pub histogram: Vec<(i64, u64)>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(remote = "crokinole_montecarlo::tally::Quantiles")]
struct QuantilesDef {
    pub p05: i64,
    pub p25: i64,
    pub p50: i64,
    pub p75: i64,
    pub p95: i64,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(remote = "crokinole_montecarlo::tally::Hits")]
struct HitsDef {
    pub mean: f64,
    #[serde(with = "json")]
    pub any: Proportion,
    pub histogram: Vec<(u32, u64)>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(remote = "crokinole_montecarlo::tally::Stopped")]
struct StoppedDef {
    pub requested: u64,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(remote = "crokinole_montecarlo::tally::Positions")]
struct PositionsDef {
    pub cap: u64,
    pub first: Vec<[f64; 2]>,
    #[serde(with = "json")]
    pub class: Vec<ShotClass>,
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "crokinole_plan::Grid")]
struct GridDef {
    pub offset: f64,
    pub spin: f64,
    pub aim: Vec<f64>,
    pub speed: Vec<f64>,
    pub value: Vec<Vec<Option<f64>>>,
    #[serde(with = "json")]
    pub objective: Objective,
    pub samples: u32,
    /// Absent from plans written before it existed: read as no intervals.
    #[serde(default)]
    pub half_width95: Vec<Vec<Option<f64>>>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(remote = "crokinole_play::run::FlickLog")]
struct FlickLogDef {
    pub offset: f64,
    pub aim: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<[f64; 2]>,
    pub speed: f64,
    pub spin: f64,
}

#[derive(Serialize)]
#[serde(remote = "crokinole_play::run::StartLog")]
struct StartLogDef {
    pub team: u8,
    pub pos: [f64; 2],
    pub vel: [f64; 2],
    pub spin: f64,
}

#[derive(Serialize)]
#[serde(remote = "crokinole_play::run::NoiseLog")]
struct NoiseLogDef {
    pub offset: f64,
    pub aim: f64,
    pub speed: f64,
    pub spin: f64,
}

#[derive(Serialize)]
#[serde(remote = "crokinole_play::run::SeatLog")]
struct SeatLogDef {
    pub seat: u8,
    pub team: u8,
    pub strategy: String,
}

#[derive(Serialize)]
#[serde(remote = "crokinole_play::run::ShotLog")]
struct ShotLogDef {
    pub round: u32,
    pub shot: u32,
    pub number: u64,
    pub seat: u8,
    pub team: u8,
    #[serde(with = "json")]
    pub intended: FlickLog,
    pub value: Option<f64>,
    pub candidates: u32,
    #[serde(with = "json")]
    pub executed: FlickLog,
    #[serde(with = "json")]
    pub start: StartLog,
    #[serde(serialize_with = "serialize_outcome")]
    pub outcome: Outcome,
    #[serde(with = "json")]
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
#[serde(remote = "crokinole_play::run::GameLog")]
struct GameLogDef {
    pub game: u64,
    pub seed: u64,
    pub players: u8,
    #[serde(with = "json")]
    pub ruleset: Ruleset,
    #[serde(with = "json")]
    pub noise: NoiseLog,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill: Option<&'static str>,
    pub max_rounds: u32,
    #[serde(with = "json")]
    pub seats: Vec<SeatLog>,
    pub first_seat: u8,
    #[serde(with = "json")]
    pub shots: Vec<ShotLog>,
    #[serde(with = "json")]
    pub rounds: Vec<RoundRecord>,
    pub score: [u32; 2],
    #[serde(with = "json")]
    pub result: Option<GameResult>,
    pub winner: Option<u8>,
    pub capped: bool,
}

#[derive(Serialize)]
#[serde(remote = "crokinole_play::summary::TeamSummary")]
struct TeamSummaryDef {
    pub team: u8,
    pub seats: Vec<u8>,
    #[serde(with = "json")]
    pub wins: Proportion,
    pub mean_round_points: f64,
    pub mean_round_total: f64,
    pub twenties_per_round: f64,
    pub mean_game_score: f64,
    #[serde(with = "json")]
    pub twenties_per_player_round: Mean,
    #[serde(with = "json")]
    pub points_per_round: Mean,
    #[serde(with = "json")]
    pub hammer: HammerSummary,
}

#[derive(Serialize)]
#[serde(remote = "crokinole_play::summary::Mean")]
struct MeanDef {
    pub mean: f64,
    pub ci95: Option<[f64; 2]>,
}

#[derive(Serialize)]
#[serde(remote = "crokinole_play::summary::HammerSummary")]
struct HammerSummaryDef {
    pub rounds: u64,
    #[serde(with = "json")]
    pub won: Option<Proportion>,
    #[serde(with = "json")]
    pub tied: Option<Proportion>,
    #[serde(with = "json")]
    pub lost: Option<Proportion>,
}

#[derive(Serialize)]
#[serde(remote = "crokinole_play::summary::GamesSummary")]
struct GamesSummaryDef {
    pub games: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(with = "json")]
    pub stopped: Option<Stopped>,
    pub seed: u64,
    pub players: u8,
    #[serde(with = "json")]
    pub ruleset: Ruleset,
    #[serde(with = "json")]
    pub noise: NoiseLog,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill: Option<&'static str>,
    pub max_rounds: u32,
    #[serde(with = "json")]
    pub seats: Vec<SeatLog>,
    #[serde(with = "json")]
    pub teams: Vec<TeamSummary>,
    #[serde(with = "json")]
    pub draws: Proportion,
    pub unfinished: u64,
    pub rounds: u64,
    pub mean_rounds_per_game: f64,
    pub shots: u64,
    pub cut_off: u64,
    pub player_rounds: u64,
    #[serde(with = "json")]
    pub twenties_per_player_round: Mean,
    pub twenties_histogram: Vec<(u32, u64)>,
    #[serde(with = "json")]
    pub hammer: HammerSummary,
}

/// `impl Serialize for TYPE` through its mirror `DEF` (serde's remote derive), one line
/// per type.
macro_rules! serialize_via {
    ($($ty:ty => $def:ident),+ $(,)?) => {$(
        impl ToJson for $ty {
            fn to_json<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                $def::serialize(self, s)
            }
        }
    )+};
}

serialize_via! {
    crokinole_rules::Ruleset => RulesetDef,
    crokinole_rules::Rule => RuleDef,
    crokinole_rules::RemovalReason => RemovalReasonDef,
    crokinole_rules::Removed => RemovedDef,
    crokinole_rules::Twenty => TwentyDef,
    crokinole_rules::BoardDisc => BoardDiscDef,
    crokinole_rules::ShotVerdict => ShotVerdictDef,
    crokinole_rules::GameResult => GameResultDef,
    crokinole_rules::RoundRecord => RoundRecordDef,
    crokinole_rules::ShotRecord => ShotRecordDef,
    crokinole_montecarlo::tally::StudySummary => StudySummaryDef,
    crokinole_montecarlo::tally::Proportion => ProportionDef,
    crokinole_montecarlo::tally::Classes => ClassesDef,
    crokinole_montecarlo::tally::Distribution => DistributionDef,
    crokinole_montecarlo::tally::Quantiles => QuantilesDef,
    crokinole_montecarlo::tally::Hits => HitsDef,
    crokinole_montecarlo::tally::Positions => PositionsDef,
    crokinole_montecarlo::tally::Stopped => StoppedDef,
    crokinole_plan::Grid => GridDef,
    crokinole_play::run::FlickLog => FlickLogDef,
    crokinole_play::run::StartLog => StartLogDef,
    crokinole_play::run::NoiseLog => NoiseLogDef,
    crokinole_play::run::SeatLog => SeatLogDef,
    crokinole_play::run::ShotLog => ShotLogDef,
    crokinole_play::run::GameLog => GameLogDef,
    crokinole_play::summary::TeamSummary => TeamSummaryDef,
    crokinole_play::summary::GamesSummary => GamesSummaryDef,
    crokinole_play::summary::Mean => MeanDef,
    crokinole_play::summary::HammerSummary => HammerSummaryDef,
}

/// `impl Deserialize for TYPE` through its mirror `DEF`, one line per type: the readers
/// of the files the crate writes use the same mirrors as their writers, so no schema is
/// declared twice.
macro_rules! deserialize_via {
    ($($ty:ty => $def:ident),+ $(,)?) => {$(
        impl ReadJson for $ty {
            fn read_json<'de, D: Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                $def::deserialize(d)
            }
        }
    )+};
}

deserialize_via! {
    crokinole_montecarlo::tally::StudySummary => StudySummaryDef,
    crokinole_montecarlo::tally::Proportion => ProportionDef,
    crokinole_montecarlo::tally::Classes => ClassesDef,
    crokinole_montecarlo::tally::Distribution => DistributionDef,
    crokinole_montecarlo::tally::Quantiles => QuantilesDef,
    crokinole_montecarlo::tally::Hits => HitsDef,
    crokinole_montecarlo::tally::Positions => PositionsDef,
    crokinole_montecarlo::tally::Stopped => StoppedDef,
    crokinole_plan::Grid => GridDef,
    crokinole_play::run::FlickLog => FlickLogDef,
}

/// An outcome class by its name (`twenty`, ..., `removed`).
impl ToJson for ShotClass {
    fn to_json<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl ReadJson for ShotClass {
    fn read_json<'de, D: Deserializer<'de>>(d: D) -> Result<ShotClass, D::Error> {
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
    use crate::Json;

    #[test]
    fn a_verdict_still_says_legal_first() {
        use crokinole_core::{Board, Flick, Physics};
        let flick = Flick {
            team: 0,
            pos: DVec2::new(0.0, -0.3048),
            vel: DVec2::new(0.0, 0.85),
            spin: 0.0,
        };
        let (board, physics) = (Board::tournament(), Physics::default());
        let v =
            crokinole_rules::judge_shot(&board, &physics, &[], 0, 2, Ruleset::Traditional, flick)
                .unwrap();
        let text = serde_json::to_string(&Json(&v)).unwrap();
        assert!(
            text.starts_with(r#"{"legal":true,"ruleset":"traditional","seat":0,"#),
            "{text}"
        );
    }

    #[test]
    fn rule_sets_serialize_as_their_names() {
        for r in Ruleset::ALL {
            assert_eq!(
                serde_json::to_string(&Json(&r)).unwrap(),
                format!("\"{r}\"")
            );
        }
    }
}
