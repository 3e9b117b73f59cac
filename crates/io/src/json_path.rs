//! Turns a `serde_json` error into an [`InputError`] naming the field: the path of the
//! value being read where the parser stopped (`shots[3].discs[1].pos[0]`), found by
//! re-scanning the text up to the error's line and column.

use crokinole_core::error::InputError;

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

/// A scanner of JSON text that keeps the path of the value being read (the open
/// containers, each object's current key and each array's index), fed the text in pieces
/// of any size: the same path whether the text is whole in memory or read from a file a
/// block at a time.
#[derive(Default)]
pub(crate) struct PathScan {
    stack: Vec<Frame>,
    /// Inside a string, and the byte after a backslash in it.
    in_string: bool,
    escaped: bool,
    /// The bytes of the key being read, if the string is an awaited key.
    key: Option<Vec<u8>>,
    /// Bytes scanned, and whether any was not whitespace.
    pub(crate) consumed: u64,
    pub(crate) any: bool,
}

impl PathScan {
    /// Scans `bytes`, the next piece of the text.
    pub(crate) fn feed(&mut self, bytes: &[u8]) {
        self.consumed += bytes.len() as u64;
        for &b in bytes {
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b'"' {
                    self.in_string = false;
                    if let Some(key) = self.key.take()
                        && let Some(Frame::Object { key: k, .. }) = self.stack.last_mut()
                    {
                        *k = Some(String::from_utf8_lossy(&key).into_owned());
                    }
                    continue;
                }
                if let Some(key) = &mut self.key {
                    key.push(b);
                }
                continue;
            }
            if !b.is_ascii_whitespace() {
                self.any = true;
            }
            match b {
                b'"' => {
                    self.in_string = true;
                    // A key if the innermost object waits for one.
                    if let Some(Frame::Object {
                        expect_key: true, ..
                    }) = self.stack.last()
                    {
                        self.key = Some(Vec::new());
                    }
                }
                b'{' => self.stack.push(Frame::Object {
                    key: None,
                    expect_key: true,
                }),
                b'[' => self.stack.push(Frame::Array { index: 0 }),
                b'}' | b']' => {
                    self.stack.pop();
                }
                b':' => {
                    if let Some(Frame::Object { expect_key, .. }) = self.stack.last_mut() {
                        *expect_key = false;
                    }
                }
                b',' => match self.stack.last_mut() {
                    Some(Frame::Object { key, expect_key }) => {
                        *key = None;
                        *expect_key = true;
                    }
                    Some(Frame::Array { index }) => *index += 1,
                    None => {}
                },
                _ => {}
            }
        }
    }

    /// The path so far, in shot-file notation (`board.pegs[2]`); empty at the top level.
    /// A key still being read when the text stops counts as read.
    pub(crate) fn path(&self) -> String {
        let mut path = String::new();
        let last = self.stack.len().saturating_sub(1);
        for (depth, frame) in self.stack.iter().enumerate() {
            match frame {
                Frame::Object { key, .. } => {
                    let partial = self.key.as_ref().filter(|_| depth == last);
                    let key = match (partial, key) {
                        (Some(k), _) => Some(String::from_utf8_lossy(k).into_owned()),
                        (None, k) => k.clone(),
                    };
                    if let Some(k) = key {
                        if !path.is_empty() {
                            path.push('.');
                        }
                        path.push_str(&k);
                    }
                }
                Frame::Array { index } => {
                    path.push('[');
                    path.push_str(&index.to_string());
                    path.push(']');
                }
            }
        }
        path
    }
}

/// Path of the JSON value being read once the first `end` bytes of `text` are consumed,
/// in shot-file notation (`board.pegs[2]`); empty at the top level.
pub(crate) fn path_at(text: &str, end: usize) -> String {
    let mut scan = PathScan::default();
    scan.feed(&text.as_bytes()[..end.min(text.len())]);
    scan.path()
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
    let word = if err.line() > 0 {
        let offset = offset_of(text, err.line(), err.column());
        text.as_bytes()
            .get(offset.saturating_sub(1)..)
            .unwrap_or(&[])
    } else {
        &[]
    };
    problem_with_hint(err, word)
}

/// The parser's message for `err`, plus the NaN hint if `word` (the text from the byte
/// before where the parser stopped) begins with such a word.
fn problem_with_hint(err: &serde_json::Error, word: &[u8]) -> String {
    let mut problem = err.to_string();
    // The parser stops on the first letter of a word it cannot read.
    let start = word.iter().take_while(|&&b| b == b'-' || b == b'+').count();
    let word = &word[start..];
    if err.line() > 0
        && ["NaN", "Infinity", "inf", "nan"]
            .iter()
            .any(|w| word.starts_with(w.as_bytes()))
    {
        problem.push_str(" (NaN and Infinity are not JSON numbers)");
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
    error_at(path, problem)
}

/// `json_error` for a text too large to hold, read again from `reader` (the same bytes
/// the parser read): the path and the hint come from scanning it a block at a time up to
/// the error's line and column, never holding more than a block.
pub fn json_error_in<R: std::io::Read>(mut reader: R, err: &serde_json::Error) -> InputError {
    let mut scan = PathScan::default();
    // The byte before the stop and the few after it, for the hint.
    let mut word: Vec<u8> = Vec::new();
    let (mut line, mut column) = (1usize, 0usize);
    let mut reached = err.line() == 0;
    let mut block = vec![0u8; 1 << 16];
    let mut last = None;
    loop {
        let n = match reader.read(&mut block) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let bytes = &block[..n];
        let mut cut = n;
        if !reached {
            for (i, &b) in bytes.iter().enumerate() {
                if line == err.line() && column == err.column() {
                    cut = i;
                    reached = true;
                    break;
                }
                if b == b'\n' {
                    line += 1;
                    column = 0;
                } else {
                    column += 1;
                }
            }
            scan.feed(&bytes[..cut]);
            if cut > 0 {
                last = Some(bytes[cut - 1]);
            }
        }
        if reached {
            if word.is_empty()
                && let Some(b) = last
            {
                word.push(b);
            }
            word.extend(bytes[cut..].iter().take(16 - word.len().min(16)));
            if word.len() >= 16 {
                break;
            }
        }
    }
    if err.is_eof() && !scan.any {
        return InputError::new("file", "the input is empty: expected a JSON object");
    }
    let problem = problem_with_hint(err, &word);
    let path = if err.line() > 0 {
        scan.path()
    } else {
        String::new()
    };
    error_at(path, problem)
}

/// The error `problem` at `path`: the field `file` at the top level, attributed to its
/// shot when the path lies in `shots[k]`.
fn error_at(path: String, problem: String) -> InputError {
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
