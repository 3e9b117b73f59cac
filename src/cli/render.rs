//! `crokinole render`: draw a position, a shot, a Monte Carlo summary or a planner grid as
//! SVG, after reading and checking the input; the default title names the input
//! ([`file_label`], shared with `flick`).

use super::args::Output;
use super::failure::{Failure, in_file, of_kind};
use super::output::{read_input, write_output};
use super::progress::count_of;
use clap::Subcommand;
use crokinole::io::{FileKind, parse_plan, parse_summary};
use crokinole::jobs;
use crokinole::jobs::simulate::ShotFile;
use crokinole::render::{CloudView, heatmap_svg, position_svg, shot_svg, study_cloud_svg};
use crokinole::rules::ShotEntry;
use crokinole::trace::trace_shot;
use crokinole::{Board, InputError, Physics};
use std::path::{Path, PathBuf};

/// The flags of `crokinole render`: what to draw, and where.
#[derive(clap::Args)]
#[command(mut_arg("output", |a| {
    a.help("Write the SVG here instead of standard output").global(true)
}))]
pub struct Args {
    #[command(subcommand)]
    what: Render,
    #[command(flatten)]
    output: Output,
    /// Title line of the picture (default: names the input).
    #[arg(long, value_name = "TEXT", global = true)]
    title: Option<String>,
}

/// What `crokinole render` draws.
#[derive(Subcommand)]
pub enum Render {
    /// A position with no shot: the board with its scoring zones labelled and the discs at
    /// rest.
    ///
    /// FILE is a study or suggest file (its position), or a shot file (the discs at rest of
    /// shot --shot K, without the flicked disc); without FILE, the empty tournament board.
    Board {
        /// Study, suggest or shot file to read, or `-` for standard input.
        file: Option<PathBuf>,
        /// Index of the shot in a shot file (default 0).
        #[arg(long, value_name = "K")]
        shot: Option<usize>,
    },
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

/// The name a picture's title gives `file`: its file name, or `standard input` for `-`.
pub fn file_label(file: &Path) -> String {
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
pub fn run(a: Args) -> Result<(), Failure> {
    let (title, output) = (a.title, a.output.path());
    let svg = match a.what {
        Render::Board { file, shot } => board_picture(file.as_deref(), shot, title)?,
        Render::Shot { file, shot } => shot_picture(&file, shot, title)?,
        Render::Montecarlo {
            summary,
            study,
            zoom,
        } => cloud_picture(&summary, study.as_deref(), zoom, title)?,
        Render::Suggest { file } => grid_picture(&file, title)?,
    };
    write_output(output, |w| w.write_all(svg.as_bytes()))
}

/// `render board`: the position of a study or suggest file, or the discs at rest of shot
/// `shot` of a shot file (0 if not given); without a file, the empty tournament board.
fn board_picture(
    file: Option<&Path>,
    shot: Option<usize>,
    title: Option<String>,
) -> Result<String, Failure> {
    let Some(file) = file else {
        if shot.is_some() {
            return Err(Failure::Input(InputError::new(
                "shot",
                "`--shot K` picks a shot of a shot file: give the file",
            )));
        }
        let title = title.unwrap_or_else(|| "The tournament board".to_string());
        return Ok(position_svg(
            &Board::tournament(),
            &Physics::default(),
            &[],
            &title,
        ));
    };
    let text = read_input(file)?;
    let kind = FileKind::sniff(&text);
    let (board, physics, discs, named) = match kind {
        Some(FileKind::Study | FileKind::Suggest) => {
            if shot.is_some() {
                return Err(in_file(
                    InputError::new(
                        "shot",
                        "`--shot K` picks a shot of a shot file; this is a study or suggest \
                         file, whose one position is drawn without it",
                    ),
                    file,
                ));
            }
            let situation = if kind == Some(FileKind::Study) {
                let study = jobs::study::read(&text).map_err(|e| in_file(e, file))?;
                study.spec().situation.clone()
            } else {
                jobs::plan::read(&text)
                    .map_err(|e| in_file(e, file))?
                    .situation
            };
            let named = format!("{}, seat {} to shoot", file_label(file), situation.seat);
            (situation.board, situation.physics, situation.discs, named)
        }
        Some(FileKind::Shots) | None => {
            let k = shot.unwrap_or(0);
            let ShotFile {
                board,
                physics,
                entries,
            } = ShotFile::read(&text).map_err(|e| in_file(e, file))?;
            let discs = shot_of(&entries, k, file)?.shot.discs.clone();
            (
                board,
                physics,
                discs,
                format!("{}, shot {k}", file_label(file)),
            )
        }
        Some(other) => {
            return Err(in_file(
                InputError::new(
                    "file",
                    format!(
                        "`render board` draws the position of a shot, study or suggest file; \
                         this file looks like {}",
                        other.describe()
                    ),
                ),
                file,
            ));
        }
    };
    let title = title.unwrap_or_else(|| format!("Board: {named}"));
    Ok(position_svg(&board, &physics, &discs, &title))
}

/// `render shot`: shot `shot` of a shot file, simulated with a trace.
fn shot_picture(file: &Path, shot: usize, title: Option<String>) -> Result<String, Failure> {
    let text = read_input(file)?;
    let ShotFile {
        board,
        physics,
        entries,
    } = ShotFile::read(&text).map_err(|e| in_file(e, file))?;
    let entry = shot_of(&entries, shot, file)?;
    let trace = trace_shot(&board, &physics, &entry.shot, 10)
        .map_err(|e| in_file(e.in_shot(shot), file))?;
    let title = title.unwrap_or_else(|| format!("{}, shot {shot}", file_label(file)));
    Ok(shot_svg(&board, &trace, &title))
}

/// Shot `k` of the shot file `file`, or the error saying how many it has.
fn shot_of<'a>(entries: &'a [ShotEntry], k: usize, file: &Path) -> Result<&'a ShotEntry, Failure> {
    entries.get(k).ok_or_else(|| {
        Failure::Input(InputError::new(
            "shot",
            format!(
                "no shot {k}: `{}` has {}",
                file.display(),
                count_of(entries.len() as u64, "shot", "shots")
            ),
        ))
    })
}

