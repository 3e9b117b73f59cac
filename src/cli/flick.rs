//! `crokinole flick`: simulate one flick given in player terms (from a study file, a plan
//! or the flags) and print its outcome, judged by the rules when the file has a rule set;
//! draw it (`--svg`) and write the shot file made (`--shot-out`) if asked.

use super::args::{LayoutArg, Output};
use super::failure::{Failure, in_file, of_kind};
use super::output::{distinct_paths, read_input, write_output};
use super::progress::count_of;
use super::render::file_label;
use crokinole::InputError;
use crokinole::io::{FileKind, OutcomeFile, outcome_file_text, parse_plan};
use crokinole::jobs;
use crokinole::montecarlo::{Study, StudySpec};
use std::path::PathBuf;

/// The flags of `crokinole flick`.
#[derive(clap::Args)]
#[command(mut_arg("output", |a| a.help("Write the outcome here instead of standard output")))]
pub struct Args {
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
    #[command(flatten)]
    output: Output,
    #[command(flatten)]
    layout: LayoutArg,
}

/// `crokinole flick`: the situation from a study or suggest file, the flick from the
/// study, the plan (`--plan`, `--rank`) or the flags (each flag overrides); the shot checked
/// as a study is, simulated with a trace, judged by the rules when the file has a rule set
/// (a suggest file always has one: `traditional` by default); then the outcome printed and
/// the picture and the shot file written if asked.
pub fn run(a: Args) -> Result<(), Failure> {
    use crokinole::montecarlo::PlayerFlick;
    let mut inputs = vec![("the input file", a.file.as_path())];
    if let Some(plan) = &a.plan {
        inputs.push(("the plan", plan.as_path()));
    }
    distinct_paths(
        &inputs,
        &[
            ("--shot-out", a.shot_out.as_deref()),
            ("--svg", a.svg.as_deref()),
            ("--output", a.output.path()),
        ],
    )?;
    let text = read_input(&a.file)?;
    let (mut situation, file_flick, ruleset) = if FileKind::sniff(&text) == Some(FileKind::Study) {
        let study = jobs::study::read(&text).map_err(|e| in_file(e, &a.file))?;
        let spec = study.spec().clone();
        (spec.situation, Some(spec.flick), spec.ruleset)
    } else {
        let request = jobs::plan::read(&text).map_err(|e| in_file(e, &a.file))?;
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
    let seat = situation.seat;
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
    let played = jobs::flick::flick(&study, a.trace.unwrap_or(10)).map_err(Failure::Input)?;
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
        let text = jobs::flick::shot_file_text(&study, &description);
        write_output(Some(path), |w| w.write_all(text.as_bytes()))?;
    }
    let simulated = &played.simulated;
    if let (Some(path), Some(traces)) = (&a.svg, &simulated.traces) {
        let title = a
            .title
            .clone()
            .unwrap_or_else(|| format!("{}, seat {seat}: {source}", file_label(&a.file)));
        let board = &study.spec().situation.board;
        let svg = crokinole::render::shot_svg(board, &traces[0], &title);
        write_output(Some(path), |w| w.write_all(svg.as_bytes()))?;
    }
    // The trace is printed only when asked for (it was made for the picture).
    let file = OutcomeFile {
        traces: simulated.traces.as_deref().filter(|_| a.trace.is_some()),
        ..simulated.file()
    };
    let text = outcome_file_text(&file, a.layout.layout());
    write_output(a.output.path(), |w| w.write_all(text.as_bytes()))
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
