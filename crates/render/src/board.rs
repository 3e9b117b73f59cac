//! The board to scale, from a [`Board`]: the ditch and its rim, the playing surface, the
//! shooting line, the 10 and 15 lines with their real width, the quadrant lines in the 5
//! band, the 20 hole and the pegs with their sleeves. One SVG user unit is one millimetre;
//! `+y` of the board points up the picture.

use super::svg::Svg;
use crokinole_core::board::Board;
use glam::DVec2;

/// Width of the ditch outside the playing surface, m (`docs/board.md`).
pub const DITCH_WIDTH: f64 = 0.0508;
/// Width of the rail drawn around the ditch, m (for looks only).
pub const RAIL_WIDTH: f64 = 0.012;

/// Millimetres per metre: the picture's unit.
pub const MM: f64 = 1000.0;

/// A board point in the picture's coordinates (mm, `y` down).
pub fn at(p: DVec2) -> (f64, f64) {
    (p.x * MM, -p.y * MM)
}

/// Radius of the whole board drawn (surface, ditch and rail), mm.
pub fn outer_radius(board: &Board) -> f64 {
    (board.surface_radius + DITCH_WIDTH + RAIL_WIDTH) * MM
}

/// The stylesheet of everything [`draw_board`] and the layers draw.
pub const STYLE: &str = "\
.rail{fill:#5b3a22}.ditch{fill:#2e2018}.surface{fill:#ecd3a5}\
.line{fill:none;stroke:#3a2614}.quadrant{stroke:#3a2614}\
.hole{fill:#120b06;stroke:#3a2614;stroke-width:0.6}\
.peg{fill:#1b1b1b}.pin{fill:#b8b8b8}\
.team0{fill:#c8372d}.team1{fill:#1f5fbf}\
.disc{stroke:#111;stroke-width:0.8}\
.disc-label{font:bold 13px sans-serif;fill:#fff;dominant-baseline:central}\
.start{fill:none;stroke-width:0.9;stroke-dasharray:3 2}\
.start.team0{stroke:#c8372d}.start.team1{stroke:#1f5fbf}\
.path{fill:none;stroke-width:1.6;stroke-linejoin:round;stroke-linecap:round;opacity:0.85}\
.path.team0{stroke:#8f1d16}.path.team1{stroke:#123f86}\
.contact,.contact-key{fill:#ffd400;stroke:#111;stroke-width:0.6}\
.exit-halo{stroke:#111;stroke-width:3.4;stroke-linecap:round}\
.exit-cross{stroke:#ffd400;stroke-width:1.6;stroke-linecap:round}\
.exit-label{font:bold 11px sans-serif;fill:#fff;stroke:#111;stroke-width:2.5;paint-order:stroke}\
.title{font:bold 16px sans-serif;fill:#111}.note{font:12px sans-serif;fill:#222}\
.sample{opacity:0.8}\
.legend-box{fill:#fff;stroke:#888;stroke-width:0.5}\
.flick-arrow{stroke:#111;stroke-width:1.6}\
.flick-label{font:bold 12px sans-serif;fill:#111;stroke:#fff;stroke-width:3;paint-order:stroke}\
.event-number{font:bold 10px sans-serif;fill:#111;stroke:#fff;stroke-width:2.5;paint-order:stroke}\
.aim{stroke-dasharray:4 3}.whisker{stroke:#222;stroke-width:1}\
";

/// Draws the board, centred on the origin, as a group `board`.
pub fn draw_board(svg: &mut Svg, board: &Board) {
    let mm = |m: f64| m * MM;
    svg.group("board");
    svg.circle(0.0, 0.0, outer_radius(board), "rail", "");
    svg.circle(
        0.0,
        0.0,
        mm(board.surface_radius + DITCH_WIDTH),
        "ditch",
        "",
    );
    svg.circle(0.0, 0.0, mm(board.surface_radius), "surface", "");
    // The lines, centred on their radius, with their width.
    let w = format!("stroke-width:{}", super::svg::num(mm(board.line_width)));
    for (r, name) in [
        (board.shooting_line_radius, "line shooting-line"),
        (board.ten_line_radius, "line ten-line"),
        (board.fifteen_line_radius, "line fifteen-line"),
    ] {
        svg.empty(
            "circle",
            &[
                ("class", name.to_string()),
                ("cx", "0.0000".to_string()),
                ("cy", "0.0000".to_string()),
                ("r", super::svg::num(mm(r))),
                ("style", w.clone()),
            ],
        );
    }
    // Quadrant lines: radial at 45 deg + k 90 deg, across the 5 band.
    let c = std::f64::consts::FRAC_1_SQRT_2;
    for (sx, sy) in [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)] {
        let u = DVec2::new(sx * c, sy * c);
        svg.empty(
            "line",
            &[
                ("class", "quadrant".to_string()),
                ("x1", super::svg::num(at(u * board.ten_line_radius).0)),
                ("y1", super::svg::num(at(u * board.ten_line_radius).1)),
                ("x2", super::svg::num(at(u * board.shooting_line_radius).0)),
                ("y2", super::svg::num(at(u * board.shooting_line_radius).1)),
                ("style", w.clone()),
            ],
        );
    }
    svg.circle(0.0, 0.0, mm(board.hole_radius), "hole", "the 20 hole");
    for (k, &p) in board.pegs.iter().enumerate() {
        let (x, y) = at(p);
        svg.circle(x, y, mm(board.peg_radius), "peg", &format!("peg {k}"));
        svg.circle(x, y, mm(0.45 * board.peg_radius), "pin", "");
    }
    svg.close("g");
}
