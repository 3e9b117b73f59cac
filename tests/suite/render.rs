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

// --- The command line ---

use binary::run;

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crokinole-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Removes every `trace` member of the outcomes.
fn strip_traces(mut v: serde_json::Value) -> serde_json::Value {
    for o in v["outcomes"].as_array_mut().unwrap() {
        assert!(o.as_object_mut().unwrap().remove("trace").is_some());
    }
    v
}

#[test]
fn simulate_trace_adds_only_the_trace_members() {
    let file = fixture("example.json");
    let file = file.to_str().unwrap();
    let plain = run(&["simulate", file], None).json();
    let traced = run(&["simulate", file, "--trace"], None).json();
    let t = &traced["outcomes"][1]["trace"];
    assert_eq!(t["every"], 10);
    assert_eq!(t["events"].as_array().unwrap().len(), 2);
    assert_eq!(t["paths"].as_array().unwrap().len(), 2);
    assert_eq!(strip_traces(traced), plain);
    let traced = run(&["simulate", file, "--trace", "3"], None).json();
    assert_eq!(traced["outcomes"][0]["trace"]["every"], 3);
    // With --rules the trace is the last member, after `rules`.
    let ruled = run(&["simulate", file, "--rules"], None).json();
    let out = run(
        &["simulate", file, "--rules", "--trace", "5", "--compact"],
        None,
    );
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    assert!(text.contains("},\"trace\":{\"every\":5"));
    assert_eq!(strip_traces(out.json()), ruled);
    run(&["simulate", file, "--trace", "0"], None).assert_refused("--trace 0", &["0"]);
}

