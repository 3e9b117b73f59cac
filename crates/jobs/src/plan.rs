//! Plan a shot: the planner's search for the best flick in a position (docs/suggest.md).
//! `crokinole suggest`, `POST /api/suggest` and the Python package's `suggest` are this
//! job.

use super::of_kind;
use crokinole_core::cancel::Cancel;
use crokinole_core::error::InputError;
use crokinole_io::{FileKind, Layout, laid_out, parse_suggest_file, plan_json};
use crokinole_plan::{Plan, PlanConfig, Request};

/// Reads a suggest file's text into a planner [`Request`]; a file that looks like another
/// kind of file is named in the error.
pub fn read(text: &str) -> Result<Request, InputError> {
    parse_suggest_file(text).map_err(|e| of_kind(e, text, FileKind::Suggest))
}

/// Runs the planner on the current rayon pool (`crokinole_plan::suggest`).
pub fn plan(request: &Request, config: &PlanConfig) -> Result<Plan, InputError> {
    crokinole_plan::suggest(request, config)
}

/// [`plan`] stopped by `cancel` (`crokinole_plan::suggest_until`): the best so far, marked
/// `stopped`.
pub fn plan_until(
    request: &Request,
    config: &PlanConfig,
    cancel: &Cancel,
) -> Result<Plan, InputError> {
    crokinole_plan::suggest_until(request, config, cancel)
}

/// The plan's text in `layout`.
pub fn text(plan: &Plan, layout: Layout) -> String {
    laid_out(plan_json(plan), layout)
}
