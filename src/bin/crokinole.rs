//! The `crokinole` command: `simulate` runs a shot file and prints the outcome file,
//! `params` prints the default board and physics, `montecarlo` runs a study (one shot
//! played many times with a player's error) and prints its summary or a shard's state,
//! `merge` combines shard states into the summary, `play` plays whole games between
//! strategies (docs/play.md), `suggest` searches for the best flick (docs/suggest.md),
//! `render` draws SVG pictures (docs/render.md); `simulate --rules` also judges each shot
//! by the rules, `--trace` adds disc paths. It
//! only parses, validates, calls the library and prints; exit code 2 for bad input, 1 for
//! I/O errors.

use clap::builder::TypedValueParser as _;
use clap::{Parser, Subcommand};
use crokinole::io::{
    FileKind, game_log_json, games_summary_json, params_json, parse_noise_json, parse_shot_file,
    parse_state, parse_study_file, parse_suggest_file, plan_json, sample_line, state_json,
    study_summary_json, write_outcomes, write_ruled_outcomes, write_ruled_traced_outcomes,
    write_traced_outcomes,
};
use crokinole::montecarlo::{CHUNK, Sampling, Shard, Tally};
use crokinole::play::{
    DEFAULT_NOISE, DEFAULT_STRATEGIES, PlayConfig, Strategy, is_inline_noise, parse_noise,
    parse_strategies,
};
use crokinole::rules::{Ruleset, check_rules, judge_outcomes};
use crokinole::trace::{trace_batch, trace_shot};
use crokinole::{Board, InputError, Outcome, Physics, Shot, run_batch};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fmt;
use std::io::{BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
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
    Simulate {
        /// Shot file to read, or `-` for standard input.
        file: PathBuf,
        /// Write the outcome file here instead of standard output.
        #[arg(long, short, value_name = "PATH")]
        output: Option<PathBuf>,
        /// Worker threads (default: all cores). The output does not depend on it.
        #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        threads: Option<u32>,
        /// Judge every shot by the rules: each shot needs `seat` (and `players` if 4);
        /// each outcome gains a `rules` object and its `discs` show the position after the
        /// rules (docs/play.md).
        #[arg(long)]
        rules: bool,
        /// Rule set for --rules.
        #[arg(long, value_name = "RULESET", requires = "rules", default_value = "traditional",
              value_parser = ruleset_parser())]
        ruleset: Ruleset,
        /// Add each shot's trace (disc paths sampled every EVERY fixed steps, default 10,
        /// and where every event happened) as a member `trace` (docs/render.md).
        #[arg(long, value_name = "EVERY", num_args = 0..=1, default_missing_value = "10",
              value_parser = clap::value_parser!(u32).range(1..))]
        trace: Option<u32>,
    },
    /// Print the default `board` and `physics` blocks in shot-file form.
    Params,
    /// Play one shot many times with a player's error and print the summary (JSON).
    ///
    /// FILE holds the position, the seat, the flick and the noise (docs/montecarlo.md).
    /// Sample i depends only on (seed, i): the output is byte-identical for every
    /// --threads, and `--shard K/N` runs plus `crokinole merge` give exactly the summary of
    /// one run.
    Montecarlo {
        /// Study file to read, or `-` for standard input.
        file: PathBuf,
        /// Samples in the study.
        #[arg(long, value_name = "N", default_value_t = 10_000,
              value_parser = clap::value_parser!(u64).range(1..))]
        samples: u64,
        /// Seed of the player's error: same seed, same samples.
        #[arg(long, value_name = "S", default_value_t = 0)]
        seed: u64,
        /// Worker threads (default: all cores). The output does not depend on it.
        #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        threads: Option<u32>,
        /// Stream every sample's outcome to PATH as JSON lines, in sample order, flushed
        /// as it goes (an interrupted run keeps every finished chunk of samples).
        #[arg(long, value_name = "PATH")]
        samples_out: Option<PathBuf>,
        /// Run only the K-th of N equal slices of the samples (1-based) and print the
        /// shard's state for `crokinole merge` instead of the summary.
        #[arg(long, value_name = "K/N")]
        shard: Option<Shard>,
        /// Write the summary (or the shard state) here instead of standard output.
        #[arg(long, short, value_name = "PATH")]
        output: Option<PathBuf>,
    },
    /// Merge the shard states of one study (from `montecarlo --shard`) into its summary.
    ///
    /// The shards must come from the same study file, seed and sample count, and cover
    /// every sample exactly once; the summary is byte-identical to one unsharded run.
    Merge {
        /// Shard state files, in any order.
        #[arg(required = true, value_name = "SHARD")]
        shards: Vec<PathBuf>,
        /// Write the summary here instead of standard output.
        #[arg(long, short, value_name = "PATH")]
        output: Option<PathBuf>,
    },
    /// Play whole games between strategies; print the game log (one game) or a summary.
    ///
    /// Each game depends only on (--seed, game index): the output is byte-identical for
    /// every --threads. Flags and both JSON shapes: docs/play.md.
    Play {
        #[command(flatten)]
        game: PlayArgs,
        /// Worker threads (default: all cores). The output does not depend on it.
        #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        threads: Option<u32>,
        /// Write the log (or the summary) here instead of standard output.
        #[arg(long, short, value_name = "PATH")]
        output: Option<PathBuf>,
    },
    /// Search for the best flick in a position and print the top flicks (JSON).
    ///
    /// FILE holds the position, the seat, the rule set, the player's error and optionally
    /// the search space (docs/suggest.md). With a sample budget the output is
    /// byte-identical for every --threads.
    Suggest {
        /// Suggest file to read, or `-` for standard input.
        file: PathBuf,
        /// Simulated shots in all (`20000`), or seconds (`3s`: not reproducible; the output
        /// gives the sample budget that reproduces it).
        #[arg(long, value_name = "N|Ts", default_value = "20000")]
        budget: crokinole::plan::Budget,
        /// Seed of the player's errors drawn by the search.
        #[arg(long, value_name = "S", default_value_t = 0)]
        seed: u64,
        /// Flicks to report.
        #[arg(long, value_name = "K", default_value_t = 5,
              value_parser = clap::value_parser!(u32).range(1..=50))]
        top: u32,
        /// What to maximise: the expected change in score difference, P(20), or
        /// P(the shot disc stays in the 15 zone).
        #[arg(long, value_name = "OBJECTIVE", default_value = "score",
              value_parser = clap::builder::PossibleValuesParser::new(["score", "twenty", "fifteen"])
                  .map(|s| s.parse::<crokinole::plan::Objective>().unwrap_or_default()))]
        objective: crokinole::plan::Objective,
        /// Worker threads (default: all cores). The output does not depend on it.
        #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        threads: Option<u32>,
        /// Write the plan here instead of standard output.
        #[arg(long, short, value_name = "PATH")]
        output: Option<PathBuf>,
    },
    /// Draw a shot, a Monte Carlo summary or a planner grid as SVG (docs/render.md).
    Render {
        #[command(subcommand)]
        what: Render,
        /// Write the SVG here instead of standard output.
        #[arg(long, short, value_name = "PATH", global = true)]
        output: Option<PathBuf>,
        /// Title line of the picture (default: names the input).
        #[arg(long, value_name = "TEXT", global = true)]
        title: Option<String>,
    },
    /// Serve an interactive board in the browser: set up a position, flick, watch the
    /// engine's shot, ask for a Monte Carlo study or a suggestion, replay a game
    /// (docs/serve.md).
    Serve {
        /// Port to listen on (0: any free port).
        #[arg(long, value_name = "P", default_value_t = 8080)]
        port: u16,
        /// Address to bind: 127.0.0.1 serves this machine only.
        #[arg(long, value_name = "H", default_value = "127.0.0.1")]
        host: String,
        /// Open the page in the default browser (`xdg-open`, `open` or `start`).
        #[arg(long)]
        open: bool,
    },
}

