//! `crokinole play`: play whole games between strategies and print the game log (one
//! game) or the summary of many; Ctrl-C stops a run of many between chunks of games and
//! summarises the games finished.

use super::args::{LayoutArg, Output, Threads, count_parser, ruleset_parser};
use super::failure::Failure;
use super::output::{laid_out, read_input, write_output};
use super::progress::{Progress, count_of, human_duration};
use super::signals::StopSignals;
use clap::builder::TypedValueParser as _;
use crokinole::io::{
    CmnBatchWriter, CmnEvent, CmnMatch, game_log_json, games_summary_json, parse_noise_json,
};
use crokinole::play::{
    DEFAULT_NOISE, DEFAULT_STRATEGIES, PlayConfig, PlayError, Strategy, is_inline_noise,
    parse_noise, parse_strategies,
};
use crokinole::rules::Ruleset;
use crokinole::{Board, InputError, Physics};
use std::path::Path;

/// The flags of `crokinole play`: the game flags, then the run's.
#[derive(clap::Args)]
#[command(mut_arg("output", |a| {
    a.help("Write the log (or the summary) here instead of standard output")
}))]
pub struct Args {
    /// Players: 2, or 4 in two partnerships.
    #[arg(long, value_name = "N", default_value = "2",
              value_parser = clap::builder::PossibleValuesParser::new(["2", "4"])
                  .map(|s| if s == "4" { 4u8 } else { 2u8 }))]
    players: u8,
    /// Rule set.
    #[arg(long, value_name = "RULESET", default_value = "traditional",
              value_parser = ruleset_parser())]
    ruleset: Ruleset,
    /// Strategies, one per seat in play in seat order (with 4 players also one per
    /// team): `random`, `greedy[:k=K]`, `montecarlo[:k=K][:m=M]`,
    /// `planner[:budget=N]`, each with an optional `:spin=S`.
    #[arg(long, value_name = "A,B[,C,D]", default_value = DEFAULT_STRATEGIES)]
    strategies: String,
    /// The players' error: a skill level (`world`, `elite`, `competitive`, `club`,
    /// `casual`; docs/skill.md), `none`, `offset=..,aim=..,speed=..,spin=..` (missing keys
    /// 0), or a JSON file holding such an object or a level's name.
    #[arg(long, value_name = "SPEC|FILE", default_value = DEFAULT_NOISE)]
    noise: String,
    /// Seed of the run: game g is a function of (seed, g).
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    /// Games to play: 1 prints the game log, more print a summary (`1e3` accepted).
    #[arg(long, value_name = "N", default_value = "1", value_parser = count_parser)]
    games: u64,
    /// A game not over after this many rounds stops unfinished (traditional games).
    #[arg(long, value_name = "N", default_value_t = 100,
              value_parser = clap::value_parser!(u32).range(1..))]
    max_rounds: u32,
    #[command(flatten)]
    threads: Threads,
    /// Also write every game as a match record in Crokinole Match Notation to PATH (a
    /// batch, one match a line, written as the games finish: a run stopped by Ctrl-C
    /// keeps the finished ones); `crokinole stats PATH` reads it (docs/cmn.md).
    #[arg(long, value_name = "PATH")]
    cmn: Option<std::path::PathBuf>,
    #[command(flatten)]
    output: Output,
    #[command(flatten)]
    layout: LayoutArg,
}

