//! Input errors: every refusal names the shot (when there is one), the field and the problem.

use std::fmt;

/// Bad input, refused before any physics runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// Index of the shot in its file or batch, if the error belongs to one shot.
    pub shot: Option<usize>,
    /// Path of the offending field, as in the shot file: `physics.dt`,
    /// `shots[3].discs[1].pos`, `shots[0].shooter.vel`.
    pub field: String,
    /// What is wrong, in words.
    pub problem: String,
}

impl InputError {
    /// An error on `field` not tied to a shot (board, physics, file).
    pub fn new(field: impl Into<String>, problem: impl Into<String>) -> InputError {
        InputError {
            shot: None,
            field: field.into(),
            problem: problem.into(),
        }
    }

    /// The same error attributed to shot `index`, its field prefixed with `shots[index].`.
    pub fn in_shot(mut self, index: usize) -> InputError {
        self.shot = Some(index);
        self.field = if self.field.is_empty() {
            format!("shots[{index}]")
        } else {
            format!("shots[{index}].{}", self.field)
        };
        self
    }

    /// An error about shot `j` of a slice of shots that starts at shot `first` of a larger
    /// batch or file, as shot `first + j`'s (its `shots[j]` field prefix renumbered). An
    /// error not tied to a shot is unchanged.
    pub fn offset_shot(self, first: usize) -> InputError {
        match self.shot {
            Some(j) if first > 0 => {
                let prefix = format!("shots[{j}]");
                let rest = self.field.strip_prefix(&prefix).unwrap_or(&self.field);
                InputError {
                    shot: Some(first + j),
                    field: format!("shots[{}]{rest}", first + j),
                    problem: self.problem,
                }
            }
            _ => self,
        }
    }
}

/// Longest field path an error message shows; a longer one keeps its start and end.
pub const MAX_FIELD_CHARS: usize = 120;
/// Longest problem an error message shows (a problem quoting a huge key or value keeps its
/// start and end).
pub const MAX_PROBLEM_CHARS: usize = 400;

impl fmt::Display for InputError {
    /// `shot K: field `F`: P`, with `F` and `P` elided in the middle when longer than
    /// [`MAX_FIELD_CHARS`] and [`MAX_PROBLEM_CHARS`], so one message stays one short line
    /// whatever the input.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let field = elide(&one_line(&self.field), MAX_FIELD_CHARS).into_owned();
        let problem = elide(&one_line(&self.problem), MAX_PROBLEM_CHARS).into_owned();
        match self.shot {
            Some(i) => write!(f, "shot {i}: field `{field}`: {problem}"),
            None => write!(f, "field `{field}`: {problem}"),
        }
    }
}

/// `s` with control characters (a newline inside a malformed key) escaped, so a message
/// stays on one line.
fn one_line(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(char::is_control) {
        return s.into();
    }
    s.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect::<String>()
        .into()
}

/// `s` if it has at most `max` characters, else its first and last `max / 2` characters
/// around ` ... (N characters) ... `.
pub fn elide(s: &str, max: usize) -> std::borrow::Cow<'_, str> {
    let n = s.chars().count();
    if n <= max {
        return s.into();
    }
    let half = max / 2;
    let head: String = s.chars().take(half).collect();
    let tail: String = s.chars().skip(n - half).collect();
    format!("{head} ... ({n} characters) ... {tail}").into()
}

/// A number as an error message shows it: plain when that is short (`0.25`, `12`), in
/// scientific notation otherwise (`1e300`, `5e-324`), never hundreds of digits.
pub fn num(x: f64) -> String {
    let a = x.abs();
    if x == 0.0 || !x.is_finite() || (1e-3..1e6).contains(&a) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

impl std::error::Error for InputError {}
