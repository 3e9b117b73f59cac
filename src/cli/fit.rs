//! `crokinole fit`: fit physics coefficients to tracked shots (docs/tracks.md) and print
//! the report (readable text, or JSON with `--json`); write the fitted `board` and
//! `physics` blocks with `--physics-out` and the picture with `--svg`: the job
//! `crokinole::jobs::fit`.

use super::args::{LayoutArg, Output, Threads, named};
use super::failure::Failure;
use super::output::{distinct_paths, read_input, write_output};
use super::signals::StopSignals;
use crokinole::fit::{Coefficient, FitConfig};
use crokinole::jobs;
use crokinole::limits::MAX_FIT_ITERATIONS;
use std::path::PathBuf;

/// The flags of `crokinole fit`.
#[derive(clap::Args)]
#[command(mut_arg("output", |a| a.help("Write the report here instead of standard output")))]
pub struct Args {
    /// Tracks file to read, or `-` for standard input.
    file: PathBuf,
    /// Coefficients to fit, comma separated (the others keep the file's values).
    #[arg(long = "fit", value_name = "LIST", value_delimiter = ',',
          default_value = "board_friction,disc_restitution,disc_friction,peg_restitution,peg_friction",
          value_parser = named::<Coefficient>(Coefficient::ALL.map(Coefficient::name)))]
    coefficients: Vec<Coefficient>,
    /// Fraction of the shots to hold out of the fit (chosen by --seed) and report the
    /// position errors of, their launch fitted alone with the coefficients frozen.
    #[arg(long, value_name = "FRACTION", default_value_t = 0.0, value_parser = fraction)]
    holdout: f64,
    /// Seed of the held-out set.
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    /// Most Levenberg-Marquardt iterations.
    #[arg(long, value_name = "N", default_value_t = crokinole::fit::solve::DEFAULT_MAX_ITERATIONS,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_FIT_ITERATIONS)))]
    max_iterations: u32,
    /// Write the file's board and the fitted physics here, as the `board` and `physics`
    /// blocks of a shot file (add `"shots"` to simulate with them).
    #[arg(long, value_name = "FILE")]
    physics_out: Option<PathBuf>,
    /// Draw the observed positions against the fitted paths here (SVG).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Print the report as JSON instead of text (docs/tracks.md).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    layout: LayoutArg,
    #[command(flatten)]
    output: Output,
    #[command(flatten)]
    threads: Threads,
}

/// `--holdout`: a number in `[0, 1)`.
fn fraction(text: &str) -> Result<f64, String> {
    let x: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number"))?;
    if (0.0..1.0).contains(&x) {
        Ok(x)
    } else {
        Err(format!("`{text}` must lie in [0, 1)"))
    }
}

/// `crokinole fit`: read and check the tracks file, fit on `threads` workers, write the
/// physics blocks and the picture if asked, then the report. Ctrl-C stops the fit within
/// a simulation and writes nothing.
pub fn run(a: Args) -> Result<(), Failure> {
    distinct_paths(
        &[("the tracks file", &a.file)],
        &[
            ("--physics-out", a.physics_out.as_deref()),
            ("--svg", a.svg.as_deref()),
            ("--output", a.output.path()),
        ],
    )?;
    let text = read_input(&a.file)?;
    let tracks = jobs::fit::read(&text).map_err(Failure::Input)?;
    if a.coefficients.is_empty() {
        return Err(Failure::Input(crokinole::InputError::new(
            "--fit",
            "name at least one coefficient",
        )));
    }
    let config = FitConfig {
        coefficients: a.coefficients.clone(),
        holdout: a.holdout,
        seed: a.seed,
        max_iterations: a.max_iterations,
    };
    let pool = a.threads.pool()?;
    let signals = StopSignals::watch()?;
    let fitted = pool
        .install(|| jobs::fit::fit_until(&tracks, &config, signals.cancel()))
        .map_err(Failure::Input)?;
    // Ctrl-C: a fit stopped part way has no result; nothing is written.
    let Some(fitted) = fitted else {
        return Err(signals.stopped(
            "part of the fit: a fit stopped part way has no result; nothing was written".into(),
        ));
    };
    let svg = match &a.svg {
        Some(_) => {
            let title = format!("fit of {}", a.file.display());
            Some(fitted.svg(&title).map_err(Failure::Input)?)
        }
        None => None,
    };
    let report = if a.json || a.layout.layout() == crokinole::io::Layout::Compact {
        fitted.json(a.layout.layout())
    } else {
        fitted.text()
    };
    // The files first: a file that cannot be written fails the command before the report
    // is printed.
    if let Some(path) = &a.physics_out {
        let params = fitted.params();
        write_output(Some(path), |w| w.write_all(params.as_bytes()))?;
    }
    if let (Some(path), Some(svg)) = (&a.svg, svg) {
        write_output(Some(path), |w| w.write_all(svg.as_bytes()))?;
    }
    write_output(a.output.path(), |w| w.write_all(report.as_bytes()))
}
