//! `crokinole merge`: combine the shard states of one study (`montecarlo --shard K/N`)
//! into the summary one unsharded run prints.

use super::args::{LayoutArg, Output};
use super::failure::{Failure, of_kind};
use super::montecarlo::Summarised;
use super::output::{read_input_of, write_output};
use crokinole::InputError;
use crokinole::io::{FileKind, parse_state};
use crokinole::montecarlo::Tally;
use std::path::PathBuf;

/// The flags of `crokinole merge`.
#[derive(clap::Args)]
#[command(mut_arg("output", |a| a.help("Write the summary here instead of standard output")))]
pub struct Args {
    /// Shard state files, in any order.
    #[arg(required = true, value_name = "SHARD")]
    shards: Vec<PathBuf>,
    /// Include the per-sample positions and classes in the summary (as `montecarlo
    /// --positions`).
    #[arg(long)]
    positions: bool,
    #[command(flatten)]
    layout: LayoutArg,
    #[command(flatten)]
    output: Output,
}

/// `crokinole merge`: read every shard state, check that they belong together and cover
/// the study exactly once, and print the summary one run would have printed.
pub fn run(a: Args) -> Result<(), Failure> {
    let (shards, output) = (&a.shards, a.output.path());
    let summarised = Summarised {
        positions: a.positions,
        layout: a.layout.layout(),
    };
    let mut parts = Vec::with_capacity(shards.len());
    for path in shards {
        let text = read_input_of(path, FileKind::State).map_err(|f| match f {
            Failure::Input(e) => Failure::Input(InputError::new(
                e.field,
                format!("{} (shard `{}`)", e.problem, path.display()),
            )),
            f => f,
        })?;
        let tally: Tally = parse_state(&text).map_err(|e| {
            let e = of_kind(e, &text, FileKind::State);
            Failure::Input(InputError::new(
                e.field,
                format!("{} (shard `{}`)", e.problem, path.display()),
            ))
        })?;
        parts.push((path.display().to_string(), tally));
    }
    let whole = Tally::merge(parts).map_err(Failure::Input)?;
    let text = summarised.text(whole.summary().map_err(Failure::Input)?);
    write_output(output, |w| w.write_all(text.as_bytes()))
}