#[test]
fn render_writes_svg_and_refuses_bad_input_without_writing() {
    let example = fixture("example.json");
    let out = tmp("shot.svg");
    let r = run(
        &[
            "render",
            "shot",
            example.to_str().unwrap(),
            "--shot",
            "1",
            "-o",
            out.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let svg = std::fs::read_to_string(&out).unwrap();
    roxmltree::Document::parse(&svg).unwrap();
    // The same bytes on standard output.
    let r = run(
        &["render", "shot", example.to_str().unwrap(), "--shot", "1"],
        None,
    );
    assert_eq!(String::from_utf8(r.stdout).unwrap(), svg);

    let missing = tmp("never.svg");
    let r = run(
        &[
            "render",
            "shot",
            example.to_str().unwrap(),
            "--shot",
            "9",
            "-o",
            missing.to_str().unwrap(),
        ],
        None,
    );
    r.assert_refused("shot 9", &["shot", "has 4 shots"]);
    assert!(!missing.exists());

    let bad = tmp("bad-grid.json");
    std::fs::write(
        &bad,
        read("render/suggest-grid.json").replace("0.027, 0.196, ", "0.027, "),
    )
    .unwrap();
    let r = run(
        &[
            "render",
            "suggest",
            bad.to_str().unwrap(),
            "-o",
            missing.to_str().unwrap(),
        ],
        None,
    );
    r.assert_refused("bad grid", &["grid.value[0]", "bad-grid.json"]);
    assert!(!missing.exists());

    let grid = fixture("render/suggest-grid.json");
    let r = run(&["render", "suggest", grid.to_str().unwrap()], None);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    roxmltree::Document::parse(std::str::from_utf8(&r.stdout).unwrap()).unwrap();

    let summary = fixture("montecarlo/golden-opening-summary.json");
    let study = fixture("montecarlo/opening.json");
    let r = run(
        &[
            "render",
            "montecarlo",
            summary.to_str().unwrap(),
            "--study",
            study.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let svg = String::from_utf8(r.stdout).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(elements(&doc, "circle", "sample").len(), 400);
    let r = run(&["render", "montecarlo", study.to_str().unwrap()], None);
    r.assert_refused("a study is not a summary", &["opening.json"]);

    // A summary printed without `--positions` has no cloud to draw: refused, saying how.
    let r = run(
        &["montecarlo", study.to_str().unwrap(), "--samples", "20"],
        None,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let bare = binary::scratch("render-bare-summary").join("summary.json");
    std::fs::write(&bare, &r.stdout).unwrap();
    let r = run(&["render", "montecarlo", bare.to_str().unwrap()], None);
    r.assert_refused(
        "a summary without positions",
        &["shooter_positions", "--positions", "summary.json"],
    );
}

/// The discs of a position picture: `(id label, centre in mm, radius in mm, tooltip)`, in
/// document order.
fn drawn_discs(doc: &roxmltree::Document) -> Vec<(String, (f64, f64), f64, String)> {
    let labels: Vec<_> = elements(doc, "text", "disc-label");
    let circles = elements(doc, "circle", "disc");
    assert_eq!(labels.len(), circles.len(), "one label per disc");
    circles
        .iter()
        .zip(&labels)
        .map(|(c, l)| {
            let centre = (attr(c, "cx"), attr(c, "cy"));
            // The label sits on its disc.
            assert_eq!((attr(l, "x"), attr(l, "y")), centre);
            let tooltip = c
                .children()
                .find(|n| n.has_tag_name("title"))
                .and_then(|t| t.text())
                .unwrap_or("")
                .to_string();
            (l.text().unwrap().to_string(), centre, attr(c, "r"), tooltip)
        })
        .collect()
}

/// The zone labels of a position picture: zone -> place (mm).
fn zone_labels(doc: &roxmltree::Document) -> BTreeMap<String, (f64, f64)> {
    elements(doc, "text", "zone-label")
        .iter()
        .map(|n| {
            let text = n.text().unwrap().to_string();
            assert_eq!(n.attribute("data-zone"), Some(text.as_str()));
            (text, (attr(n, "x"), attr(n, "y")))
        })
        .collect()
}

#[test]
fn position_pictures_label_the_zones_and_draw_the_discs_where_they_stand() {
    use crokinole::Placed;
    use crokinole::render::position_svg;
    let board = Board::tournament();
    let physics = Physics::default();
    let mm = |m: f64| (m * 1e4).round() / 10.0;
    let r_mm = physics.disc_radius * 1000.0;
    // A 15, a 10 right where the 10 label would go (on +y), a 5 and one on the shooting line.
    let mid = |a: f64, b: f64| 0.5 * (a + b);
    let discs = [
        Placed {
            team: 0,
            pos: DVec2::new(0.04, -0.03),
        },
        Placed {
            team: 1,
            pos: DVec2::new(0.0, mid(board.fifteen_line_radius, board.ten_line_radius)),
        },
        Placed {
            team: 1,
            pos: DVec2::new(-0.2, -0.15),
        },
        Placed {
            team: 0,
            pos: DVec2::new(0.3048, 0.0),
        },
    ];
    let title = "position <&> \"quoted\"";
    let svg = position_svg(&board, &physics, &discs, title);
    assert_eq!(svg, position_svg(&board, &physics, &discs, title));
    let doc = roxmltree::Document::parse(&svg).expect("the SVG is XML");
    assert!(doc.descendants().any(|n| n.text() == Some(title)));

    // The board to scale: the shooting line and the ditch are drawn.
    let line = &elements(&doc, "circle", "shooting-line")[0];
    assert_eq!(attr(line, "r"), mm(board.shooting_line_radius));
    assert_eq!(elements(&doc, "circle", "ditch").len(), 1);
    let names: Vec<&str> = elements(&doc, "text", "board-label")
        .iter()
        .filter_map(|n| n.text())
        .collect();
    for name in [
        "shooting line",
        "ditch",
        "seat 0",
        "seat 1",
        "seat 2",
        "seat 3",
    ] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }

    // Each zone labelled once, inside its zone, and never under a disc.
    let labels = zone_labels(&doc);
    let zones = [
        ("20", 0.0, board.hole_radius),
        ("15", board.hole_radius, board.fifteen_line_radius),
        ("10", board.fifteen_line_radius, board.ten_line_radius),
        ("5", board.ten_line_radius, board.shooting_line_radius),
    ];
    assert_eq!(labels.len(), zones.len(), "{labels:?}");
    for (zone, inner, outer) in zones {
        let (x, y) = labels[zone];
        let d = x.hypot(y);
        assert!(d >= mm(inner) && d < mm(outer), "{zone} at {d} mm");
        for p in &discs {
            let gap = (x - mm(p.pos.x)).hypot(y + mm(p.pos.y));
            assert!(gap > r_mm, "the {zone} label under the disc at {:?}", p.pos);
        }
    }

    // Every disc where it stands, by team, with its id and its zone.
    let drawn = drawn_discs(&doc);
    assert_eq!(drawn.len(), discs.len());
    let expect_zone = ["15 zone", "10 zone", "5 zone", "out (0)"];
    for (id, ((label, centre, r, tooltip), p)) in drawn.iter().zip(&discs).enumerate() {
        assert_eq!(label, &id.to_string());
        assert_eq!(*centre, (mm(p.pos.x), mm(-p.pos.y)));
        assert_eq!(*r, (r_mm * 1e4).round() / 1e4);
        assert!(
            tooltip.starts_with(&format!("disc {id}, team {}, {}", p.team, expect_zone[id])),
            "{tooltip}"
        );
    }
    let teams: Vec<String> = elements(&doc, "circle", "disc")
        .iter()
        .map(|c| c.attribute("class").unwrap().to_string())
        .collect();
    assert_eq!(
        teams,
        ["disc team0", "disc team1", "disc team1", "disc team0"]
    );
    // The zone points the rules give: 15 for team 0; 10 + 5 for team 1.
    assert_eq!(
        crokinole::rules::board_score(&board, physics.disc_radius, &discs),
        [15, 15]
    );
    assert!(svg.contains("zone points: team 0 15, team 1 15"));
    assert_eq!(elements(&doc, "text", "disc-row").len(), discs.len());

    // The empty board: the labels, no disc.
    let empty = position_svg(&board, &physics, &[], "empty");
    let doc = roxmltree::Document::parse(&empty).unwrap();
    assert!(drawn_discs(&doc).is_empty());
    assert_eq!(zone_labels(&doc).len(), 4);
    assert!(empty.contains("no discs"));
}

#[test]
fn render_board_draws_a_files_position_and_refuses_bad_input() {
    let svg_of = |args: &[&str]| {
        let r = run(args, None);
        assert_eq!(r.code, Some(0), "{args:?}: {}", r.stderr);
        assert!(r.stderr.is_empty(), "{}", r.stderr);
        String::from_utf8(r.stdout).unwrap()
    };
    let centres = |svg: &str| -> Vec<(f64, f64)> {
        let doc = roxmltree::Document::parse(svg).unwrap();
        drawn_discs(&doc).into_iter().map(|d| d.1).collect()
    };
    let mm = |p: DVec2| ((p.x * 1e4).round() / 10.0, (-p.y * 1e4).round() / 10.0);

    // No file: the empty tournament board, its zones labelled.
    let empty = svg_of(&["render", "board"]);
    let doc = roxmltree::Document::parse(&empty).unwrap();
    assert_eq!(zone_labels(&doc).len(), 4);
    assert!(centres(&empty).is_empty());
    assert!(empty.contains(">The tournament board</text>"));

    // A suggest file: its position, the seat to shoot in the title.
    let guarded = fixture("suggest/guarded.json");
    let svg = svg_of(&["render", "board", guarded.to_str().unwrap()]);
    let request = crokinole::io::parse_suggest_file(&read("suggest/guarded.json")).unwrap();
    let expect: Vec<_> = request.situation.discs.iter().map(|d| mm(d.pos)).collect();
    assert_eq!(centres(&svg), expect);
    assert!(svg.contains(">Board: guarded.json, seat 2 to shoot</text>"));

    // A study file, from standard input.
    let r = run(
        &["render", "board", "-"],
        Some(&read("montecarlo/takeout.json")),
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let svg = String::from_utf8(r.stdout).unwrap();
    let study = crokinole::io::parse_study_file(&read("montecarlo/takeout.json")).unwrap();
    let expect: Vec<_> = study
        .spec()
        .situation
        .discs
        .iter()
        .map(|d| mm(d.pos))
        .collect();
    assert_eq!(centres(&svg), expect);

    // A shot file's shot K: its discs at rest, not the flicked disc; -o writes the same.
    let example = fixture("example.json");
    let out = tmp("board.svg");
    let svg = svg_of(&["render", "board", example.to_str().unwrap(), "--shot", "3"]);
    let (_, _, shots) = shots("example.json");
    let expect: Vec<_> = shots[3].discs.iter().map(|d| mm(d.pos)).collect();
    assert_eq!(expect.len(), 3);
    assert_eq!(centres(&svg), expect);
    assert!(svg.contains(">Board: example.json, shot 3</text>"));
    svg_of(&[
        "render",
        "board",
        example.to_str().unwrap(),
        "--shot",
        "3",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), svg);

    // Bad input: exit 2, the file, the field and the problem named, nothing written.
    let missing = tmp("never-board.svg");
    let o = missing.to_str().unwrap();
    run(
        &[
            "render",
            "board",
            example.to_str().unwrap(),
            "--shot",
            "9",
            "-o",
            o,
        ],
        None,
    )
    .assert_refused("--shot 9", &["field `shot`", "no shot 9", "has 4 shots"]);
    let summary = fixture("montecarlo/golden-takeout-summary.json");
    run(
        &["render", "board", summary.to_str().unwrap(), "-o", o],
        None,
    )
    .assert_refused(
        "a summary",
        &[
            "looks like a Monte Carlo summary",
            "golden-takeout-summary.json",
        ],
    );
    run(
        &[
            "render",
            "board",
            guarded.to_str().unwrap(),
            "--shot",
            "1",
            "-o",
            o,
        ],
        None,
    )
    .assert_refused(
        "--shot with a suggest file",
        &["`--shot K`", "guarded.json"],
    );
    run(&["render", "board", "--shot", "1", "-o", o], None)
        .assert_refused("--shot without a file", &["`--shot K`"]);
    let off = r#"{"shots": [{"discs": [{"team": 0, "pos": [0.5, 0.0]}],
        "shooter": {"team": 0, "pos": [0.0, -0.3048], "vel": [0.0, 1.0]}}]}"#;
    run(&["render", "board", "-", "-o", o], Some(off)).assert_refused(
        "a disc off the board",
        &["shots[0].discs[0].pos", "off the playing surface"],
    );
    assert!(!missing.exists());
}
