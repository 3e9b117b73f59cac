//! `crokinole render` and `simulate --trace` at the command line: the trace members, the
//! pictures written (to scale, zones labelled, discs where they stand) and bad input
//! refused without writing.

use super::*;
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
