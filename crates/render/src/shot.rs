//! A shot's picture from its [`Trace`]: the board, where the discs that moved started
//! (dashed), the path of every disc that moved, the discs where they ended, a marker at
//! every contact (disc-disc and disc-peg) and a cross where a disc left the surface (hole or
//! ditch).

use super::board::{MM, STYLE, at, draw_board, outer_radius};
use super::svg::{Svg, num};
use crokinole_core::board::Board;
use crokinole_core::disc::Disc;
use crokinole_core::step::event::EventKind;
use crokinole_core::trace::Trace;

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

/// `n` and a noun, singular for 1: `1 contact`, `3 contacts`.
pub(crate) fn count_of(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Events listed by name in the side panel; more are counted, not listed.
const LISTED_EVENTS: usize = 26;

/// What event `e` was, in words: `disc 1 hits peg 6`, `disc 0 drops into the 20 hole`.
fn event_words(kind: EventKind) -> String {
    match kind {
        EventKind::Disc { a, b } => format!("disc {a} hits disc {b}"),
        EventKind::Peg { a, peg } => format!("disc {a} hits peg {peg}"),
        EventKind::Hole { a } => format!("disc {a} drops into the 20 hole"),
        EventKind::Ditch { a } => format!("disc {a} goes into the ditch"),
    }
}

/// The picture of a traced shot on `board`, with a `title` line (escaped here): the board,
/// the starts (dashed) and the flick's arrow (the shooter's velocity, 40 mm per m/s, with
/// its speed and spin), the paths, the discs at rest, every event numbered in time order
/// at its place (contacts as yellow dots, departures as crosses), and a side panel listing
/// the events in order with their times, and the key of the symbols.
pub fn shot_svg(board: &Board, trace: &Trace, title: &str) -> String {
    let r = outer_radius(board) + 8.0;
    let panel = 300.0;
    let mut svg = Svg::new(
        (-r, -r - 44.0, 2.0 * r + panel, 2.0 * r + 44.0),
        1100.0,
        STYLE,
    );
    let o = &trace.outcome;
    svg.text(-r + 4.0, -r - 24.0, "title", "start", title);
    let departures = o
        .events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Hole { .. } | EventKind::Ditch { .. }))
        .count();
    let note = format!(
        "{}, {} moved; {} ({}); at rest after {} s ({} of {} s){}",
        count_of(o.discs.len(), "disc", "discs"),
        trace.moved().len(),
        count_of(o.events.len(), "event", "events"),
        count_of(o.events.len() - departures, "contact", "contacts"),
        fmt_g(o.time),
        count_of(o.steps as usize, "step", "steps"),
        fmt_g(trace.dt),
        if o.cut_off { "; CUT OFF" } else { "" }
    );
    svg.text(-r + 4.0, -r - 6.0, "note", "start", &note);
    svg.raw(
        "<defs><marker id=\"arrowhead\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" \
         markerWidth=\"5\" markerHeight=\"5\" orient=\"auto-start-reverse\">\
         <path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"#111\"/></marker></defs>",
    );
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

    flick_arrow(&mut svg, trace);

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
        svg.close("g");
    }
    svg.close("g");

    svg.group("contacts");
    for e in &trace.events {
        if !matches!(e.event.kind, EventKind::Disc { .. } | EventKind::Peg { .. }) {
            continue;
        }
        let (x, y) = at(e.point);
        svg.circle(
            x,
            y,
            2.2,
            "contact",
            &format!(
                "{} at t = {} s",
                event_words(e.event.kind),
                fmt_g(e.event.t)
            ),
        );
    }
    svg.close("g");

    // Event numbers at their places, in time order (the outcome's order), offset so that
    // events at one spot stay readable.
    svg.group("event-numbers");
    let mut placed: Vec<(f64, f64)> = Vec::new();
    for (k, e) in trace.events.iter().enumerate() {
        let (x, y) = at(e.point);
        let near = placed
            .iter()
            .filter(|(px, py)| (px - x).hypot(py - y) < 6.0)
            .count();
        placed.push((x, y));
        svg.text_element(
            "text",
            &[
                ("class", "event-number".to_string()),
                ("data-event", k.to_string()),
                ("x", num(x + 4.0 + 9.0 * near as f64)),
                ("y", num(y - 4.0)),
            ],
            &(k + 1).to_string(),
        );
    }
    svg.close("g");

    event_list(&mut svg, trace, r + 12.0, -r + 10.0);
    legend(&mut svg, r);
    svg.finish()
}

