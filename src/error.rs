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
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.shot {
            Some(i) => write!(f, "shot {i}: field `{}`: {}", self.field, self.problem),
            None => write!(f, "field `{}`: {}", self.field, self.problem),
        }
    }
}

impl std::error::Error for InputError {}
