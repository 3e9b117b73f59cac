//! Traces and pictures: the trace reproduces `run_shot` bit for bit and puts every event
//! where the geometry says; the SVG pictures parse as XML, hold the elements the input
//! implies, are drawn to scale and are the bytes of their golden files
//! (`fixtures/render/golden-*.svg`: open them to look; `UPDATE_GOLDEN=1 cargo test
//! --profile ci --test suite render::` rewrites them); `crokinole render` and `simulate
//! --trace` behave at the command line.

use crate::binary;
use crate::fixture;
use crate::golden_file;

use crokinole::io::{outcomes_to_string, parse_plan, parse_shot_file, parse_summary};
use crokinole::montecarlo::ShotClass;
use crokinole::render::{CloudView, class_colour, cloud_svg, heatmap_svg, shot_svg};
use crokinole::trace::{Trace, trace_shot, trace_world};
use crokinole::{Board, Disc, DiscState, EventKind, Physics, Shot, World, run_shot};
use glam::DVec2;
use std::collections::BTreeMap;
use std::path::PathBuf;

use fixture::path as fixture;

fn read(name: &str) -> String {
    std::fs::read_to_string(fixture(name)).unwrap()
}

/// The board, physics and shots of a shot-file fixture.
fn shots(name: &str) -> (Board, Physics, Vec<Shot>) {
    let (board, physics, entries) = parse_shot_file(&read(name)).unwrap();
    (
        board,
        physics,
        entries.into_iter().map(|e| e.shot).collect(),
    )
}

/// Every shot of `example.json` and every 20th of `crowded.json`.
fn sample_shots() -> Vec<(Board, Physics, Shot)> {
    let mut out = Vec::new();
    let (b, p, s) = shots("example.json");
    out.extend(s.into_iter().map(|s| (b.clone(), p.clone(), s)));
    let (b, p, s) = shots("crowded.json");
    out.extend(s.into_iter().step_by(20).map(|s| (b.clone(), p.clone(), s)));
    out
}

/// Checks `svg` against `fixtures/render/golden-NAME.svg` (pinned byte for byte).
fn golden_svg(name: &str, svg: &str, what: &str) {
    golden_file::check(
        &fixture(&format!("render/golden-{name}.svg")),
        svg,
        what,
        "render",
        "the physics or the drawing",
    );
}

fn bits(v: DVec2) -> (u64, u64) {
    (v.x.to_bits(), v.y.to_bits())
}

#[test]
fn the_trace_ends_bit_identical_to_run_shot() {
    for (k, (board, physics, shot)) in sample_shots().iter().enumerate() {
        let plain = run_shot(board, physics, shot).unwrap();
        let trace = trace_shot(board, physics, shot, 10).unwrap();
        let o = &trace.outcome;
        assert_eq!(
            outcomes_to_string(std::slice::from_ref(o)),
            outcomes_to_string(std::slice::from_ref(&plain)),
            "shot {k}"
        );
        assert_eq!(
            (o.steps, o.time.to_bits()),
            (plain.steps, plain.time.to_bits())
        );
        for (a, b) in o.discs.iter().zip(&plain.discs) {
            assert_eq!((bits(a.pos), a.state), (bits(b.pos), b.state), "shot {k}");
        }
        // The frames replayed from the start end where the outcome does.
        let mut pos: Vec<DVec2> = trace.start.iter().map(|d| d.pos).collect();
        for f in &trace.frames {
            for &(i, p, _) in &f.discs {
                pos[i] = p;
            }
        }
        for (i, d) in o.discs.iter().enumerate() {
            assert_eq!(bits(pos[i]), bits(d.pos), "shot {k} disc {i}");
        }
        assert_eq!(trace.frames.last().unwrap().step, o.steps);
        assert_eq!(trace.events.len(), o.events.len());
    }
}

