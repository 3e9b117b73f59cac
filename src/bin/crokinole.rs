//! The `crokinole` command: `simulate` runs a shot file and prints the outcome file,
//! `params` prints the default board and physics, `montecarlo` runs a study (one shot
//! played many times with a player's error) and prints its summary or a shard's state,
//! `merge` combines shard states into the summary, `play` plays whole games between
//! strategies (docs/play.md), `suggest` searches for the best flick (docs/suggest.md),
//! `render` draws SVG pictures (docs/render.md), `flick` simulates and draws one flick
//! given in player terms (docs/flick.md); `simulate --rules` also judges each shot by the
//! rules, `--trace` adds disc paths. JSON is printed in each command's readable layout,
//! on one line with `--compact`. It
//! only parses, validates, calls the library and prints; exit code 2 for bad input, 1 for
//! I/O errors, 128 + the signal's number for a `montecarlo` or `play --games N` run
//! stopped by a signal.

use clap::builder::TypedValueParser as _;
use clap::{Parser, Subcommand};
use crokinole::io::{
    FileKind, Layout, SAMPLE_CSV_HEADER, compact_json, game_log_json, games_summary_json,
    outcomes_csv, params_json, parse_noise_json, parse_plan, parse_shot_file, parse_state,
    parse_study_file, parse_suggest_file, parse_summary, plan_json, sample_csv_row, sample_line,
    shot_file_json, state_json, study_summary_json,
};
use crokinole::montecarlo::{CHUNK, Sampling, Shard, Study, StudySpec, Tally};
use crokinole::play::{
    DEFAULT_NOISE, DEFAULT_STRATEGIES, PlayConfig, Strategy, is_inline_noise, parse_noise,
    parse_strategies,
};
use crokinole::rules::{Ruleset, ShotEntry, check_rules, judge_outcomes};
use crokinole::trace::{trace_batch, trace_shot};
use crokinole::{Board, InputError, Outcome, Physics, Shot, run_batch};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fmt;
use std::io::{BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

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
        /// Print the outcomes as CSV, one row per disc per shot (columns in
        /// docs/shot-file.md), instead of JSON.
        #[arg(long, conflicts_with_all = ["trace", "compact"])]
        csv: bool,
        #[command(flatten)]
        layout: LayoutArg,
    },
    /// Print the default `board` and `physics` blocks in shot-file form.
    Params {
        /// Print the named skill levels instead (docs/skill.md).
        #[arg(long)]
        skills: bool,
        #[command(flatten)]
        layout: LayoutArg,
    },
    /// Play one shot many times with a player's error and print the summary (JSON).
    ///
    /// FILE holds the position, the seat, the flick and the noise (docs/montecarlo.md).
    /// Sample i depends only on (seed, i): the output is byte-identical for every
    /// --threads, and `--shard K/N` runs plus `crokinole merge` give exactly the summary of
    /// one run.
    Montecarlo {
        /// Study file to read, or `-` for standard input.
        file: PathBuf,
        /// Samples in the study: an integer, also in scientific notation (`1e6`).
        #[arg(long, value_name = "N", default_value = "10000", value_parser = count_parser)]
        samples: u64,
        /// Seed of the player's error: same seed, same samples.
        #[arg(long, value_name = "S", default_value_t = 0)]
        seed: u64,
        /// Worker threads (default: all cores). The output does not depend on it.
        #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        threads: Option<u32>,
        /// Stream every sample's outcome to PATH as JSON lines, in sample order, written
        /// as it goes (a run stopped by Ctrl-C keeps every finished chunk); as CSV
        /// (one row per sample, columns in docs/montecarlo.md) when PATH ends in `.csv`.
        #[arg(long, value_name = "PATH")]
        samples_out: Option<PathBuf>,
        /// Include the shot disc's final position and class for the first 10,000
        /// samples (`shooter_positions`, what `render montecarlo` draws) in the summary.
        #[arg(long)]
        positions: bool,
        #[command(flatten)]
        layout: LayoutArg,
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
        /// Include the per-sample positions and classes in the summary (as `montecarlo
        /// --positions`).
        #[arg(long)]
        positions: bool,
        #[command(flatten)]
        layout: LayoutArg,
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
        #[command(flatten)]
        layout: LayoutArg,
    },
    /// Search for the best flick in a position and print the top flicks (JSON).
    ///
    /// FILE holds the position, the seat, the rule set, the player's error and optionally
    /// the search space (docs/suggest.md). With a sample budget the output is
    /// byte-identical for every --threads.
    Suggest {
        /// Suggest file to read, or `-` for standard input.
        file: PathBuf,
        /// Simulated shots in all (`20000`, `2e4`), or seconds (`3s`: not reproducible;
        /// the output gives the sample budget that reproduces it).
        #[arg(long, value_name = "N|Ts", default_value = "20000", value_parser = budget_parser)]
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
        #[command(flatten)]
        layout: LayoutArg,
    },
    /// Simulate one flick given in player terms and print its outcome; draw it with --svg.
    ///
    /// FILE is a study file (its intended flick, no noise), or a suggest file with
    /// `--plan PLAN` (the planner's flick of rank --rank) or with the flick's flags. Flags
    /// given override the file's flick. The outcome is the outcome file `simulate` prints
    /// for the shot (judged by the rules when the file has a rule set); docs/flick.md.
    Flick(FlickArgs),
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
        /// Magnify the board to where the discs ended up (the dots and the position).
        #[arg(long)]
        zoom: bool,
    },
    /// A `crokinole suggest` output: the heat map of its `grid`.
    Suggest {
        /// Suggest output to read, or `-`.
        file: PathBuf,
    },
}

