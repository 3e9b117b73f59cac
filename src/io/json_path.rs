//! Turns a `serde_json` error into an [`InputError`] naming the field: the path of the
//! value being read where the parser stopped (`shots[3].discs[1].pos[0]`), found by
//! re-scanning the text up to the error's line and column.

use crate::error::InputError;

/// One open container while scanning.
enum Frame {
    /// An object and the key of the member being read (`None` before its key).
    Object {
        key: Option<String>,
        expect_key: bool,
    },
    /// An array and the index of the element being read.
    Array { index: usize },
}

/// Byte offset of a 1-based `line` and a 0-based byte `column` (as `serde_json` reports
/// them), clamped to the text.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text[start..].find('\n') {
            Some(k) => start += k + 1,
            None => return text.len(),
        }
    }
    (start + column).min(text.len())
}

/// Path of the JSON value being read once the first `end` bytes of `text` are consumed,
/// in shot-file notation (`board.pegs[2]`); empty at the top level.
pub(crate) fn path_at(text: &str, end: usize) -> String {
    let bytes = &text.as_bytes()[..end.min(text.len())];
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                // A string: a key if the innermost object waits for one.
                let start = i + 1;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if let Some(Frame::Object {
                    key,
                    expect_key: true,
                }) = stack.last_mut()
                {
                    let stop = i.min(bytes.len());
                    *key = Some(String::from_utf8_lossy(&bytes[start..stop]).into_owned());
                }
            }
            b'{' => stack.push(Frame::Object {
                key: None,
                expect_key: true,
            }),
            b'[' => stack.push(Frame::Array { index: 0 }),
            b'}' | b']' => {
                stack.pop();
            }
            b':' => {
                if let Some(Frame::Object { expect_key, .. }) = stack.last_mut() {
                    *expect_key = false;
                }
            }
            b',' => match stack.last_mut() {
                Some(Frame::Object { key, expect_key }) => {
                    *key = None;
                    *expect_key = true;
                }
                Some(Frame::Array { index }) => *index += 1,
                None => {}
            },
            _ => {}
        }
        i += 1;
    }
    let mut path = String::new();
    for frame in &stack {
        match frame {
            Frame::Object { key: Some(k), .. } => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
            }
            Frame::Object { key: None, .. } => {}
            Frame::Array { index } => {
                path.push('[');
                path.push_str(&index.to_string());
                path.push(']');
            }
        }
    }
    path
}

/// The path at which the parser stopped with `err`, read from the text (for errors whose
/// path the deserializer could not name: serde_path_to_error writes `?` there).
pub(crate) fn path_at_error(text: &str, err: &serde_json::Error) -> String {
    if err.line() == 0 {
        return String::new();
    }
    path_at(text, offset_of(text, err.line(), err.column()))
}

/// The parser's message for `err` (with its line and column), plus a hint when it stopped
/// on `NaN` or `Infinity`, which some producers write but JSON does not have.
pub(crate) fn problem_of(text: &str, err: &serde_json::Error) -> String {
    let mut problem = err.to_string();
    if err.line() > 0 {
        let offset = offset_of(text, err.line(), err.column());
        // The parser stops on the first letter of a word it cannot read.
        let word = text
            .get(offset.saturating_sub(1)..)
            .unwrap_or("")
            .trim_start_matches(['-', '+']);
        if ["NaN", "Infinity", "inf", "nan"]
            .iter()
            .any(|w| word.starts_with(w))
        {
            problem.push_str(" (NaN and Infinity are not JSON numbers)");
        }
    }
    problem
}

/// An error of `serde_json` while reading `text`, as an [`InputError`]: the field is the
/// path where the parser stopped (`file` at the top level), attributed to its shot when it
/// lies in `shots[k]`; the problem is the parser's message with its line and column.
pub(crate) fn json_error(text: &str, err: &serde_json::Error) -> InputError {
    if text.trim().is_empty() {
        return InputError::new("file", "the input is empty: expected a JSON object");
    }
    let problem = problem_of(text, err);
    let mut path = String::new();
    if err.line() > 0 {
        path = path_at(text, offset_of(text, err.line(), err.column()));
    }
    if path.is_empty() {
        return InputError::new("file", problem);
    }
    if let Some(rest) = path.strip_prefix("shots[")
        && let Some(close) = rest.find(']')
        && let Ok(k) = rest[..close].parse::<usize>()
    {
        let inner = &rest[close + 1..];
        return match inner.strip_prefix('.') {
            Some(field) => InputError::new(field, problem).in_shot(k),
            None => InputError {
                shot: Some(k),
                field: path.clone(),
                problem,
            },
        };
    }
    InputError::new(path, problem)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_follow_keys_and_indices() {
        let text = r#"{"board": {"pegs": [[0, 1], [2, 3"#;
        assert_eq!(path_at(text, text.len()), "board.pegs[1][1]");
        let text = r#"{"shots": [{}, {"discs": [{"team": 1, "pos""#;
        assert_eq!(path_at(text, text.len()), "shots[1].discs[0].pos");
        let text = r#"{"shots": [{"a": "x,]}"}, {"#;
        assert_eq!(path_at(text, text.len()), "shots[1]");
        let text = r#"{"a": 1, "#;
        assert_eq!(path_at(text, text.len()), "");
    }

    #[test]
    fn offsets_count_lines_from_one_and_columns_from_zero() {
        let text = "ab\ncd\nef";
        assert_eq!(offset_of(text, 1, 0), 0);
        assert_eq!(offset_of(text, 2, 1), 4);
        assert_eq!(offset_of(text, 3, 2), 8);
        assert_eq!(offset_of(text, 9, 0), 8);
    }
}