/// Every disc's position after each step that has a frame in `trace`, replayed.
fn positions_by_step(trace: &Trace) -> BTreeMap<u64, Vec<DVec2>> {
    let mut pos: Vec<DVec2> = trace.start.iter().map(|d| d.pos).collect();
    let mut out = BTreeMap::new();
    for f in &trace.frames {
        for &(i, p, _) in &f.discs {
            pos[i] = p;
        }
        out.insert(f.step, pos.clone());
    }
    out
}

#[test]
fn sampling_every_step_and_every_k_steps_agree_on_shared_steps() {
    for (k, (board, physics, shot)) in sample_shots().iter().take(8).enumerate() {
        let fine = trace_shot(board, physics, shot, 1).unwrap();
        let coarse = trace_shot(board, physics, shot, 7).unwrap();
        assert_eq!(fine.outcome, coarse.outcome, "shot {k}");
        assert_eq!(fine.events, coarse.events, "shot {k}");
        assert_eq!(fine.frames.len() as u64, fine.outcome.steps);
        let all = positions_by_step(&fine);
        for (step, pos) in positions_by_step(&coarse) {
            assert!(step % 7 == 0 || step == coarse.outcome.steps);
            let at = &all[&step];
            for (i, p) in pos.iter().enumerate() {
                assert_eq!(bits(*p), bits(at[i]), "shot {k} step {step} disc {i}");
            }
        }
        // Paths are straight between events, so both give the same polyline corners.
        assert_eq!(
            fine.paths().iter().map(|(i, _)| *i).collect::<Vec<_>>(),
            coarse.moved()
        );
    }
}

#[test]
fn contact_points_sit_where_the_geometry_says() {
    let mut seen = BTreeMap::new();
    for (k, (board, physics, shot)) in sample_shots().iter().enumerate() {
        let trace = trace_shot(board, physics, shot, 50).unwrap();
        let r = physics.disc_radius;
        for e in &trace.events {
            let kind = match e.event.kind {
                EventKind::Disc { .. } => {
                    let b = e.pos_b.expect("a disc event has both centres");
                    let d = (b - e.pos_a).length();
                    assert!((d - 2.0 * r).abs() < 1e-9, "shot {k}: centres {d} apart");
                    assert!(((e.point - e.pos_a).length() - r).abs() < 1e-9);
                    assert!(((e.point - b).length() - r).abs() < 1e-9);
                    "disc"
                }
                EventKind::Peg { peg, .. } => {
                    let c = board.pegs[peg];
                    let d = (e.pos_a - c).length();
                    assert!((d - r - board.peg_radius).abs() < 1e-9, "shot {k}: {d}");
                    assert!(((e.point - c).length() - board.peg_radius).abs() < 1e-12);
                    assert!(((e.point - e.pos_a).length() - r).abs() < 1e-9);
                    "peg"
                }
                EventKind::Hole { a } => {
                    assert!(e.point.length() <= board.hole_radius, "shot {k}");
                    assert_eq!(bits(e.point), bits(trace.outcome.discs[a].pos));
                    "hole"
                }
                EventKind::Ditch { a } => {
                    let d = e.point.length();
                    assert!((d - board.surface_radius).abs() < 1e-9, "shot {k}: {d}");
                    assert_eq!(bits(e.point), bits(trace.outcome.discs[a].pos));
                    "ditch"
                }
            };
            *seen.entry(kind).or_insert(0) += 1;
        }
    }
    assert_eq!(seen.len(), 4, "every event kind checked: {seen:?}");
}