/// `--compact`, on every command that prints JSON.
#[derive(clap::Args, Clone, Copy)]
struct LayoutArg {
    /// Print the JSON on one line, without spaces, instead of the readable layout.
    #[arg(long)]
    compact: bool,
}

impl LayoutArg {
    fn layout(self) -> Layout {
        if self.compact {
            Layout::Compact
        } else {
            Layout::Readable
        }
    }
}

/// `text` (JSON in its readable layout) as `layout` asks.
fn laid_out(text: String, layout: Layout) -> String {
    match layout {
        Layout::Readable => text,
        Layout::Compact => compact_json(&text),
    }
}

/// The flags of `crokinole flick`.
#[derive(clap::Args)]
struct FlickArgs {
    /// A study file, or a suggest file (then --plan or --speed is needed), or `-`.
    file: PathBuf,
    /// A plan (`crokinole suggest` output for FILE): play its flick of rank --rank.
    #[arg(long, value_name = "PLAN")]
    plan: Option<PathBuf>,
    /// The rank of the plan's flick to play (1 = the best).
    #[arg(long, value_name = "K", default_value_t = 1, requires = "plan",
          value_parser = clap::value_parser!(u32).range(1..))]
    rank: u32,
    /// The shooter's seat (0-3), instead of the file's.
    #[arg(long, value_name = "S", value_parser = clap::value_parser!(u8).range(0..=3))]
    seat: Option<u8>,
    /// Place on the shooting line, m, positive to the player's right.
    #[arg(long, value_name = "M", allow_negative_numbers = true)]
    offset: Option<f64>,
    /// Aim, rad, counter-clockwise from straight ahead (or from --target's direction).
    #[arg(long, value_name = "RAD", allow_negative_numbers = true)]
    aim: Option<f64>,
    /// A point `X,Y` (m, board frame) to aim at; `none` aims straight ahead.
    #[arg(long, value_name = "X,Y|none")]
    target: Option<String>,
    /// Speed of the disc's centre, m/s.
    #[arg(long, value_name = "M/S")]
    speed: Option<f64>,
    /// Spin, rad/s, counter-clockwise seen from above.
    #[arg(long, value_name = "RAD/S", allow_negative_numbers = true)]
    spin: Option<f64>,
    /// Also write the picture of the shot (SVG) here.
    #[arg(long, value_name = "OUT.svg")]
    svg: Option<PathBuf>,
    /// Also write the shot file made (what `crokinole simulate` reads) here.
    #[arg(long, value_name = "PATH")]
    shot_out: Option<PathBuf>,
    /// Add the shot's trace (paths sampled every EVERY steps, default 10) to the outcome.
    #[arg(long, value_name = "EVERY", num_args = 0..=1, default_missing_value = "10",
          value_parser = clap::value_parser!(u32).range(1..))]
    trace: Option<u32>,
    /// Title of the picture (default: names the file and the flick).
    #[arg(long, value_name = "TEXT")]
    title: Option<String>,
    /// Write the outcome here instead of standard output.
    #[arg(long, short, value_name = "PATH")]
    output: Option<PathBuf>,
    #[command(flatten)]
    layout: LayoutArg,
}

/// A count (`--samples`, `--games`, `--budget`): a positive integer, written plainly
/// (`20000`, `20_000`) or in scientific notation (`2e4`, `1.5e6`) as long as the value is a
/// whole number. A fraction is refused with the integer to write instead.
fn count_parser(text: &str) -> Result<u64, String> {
    match whole_number(text)? {
        0 => Err(format!("`{text}` must be at least 1")),
        n => Ok(n),
    }
}

/// A whole number, 0 included, in the notations [`count_parser`] takes.
fn whole_number(text: &str) -> Result<u64, String> {
    let t = text.trim().replace('_', "");
    let (mantissa, exp) = match t.find(['e', 'E']) {
        Some(k) => (&t[..k], &t[k + 1..]),
        None => (t.as_str(), "0"),
    };
    let exp: i32 = exp.strip_prefix('+').unwrap_or(exp).parse().map_err(|_| {
        format!("`{text}` is not a count: write a whole number such as 20000 or 2e4")
    })?;
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() && frac.is_empty()
        || !int.chars().chain(frac.chars()).all(|c| c.is_ascii_digit())
    {
        return Err(format!(
            "`{text}` is not a count: write a whole number such as 20000 or 2e4"
        ));
    }
    // value = digits * 10^(exp - frac.len()), exactly, in integers.
    let digits = format!("{int}{frac}");
    let digits = digits.trim_start_matches('0');
    let shift = exp - frac.len() as i32;
    let (digits, shift) = {
        let trimmed = digits.trim_end_matches('0');
        let zeros = (digits.len() - trimmed.len()) as i32;
        (trimmed, shift + zeros)
    };
    let value: Option<u64> = if digits.is_empty() {
        Some(0)
    } else if shift < 0 {
        None
    } else {
        digits.parse::<u64>().ok().and_then(|d| {
            10u64
                .checked_pow(shift as u32)
                .and_then(|p| d.checked_mul(p))
        })
    };
    match value {
        Some(v) => Ok(v),
        None if shift < 0 => {
            let approx: f64 = t.parse().unwrap_or(0.0);
            Err(format!(
                "`{text}` is not a whole number: a count is an integer; write {} or {} \
                 (scientific notation is fine when the value is whole: 1e6, 2.5e4)",
                approx.floor().max(1.0),
                approx.ceil().max(1.0)
            ))
        }
        None => Err(format!("`{text}` is too large (at most {})", u64::MAX)),
    }
}

