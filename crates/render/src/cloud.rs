//! A Monte Carlo study's picture from its summary (`crokinole montecarlo --positions`):
//! the cloud of the shot disc's final positions (`shooter_positions.first`) on the board,
//! each dot coloured by its sample's outcome class (`shooter_positions.class`, the class
//! the summary's table counts it in, `removed` included), and the table of the outcome
//! classes (`shooter`) with their probabilities, 95 % intervals and bars, which is the
//! dots' legend. With the study, its position and the intended start and direction are
//! drawn too.
//!
//! Every class stays visible wherever its dots lie: each dot has a thin white rim (a dot
//! on the dark ditch or in the hole shows as well as one on the wood), the `ditch` colour
//! is a bright pink, not black, and the classes are drawn most frequent first, so a rare
//! class is drawn on top of a common one, except `twenty` and `ditch`, drawn last: their
//! dots lie on one curve each (the hole's support window, the surface's edge). With [`CloudView::Zoom`] the board is magnified
//! to the box that holds the dots (and the study's position), clipped to the board's panel;
//! the board's lines are drawn to scale, so they stay legible, and a note gives the scale.

use super::board::{MM, STYLE, at, draw_board, outer_radius};
use super::shot::{draw_disc, fmt_g};
use super::svg::{Svg, num};
use crokinole_core::board::Board;
use crokinole_core::disc::Disc;
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_core::shot::Shot;
use crokinole_montecarlo::ShotClass;
use crokinole_montecarlo::study::Study;
use crokinole_montecarlo::tally::{Proportion, StudySummary};
use glam::DVec2;

/// How much of the board a cloud picture shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CloudView {
    /// The whole board.
    #[default]
    Board,
    /// The box holding the dots and the study's discs at rest, magnified (at most 8x).
    Zoom,
}

/// The colour of a class, the same in the dots and in the table. None is black or the
/// board's brown, so each shows on the wood, in the hole and on the ditch.
pub fn class_colour(class: ShotClass) -> &'static str {
    match class {
        ShotClass::Twenty => "#ffc400",
        ShotClass::Fifteen => "#2e9d4a",
        ShotClass::Ten => "#2a7fd4",
        ShotClass::Five => "#8e44ad",
        ShotClass::Out => "#6f6f6f",
        ShotClass::Ditch => "#ff3d9a",
        ShotClass::Removed => "#ff7f0e",
    }
}

/// The seven classes with their proportions, in the summary's order.
pub fn class_rows(summary: &StudySummary) -> [(ShotClass, Proportion); 7] {
    let c = &summary.shooter;
    [
        (ShotClass::Twenty, c.twenty),
        (ShotClass::Fifteen, c.fifteen),
        (ShotClass::Ten, c.ten),
        (ShotClass::Five, c.five),
        (ShotClass::Out, c.out),
        (ShotClass::Ditch, c.ditch),
        (ShotClass::Removed, c.removed),
    ]
}

/// The square `(centre, half side)` in board metres a zoomed picture shows: the box of
/// `points` with a margin, at least 6 cm across, at most the whole board.
fn zoom_box(board: &Board, points: &[DVec2]) -> (DVec2, f64) {
    let whole = outer_radius(board) / MM + 0.008;
    let Some(&first) = points.first() else {
        return (DVec2::ZERO, whole);
    };
    let (mut lo, mut hi) = (first, first);
    for &p in points {
        lo = lo.min(p);
        hi = hi.max(p);
    }
    let centre = (lo + hi) * 0.5;
    let half = ((hi - lo).max_element() * 0.5 + 0.02).max(0.03);
    if half * 8.0 < whole {
        (centre, whole / 8.0)
    } else if half >= whole {
        (DVec2::ZERO, whole)
    } else {
        (centre, half)
    }
}

/// A study's cloud as `crokinole render montecarlo` and the Python package draw it: on the
/// study's board and physics when `study` is given (with its position and intended flick),
/// else on the tournament board with the default physics. Refused (field
/// `shooter_positions`) for a summary printed without the positions, which has no cloud.
pub fn study_cloud_svg(
    summary: &StudySummary,
    study: Option<&Study>,
    title: &str,
    view: CloudView,
) -> Result<String, InputError> {
    if summary.shooter_positions.is_none() {
        return Err(InputError::new(
            "shooter_positions",
            "missing: this summary was printed without the positions; make it with \
             `crokinole montecarlo STUDY --positions` to draw the cloud",
        ));
    }
    let (board, physics) = study.map_or_else(
        || (Board::tournament(), Physics::default()),
        |s| {
            let situation = &s.spec().situation;
            (situation.board.clone(), situation.physics.clone())
        },
    );
    let shot = study.map(Study::intended_shot);
    Ok(cloud_svg(
        &board,
        &physics,
        summary,
        shot.as_ref(),
        title,
        view,
    ))
}