#[test]
fn a_cut_off_shot_keeps_the_trace_within_its_bound() {
    // The worst case: 30 discs all moving for the whole 10 s until the cut-off (dt 1 ms),
    // slowly on a nearly frictionless board, sampled every step.
    let board = Board::tournament();
    let physics = Physics {
        board_friction: 0.0001,
        max_time: 10.0,
        ..Physics::default()
    };
    let mut world = World::new(board.clone(), physics.clone()).unwrap();
    for i in -3..=3 {
        for j in -3..=3 {
            let p = DVec2::new(0.075 * f64::from(i), 0.075 * f64::from(j) + 0.02);
            let clear = board.pegs.iter().all(|&c| (p - c).length() > 0.03);
            if p.length() > 0.04 && p.length() < 0.27 && clear && world.discs().len() < 30 {
                let d = Disc::at_rest(0, p, physics.disc_radius, physics.disc_mass);
                let vel = DVec2::new(f64::from(j), -f64::from(i)).normalize_or_zero() * 0.01;
                world.add_disc(d.flicked(vel, 1.0)).unwrap();
            }
        }
    }
    assert_eq!(world.discs().len(), 30);
    let mut plain = world.clone();
    let t0 = std::time::Instant::now();
    let trace = trace_world(world, 1);
    let elapsed = t0.elapsed();
    assert!(trace.outcome.cut_off);
    assert_eq!(trace.outcome.steps, 10_000);
    let entries: usize = trace.frames.iter().map(|f| f.discs.len()).sum();
    let bound = trace.outcome.steps as usize * trace.start.len();
    assert!(entries <= bound, "{entries} > {bound}");
    assert_eq!(trace.frames.len() as u64, trace.outcome.steps);
    let bytes = entries * std::mem::size_of::<(usize, DVec2, DiscState)>();
    assert!(bytes <= 10_000_000, "{bytes} bytes");
    eprintln!(
        "30 discs moving until the 10 s cut-off, every step: {entries} entries ({} kB), {elapsed:?}",
        bytes / 1000
    );
    assert!(!plain.run());
    for (a, b) in plain.discs().iter().zip(&trace.outcome.discs) {
        assert_eq!(bits(a.pos), bits(b.pos));
    }
}

/// Parses an SVG and returns the document text (for roxmltree's borrow).
fn elements<'a>(
    doc: &'a roxmltree::Document,
    name: &str,
    class: &str,
) -> Vec<roxmltree::Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| n.has_tag_name(name))
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.split(' ').any(|w| w == class))
        })
        .collect()
}

fn attr(n: &roxmltree::Node, name: &str) -> f64 {
    n.attribute(name).unwrap().parse().unwrap()
}