/// What `crokinole render` draws.
#[derive(Subcommand)]
enum Render {
    /// One shot of a shot file, simulated with a trace: paths, contacts, exits.
    Shot {
        /// Shot file to read, or `-` for standard input.
        file: PathBuf,
        /// Index of the shot in the file.
        #[arg(long, value_name = "K", default_value_t = 0)]
        shot: usize,
    },
    /// A Monte Carlo summary: the cloud of final positions and the class probabilities.
    Montecarlo {
        /// Summary file (`crokinole montecarlo` or `merge` output), or `-`.
        summary: PathBuf,
        /// The study file, to draw its board, position and intended shot.
        #[arg(long, value_name = "FILE")]
        study: Option<PathBuf>,
    },
    /// A `crokinole suggest` output: the heat map of its `grid`.
    Suggest {
        /// Suggest output to read, or `-`.
        file: PathBuf,
    },
}

/// The `--ruleset` values: `traditional` or `tournament`.
fn ruleset_parser() -> impl clap::builder::TypedValueParser<Value = Ruleset> {
    clap::builder::PossibleValuesParser::new(["traditional", "tournament"]).map(|s| {
        if s == "tournament" {
            Ruleset::Tournament
        } else {
            Ruleset::Traditional
        }
    })
}

/// Why a command failed.
enum Failure {
    /// The input is wrong (exit code 2).
    Input(InputError),
    /// Reading or writing failed (exit code 1).
    Io(String),
    /// The reader of standard output went away (`| head`): stop quietly, as coreutils do,
    /// with the status a process killed by SIGPIPE has (141).
    BrokenPipe,
}