/// `--budget`: `Ts` (seconds) as the planner reads it, or a count as [`count_parser`].
fn budget_parser(text: &str) -> Result<crokinole::plan::Budget, String> {
    if text.trim().ends_with('s') {
        return text.parse();
    }
    // The planner's own checks (its minimum budget) judge the number.
    whole_number(text)?.to_string().parse()
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
    /// A signal stopped the run before its end ([`StopSignals`]): what finished was
    /// written; exit code 128 + the signal's number, as a shell reports a killed process.
    Stopped { signal: i32, message: String },
}

impl Failure {
    fn exit_code(&self) -> u8 {
        match self {
            Failure::Input(_) => 2,
            Failure::Io(_) => 1,
            Failure::BrokenPipe => 141,
            Failure::Stopped { signal, .. } => u8::try_from(128 + signal).unwrap_or(1),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Input(e) => write!(f, "{e}"),
            Failure::Io(m) => f.write_str(m),
            Failure::BrokenPipe => f.write_str("broken pipe"),
            Failure::Stopped { message, .. } => f.write_str(message),
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
            csv,
            layout,
        } => simulate(
            &file,
            output.as_deref(),
            threads,
            rules.then_some(ruleset),
            trace,
            if csv {
                Printed::Csv
            } else {
                Printed::Json(layout.layout())
            },
        ),
        Command::Params { skills, layout } => params(skills, layout.layout()),
        Command::Montecarlo {
            file,
            samples,
            seed,
            threads,
            samples_out,
            positions,
            layout,
            shard,
            output,
        } => montecarlo(
            &file,
            Sampling::new(seed, samples, shard),
            shard.is_some(),
            threads,
            samples_out.as_deref(),
            Summarised {
                positions,
                layout: layout.layout(),
            },
            output.as_deref(),
        ),
        Command::Merge {
            shards,
            positions,
            layout,
            output,
        } => merge(
            &shards,
            Summarised {
                positions,
                layout: layout.layout(),
            },
            output.as_deref(),
        ),
        Command::Play {
            game,
            threads,
            output,
            layout,
        } => play(game, threads, layout.layout(), output.as_deref()),
        Command::Suggest {
            file,
            budget,
            seed,
            top,
            objective,
            threads,
            output,
            layout,
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
            layout.layout(),
            output.as_deref(),
        ),
        Command::Flick(args) => flick(args),
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

/// How `simulate` and `flick` print the outcome file.
#[derive(Clone, Copy)]
enum Printed {
    /// JSON: the readable layout (one outcome a line) or `--compact`.
    Json(Layout),
    /// `--csv`: one row per disc per shot.
    Csv,
}

/// The outcome file of `outcomes` (judged by `verdicts` with `--rules`, traced with
/// `--trace`), as `printed` asks.
fn outcome_text(
    outcomes: &[Outcome],
    traces: Option<&[crokinole::trace::Trace]>,
    verdicts: Option<&[crokinole::rules::ShotVerdict]>,
    printed: Printed,
) -> String {
    let file = crokinole::io::OutcomeFile {
        outcomes,
        verdicts,
        traces,
    };
    match printed {
        Printed::Csv => outcomes_csv(outcomes, verdicts),
        Printed::Json(layout) => crokinole::io::outcome_file_text(&file, layout),
    }
}

/// `crokinole simulate`: read and check every shot (with `rules`, also its seat and
/// placement), run them on `threads` workers, write the outcomes (with `rules`, judged;
/// with `trace`, traced every that many steps) as `printed` asks. Nothing is written
/// unless every shot is valid.
fn simulate(
    file: &Path,
    output: Option<&Path>,
    threads: Option<u32>,
    rules: Option<Ruleset>,
    trace: Option<u32>,
    printed: Printed,
) -> Result<(), Failure> {
    let text = read_input(file)?;
    let (board, physics, entries) =
        parse_shot_file(&text).map_err(|e| Failure::Input(of_kind(e, &text, FileKind::Shots)))?;
    if let Some(ruleset) = rules {
        check_rules(&board, &physics, &entries, ruleset).map_err(Failure::Input)?;
    }
    let shots: Vec<Shot> = entries.iter().map(|e| e.shot.clone()).collect();
    let traces = match trace {
        Some(every) => Some(
            pool(threads)?
                .install(|| trace_batch(&board, &physics, &shots, every))
                .into_iter()
                .collect::<Result<Vec<_>, _>>()
                .map_err(Failure::Input)?,
        ),
        None => None,
    };
    let outcomes = match &traces {
        Some(t) => t.iter().map(|t| t.outcome.clone()).collect(),
        None => run(&board, &physics, &shots, threads)?,
    };
    let verdicts = match rules {
        Some(ruleset) => Some(
            judge_outcomes(&board, &physics, &entries, &outcomes, ruleset)
                .map_err(Failure::Input)?,
        ),
        None => None,
    };
    let text = outcome_text(&outcomes, traces.as_deref(), verdicts.as_deref(), printed);
    write_output(output, |w| w.write_all(text.as_bytes()))
}

/// `crokinole params`: the defaults, in the form a shot file's blocks take; with
/// `--skills`, the named skill levels.
fn params(skills: bool, layout: Layout) -> Result<(), Failure> {
    let text = if skills {
        crokinole::io::skills_json()
    } else {
        params_json(&Board::tournament(), &Physics::default()) + "\n"
    };
    let text = laid_out(text, layout);
    write_output(None, |w| w.write_all(text.as_bytes()))
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
        if stdout_was_closed() {
            return Err(Failure::Io(
                "cannot write standard output: it was closed when the command started; \
                 redirect it (`> FILE`, `> /dev/null`) or give `--output FILE`"
                    .into(),
            ));
        }
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

/// Whether standard output was closed when the process started (`crokinole ... >&-`).
///
/// Rust's runtime reopens a closed descriptor 0-2 on `/dev/null` before `main`, read-write,
/// so writes to it would succeed and the output vanish with exit status 0. A shell's
/// `> /dev/null` opens it write-only, so `/dev/null` open read-write on descriptor 1 is
/// taken as "was closed" (Linux, from `/proc/self`; elsewhere never).
fn stdout_was_closed() -> bool {
    if !cfg!(target_os = "linux") {
        return false;
    }
    let is_null = std::fs::read_link("/proc/self/fd/1").is_ok_and(|p| p == Path::new("/dev/null"));
    let read_write = || {
        let info = std::fs::read_to_string("/proc/self/fdinfo/1").ok()?;
        let flags = info.lines().find_map(|l| l.strip_prefix("flags:"))?;
        let flags = u32::from_str_radix(flags.trim(), 8).ok()?;
        Some(flags & 0o3 == 0o2)
    };
    is_null && read_write() == Some(true)
}

/// The failure for a write to `name` that failed with `e`.
fn write_failure(name: &str, e: std::io::Error) -> Failure {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        Failure::BrokenPipe
    } else {
        Failure::Io(format!("cannot write {name}: {e}"))
    }
}

/// Progress of a long command (`montecarlo`, `play`, `suggest`) on standard error, drawn
/// only when standard error is a terminal (logs and pipes stay clean; standard output is
/// never touched): a bar with the count, the elapsed time, the rate and, once some work is
/// done, the time left; or, when the amount of work is not known ahead, a spinner with the
/// elapsed time. [`Progress::finish`] clears it and leaves one summary line.
struct Progress {
    bar: Option<ProgressBar>,
    start: Instant,
}

/// The time left is shown once this share of the work is done and this much time has
/// passed: an estimate from the first instants (thread start-up, a slow first chunk) would
/// say hours.
const ETA_AFTER_SHARE: f64 = 0.02;
const ETA_AFTER: Duration = Duration::from_secs(2);

/// `d` for a person: `850 ms`, `12.3 s`, `4 min 05 s`, `2 h 03 min`.
fn human_duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 1.0 {
        format!("{:.0} ms", s * 1e3)
    } else if s < 60.0 {
        format!("{s:.1} s")
    } else if s < 3600.0 {
        format!("{} min {:02} s", (s / 60.0) as u64, (s % 60.0) as u64)
    } else {
        format!(
            "{} h {:02} min",
            (s / 3600.0) as u64,
            ((s % 3600.0) / 60.0) as u64
        )
    }
}

impl Progress {
    /// Whether progress is drawn: standard error is a terminal.
    fn wanted() -> bool {
        std::io::stderr().is_terminal()
    }