/// The flick: an arrow from the shooter's start along its velocity, 40 mm per m/s, with
/// its speed (and spin) written at the tip. The shooter is the last disc.
fn flick_arrow(svg: &mut Svg, trace: &Trace) {
    let Some(s) = trace.start.last() else {
        return;
    };
    let speed = s.vel.length();
    if speed <= 0.0 {
        return;
    }
    let tip = s.pos + s.vel * (0.04 / speed) * speed.max(0.5);
    let (x0, y0) = at(s.pos);
    let (x1, y1) = at(tip);
    svg.open("g", &[("class", "flick".to_string())]);
    svg.text_element(
        "title",
        &[],
        &format!(
            "the flick: disc {} from ({}, {}) m at {} m/s, spin {} rad/s",
            trace.start.len() - 1,
            fmt_g(s.pos.x),
            fmt_g(s.pos.y),
            fmt_g(speed),
            fmt_g(s.spin)
        ),
    );
    svg.empty(
        "line",
        &[
            ("class", "flick-arrow".to_string()),
            ("x1", num(x0)),
            ("y1", num(y0)),
            ("x2", num(x1)),
            ("y2", num(y1)),
            ("marker-end", "url(#arrowhead)".to_string()),
        ],
    );
    let spin = if s.spin == 0.0 {
        String::new()
    } else {
        format!(", spin {}", fmt_g((s.spin * 10.0).round() / 10.0))
    };
    let label = format!("{} m/s{spin}", fmt_g((speed * 1000.0).round() / 1000.0));
    // The label just beyond the tip, in the arrow's direction, clear of the shaft.
    let u = s.vel / speed;
    let (lx, ly) = at(tip + u * 0.008);
    let anchor = if u.x > 0.3 {
        "start"
    } else if u.x < -0.3 {
        "end"
    } else {
        "middle"
    };
    let dy = if u.y < -0.3 { 10.0 } else { 4.0 };
    svg.text(lx, ly + dy, "flick-label", anchor, &label);
    svg.close("g");
}

/// The events in time order, numbered as on the board, at `(x, y)`.
fn event_list(svg: &mut Svg, trace: &Trace, x: f64, y: f64) {
    svg.group("event-list");
    svg.text(x, y + 14.0, "title", "start", "Events, in order");
    if trace.events.is_empty() {
        svg.text(x, y + 40.0, "note", "start", "none: nothing was hit");
    }
    for (k, e) in trace.events.iter().take(LISTED_EVENTS).enumerate() {
        svg.text_element(
            "text",
            &[
                ("class", "note event-row".to_string()),
                ("data-event", k.to_string()),
                ("x", num(x)),
                ("y", num(y + 40.0 + 22.0 * k as f64)),
            ],
            &format!(
                "{}. {} s: {}",
                k + 1,
                fmt_g((e.event.t * 1000.0).round() / 1000.0),
                event_words(e.event.kind)
            ),
        );
    }
    if trace.events.len() > LISTED_EVENTS {
        svg.text(
            x,
            y + 40.0 + 22.0 * LISTED_EVENTS as f64,
            "note",
            "start",
            &format!(
                "... and {} more (hover over the points)",
                trace.events.len() - LISTED_EVENTS
            ),
        );
    }
    svg.close("g");
}

/// The key of the symbols, in the picture's bottom-left corner.
fn legend(svg: &mut Svg, r: f64) {
    let (x, y) = (-r + 4.0, r - 92.0);
    svg.group("legend");
    svg.rect(x, y, 196.0, 88.0, "legend-box", "");
    svg.circle(x + 10.0, y + 11.0, 5.0, "start team0", "");
    svg.text(x + 20.0, y + 15.0, "note", "start", "start (dashed)");
    svg.empty(
        "line",
        &[
            ("class", "flick-arrow".to_string()),
            ("x1", num(x + 3.0)),
            ("y1", num(y + 27.0)),
            ("x2", num(x + 17.0)),
            ("y2", num(y + 27.0)),
            ("marker-end", "url(#arrowhead)".to_string()),
        ],
    );
    svg.text(
        x + 20.0,
        y + 31.0,
        "note",
        "start",
        "the flick (speed, spin)",
    );
    svg.line((x + 4.0, y + 43.0), (x + 16.0, y + 43.0), "path team0");
    svg.text(x + 20.0, y + 47.0, "note", "start", "path");
    svg.circle(x + 10.0, y + 59.0, 2.2, "contact-key", "");
    svg.text(x + 20.0, y + 63.0, "note", "start", "contact point");
    svg.text(
        x + 5.0,
        y + 79.0,
        "note",
        "start",
        "\u{2715} left the surface; 1, 2..: events",
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
