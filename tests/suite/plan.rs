//! The shot planner through the library (`crates/plan/src/`, docs/suggest.md): on an empty board
//! it finds a 20 that an independent Monte Carlo study confirms; with one opponent disc in
//! the open it takes it out rather than play a 20 that the must-hit rule would remove; the
//! plan is the same for every thread count; a time budget reports the sample budget that
//! reproduces it; the objectives mean what they say; the planner strategy plays games; bad
//! requests are refused with the field named; and a golden plan.

use crate::fixture;
use crate::golden_file;

use crokinole::io::{game_log_json, parse_suggest_file, plan_json};
use crokinole::montecarlo::{Noise, PlayerFlick, Sampling, ShotClass, Situation, Study, StudySpec};
use crokinole::plan::{
    AimAt, Budget, DEFAULT_BUDGET, Objective, Plan, PlanConfig, Request, Setup, suggest,
};
use crokinole::play::{AnyStrategy, PlayConfig, Strategy};
use crokinole::rules::Ruleset;
use crokinole::{Board, Physics, Placed};
use glam::DVec2;
use std::path::PathBuf;

/// A steady player: 2 mm placement, 4 mrad aim, 1 % speed.
const SMALL: Noise = Noise {
    offset: 0.002,
    aim: 0.004,
    speed: 0.01,
    spin: 0.0,
};

