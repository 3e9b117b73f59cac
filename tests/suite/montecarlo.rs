//! Monte Carlo studies through the library (`crates/montecarlo/src/`): results independent of the
//! thread count and the chunking, sample `i` a function of `(seed, i)`, zero noise giving
//! the intended shot in every sample, a well-aimed slow 20 scoring 20, the truncated noise
//! staying legal, the score and hit definitions, exact merges, refusals of bad studies,
//! pinned random draws and a golden summary.

use crate::fixture;
use crate::golden_file;

use crokinole::io::outcomes_to_string;
use crokinole::io::{
    input_hash, parse_state, parse_study_file, parse_summary, sample_line, state_json,
    study_summary_json,
};
use crokinole::montecarlo::flick::max_offset;
use crokinole::montecarlo::noise::{Draws, Param};
use crokinole::montecarlo::{
    CHUNK, Noise, PlayerFlick, Sampling, ShotClass, Situation, Stopped, Study, StudySpec, Tally,
};
use crokinole::rules::Ruleset;
use crokinole::rules::placement::in_quadrant;
use crokinole::{Board, Placed, run_shot};
use glam::DVec2;
use std::path::PathBuf;

fn fixture_path(name: &str) -> PathBuf {
    fixture::path(&format!("montecarlo/{name}"))
}