    /// A bar over `len` things called `unit` (plural).
    fn bar(len: u64, unit: &str) -> Progress {
        let start = Instant::now();
        if !Progress::wanted() {
            return Progress { bar: None, start };
        }
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template(&format!(
            "{{wide_bar}} {{human_pos}}/{{human_len}} {unit} | {{took}} | {{rate}} {unit}/s{{left}}"
        )) {
            let style = style
                .with_key(
                    "rate",
                    |state: &indicatif::ProgressState, w: &mut dyn fmt::Write| {
                        let _ = write!(w, "{:.0}", state.per_sec());
                    },
                )
                .with_key(
                    "took",
                    |state: &indicatif::ProgressState, w: &mut dyn fmt::Write| {
                        let _ = write!(w, "{}", human_duration(state.elapsed()));
                    },
                )
                .with_key(
                    "left",
                    |state: &indicatif::ProgressState, w: &mut dyn fmt::Write| {
                        let done = state.fraction() as f64;
                        if done >= ETA_AFTER_SHARE && state.elapsed() >= ETA_AFTER && done < 1.0 {
                            let left = state.elapsed().as_secs_f64() * (1.0 - done) / done;
                            let _ = write!(
                                w,
                                " | {} left",
                                human_duration(Duration::from_secs_f64(left))
                            );
                        }
                    },
                );
            bar.set_style(style);
        }
        Progress {
            bar: Some(bar),
            start,
        }
    }

    /// A spinner saying `what` with the elapsed time, for work of unknown length.
    fn spinner(what: &str) -> Progress {
        let start = Instant::now();
        if !Progress::wanted() {
            return Progress { bar: None, start };
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} | {took}") {
            bar.set_style(style.with_key(
                "took",
                |state: &indicatif::ProgressState, w: &mut dyn fmt::Write| {
                    let _ = write!(w, "{}", human_duration(state.elapsed()));
                },
            ));
        }
        bar.set_message(what.to_string());
        bar.enable_steady_tick(Duration::from_millis(120));
        Progress {
            bar: Some(bar),
            start,
        }
    }

    /// `n` more things done.
    fn inc(&self, n: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(n);
        }
    }

    /// Clears the bar and, if it was drawn, leaves `summary` and the time taken on one
    /// line (`10000 samples in 1.2 s`).
    fn finish(self, summary: impl FnOnce(Duration) -> String) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
            eprintln!("{}", summary(self.start.elapsed()));
        }
    }

    /// Clears the bar without a summary (the command failed).
    fn abandon(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}