impl Failure {
    fn exit_code(&self) -> u8 {
        match self {
            Failure::Input(_) => 2,
            Failure::Io(_) => 1,
            Failure::BrokenPipe => 141,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Input(e) => write!(f, "{e}"),
            Failure::Io(m) => f.write_str(m),
            Failure::BrokenPipe => f.write_str("broken pipe"),
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Simulate {
            file,
            output,
            threads,
            rules,
            ruleset,
            trace,
        } => simulate(
            &file,
            output.as_deref(),
            threads,
            rules.then_some(ruleset),
            trace,
        ),
        Command::Params => params(),
        Command::Montecarlo {
            file,
            samples,
            seed,
            threads,
            samples_out,
            shard,
            output,
        } => montecarlo(
            &file,
            Sampling::new(seed, samples, shard),
            shard.is_some(),
            threads,
            samples_out.as_deref(),
            output.as_deref(),
        ),
        Command::Merge { shards, output } => merge(&shards, output.as_deref()),
        Command::Play {
            game,
            threads,
            output,
        } => play(game, threads, output.as_deref()),
        Command::Suggest {
            file,
            budget,
            seed,
            top,
            objective,
            threads,
            output,
        } => suggest(
            &file,
            crokinole::plan::PlanConfig {
                objective,
                budget,
                seed,
                top: top as usize,
                grid: true,
            },
            threads,
            output.as_deref(),
        ),
        Command::Render {
            what,
            output,
            title,
        } => render(what, title, output.as_deref()),
        Command::Serve { port, host, open } => serve(host, port, open),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::BrokenPipe) => ExitCode::from(Failure::BrokenPipe.exit_code()),
        Err(failure) => {
            eprintln!("error: {failure}");
            ExitCode::from(failure.exit_code())
        }
    }
}

