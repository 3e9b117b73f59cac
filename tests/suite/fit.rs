//! `crokinole fit` (docs/tracks.md): tracks made by the engine with known coefficients are
//! fitted back within their reported uncertainty, over repeated noise draws; a coefficient
//! the shots cannot inform is reported as such; a missing disc, an impossible track and a
//! wrong board are refused naming the shot and the field; the command runs end to end.

use crate::binary;
use crokinole::fit::model::{all_paths, position_at, trace_of};
use crokinole::fit::{
    Coefficient, Estimate, Fit, FitConfig, Launch, Observation, Track, TrackedShot, Tracks, fit,
    fit_until,
};
use crokinole::io::parse_tracks_file;
use crokinole::montecarlo::noise::{Draws, Param};
use crokinole::{Board, EventKind, InputError, Physics, Placed};
use glam::DVec2;
use rayon::prelude::*;
use std::fmt::Write as _;

/// The coefficients the synthetic tracks are made with (none at its default).
fn truth() -> Physics {
    Physics {
        board_friction: 0.15,
        disc_restitution: 0.75,
        disc_friction: 0.3,
        peg_restitution: 0.5,
        peg_friction: 0.4,
        ..Physics::default()
    }
}

/// A shot to track: the discs at rest, the shooter's team and start, its launch.
struct Setup {
    discs: Vec<DVec2>,
    start: DVec2,
    vel: DVec2,
    spin: f64,
}

fn setup(discs: &[[f64; 2]], start: [f64; 2], vel: [f64; 2]) -> Setup {
    Setup {
        discs: discs.iter().map(|&p| DVec2::from(p)).collect(),
        start: DVec2::from(start),
        vel: DVec2::from(vel),
        spin: 0.0,
    }
}

/// Disc-disc hits (head-on and oblique), peg hits and a lone slide.
fn setups() -> Vec<Setup> {
    vec![
        setup(&[[0.0, -0.12]], [0.0, -0.3048], [0.0, 1.0]),
        setup(&[[-0.015, -0.06]], [0.0, -0.3048], [0.0, 1.1]),
        setup(&[], [0.03, -0.3048], [0.0, 0.9]),
        setup(&[[-0.06, 0.05]], [0.09, -0.28], [0.02, 0.95]),
        setup(&[], [-0.067, -0.3048], [0.0, 0.8]),
    ]
}

/// The tracks of `setups` simulated with `physics`: every disc that moves, sampled at
/// 60, 120 or 240 frames a second (by shot) from the first frame after the launch until
/// a tenth of a second after everything rests (or until it leaves the surface), with
/// Gaussian noise of 1 or 2 mm (by shot) from `seed`. The file's physics is the default.
fn synthetic(setups: &[Setup], physics: &Physics, seed: u64) -> Tracks {
    synthetic_at(
        setups,
        physics,
        seed,
        &[60.0, 120.0, 240.0],
        &[0.001, 0.002],
    )
}

/// [`synthetic`] with the frame rates and noises cycled over the shots.
fn synthetic_at(
    setups: &[Setup],
    physics: &Physics,
    seed: u64,
    rates: &[f64],
    noises: &[f64],
) -> Tracks {
    let board = Board::tournament();
    let mut draws = Draws::new(seed, 0, Param::Offset);
    let shots = setups
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let fps = rates[k % rates.len()];
            let sigma = noises[k % noises.len()];
            let mut shot = TrackedShot {
                discs: s.discs.iter().map(|&pos| Placed { team: 1, pos }).collect(),
                shooter: Placed {
                    team: 0,
                    pos: s.start,
                },
                tracks: vec![],
            };
            // A long last time so the whole shot is traced.
            shot.tracks.push(Track {
                disc: s.discs.len(),
                sigma,
                points: vec![Observation {
                    t: physics.max_time,
                    pos: DVec2::ZERO,
                }],
            });
            let launch = Launch {
                vel: s.vel,
                spin: s.spin,
            };
            let trace = trace_of(&board, physics, &shot, launch).unwrap();
            let paths = all_paths(&trace);
            let end = trace.outcome.time + 0.1;
            let moved = trace.moved();
            shot.tracks.clear();
            for id in moved {
                let gone = trace
                    .outcome
                    .events
                    .iter()
                    .find(|e| matches!(e.kind, EventKind::Ditch { a } | EventKind::Hole { a } if a == id))
                    .map_or(f64::INFINITY, |e| e.t);
                let mut points = Vec::new();
                let mut i = 1;
                loop {
                    let t = i as f64 / fps;
                    if t > end || t >= gone {
                        break;
                    }
                    let p = position_at(&paths[id], t);
                    let noise = DVec2::new(draws.gaussian(), draws.gaussian()) * sigma;
                    points.push(Observation { t, pos: p + noise });
                    i += 1;
                }
                shot.tracks.push(Track {
                    disc: id,
                    sigma,
                    points,
                });
            }
            shot
        })
        .collect();
    Tracks {
        board,
        physics: Physics::default(),
        shots,
    }
}

