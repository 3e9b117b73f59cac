//! A Monte Carlo study's picture from its summary (`crokinole montecarlo`): the cloud of
//! the shot disc's final positions (`shooter_positions.first`) on the board, each dot
//! coloured by where it lies, and a table of the outcome classes (`shooter`) with their
//! probabilities, 95 % intervals and bars. With the study, its position and the intended
//! start and direction are drawn too.
//!
//! A dot's colour is the class its position implies: `twenty` (centre within the hole's
//! support window, where it dropped in; a hanger rests just outside it), `ditch` (centre at the surface's edge, where it went over),
//! otherwise the zone it rests in (`fifteen`, `ten`, `five`, `out`). Classes that a
//! position cannot show (a rules layer's `removed`) appear in the table only; the table
//! lists whatever classes the summary has, in its order.

use super::board::{MM, STYLE, at, draw_board, outer_radius};
use super::shot::{draw_disc, fmt_g};
use super::svg::{Svg, num};
use crate::board::{Board, Zone};
use crate::disc::Disc;
use crate::params::Physics;
use crate::shot::Shot;
use glam::DVec2;

/// One outcome class of the summary's `shooter` object.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassRow {
    /// The class's key (`twenty`, `fifteen`, ..., or any other key the summary has).
    pub name: String,
    /// Samples in the class.
    pub count: u64,
    /// Probability.
    pub p: f64,
    /// 95 % interval.
    pub ci95: [f64; 2],
}

/// What the cloud picture needs from a Monte Carlo summary.
#[derive(Clone, Debug, PartialEq)]
pub struct CloudSummary {
    /// Samples in the study.
    pub samples: u64,
    /// The seed.
    pub seed: u64,
    /// The classes of `shooter`, in the summary's order.
    pub classes: Vec<ClassRow>,
    /// `shooter_positions.first`.
    pub positions: Vec<DVec2>,
    /// `score_change.mean`, if present.
    pub score_mean: Option<f64>,
}

/// The colour of a class: fixed for the known ones, from a spare palette by position in
/// the table for others.
pub fn class_colour(name: &str, index: usize) -> &'static str {
    match name {
        "twenty" => "#e0a100",
        "fifteen" => "#2e9d4a",
        "ten" => "#2a7fd4",
        "five" => "#8e44ad",
        "out" => "#8a8a8a",
        "ditch" => "#111111",
        "removed" => "#e67e22",
        _ => ["#17becf", "#bcbd22", "#e377c2", "#8c564b"][index % 4],
    }
}

/// The class a final position implies (see the module doc).
pub fn place_class(board: &Board, disc_radius: f64, p: DVec2) -> &'static str {
    let d = p.length();
    // A captured disc left the board on or inside its window, `w` up to rounding.
    if d <= board.support_window(disc_radius) + 1e-9 {
        "twenty"
    } else if d >= board.surface_radius - 1e-9 {
        "ditch"
    } else {
        match board.zone(p, disc_radius) {
            Zone::Fifteen => "fifteen",
            Zone::Ten => "ten",
            Zone::Five => "five",
            Zone::Out => "out",
        }
    }
}