/// `crokinole play`: read and check the noise and the strategies, then play the games on
/// `threads` workers and print the game log (one game) or the summary (more).
pub fn run(args: Args) -> Result<(), Failure> {
    let (threads, layout, output) = (args.threads, args.layout.layout(), args.output.path());
    let noise = if is_inline_noise(&args.noise) {
        parse_noise(&args.noise)
    } else {
        // A value that is neither inline nor a readable file is a bad flag (exit 2).
        let text = read_input(Path::new(&args.noise)).map_err(|e| {
            Failure::Input(InputError::new(
                "noise",
                format!(
                    "not a skill level ({}), `none`, KEY=VALUE pairs or a readable file: {e}",
                    crokinole::montecarlo::SkillLevel::names()
                ),
            ))
        })?;
        parse_noise_json(&text)
    }
    .map_err(Failure::Input)?;
    let strategies = parse_strategies(&args.strategies, noise).map_err(Failure::Input)?;
    let config = PlayConfig {
        board: Board::tournament(),
        physics: Physics::default(),
        players: args.players,
        ruleset: args.ruleset,
        strategies: strategies
            .into_iter()
            .map(|s| Box::new(s) as Box<dyn Strategy>)
            .collect(),
        noise,
        seed: args.seed,
        max_rounds: args.max_rounds,
    };
    config.check().map_err(Failure::Input)?;
    let pool = threads.pool()?;
    let games = args.games;
    if let Some(noise) = Some(Path::new(&args.noise)).filter(|_| !is_inline_noise(&args.noise)) {
        super::output::distinct_paths(
            &[("the noise file", noise)],
            &[("--cmn", args.cmn.as_deref()), ("--output", output)],
        )?;
    } else {
        super::output::distinct_paths(
            &[],
            &[("--cmn", args.cmn.as_deref()), ("--output", output)],
        )?;
    }
    let mut records = match &args.cmn {
        Some(path) => Some(CmnRecords::create(path, output, &args)?),
        None => None,
    };
    let text = if games == 1 {
        let progress = Progress::spinner("playing 1 game");
        let signals = StopSignals::watch()?;
        let log = pool.install(|| config.play_until(0, signals.cancel()));
        if let Err(PlayError::Stopped { .. }) = log {
            progress.abandon();
            return Err(signals.stopped("0 of 1 game: a stopped game is not counted".into()));
        }
        if log.is_ok() {
            progress.finish(|took| format!("1 game in {}", human_duration(took)));
        } else {
            progress.abandon();
        }
        if let (Ok(log), Some(r)) = (&log, &mut records) {
            r.push(&CmnMatch::of_game(log, None))?;
        }
        log.map(|log| game_log_json(&log))
    } else {
        // Ctrl-C stops the games under way within a shot (`play_many_until`).
        let progress = Progress::bar(games, "games");
        let signals = StopSignals::watch()?;
        let run = pool.install(|| match &mut records {
            None => config
                .play_many_until(games, || progress.inc(1), signals.cancel())
                .map(Ok),
            Some(r) => config.play_each_until(
                games,
                |log| CmnMatch::of_game(log, None),
                |m| r.push(&m),
                || progress.inc(1),
                signals.cancel(),
            ),
        });
        let summary = match run {
            Ok(Err(write_failure)) => {
                progress.abandon();
                return Err(write_failure);
            }
            Ok(Ok(s)) => Ok(s),
            Err(e) => Err(e),
        };
        if let Some(r) = records.take() {
            r.finish()?;
        }
        match &summary {
            Ok(s) if s.stopped.is_some() && s.games == 0 => {
                progress.abandon();
                return Err(signals.stopped(format!(
                    "0 of {games} games: a stopped game is not counted, so there is no summary"
                )));
            }
            Ok(s) if s.stopped.is_some() => {
                progress.abandon();
                let text = laid_out(games_summary_json(s), layout);
                write_output(output, |w| w.write_all(text.as_bytes()))?;
                return Err(signals.stopped(format!(
                    "{} of {games} games; the summary is that of the finished games, the same run with --games {}",
                    s.games, s.games
                )));
            }
            Ok(_) => progress.finish(|took| {
                format!(
                    "{} in {}",
                    count_of(games, "game", "games"),
                    human_duration(took)
                )
            }),
            Err(_) => progress.abandon(),
        }
        summary.map(|s| games_summary_json(&s))
    }
    .map_err(|e| match e {
        // The run refused (`--games` beyond `play::MAX_GAMES`): bad input, exit 2.
        PlayError::Input(e) => Failure::Input(e),
        // A game the engine could not finish (a strategy found no legal flick): exit 1.
        e => Failure::Io(e.to_string()),
    })?;
    if let Some(r) = records {
        r.finish()?;
    }
    let text = laid_out(text, layout);
    write_output(output, |w| w.write_all(text.as_bytes()))
}

/// The `--cmn` file: a batch of match records written as the games finish.
struct CmnRecords {
    path: std::path::PathBuf,
    writer: CmnBatchWriter<std::io::BufWriter<std::fs::File>>,
}

impl CmnRecords {
    /// Creates the file, refusing a path that is also the output.
    fn create(path: &Path, output: Option<&Path>, args: &Args) -> Result<CmnRecords, Failure> {
        if output == Some(path) {
            return Err(Failure::Input(InputError::new(
                "cmn",
                "is the same path as --output: the records would overwrite the log or summary",
            )));
        }
        let cannot =
            |e: std::io::Error| Failure::Io(format!("cannot write `{}`: {e}", path.display()));
        let file = std::fs::File::create(path).map_err(cannot)?;
        let event = CmnEvent {
            name: format!(
                "crokinole play --strategies {} --seed {} --ruleset {}",
                args.strategies, args.seed, args.ruleset
            ),
            kind: "simulation".into(),
        };
        let writer = CmnBatchWriter::new(std::io::BufWriter::new(file), &event).map_err(cannot)?;
        Ok(CmnRecords {
            path: path.to_path_buf(),
            writer,
        })
    }

    fn push(&mut self, m: &CmnMatch) -> Result<(), Failure> {
        self.writer.push(m).map_err(|e| self.failed(e))
    }

    fn failed(&self, e: std::io::Error) -> Failure {
        Failure::Io(format!("cannot write `{}`: {e}", self.path.display()))
    }

    fn finish(self) -> Result<(), Failure> {
        let path = self.path;
        self.writer
            .finish()
            .map(drop)
            .map_err(|e| Failure::Io(format!("cannot write `{}`: {e}", path.display())))
    }
}