/// The estimate of `c` in `fit`.
fn estimate(fit: &Fit, c: Coefficient) -> &Estimate {
    &fit.coefficients
        .iter()
        .find(|e| e.coefficient == c)
        .expect("asked for")
        .estimate
}

/// The coefficients the five setups inform (disc-disc and disc-peg impacts, the slides).
const INFORMED: [Coefficient; 3] = [
    Coefficient::BoardFriction,
    Coefficient::DiscRestitution,
    Coefficient::PegRestitution,
];

#[test]
fn fitted_coefficients_cover_the_truth_over_noise_draws() {
    // 20 noise draws of the same five shots (60-240 fps, 1-2 mm): each fit reports every
    // informed coefficient with an uncertainty, and the truth lies within two of them in
    // at least 17 draws of 20 for each (95 % expected; 17 of 20 fails with odds about
    // 1.6 % if the uncertainties are right).
    let config = FitConfig {
        coefficients: INFORMED.to_vec(),
        ..FitConfig::default()
    };
    let truth = truth();
    let fits: Vec<Fit> = (0..20u64)
        .into_par_iter()
        .map(|seed| fit(&synthetic(&setups(), &truth, seed), &config).unwrap())
        .collect();
    let mut report = String::new();
    for c in INFORMED {
        let mut inside = 0;
        for (seed, f) in fits.iter().enumerate() {
            let Estimate::Fitted { value, sigma } = *estimate(f, c) else {
                panic!(
                    "draw {seed}: {} not identified: {:?}",
                    c.name(),
                    estimate(f, c)
                );
            };
            let z = (value - c.get(&truth)) / sigma;
            if z.abs() <= 2.0 {
                inside += 1;
            }
            let _ = writeln!(
                report,
                "{} draw {seed}: {value} +/- {sigma} (z {z:.2})",
                c.name()
            );
        }
        assert!(
            inside >= 17,
            "{}: truth within 2 sigma in {inside} of 20\n{report}",
            c.name()
        );
    }
    eprintln!("{report}");
    for f in &fits {
        assert!(f.converged, "iterations {}, chi2 {}", f.iterations, f.chi2);
        assert!(
            (0.7..1.4).contains(&f.reduced_chi2()),
            "{}",
            f.reduced_chi2()
        );
    }
}

#[test]
fn a_coefficient_the_shots_cannot_inform_is_reported_not_identified() {
    // No shot touches a peg: both peg coefficients are named as not identified, with the
    // reason, and keep the file's values; the others are fitted.
    let setups: Vec<Setup> = setups()
        .into_iter()
        .enumerate()
        .filter(|(k, _)| [0, 4].contains(k))
        .map(|(_, s)| s)
        .collect();
    let tracks = synthetic(&setups, &truth(), 7);
    let f = fit(&tracks, &FitConfig::default()).unwrap();
    assert_eq!(f.contacts.1, 0);
    for c in [Coefficient::PegRestitution, Coefficient::PegFriction] {
        match estimate(&f, c) {
            Estimate::NotIdentified { reason } => {
                assert!(reason.contains("no disc touches a peg"), "{reason}")
            }
            e => panic!("{}: {e:?}", c.name()),
        }
        assert_eq!(c.get(&f.physics), c.get(&Physics::default()));
    }
    assert!(matches!(
        estimate(&f, Coefficient::BoardFriction),
        Estimate::Fitted { .. }
    ));
    // The report says so in words, never with a number for it.
    let text = crokinole::io::fit_report_text(&f, "");
    let line = text
        .lines()
        .find(|l| l.starts_with("peg_restitution"))
        .unwrap();
    assert!(
        line.contains("not identified by these shots: no disc touches a peg"),
        "{line}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&crokinole::io::fit_report_json(&f, Default::default())).unwrap();
    let peg = &json["coefficients"][3];
    assert_eq!(peg["name"], "peg_restitution");
    assert_eq!(peg["identified"], false);
    assert!(peg.get("value").is_none() && peg.get("sigma").is_none());
}

#[test]
fn held_out_shots_are_predicted_and_the_fit_does_not_depend_on_threads() {
    let tracks = synthetic(&setups(), &truth(), 3);
    let config = FitConfig {
        coefficients: INFORMED.to_vec(),
        holdout: 0.4,
        seed: 5,
        ..FitConfig::default()
    };
    let on = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| fit(&tracks, &config).unwrap())
    };
    let (one, two) = (on(1), on(2));
    assert_eq!(one, two);
    let h = one.holdout.as_ref().unwrap();
    assert_eq!(h.shots.len(), 2);
    assert_eq!(
        one.shots
            .iter()
            .filter(|s| s.held_out)
            .map(|s| s.shot)
            .collect::<Vec<_>>(),
        h.shots
    );
    // Observed with 1-2 mm of noise per coordinate: the distance's median is about 1.2-2.4 mm.
    assert!(h.median > 0.0005 && h.median < 0.003, "{h:?}");
    assert!(h.p90 >= h.median && h.p90 < 0.006, "{h:?}");
    assert_eq!(
        h.points,
        h.shots
            .iter()
            .map(|&k| tracks.shots[k].observations())
            .sum::<usize>()
    );
    // Another seed holds out other shots.
    let other = fit(
        &tracks,
        &FitConfig {
            seed: 6,
            ..config.clone()
        },
    )
    .unwrap();
    assert_ne!(other.holdout.unwrap().shots, h.shots);
}