/// The picture of a Monte Carlo summary on `board`; `study` adds the position and the
/// intended shot (the shooter is the shot's last disc). `title` is escaped here. A summary
/// without positions gets the table and a note saying how to get the cloud.
pub fn cloud_svg(
    board: &Board,
    physics: &Physics,
    summary: &StudySummary,
    study: Option<&Shot>,
    title: &str,
    view: CloudView,
) -> String {
    let r = outer_radius(board) + 8.0;
    let panel = 330.0;
    let mut svg = Svg::new(
        (-r, -r - 44.0, 2.0 * r + panel, 2.0 * r + 44.0),
        1100.0,
        STYLE,
    );
    svg.text(-r + 4.0, -r - 24.0, "title", "start", title);
    let positions: Vec<(DVec2, ShotClass)> = summary
        .shooter_positions
        .as_ref()
        .map(|p| {
            p.first
                .iter()
                .zip(&p.class)
                .map(|(&xy, &c)| (DVec2::from(xy), c))
                .collect()
        })
        .unwrap_or_default();
    let mut seen: Vec<DVec2> = positions.iter().map(|&(p, _)| p).collect();
    if let Some(shot) = study {
        // The position's discs, not the shooter's start: the zoom is on where discs end.
        seen.extend(shot.discs.iter().map(|d| d.pos));
    }
    let (centre, half) = match view {
        CloudView::Board => (DVec2::ZERO, r / MM),
        CloudView::Zoom => zoom_box(board, &seen),
    };
    // Board millimetres to picture units: the square `centre -+ half` fills the panel.
    let k = r / (half * MM);
    let note = match &summary.shooter_positions {
        Some(p) => format!(
            "{} samples (seed {}); dots: the shot disc's final position in the first {}, \
             coloured by the sample's class (table){}",
            summary.samples,
            summary.seed,
            p.first.len(),
            if k > 1.0 + 1e-9 {
                format!("; zoomed {}x", fmt_g((k * 10.0).round() / 10.0))
            } else {
                String::new()
            }
        ),
        None => format!(
            "{} samples (seed {}); no positions in this summary: make it with \
             `crokinole montecarlo ... --positions` to see the cloud",
            summary.samples, summary.seed
        ),
    };
    svg.text(-r + 4.0, -r - 6.0, "note", "start", &note);

    svg.raw(&format!(
        "<defs><clipPath id=\"board-panel\"><rect x=\"{0}\" y=\"{0}\" width=\"{1}\" \
         height=\"{1}\"/></clipPath></defs>",
        num(-r),
        num(2.0 * r)
    ));
    let (cx, cy) = at(centre);
    svg.open(
        "g",
        &[
            ("class", "view".to_string()),
            ("clip-path", "url(#board-panel)".to_string()),
        ],
    );
    svg.open(
        "g",
        &[(
            "transform",
            format!("scale({}) translate({},{})", num(k), num(-cx), num(-cy)),
        )],
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

    // Most frequent class first, so rarer classes are drawn on top of it; `twenty` and
    // `ditch` last whatever their counts: their dots sit on one curve each (the hole's
    // support window, the surface's edge), where the dots of a spread class next to them
    // (hangers, discs near the edge) would bury them.
    let rows = class_rows(summary);
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by_key(|&i| {
        let on_a_curve = matches!(rows[i].0, ShotClass::Twenty | ShotClass::Ditch);
        (on_a_curve, std::cmp::Reverse(rows[i].1.count))
    });
    let dot = 1.8 / k.sqrt();
    // The fill is a style, not an attribute, so no class of the board's stylesheet (its
    // `.ditch` is the ditch's near-black) can override it.
    let rim = format!("stroke:#fff;stroke-width:{}", num(0.35 / k.sqrt()));
    svg.group("cloud");
    for &i in &order {
        let class = rows[i].0;
        for &(p, c) in positions.iter().filter(|&&(_, c)| c == class) {
            let (x, y) = at(p);
            svg.empty(
                "circle",
                &[
                    ("class", format!("sample sample-{}", c.name())),
                    ("data-class", c.name().to_string()),
                    ("cx", num(x)),
                    ("cy", num(y)),
                    ("r", num(dot)),
                    ("style", format!("fill:{};{rim}", class_colour(c))),
                ],
            );
        }
    }
    svg.close("g");
    svg.close("g");
    svg.close("g");

    table(&mut svg, summary, r + 14.0, -r + 10.0);
    svg.finish()
}

/// The class table at `(x, y)`: swatch, name, count, p, 95 % interval and a bar.
fn table(svg: &mut Svg, summary: &StudySummary, x: f64, y: f64) {
    svg.group("outcomes");
    svg.text(x, y + 14.0, "title", "start", "Shot disc outcome");
    let row_h = 30.0;
    let top = y + 40.0;
    svg.text(x + 18.0, top - 6.0, "note", "start", "class");
    svg.text(x + 140.0, top - 6.0, "note", "end", "p");
    svg.text(x + 150.0, top - 6.0, "note", "start", "95 % interval");
    let rows = class_rows(summary);
    for (k, (class, c)) in rows.iter().enumerate() {
        let yy = top + k as f64 * row_h;
        let colour = class_colour(*class);
        svg.open(
            "g",
            &[
                ("class", "outcome-row".to_string()),
                ("data-class", class.name().to_string()),
            ],
        );
        svg.rect_filled(x, yy + 4.0, 12.0, 12.0, "swatch", colour);
        svg.text(x + 18.0, yy + 14.0, "note", "start", class.name());
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
        let samples = if c.count == 1 { "sample" } else { "samples" };
        svg.text_element(
            "title",
            &[],
            &format!(
                "{}: {} of {} {samples}",
                class.name(),
                c.count,
                summary.samples
            ),
        );
        svg.close("g");
    }
    let below = top + rows.len() as f64 * row_h + 20.0;
    svg.text(
        x,
        below,
        "note",
        "start",
        &format!(
            "mean change in board score: {}",
            fmt_g(summary.score_change.mean)
        ),
    );
    svg.text(
        x,
        below + 18.0,
        "note",
        "start",
        "dots: each sample's class, coloured",
    );
    svg.text(
        x,
        below + 34.0,
        "note",
        "start",
        "as in this table (the legend)",
    );
    svg.close("g");
}
