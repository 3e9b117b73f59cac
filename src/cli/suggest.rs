//! `crokinole suggest`: search a position for the best flick and print the top flicks
//! with the heat map of the sweep (the plan, JSON).

use super::args::{LayoutArg, Output, Threads, budget_parser, named};
use super::failure::Failure;
use super::output::{distinct_paths, read_input_of, write_output};
use super::progress::{Progress, count_of, human_duration};
use super::signals::StopSignals;
use crokinole::jobs;
use crokinole::plan::Objective;
use std::path::PathBuf;

/// The `--objective` values, in the order `--help` lists them.
const OBJECTIVES: [Objective; 3] = [Objective::Score, Objective::Twenty, Objective::Fifteen];

/// The flags of `crokinole suggest`.
#[derive(clap::Args)]
#[command(mut_arg("output", |a| a.help("Write the plan here instead of standard output")))]
pub struct Args {
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
          value_parser = named::<Objective>(OBJECTIVES.map(Objective::name)))]
    objective: Objective,
    /// FILE holds many positions, a suggest file a line (JSON lines): print one plan a
    /// line, compact, in order, each what `suggest` prints for that line alone with these
    /// flags (docs/suggest.md).
    #[arg(long)]
    batch: bool,
    #[command(flatten)]
    threads: Threads,
    #[command(flatten)]
    output: Output,
    #[command(flatten)]
    layout: LayoutArg,
}

/// `crokinole suggest`: read and check the suggest file, plan on `threads` workers, print
/// the plan.
pub fn run(a: Args) -> Result<(), Failure> {
    let (file, threads, layout, output) = (&a.file, a.threads, a.layout.layout(), a.output.path());
    let config = crokinole::plan::PlanConfig {
        objective: a.objective,
        budget: a.budget,
        seed: a.seed,
        top: a.top as usize,
        grid: true,
    };
    distinct_paths(&[("the input file", file)], &[("--output", output)])?;
    if a.batch {
        return run_batch(file, &config, threads, output);
    }
    let text = read_input_of(file, crokinole::io::FileKind::Suggest)?;
    let request = jobs::plan::read(&text).map_err(Failure::Input)?;
    note_blocked_offsets(&request);
    let pool = threads.pool()?;
    let progress = Progress::spinner("planning");
    let signals = StopSignals::watch()?;
    let plan = pool.install(|| jobs::plan::plan_until(&request, &config, signals.cancel()));
    let plan = match plan {
        Ok(plan) => plan,
        Err(e) => {
            progress.abandon();
            return Err(Failure::Input(e));
        }
    };
    if plan.stopped {
        // Ctrl-C: the best so far, marked `"stopped": true`, if any candidate finished.
        progress.abandon();
        let what = if plan.top.is_empty() {
            format!(
                "{} samples, before any candidate was evaluated",
                plan.samples_used
            )
        } else {
            let text = jobs::plan::text(&plan, layout);
            write_output(output, |w| w.write_all(text.as_bytes()))?;
            format!(
                "{} samples; the plan printed is the best so far (marked \"stopped\": true), \
                 with no final evaluation",
                plan.samples_used
            )
        };
        return Err(signals.stopped(what));
    }
    progress.finish(|took| {
        format!(
            "planned in {}: {} of a budget of {}",
            human_duration(took),
            count_of(plan.samples_used, "sample", "samples"),
            plan.budget_samples
        )
    });
    let text = jobs::plan::text(&plan, layout);
    write_output(output, |w| w.write_all(text.as_bytes()))
}

/// A note on standard error when pegs or discs sit on the shooter's line inside the
/// searched offsets: placements there are illegal, and the search silently skips them.
/// `suggest --batch`: the positions of a JSON-lines file (or standard input) planned one
/// after the other, each plan written as a line as soon as it is made.
fn run_batch(
    file: &std::path::Path,
    config: &crokinole::plan::PlanConfig,
    threads: super::args::Threads,
    output: Option<&std::path::Path>,
) -> Result<(), Failure> {
    let cannot_read =
        |e: std::io::Error| Failure::Io(format!("cannot read `{}`: {e}", file.display()));
    let input: Box<dyn std::io::BufRead + Send> = if file == std::path::Path::new("-") {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    } else {
        Box::new(std::io::BufReader::new(
            std::fs::File::open(file).map_err(cannot_read)?,
        ))
    };
    let out: Box<dyn std::io::Write + Send> = match output {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path)
                .map_err(|e| Failure::Io(format!("cannot write `{}`: {e}", path.display())))?,
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout())),
    };
    let pool = threads.pool()?;
    let progress = Progress::spinner("planning positions");
    let signals = StopSignals::watch()?;
    let done = pool.install(|| {
        jobs::plan::plan_lines(input, config, out, signals.cancel(), |_| progress.inc(1))
    });
    match done {
        Ok(n) if signals.cancel().is_cancelled() => {
            progress.abandon();
            Err(signals.stopped(format!("{n} plans written, one a line, in order")))
        }
        Ok(n) => {
            progress.finish(|took| format!("{n} positions planned in {}", human_duration(took)));
            Ok(())
        }
        Err(jobs::plan::LinesFailure::Input(e)) => {
            progress.abandon();
            Err(Failure::Input(e))
        }
        Err(jobs::plan::LinesFailure::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            progress.abandon();
            Err(Failure::BrokenPipe)
        }
        Err(jobs::plan::LinesFailure::Io(e)) => {
            progress.abandon();
            Err(Failure::Io(e.to_string()))
        }
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Args as _, FromArgMatches as _};

    /// `--objective VALUE` as `crokinole suggest` reads it, or clap's message.
    fn objective(value: &str) -> Result<Objective, String> {
        Args::augment_args(clap::Command::new("suggest"))
            .try_get_matches_from(["suggest", "plan.json", "--objective", value])
            .and_then(|m| Args::from_arg_matches(&m))
            .map(|a| a.objective)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn every_objective_is_read_by_its_own_name() {
        for o in OBJECTIVES {
            assert_eq!(objective(o.name()), Ok(o));
        }
        let e = objective("Twenty").unwrap_err();
        assert!(
            e.contains("[possible values: score, twenty, fifteen]"),
            "{e}"
        );
    }
}