fn fixture_path(name: &str) -> PathBuf {
    fixture::path(&format!("suggest/{name}"))
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

fn config(budget: u64, top: usize) -> PlanConfig {
    PlanConfig {
        budget: Budget::Samples(budget),
        top,
        seed: 5,
        ..PlanConfig::default()
    }
}

/// Seat 0 of an empty two-player board, with the small noise.
fn small_noise_at_seat_0() -> Situation {
    Situation {
        noise: SMALL,
        ..Situation::at_seat(0)
    }
}

fn plan(discs: Vec<Placed>, ruleset: Ruleset, noise: Noise, config: &PlanConfig) -> Plan {
    let seat = Situation {
        discs,
        noise,
        ..Situation::at_seat(0)
    };
    suggest(&Request::new(seat, ruleset), config).unwrap()
}

/// An independent study of a suggested flick from seat 0 (its own seed and sample count).
fn study_of(plan: &Plan, discs: Vec<Placed>, noise: Noise) -> crokinole::montecarlo::StudySummary {
    let study = Study::new(StudySpec {
        situation: Situation {
            discs,
            noise,
            ..Situation::at_seat(0)
        },
        flick: plan.top[0].flick,
        ruleset: None,
    })
    .unwrap();
    study
        .tally(&Sampling::new(9999, 2000, None).unwrap())
        .summary()
        .unwrap()
}

#[test]
fn an_empty_board_gets_a_twenty_with_small_noise() {
    let p = plan(vec![], Ruleset::Traditional, SMALL, &config(4000, 2));
    let best = &p.top[0];
    assert!(best.value.mean > 18.0, "{best:?}");
    assert!(best.fates[ShotClass::Twenty as usize].p > 0.9, "{best:?}");
    // Confirmed by a Monte Carlo study of the suggested flick on other random numbers.
    let summary = study_of(&p, vec![], SMALL);
    assert!(summary.shooter.twenty.p > 0.9, "{:?}", summary.shooter);
    assert!(p.samples_used <= 4000, "{}", p.samples_used);
    assert_eq!(p.top.len(), 2);
    // Rank 1 won the race; the final evaluation may put rank 2 a little higher, within
    // rank 1's interval.
    assert!(p.top[0].value.ci95[1] >= p.top[1].value.mean, "{:?}", p.top);
}

#[test]
fn one_open_opponent_disc_is_taken_out_rather_than_ignored() {
    // A 10 of the opponent's in the open, right of seat 0's line of sight to the hole. A 20
    // attempt that misses it breaks the must-hit rule: removed, worth nothing.
    let discs = vec![Placed {
        team: 1,
        pos: DVec2::new(0.1, -0.14),
    }];
    let p = plan(discs.clone(), Ruleset::Traditional, SMALL, &config(4000, 3));
    let best = &p.top[0];
    assert!(best.hit_opponent.p > 0.9, "{best:?}");
    assert!(best.value.mean > 10.0, "{best:?}");
    // The suggested flick hits that disc in most samples of an independent study.
    let summary = study_of(&p, discs.clone(), SMALL);
    assert!(
        summary.opponents_moved.p > 0.9,
        "{:?}",
        summary.opponents_moved
    );
    assert!(
        summary.opponent_hits.any.p > 0.5,
        "{:?}",
        summary.opponent_hits
    );
    // A plain 20 attempt from the middle (which misses the disc) would be a 20 in the
    // physics most of the time, but under the must-hit rule it is removed: worth nothing.
    let (board, physics) = (Board::tournament(), Physics::default());
    let situation = Situation {
        board: board.clone(),
        physics: physics.clone(),
        discs: discs.clone(),
        ..Situation::at_seat(0)
    };
    let setup = Setup::new(situation, Ruleset::Traditional).unwrap();
    let attempt = Study::new(StudySpec {
        situation: Situation {
            board: board.clone(),
            physics: physics.clone(),
            discs: discs.clone(),
            noise: SMALL,
            ..Situation::at_seat(0)
        },
        flick: PlayerFlick {
            offset: 0.0,
            aim: 0.0,
            target: Some(DVec2::ZERO),
            speed: 0.87,
            spin: 0.0,
        },
        ruleset: None,
    })
    .unwrap();
    let (mut change, mut twenties) = (0, 0);
    for j in 0..200 {
        let sample = attempt.sample(3, j);
        twenties += u32::from(sample.result.class == ShotClass::Twenty);
        let verdict = setup
            .judge(&attempt.shot(&sample.flick), &sample.outcome)
            .unwrap();
        change += setup.change(&verdict);
    }
    assert!(twenties > 150, "a good 20 attempt: {twenties} of 200");
    assert_eq!(change, 0, "and worth nothing under the must-hit rule");
}

#[test]
fn the_plan_is_the_same_for_1_2_and_3_threads() {
    let text = std::fs::read_to_string(fixture_path("takeout.json")).unwrap();
    let f = parse_suggest_file(&text).unwrap();
    // 3000 samples: one coarse round from 3 places; 12,000: a coarse sweep from 13 places
    // in rounds of successive halving.
    for (budget, halving) in [(3000, false), (12_000, true)] {
        let run = |threads| pool(threads).install(|| suggest(&f, &config(budget, 3)).unwrap());
        let one = run(1);
        assert_eq!(one.stages[1].name.starts_with("coarse"), halving);
        let one = plan_json(&one);
        for threads in [2, 3] {
            assert!(
                plan_json(&run(threads)) == one,
                "{budget}: {threads} threads"
            );
        }
    }
}

#[test]
fn a_time_budget_reports_the_sample_budget_that_reproduces_it() {
    let request = Request::new(small_noise_at_seat_0(), Ruleset::Traditional);
    let timed = PlanConfig {
        budget: Budget::Seconds(3.0),
        ..config(0, 2)
    };
    let a = suggest(&request, &timed).unwrap();
    assert!(a.samples_used <= a.budget_samples);
    if !a.time_up {
        let b = suggest(&request, &config(a.budget_samples, 2)).unwrap();
        assert_eq!((&a.top, &a.grid, &a.stages), (&b.top, &b.grid, &b.stages));
    }
}

/// Symptom: `suggest --budget 1s` on a 75-disc cluster ran its pilot over all 4,624 coarse
/// candidates (3.5 min) before finding the time too short. The pilot now stops at a tenth
/// of the time, and a time too short for the coarse sweep is refused saying how long a
/// shot takes and what time would do.
#[test]
fn a_time_budget_too_short_for_the_position_is_refused_with_the_time_it_needs() {
    let request = Request::new(small_noise_at_seat_0(), Ruleset::Traditional);
    let timed = PlanConfig {
        budget: Budget::Seconds(1e-4),
        ..config(0, 2)
    };
    let e = suggest(&request, &timed).unwrap_err();
    assert_eq!(e.field, "budget");
    for part in [
        "covers about",
        "a shot takes",
        "give about",
        "a sample budget of",
    ] {
        assert!(e.problem.contains(part), "{part}: {}", e.problem);
    }
}

/// A plan whose time ran out says so in its budget, and reads back the same; other plans
/// do not carry the key.
#[test]
fn a_plan_cut_short_by_time_says_so() {
    let mut p = plan(vec![], Ruleset::Traditional, SMALL, &config(2000, 2));
    assert!(!p.time_up);
    assert!(!plan_json(&p).contains("time_up"));
    p.time_up = true;
    let text = plan_json(&p);
    assert!(text.contains("\"time_up\": true"), "{text}");
    assert!(crokinole::io::parse_plan(&text).unwrap().time_up);
}

#[test]
fn the_objectives_are_what_they_say() {
    for objective in [Objective::Twenty, Objective::Fifteen] {
        let p = plan(
            vec![],
            Ruleset::Tournament,
            SMALL,
            &PlanConfig {
                objective,
                ..config(3000, 2)
            },
        );
        let fate = match objective {
            Objective::Twenty => ShotClass::Twenty,
            _ => ShotClass::Fifteen,
        };
        for s in &p.top {
            assert_eq!(s.value.mean, s.fates[fate as usize].p, "{objective}");
            assert!(s.value.ci95[0] <= s.value.mean && s.value.mean <= s.value.ci95[1]);
        }
        assert!(p.top[0].value.mean > 0.8, "{objective}: {:?}", p.top[0]);
        let g = p.grid.as_ref().unwrap();
        let cells = g.value.iter().flatten().flatten();
        assert!(cells.clone().all(|v| (0.0..=1.0).contains(v)));
    }
    // Without noise every stage takes one sample.
    let p = plan(vec![], Ruleset::Traditional, Noise::NONE, &config(3000, 1));
    assert!(p.stages.iter().all(|s| s.samples == 1), "{:?}", p.stages);
    assert_eq!(p.top[0].value.mean, 20.0);
}

#[test]
fn the_grid_is_the_coarse_sweep_over_aim_and_speed() {
    let p = plan(vec![], Ruleset::Traditional, SMALL, &config(3000, 1));
    let g = p.grid.unwrap();
    assert_eq!((g.aim.len(), g.speed.len(), g.value.len()), (11, 9, 9));
    assert!(g.value.iter().all(|row| row.len() == 11));
    assert!(g.aim.windows(2).all(|w| w[0] < w[1]));
    assert!(g.speed.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(
        (g.aim[0], g.aim[10], g.speed[0], g.speed[8]),
        (-0.5, 0.5, 0.3, 3.0)
    );
    assert_eq!((g.offset, g.samples), (0.0, p.stages[0].samples));
    // Straight ahead from the middle at the hole's speed range scores; too slow never does.
    assert!(g.value[0].iter().all(|v| *v == Some(0.0)));
    assert!(g.value[1..3].iter().flatten().flatten().any(|v| *v > 0.0));
}

/// At the default budget the coarse sweep is a successive halving: its rounds (`coarse 1`,
/// `coarse 2`, ...) evaluate every candidate, then the better half of the previous round's
/// with more samples each, down to at least 16, all within 30 % of the budget; the heat
/// map is its first round (every cell the same samples). At 3000 samples the sweep is
/// too small to halve: one round, `coarse`.
#[test]
fn the_coarse_sweep_halves_its_candidates_at_the_default_budget() {
    let discs = vec![Placed {
        team: 1,
        pos: DVec2::new(0.1, -0.14),
    }];
    let p = plan(
        discs.clone(),
        Ruleset::Traditional,
        SMALL,
        &config(20_000, 1),
    );
    let sweep: Vec<_> = p
        .stages
        .iter()
        .take_while(|s| s.name.starts_with("coarse"))
        .collect();
    assert!(sweep.len() >= 3, "{:?}", p.stages);
    for (k, (a, b)) in sweep.iter().zip(&sweep[1..]).enumerate() {
        assert_eq!(a.name, format!("coarse {}", k + 1));
        assert_eq!(b.candidates, a.candidates / 2, "{:?}", p.stages);
        assert!(b.samples >= a.samples, "{:?}", p.stages);
    }
    assert!(sweep.last().unwrap().candidates >= 16);
    let swept: u64 = sweep
        .iter()
        .map(|s| s.candidates as u64 * u64::from(s.samples))
        .sum();
    assert!(swept <= 6000, "{:?}", p.stages);
    assert!(p.samples_used <= 20_000);
    // The heat map has a stage of its own after a sweep that halves (its first round
    // gives a cell a sample or two): every legal cell, the same samples, more than the
    // first round's, at most 2.5 % of the budget in all.
    let grid = p.grid.unwrap();
    let map = p.stages[sweep.len()].clone();
    assert_eq!(map.name, "grid", "{:?}", p.stages);
    let legal = grid.value.iter().flatten().filter(|v| v.is_some()).count();
    assert_eq!(map.candidates, legal);
    assert_eq!(map.samples, grid.samples);
    assert!(grid.samples > sweep[0].samples, "{:?}", p.stages);
    assert!(map.candidates as u64 * u64::from(map.samples) <= 20_000 / 40);
    let small = plan(discs, Ruleset::Traditional, SMALL, &config(3000, 1));
    assert_eq!(small.stages[0].name, "coarse");
    assert_eq!(small.stages[1].name, "refine 1");
    assert_eq!(small.grid.unwrap().samples, small.stages[0].samples);
}

#[test]
fn the_planner_strategy_plays_legal_shots() {
    let noise = SMALL;
    let config = PlayConfig {
        board: Board::tournament(),
        physics: Physics::default(),
        players: 2,
        ruleset: Ruleset::Tournament,
        strategies: vec![
            Box::new(AnyStrategy::parse("planner:budget=1000", noise).unwrap())
                as Box<dyn Strategy>,
            Box::new("greedy:k=4".parse::<AnyStrategy>().unwrap()),
        ],
        noise,
        seed: 1,
        max_rounds: 1,
    };
    config.check().unwrap();
    let log = pool(2).install(|| config.play(0)).unwrap();
    assert_eq!(log.shots.len(), 16);
    let planned: Vec<_> = log.shots.iter().filter(|s| s.seat == 0).collect();
    assert!(
        planned
            .iter()
            .all(|s| s.value.is_some() && s.candidates > 0)
    );
    assert_eq!(log.seats[0].strategy, "planner:budget=1000:spin=0");
    let again = pool(1).install(|| config.play(0)).unwrap();
    assert_eq!(game_log_json(&log), game_log_json(&again));
}

#[test]
fn bad_requests_are_refused_with_the_field_named() {
    let ok = Request::new(small_noise_at_seat_0(), Ruleset::Traditional);
    let refuse =
        |request: &Request, config: &PlanConfig| suggest(request, config).unwrap_err().field;
    // `ok` with its situation changed by `change`.
    let with = |change: &dyn Fn(&mut Situation)| {
        let mut r = ok.clone();
        change(&mut r.situation);
        r
    };
    let c = config(3000, 1);
    assert_eq!(refuse(&with(&|s| s.seat = 1), &c), "seat");
    assert_eq!(refuse(&with(&|s| s.players = 3), &c), "players");
    let nan = Noise {
        aim: f64::NAN,
        ..SMALL
    };
    assert_eq!(refuse(&with(&|s| s.noise = nan), &c), "noise.aim");
    let mut space = ok.space.clone();
    space.speed = [0.0, 1.0];
    assert_eq!(
        refuse(
            &Request {
                space,
                ..ok.clone()
            },
            &c
        ),
        "search.speed"
    );
    let overlap = vec![
        Placed {
            team: 1,
            pos: DVec2::new(0.1, 0.1),
        },
        Placed {
            team: 1,
            pos: DVec2::new(0.1, 0.11),
        },
    ];
    assert_eq!(
        refuse(&with(&|s| s.discs = overlap.clone()), &c),
        "discs[1].pos"
    );
    assert_eq!(refuse(&ok, &config(3000, 0)), "top");
    assert_eq!(refuse(&ok, &config(999, 1)), "budget");
    let seconds = PlanConfig {
        budget: Budget::Seconds(f64::NAN),
        ..c
    };
    assert_eq!(refuse(&ok, &seconds), "budget");
    for bad in ["0", "abc", "-3", "0s", "nans", "1e9s", "3 m"] {
        assert!(bad.parse::<Budget>().is_err(), "{bad}");
    }
    assert_eq!("3s".parse::<Budget>(), Ok(Budget::Seconds(3.0)));
    assert_eq!("20000".parse::<Budget>(), Ok(Budget::Samples(20000)));
    assert!("draw".parse::<Objective>().is_err());
    // Suggest files: the ruleset, a flick (the planner chooses it), the search block.
    for (text, field) in [
        (r#"{"seat": 0, "ruleset": "NCA"}"#, "ruleset"),
        (r#"{"seat": 0, "flick": {"speed": 1.0}}"#, "flick"),
        (r#"{"seat": 0, "search": {"spin": []}}"#, "search.spin"),
        (
            r#"{"seat": 0, "search": {"offset": [0.0, 0.5]}}"#,
            "search.offset",
        ),
        (r#"{"seat": 0, "noise": {"speed": 2}}"#, "noise.speed"),
        (
            r#"{"seat": 2, "players": 4, "discs": [{"team": 2, "pos": [0, 0.1]}]}"#,
            "discs[0].team",
        ),
    ] {
        assert_eq!(parse_suggest_file(text).unwrap_err().field, field, "{text}");
    }
}

#[test]
fn a_hanger_is_a_board_disc_to_the_planner() {
    // An opponent's disc resting 1 mm outside the hole's support window, overhanging the
    // hole (a hanger, 8.3 mm from its centre): legal, aimed at as a disc, and it must be hit
    // (the must-hit rule), so the best flick hits it.
    let rh = Board::tournament().hole_radius;
    let r = 0.015_875;
    let d = (rh * rh - r * r).sqrt() + 0.001;
    let discs = vec![Placed {
        team: 1,
        pos: DVec2::new(0.0, d),
    }];
    let p = plan(discs, Ruleset::Traditional, SMALL, &config(3000, 5));
    assert!(
        p.top
            .iter()
            .any(|c| c.aim_at == AimAt::Disc { id: 0, team: 1 }),
        "{p:?}"
    );
    assert!(p.top[0].hit_opponent.p > 0.9, "{:?}", p.top[0]);
}

#[test]
fn aims_at_name_their_targets() {
    let discs = vec![
        Placed {
            team: 1,
            pos: DVec2::new(0.1, -0.14),
        },
        Placed {
            team: 0,
            pos: DVec2::new(-0.12, 0.05),
        },
    ];
    let p = plan(discs, Ruleset::Traditional, SMALL, &config(3000, 5));
    // One per family first: five different things aimed at.
    for (k, a) in p.top.iter().enumerate() {
        for b in &p.top[k + 1..] {
            assert!(a.aim_at != b.aim_at || a.aim_at == AimAt::Straight, "{p:?}");
        }
        if let AimAt::Disc { id, team } = a.aim_at {
            assert_eq!(team, [1, 0][id], "disc {id} is of team {}", [1, 0][id]);
        }
    }
}

#[test]
fn the_golden_plan_is_unchanged() {
    let text = std::fs::read_to_string(fixture_path("takeout.json")).unwrap();
    let f = parse_suggest_file(&text).unwrap();
    let cfg = PlanConfig {
        seed: 2024,
        ..config(3000, 3)
    };
    let actual = plan_json(&suggest(&f, &cfg).unwrap());
    let path = fixture_path("golden-takeout-plan.json");
    golden_file::check(
        &path,
        &actual,
        "The plan of fixtures/suggest/takeout.json (seed 2024, budget 3000, top 3)",
        "plan",
        "the physics, the rules, the noise model or the planner",
    );
}

/// The replayed values of the top flicks of `file` planned with seeds `0..seeds` at
/// `budget`: each top flick studied with fresh draws (4000 samples, seed 999).
fn replayed_tops(file: &str, budget: u64, seeds: u64) -> Vec<f64> {
    let text = std::fs::read_to_string(fixture_path(file)).unwrap();
    let request = parse_suggest_file(&text).unwrap();
    (0..seeds)
        .map(|seed| {
            let config = PlanConfig {
                budget: Budget::Samples(budget),
                seed,
                ..PlanConfig::default()
            };
            let plan = suggest(&request, &config).unwrap();
            let study = Study::new(StudySpec {
                situation: request.situation.clone(),
                flick: plan.top[0].flick,
                ruleset: Some(request.ruleset),
            })
            .unwrap();
            let summary = study
                .tally(&Sampling::new(999, 4000, None).unwrap())
                .summary()
                .unwrap();
            summary.score_change.mean
        })
        .collect()
}

/// The planner is steady: four seeds pick top flicks whose values, replayed with fresh
/// draws, lie close together. On `guarded.json` (four discs, a budget of 8000) within 0.5
/// points, each a takeout of a 15 (+40 and more). On `spread/4p-seat2-guard.json` (the
/// default budget) within 0.5 points, each a takeout worth more than +29 from 80 mm right
/// of the middle, a place the coarse sweep starts from only since it covers the line
/// with 13 places: before, six seeds of eight stopped at +15.0 to +15.7 and two found
/// +17.6 and +18.6. On `takeout.json` (the default budget) within 0.25 points, each the
/// cut from 59 mm left of the middle worth more than +26.4 (the search with 3 places
/// never found it and kept a thin cut worth +25.9; with 13 places but no halving of the
/// steps on a plateau at the widest steps, half the seeds found it and one stopped 3 mm
/// from it, at +25.67). The full measurement (8 seeds at the default budget, 26
/// positions) is `examples/planner_spread.rs`.
#[test]
fn the_top_flick_is_steady_across_seeds() {
    let spread = |v: &[f64]| {
        let min = v.iter().copied().fold(f64::INFINITY, f64::min);
        let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (min, max - min)
    };
    let guarded = replayed_tops("guarded.json", 8000, 4);
    let (min, width) = spread(&guarded);
    assert!(width <= 0.5, "replayed values {guarded:?}");
    assert!(min > 40.0, "replayed values {guarded:?}");
    let four = replayed_tops("spread/4p-seat2-guard.json", DEFAULT_BUDGET, 4);
    let (min, width) = spread(&four);
    assert!(width <= 0.5, "replayed values {four:?}");
    assert!(min > 29.0, "replayed values {four:?}");
    let takeout = replayed_tops("takeout.json", DEFAULT_BUDGET, 4);
    let (min, width) = spread(&takeout);
    assert!(width <= 0.25, "replayed values {takeout:?}");
    assert!(min > 26.4, "replayed values {takeout:?}");
}
