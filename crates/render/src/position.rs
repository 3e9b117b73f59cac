//! A position with no shot: the board to scale with its scoring zones labelled (20, 15, 10,
//! 5), the shooting line, the ditch and the seats named, and the discs at rest where they
//! stand, each with its id and, in its tooltip and the side panel, the zone it scores in.

use super::board::{DITCH_WIDTH, MM, RAIL_WIDTH, STYLE, at, draw_board, outer_radius};
use super::shot::{count_of, draw_disc, fmt_g};
use super::svg::{Svg, num};
use crokinole_core::board::{Board, Zone};
use crokinole_core::disc::Disc;
use crokinole_core::params::Physics;
use crokinole_core::shot::Placed;
use crokinole_rules::board_score;
use crokinole_rules::placement::seat_direction;
use glam::DVec2;

/// The labels' styles, after the board's [`STYLE`] (which the other pictures share).
const POSITION_STYLE: &str = "\
.zone-label{font:bold 24px sans-serif;fill:#3a2614;opacity:0.6;dominant-baseline:central}\
.zone-label.twenty{font-size:14px;fill:#fff;opacity:1}\
.board-label{font:italic 10px sans-serif;fill:#3a2614;dominant-baseline:central}\
.board-label.ditch{fill:#ecd3a5}.board-label.seat{fill:#fff}\
";

/// Discs listed by name in the side panel; more are counted, not listed.
const LISTED_DISCS: usize = 20;

/// Where a disc at `zone` scores, in words: `15 zone`, `out (0)`.
fn zone_words(zone: Zone) -> &'static str {
    match zone {
        Zone::Fifteen => "15 zone",
        Zone::Ten => "10 zone",
        Zone::Five => "5 zone",
        Zone::Out => "out (0): on or beyond the shooting line",
    }
}

/// The picture of a position on `board`: the discs at rest `discs` (ids `0..n` in order,
/// radius `physics.disc_radius`), with a `title` line (escaped here). The board is drawn to
/// scale as in every picture ([`draw_board`]); the scoring zones are labelled (20 in the
/// hole, then 15, 10 and 5 between the lines, along the `+y` axis unless a disc covers the
/// place, `board_labels`), with the shooting line, the ditch and the four seats named;
/// every disc is drawn by team with its id and a tooltip naming its zone. The side panel is the key of the zones and lists the discs
/// with their zones and each team's zone points (`rules::board_score`). An empty `discs`
/// gives the empty board.
pub fn position_svg(board: &Board, physics: &Physics, discs: &[Placed], title: &str) -> String {
    let r = outer_radius(board) + 8.0;
    let panel = 300.0;
    let mut svg = Svg::new(
        (-r, -r - 44.0, 2.0 * r + panel, 2.0 * r + 44.0),
        1100.0,
        &format!("{STYLE}{POSITION_STYLE}"),
    );
    svg.text(-r + 4.0, -r - 24.0, "title", "start", title);
    let radius = physics.disc_radius;
    let score = board_score(board, radius, discs);
    let note = if discs.is_empty() {
        "no discs: the board, its scoring zones, lines and ditch".to_string()
    } else {
        let of_team = |t: u8| discs.iter().filter(|d| d.team.min(1) == t).count();
        format!(
            "{} at rest ({} of team 0, {} of team 1); zone points: team 0 {}, team 1 {}",
            count_of(discs.len(), "disc", "discs"),
            of_team(0),
            of_team(1),
            score[0],
            score[1]
        )
    };
    svg.text(-r + 4.0, -r - 6.0, "note", "start", &note);
    draw_board(&mut svg, board);
    board_labels(&mut svg, board, discs, radius);

    svg.group("discs");
    for (id, d) in discs.iter().enumerate() {
        let zone = zone_words(board.zone(d.pos, radius));
        let disc = Disc::at_rest(d.team, d.pos, radius, physics.disc_mass);
        let note = format!(", {zone}, at ({}, {}) m", fmt_g(d.pos.x), fmt_g(d.pos.y));
        draw_disc(&mut svg, Some(id), &disc, &note);
    }
    svg.close("g");

    side_panel(&mut svg, board, radius, discs, score, r + 12.0, -r + 10.0);
    svg.finish()
}

/// Where a label of `chars` characters at `font` px (= mm) goes: the first of the points
/// at `radius` along the directions `along` (unit vectors) where no disc of `discs`
/// (radius `disc_radius`) covers the text's box, else the first. Deterministic, so a
/// position always gets the same picture.
fn label_place(
    along: &[DVec2],
    radius: f64,
    chars: usize,
    font: f64,
    discs: &[Placed],
    disc_radius: f64,
) -> DVec2 {
    // Half the text's box, m: about 0.55 em a character, 0.7 em high.
    let half = DVec2::new(0.5 * 0.55 * font * chars as f64, 0.35 * font) / MM;
    let clear = |p: DVec2| {
        discs.iter().all(|d| {
            let gap = ((d.pos - p).abs() - half).max(DVec2::ZERO);
            gap.length() > disc_radius
        })
    };
    along
        .iter()
        .map(|&u| u * radius)
        .find(|&p| clear(p))
        .unwrap_or(along[0] * radius)
}

