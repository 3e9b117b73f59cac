//! Run a study: one flick from one position played many times with a player's error
//! (docs/montecarlo.md). The samples run through [`Study::run_until`] (a function of the
//! seed and the sample's index only); this file reads the study file and writes the
//! summary, for `crokinole montecarlo` and `merge`, `POST /api/montecarlo` and the Python
//! package's `study`.

use super::of_kind;
use crokinole_core::error::InputError;
use crokinole_io::{FileKind, Layout, laid_out, parse_study_file, study_summary_json};
use crokinole_montecarlo::{Study, StudySummary};

/// Reads a study file's text into a checked [`Study`]; a file that looks like another
/// kind of file is named in the error.
pub fn read(text: &str) -> Result<Study, InputError> {
    parse_study_file(text).map_err(|e| of_kind(e, text, FileKind::Study))
}

/// The summary's text in `layout`: with `positions`, the shot disc's final position and
/// class for the first samples (`--positions`, what `render montecarlo` draws).
pub fn summary_text(summary: StudySummary, positions: bool, layout: Layout) -> String {
    let summary = if positions {
        summary
    } else {
        summary.without_positions()
    };
    laid_out(study_summary_json(&summary), layout)
}
