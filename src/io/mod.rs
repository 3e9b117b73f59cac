//! The JSON contract of `docs/shot-file.md`: reading shot files into library types
//! (checked up front), writing outcome files, and the `params` block of defaults.
//!
//! The library never prints; the CLI (`src/cli/simulate.rs`) reads, calls
//! [`parse_shot_file`], runs the shots and calls [`write_outcomes`].

mod csv;
mod file_kind;
mod format;
pub(crate) mod json_path;
mod model_json;
mod outcome_file;
mod play_file;
mod ruled;
pub(crate) mod shot_file;
pub(crate) mod situation;
pub(crate) mod strict;
mod study_file;
mod suggest_file;
mod trace_json;

pub use csv::{SAMPLE_CSV_HEADER, outcomes_csv, sample_csv_row};
pub use file_kind::FileKind;
pub use format::{Layout, compact_json, outline_json};
pub use outcome_file::{
    outcomes_to_string, serialize_outcome, state_name, write_outcomes, write_traced_outcomes,
};
pub use play_file::{game_log_json, games_summary_json, parse_noise_json};
pub use ruled::{write_ruled_outcomes, write_ruled_traced_outcomes};
pub use shot_file::{params_json, parse_shot_file, shot_file_json};
pub use study_file::{
    STATE_FORMAT, STATE_VERSION, canonical_json, engine_version, fnv1a, input_hash, parse_state,
    parse_study_file, parse_summary, sample_line, state_json, study_summary_json,
};
pub use suggest_file::{parse_plan, parse_suggest_file, plan_json};