/// The labels, as group `labels`: 20 in the hole; 15, 10 and 5 half-way between the lines
/// and the shooting line and the ditch named beyond them, along `+y` unless a disc covers
/// the place (then along `-y`, `-x` or `+x` for a zone, `-y` for a line); and each seat
/// named on the rail (turned to read along it).
fn board_labels(svg: &mut Svg, board: &Board, discs: &[Placed], disc_radius: f64) {
    svg.group("labels");
    let axes = [DVec2::Y, DVec2::NEG_Y, DVec2::NEG_X, DVec2::X];
    let zones = [
        ("20", 0.0),
        ("15", 0.5 * (board.hole_radius + board.fifteen_line_radius)),
        (
            "10",
            0.5 * (board.fifteen_line_radius + board.ten_line_radius),
        ),
        (
            "5",
            0.5 * (board.ten_line_radius + board.shooting_line_radius),
        ),
    ];
    for (zone, radius) in zones {
        let (class, font) = if zone == "20" {
            ("zone-label twenty", 14.0)
        } else {
            ("zone-label", 24.0)
        };
        let p = label_place(&axes, radius, zone.len(), font, discs, disc_radius);
        let (x, y) = at(p);
        svg.text_element(
            "text",
            &[
                ("class", class.to_string()),
                ("data-zone", zone.to_string()),
                ("x", num(x)),
                ("y", num(y)),
                ("text-anchor", "middle".to_string()),
            ],
            zone,
        );
    }
    let names = [
        (
            "shooting line",
            "board-label",
            0.5 * (board.shooting_line_radius + board.surface_radius),
        ),
        (
            "ditch",
            "board-label ditch",
            board.surface_radius + 0.5 * DITCH_WIDTH,
        ),
    ];
    for (name, class, radius) in names {
        let p = label_place(&axes[..2], radius, name.len(), 10.0, discs, disc_radius);
        let (x, y) = at(p);
        svg.text(x, y, class, "middle", name);
    }
    let rail = board.surface_radius + DITCH_WIDTH + 0.5 * RAIL_WIDTH;
    for seat in 0..4u8 {
        let u = seat_direction(seat);
        let (x, y) = at(u * rail);
        // Read along the rail: upright at the top and bottom, turned on the sides.
        let turn = if u.x.abs() > 0.5 { 90.0 * u.x } else { 0.0 };
        svg.text_element(
            "text",
            &[
                ("class", "board-label seat".to_string()),
                ("data-seat", seat.to_string()),
                ("x", num(x)),
                ("y", num(y)),
                ("text-anchor", "middle".to_string()),
                (
                    "transform",
                    format!("rotate({} {} {})", num(turn), num(x), num(y)),
                ),
            ],
            &format!("seat {seat}"),
        );
    }
    svg.close("g");
}

/// The key of the zones and the list of the discs with their zones, at `(x, y)`.
fn side_panel(
    svg: &mut Svg,
    board: &Board,
    radius: f64,
    discs: &[Placed],
    score: [u32; 2],
    x: f64,
    y: f64,
) {
    svg.group("zone-key");
    svg.text(x, y + 14.0, "title", "start", "Scoring zones");
    let key = [
        "20: in the hole",
        "15: inside the 15 line",
        "10: inside the 10 line",
        "5: inside the shooting line",
        "0: on or beyond it, or in the ditch",
        "(a disc touching a line scores the lower)",
    ];
    for (k, line) in key.iter().enumerate() {
        svg.text(x, y + 40.0 + 22.0 * k as f64, "note", "start", line);
    }
    svg.close("g");

    let top = y + 40.0 + 22.0 * key.len() as f64 + 24.0;
    svg.group("disc-list");
    svg.text(x, top, "title", "start", "Discs");
    if discs.is_empty() {
        svg.text(x, top + 26.0, "note", "start", "none: an empty board");
    }
    for (id, d) in discs.iter().take(LISTED_DISCS).enumerate() {
        let zone = board.zone(d.pos, radius);
        svg.text_element(
            "text",
            &[
                ("class", "note disc-row".to_string()),
                ("data-disc", id.to_string()),
                ("x", num(x)),
                ("y", num(top + 26.0 + 22.0 * id as f64)),
            ],
            &format!(
                "{id}. team {}: {} ({}, {})",
                d.team,
                zone_words(zone).split(':').next().unwrap_or(""),
                fmt_g(d.pos.x),
                fmt_g(d.pos.y)
            ),
        );
    }
    let listed = discs.len().clamp(1, LISTED_DISCS);
    let mut next = top + 26.0 + 22.0 * listed as f64;
    if discs.len() > LISTED_DISCS {
        svg.text(
            x,
            next,
            "note",
            "start",
            &format!(
                "... and {} more (hover over the discs)",
                discs.len() - LISTED_DISCS
            ),
        );
        next += 22.0;
    }
    if !discs.is_empty() {
        svg.text(
            x,
            next + 8.0,
            "note",
            "start",
            &format!("zone points: team 0 {}, team 1 {}", score[0], score[1]),
        );
    }
    svg.close("g");
}