/// A fit stopped by its [`Cancel`](crokinole::cancel::Cancel) (Ctrl-C in Python) gives
/// nothing, whether stopped before it starts or while it runs (the held-out shots' fits
/// too); one never stopped is [`fit`]'s.
#[test]
fn a_stopped_fit_gives_nothing_and_an_unstopped_one_is_the_fit() {
    use crokinole::cancel::Cancel;
    let tracks = synthetic(&setups(), &truth(), 3);
    let config = FitConfig {
        coefficients: INFORMED.to_vec(),
        holdout: 0.4,
        ..FitConfig::default()
    };
    let whole = fit(&tracks, &config).unwrap();
    assert_eq!(
        fit_until(&tracks, &config, &Cancel::never()).unwrap(),
        Some(whole)
    );
    let stopped = Cancel::new();
    stopped.cancel();
    assert_eq!(fit_until(&tracks, &config, &stopped).unwrap(), None);
    // Stopped while it runs, from another thread: 60 shots take a second or more to fit,
    // the stop comes after 20 ms.
    let mut many = tracks.clone();
    many.shots = tracks.shots.iter().cycle().take(60).cloned().collect();
    let running = Cancel::new();
    let fitted = std::thread::scope(|scope| {
        let fitting = scope.spawn(|| fit_until(&many, &config, &running));
        std::thread::sleep(std::time::Duration::from_millis(20));
        running.cancel();
        fitting.join().unwrap()
    });
    assert_eq!(fitted.unwrap(), None);
}

/// A tracks file with one shot around `shot` (a JSON object's members after `discs`).
fn file_with(shot: &str) -> String {
    format!(
        r#"{{"shots": [
  {{"discs": [], "shooter": {{"team": 0, "pos": [0, -0.3048]}}, "sigma": 0.001,
    "tracks": [{{"disc": 0, "points": [{{"t": 0.1, "pos": [0, -0.22]}}]}}]}},
  {{"discs": [{{"team": 1, "pos": [0, -0.1]}}], "shooter": {{"team": 0, "pos": [0, -0.3048]}}{shot}}}
]}}"#
    )
}

fn refused(text: &str) -> InputError {
    parse_tracks_file(text).unwrap_err()
}

/// Checks that `e` names shot 1 and `field` (under `shots[1].`) and says `says`.
fn names(e: &InputError, field: &str, says: &str) {
    assert_eq!(e.shot, Some(1), "{e}");
    assert_eq!(e.field, format!("shots[1].{field}"), "{e}");
    assert!(e.problem.contains(says), "{e}");
    assert!(
        e.to_string()
            .starts_with(&format!("shot 1: field `shots[1].{field}`")),
        "{e}"
    );
}

const GOOD_TRACK: &str = r#"{"disc": 1, "points": [{"t": 0.05, "pos": [0, -0.26]}]}"#;

