//! Golden outcomes: what every shot of the bundled fixtures does, written out in readable
//! files (`fixtures/golden-outcomes/`), must not change unless the physics is meant to
//! change. Any change to the model, a coefficient, the event order or the float formatting
//! shows up here first, as a diff of the shots it moved.
//!
//! A golden file holds, per shot, a line `shot K: steps N, time T` (and the cut-off, if
//! any), then one line per event and one per disc that moved or left the board, each the
//! outcome file's own JSON text (docs/shot-file.md), numbers as written there (the
//! shortest form that reads back to the same double: exact), then `unmoved` with the ids
//! of the discs left exactly where they were placed (every bit of their position). With
//! the shot file, that is every byte of the outcome.

use crate::golden_file;

use crokinole::io::{outcomes_to_string, parse_shot_file};
use crokinole::shot::run_shot;
use crokinole::{DiscState, Outcome, Shot};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::fmt::Write;
use std::path::Path;

/// The outcome file, each member's text as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile<'a> {
    #[serde(borrow)]
    outcomes: Vec<RawOutcome<'a>>,
}

/// One outcome of the outcome file, each member's text as written (a key this does not
/// know fails the test: the golden format must then learn it).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOutcome<'a> {
    #[serde(borrow)]
    discs: Vec<&'a RawValue>,
    #[serde(borrow)]
    events: Vec<&'a RawValue>,
    #[serde(borrow)]
    steps: &'a RawValue,
    #[serde(borrow)]
    time: &'a RawValue,
    #[serde(borrow, default)]
    cut_off: Option<&'a RawValue>,
    #[serde(borrow, default)]
    limit: Option<&'a RawValue>,
    #[serde(borrow, default)]
    capped_steps: Option<&'a RawValue>,
}

/// The golden text of the shots of `fixture` (see the module's documentation).
fn golden_text(fixture: &str) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let text = std::fs::read_to_string(dir.join(fixture)).unwrap();
    let (board, physics, entries) = parse_shot_file(&text).unwrap();
    let shots: Vec<Shot> = entries.into_iter().map(|e| e.shot).collect();
    let outcomes: Vec<Outcome> = shots
        .iter()
        .map(|s| run_shot(&board, &physics, s).unwrap())
        .collect();
    let file = outcomes_to_string(&outcomes);
    let raw: RawFile = serde_json::from_str(&file).unwrap();
    assert_eq!(raw.outcomes.len(), shots.len());
    let mut out = format!(
        "# The outcomes of fixtures/{fixture}, checked by tests/suite/golden.rs (the format is\n\
         # in its documentation). Regenerate: UPDATE_GOLDEN=1 cargo test --profile ci --test suite golden::\n"
    );
    for (k, ((shot, outcome), raw)) in shots.iter().zip(&outcomes).zip(&raw.outcomes).enumerate() {
        write!(out, "shot {k}: steps {}, time {}", raw.steps, raw.time).unwrap();
        for (key, value) in [
            ("cut_off", raw.cut_off),
            ("limit", raw.limit),
            ("capped_steps", raw.capped_steps),
        ] {
            if let Some(v) = value {
                write!(out, ", {key} {v}").unwrap();
            }
        }
        out.push('\n');
        for e in &raw.events {
            writeln!(out, "  event {e}").unwrap();
        }
        let start = shot
            .discs
            .iter()
            .map(|p| p.pos)
            .chain([shot.shooter.pos])
            .collect::<Vec<_>>();
        assert_eq!(outcome.discs.len(), start.len());
        assert_eq!(raw.discs.len(), start.len());
        let mut unmoved = Vec::new();
        for (id, (d, raw)) in outcome.discs.iter().zip(&raw.discs).enumerate() {
            let placed = d.state == DiscState::Rest
                && d.pos.x.to_bits() == start[id].x.to_bits()
                && d.pos.y.to_bits() == start[id].y.to_bits();
            if placed {
                unmoved.push(id.to_string());
            } else {
                writeln!(out, "  disc {id} {raw}").unwrap();
            }
        }
        if !unmoved.is_empty() {
            writeln!(out, "  unmoved {}", unmoved.join(" ")).unwrap();
        }
    }
    out
}

/// The outcomes of `example.json`, `opening.json` and `crowded.json` are those recorded
/// in `fixtures/golden-outcomes/`.
#[test]
fn outcomes_match_the_golden_files() {
    for fixture in ["example.json", "opening.json", "crowded.json"] {
        let name = fixture.trim_end_matches(".json");
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/golden-outcomes")
            .join(format!("{name}.txt"));
        golden_file::check(
            &path,
            &golden_text(fixture),
            &format!("The simulated outcomes of fixtures/{fixture}"),
            "golden",
            "the physics",
        );
    }
}
