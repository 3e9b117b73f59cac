//! The JSON of the planner (`docs/suggest.md`): the suggest file read into a [`Request`]
//! (a [`Situation`](crokinole_montecarlo::Situation), the rule set and the search space),
//! and the [`Plan`] written out.
//!
//! The suggest file is a study file (`docs/montecarlo.md`) without the `flick`, with a
//! `ruleset` and an optional `search` block. Its situation keys (`board`, `physics`,
//! `players`, `seat`, `discs`, `noise`, `description`) are read by the study file's own
//! reader (`crates/io/src/situation.rs`); conventions are the shot file's: unknown keys and
//! `null` refused, structures only as objects, errors naming the field
//! (`search.speed[1]`, `ruleset`) with the line and column of JSON errors.

use crate::format::{Style, to_json};
use crate::situation::{from_json, read_situation, situation_file};
use crate::strict::{Obj, present};
use crokinole_core::error::InputError;
use crokinole_montecarlo::ShotClass;
use crokinole_montecarlo::flick::PlayerFlick;
use crokinole_montecarlo::tally::Proportion;
use crokinole_plan::space::GridSpec;
use crokinole_plan::{AimAt, Budget, Estimate, Grid, Objective, Plan, Request, Stage, Suggestion};
use crokinole_play::run::FlickLog;
use crokinole_rules::Ruleset;
use glam::DVec2;
use serde::{Deserialize, Serialize};

situation_file! {
    /// The suggest file: the situation, the rule set and the search space.
    #[serde(deny_unknown_fields, expecting = "a suggest file object")]
    struct SuggestFileJson<'a> {
        #[serde(default, deserialize_with = "present")]
        ruleset: Option<String>,
        #[serde(default, deserialize_with = "present")]
        search: Option<Obj<SearchJson>>,
    }
    own SuggestOwn;
}

/// The `search` block; every key optional.
#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a search object {offset, aim, speed, spin, targets, grid}"
)]
struct SearchJson {
    #[serde(default, deserialize_with = "present")]
    offset: Option<[f64; 2]>,
    #[serde(default, deserialize_with = "present")]
    aim: Option<[f64; 2]>,
    #[serde(default, deserialize_with = "present")]
    speed: Option<[f64; 2]>,
    #[serde(default, deserialize_with = "present")]
    spin: Option<Vec<f64>>,
    #[serde(default, deserialize_with = "present")]
    targets: Option<bool>,
    #[serde(default, deserialize_with = "present")]
    grid: Option<Obj<GridJson>>,
}

/// The `search.grid` block.
#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a grid object {offset, aims, speeds}"
)]
struct GridJson {
    #[serde(default, deserialize_with = "present")]
    offset: Option<f64>,
    #[serde(default, deserialize_with = "present")]
    aims: Option<u32>,
    #[serde(default, deserialize_with = "present")]
    speeds: Option<u32>,
}

/// Parses and checks a suggest file: the JSON, the situation as in a study file, the
/// `ruleset` (`traditional`, the default, or `tournament`) and the `search` block
/// ([`Space::check`](crokinole_plan::Space::check), defaults from
/// [`Space::default_for`](crokinole_plan::Space::default_for)). The table, position and noise
/// are checked as [`suggest`](crokinole_plan::suggest) checks them ([`Request::setup`]), so a
/// file that parses can be planned.
pub fn parse_suggest_file(text: &str) -> Result<Request, InputError> {
    let Obj(file): Obj<SuggestFileJson> = from_json(text)?;
    let (situation, own) = file.situation_json();
    let situation = read_situation(text, situation)?;
    let ruleset = match own.ruleset {
        None => Ruleset::Traditional,
        Some(name) => name
            .parse::<Ruleset>()
            .map_err(|e| InputError::new("ruleset", e))?,
    };
    let mut request = Request::new(situation, ruleset);
    let space = &mut request.space;
    if let Some(Obj(j)) = own.search {
        space.offset = j.offset.unwrap_or(space.offset);
        space.aim = j.aim.unwrap_or(space.aim);
        space.speed = j.speed.unwrap_or(space.speed);
        if let Some(spin) = j.spin {
            space.spin = spin;
        }
        space.targets = j.targets.unwrap_or(space.targets);
        if let Some(Obj(g)) = j.grid {
            space.grid = GridSpec {
                offset: g.offset.or(space.grid.offset),
                aims: g.aims.unwrap_or(space.grid.aims),
                speeds: g.speeds.unwrap_or(space.grid.speeds),
            };
        }
    }
    request.setup()?;
    Ok(request)
}