fn study(name: &str) -> Study {
    let text = std::fs::read_to_string(fixture_path(name)).unwrap();
    parse_study_file(&text).unwrap()
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// Every sample line and the state of a run: the bytes a run produces.
fn run_bytes(study: &Study, plan: &Sampling, chunk: usize) -> (String, String) {
    let mut lines = String::new();
    let tally = study
        .run(plan, chunk, sample_line, |line| {
            lines.push_str(&line);
            Ok::<(), ()>(())
        })
        .unwrap();
    (lines, state_json(&tally, study.spec()))
}

fn spec_with(flick: PlayerFlick, noise: Noise) -> StudySpec {
    StudySpec {
        situation: Situation {
            noise,
            ..Situation::at_seat(0)
        },
        flick,
        ruleset: None,
    }
}

/// `spec` with its situation changed by `change`.
fn changed(mut spec: StudySpec, change: impl FnOnce(&mut Situation)) -> StudySpec {
    change(&mut spec.situation);
    spec
}

const STRAIGHT: PlayerFlick = PlayerFlick {
    offset: 0.0,
    aim: 0.0,
    target: None,
    speed: 0.85,
    spin: 0.0,
};

#[test]
fn results_are_identical_for_1_2_3_and_8_threads() {
    for name in ["crowded.json", "takeout.json"] {
        let s = study(name);
        let plan = Sampling::new(11, 150, None).unwrap();
        let want = pool(1).install(|| run_bytes(&s, &plan, CHUNK));
        assert_eq!(want.0.lines().count(), 150);
        for threads in [2, 3, 8] {
            let got = pool(threads).install(|| run_bytes(&s, &plan, CHUNK));
            assert!(got == want, "{name} on {threads} threads");
        }
    }
}

#[test]
fn the_chunk_size_changes_nothing() {
    let s = study("crowded.json");
    let plan = Sampling::new(3, 100, None).unwrap();
    let want = pool(2).install(|| run_bytes(&s, &plan, CHUNK));
    for chunk in [0, 1, 7, 33, 99, 100] {
        let got = pool(2).install(|| run_bytes(&s, &plan, chunk));
        assert!(got == want, "chunk {chunk}");
    }
}

#[test]
fn sample_i_depends_only_on_the_seed_and_i() {
    let s = study("takeout.json");
    let (all, _) = run_bytes(&s, &Sampling::new(5, 60, None).unwrap(), 16);
    let all: Vec<&str> = all.lines().collect();
    // A slice of the study run alone, or one sample on its own, gives the same lines.
    let part = Sampling {
        seed: 5,
        samples: 60,
        range: 41..60,
    };
    let (tail, _) = run_bytes(&s, &part, 4);
    assert_eq!(tail.lines().collect::<Vec<_>>(), all[41..]);
    assert_eq!(sample_line(&s.sample(5, 17)).trim_end(), all[17]);
    // Another seed gives other samples.
    assert_ne!(sample_line(&s.sample(6, 17)).trim_end(), all[17]);
}

/// A sample runs in a world kept per thread and copied from the position's each time
/// (`crokinole::shot`'s scratch): whatever ran on the thread before (other studies, with
/// more or fewer discs, other pegs and physics), each sample's outcome is bit for bit that
/// of its shot run alone in a fresh world.
#[test]
fn samples_run_in_a_reused_world_equal_their_shots_run_alone() {
    let mut studies = vec![
        study("crowded.json"),
        study("takeout.json"),
        study("opening.json"),
    ];
    // The crowded and opening studies again on boards without pegs, with a wider hole
    // and softer discs.
    for name in ["crowded.json", "opening.json"] {
        studies.push(
            Study::new(changed(study(name).spec().clone(), |s| {
                s.board.pegs.clear();
                s.board.hole_radius = 0.025;
                s.physics.disc_restitution = 0.5;
            }))
            .unwrap(),
        );
    }
    // One thread: every sample below reuses the same scratch world.
    pool(1).install(|| {
        for i in 0..40u64 {
            for (k, s) in studies.iter().enumerate() {
                let sample = s.sample(3, i);
                let shot = s.shot(&sample.flick);
                let (board, physics) = (&s.spec().situation.board, &s.spec().situation.physics);
                let alone = run_shot(board, physics, &shot).unwrap();
                assert!(
                    format!("{:?}", sample.outcome) == format!("{alone:?}"),
                    "study {k} sample {i}: the reused world gave another outcome"
                );
            }
        }
    });
}

#[test]
fn zero_noise_reproduces_the_single_shot_in_every_sample() {
    for name in ["crowded.json", "takeout.json", "opening.json"] {
        let noisy = study(name);
        let spec = changed(noisy.spec().clone(), |s| s.noise = Noise::NONE);
        let s = Study::new(spec.clone()).unwrap();
        let single = run_shot(
            &spec.situation.board,
            &spec.situation.physics,
            &s.intended_shot(),
        )
        .unwrap();
        let want = outcomes_to_string(std::slice::from_ref(&single));
        let mut samples = 0;
        s.run(
            &Sampling::new(99, 40, None).unwrap(),
            8,
            |sample| {
                assert_eq!(sample.flick, spec.flick);
                outcomes_to_string(std::slice::from_ref(&sample.outcome))
            },
            |got| {
                samples += 1;
                assert!(got == want, "{name}: a sample differs from the single shot");
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        assert_eq!(samples, 40);
    }
}

#[test]
fn a_slow_well_aimed_20_with_tiny_noise_scores_20() {
    let tiny = Noise {
        offset: 1e-4,
        aim: 1e-4,
        speed: 1e-3,
        spin: 0.01,
    };
    for (players, seat) in [(2, 0), (2, 2), (4, 1), (4, 3)] {
        let spec = changed(spec_with(STRAIGHT, tiny), |s| {
            s.players = players;
            s.seat = seat;
        });
        let s = Study::new(spec).unwrap();
        let summary = s
            .tally(&Sampling::new(1, 300, None).unwrap())
            .summary()
            .unwrap();
        let twenty = summary.shooter.twenty;
        assert_eq!(twenty.count, 300, "seat {seat}: {summary:?}");
        assert!(twenty.ci95[0] > 0.98, "{twenty:?}");
        assert_eq!(summary.score_change.quantiles.p05, 20);
        assert_eq!(summary.score_change.mean, 20.0);
    }
}

#[test]
fn noisy_placements_stay_in_the_quadrant_and_off_other_discs() {
    let limit = max_offset(&Board::tournament());
    // A disc resting against the shooting line where the wide placement noise would put
    // the shooter, and an intended offset near the quadrant's edge.
    let spec = changed(
        spec_with(
            PlayerFlick {
                offset: 0.95 * limit,
                ..STRAIGHT
            },
            Noise {
                offset: 0.1,
                ..Noise::NONE
            },
        ),
        |s| {
            s.discs = vec![Placed {
                team: 1,
                pos: DVec2::new(0.15, -0.25),
            }]
        },
    );
    let s = Study::new(spec).unwrap();
    let board = Board::tournament();
    let (mut inside, mut at_edge) = (0, 0);
    for i in 0..2000 {
        let f = s.sample_flick(7, i);
        let pos = f.position(&board, 0);
        assert!(in_quadrant(0, pos), "sample {i}: offset {}", f.offset);
        assert!(
            (pos - DVec2::new(0.15, -0.25)).length() >= 2.0 * 0.015_875 - 1e-9,
            "sample {i} overlaps the disc"
        );
        inside += usize::from(f.offset.abs() < limit);
        at_edge += usize::from(f.offset.abs() == limit);
    }
    // Resampled, not clamped: no pile of samples on the quadrant's edge.
    assert_eq!((inside, at_edge), (2000, 0));
}

#[test]
fn speeds_and_spins_stay_legal_under_wide_noise() {
    let spec = spec_with(
        PlayerFlick {
            speed: 9.5,
            spin: 600.0,
            ..STRAIGHT
        },
        Noise {
            speed: 1.0,
            spin: 300.0,
            ..Noise::NONE
        },
    );
    let s = Study::new(spec).unwrap();
    for i in 0..500 {
        let f = s.sample_flick(2, i);
        assert!(f.speed > 0.0 && f.speed <= 10.0, "speed {}", f.speed);
        assert!(f.spin.abs() * 0.015_875 <= 10.0, "spin {}", f.spin);
    }
}

#[test]
fn scores_and_hits_follow_their_definitions() {
    // Two opponent discs in the 15 zone, straight ahead of seat 0, and an own disc out
    // of the way: a hard shot knocks the first one on.
    let discs = vec![
        Placed {
            team: 1,
            pos: DVec2::new(0.0, -0.06),
        },
        Placed {
            team: 0,
            pos: DVec2::new(0.1, 0.1),
        },
        Placed {
            team: 1,
            pos: DVec2::new(-0.05, 0.03),
        },
    ];
    let flick = PlayerFlick {
        speed: 2.5,
        ..STRAIGHT
    };
    let spec = changed(spec_with(flick, Noise::NONE), |s| s.discs = discs);
    let s = Study::new(spec).unwrap();
    let sample = s.sample(0, 0);
    let board = Board::tournament();
    let points = |d: &crokinole::Disc| match d.state {
        crokinole::DiscState::Hole => 20,
        crokinole::DiscState::Ditch => 0,
        _ => i64::from(board.zone(d.pos, d.radius).points()),
    };
    let d = &sample.outcome.discs;
    let own_after = points(&d[1]) + points(&d[3]);
    let other_after = points(&d[0]) + points(&d[2]);
    // Before: own 10 (disc 1 at 0.14 m), other 15 + 15.
    assert_eq!(s.score_before(), [10, 30]);
    assert_eq!(
        sample.result.score_change,
        (own_after - other_after) - (10 - 30)
    );
    assert_eq!(sample.result.score_change % 5, 0);
    assert_eq!(sample.result.class, ShotClass::of(&board, &d[3]));
    let direct: std::collections::BTreeSet<usize> = sample
        .outcome
        .events
        .iter()
        .filter_map(|e| match e.kind {
            crokinole::EventKind::Disc { a, b: 3 } if a != 1 => Some(a),
            _ => None,
        })
        .collect();
    assert!(direct.contains(&0), "the shot hits the disc in front");
    assert_eq!(sample.result.opponent_hits as usize, direct.len());
    assert!(sample.result.opponents_moved);

    // A miss: nothing touched, the score changes by the shooter's own zone only.
    let miss = changed(spec_with(STRAIGHT, Noise::NONE), |s| {
        s.discs = vec![Placed {
            team: 1,
            pos: DVec2::new(0.2, 0.0),
        }]
    });
    let m = Study::new(miss).unwrap().sample(0, 0);
    assert_eq!(m.result.class, ShotClass::Twenty);
    assert_eq!(
        (
            m.result.score_change,
            m.result.opponent_hits,
            m.result.opponents_moved
        ),
        (20, 0, false)
    );
}

#[test]
fn a_20_that_misses_the_must_hit_rule_is_removed_and_scores_nothing() {
    // The same miss as above, judged by the rules: an opponent disc is on the board, the
    // shot does not touch it, so the shooter comes off (the 20 does not count). Without a
    // rule set the physics alone calls it a 20 worth 20.
    let opponent = vec![Placed {
        team: 1,
        pos: DVec2::new(0.2, 0.0),
    }];
    for ruleset in [Ruleset::Traditional, Ruleset::Tournament] {
        let miss = StudySpec {
            ruleset: Some(ruleset),
            ..changed(spec_with(STRAIGHT, Noise::NONE), |s| {
                s.discs = opponent.clone()
            })
        };
        let m = Study::new(miss).unwrap().sample(0, 0);
        assert_eq!(m.outcome.discs[1].state, crokinole::DiscState::Hole);
        assert_eq!(m.result.class, ShotClass::Removed, "{ruleset}");
        assert_eq!(m.result.score_change, 0, "{ruleset}");
    }
}

#[test]
fn an_opening_shot_short_of_the_15_line_is_removed_by_the_rules_only() {
    // Straight ahead at a third of the speed that reaches the hole: it stops in the 10
    // zone. The physics says `ten` (+10); the opening rule takes it off (0).
    let short = PlayerFlick {
        speed: STRAIGHT.speed * 0.75,
        ..STRAIGHT
    };
    let physics_only = Study::new(spec_with(short, Noise::NONE))
        .unwrap()
        .sample(0, 0);
    assert_eq!(physics_only.result.class, ShotClass::Ten);
    assert_eq!(physics_only.result.score_change, 10);
    let ruled = Study::new(StudySpec {
        ruleset: Some(Ruleset::Traditional),
        ..spec_with(short, Noise::NONE)
    })
    .unwrap();
    let s = ruled.sample(0, 0);
    assert_eq!(
        s.outcome, physics_only.outcome,
        "the rules do not touch the physics"
    );
    assert_eq!(
        (s.result.class, s.result.score_change),
        (ShotClass::Removed, 0)
    );
    // And the summary counts it under `removed`.
    let summary = ruled
        .tally(&Sampling::new(1, 3, None).unwrap())
        .summary()
        .unwrap();
    assert_eq!(summary.shooter.removed.count, 3);
    assert_eq!(summary.shooter.ten.count, 0);
}

#[test]
fn naming_a_rule_set_changes_the_input_hash_and_only_then() {
    let plain = spec_with(STRAIGHT, Noise::NONE);
    let ruled = StudySpec {
        ruleset: Some(Ruleset::Traditional),
        ..spec_with(STRAIGHT, Noise::NONE)
    };
    assert_ne!(input_hash(&plain), input_hash(&ruled));
    let text = r#"{"seat": 0, "flick": {"speed": 0.85}, "ruleset": "tournament"}"#;
    assert_eq!(
        parse_study_file(text).unwrap().spec().ruleset,
        Some(Ruleset::Tournament)
    );
}

#[test]
fn shards_merge_into_exactly_the_tally_of_one_run() {
    let s = study("crowded.json");
    let whole = s.tally(&Sampling::new(8, 90, None).unwrap());
    let shard = |k, n| {
        let plan = Sampling::new(8, 90, Some(format!("{k}/{n}").parse().unwrap())).unwrap();
        let t = s.tally(&plan);
        // Through the state file and back, as `crokinole merge` reads it.
        let back = parse_state(&state_json(&t, s.spec())).unwrap();
        assert_eq!(back, t, "state round trip");
        (format!("{k}/{n}"), back)
    };
    let parts = vec![shard(3, 4), shard(1, 4), shard(4, 4), shard(2, 4)];
    let merged = Tally::merge(parts.clone()).unwrap();
    assert_eq!(merged, whole);
    assert_eq!(
        study_summary_json(&merged.summary().unwrap()),
        study_summary_json(&whole.summary().unwrap())
    );

    let refuse = |parts: Vec<(String, Tally)>, fragment: &str| {
        let e = Tally::merge(parts).unwrap_err();
        assert!(e.to_string().contains(fragment), "{e}");
    };
    refuse(parts[..3].to_vec(), "samples 22..45 are in no shard");
    let mut twice = parts.clone();
    twice.push(parts[0].clone());
    refuse(twice, "shards overlap");
    let mut other_seed = parts.clone();
    other_seed[1].1 = s.tally(&Sampling::new(9, 90, Some("1/4".parse().unwrap())).unwrap());
    refuse(other_seed, "seed 9");
    let mut other_study = parts.clone();
    other_study[2].1 =
        study("takeout.json").tally(&Sampling::new(8, 90, Some("4/4".parse().unwrap())).unwrap());
    refuse(other_study, "input hash");
    let mut other_size = parts.clone();
    other_size[0].1 = s.tally(&Sampling::new(8, 91, Some("3/4".parse().unwrap())).unwrap());
    refuse(other_size, "samples 91");
    refuse(vec![], "no shard");
    assert!(
        parts[0].1.summary().is_err(),
        "a shard alone has no summary"
    );
}

#[test]
fn a_run_stopped_between_chunks_summarises_the_study_of_its_finished_samples() {
    // Ctrl-C stops `crokinole montecarlo` through `run_until`: what finished must be
    // exactly the shorter study (sample `i` depends on the seed and `i` alone), marked.
    let s = study("crowded.json");
    let plan = Sampling::new(3, 100, None).unwrap();
    // Cancelled while the third chunk goes to the sink: the chunk was computed whole, so
    // it is kept, and no fourth starts.
    let cancel = crokinole::cancel::Cancel::new();
    let mut lines = Vec::new();
    let stopped = s
        .run_until(
            &plan,
            16,
            sample_line,
            |line| {
                lines.push(line);
                if lines.len() == 40 {
                    cancel.cancel();
                }
                Ok::<(), ()>(())
            },
            &cancel,
        )
        .unwrap();
    assert_eq!(stopped.done, 48, "three chunks of 16");
    assert!(!stopped.is_complete());
    assert_eq!(lines.len(), 48);
    let shorter = s.tally(&Sampling::new(3, 48, None).unwrap());
    let mut want = shorter.summary().unwrap();
    assert_eq!(want.stopped, None);
    want.stopped = Some(Stopped { requested: 100 });
    let got = stopped.summary_of_finished().unwrap();
    assert_eq!(got, want);
    assert!(
        stopped.summary().is_err(),
        "an unfinished tally has no full summary"
    );
    // The stopped summary goes through JSON and back as `render montecarlo` reads it.
    assert_eq!(parse_summary(&study_summary_json(&got)).unwrap(), got);
    // A run never stopped is complete, and its finished part is the whole study.
    let whole = s
        .run_until(
            &plan,
            16,
            |_| (),
            |()| Ok::<(), ()>(()),
            &crokinole::cancel::Cancel::new(),
        )
        .unwrap();
    assert!(whole.is_complete());
    // Cancelled before it starts: nothing runs.
    let cancel = crokinole::cancel::Cancel::new();
    cancel.cancel();
    let none = s
        .run_until(&plan, 16, |_| (), |()| Ok::<(), ()>(()), &cancel)
        .unwrap();
    assert_eq!(none.done, 0);
    assert_eq!(whole.summary_of_finished(), Some(whole.summary().unwrap()));
    // A shard's finished part is no study.
    let shard = Sampling::new(3, 100, Some("2/2".parse().unwrap())).unwrap();
    assert_eq!(s.tally(&shard).summary_of_finished(), None);
}

#[test]
fn bad_studies_are_refused_naming_the_field() {
    let bad = |spec: StudySpec, field: &str, fragment: &str| {
        let e = Study::new(spec).unwrap_err();
        assert_eq!(e.field, field, "{e}");
        assert!(e.problem.contains(fragment), "{e}");
    };
    let noise = |n: Noise| spec_with(STRAIGHT, n);
    bad(
        noise(Noise {
            speed: -0.01,
            ..Noise::NONE
        }),
        "noise.speed",
        "must not be negative",
    );
    bad(
        noise(Noise {
            aim: f64::NAN,
            ..Noise::NONE
        }),
        "noise.aim",
        "finite",
    );
    bad(
        noise(Noise {
            offset: f64::INFINITY,
            ..Noise::NONE
        }),
        "noise.offset",
        "finite",
    );
    bad(
        spec_with(
            PlayerFlick {
                offset: 0.22,
                ..STRAIGHT
            },
            Noise::NONE,
        ),
        "flick.offset",
        "outside seat 0's quadrant",
    );
    bad(
        spec_with(
            PlayerFlick {
                speed: 0.0,
                ..STRAIGHT
            },
            Noise::NONE,
        ),
        "flick.speed",
        "must be positive",
    );
    bad(
        changed(spec_with(STRAIGHT, Noise::NONE), |s| s.seat = 3),
        "seat",
        "seats 0 and 2",
    );
    bad(
        changed(spec_with(STRAIGHT, Noise::NONE), |s| s.players = 3),
        "players",
        "must be 2 or 4",
    );
    bad(
        changed(spec_with(STRAIGHT, Noise::NONE), |s| {
            s.discs = vec![Placed {
                team: 1,
                pos: DVec2::new(0.005, 0.0),
            }]
        }),
        "discs[0].pos",
        "over the 20 hole",
    );
    let e = parse_study_file(r#"{"seat": 0, "flick": {"speed": 0.85}, "ruleset": "pub"}"#)
        .err()
        .unwrap();
    assert_eq!(e.field, "ruleset", "{e}");
    assert!(e.problem.contains("traditional"), "{e}");
    let e = Sampling::new(1, 0, None).unwrap_err();
    assert_eq!(
        (e.field.as_str(), e.problem.as_str()),
        ("samples", "must be at least 1, got 0")
    );
    assert!("0/4".parse::<crokinole::montecarlo::Shard>().is_err());
    assert!("5/4".parse::<crokinole::montecarlo::Shard>().is_err());
    assert!("2-4".parse::<crokinole::montecarlo::Shard>().is_err());
}

/// The first draws of a few streams, bit for bit: Philox4x64-10, the 53-bit uniforms, the
/// polar method and `detmath::ln` together. These must be the same on every machine; a
/// change here changes every study's samples. The uniforms are numpy's too:
/// `numpy.random.Philox(counter=[2**64-1]*4, key=[seed, KEY_TAG]).random_raw()` (numpy
/// adds one to the counter before its first block) gives sample 0's first word of
/// parameter 0, whose top 53 bits / 2^53 are the first uniform below (0.13573071271498838).
#[test]
fn random_draws_are_pinned() {
    let pinned = [
        (
            0u64,
            0u64,
            Param::Offset,
            0x3fc1_5f9f_be16_3a0cu64,
            0xbfc9_cb45_455d_4e80u64,
        ),
        (
            1,
            0,
            Param::Aim,
            0x3fba_2192_3581_6328,
            0x3ff2_3289_3ab8_0b16,
        ),
        (
            42,
            99_999,
            Param::Speed,
            0x3fec_941f_6da2_768f,
            0xbfe2_37cc_d79b_3894,
        ),
        (
            u64::MAX,
            7,
            Param::Spin,
            0x3fe3_1eb7_05c8_0895,
            0xbfd5_c3be_2a3b_6c8d,
        ),
    ];
    for (seed, sample, param, u, z) in pinned {
        let mut d = Draws::new(seed, sample, param);
        let got_u = d.uniform();
        let got_z = d.gaussian();
        assert_eq!(
            (got_u.to_bits(), got_z.to_bits()),
            (u, z),
            "seed {seed} sample {sample} {param:?}: u {got_u:e}, z {got_z:e}"
        );
    }
}

/// The summary of the bundled opening study for a fixed seed, byte for byte.
#[test]
fn the_summary_for_a_fixed_seed_is_golden() {
    for (name, golden, samples) in [
        ("opening.json", "golden-opening-summary.json", 400),
        ("takeout.json", "golden-takeout-summary.json", 200),
        (
            "takeout-ruled.json",
            "golden-takeout-ruled-summary.json",
            200,
        ),
    ] {
        let s = study(name);
        let tally = s.tally(&Sampling::new(2024, samples, None).unwrap());
        let actual = study_summary_json(&tally.summary().unwrap());
        let path = fixture_path(golden);
        golden_file::check(
            &path,
            &actual,
            &format!("The summary of fixtures/montecarlo/{name} (seed 2024, {samples} samples)"),
            "montecarlo",
            "the physics, the noise model or the summary",
        );
    }
}