/// `crokinole simulate`: read and check every shot (with `rules`, also its seat and
/// placement), run them on `threads` workers, write the outcomes (with `rules`, judged;
/// with `trace`, traced every that many steps). Nothing is written unless every shot is
/// valid.
fn simulate(
    file: &Path,
    output: Option<&Path>,
    threads: Option<u32>,
    rules: Option<Ruleset>,
    trace: Option<u32>,
) -> Result<(), Failure> {
    let text = read_input(file)?;
    let (board, physics, entries) =
        parse_shot_file(&text).map_err(|e| Failure::Input(of_kind(e, &text, FileKind::Shots)))?;
    if let Some(ruleset) = rules {
        check_rules(&board, &physics, &entries, ruleset).map_err(Failure::Input)?;
    }
    let shots: Vec<Shot> = entries.iter().map(|e| e.shot.clone()).collect();
    if let Some(every) = trace {
        let traces = pool(threads)?
            .install(|| trace_batch(&board, &physics, &shots, every))
            .into_iter()
            .collect::<Result<Vec<_>, _>>()
            .map_err(Failure::Input)?;
        return match rules {
            None => write_output(output, |w| write_traced_outcomes(w, &traces)),
            Some(ruleset) => {
                let outcomes: Vec<Outcome> = traces.iter().map(|t| t.outcome.clone()).collect();
                let verdicts = judge_outcomes(&board, &physics, &entries, &outcomes, ruleset)
                    .map_err(Failure::Input)?;
                write_output(output, |w| {
                    write_ruled_traced_outcomes(w, &traces, &verdicts)
                })
            }
        };
    }
    let outcomes = run(&board, &physics, &shots, threads)?;
    match rules {
        None => write_output(output, |w| write_outcomes(w, &outcomes)),
        Some(ruleset) => {
            let verdicts = judge_outcomes(&board, &physics, &entries, &outcomes, ruleset)
                .map_err(Failure::Input)?;
            write_output(output, |w| write_ruled_outcomes(w, &outcomes, &verdicts))
        }
    }
}

/// `crokinole params`: the defaults, in the form a shot file's blocks take.
fn params() -> Result<(), Failure> {
    let text = params_json(&Board::tournament(), &Physics::default());
    write_output(None, |w| writeln!(w, "{text}"))
}

/// Most worker threads any command starts: far more than any machine has cores (the
/// output does not depend on the count), few enough that a typo like `--threads 100000`
/// cannot exhaust memory or hang the start.
const MAX_THREADS: u32 = 256;

/// A pool of `threads` workers (all cores if `None`), at most [`MAX_THREADS`] (with a note
/// on standard error when the request was larger).
fn pool(threads: Option<u32>) -> Result<rayon::ThreadPool, Failure> {
    let threads = threads.map(|n| {
        if n > MAX_THREADS {
            eprintln!("note: --threads {n} capped at {MAX_THREADS}; the output is the same");
        }
        n.min(MAX_THREADS)
    });
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.map_or(0, |n| n as usize))
        .build()
        .map_err(|e| Failure::Io(format!("cannot start worker threads: {e}")))
}

/// Runs the shots on a pool of `threads` workers (all cores if `None`).
fn run(
    board: &Board,
    physics: &Physics,
    shots: &[Shot],
    threads: Option<u32>,
) -> Result<Vec<Outcome>, Failure> {
    pool(threads)?
        .install(|| run_batch(board, physics, shots))
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .map_err(Failure::Input)
}