/// What a flick aims at, in the output.
#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum AimAtOut {
    Straight,
    Hole,
    Disc { id: usize, team: u8 },
    Point { pos: [f64; 2] },
}

impl From<AimAt> for AimAtOut {
    fn from(a: AimAt) -> AimAtOut {
        match a {
            AimAt::Straight => AimAtOut::Straight,
            AimAt::Hole => AimAtOut::Hole,
            AimAt::Disc { id, team } => AimAtOut::Disc { id, team },
            AimAt::Point { pos } => AimAtOut::Point {
                pos: pos.to_array(),
            },
        }
    }
}

impl From<AimAtOut> for AimAt {
    fn from(a: AimAtOut) -> AimAt {
        match a {
            AimAtOut::Straight => AimAt::Straight,
            AimAtOut::Hole => AimAt::Hole,
            AimAtOut::Disc { id, team } => AimAt::Disc { id, team },
            AimAtOut::Point { pos } => AimAt::Point {
                pos: DVec2::from(pos),
            },
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct EstimateOut {
    mean: f64,
    std: f64,
    ci95: [f64; 2],
}

impl From<Estimate> for EstimateOut {
    fn from(e: Estimate) -> EstimateOut {
        EstimateOut {
            mean: e.mean,
            std: e.std,
            ci95: e.ci95,
        }
    }
}

impl From<EstimateOut> for Estimate {
    fn from(e: EstimateOut) -> Estimate {
        Estimate {
            mean: e.mean,
            std: e.std,
            ci95: e.ci95,
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ShotClassCountsOut {
    #[serde(with = "crate::json_form::json")]
    twenty: Proportion,
    #[serde(with = "crate::json_form::json")]
    fifteen: Proportion,
    #[serde(with = "crate::json_form::json")]
    ten: Proportion,
    #[serde(with = "crate::json_form::json")]
    five: Proportion,
    #[serde(with = "crate::json_form::json")]
    out: Proportion,
    #[serde(with = "crate::json_form::json")]
    ditch: Proportion,
    #[serde(with = "crate::json_form::json")]
    removed: Proportion,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SuggestionOut {
    rank: usize,
    #[serde(with = "crate::json_form::json")]
    flick: FlickLog,
    aim_at: AimAtOut,
    samples: u64,
    value: EstimateOut,
    score_change: EstimateOut,
    classes: ShotClassCountsOut,
    #[serde(with = "crate::json_form::json")]
    hit_opponent: Proportion,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BudgetOut {
    samples: u64,
    seconds: Option<f64>,
    /// Present (`true`) only when a time budget ran out and stages were skipped.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    time_up: bool,
    /// Present (`true`) only when the search was stopped (Ctrl-C, a server's time
    /// budget): `top` is then the best so far, with no final evaluation.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    stopped: bool,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StageOut {
    stage: String,
    candidates: usize,
    samples: u32,
}

/// The plan file: written by [`plan_json`], read back by [`parse_plan`] (one field list
/// for both).
#[derive(Serialize, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a plan object (`crokinole suggest` output)"
)]
struct PlanOut {
    #[serde(with = "crate::json_form::json")]
    objective: Objective,
    seed: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    skill: Option<String>,
    budget: BudgetOut,
    samples_used: u64,
    stages: Vec<StageOut>,
    top: Vec<SuggestionOut>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(with = "crate::json_form::json")]
    grid: Option<Grid>,
}

/// The plan as printed by `crokinole suggest`: the top object one key a line, each
/// suggested flick and each stage on a line of its own, the grid on one line; a trailing
/// newline. The bytes depend on the plan only.
pub fn plan_json(plan: &Plan) -> String {
    let out = PlanOut {
        objective: plan.objective,
        seed: plan.seed,
        skill: plan.skill.clone(),
        budget: BudgetOut {
            samples: plan.budget_samples,
            seconds: match plan.budget {
                Budget::Seconds(t) => Some(t),
                Budget::Samples(_) => None,
            },
            time_up: plan.time_up,
            stopped: plan.stopped,
        },
        samples_used: plan.samples_used,
        stages: plan
            .stages
            .iter()
            .map(|s| StageOut {
                stage: s.name.clone(),
                candidates: s.candidates,
                samples: s.samples,
            })
            .collect(),
        top: plan
            .top
            .iter()
            .map(|s| {
                let f = |fate: ShotClass| s.fates[fate as usize];
                SuggestionOut {
                    rank: s.rank,
                    flick: s.flick.into(),
                    aim_at: s.aim_at.into(),
                    samples: s.samples,
                    value: s.value.into(),
                    score_change: s.score_change.into(),
                    classes: ShotClassCountsOut {
                        twenty: f(ShotClass::Twenty),
                        fifteen: f(ShotClass::Fifteen),
                        ten: f(ShotClass::Ten),
                        five: f(ShotClass::Five),
                        out: f(ShotClass::Out),
                        ditch: f(ShotClass::Ditch),
                        removed: f(ShotClass::Removed),
                    },
                    hit_opponent: s.hit_opponent,
                }
            })
            .collect(),
        grid: plan.grid.clone(),
    };
    to_json(&out, Style::ROWS)
}

/// Checks that a grid axis is not empty and strictly ascending.
fn check_axis(name: &str, v: &[f64]) -> Result<(), InputError> {
    if v.is_empty() {
        return Err(InputError::new(format!("grid.{name}"), "must not be empty"));
    }
    for k in 1..v.len() {
        if v[k] <= v[k - 1] {
            return Err(InputError::new(
                format!("grid.{name}[{k}]"),
                format!("must be ascending: {} follows {}", v[k], v[k - 1]),
            ));
        }
    }
    Ok(())
}

/// Checks a plan's grid: both axes non-empty and strictly ascending, `value` (and
/// `half_width95`, when present) one row per speed of one entry per aim.
fn check_grid(g: &Grid) -> Result<(), InputError> {
    check_axis("aim", &g.aim)?;
    check_axis("speed", &g.speed)?;
    if g.value.len() != g.speed.len() {
        return Err(InputError::new(
            "grid.value",
            format!(
                "needs one row per speed ({}), got {}",
                g.speed.len(),
                g.value.len()
            ),
        ));
    }
    if !g.half_width95.is_empty() {
        if g.half_width95.len() != g.speed.len() {
            return Err(InputError::new(
                "grid.half_width95",
                format!(
                    "needs one row per speed ({}), got {}",
                    g.speed.len(),
                    g.half_width95.len()
                ),
            ));
        }
        for (k, row) in g.half_width95.iter().enumerate() {
            if row.len() != g.aim.len() {
                return Err(InputError::new(
                    format!("grid.half_width95[{k}]"),
                    format!(
                        "needs one value per aim ({}), got {}",
                        g.aim.len(),
                        row.len()
                    ),
                ));
            }
        }
    }
    for (k, row) in g.value.iter().enumerate() {
        if row.len() != g.aim.len() {
            return Err(InputError::new(
                format!("grid.value[{k}]"),
                format!(
                    "needs one value per aim ({}), got {}",
                    g.aim.len(),
                    row.len()
                ),
            ));
        }
    }
    Ok(())
}

/// Reads a plan (`crokinole suggest` output) back into a [`Plan`], through the field list
/// [`plan_json`] writes: unknown keys and `null` refused, errors naming the field
/// (`top[0].flick.speed`, `grid.value[2]`) and the line and column. Checks the grid
/// (`check_grid`) and that the flicks are ranked 1, 2, ... in order.
pub fn parse_plan(text: &str) -> Result<Plan, InputError> {
    let p: PlanOut = from_json(text)?;
    if let Some(g) = &p.grid {
        check_grid(g)?;
    }
    for (k, s) in p.top.iter().enumerate() {
        if s.rank != k + 1 {
            return Err(InputError::new(
                format!("top[{k}].rank"),
                format!("expected rank {}, got {}", k + 1, s.rank),
            ));
        }
    }
    let budget = match p.budget.seconds {
        Some(t) => Budget::Seconds(t),
        None => Budget::Samples(p.budget.samples),
    };
    Ok(Plan {
        objective: p.objective,
        seed: p.seed,
        skill: p.skill,
        budget,
        budget_samples: p.budget.samples,
        samples_used: p.samples_used,
        time_up: p.budget.time_up,
        stopped: p.budget.stopped,
        stages: p
            .stages
            .into_iter()
            .map(|s| Stage {
                name: s.stage,
                candidates: s.candidates,
                samples: s.samples,
            })
            .collect(),
        top: p
            .top
            .into_iter()
            .map(|s| {
                let c = s.classes;
                Suggestion {
                    rank: s.rank,
                    flick: PlayerFlick {
                        offset: s.flick.offset,
                        aim: s.flick.aim,
                        target: s.flick.target.map(DVec2::from),
                        speed: s.flick.speed,
                        spin: s.flick.spin,
                    },
                    aim_at: s.aim_at.into(),
                    samples: s.samples,
                    value: s.value.into(),
                    score_change: s.score_change.into(),
                    fates: [
                        c.twenty, c.fifteen, c.ten, c.five, c.out, c.ditch, c.removed,
                    ],
                    hit_opponent: s.hit_opponent,
                }
            })
            .collect(),
        grid: p.grid,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggest_errors_name_the_field() {
        let err = |text: &str| parse_suggest_file(text).unwrap_err();
        assert_eq!(err(r#"{"seat": 0, "ruleset": "nca"}"#).field, "ruleset");
        assert_eq!(err(r#"{"seat": 0, "flick": {"speed": 1}}"#).field, "flick");
        assert_eq!(err(r#"{"seat": 1}"#).field, "seat");
        let e = err(r#"{"seat": 0, "search": {"speed": [1, null]}}"#);
        assert_eq!(e.field, "search.speed[1]");
        let e = err(r#"{"seat": 0, "search": {"speed": [2, 1]}}"#);
        assert_eq!(e.field, "search.speed");
        let e = err(r#"{"seat": 0, "search": {"grid": {"aims": 0}}}"#);
        assert_eq!(e.field, "search.grid.aims");
        let e = err(r#"{"seat": 0, "noise": {"aim": -1}}"#);
        assert_eq!(e.field, "noise.aim");
        let e = err("{\"seat\": 0,\n \"board\": {\"hole_radiu\": 1}}");
        assert_eq!(e.field, "board.hole_radiu");
        assert!(e.problem.contains("line 2"), "{e}");
    }

    #[test]
    fn defaults_fill_the_search_space() {
        let r = parse_suggest_file(r#"{"seat": 2, "search": {"spin": [0, 3]}}"#).unwrap();
        let d = crokinole_plan::Space::default_for(&r.situation.board, &r.situation.physics);
        assert_eq!(r.space.spin, vec![0.0, 3.0]);
        assert_eq!(r.space.speed, d.speed);
        assert_eq!(r.ruleset, Ruleset::Traditional);
        assert_eq!(r.situation.seat, 2);
    }
}
