//! The JSON contract of `docs/shot-file.md`: reading shot files into library types
//! (checked up front), writing outcome files, and the `params` block of defaults.
//!
//! The library never prints: the jobs (`crokinole_jobs`) read through these readers and
//! hand the front ends (the CLI, the server, the Python package) text made by these
//! writers, one writer per format, its options (rules, traces, layout) taken as values.

mod cmn;
mod csv;
mod file_kind;
mod format;
mod game_file;
mod held;
mod json_form;
pub mod json_path;
mod laid;
pub mod match_protocol;
mod model_json;
pub use json_form::{FromJson, Json, ReadJson, ToJson};
mod outcome_file;
mod play_file;
mod samples_parquet;
pub(crate) mod shot_file;
pub(crate) mod situation;
mod sizes;
mod skills;
mod standings_json;
mod stats_json;
pub(crate) mod strict;
mod study_file;
mod style;
mod suggest_file;
mod trace_json;
mod tracks;

pub use cmn::{CmnBatchWriter, CmnEvent, CmnMatch, SIMULATED_DATE, cmn_batch_json, parse_cmn};
pub use csv::{
    SAMPLE_CSV_HEADER, outcomes_csv, outcomes_csv_header, outcomes_csv_rows, sample_csv_row,
};
pub use file_kind::FileKind;
pub use format::{Layout, compact_json, laid_out};
pub use game_file::{
    GAME_MAX_ROUNDS, GameFile, GameSeat, HUMAN, game_answer_json, parse_game_file,
};
pub use held::{HUGE_FROM, HeldText, MAX_INPUT, ReadFailure, Refused, read_held, read_held_from};
pub use laid::LaidElements;
pub use outcome_file::{
    OutcomeFile, OutcomeItem, StreamWriteError, flick_answer_json, outcome_file_text,
    outcomes_to_string, serialize_outcome, state_name, write_outcome_file, write_outcome_stream,
    write_outcomes,
};
pub use outcome_file::{lay_outcomes, write_laid_outcome_stream};
pub use play_file::{
    game_log_json, games_summary_json, parse_game_log, parse_noise_json, replay_json,
};
pub use samples_parquet::{ROW_GROUP, SampleParquet, SampleRow};
pub use shot_file::blocks::read_shot_blocks;
pub use shot_file::{
    EachShot, StreamStop, StreamedBlocks, params_json, parse_shot_file, read_shot_stream,
    read_shot_text, shot_file_json,
};
pub use sizes::{Sizes, sizes};
pub use skills::{OPEN20_DEFINITION, skills_json};
pub use standings_json::{GameResultJson, StandingJson, TournamentJson, tournament_json};
pub use stats_json::round_stats_json;
pub use study_file::{
    STATE_FORMAT, STATE_VERSION, canonical_json, engine_version, fnv1a, input_hash, parse_state,
    parse_state_study, parse_study_file, parse_summary, sample_line, state_json, study_file_json,
    study_summary_json,
};
pub use suggest_file::{parse_plan, parse_suggest_file, plan_json};
pub use tracks::{fit_report_json, fit_report_text, parse_tracks_file};
