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

/// The longest line [`plan_lines`] reads: a suggest file of the most discs a position can
/// hold is a few kilobytes; a longer line is refused, not read whole.
pub const MAX_LINE: usize = 1 << 20;

/// Why [`plan_lines`] stopped before the end of its input.
#[derive(Debug)]
pub enum LinesFailure {
    /// A line is not a suggest file the planner takes (the message ends with its line:
    /// `(line 3)`).
    Input(InputError),
    /// The input could not be read or the output written.
    Io(std::io::Error),
}

impl std::fmt::Display for LinesFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LinesFailure::Input(e) => write!(f, "{e}"),
            LinesFailure::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for LinesFailure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LinesFailure::Input(e) => Some(e),
            LinesFailure::Io(e) => Some(e),
        }
    }
}

/// Plans every position of `input`, a suggest file per line (JSON lines; blank lines
/// skipped), with one configuration, and writes each plan to `out` as one compact JSON line
/// in the input's order: line `k` of the output is what `crokinole suggest` prints with
/// `--compact` for line `k` alone, with the same flags (the same seed for every line).
/// Reads a line at a time (at most [`MAX_LINE`] bytes), so the memory does not grow with the
/// input. Returns the plans written; a stop by `cancel` ends after the plans finished (a
/// plan stopped part-way is not written) and returns how many were.
pub fn plan_lines<R: std::io::BufRead, W: std::io::Write>(
    mut input: R,
    config: &PlanConfig,
    mut out: W,
    cancel: &Cancel,
    mut on_plan: impl FnMut(u64),
) -> Result<u64, LinesFailure> {
    let mut written = 0u64;
    let mut line = Vec::new();
    let mut number = 0u64;
    loop {
        line.clear();
        let n = std::io::BufRead::read_until(
            &mut std::io::Read::take(&mut input, MAX_LINE as u64 + 1),
            b'\n',
            &mut line,
        )
        .map_err(LinesFailure::Io)?;
        if n == 0 {
            break;
        }
        number += 1;
        let at = |e: InputError| {
            LinesFailure::Input(InputError::new(
                e.field,
                format!("{} (line {number})", e.problem),
            ))
        };
        if line.len() > MAX_LINE {
            return Err(at(InputError::new(
                "file",
                format!("longer than {MAX_LINE} bytes: one suggest file a line is expected"),
            )));
        }
        let text = std::str::from_utf8(&line)
            .map_err(|e| at(InputError::new("file", format!("not valid UTF-8: {e}"))))?;
        if text.trim().is_empty() {
            continue;
        }
        let request = read(text).map_err(at)?;
        let plan = plan_until(&request, config, cancel).map_err(at)?;
        if plan.stopped {
            break;
        }
        out.write_all(text_of_line(&plan).as_bytes())
            .map_err(LinesFailure::Io)?;
        written += 1;
        on_plan(written);
    }
    out.flush().map_err(LinesFailure::Io)?;
    Ok(written)
}

/// A plan as one compact JSON line (with its newline).
fn text_of_line(plan: &Plan) -> String {
    text(plan, Layout::Compact)
}