/// The text of `file` (`-` is standard input).
fn read_input(file: &Path) -> Result<String, Failure> {
    let mut bytes = Vec::new();
    let read = if file == Path::new("-") {
        std::io::stdin().lock().read_to_end(&mut bytes)
    } else {
        std::fs::File::open(file).and_then(|mut f| f.read_to_end(&mut bytes))
    };
    read.map_err(|e| Failure::Io(format!("cannot read `{}`: {e}", file.display())))?;
    String::from_utf8(bytes).map_err(|e| {
        Failure::Input(InputError::new(
            "file",
            format!(
                "not valid UTF-8 (bad byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        ))
    })
}

/// Runs `write` on a buffered `output` file, or standard output if `None`, and flushes. A
/// file is written under a temporary name beside it and renamed into place once complete,
/// so a failed write never leaves a truncated file behind. A closed pipe on standard
/// output ends the command quietly ([`Failure::BrokenPipe`]).
fn write_output(
    output: Option<&Path>,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), Failure> {
    let Some(path) = output else {
        let mut w = BufWriter::new(std::io::stdout().lock());
        return write(&mut w)
            .and_then(|()| w.flush())
            .map_err(|e| write_failure("standard output", e));
    };
    let name = format!("`{}`", path.display());
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp-{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let written = std::fs::File::create(&tmp).and_then(|file| {
        let mut w = BufWriter::new(file);
        write(&mut w)?;
        w.into_inner()
            .map_err(|e| e.into_error())
            .and_then(|f| f.sync_all())
    });
    match written.and_then(|()| std::fs::rename(&tmp, path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(write_failure(&name, e))
        }
    }
}

/// The failure for a write to `name` that failed with `e`.
fn write_failure(name: &str, e: std::io::Error) -> Failure {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        Failure::BrokenPipe
    } else {
        Failure::Io(format!("cannot write {name}: {e}"))
    }
}

/// A progress bar with rate and ETA on standard error when it is a terminal; hidden
/// otherwise (logs and pipes stay clean).
fn progress_bar(len: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{wide_bar} {human_pos}/{human_len} samples, {rate} samples/s, ETA {eta}",
    ) {
        let style = style.with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn fmt::Write| {
                let _ = write!(w, "{:.0}", state.per_sec());
            },
        );
        bar.set_style(style);
    }
    bar
}

/// `crokinole montecarlo`: read and check the study and the plan, then (only then) create
/// the samples file, run the samples in order on `threads` workers, streaming each chunk's
/// lines to the samples file as it completes, and print the summary, or the shard's state
/// with `--shard`.
fn montecarlo(
    file: &Path,
    plan: Result<Sampling, InputError>,
    sharded: bool,
    threads: Option<u32>,
    samples_out: Option<&Path>,
    output: Option<&Path>,
) -> Result<(), Failure> {
    let text = read_input(file)?;
    let study =
        parse_study_file(&text).map_err(|e| Failure::Input(of_kind(e, &text, FileKind::Study)))?;
    let plan = plan.map_err(Failure::Input)?;
    let pool = pool(threads)?;
    let mut lines = match samples_out {
        Some(path) => Some(SampleLines::create(path)?),
        None => None,
    };
    let bar = progress_bar(plan.range.end - plan.range.start);
    let write_lines = lines.is_some();
    let tally = pool.install(|| {
        study.run(
            &plan,
            CHUNK,
            |s| write_lines.then(|| sample_line(s)),
            |line| {
                bar.inc(1);
                match (&mut lines, line) {
                    (Some(out), Some(line)) => out.push(&line),
                    _ => Ok(()),
                }
            },
        )
    });
    bar.finish_and_clear();
    let tally = tally?;
    if let Some(out) = lines {
        out.finish()?;
    }
    let text = if sharded {
        state_json(&tally)
    } else {
        study_summary_json(&tally.summary().map_err(Failure::Input)?)
    };
    write_output(output, |w| w.write_all(text.as_bytes()))
}

/// The samples file: lines collect in memory and go to the file a chunk at a time, each
/// chunk in one write of whole lines, so a run stopped at any point leaves only whole
/// lines of finished samples.
struct SampleLines {
    path: PathBuf,
    file: std::fs::File,
    buf: Vec<u8>,
    pending: usize,
}

impl SampleLines {
    fn create(path: &Path) -> Result<SampleLines, Failure> {
        let file = std::fs::File::create(path)
            .map_err(|e| Failure::Io(format!("cannot write `{}`: {e}", path.display())))?;
        Ok(SampleLines {
            path: path.to_path_buf(),
            file,
            buf: Vec::new(),
            pending: 0,
        })
    }

    fn push(&mut self, line: &str) -> Result<(), Failure> {
        self.buf.extend_from_slice(line.as_bytes());
        self.pending += 1;
        if self.pending == CHUNK {
            self.write()?;
        }
        Ok(())
    }

    fn write(&mut self) -> Result<(), Failure> {
        self.file
            .write_all(&self.buf)
            .and_then(|()| self.file.flush())
            .map_err(|e| Failure::Io(format!("cannot write `{}`: {e}", self.path.display())))?;
        self.buf.clear();
        self.pending = 0;
        Ok(())
    }

    fn finish(mut self) -> Result<(), Failure> {
        self.write()
    }
}

/// `crokinole merge`: read every shard state, check that they belong together and cover
/// the study exactly once, and print the summary one run would have printed.
fn merge(shards: &[PathBuf], output: Option<&Path>) -> Result<(), Failure> {
    let mut parts = Vec::with_capacity(shards.len());
    for path in shards {
        let text = read_input(path)?;
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
    let summary = whole.summary().map_err(Failure::Input)?;
    write_output(output, |w| {
        w.write_all(study_summary_json(&summary).as_bytes())
    })
}

/// The game flags of `crokinole play`.
#[derive(clap::Args)]
struct PlayArgs {
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
    /// The players' error: `none`, `offset=..,aim=..,speed=..,spin=..` (missing keys
    /// 0), or a JSON file holding such an object.
    #[arg(long, value_name = "SPEC|FILE", default_value = DEFAULT_NOISE)]
    noise: String,
    /// Seed of the run: game g is a function of (seed, g).
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    /// Games to play: 1 prints the game log, more print a summary.
    #[arg(long, value_name = "N", default_value_t = 1,
              value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// A game not over after this many rounds stops unfinished (traditional games).
    #[arg(long, value_name = "N", default_value_t = 100,
              value_parser = clap::value_parser!(u32).range(1..))]
    max_rounds: u32,
}