#[test]
fn a_missing_disc_is_refused_naming_the_shot_and_the_field() {
    let e = refused(&file_with(&format!(
        r#", "sigma": 0.001, "tracks": [{GOOD_TRACK}, {{"disc": 2, "points": [{{"t": 0.1, "pos": [0, 0]}}]}}]"#
    )));
    names(&e, "tracks[1].disc", "no disc 2 in this shot");
    let e = refused(&file_with(
        r#", "sigma": 0.001, "tracks": [{"disc": 0, "points": [{"t": 0.1, "pos": [0, -0.1]}]}]"#,
    ));
    names(&e, "tracks", "the shooter (disc 1) has no observation");
    let e = refused(&file_with(&format!(
        r#", "sigma": 0.001, "tracks": [{GOOD_TRACK}, {GOOD_TRACK}]"#
    )));
    names(&e, "tracks[1].disc", "already has a track (tracks[0])");
}

#[test]
fn an_impossible_track_is_refused_naming_the_shot_and_the_field() {
    let points = |p: &str| {
        file_with(&format!(
            r#", "sigma": 0.001, "tracks": [{{"disc": 1, "points": [{p}]}}]"#
        ))
    };
    let e = refused(&points(
        r#"{"t": 0.1, "pos": [0, -0.2]}, {"t": 0.2, "pos": [0, -0.15]}, {"t": 0.15, "pos": [0, -0.1]}"#,
    ));
    names(&e, "tracks[0].points[2].t", "time goes backwards");
    let e = refused(&points(
        r#"{"t": 0.1, "pos": [0, -0.2]}, {"t": 0.1, "pos": [0, -0.15]}"#,
    ));
    names(&e, "tracks[0].points[1].t", "duplicate time");
    let e = refused(&points(r#"{"t": -0.1, "pos": [0, -0.2]}"#));
    names(&e, "tracks[0].points[0].t", "must lie in [0, max_time");
    let e = refused(&points(r#"{"t": 0.1, "pos": [0, 1e999]}"#));
    names(&e, "tracks[0].points[0].pos[1]", "out of range");
    let e = refused(&points(r#"{"t": 0.1, "pos": [0, null]}"#));
    names(&e, "tracks[0].points[0].pos[1]", "null");
    let e = refused(&file_with(&format!(
        r#", "sigma": -0.001, "tracks": [{GOOD_TRACK}]"#
    )));
    names(&e, "sigma", "positive");
    let e = refused(&file_with(
        r#", "tracks": [{"disc": 1, "sigma": -1, "points": [{"t": 0.1, "pos": [0, -0.2]}]}]"#,
    ));
    names(&e, "tracks[0].sigma", "positive");
    let e = refused(&file_with(&format!(r#", "tracks": [{GOOD_TRACK}]"#)));
    names(&e, "tracks[0].sigma", "no position uncertainty");
}

#[test]
fn a_wrong_board_is_refused_naming_the_field() {
    // Observed positions the board cannot hold: off the surface, inside a peg.
    let e = refused(&file_with(
        r#", "sigma": 0.001, "tracks": [{"disc": 1, "points": [{"t": 0.1, "pos": [0, 0.5]}]}]"#,
    ));
    names(&e, "tracks[0].points[0].pos", "off the board");
    let e = refused(&file_with(
        r#", "sigma": 0.001, "tracks": [{"disc": 1, "points": [{"t": 0.1, "pos": [0.0389, -0.0939]}]}]"#,
    ));
    names(&e, "tracks[0].points[0].pos", "incompatible with the board");
    // A board block the shot file refuses, named as in a shot file.
    let text = file_with(&format!(r#", "sigma": 0.001, "tracks": [{GOOD_TRACK}]"#)).replacen(
        '{',
        r#"{"board": {"surface_radius": -1},"#,
        1,
    );
    let e = refused(&text);
    assert_eq!(e.field, "board.surface_radius", "{e}");
    // The discs placed where this board has no room: named as a shot file names them.
    let text = file_with(&format!(r#", "sigma": 0.001, "tracks": [{GOOD_TRACK}]"#)).replace(
        r#"[0, -0.1]}], "shooter""#,
        r#"[0.0389, -0.0939]}], "shooter""#,
    );
    let e = refused(&text);
    names(&e, "discs[0].pos", "overlaps peg 6");
}

#[test]
fn too_many_shots_are_refused_with_the_limit() {
    let shot = r#"{"discs": [], "shooter": {"team": 0, "pos": [0, -0.3048]}, "sigma": 0.001,
    "tracks": [{"disc": 0, "points": [{"t": 0.1, "pos": [0, -0.22]}]}]}"#;
    let n = crokinole::limits::MAX_FIT_SHOTS + 1;
    let text = format!(r#"{{"shots": [{}]}}"#, vec![shot; n].join(","));
    let e = refused(&text);
    assert_eq!(e.field, "shots");
    assert!(e.problem.contains("at most 200"), "{e}");
}

/// A tracks file's text for `tracks`: each point on a line, positions to 0.1 mm and
/// times to 1 us.
fn tracks_json(tracks: &Tracks, description: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{{\n  \"description\": {:?},\n  \"shots\": [",
        description
    );
    for (k, shot) in tracks.shots.iter().enumerate() {
        let discs: Vec<String> = shot
            .discs
            .iter()
            .map(|d| {
                format!(
                    r#"{{"team": {}, "pos": [{}, {}]}}"#,
                    d.team, d.pos.x, d.pos.y
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "    {{\"discs\": [{}],\n     \"shooter\": {{\"team\": {}, \"pos\": [{}, {}]}},\n     \"sigma\": {},\n     \"tracks\": [",
            discs.join(", "),
            shot.shooter.team,
            shot.shooter.pos.x,
            shot.shooter.pos.y,
            shot.tracks[0].sigma
        );
        for (j, track) in shot.tracks.iter().enumerate() {
            let _ = writeln!(out, "       {{\"disc\": {}, \"points\": [", track.disc);
            for (i, p) in track.points.iter().enumerate() {
                let r = |x: f64, d: f64| (x * d).round() / d;
                let _ = writeln!(
                    out,
                    "         {{\"t\": {}, \"pos\": [{}, {}]}}{}",
                    r(p.t, 1e6),
                    r(p.pos.x, 1e4),
                    r(p.pos.y, 1e4),
                    if i + 1 < track.points.len() { "," } else { "" }
                );
            }
            let _ = writeln!(
                out,
                "       ]}}{}",
                if j + 1 < shot.tracks.len() { "," } else { "" }
            );
        }
        let _ = writeln!(
            out,
            "     ]}}{}",
            if k + 1 < tracks.shots.len() { "," } else { "" }
        );
    }
    out.push_str("  ]\n}\n");
    out
}

/// The example of docs/tracks.md: a head-on hit, a peg hit and a lone slide, made by the
/// engine with [`truth`], at 60 fps with 1 mm of noise.
fn example_text() -> String {
    let all = setups();
    let chosen: Vec<Setup> = all
        .into_iter()
        .enumerate()
        .filter(|(k, _)| [0, 2, 4].contains(k))
        .map(|(_, s)| s)
        .collect();
    let tracks = synthetic_at(&chosen, &truth(), 11, &[60.0], &[0.001]);
    tracks_json(
        &tracks,
        "Three shots made by the engine with board_friction 0.15, disc_restitution 0.75, disc_friction 0.3, \
         peg_restitution 0.5, peg_friction 0.4, observed at 60 fps with 1 mm of noise \
         (tests/suite/fit.rs)",
    )
}

#[test]
fn the_example_tracks_file_is_made_by_the_engine() {
    crate::golden_file::check(
        &crate::fixture::path("tracks/example.json"),
        &example_text(),
        "the example tracks file",
        "fit",
        "the physics or the example's shots",
    );
}

#[test]
fn the_command_fits_writes_a_physics_block_simulate_accepts_and_draws() {
    let dir = binary::scratch("cli");
    let example = binary::fixture("tracks", "example.json");
    let physics = dir.join("fitted.json");
    let svg = dir.join("fit.svg");
    let out = binary::ok(&[
        "fit",
        &example,
        "--physics-out",
        physics.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("board_friction"), "{text}");
    // The physics block reads back as a shot file's, with the fitted values.
    let block = std::fs::read_to_string(&physics).unwrap();
    assert!(
        text.ends_with(&block),
        "the report ends with the written blocks"
    );
    let shots = format!(
        r#"{{"shots": [{{"discs": [], "shooter": {{"team": 0, "pos": [0, -0.3048], "vel": [0, 0.8]}}}}], {}"#,
        &block.trim_start()[1..]
    );
    let shot_file = dir.join("shots.json");
    std::fs::write(&shot_file, &shots).unwrap();
    let outcome = binary::run(&["simulate", shot_file.to_str().unwrap()], None).json();
    assert_eq!(outcome["outcomes"].as_array().unwrap().len(), 1);
    let (_, p, _) = crokinole::io::parse_shot_file(&shots).unwrap();
    assert!(
        (p.board_friction - 0.15).abs() < 0.01,
        "{}",
        p.board_friction
    );
    // The JSON report.
    let json = binary::run(&["fit", &example, "--json"], None).json();
    assert_eq!(json["shots"], 3);
    assert_eq!(json["coefficients"].as_array().unwrap().len(), 5);
    // The same bytes on one thread and on two.
    assert_eq!(
        binary::ok(&["fit", &example, "--json", "-j", "1"]),
        binary::ok(&["fit", &example, "--json", "-j", "2"])
    );
    let compact = binary::ok(&["fit", &example, "--compact"]);
    assert_eq!(compact.iter().filter(|&&b| b == b'\n').count(), 1);
    // The picture: every observation a dot, a fitted path per track.
    let picture = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&picture).unwrap();
    let tracks = parse_tracks_file(&std::fs::read_to_string(&example).unwrap()).unwrap();
    let dots = doc
        .descendants()
        .filter(|n| {
            n.has_tag_name("g")
                && n.attribute("class")
                    .is_some_and(|c| c.starts_with("observed"))
        })
        .map(|g| g.children().filter(|c| c.has_tag_name("circle")).count())
        .sum::<usize>();
    assert_eq!(dots, tracks.observations());
    let paths = doc
        .descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.starts_with("fitted"))
        })
        .count();
    assert_eq!(
        paths,
        tracks.shots.iter().map(|s| s.tracks.len()).sum::<usize>()
    );
    // Bad input: exit 2 naming the shot and field, nothing written.
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        file_with(r#", "sigma": 0.001, "tracks": [{"disc": 3, "points": []}]"#),
    )
    .unwrap();
    binary::run(&["fit", bad.to_str().unwrap()], None)
        .assert_refused("missing disc", &["shot 1: field `shots[1].tracks[0].disc`"]);
    binary::run(&["fit", &example, "--fit", "hole"], None).assert_refused("bad name", &["hole"]);
    // A file of the other kind is named for what it is.
    binary::run(&["simulate", &example], None).assert_refused(
        "tracks to simulate",
        &["looks like a tracks file (read by `crokinole fit`)"],
    );
    let shots = binary::fixture("", "example.json");
    binary::run(&["fit", &shots], None).assert_refused("shots to fit", &["looks like a shot file"]);
    binary::run(&["fit", &example, "--holdout", "1"], None).assert_refused("holdout", &["[0, 1)"]);
}

#[test]
fn the_docs_picture_is_the_fit_of_the_example() {
    let example = crate::fixture::text("tracks/example.json");
    let tracks = parse_tracks_file(&example).unwrap();
    let f = fit(&tracks, &FitConfig::default()).unwrap();
    let svg =
        crokinole::render::fit_svg(&tracks, &f, "fit of fixtures/tracks/example.json").unwrap();
    crate::golden_file::check(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/img/fit-example.svg"),
        &svg,
        "the picture of docs/tracks.md",
        "fit",
        "the physics, the fit or the picture",
    );
}

#[test]
fn a_coefficient_known_only_loosely_is_not_given_a_number() {
    // One glancing peg hit seen at 30 fps through 2 cm of noise: the peg's restitution is
    // informed, but too loosely to be worth a number.
    let one: Vec<Setup> = setups().into_iter().skip(2).take(1).collect();
    let tracks = synthetic_at(&one, &truth(), 4, &[30.0], &[0.02]);
    let config = FitConfig {
        coefficients: vec![Coefficient::BoardFriction, Coefficient::PegRestitution],
        ..FitConfig::default()
    };
    let f = fit(&tracks, &config).unwrap();
    match estimate(&f, Coefficient::PegRestitution) {
        Estimate::NotIdentified { reason } => {
            assert!(reason.contains("is more than 50% of its value"), "{reason}")
        }
        e => panic!("{e:?}"),
    }
}

#[test]
fn the_fit_itself_refuses_an_empty_list_of_coefficients() {
    // The front ends that can name none (Python's `coefficients=[]`) rely on it.
    let tracks = synthetic(&setups(), &truth(), 3);
    let config = FitConfig {
        coefficients: Vec::new(),
        ..FitConfig::default()
    };
    let e = crokinole::fit::fit(&tracks, &config).unwrap_err();
    assert_eq!(e.field, "coefficients", "{e}");
    assert!(e.problem.contains("at least one coefficient"), "{e}");
}