/// The picture of a Monte Carlo summary on `board`; `study` adds the position and the
/// intended shot (the shooter is the shot's last disc). `title` is escaped here.
pub fn cloud_svg(
    board: &Board,
    physics: &Physics,
    summary: &CloudSummary,
    study: Option<&Shot>,
    title: &str,
) -> String {
    let r = outer_radius(board) + 8.0;
    let panel = 330.0;
    let mut svg = Svg::new(
        (-r, -r - 44.0, 2.0 * r + panel, 2.0 * r + 44.0),
        1100.0,
        STYLE,
    );
    svg.text(-r + 4.0, -r - 24.0, "title", "start", title);
    svg.text(
        -r + 4.0,
        -r - 6.0,
        "note",
        "start",
        &format!(
            "{} samples (seed {}); dots: the shot disc's final position in the first {}",
            summary.samples,
            summary.seed,
            summary.positions.len()
        ),
    );
    draw_board(&mut svg, board);

    if let Some(shot) = study {
        svg.group("position");
        for (id, p) in shot.discs.iter().enumerate() {
            let d = Disc::at_rest(p.team, p.pos, physics.disc_radius, physics.disc_mass);
            draw_disc(&mut svg, Some(id), &d, " (position)");
        }
        let s = &shot.shooter;
        let (x, y) = at(s.pos);
        svg.circle(
            x,
            y,
            physics.disc_radius * MM,
            &format!("start team{}", s.team.min(1)),
            "the shooter's intended start",
        );
        let speed = s.vel.length();
        if speed > 0.0 {
            let end = at(s.pos + s.vel * (0.12 / speed));
            svg.line((x, y), end, &format!("aim path team{}", s.team.min(1)));
        }
        svg.close("g");
    }

    // Colours follow the table's order, so a class keeps its colour in dots and table.
    let index_of = |name: &str| summary.classes.iter().position(|c| c.name == name);
    svg.group("cloud");
    for &p in &summary.positions {
        let class = place_class(board, physics.disc_radius, p);
        let colour = class_colour(class, index_of(class).unwrap_or(0));
        let (x, y) = at(p);
        svg.empty(
            "circle",
            &[
                ("class", format!("sample {class}")),
                ("cx", num(x)),
                ("cy", num(y)),
                ("r", "1.6000".to_string()),
                ("fill", colour.to_string()),
            ],
        );
    }
    svg.close("g");

    table(&mut svg, summary, r + 14.0, -r + 10.0);
    svg.finish()
}

/// The class table at `(x, y)`: swatch, name, count, p, 95 % interval and a bar.
fn table(svg: &mut Svg, summary: &CloudSummary, x: f64, y: f64) {
    svg.group("outcomes");
    svg.text(x, y + 14.0, "title", "start", "Shot disc outcome");
    let row_h = 30.0;
    let top = y + 40.0;
    svg.text(x + 18.0, top - 6.0, "note", "start", "class");
    svg.text(x + 140.0, top - 6.0, "note", "end", "p");
    svg.text(x + 150.0, top - 6.0, "note", "start", "95 % interval");
    for (k, c) in summary.classes.iter().enumerate() {
        let yy = top + k as f64 * row_h;
        let colour = class_colour(&c.name, k);
        svg.open(
            "g",
            &[
                ("class", "outcome-row".to_string()),
                ("data-class", c.name.clone()),
            ],
        );
        svg.rect_filled(x, yy + 4.0, 12.0, 12.0, "swatch", colour);
        svg.text(x + 18.0, yy + 14.0, "note", "start", &c.name);
        svg.text(
            x + 140.0,
            yy + 14.0,
            "note",
            "end",
            &format!("{:.1} %", 100.0 * c.p),
        );
        svg.text(
            x + 150.0,
            yy + 14.0,
            "note",
            "start",
            &format!("{:.1}-{:.1} %", 100.0 * c.ci95[0], 100.0 * c.ci95[1]),
        );
        // Bar of p with the interval as a whisker, 300 mm wide at p = 1.
        let w = 300.0;
        svg.rect_filled(x, yy + 19.0, w * c.p.clamp(0.0, 1.0), 6.0, "bar", colour);
        svg.line(
            (x + w * c.ci95[0].clamp(0.0, 1.0), yy + 22.0),
            (x + w * c.ci95[1].clamp(0.0, 1.0), yy + 22.0),
            "whisker",
        );
        svg.text_element(
            "title",
            &[],
            &format!("{}: {} of {} samples", c.name, c.count, summary.samples),
        );
        svg.close("g");
    }
    let below = top + summary.classes.len() as f64 * row_h + 20.0;
    if let Some(mean) = summary.score_mean {
        svg.text(
            x,
            below,
            "note",
            "start",
            &format!("mean change in board score: {}", fmt_g(mean)),
        );
    }
    svg.text(
        x,
        below + 18.0,
        "note",
        "start",
        "dots: coloured by where they lie;",
    );
    svg.text(
        x,
        below + 34.0,
        "note",
        "start",
        "table: the summary's classes",
    );
    svg.close("g");
}
