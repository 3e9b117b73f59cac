//! The jobs a user runs, one function each, shared by every front end: the CLI
//! (`src/cli/`), the web server (`crates/serve/src/api.rs`) and the Python package (`python/`).
//!
//! A job takes text in a format of docs/ (a shot file, a study file, a suggest file, a
//! game log) and gives library values and the text of its output, made by the one writer
//! of that format in `crokinole_io` with its options (rules, traces, layout) passed as
//! values. A front end only gets the text its own way (a file, a request body, a Python
//! string), applies its own bounds between reading and running (the server's limits),
//! picks the thread pool, and hands the text back its own way. So one shot file simulated
//! through the command line, the server or Python gives the same bytes (tested).
//!
//! Every job runs on the current rayon pool (a front end calls it inside
//! `ThreadPool::install`) and its output never depends on the thread count.
//!
//! | job | reads | function | writes |
//! |---|---|---|---|
//! | simulate a shot file | [`simulate::ShotFile::read`] | [`simulate::simulate`] | [`simulate::Simulated::text`], [`simulate::Simulated::csv`] |
//! | play one flick of a study | [`study::read`] | [`flick::flick`] | [`flick::shot_file_text`], [`simulate::Simulated::text`] |
//! | run a study | [`study::read`] | `Study::run_until` | [`study::summary_text`] |
//! | plan a shot | [`plan::read`] | [`plan::plan`] | [`plan::text`] |
//! | fit the physics to tracked shots | [`fit::read`] | [`fit::fit`] | [`fit::Fitted::text`], [`fit::Fitted::json`], [`fit::Fitted::params`], [`fit::Fitted::svg`] |
//! | replay a game log | [`replay::read`] | [`replay::replay`] | [`replay::Replay::text`] |
//! | play a game against the computer, a request at a time | [`game::read`] | [`game::advance_until`] | [`game::Advanced::text`] |
//! | merge shard states | `crokinole_io::parse_state_study` | [`merge::merge`] (verifies each shard) | [`study::summary_text`] |
//! | a real game's statistics from match records | [`stats::read`] | [`stats::stats`] | [`stats::text`] |
//!
//! Games (`crokinole play`, the Python package's `play`) are `crokinole_play::PlayConfig`'s
//! `play`, `play_many_until` and `play_each_until` (a record kept of each game, `play --cmn`), written by `crokinole_io::game_log_json` and
//! `crokinole_io::games_summary_json`.

pub mod fit;
pub mod flick;
pub mod game;
pub mod merge;
pub mod plan;
pub mod replay;
pub mod simulate;
pub mod stats;
pub mod study;

use crokinole_core::error::InputError;
use crokinole_io::FileKind;

/// `e`, an error reading `text` as a file of kind `expected`: if the text looks like a
/// file of another kind, the problem says what it looks like and which command reads it.
pub fn of_kind(e: InputError, text: &str, expected: FileKind) -> InputError {
    match FileKind::sniff(text) {
        Some(kind) if kind != expected => InputError {
            problem: format!("{}; this file looks like {}", e.problem, kind.describe()),
            ..e
        },
        _ => e,
    }
}
