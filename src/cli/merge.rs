//! `crokinole merge`: combine the shard states of one study (`montecarlo --shard K/N`)
//! into the summary one unsharded run prints.

use super::args::{LayoutArg, Output};
use super::failure::{Failure, of_kind};
use super::montecarlo::Summarised;
use super::output::{distinct_paths, read_input_of, write_output};
use crokinole::InputError;
use crokinole::io::{FileKind, parse_state_study};
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
    /// Re-simulate K samples of each shard, chosen at random, and refuse a shard whose
    /// state does not hold what they give (0: no check; the checksum alone only guards
    /// against accidents). docs/montecarlo.md.
    #[arg(long, value_name = "K", default_value_t = crokinole::jobs::merge::DEFAULT_VERIFY)]
    verify: u64,
    /// Seed of the samples --verify picks (default: a new one each run, from the clock).
    #[arg(long, value_name = "SEED")]
    verify_seed: Option<u64>,
    #[command(flatten)]
    layout: LayoutArg,
    #[command(flatten)]
    output: Output,
}

/// `crokinole merge`: read every shard state, verify each by re-simulating `--verify`
/// random samples of it, check that they belong together and cover the study exactly
/// once, and print the summary one run would have printed.
pub fn run(a: Args) -> Result<(), Failure> {
    let (shards, output) = (&a.shards, a.output.path());
    let inputs: Vec<(&str, &std::path::Path)> = shards
        .iter()
        .map(|s| ("a shard state", s.as_path()))
        .collect();
    distinct_paths(&inputs, &[("--output", output)])?;
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
        let (tally, study) = parse_state_study(&text).map_err(|e| {
            let e = of_kind(e, &text, FileKind::State);
            Failure::Input(InputError::new(
                e.field,
                format!("{} (shard `{}`)", e.problem, path.display()),
            ))
        })?;
        parts.push((path.display().to_string(), tally, study));
    }
    let seed = a.verify_seed.unwrap_or_else(|| {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        now.as_nanos() as u64 ^ u64::from(std::process::id()).rotate_left(32)
    });
    let whole = crokinole::jobs::merge::merge(parts, a.verify, seed).map_err(Failure::Input)?;
    let text = summarised.text(whole.summary().map_err(Failure::Input)?);
    write_output(output, |w| w.write_all(text.as_bytes()))
}
