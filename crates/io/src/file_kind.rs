//! Which of the project's JSON files a text looks like, from its top-level keys, so that a
//! file given to the wrong command is refused with a message that says what it is and
//! which command reads it, not only the parser's complaint about its first unknown key.
//!
//! The keys are read by a scanner that builds nothing but their names: it skips every
//! value, however large, in constant memory, and [`FileKind::sniff_start`] tells a kind
//! from a file's first bytes alone, so a huge file given to the wrong command is told
//! without reading it whole.

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
    /// Match records in Crokinole Match Notation (`cmn`): `crokinole stats`.
    Cmn,
}

impl FileKind {
    /// The kind `text` looks like, if it is a whole JSON object with a recognisable shape
    /// (its top-level keys).
    pub fn sniff(text: &str) -> Option<FileKind> {
        let keys = top_keys(text.as_bytes())?;
        if !keys.complete {
            return None;
        }
        Self::of_keys(&keys)
    }

    /// The kind the file that begins with `start` looks like (its first bytes: a prefix of
    /// any length), from the top-level keys the prefix shows; `None` if they do not tell.
    /// With the whole text it is [`FileKind::sniff`].
    pub fn sniff_start(start: &[u8]) -> Option<FileKind> {
        let keys = top_keys(start)?;
        if keys.complete {
            return Self::of_keys(&keys);
        }
        // The object goes on past the prefix: a key seen is certain, an absent one is not,
        // so only a key that belongs to one kind (or a pair that does) decides.
        let has = |k: &str| keys.names.iter().any(|n| n == k);
        Some(if has("cmn") {
            FileKind::Cmn
        } else if has("format") && has("range") || has("positions_cap") {
            FileKind::State
        } else if has("input_hash") {
            FileKind::Summary
        } else if has("top") || has("stages") {
            FileKind::Plan
        } else if has("first_seat") || has("rounds") {
            FileKind::GameLog
        } else if has("outcomes") {
            FileKind::Outcomes
        } else if keys.first_shot_tracks {
            FileKind::Tracks
        } else if has("shots") && !has("first_seat") && keys.first_shot_known {
            // A game log also has `shots`, but writes `first_seat` before them; a tracks
            // file's first shot has `tracks`, told once that shot has been read.
            FileKind::Shots
        } else if has("flick") {
            FileKind::Study
        } else {
            return None;
        })
    }