/// `crokinole play`: read and check the noise and the strategies, then play the games on
/// `threads` workers and print the game log (one game) or the summary (more).
fn play(args: PlayArgs, threads: Option<u32>, output: Option<&Path>) -> Result<(), Failure> {
    let noise = if is_inline_noise(&args.noise) {
        parse_noise(&args.noise)
    } else {
        // A value that is neither inline nor a readable file is a bad flag (exit 2).
        let text = read_input(Path::new(&args.noise)).map_err(|e| {
            Failure::Input(InputError::new(
                "noise",
                format!("not `none`, KEY=VALUE pairs or a readable file: {e}"),
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
    let pool = pool(threads)?;
    let text = if args.games == 1 {
        pool.install(|| config.play(0))
            .map(|log| game_log_json(&log))
    } else {
        pool.install(|| config.play_many(args.games))
            .map(|s| games_summary_json(&s))
    }
    .map_err(|e| Failure::Io(format!("{e}")))?;
    write_output(output, |w| w.write_all(text.as_bytes()))
}

/// `file`'s error with the file named in its problem.
fn in_file(e: InputError, file: &Path) -> Failure {
    Failure::Input(InputError {
        problem: format!("{} (in `{}`)", e.problem, file.display()),
        ..e
    })
}

/// Input `text` refused while read as a file of kind `expected`: if it looks like a file of
/// another kind, the message says what it looks like and which command reads it.
fn of_kind(e: InputError, text: &str, expected: FileKind) -> InputError {
    match FileKind::sniff(text) {
        Some(kind) if kind != expected => InputError {
            problem: format!("{}; this file looks like {}", e.problem, kind.describe()),
            ..e
        },
        _ => e,
    }
}

/// `crokinole render`: read and check the input, draw it, and only then write the SVG.
fn render(what: Render, title: Option<String>, output: Option<&Path>) -> Result<(), Failure> {
    use crokinole::render::{cloud_svg, heatmap_svg, parse_suggest, parse_summary, shot_svg};
    let svg = match what {
        Render::Shot { file, shot } => {
            let text = read_input(&file)?;
            let (board, physics, entries) = parse_shot_file(&text)
                .map_err(|e| in_file(of_kind(e, &text, FileKind::Shots), &file))?;
            let entry = entries.get(shot).ok_or_else(|| {
                Failure::Input(InputError::new(
                    "shot",
                    format!(
                        "no shot {shot}: `{}` has {} shots",
                        file.display(),
                        entries.len()
                    ),
                ))
            })?;
            let trace = trace_shot(&board, &physics, &entry.shot, 10)
                .map_err(|e| in_file(e.in_shot(shot), &file))?;
            let title = title.unwrap_or_else(|| format!("{} shot {shot}", file.display()));
            shot_svg(&board, &trace, &title)
        }
        Render::Montecarlo { summary, study } => {
            let text = read_input(&summary)?;
            let cloud = parse_summary(&text)
                .map_err(|e| in_file(of_kind(e, &text, FileKind::Summary), &summary))?;
            let study = match &study {
                Some(path) => {
                    let text = read_input(path)?;
                    Some(
                        parse_study_file(&text)
                            .map_err(|e| in_file(of_kind(e, &text, FileKind::Study), path))?,
                    )
                }
                None => None,
            };
            let (board, physics) = study.as_ref().map_or_else(
                || (Board::tournament(), Physics::default()),
                |s| {
                    let situation = &s.spec().situation;
                    (situation.board.clone(), situation.physics.clone())
                },
            );
            let shot = study.as_ref().map(|s| s.intended_shot());
            let title = title.unwrap_or_else(|| format!("Monte Carlo: {}", summary.display()));
            cloud_svg(&board, &physics, &cloud, shot.as_ref(), &title)
        }
        Render::Suggest { file } => {
            let text = read_input(&file)?;
            let grid = parse_suggest(&text)
                .map_err(|e| in_file(of_kind(e, &text, FileKind::Plan), &file))?;
            let title = title.unwrap_or_else(|| format!("Planner: {}", file.display()));
            heatmap_svg(&grid, &title)
        }
    };
    write_output(output, |w| w.write_all(svg.as_bytes()))
}

/// `crokinole suggest`: read and check the suggest file, plan on `threads` workers, print
/// the plan.
fn suggest(
    file: &Path,
    config: crokinole::plan::PlanConfig,
    threads: Option<u32>,
    output: Option<&Path>,
) -> Result<(), Failure> {
    let text = read_input(file)?;
    let request = parse_suggest_file(&text)
        .map_err(|e| Failure::Input(of_kind(e, &text, FileKind::Suggest)))?;
    let plan = pool(threads)?
        .install(|| crokinole::plan::suggest(&request, &config))
        .map_err(Failure::Input)?;
    let text = plan_json(&plan);
    write_output(output, |w| w.write_all(text.as_bytes()))
}

/// `crokinole serve`: bind, print the page's address, open it if asked, serve until
/// stopped.
fn serve(host: String, port: u16, open: bool) -> Result<(), Failure> {
    use crokinole::serve::{ServeConfig, Server};
    let server = Server::bind(ServeConfig {
        host,
        port,
        ..ServeConfig::default()
    })
    .map_err(Failure::Io)?;
    let url = server.url();
    println!("crokinole serve: {url} (Ctrl-C stops)");
    let _ = std::io::stdout().flush();
    if open {
        let opener = if cfg!(target_os = "macos") {
            "open"
        } else if cfg!(windows) {
            "explorer"
        } else {
            "xdg-open"
        };
        if let Err(e) = std::process::Command::new(opener).arg(&url).spawn() {
            eprintln!("note: cannot open a browser ({opener}: {e}); open {url} yourself");
        }
    }
    server.run();
    Ok(())
}