/// `n` and the noun, singular for 1: `1 game`, `3 games`.
fn count_of(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// What a summary (`montecarlo`, `merge`) prints: with the positions or not, in which
/// layout.
#[derive(Clone, Copy)]
struct Summarised {
    positions: bool,
    layout: Layout,
}

impl Summarised {
    fn text(self, summary: crokinole::montecarlo::StudySummary) -> String {
        let summary = if self.positions {
            summary
        } else {
            summary.without_positions()
        };
        laid_out(study_summary_json(&summary), self.layout)
    }
}

/// `crokinole montecarlo`: read and check the study and the plan, then (only then) create
/// the samples file, run the samples in order on `threads` workers, streaming each chunk's
/// lines (JSON, or CSV for a `.csv` path) to the samples file as it completes, and print
/// the summary, or the shard's state with `--shard`.
fn montecarlo(
    file: &Path,
    plan: Result<Sampling, InputError>,
    sharded: bool,
    threads: Option<u32>,
    samples_out: Option<&Path>,
    summarised: Summarised,
    output: Option<&Path>,
) -> Result<(), Failure> {
    let text = read_input(file)?;
    let study =
        parse_study_file(&text).map_err(|e| Failure::Input(of_kind(e, &text, FileKind::Study)))?;
    let plan = plan.map_err(Failure::Input)?;
    let pool = pool(threads)?;
    let csv =
        samples_out.is_some_and(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("csv")));
    let mut lines = match samples_out {
        Some(path) => Some(SampleLines::create(path, csv.then_some(SAMPLE_CSV_HEADER))?),
        None => None,
    };
    let count = plan.range.end - plan.range.start;
    let progress = Progress::bar(count, "samples");
    let write_lines = lines.is_some();
    let signals = StopSignals::watch()?;
    let tally = pool.install(|| {
        study.run_until(
            &plan,
            CHUNK,
            |s| {
                write_lines.then(|| {
                    if csv {
                        sample_csv_row(s)
                    } else {
                        sample_line(s)
                    }
                })
            },
            |line| {
                progress.inc(1);
                match (&mut lines, line) {
                    (Some(out), Some(line)) => out.push(&line),
                    _ => Ok(()),
                }
            },
            || signals.caught().is_some(),
        )
    });
    let tally = match tally {
        Ok(t) => t,
        Err(e) => {
            progress.abandon();
            return Err(e);
        }
    };
    if let Some(out) = lines {
        out.finish()?;
    }
    if !tally.is_complete() {
        progress.abandon();
        return stopped_study(&tally, &signals, sharded, samples_out, summarised, output);
    }
    progress.finish(|took| {
        format!(
            "{} in {} ({:.0} samples/s)",
            count_of(count, "sample", "samples"),
            human_duration(took),
            count as f64 / took.as_secs_f64().max(1e-9)
        )
    });
    let text = if sharded {
        laid_out(state_json(&tally), summarised.layout)
    } else {
        summarised.text(tally.summary().map_err(Failure::Input)?)
    };
    write_output(output, |w| w.write_all(text.as_bytes()))
}

/// The end of a `montecarlo` run a signal stopped between chunks: the samples file already
/// holds every finished sample; print the summary of the finished samples (the study of
/// that many samples, marked `stopped`) and say so. A shard prints no state: a state must
/// cover its shard's whole range for `merge`, so the shard has to run again.
fn stopped_study(
    tally: &Tally,
    signals: &StopSignals,
    sharded: bool,
    samples_out: Option<&Path>,
    summarised: Summarised,
    output: Option<&Path>,
) -> Result<(), Failure> {
    let count = tally.range.end - tally.range.start;
    let mut message = format!("{} of {count} samples", tally.done);
    if let Some(path) = samples_out {
        message += &format!(" (`{}` holds every finished one)", path.display());
    }
    match tally.summary_of_finished() {
        Some(summary) if !sharded => {
            write_output(output, |w| w.write_all(summarised.text(summary).as_bytes()))?;
            message += &format!(
                "; the summary is that of the finished samples, the same study with --samples {}",
                tally.done
            );
        }
        _ => {
            message += "; a shard's state must cover its whole range, so none is written: run the shard again"
        }
    }
    Err(signals.stopped(message))
}

/// Ctrl-C (SIGINT), SIGTERM (a scheduler's time limit) and SIGHUP (a closed terminal)
/// while `montecarlo` or `play --games N` runs: the first asks the run to stop after the
/// chunk under way ([`Study::run_until`]; `play` between chunks of games), so the samples
/// file ends on a whole line and what finished is summarised; a second ends the process at
/// once, as it would have without this. `kill -9` cannot be caught: see [`SampleLines`].
struct StopSignals {
    /// The number of the first signal caught, 0 while none.
    caught: Arc<AtomicUsize>,
}

/// The signals [`StopSignals`] watches, with their names.
#[cfg(unix)]
const STOP_SIGNALS: [(i32, &str); 3] = [
    (signal_hook::consts::SIGINT, "SIGINT"),
    (signal_hook::consts::SIGTERM, "SIGTERM"),
    (signal_hook::consts::SIGHUP, "SIGHUP"),
];
#[cfg(not(unix))]
const STOP_SIGNALS: [(i32, &str); 2] = [
    (signal_hook::consts::SIGINT, "SIGINT"),
    (signal_hook::consts::SIGTERM, "SIGTERM"),
];

impl StopSignals {
    /// Installs the handlers (for the rest of the process).
    fn watch() -> Result<StopSignals, Failure> {
        let caught = Arc::new(AtomicUsize::new(0));
        let again = Arc::new(AtomicBool::new(false));
        for (signal, _) in STOP_SIGNALS {
            let usize_signal = usize::try_from(signal).unwrap_or(0);
            // The order matters: the default action is checked before the flag is set,
            // so it applies from the second signal on.
            signal_hook::flag::register_conditional_default(signal, Arc::clone(&again))
                .and_then(|_| signal_hook::flag::register(signal, Arc::clone(&again)))
                .and_then(|_| {
                    signal_hook::flag::register_usize(signal, Arc::clone(&caught), usize_signal)
                })
                .map_err(|e| Failure::Io(format!("cannot watch for Ctrl-C: {e}")))?;
        }
        Ok(StopSignals { caught })
    }