#[test]
fn shot_pictures_hold_what_the_trace_says_to_scale() {
    let (board, physics, shots) = shots("example.json");
    for (k, shot) in shots.iter().enumerate() {
        let trace = trace_shot(&board, &physics, shot, 10).unwrap();
        let svg = shot_svg(&board, &trace, &format!("shot {k} <&> \"quoted\""));
        golden_svg(
            &format!("shot-{k}"),
            &svg,
            &format!("The picture of shot {k} of fixtures/example.json"),
        );
        let doc = roxmltree::Document::parse(&svg).expect("the SVG is XML");
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        assert!(
            doc.descendants()
                .any(|n| n.text() == Some(&format!("shot {k} <&> \"quoted\"")))
        );
        // The board, in millimetres.
        assert_eq!(elements(&doc, "circle", "peg").len(), 8);
        let hole = &elements(&doc, "circle", "hole")[0];
        assert!((attr(hole, "r") - board.hole_radius * 1000.0).abs() < 1e-4);
        for (class, radius) in [
            ("ten-line", board.ten_line_radius),
            ("fifteen-line", board.fifteen_line_radius),
            ("shooting-line", board.shooting_line_radius),
        ] {
            let c = &elements(&doc, "circle", class)[0];
            assert!((attr(c, "r") - radius * 1000.0).abs() < 1e-4);
            let style = c.attribute("style").unwrap();
            assert_eq!(
                style,
                format!("stroke-width:{:.4}", board.line_width * 1000.0)
            );
        }
        assert_eq!(elements(&doc, "line", "quadrant").len(), 4);
        let surface = &elements(&doc, "circle", "surface")[0];
        assert!((attr(surface, "r") - board.surface_radius * 1000.0).abs() < 1e-4);
        let peg = &elements(&doc, "circle", "peg")[0];
        assert!((attr(peg, "cx") - board.pegs[0].x * 1000.0).abs() < 1e-4);
        assert!((attr(peg, "cy") + board.pegs[0].y * 1000.0).abs() < 1e-4);
        // The discs, by team, where the outcome left them.
        for team in 0..2u8 {
            let on_board = trace
                .outcome
                .discs
                .iter()
                .filter(|d| d.team == team && d.on_board())
                .count();
            let drawn = elements(&doc, "circle", "disc")
                .into_iter()
                .filter(|n| {
                    n.attribute("class")
                        .unwrap()
                        .contains(&format!("team{team}"))
                })
                .count();
            assert_eq!(drawn, on_board, "shot {k} team {team}");
        }
        // One path per moved disc; a marker per contact and per departure.
        assert_eq!(
            elements(&doc, "polyline", "path").len(),
            trace.moved().len(),
            "shot {k}"
        );
        let count =
            |f: fn(&EventKind) -> bool| trace.outcome.events.iter().filter(|e| f(&e.kind)).count();
        let contacts = count(|k| matches!(k, EventKind::Disc { .. } | EventKind::Peg { .. }));
        let exits = count(|k| matches!(k, EventKind::Hole { .. } | EventKind::Ditch { .. }));
        assert_eq!(
            elements(&doc, "circle", "contact").len(),
            contacts,
            "shot {k}"
        );
        assert_eq!(elements(&doc, "g", "exit").len(), exits, "shot {k}");
        // A path starts at its disc's start and ends where the disc ended.
        for (id, points) in trace.paths() {
            assert_eq!(bits(points[0].1), bits(trace.start[id].pos));
            assert_eq!(
                bits(points.last().unwrap().1),
                bits(trace.outcome.discs[id].pos)
            );
        }
    }
    // Between them the fixtures hold a hole, a ditch, disc and peg contacts.
    assert!(
        shots
            .iter()
            .map(|s| trace_shot(&board, &physics, s, 10).unwrap().outcome)
            .any(|o| o.discs.iter().any(|d| d.state == DiscState::Ditch))
    );
}

/// The `style` fill of a dot: `fill:#rrggbb;...`.
fn fill_of(node: &roxmltree::Node) -> String {
    let style = node.attribute("style").unwrap();
    style
        .split(';')
        .find_map(|p| p.strip_prefix("fill:"))
        .unwrap()
        .to_string()
}

#[test]
fn cloud_pictures_show_every_position_and_every_class_of_the_summary() {
    let text = read("montecarlo/golden-opening-summary.json");
    let summary = parse_summary(&text).unwrap();
    let positions = summary.shooter_positions.clone().unwrap();
    assert_eq!(positions.first.len(), 400);
    let board = Board::tournament();
    let physics = Physics::default();
    let svg = cloud_svg(
        &board,
        &physics,
        &summary,
        None,
        "opening",
        CloudView::Board,
    );
    golden_svg(
        "cloud-opening",
        &svg,
        "The cloud of fixtures/montecarlo/golden-opening-summary.json",
    );
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(elements(&doc, "circle", "sample").len(), 400);
    let rows: Vec<&str> = elements(&doc, "g", "outcome-row")
        .iter()
        .map(|n| n.attribute("data-class").unwrap())
        .collect();
    assert_eq!(
        rows,
        [
            "twenty", "fifteen", "ten", "five", "out", "ditch", "removed"
        ]
    );
    // Each dot carries its sample's class, and as many dots of a class as the summary
    // lists positions of it.
    for class in ShotClass::ALL {
        let dots = elements(&doc, "circle", &format!("sample-{}", class.name())).len();
        let listed = positions.class.iter().filter(|&&c| c == class).count();
        assert_eq!(dots, listed, "{}", class.name());
    }
    assert_eq!(elements(&doc, "circle", "peg").len(), 8);
}

