//! The `crokinole` command: `simulate` runs a shot file and prints the outcome file,
//! `params` prints the default board and physics, `montecarlo` runs a study (one shot
//! played many times with a player's error) and prints its summary or a shard's state,
//! `merge` combines shard states into the summary, `play` plays whole games between
//! strategies (docs/play.md), `suggest` searches for the best flick (docs/suggest.md),
//! `render` draws SVG pictures (docs/render.md), `flick` simulates and draws one flick
//! given in player terms (docs/flick.md), `fit` fits the physics to tracked shots
//! (docs/tracks.md), `match` referees a game between player programs speaking the
//! protocol crokinole-match/1 and `match replay` checks its log, `player` plays a built-in
//! strategy as such a program, `tournament` plays a round robin of them (docs/match.md);
//! `simulate --rules` also judges each shot by the
//! rules, `--trace` adds disc paths. JSON is printed in each command's readable layout,
//! on one line with `--compact`. It
//! only parses, validates, calls the library and prints; exit code 2 for bad input, 1 for
//! I/O errors, 128 + the signal's number for a `montecarlo` or `play --games N` run
//! stopped by a signal.
//!
//! This file parses the command line, hands each command's flags to its module's `run`
//! and turns the failure into the exit code. One module per command (`simulate.rs`, ...,
//! each with its flags as an `Args` struct and a short `run` over the library); the
//! shared pieces: `args.rs` (flag groups and parsers), `output.rs` (reading the input,
//! writing the output), `failure.rs` (why a command failed, its exit code),
//! `progress.rs` (the progress bar on standard error), `signals.rs` (Ctrl-C and friends).

mod args;
mod failure;
mod fit;
mod flick;
mod match_cmd;
mod merge;
mod montecarlo;
mod output;
mod params;
mod play;
mod player;
mod progress;
mod render;
mod serve;
mod signals;
mod simulate;
mod stats;
mod suggest;
mod tournament;

use clap::{Parser, Subcommand};
use failure::Failure;
use std::process::ExitCode;

/// Deterministic Crokinole physics: shot files in, outcome files out
/// (docs/shot-file.md).
#[derive(Parser)]
#[command(
    name = "crokinole",
    version,
    after_help = "Exit status: 0 on success, 2 for bad input (the message names the shot, \
                  the field and the problem), 1 for a read or write failure."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run every shot of a shot file and write the outcome file (JSON).
    Simulate(simulate::Args),
    /// Print the default `board` and `physics` blocks in shot-file form.
    Params(params::Args),
    /// Play one shot many times with a player's error and print the summary (JSON).
    ///
    /// FILE holds the position, the seat, the flick and the noise (docs/montecarlo.md).
    /// Sample i depends only on (seed, i): the output is byte-identical for every
    /// --threads, and `--shard K/N` runs plus `crokinole merge` give exactly the summary of
    /// one run.
    Montecarlo(montecarlo::Args),
    /// Merge the shard states of one study (from `montecarlo --shard`) into its summary.
    ///
    /// The shards must come from the same study file, seed and sample count, and cover
    /// every sample exactly once; the summary is byte-identical to one unsharded run.
    Merge(merge::Args),
    /// Play whole games between strategies; print the game log (one game) or a summary.
    ///
    /// Each game depends only on (--seed, game index): the output is byte-identical for
    /// every --threads. Flags and both JSON shapes: docs/play.md.
    Play(play::Args),
    /// Search for the best flick in a position and print the top flicks (JSON).
    ///
    /// FILE holds the position, the seat, the rule set, the player's error and optionally
    /// the search space (docs/suggest.md). With a sample budget the output is
    /// byte-identical for every --threads.
    Suggest(suggest::Args),
    /// Simulate one flick given in player terms and print its outcome; draw it with --svg.
    ///
    /// FILE is a study file (its intended flick, no noise), or a suggest file with
    /// `--plan PLAN` (the planner's flick of rank --rank) or with the flick's flags. Flags
    /// given override the file's flick. The outcome is the outcome file `simulate` prints
    /// for the shot (judged by the rules when the file has a rule set); docs/flick.md.
    Flick(flick::Args),
    /// Fit physics coefficients to tracked shots and report them with their uncertainty.
    ///
    /// FILE is a tracks file: the board and physics, then shots with each disc's observed
    /// positions over time (docs/tracks.md). Prints the fitted coefficients (or why one is
    /// not identified by the shots), the residuals per shot and the held-out errors; the
    /// output does not depend on --threads.
    Fit(fit::Args),
    /// Draw a position, a shot, a Monte Carlo summary or a planner grid as SVG
    /// (docs/render.md).
    Render(render::Args),
    /// Serve an interactive board in the browser: set up a position, flick, watch the
    /// engine's shot, ask for a Monte Carlo study or a suggestion, replay a game
    /// (docs/serve.md).
    Serve(serve::Args),
    /// Referee a game between players that are programs, built-in strategies or TCP
    /// connections (the protocol crokinole-match/1, docs/match.md); `match replay LOG`
    /// checks a log bit for bit.
    Match(match_cmd::Args),
    /// Play a built-in strategy as a protocol player: on stdio (for `crokinole match
    /// --player 'crokinole player builtin:greedy'` or any referee) or over TCP with
    /// --connect (docs/match.md).
    Player(player::Args),
    /// Play a round robin between programs and built-in strategies, seats swapped, several
    /// games at once; print the standings with ratings (docs/match.md).
    Tournament(tournament::Args),
    /// A real game's statistics from match records in Crokinole Match Notation (a club's
    /// own, or what `play --cmn` and `tournament --cmn` write): 20s per player-round, the
    /// hammer's rounds won, tied and lost, points per round, per player (docs/cmn.md).
    Stats(stats::Args),
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Simulate(args) => simulate::run(args),
        Command::Params(args) => params::run(args),
        Command::Montecarlo(args) => montecarlo::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Play(args) => play::run(args),
        Command::Suggest(args) => suggest::run(args),
        Command::Flick(args) => flick::run(args),
        Command::Fit(args) => fit::run(args),
        Command::Render(args) => render::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Match(args) => match_cmd::run(args),
        Command::Player(args) => player::run(args),
        Command::Tournament(args) => tournament::run(args),
        Command::Stats(args) => stats::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::BrokenPipe) => ExitCode::from(Failure::BrokenPipe.exit_code()),
        Err(stop @ Failure::Stopped { .. }) => {
            eprintln!("stopped: {stop}");
            ExitCode::from(stop.exit_code())
        }
        Err(failure) => {
            eprintln!("error: {failure}");
            ExitCode::from(failure.exit_code())
        }
    }
}