    /// The failure of a run this stopped after `what` (`8192 of 100000 samples...`):
    /// `stopped: SIGINT after WHAT`, exit code 128 + the signal.
    fn stopped(&self, what: String) -> Failure {
        let (signal, name) = self.caught().unwrap_or((0, "a signal"));
        Failure::Stopped {
            signal,
            message: format!("{name} after {what}"),
        }
    }

    /// The signal caught, with its name, if any.
    fn caught(&self) -> Option<(i32, &'static str)> {
        let n = self.caught.load(Ordering::Relaxed);
        STOP_SIGNALS
            .into_iter()
            .find(|&(signal, _)| usize::try_from(signal) == Ok(n))
    }
}

/// The samples file: lines collect in memory and go to the file a chunk at a time, so a
/// run stopped between chunks ([`StopSignals`]) leaves whole lines of finished samples. A
/// process killed outright (`kill -9`) can be cut inside a chunk's write (the kernel
/// copies a large write page by page and gives up at a fatal signal): every line ending in
/// a newline is then a whole finished sample, and the last, cut one has no newline.
struct SampleLines {
    path: PathBuf,
    file: std::fs::File,
    buf: Vec<u8>,
    pending: usize,
}

impl SampleLines {
    /// Creates the file at `path`, starting with `header` (the CSV's) if any.
    fn create(path: &Path, header: Option<&str>) -> Result<SampleLines, Failure> {
        let file = std::fs::File::create(path)
            .map_err(|e| Failure::Io(format!("cannot write `{}`: {e}", path.display())))?;
        Ok(SampleLines {
            path: path.to_path_buf(),
            file,
            buf: header.unwrap_or("").as_bytes().to_vec(),
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
fn merge(shards: &[PathBuf], summarised: Summarised, output: Option<&Path>) -> Result<(), Failure> {
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
    let text = summarised.text(whole.summary().map_err(Failure::Input)?);
    write_output(output, |w| w.write_all(text.as_bytes()))
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
    /// Games to play: 1 prints the game log, more print a summary (`1e3` accepted).
    #[arg(long, value_name = "N", default_value = "1", value_parser = count_parser)]
    games: u64,
    /// A game not over after this many rounds stops unfinished (traditional games).
    #[arg(long, value_name = "N", default_value_t = 100,
              value_parser = clap::value_parser!(u32).range(1..))]
    max_rounds: u32,
}

/// `crokinole play`: read and check the noise and the strategies, then play the games on
/// `threads` workers and print the game log (one game) or the summary (more).
fn play(
    args: PlayArgs,
    threads: Option<u32>,
    layout: Layout,
    output: Option<&Path>,
) -> Result<(), Failure> {
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
    let games = args.games;
    let text = if games == 1 {
        let progress = Progress::spinner("playing 1 game");
        let log = pool.install(|| config.play(0));
        if log.is_ok() {
            progress.finish(|took| format!("1 game in {}", human_duration(took)));
        } else {
            progress.abandon();
        }
        log.map(|log| game_log_json(&log))
    } else {
        // Ctrl-C stops between chunks of games (`play_many_until`).
        let progress = Progress::bar(games, "games");
        let signals = StopSignals::watch()?;
        let summary = pool.install(|| {
            config.play_many_until(games, || progress.inc(1), || signals.caught().is_some())
        });
        match &summary {
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
    .map_err(|e: crokinole::play::PlayError| Failure::Io(format!("{e}")))?;
    let text = laid_out(text, layout);
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

/// The name a picture's title gives `file`: its file name, or `standard input` for `-`.
fn file_label(file: &Path) -> String {
    if file == Path::new("-") {
        "standard input".to_string()
    } else {
        file.file_name().map_or_else(
            || file.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    }
}

/// `crokinole render`: read and check the input, draw it, and only then write the SVG.
fn render(what: Render, title: Option<String>, output: Option<&Path>) -> Result<(), Failure> {
    use crokinole::render::{CloudView, heatmap_svg, shot_svg, study_cloud_svg};
    let svg = match what {
        Render::Shot { file, shot } => {
            let text = read_input(&file)?;
            let (board, physics, entries) = parse_shot_file(&text)
                .map_err(|e| in_file(of_kind(e, &text, FileKind::Shots), &file))?;
            let entry = entries.get(shot).ok_or_else(|| {
                Failure::Input(InputError::new(
                    "shot",
                    format!(
                        "no shot {shot}: `{}` has {}",
                        file.display(),
                        count_of(entries.len() as u64, "shot", "shots")
                    ),
                ))
            })?;
            let trace = trace_shot(&board, &physics, &entry.shot, 10)
                .map_err(|e| in_file(e.in_shot(shot), &file))?;
            let title = title.unwrap_or_else(|| format!("{}, shot {shot}", file_label(&file)));
            shot_svg(&board, &trace, &title)
        }
        Render::Montecarlo {
            summary,
            study,
            zoom,
        } => {
            let text = read_input(&summary)?;
            let cloud = parse_summary(&text)
                .map_err(|e| in_file(of_kind(e, &text, FileKind::Summary), &summary))?;
            let study_file = study;
            let study = match &study_file {
                Some(path) => {
                    let text = read_input(path)?;
                    Some(
                        parse_study_file(&text)
                            .map_err(|e| in_file(of_kind(e, &text, FileKind::Study), path))?,
                    )
                }
                None => None,
            };
            let named = study_file.as_deref().unwrap_or(&summary);
            let title = title.unwrap_or_else(|| format!("Monte Carlo: {}", file_label(named)));
            let view = if zoom {
                CloudView::Zoom
            } else {
                CloudView::Board
            };
            study_cloud_svg(&cloud, study.as_ref(), &title, view)
                .map_err(|e| in_file(e, &summary))?
        }
        Render::Suggest { file } => {
            let text = read_input(&file)?;
            let plan =
                parse_plan(&text).map_err(|e| in_file(of_kind(e, &text, FileKind::Plan), &file))?;
            let Some(grid) = &plan.grid else {
                return Err(in_file(
                    InputError::new("grid", "missing: this plan has no heat map"),
                    &file,
                ));
            };
            let title = title.unwrap_or_else(|| format!("Planner: {}", file_label(&file)));
            heatmap_svg(grid, plan.top.first(), &title)
        }
    };
    write_output(output, |w| w.write_all(svg.as_bytes()))
}

/// `crokinole flick`: the situation from a study or suggest file, the flick from the
/// study, the plan (`--plan`, `--rank`) or the flags (each flag overrides); the shot checked
/// as a study is, simulated with a trace, judged by the rules when the file has a rule set
/// (a suggest file always has one: `traditional` by default); then the outcome printed and
/// the picture and the shot file written if asked.
fn flick(a: FlickArgs) -> Result<(), Failure> {
    use crokinole::montecarlo::PlayerFlick;
    let text = read_input(&a.file)?;
    let (mut situation, file_flick, ruleset) = if FileKind::sniff(&text) == Some(FileKind::Study) {
        let study = parse_study_file(&text).map_err(|e| in_file(e, &a.file))?;
        let spec = study.spec().clone();
        (spec.situation, Some(spec.flick), spec.ruleset)
    } else {
        let request = parse_suggest_file(&text)
            .map_err(|e| in_file(of_kind(e, &text, FileKind::Suggest), &a.file))?;
        (request.situation, None, Some(request.ruleset))
    };
    let (base, source) = match &a.plan {
        Some(path) => {
            let text = read_input(path)?;
            let plan =
                parse_plan(&text).map_err(|e| in_file(of_kind(e, &text, FileKind::Plan), path))?;
            let k = a.rank as usize;
            let chosen = plan.top.get(k - 1).ok_or_else(|| {
                Failure::Input(InputError::new(
                    "rank",
                    format!(
                        "no flick of rank {k}: `{}` has {}",
                        path.display(),
                        count_of(plan.top.len() as u64, "flick", "flicks")
                    ),
                ))
            })?;
            (Some(chosen.flick), format!("the plan's flick of rank {k}"))
        }
        None => (file_flick, "the intended flick".to_string()),
    };
    let flags_given = a.offset.is_some()
        || a.aim.is_some()
        || a.target.is_some()
        || a.speed.is_some()
        || a.spin.is_some();
    let mut flick = match (base, a.speed) {
        (Some(f), _) => f,
        (None, Some(speed)) => PlayerFlick {
            offset: 0.0,
            aim: 0.0,
            target: None,
            speed,
            spin: 0.0,
        },
        (None, None) => {
            return Err(Failure::Input(InputError::new(
                "flick",
                format!(
                    "`{}` has no flick: give `--plan PLAN` (the planner's output for it) or the \
                     flick's flags (`--speed`, and `--offset`, `--aim`, `--target`, `--spin`)",
                    a.file.display()
                ),
            )));
        }
    };
    flick.offset = a.offset.unwrap_or(flick.offset);
    flick.aim = a.aim.unwrap_or(flick.aim);
    flick.speed = a.speed.unwrap_or(flick.speed);
    flick.spin = a.spin.unwrap_or(flick.spin);
    if let Some(t) = &a.target {
        flick.target = parse_target(t)?;
    }
    if let Some(seat) = a.seat {
        situation.seat = seat;
    }
    let source = if flags_given || a.seat.is_some() {
        format!("{source}, changed by the flags")
    } else {
        source
    };
    let (seat, players) = (situation.seat, situation.players);
    let study = Study::new(StudySpec {
        situation,
        flick,
        ruleset,
    })
    .map_err(|e| {
        in_file(
            InputError {
                problem: format!("{} ({source})", e.problem),
                ..e
            },
            &a.file,
        )
    })?;
    let spec = study.spec();
    let (board, physics) = (&spec.situation.board, &spec.situation.physics);
    let entry = ShotEntry {
        shot: study.intended_shot(),
        seat: Some(seat),
        players,
    };
    if let Some(r) = ruleset {
        check_rules(board, physics, std::slice::from_ref(&entry), r).map_err(Failure::Input)?;
    }
    let trace =
        trace_shot(board, physics, &entry.shot, a.trace.unwrap_or(10)).map_err(Failure::Input)?;
    let outcome = trace.outcome.clone();
    let verdicts = match ruleset {
        Some(r) => Some(
            judge_outcomes(
                board,
                physics,
                std::slice::from_ref(&entry),
                std::slice::from_ref(&outcome),
                r,
            )
            .map_err(Failure::Input)?,
        ),
        None => None,
    };
    let described = format!(
        "offset {} m, aim {} rad{}, speed {} m/s, spin {} rad/s",
        short(flick.offset),
        short(flick.aim),
        flick.target.map_or(String::new(), |t| format!(
            " from the line to ({}, {})",
            short(t.x),
            short(t.y)
        )),
        short(flick.speed),
        short(flick.spin)
    );
    if let Some(path) = &a.shot_out {
        let description = format!(
            "{source} of {}, seat {seat}: {described}",
            file_label(&a.file)
        );
        let text = shot_file_json(board, physics, std::slice::from_ref(&entry), &description);
        write_output(Some(path), |w| w.write_all(text.as_bytes()))?;
    }
    if let Some(path) = &a.svg {
        let title = a
            .title
            .clone()
            .unwrap_or_else(|| format!("{}, seat {seat}: {source}", file_label(&a.file)));
        let svg = crokinole::render::shot_svg(board, &trace, &title);
        write_output(Some(path), |w| w.write_all(svg.as_bytes()))?;
    }
    let traces = [trace];
    let text = outcome_text(
        std::slice::from_ref(&outcome),
        a.trace.map(|_| &traces[..]),
        verdicts.as_deref(),
        Printed::Json(a.layout.layout()),
    );
    write_output(a.output.as_deref(), |w| w.write_all(text.as_bytes()))
}

/// A number for a title: at most 4 decimals, trailing zeros dropped.
fn short(x: f64) -> String {
    let s = format!("{x:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

/// `--target X,Y` (board frame, m), or `none` for straight ahead.
fn parse_target(text: &str) -> Result<Option<glam::DVec2>, Failure> {
    if text.trim() == "none" {
        return Ok(None);
    }
    let parts: Vec<f64> = text
        .split(',')
        .filter_map(|p| p.trim().parse::<f64>().ok().filter(|v| v.is_finite()))
        .collect();
    match parts[..] {
        [x, y] if text.split(',').count() == 2 => Ok(Some(glam::DVec2::new(x, y))),
        _ => Err(Failure::Input(InputError::new(
            "target",
            format!("`{text}`: expected `X,Y` in metres (e.g. `0.05,-0.1`) or `none`"),
        ))),
    }
}

/// A note on standard error when pegs or discs sit on the shooter's line inside the
/// searched offsets: placements there are illegal, and the search silently skips them.
fn note_blocked_offsets(request: &crokinole::plan::Request) {
    let Ok(setup) = request.setup() else {
        return; // the planner refuses it with the reason
    };
    let range = request.space.offset;
    let blocked = setup.blocked_offsets(range);
    if blocked.is_empty() {
        return;
    }
    let parts: Vec<String> = blocked
        .iter()
        .map(|[a, b]| format!("[{a:.4}, {b:.4}]"))
        .collect();
    eprintln!(
        "note: pegs or discs on seat {}'s shooting line block offsets {} m of the searched \
         [{:.4}, {:.4}] m: no flick can start there, so none is searched",
        setup.seat(),
        parts.join(", "),
        range[0],
        range[1]
    );
}

/// `crokinole suggest`: read and check the suggest file, plan on `threads` workers, print
/// the plan.
fn suggest(
    file: &Path,
    config: crokinole::plan::PlanConfig,
    threads: Option<u32>,
    layout: Layout,
    output: Option<&Path>,
) -> Result<(), Failure> {
    let text = read_input(file)?;
    let request = parse_suggest_file(&text)
        .map_err(|e| Failure::Input(of_kind(e, &text, FileKind::Suggest)))?;
    note_blocked_offsets(&request);
    let pool = pool(threads)?;
    let progress = Progress::spinner("planning");
    let plan = pool.install(|| crokinole::plan::suggest(&request, &config));
    let plan = match plan {
        Ok(plan) => plan,
        Err(e) => {
            progress.abandon();
            return Err(Failure::Input(e));
        }
    };
    progress.finish(|took| {
        format!(
            "planned in {}: {} of a budget of {}",
            human_duration(took),
            count_of(plan.samples_used, "sample", "samples"),
            plan.budget_samples
        )
    });
    let text = laid_out(plan_json(&plan), layout);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_whole_numbers_in_any_notation() {
        for (text, n) in [
            ("1", 1),
            ("20000", 20_000),
            ("20_000", 20_000),
            ("1e6", 1_000_000),
            ("1E6", 1_000_000),
            ("1e+6", 1_000_000),
            ("2.5e4", 25_000),
            ("0.25e2", 25),
            ("120e-1", 12),
            ("1.000", 1),
            ("18446744073709551615", u64::MAX),
        ] {
            assert_eq!(count_parser(text), Ok(n), "{text}");
        }
        for (text, says) in [
            ("2.5", "write 2 or 3"),
            ("1.5e-3", "not a whole number"),
            ("0", "at least 1"),
            ("0e9", "at least 1"),
            ("1e20", "too large"),
            ("abc", "not a count"),
            ("1e", "not a count"),
            ("-5", "not a count"),
            ("", "not a count"),
            (".", "not a count"),
        ] {
            let e = count_parser(text).unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
        }
        assert_eq!(
            budget_parser("2e4"),
            Ok(crokinole::plan::Budget::Samples(20_000))
        );
        assert_eq!(
            budget_parser("1.5s"),
            Ok(crokinole::plan::Budget::Seconds(1.5))
        );
    }

    #[test]
    fn durations_read_as_a_person_says_them() {
        let d = Duration::from_secs_f64;
        assert_eq!(human_duration(d(0.0123)), "12 ms");
        assert_eq!(human_duration(d(1.25)), "1.2 s");
        assert_eq!(human_duration(d(65.0)), "1 min 05 s");
        assert_eq!(human_duration(d(7380.0)), "2 h 03 min");
        assert_eq!(count_of(1, "game", "games"), "1 game");
        assert_eq!(count_of(2, "game", "games"), "2 games");
    }
}
