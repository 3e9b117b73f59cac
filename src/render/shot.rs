//! A shot's picture from its [`Trace`]: the board, where the discs that moved started
//! (dashed), the path of every disc that moved, the discs where they ended, a marker at
//! every contact (disc-disc and disc-peg) and a cross where a disc left the surface (hole or
//! ditch).

use super::board::{MM, STYLE, at, draw_board, outer_radius};
use super::svg::{Svg, num};
use crate::board::Board;
use crate::disc::Disc;
use crate::step::event::EventKind;
use crate::trace::Trace;

/// One disc as a filled circle of its team with its id (group `disc-group`).
pub(crate) fn draw_disc(svg: &mut Svg, id: Option<usize>, d: &Disc, note: &str) {
    let (x, y) = at(d.pos);
    let what = match id {
        Some(id) => format!("disc {id}, team {}{note}", d.team),
        None => format!("team {}{note}", d.team),
    };
    svg.circle(
        x,
        y,
        d.radius * MM,
        &format!("disc team{}", d.team.min(1)),
        &what,
    );
    if let Some(id) = id {
        svg.text(x, y, "disc-label", "middle", &id.to_string());
    }
}

/// The picture of a traced shot on `board`, with a `title` line (escaped here).
pub fn shot_svg(board: &Board, trace: &Trace, title: &str) -> String {
    let r = outer_radius(board) + 8.0;
    let mut svg = Svg::new((-r, -r - 44.0, 2.0 * r, 2.0 * r + 44.0), 900.0, STYLE);
    let o = &trace.outcome;
    svg.text(-r + 4.0, -r - 24.0, "title", "start", title);
    let departures = o
        .events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Hole { .. } | EventKind::Ditch { .. }))
        .count();
    let note = format!(
        "{} discs, {} moved; {} events ({} contacts); at rest after {} s ({} steps of {} s){}",
        o.discs.len(),
        trace.moved().len(),
        o.events.len(),
        o.events.len() - departures,
        fmt_g(o.time),
        o.steps,
        fmt_g(trace.dt),
        if o.cut_off { "; CUT OFF" } else { "" }
    );
    svg.text(-r + 4.0, -r - 6.0, "note", "start", &note);
    draw_board(&mut svg, board);

    let paths = trace.paths();
    svg.group("starts");
    for (id, _) in &paths {
        let d = &trace.start[*id];
        let (x, y) = at(d.pos);
        svg.circle(
            x,
            y,
            d.radius * MM,
            &format!("start team{}", d.team.min(1)),
            &format!("disc {id} at the start"),
        );
    }
    svg.close("g");

    svg.group("paths");
    for (id, points) in &paths {
        let team = trace.start[*id].team.min(1);
        let pts: Vec<(f64, f64)> = points.iter().map(|&(_, p)| at(p)).collect();
        svg.polyline(
            &pts,
            &format!("path team{team}"),
            &format!("path of disc {id}"),
        );
    }
    svg.close("g");

    svg.group("discs");
    for (id, d) in o.discs.iter().enumerate() {
        if d.on_board() {
            draw_disc(&mut svg, Some(id), d, "");
        }
    }
    svg.close("g");

    svg.group("exits");
    for e in &trace.events {
        let (a, label) = match e.event.kind {
            EventKind::Hole { a } => (a, "20"),
            EventKind::Ditch { a } => (a, "ditch"),
            _ => continue,
        };
        let (x, y) = at(e.point);
        let s = 4.0;
        svg.open(
            "g",
            &[
                ("class", "exit".to_string()),
                ("transform", format!("translate({},{})", num(x), num(y))),
            ],
        );
        svg.text_element(
            "title",
            &[],
            &format!(
                "disc {a} left the surface ({label}) at t = {} s",
                fmt_g(e.event.t)
            ),
        );
        for class in ["exit-halo", "exit-cross"] {
            svg.line((-s, -s), (s, s), class);
            svg.line((-s, s), (s, -s), class);
        }
        svg.text(
            s + 2.0,
            -s - 1.0,
            "exit-label",
            "start",
            &format!("{a}: {label}"),
        );
        svg.close("g");
    }
    svg.close("g");

    svg.group("contacts");
    for e in &trace.events {
        let what = match e.event.kind {
            EventKind::Disc { a, b } => format!("disc {a} hits disc {b}"),
            EventKind::Peg { a, peg } => format!("disc {a} hits peg {peg}"),
            _ => continue,
        };
        let (x, y) = at(e.point);
        svg.circle(
            x,
            y,
            2.2,
            "contact",
            &format!("{what} at t = {} s", fmt_g(e.event.t)),
        );
    }
    svg.close("g");

    legend(&mut svg, r);
    svg.finish()
}

/// The key of the symbols, in the picture's bottom-left corner.
fn legend(svg: &mut Svg, r: f64) {
    let (x, y) = (-r + 4.0, r - 58.0);
    svg.group("legend");
    svg.rect(x, y, 158.0, 54.0, "legend-box", "");
    svg.circle(x + 10.0, y + 11.0, 5.0, "start team0", "");
    svg.text(x + 20.0, y + 15.0, "note", "start", "start (dashed)");
    svg.line((x + 4.0, y + 25.0), (x + 16.0, y + 25.0), "path team0");
    svg.text(x + 20.0, y + 29.0, "note", "start", "path");
    svg.circle(x + 10.0, y + 38.0, 2.2, "contact-key", "");
    svg.text(x + 20.0, y + 42.0, "note", "start", "contact point");
    svg.text(
        x + 62.0,
        y + 29.0,
        "note",
        "start",
        "\u{2715} left the surface",
    );
    svg.close("g");
}

/// A float in its shortest round-trip form, trimmed to 6 significant decimals for notes.
pub(crate) fn fmt_g(x: f64) -> String {
    let s = format!("{x:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}
