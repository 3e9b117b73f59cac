//! `crokinole stats`: a real game's statistics from match records in Crokinole Match
//! Notation (a club's own, an app's export, or what `play --cmn` and `tournament --cmn`
//! write): 20s per player-round and their distribution, the hammer's rounds won, tied and
//! lost, points per round, per player where the records name them (docs/cmn.md).

use super::args::{LayoutArg, Output};
use super::failure::Failure;
use super::output::{read_input_of, write_output};
use crokinole::InputError;
use crokinole::io::FileKind;
use crokinole::jobs::stats;
use std::path::PathBuf;

/// The flags of `crokinole stats`.
#[derive(clap::Args)]
#[command(mut_arg("output", |a| a.help("Write the statistics here instead of standard output")))]
pub struct Args {
    /// CMN files (a record or a batch each), counted together in the order given.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    #[command(flatten)]
    layout: LayoutArg,
    #[command(flatten)]
    output: Output,
}

/// `crokinole stats`: read every file (a refusal names the file and the field), count
/// the rounds of every match, print the statistics.
pub fn run(a: Args) -> Result<(), Failure> {
    let in_file = |e: InputError, path: &PathBuf| {
        Failure::Input(InputError::new(
            e.field,
            format!("{} (file `{}`)", e.problem, path.display()),
        ))
    };
    let mut matches = Vec::new();
    for path in &a.files {
        let text = read_input_of(path, FileKind::Cmn).map_err(|f| match f {
            Failure::Input(e) => in_file(e, path),
            f => f,
        })?;
        let read = stats::read(&text).map_err(|e| in_file(e, path))?;
        matches.extend(read);
    }
    let text = stats::text(&stats::stats(&matches), a.layout.layout());
    write_output(a.output.path(), |w| w.write_all(text.as_bytes()))
}