/// `render montecarlo`: the cloud of a summary, on the study's board if given.
fn cloud_picture(
    summary: &Path,
    study_file: Option<&Path>,
    zoom: bool,
    title: Option<String>,
) -> Result<String, Failure> {
    let text = read_input(summary)?;
    let cloud =
        parse_summary(&text).map_err(|e| in_file(of_kind(e, &text, FileKind::Summary), summary))?;
    let study = match study_file {
        Some(path) => {
            let text = read_input(path)?;
            Some(jobs::study::read(&text).map_err(|e| in_file(e, path))?)
        }
        None => None,
    };
    let named = study_file.unwrap_or(summary);
    let title = title.unwrap_or_else(|| format!("Monte Carlo: {}", file_label(named)));
    let view = if zoom {
        CloudView::Zoom
    } else {
        CloudView::Board
    };
    study_cloud_svg(&cloud, study.as_ref(), &title, view).map_err(|e| in_file(e, summary))
}

/// `render suggest`: the heat map of a plan's grid.
fn grid_picture(file: &Path, title: Option<String>) -> Result<String, Failure> {
    let text = read_input(file)?;
    let plan = parse_plan(&text).map_err(|e| in_file(of_kind(e, &text, FileKind::Plan), file))?;
    let Some(grid) = &plan.grid else {
        return Err(in_file(
            InputError::new("grid", "missing: this plan has no heat map"),
            file,
        ));
    };
    let title = title.unwrap_or_else(|| format!("Planner: {}", file_label(file)));
    Ok(heatmap_svg(grid, plan.top.first(), &title))
}