/// Symptom: with a rule set, `removed` never appeared among the dots (coloured by where
/// the disc lay, not by the class the table counts) and ditch dots were drawn in the
/// ditch's own near-black (the board's `.ditch` style won over the dot's fill).
#[test]
fn a_ruled_cloud_colours_every_dot_by_its_class_and_every_class_shows() {
    let text = read("montecarlo/golden-takeout-ruled-summary.json");
    let summary = parse_summary(&text).unwrap();
    let positions = summary.shooter_positions.clone().unwrap();
    let (board, physics) = (Board::tournament(), Physics::default());
    let svg = cloud_svg(&board, &physics, &summary, None, "ruled", CloudView::Board);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let swatches: BTreeMap<String, String> = elements(&doc, "g", "outcome-row")
        .iter()
        .map(|row| {
            let swatch = row
                .descendants()
                .find(|n| n.attribute("class") == Some("swatch"))
                .unwrap();
            (
                row.attribute("data-class").unwrap().to_string(),
                swatch.attribute("fill").unwrap().to_string(),
            )
        })
        .collect();
    let mut seen = BTreeMap::new();
    for dot in elements(&doc, "circle", "sample") {
        let class = dot.attribute("data-class").unwrap().to_string();
        // The dot's colour is its class's swatch in the table (the legend).
        assert_eq!(fill_of(&dot), swatches[&class], "{class}");
        *seen.entry(class).or_insert(0usize) += 1;
    }
    for class in ShotClass::ALL {
        let listed = positions.class.iter().filter(|&&c| c == class).count();
        assert_eq!(
            seen.get(class.name()).copied().unwrap_or(0),
            listed,
            "{}",
            class.name()
        );
    }
    assert!(seen["removed"] > 0 && seen["ditch"] > 0, "{seen:?}");
    // No class is drawn in a colour of the board it may lie on (wood, ditch, hole).
    for class in ShotClass::ALL {
        let c = class_colour(class).to_lowercase();
        for board_colour in ["#2e2018", "#ecd3a5", "#120b06", "#5b3a22", "#111111"] {
            assert_ne!(c, board_colour, "{}", class.name());
        }
    }
    // Dots are filled by a style attribute, which the board's stylesheet cannot override.
    assert!(
        elements(&doc, "circle", "sample")
            .iter()
            .all(|d| d.attribute("fill").is_none())
    );
}

#[test]
fn a_zoomed_cloud_magnifies_to_the_dots_and_keeps_the_board() {
    let text = read("montecarlo/golden-opening-summary.json");
    let summary = parse_summary(&text).unwrap();
    let (board, physics) = (Board::tournament(), Physics::default());
    let svg = cloud_svg(&board, &physics, &summary, None, "zoom", CloudView::Zoom);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let view = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("view"))
        .unwrap();
    assert_eq!(view.attribute("clip-path"), Some("url(#board-panel)"));
    let transform = view
        .first_element_child()
        .unwrap()
        .attribute("transform")
        .unwrap();
    let scale: f64 = transform
        .strip_prefix("scale(")
        .and_then(|t| t.split(')').next())
        .unwrap()
        .parse()
        .unwrap();
    // The opening study's discs end within a few cm of the hole: magnified, but at most 8x.
    assert!(scale > 2.0 && scale <= 8.0 + 1e-9, "{transform}");
    assert_eq!(elements(&doc, "circle", "sample").len(), 400);
    assert_eq!(elements(&doc, "circle", "hole").len(), 1);
    let whole = cloud_svg(&board, &physics, &summary, None, "zoom", CloudView::Board);
    assert!(whole.contains("scale(1.0000)"));
}

