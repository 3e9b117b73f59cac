//! The JSON contract of `shared/spec/shot-file.md`: reading shot files into library types
//! (checked up front), writing outcome files, and the `params` block of defaults.
//!
//! The library never prints; the CLI (`src/bin/crokinole.rs`) reads, calls
//! [`parse_shot_file`], runs the shots and calls [`write_outcomes`].

pub(crate) mod json_path;
mod outcome_file;
mod pretty;
mod ruled;
pub(crate) mod shot_file;
pub(crate) mod situation;
pub(crate) mod strict;
mod trace_json;

pub use outcome_file::{
    outcomes_to_string, serialize_outcome, state_name, write_outcomes, write_traced_outcomes,
};
pub use ruled::{
    check_rules, judge_outcomes, state_after_rules, write_ruled_outcomes,
    write_ruled_traced_outcomes,
};
pub use shot_file::{ShotEntry, params_json, parse_shot_file};
pub use situation::Situation;
