//! `crokinole tournament CONFIG`: a round robin between programs and built-in strategies
//! (docs/match.md, "Tournaments"), several games at once, one log per game, and the
//! standings with Bradley-Terry ratings.

use super::failure::{Failure, in_file};
use super::output::{read_input, write_output};
use super::signals::StopSignals;
use crokinole::io::{CmnEvent, cmn_batch_json};
use crokinole::referee::tournament::{cmn_matches, results_json, standings_text};
use crokinole::referee::{MatchError, parse_tournament, run_tournament};
use std::path::PathBuf;

/// The flags of `crokinole tournament`.
#[derive(clap::Args)]
pub struct Args {
    /// The tournament file (JSON): the players, games per pairing, rule set, noise,
    /// clocks, seed (docs/match.md).
    config: PathBuf,
    /// Games played at once. The results do not depend on it.
    #[arg(long, short = 'j', value_name = "N", default_value_t = 2,
              value_parser = clap::value_parser!(u32).range(1..=64))]
    jobs: u32,
    /// The folder of the games' logs (`game-0000.jsonl`, ...).
    #[arg(long, value_name = "DIR", default_value = "tournament")]
    logs: PathBuf,
    /// The seed, instead of the file's.
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Print the standings and every game's result as JSON instead of the table
    /// (docs/match.md).
    #[arg(long)]
    json: bool,
    /// Also write every game played as a match record in Crokinole Match Notation to
    /// PATH (a batch, in schedule order), for `crokinole stats` (docs/cmn.md).
    #[arg(long, value_name = "PATH")]
    cmn: Option<PathBuf>,
}

/// `crokinole tournament`.
pub fn run(args: Args) -> Result<(), Failure> {
    let text = read_input(&args.config)?;
    let mut config = parse_tournament(&text).map_err(|e| in_file(e, &args.config))?;
    if let Some(seed) = args.seed {
        config.seed = seed;
    }
    let signals = StopSignals::watch()?;
    let results = run_tournament(
        &config,
        &args.logs,
        args.jobs as usize,
        signals.cancel(),
        &|p, out| {
            if let Err(e) = out {
                eprintln!("game {}: {e}", p.index);
            }
        },
    )
    .map_err(|e| match e {
        MatchError::Input(e) => Failure::Input(e),
        e => Failure::Io(e.to_string()),
    })?;
    if let Some(path) = &args.cmn {
        let event = CmnEvent {
            name: format!("crokinole tournament, seed {}", config.seed),
            kind: "simulation".into(),
        };
        let text = cmn_batch_json(&cmn_matches(&config, &results), &event);
        write_output(Some(path), |w| w.write_all(text.as_bytes()))?;
    }
    let text = if args.json {
        results_json(&config, &results, &args.logs)
    } else {
        format!(
            "{}logs: {}\n",
            standings_text(&config, &results),
            args.logs.display()
        )
    };
    write_output(None, |w| w.write_all(text.as_bytes()))?;
    if results.stopped {
        return Err(signals.stopped(
            "the tournament was stopped; the standings are those of the games finished".into(),
        ));
    }
    Ok(())
}