    /// The kind of a whole object with the top-level keys `keys`.
    fn of_keys(keys: &TopKeys) -> Option<FileKind> {
        let has = |k: &str| keys.names.iter().any(|n| n == k);
        Some(if has("cmn") {
            FileKind::Cmn
        } else if has("format") && has("range") {
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
        } else if keys.first_shot_tracks {
            FileKind::Tracks
        } else if has("shots") {
            FileKind::Shots
        } else if has("flick") {
            FileKind::Study
        } else if has("seat") && !has("shooter") {
            // Not a single shot of a shot file given alone (it has a `shooter`).
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
            FileKind::Cmn => {
                "match records in Crokinole Match Notation (read by `crokinole stats`, written by `crokinole play --cmn` and `tournament --cmn`)"
            }
        }
    }
}

/// The top-level keys of a JSON object, as far as the text goes.
struct TopKeys {
    names: Vec<String>,
    /// The first element of the top-level `shots` array is an object with a `tracks` key
    /// (a tracks file: a shot file's shots have none).
    first_shot_tracks: bool,
    /// Whether the first shot was scanned to its end (or is not an object, or there is
    /// none), so that `first_shot_tracks` is final.
    first_shot_known: bool,
    /// The object's closing brace was seen.
    complete: bool,
}

/// Longest key kept by [`top_keys`]: the kinds' keys are short, and a huge key must not
/// cost memory.
const MAX_KEY: usize = 64;

/// Where the scan is with respect to the first shot of a top-level `shots` array.
#[derive(Clone, Copy, PartialEq, Eq)]
enum FirstShot {
    /// Not in the `shots` array (or past its first element).
    Outside,
    /// In the `shots` array, before its first element.
    Before,
    /// In the first element, an object (depth 3).
    Inside,
}

/// The top-level keys of the object `text` begins with (`None` if it does not begin with
/// `{`), and whether the first shot of its `shots` array has `tracks`, scanning strings
/// and skipping nested values without building them. It checks the nesting, not the
/// grammar: it only has to tell kinds apart.
fn top_keys(text: &[u8]) -> Option<TopKeys> {
    let mut bytes = text.iter().copied().skip_while(u8::is_ascii_whitespace);
    if bytes.next()? != b'{' {
        return None;
    }
    let mut names: Vec<String> = Vec::new();
    let (mut depth, mut expect_key) = (1usize, true);
    let (mut in_string, mut escaped) = (false, false);
    let mut key: Option<Vec<u8>> = None;
    // The first shot's keys: depth 3, inside the first element of `shots`.
    let (mut first, mut expect_inner_key, mut inner_key) =
        (FirstShot::Outside, false, None::<Vec<u8>>);
    let (mut first_shot_tracks, mut first_shot_known) = (false, false);
    for b in bytes {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
                if let Some(k) = key.take() {
                    names.push(String::from_utf8_lossy(&k).into_owned());
                }
                if let Some(k) = inner_key.take() {
                    first_shot_tracks |= k == b"tracks";
                }
                continue;
            }
            for k in [&mut key, &mut inner_key].into_iter().flatten() {
                if k.len() < MAX_KEY {
                    k.push(b);
                }
            }
            continue;
        }
        match b {
            b'"' => {
                in_string = true;
                if depth == 1 && expect_key {
                    key = Some(Vec::new());
                } else if depth == 3 && first == FirstShot::Inside && expect_inner_key {
                    inner_key = Some(Vec::new());
                } else if depth == 2 && first == FirstShot::Before {
                    // The first element is not an object.
                    first = FirstShot::Outside;
                    first_shot_known = true;
                }
            }
            b'{' | b'[' => {
                depth += 1;
                if depth == 2 && b == b'[' && names.last().is_some_and(|n| n == "shots") {
                    first = FirstShot::Before;
                } else if depth == 3 && first == FirstShot::Before {
                    first = if b == b'{' {
                        expect_inner_key = true;
                        FirstShot::Inside
                    } else {
                        first_shot_known = true;
                        FirstShot::Outside
                    };
                }
            }
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(TopKeys {
                        names,
                        first_shot_tracks,
                        first_shot_known: true,
                        complete: true,
                    });
                }
                if depth < 3 && first != FirstShot::Outside {
                    // The first element (or an empty array) ended: only the first shot counts.
                    first = FirstShot::Outside;
                    first_shot_known = true;
                }
            }
            b':' if depth == 1 => expect_key = false,
            b',' if depth == 1 => expect_key = true,
            b':' if depth == 3 => expect_inner_key = false,
            b',' if depth == 3 => expect_inner_key = true,
            _ if depth == 2 && first == FirstShot::Before && !b.is_ascii_whitespace() => {
                // A number, `true`, ... as the first element: not an object.
                first = FirstShot::Outside;
                first_shot_known = true;
            }
            _ => {}
        }
    }
    Some(TopKeys {
        names,
        first_shot_tracks,
        first_shot_known,
        complete: false,
    })
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
            (
                r#"{"shots": [{"discs": [], "shooter": {}, "tracks": []}]}"#,
                Some(FileKind::Tracks),
            ),
            (
                r#"{"board": {}, "shots": [{"discs": [{"team": 0, "pos": [0, 0.1]}], "sigma": 0.001, "tracks": [{"disc": 0}]}, {}]}"#,
                Some(FileKind::Tracks),
            ),
            // `tracks` deeper than the first shot's keys, or in a later shot: a shot file.
            (
                r#"{"shots": [{"shooter": {"tracks": 1}}, {"tracks": []}]}"#,
                Some(FileKind::Shots),
            ),
            (r#"{"shots": [[{"tracks": []}]]}"#, Some(FileKind::Shots)),
            (r#"{"seat": 0, "shooter": {}}"#, None),
            (r#"[1, 2]"#, None),
            (r#"{"shots": "#, None),
        ];
        for (text, kind) in cases {
            assert_eq!(FileKind::sniff(text), kind, "{text}");
            // The whole text is also a start that tells.
            if text.ends_with('}') {
                assert_eq!(FileKind::sniff_start(text.as_bytes()), kind, "{text}");
            }
        }
    }

    #[test]
    fn a_start_tells_a_kind_by_the_keys_it_shows() {
        let huge = |head: &str| format!("{head}{}", "[1, 2], ".repeat(10_000));
        let cases = [
            (huge("{\"shots\": ["), Some(FileKind::Shots)),
            (
                huge("{\"description\": \"a \\\"}\", \"shots\": ["),
                Some(FileKind::Shots),
            ),
            (huge("{\"outcomes\": ["), Some(FileKind::Outcomes)),
            (
                huge("{\"first_seat\": 0, \"shots\": ["),
                Some(FileKind::GameLog),
            ),
            (
                huge("{\"format\": \"x\", \"version\": 4, \"range\": [0, 1], \"positions\": ["),
                Some(FileKind::State),
            ),
            (
                huge("{\"shots\": [{\"discs\": [], \"tracks\": [{\"points\": ["),
                Some(FileKind::Tracks),
            ),
            // The first shot not read to its end: `tracks` may still come.
            (huge("{\"shots\": [{\"discs\": ["), None),
            (huge("{\"seat\": 0, \"discs\": ["), None),
            (huge("{\"board\": {\"pegs\": ["), None),
            (huge("["), None),
        ];
        for (text, kind) in cases {
            assert_eq!(
                FileKind::sniff_start(text.as_bytes()),
                kind,
                "{}",
                &text[..40]
            );
            assert_eq!(FileKind::sniff(&text), None, "incomplete");
        }
    }
}
