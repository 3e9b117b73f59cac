//! Which of the project's JSON files a text looks like, from its top-level keys, so that a
//! file given to the wrong command is refused with a message that says what it is and
//! which command reads it, not only the parser's complaint about its first unknown key.

use serde_json::{Map, Value};

/// The kinds of JSON file the CLI reads or writes (docs/README.md lists their formats).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// Shots to simulate (`shots`): `crokinole simulate`, `crokinole render shot`.
    Shots,
    /// What `crokinole simulate` wrote (`outcomes`).
    Outcomes,
    /// A position, a seat and a flick (`flick`): `crokinole montecarlo`, `crokinole flick`.
    Study,
    /// A position and a seat without a flick: `crokinole suggest`, `crokinole flick`.
    Suggest,
    /// A Monte Carlo summary (`input_hash`, `shooter`): `crokinole render montecarlo`.
    Summary,
    /// A Monte Carlo shard state (`format`, `range`): `crokinole merge`.
    State,
    /// A planner's output (`top`, `stages`): `crokinole render suggest`.
    Plan,
    /// One game's log (`first_seat`, `shots`, `rounds`): `crokinole play --games 1`.
    GameLog,
    /// Many games' summary (`games`, `teams`): `crokinole play --games N`.
    GamesSummary,
    /// Tracked shots (`shots` whose first shot has `tracks`): `crokinole fit`.
    Tracks,
}

impl FileKind {
    /// The kind `text` looks like, if it is a JSON object with a recognisable shape.
    pub fn sniff(text: &str) -> Option<FileKind> {
        let value: Value = serde_json::from_str(text).ok()?;
        let keys = value.as_object()?;
        let has = |k: &str| keys.contains_key(k);
        Some(if has("format") && has("range") {
            FileKind::State
        } else if has("input_hash") && has("shooter") {
            FileKind::Summary
        } else if has("top") && has("stages") {
            FileKind::Plan
        } else if has("first_seat") && has("rounds") {
            FileKind::GameLog
        } else if has("games") && has("teams") {
            FileKind::GamesSummary
        } else if has("outcomes") {
            FileKind::Outcomes
        } else if has("shots") && first_shot_has_tracks(keys) {
            FileKind::Tracks
        } else if has("shots") {
            FileKind::Shots
        } else if has("flick") {
            FileKind::Study
        } else if has("seat") && !has_shot_keys(keys) {
            FileKind::Suggest
        } else {
            return None;
        })
    }

    /// What the kind is and which command reads it, for an error message.
    pub fn describe(self) -> &'static str {
        match self {
            FileKind::Shots => {
                "a shot file (read by `crokinole simulate` and `crokinole render shot`)"
            }
            FileKind::Outcomes => "an outcome file (written by `crokinole simulate`)",
            FileKind::Study => {
                "a study file (read by `crokinole montecarlo`; `crokinole flick FILE` simulates and draws its intended flick)"
            }
            FileKind::Suggest => {
                "a suggest file (read by `crokinole suggest`; `crokinole flick FILE --plan PLAN` simulates and draws the planner's flick)"
            }
            FileKind::Summary => {
                "a Monte Carlo summary (written by `crokinole montecarlo`, read by `crokinole render montecarlo`)"
            }
            FileKind::State => {
                "a Monte Carlo shard state (written by `crokinole montecarlo --shard`, read by `crokinole merge`)"
            }
            FileKind::Plan => {
                "a plan (written by `crokinole suggest`, read by `crokinole render suggest` and `crokinole flick SUGGEST_FILE --plan PLAN`)"
            }
            FileKind::GameLog => "a game log (written by `crokinole play --games 1`)",
            FileKind::GamesSummary => "a games summary (written by `crokinole play`)",
            FileKind::Tracks => "a tracks file (read by `crokinole fit`)",
        }
    }
}

/// Whether the object's first shot has `tracks` (a tracks file, not a shot file).
fn first_shot_has_tracks(keys: &Map<String, Value>) -> bool {
    keys.get("shots")
        .and_then(Value::as_array)
        .and_then(|shots| shots.first())
        .and_then(Value::as_object)
        .is_some_and(|shot| shot.contains_key("tracks"))
}

/// Whether the object has the keys of a single shot (a shot file's entry given alone).
fn has_shot_keys(keys: &Map<String, Value>) -> bool {
    keys.contains_key("shooter")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_is_told_by_its_keys() {
        let cases = [
            (r#"{"shots": []}"#, Some(FileKind::Shots)),
            (r#"{"outcomes": []}"#, Some(FileKind::Outcomes)),
            (r#"{"seat": 0, "flick": {}}"#, Some(FileKind::Study)),
            (r#"{"seat": 0, "discs": []}"#, Some(FileKind::Suggest)),
            (
                r#"{"input_hash": "x", "shooter": {}}"#,
                Some(FileKind::Summary),
            ),
            (r#"{"format": "x", "range": [0, 1]}"#, Some(FileKind::State)),
            (r#"{"top": [], "stages": []}"#, Some(FileKind::Plan)),
            (
                r#"{"first_seat": 0, "shots": [], "rounds": []}"#,
                Some(FileKind::GameLog),
            ),
            (r#"{"games": 2, "teams": []}"#, Some(FileKind::GamesSummary)),
            (r#"{"shots": [{"tracks": []}]}"#, Some(FileKind::Tracks)),
            (r#"{"seat": 0, "shooter": {}}"#, None),
            (r#"[1, 2]"#, None),
            (r#"{"shots": "#, None),
        ];
        for (text, kind) in cases {
            assert_eq!(FileKind::sniff(text), kind, "{text}");
        }
    }
}