#[test]
fn heat_maps_have_a_cell_per_grid_point_and_mark_the_nulls() {
    let plan = parse_plan(&read("render/suggest-grid.json")).unwrap();
    let grid = plan.grid.unwrap();
    let (na, ns) = (grid.aim.len(), grid.speed.len());
    assert_eq!((na, ns), (9, 7));
    let svg = heatmap_svg(&grid, None, "grid");
    golden_svg(
        "heatmap-grid",
        &svg,
        "The heat map of fixtures/render/suggest-grid.json",
    );
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let cells = elements(&doc, "rect", "cell");
    assert_eq!(cells.len(), na * ns);
    let nulls = grid.value.iter().flatten().filter(|v| v.is_none()).count();
    assert_eq!(nulls, 3);
    assert_eq!(elements(&doc, "rect", "null").len(), nulls + 1); // + the key
    // Cells tile the plot: aim left to right, speed bottom to top.
    let x: Vec<f64> = cells[..na].iter().map(|c| attr(c, "x")).collect();
    assert!(x.windows(2).all(|w| w[0] < w[1]));
    let y: Vec<f64> = cells.iter().step_by(na).map(|c| attr(c, "y")).collect();
    assert!(y.windows(2).all(|w| w[0] > w[1]));
    assert_eq!(elements(&doc, "g", "best-cell").len(), 1);
    // The best cell (aim 0, speed 0.8) is inside the grid: no warning.
    assert_eq!(elements(&doc, "g", "edge-warning").len(), 0);
}

/// The golden plan's sweep has its best cell on the edge of the default aim range (aim
/// -0.5 rad, a straight flick that cuts the disc thin): the picture says so, and marks the
/// plan's best straight flick (aim -0.49 rad, a step inside).
#[test]
fn heat_maps_flag_an_optimum_on_the_edge_of_the_searched_range() {
    let plan = parse_plan(&read("suggest/golden-takeout-plan.json")).unwrap();
    let grid = plan.grid.as_ref().unwrap();
    let straight = plan
        .top
        .iter()
        .find(|s| s.aim_at == crokinole::plan::AimAt::Straight);
    let svg = heatmap_svg(grid, straight, "takeout");
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let warning = elements(&doc, "g", "edge-warning");
    assert_eq!(warning.len(), 1);
    let text: String = warning[0].descendants().filter_map(|n| n.text()).collect();
    assert!(text.contains("edge of the searched aim range"), "{text}");
    assert!(text.contains("search.aim"), "{text}");
    assert_eq!(elements(&doc, "g", "plan-best").len(), 1);
    // Every cell with a value shows its 95 % half-width on hover.
    let cells = elements(&doc, "rect", "cell");
    let with_spread = cells
        .iter()
        .filter(|c| {
            c.children()
                .filter_map(|t| t.text())
                .any(|t| t.contains("\u{b1}") && t.contains("95 %"))
        })
        .count();
    let values = grid.value.iter().flatten().filter(|v| v.is_some()).count();
    assert_eq!(with_spread, values);
    assert_eq!(grid.half_width95.len(), grid.value.len());
    // Move the optimum inside the grid: no warning.
    let mut inside = straight.unwrap().clone();
    inside.flick.aim = 0.05;
    inside.flick.speed = 1.5;
    let mut grid = grid.clone();
    for row in &mut grid.value {
        for v in row.iter_mut() {
            *v = Some(0.0);
        }
    }
    grid.value[4][5] = Some(1.0);
    let svg = heatmap_svg(&grid, Some(&inside), "inside");
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(elements(&doc, "g", "edge-warning").len(), 0);
}

#[test]
fn bad_planner_grids_are_refused_with_the_field() {
    let good = read("render/suggest-grid.json");
    let cases = [
        (
            good.replace("[0.6, 0.7, 0.8,", "[0.6, 0.8, 0.7,"),
            "grid.speed[2]",
        ),
        (good.replace("0.027, 0.196, ", "0.027, "), "grid.value[0]"),
        (good.replace("\"objective\": \"score\",", ""), "objective"),
        (
            good.replace("\"aim\": [", "\"aim\": [\"x\", "),
            "grid.aim[0]",
        ),
        ("{\"grid\": {}".to_string(), ""),
    ];
    for (text, field) in cases {
        let err = parse_plan(&text).unwrap_err();
        assert!(err.to_string().contains(field), "{field}: {err}");
    }
    let err = parse_summary("{\"samples\": 1, \"seed\": 0, \"input_hash\": \"x\"}").unwrap_err();
    assert!(err.to_string().contains("shooter"), "{err}");
}

mod cli;
