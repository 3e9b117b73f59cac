//! Shot verdicts: one test per rule of `docs/rules-reference.md`, on crafted positions whose
//! outcome does not depend on luck. Pure rule tests hand-build the engine's [`Outcome`]
//! (final discs and event log); a few run the real physics on straight shots along seat 0's
//! centreline, which passes between the pegs and whose slide is closed-form.

use crokinole::rules::{
    RemovalReason, Removed, Rule, Ruleset, ShotVerdict, Twenty, apply_rules, board_score, contacts,
    judge_shot,
};
use crokinole::{
    Board, Disc, DiscId, DiscState, Event, EventKind, Flick, Outcome, Physics, Placed, Shot,
};
use glam::DVec2;

/// Tournament disc radius, m.
const R: f64 = 0.015_875;
/// Tournament disc mass, kg.
const M: f64 = 0.0055;

fn board() -> Board {
    Board::tournament()
}

fn physics() -> Physics {
    Physics::default()
}

/// Seat 0's spot on the shooting line, straight below the centre.
fn seat0_spot() -> DVec2 {
    DVec2::new(0.0, -board().shooting_line_radius)
}

fn placed(team: u8, x: f64, y: f64) -> Placed {
    Placed {
        team,
        pos: DVec2::new(x, y),
    }
}

/// Seat 0 (team 0) flicking straight up at `speed` from its spot.
fn flick_up(speed: f64) -> Flick {
    Flick {
        team: 0,
        pos: seat0_spot(),
        vel: DVec2::new(0.0, speed),
        spin: 0.0,
    }
}

/// Speed that makes a disc without spin slide `d` metres before stopping: sqrt(2 mu g d).
fn speed_for(d: f64) -> f64 {
    let p = physics();
    (2.0 * p.board_friction * p.gravity * d).sqrt()
}

fn at(team: u8, x: f64, y: f64, state: DiscState) -> Disc {
    let mut d = Disc::at_rest(team, DVec2::new(x, y), R, M);
    d.state = state;
    d
}

fn rest(team: u8, x: f64, y: f64) -> Disc {
    at(team, x, y, DiscState::Rest)
}

fn hole(team: u8) -> Disc {
    at(team, 0.0, -0.01, DiscState::Hole)
}

fn ditch(team: u8, x: f64, y: f64) -> Disc {
    at(team, x, y, DiscState::Ditch)
}

fn disc_ev(t: f64, a: DiscId, b: DiscId) -> Event {
    Event {
        t,
        kind: EventKind::Disc {
            a: a.min(b),
            b: a.max(b),
        },
    }
}

fn peg_ev(t: f64, a: DiscId, peg: usize) -> Event {
    Event {
        t,
        kind: EventKind::Peg { a, peg },
    }
}

fn outcome(discs: Vec<Disc>, events: Vec<Event>) -> Outcome {
    Outcome {
        discs,
        events,
        steps: 0,
        time: 0.0,
        cut_off: false,
        limit: None,
        capped_steps: 0,
    }
}

/// The rules applied for seat 0 (team 0) of a two-player game to a hand-built outcome of a
/// shot from seat 0's spot with discs `before` at rest.
fn judge(
    ruleset: Ruleset,
    before: Vec<Placed>,
    after: Vec<Disc>,
    events: Vec<Event>,
) -> ShotVerdict {
    let shot = Shot {
        discs: before,
        shooter: flick_up(1.0),
    };
    let v = apply_rules(
        &board(),
        &physics(),
        &shot,
        &outcome(after, events),
        0,
        2,
        ruleset,
    )
    .unwrap();
    assert_partition(&v);
    v
}

/// The real physics and the rules, seat 0 of a two-player game.
fn judge_real(ruleset: Ruleset, before: &[Placed], speed: f64) -> ShotVerdict {
    let v = judge_shot(&board(), &physics(), before, 0, 2, ruleset, flick_up(speed)).unwrap();
    assert_partition(&v);
    v
}

/// Every disc of the shot is in exactly one of position, twenties and removed.
fn assert_partition(v: &ShotVerdict) {
    let mut ids: Vec<DiscId> = v.position.iter().map(|d| d.id).collect();
    ids.extend(v.twenties.iter().map(|t| t.id));
    ids.extend(v.removed.iter().map(|r| r.id));
    ids.sort();
    assert_eq!(ids, (0..=v.shooter).collect::<Vec<_>>(), "{v:?}");
}

fn removed(id: DiscId, team: u8, reason: RemovalReason) -> Removed {
    Removed { id, team, reason }
}

fn position_ids(v: &ShotVerdict) -> Vec<DiscId> {
    v.position.iter().map(|d| d.id).collect()
}

// ---------------------------------------------------------------- opening rule

#[test]
fn opening_shot_resting_in_the_15_zone_stays() {
    // Stops 6 cm below the centre: wholly inside the 15 line.
    for ruleset in Ruleset::ALL {
        let v = judge_real(ruleset, &[], speed_for(board().shooting_line_radius - 0.06));
        assert_eq!(
            (v.rule, v.rule_met, v.opponents_on_board),
            (Rule::Opening, true, false)
        );
        assert!(v.removed.is_empty() && v.twenties.is_empty(), "{v:?}");
        assert_eq!(position_ids(&v), [0]);
        assert_eq!((v.position[0].points, v.board_score), (15, [15, 0]));
    }
}

#[test]
fn opening_shot_resting_in_the_10_zone_is_removed() {
    // Stops 15 cm below the centre: in the 10 zone, not touching the 15 line. Traditional
    // (the seeds' wording) removes it; so does the tournament rule, nothing else being struck.
    for ruleset in Ruleset::ALL {
        let v = judge_real(ruleset, &[], speed_for(board().shooting_line_radius - 0.15));
        assert_eq!((v.rule, v.rule_met), (Rule::Opening, false));
        assert_eq!(v.removed, [removed(0, 0, RemovalReason::OpeningRule)]);
        assert!(v.position.is_empty());
        assert_eq!(v.board_score, [0, 0]);
    }
}

#[test]
fn opening_shot_touching_the_15_line_counts_and_one_just_outside_does_not() {
    let b = board();
    let touching = b.fifteen_line_radius + 0.5 * b.line_width + R;
    let v = judge(
        Ruleset::Traditional,
        vec![],
        vec![rest(0, 0.0, -touching)],
        vec![],
    );
    assert!(v.rule_met);
    assert_eq!(v.position[0].points, 10, "touching the 15 line scores 10");
    let v = judge(
        Ruleset::Traditional,
        vec![],
        vec![rest(0, 0.0, -(touching + 1e-6))],
        vec![],
    );
    assert!(!v.rule_met);
    assert_eq!(v.removed, [removed(0, 0, RemovalReason::OpeningRule)]);
}

#[test]
fn opening_shot_into_the_20_hole_is_valid_and_set_aside() {
    for ruleset in Ruleset::ALL {
        let v = judge_real(ruleset, &[], 0.85);
        assert_eq!((v.rule, v.rule_met), (Rule::Opening, true));
        assert_eq!(v.twenties, [Twenty { id: 0, team: 0 }]);
        assert!(v.position.is_empty() && v.removed.is_empty());
    }
}

#[test]
fn tournament_opening_shot_is_rescued_by_a_struck_disc_and_traditional_is_not() {
    // An own disc rests in the 10 zone straight ahead. The shooter hits it head-on: the
    // struck disc slides on into the 15 zone (6 cm below the centre), the shooter stops in
    // the 10 zone (15.7 cm).
    let before = [placed(0, 0.0, -0.13)];
    let v = judge_real(Ruleset::Tournament, &before, 0.7709);
    assert_eq!(v.struck, [0]);
    assert!(v.position[0].pos.length() < 0.07, "{v:?}");
    assert!(v.position[1].pos.length() > 0.15, "{v:?}");
    assert_eq!((v.rule, v.rule_met), (Rule::Opening, true));
    assert!(v.removed.is_empty());
    assert_eq!(v.board_score, [25, 0]);

    // Traditional: only the shooting disc counts; it alone is removed, the struck disc stays.
    let v = judge_real(Ruleset::Traditional, &before, 0.7709);
    assert_eq!((v.rule, v.rule_met), (Rule::Opening, false));
    assert_eq!(v.removed, [removed(1, 0, RemovalReason::OpeningRule)]);
    assert_eq!(position_ids(&v), [0]);
    assert_eq!(v.board_score, [15, 0]);
}

#[test]
fn tournament_opening_failure_removes_the_shooter_and_every_disc_it_struck() {
    // The shooter knocks an own disc from the 15 zone into the 10 zone and stops in the
    // 10 zone itself; an own disc it never touched stays.
    let before = vec![placed(0, 0.0, -0.08), placed(0, 0.15, 0.0)];
    let after = vec![rest(0, 0.0, -0.13), rest(0, 0.15, 0.0), rest(0, 0.0, -0.17)];
    let events = vec![disc_ev(0.2, 0, 2)];
    let v = judge(
        Ruleset::Tournament,
        before.clone(),
        after.clone(),
        events.clone(),
    );
    assert_eq!(
        (v.rule, v.rule_met, v.struck.clone()),
        (Rule::Opening, false, vec![0])
    );
    assert_eq!(
        v.removed,
        [
            removed(0, 0, RemovalReason::OpeningRule),
            removed(2, 0, RemovalReason::OpeningRule)
        ]
    );
    assert_eq!(position_ids(&v), [1]);
    // Traditional removes the shooting disc only.
    let v = judge(Ruleset::Traditional, before, after, events);
    assert_eq!(v.removed, [removed(2, 0, RemovalReason::OpeningRule)]);
    assert_eq!(position_ids(&v), [0, 1]);
}

#[test]
fn tournament_opening_shot_is_rescued_by_a_struck_disc_dropping_into_the_20() {
    let before = vec![placed(0, 0.0, -0.05)];
    let after = vec![hole(0), rest(0, 0.0, -0.17)];
    let v = judge(Ruleset::Tournament, before, after, vec![disc_ev(0.2, 0, 1)]);
    assert!(v.rule_met);
    assert_eq!(v.twenties, [Twenty { id: 0, team: 0 }]);
    assert_eq!(position_ids(&v), [1]);
}

#[test]
fn partner_discs_do_not_count_as_opponents() {
    // Four players: seat 2 is seat 0's partner. Its disc on the board leaves the opening
    // rule in force.
    let shot = Shot {
        discs: vec![placed(0, 0.1, 0.0)],
        shooter: flick_up(1.0),
    };
    let out = outcome(vec![rest(0, 0.1, 0.0), rest(0, 0.0, -0.15)], vec![]);
    let v = apply_rules(
        &board(),
        &physics(),
        &shot,
        &out,
        0,
        4,
        Ruleset::Traditional,
    )
    .unwrap();
    assert_eq!(
        (v.opponents_on_board, v.rule, v.rule_met),
        (false, Rule::Opening, false)
    );
}

// ---------------------------------------------------------------- must-hit rule

#[test]
fn must_hit_miss_removes_the_shooter_and_its_teams_struck_discs() {
    // An opponent disc sits at the side; the shooter strikes two own discs in a chain and
    // never reaches the opponent. An own disc it did not touch stays.
    let before = vec![
        placed(1, 0.15, 0.0),
        placed(0, 0.0, -0.2),
        placed(0, 0.0, -0.1),
        placed(0, -0.15, 0.0),
    ];
    let after = vec![
        rest(1, 0.15, 0.0),
        rest(0, 0.0, -0.15),
        rest(0, 0.0, -0.05),
        rest(0, -0.15, 0.0),
        rest(0, 0.0, -0.22),
    ];
    let events = vec![disc_ev(0.1, 4, 1), disc_ev(0.2, 1, 2)];
    for ruleset in Ruleset::ALL {
        let v = judge(ruleset, before.clone(), after.clone(), events.clone());
        assert_eq!(
            (v.rule, v.rule_met, v.opponents_on_board),
            (Rule::MustHit, false, true)
        );
        assert!(!v.hit_opponent);
        assert_eq!(v.struck, [1, 2]);
        assert_eq!(
            v.removed,
            [
                removed(1, 0, RemovalReason::MustHit),
                removed(2, 0, RemovalReason::MustHit),
                removed(4, 0, RemovalReason::MustHit),
            ]
        );
        assert_eq!(position_ids(&v), [0, 3]);
        assert_eq!(v.board_score, [10, 10]);
    }
}

#[test]
fn must_hit_miss_into_the_20_hole_scores_nothing() {
    let before = vec![placed(1, 0.15, 0.0)];
    let after = vec![rest(1, 0.15, 0.0), hole(0)];
    for ruleset in Ruleset::ALL {
        let v = judge(ruleset, before.clone(), after.clone(), vec![]);
        assert!(!v.rule_met);
        assert!(v.twenties.is_empty());
        assert_eq!(v.removed, [removed(1, 0, RemovalReason::MustHit)]);
    }
}

#[test]
fn must_hit_miss_traditional_keeps_an_own_20_tournament_removes_it() {
    // The shooter knocks an own disc into the hole without touching the opponent.
    let before = vec![placed(1, 0.15, 0.0), placed(0, 0.0, -0.05)];
    let after = vec![rest(1, 0.15, 0.0), hole(0), rest(0, 0.0, -0.1)];
    let events = vec![disc_ev(0.2, 2, 1)];
    let v = judge(
        Ruleset::Traditional,
        before.clone(),
        after.clone(),
        events.clone(),
    );
    assert!(!v.rule_met);
    assert_eq!(v.twenties, [Twenty { id: 1, team: 0 }]);
    assert_eq!(v.removed, [removed(2, 0, RemovalReason::MustHit)]);
    let v = judge(Ruleset::Tournament, before, after, events);
    assert!(v.twenties.is_empty());
    assert_eq!(
        v.removed,
        [
            removed(1, 0, RemovalReason::MustHit),
            removed(2, 0, RemovalReason::MustHit)
        ]
    );
}

#[test]
fn a_direct_hit_meets_the_must_hit_rule_and_keeps_everything() {
    let before = vec![placed(1, 0.0, -0.1)];
    let after = vec![rest(1, 0.0, 0.05), rest(0, 0.0, -0.12)];
    for ruleset in Ruleset::ALL {
        let v = judge(
            ruleset,
            before.clone(),
            after.clone(),
            vec![disc_ev(0.2, 1, 0)],
        );
        assert_eq!(
            (v.rule, v.rule_met, v.hit_opponent),
            (Rule::MustHit, true, true)
        );
        assert!(v.removed.is_empty());
        assert_eq!(v.board_score, [10, 15]);
    }
}

#[test]
fn a_hit_off_a_peg_counts() {
    // The shooter ricochets off peg 5 and then touches the opponent.
    let before = vec![placed(1, 0.12, -0.02)];
    let after = vec![rest(1, 0.16, -0.02), rest(0, 0.09, -0.06)];
    let events = vec![peg_ev(0.15, 1, 5), disc_ev(0.3, 1, 0)];
    for ruleset in Ruleset::ALL {
        let v = judge(ruleset, before.clone(), after.clone(), events.clone());
        assert!(v.rule_met && v.hit_opponent, "{v:?}");
        assert!(v.removed.is_empty());
    }
    // A peg contact alone is no hit.
    let v = judge(
        Ruleset::Traditional,
        before,
        after,
        vec![peg_ev(0.15, 1, 5)],
    );
    assert!(!v.rule_met);
}

#[test]
fn a_hit_through_an_own_disc_counts() {
    // Real physics: the shooter drives an own disc (10 zone) into an opponent disc
    // (15 zone) straight ahead, which drops into the 20 hole: a 20 for the opponent.
    let before = [placed(0, 0.0, -0.2), placed(1, 0.0, -0.12)];
    for ruleset in Ruleset::ALL {
        let v = judge_real(ruleset, &before, 1.0);
        assert_eq!(v.struck, [0, 1]);
        assert!(v.hit_opponent && v.rule_met, "{v:?}");
        assert!(v.removed.is_empty());
        assert_eq!(v.twenties, [Twenty { id: 1, team: 1 }]);
        assert_eq!(position_ids(&v), [0, 2]);
    }
}

#[test]
fn contact_judgement_follows_chains_in_time_order() {
    // Discs: 0 own, 1 opponent, 2 own, 3 opponent; 4 the shooter (team 0).
    let teams = [0, 1, 0, 1, 0];
    // Through two own discs: a hit.
    let c = contacts(
        &teams,
        4,
        &[disc_ev(0.1, 4, 0), disc_ev(0.2, 0, 2), disc_ev(0.3, 2, 3)],
    );
    assert!(c.hit_opponent);
    assert_eq!(c.struck, [0, 2, 3]);
    // The own disc touched the opponent before the shooter reached it: no hit.
    let c = contacts(&teams, 4, &[disc_ev(0.1, 0, 1), disc_ev(0.2, 4, 0)]);
    assert!(!c.hit_opponent);
    assert_eq!(c.struck, [0]);
    // A chain through an opponent disc to another disc: the opponent was hit, and what it
    // moved is struck too.
    let c = contacts(&teams, 4, &[disc_ev(0.1, 4, 1), disc_ev(0.2, 1, 2)]);
    assert!(c.hit_opponent);
    assert_eq!(c.struck, [1, 2]);
    // Own discs only, none of which touches an opponent: no hit, both struck.
    let c = contacts(&teams, 4, &[disc_ev(0.1, 4, 0), disc_ev(0.2, 0, 2)]);
    assert!(!c.hit_opponent);
    assert_eq!(c.struck, [0, 2]);
    // Peg, hole and ditch events pass nothing on.
    let events = [
        peg_ev(0.1, 4, 0),
        Event {
            t: 0.2,
            kind: EventKind::Hole { a: 4 },
        },
    ];
    assert_eq!(contacts(&teams, 4, &events), Default::default());
}

// ---------------------------------------------------------------- after every shot

#[test]
fn a_disc_resting_on_the_shooting_line_is_removed() {
    // The shooter knocks the opponent back until it rests touching the shooting line from
    // inside; an own disc just inside the line's reach stays and scores 5.
    let b = board();
    let touching = b.shooting_line_radius - 0.5 * b.line_width - R + 1e-6;
    let inside = b.shooting_line_radius - 0.5 * b.line_width - R - 1e-9;
    let before = vec![placed(1, 0.0, 0.1), placed(0, -inside, 0.0)];
    let after = vec![
        rest(1, 0.0, touching),
        rest(0, -inside, 0.0),
        rest(0, 0.0, 0.05),
    ];
    let v = judge(
        Ruleset::Traditional,
        before,
        after,
        vec![disc_ev(0.3, 2, 0)],
    );
    assert!(v.rule_met);
    assert_eq!(
        v.removed,
        [removed(0, 1, RemovalReason::OnOrBeyondShootingLine)]
    );
    assert_eq!(v.board_score, [20, 0]);
}

#[test]
fn a_shot_that_stops_on_its_own_shooting_line_is_removed() {
    // Real physics: a nudge of 1 cm from the line. On an empty board the opening rule
    // removes it first; with an opponent hit elsewhere it would be the line.
    let v = judge_real(Ruleset::Traditional, &[], speed_for(0.01));
    assert_eq!(v.removed, [removed(0, 0, RemovalReason::OpeningRule)]);
    let shot = Shot {
        discs: vec![placed(1, 0.0, -0.25)],
        shooter: flick_up(1.0),
    };
    let out = outcome(
        vec![rest(1, 0.0, -0.22), rest(0, 0.0, -0.2950)],
        vec![disc_ev(0.01, 1, 0)],
    );
    let v = apply_rules(
        &board(),
        &physics(),
        &shot,
        &out,
        0,
        2,
        Ruleset::Traditional,
    )
    .unwrap();
    assert_eq!(
        v.removed,
        [removed(1, 0, RemovalReason::OnOrBeyondShootingLine)]
    );
}

#[test]
fn a_twenty_is_set_aside_at_once() {
    // The shooter hits the opponent into the hole and stays in the 15 zone: a 20 for the
    // opponent's team, gone from the position at once.
    let before = vec![placed(1, 0.0, -0.05)];
    let after = vec![hole(1), rest(0, 0.0, -0.07)];
    let v = judge(
        Ruleset::Traditional,
        before,
        after,
        vec![disc_ev(0.2, 1, 0)],
    );
    assert_eq!(v.twenties, [Twenty { id: 0, team: 1 }]);
    assert_eq!(v.twenties_per_team(), [0, 1]);
    assert_eq!(position_ids(&v), [1]);
    assert_eq!(v.remaining(), [placed(0, 0.0, -0.07)]);
    assert_eq!(v.board_score, [15, 0]);
}

#[test]
fn a_ditched_disc_is_out() {
    let before = vec![placed(1, 0.0, -0.25)];
    let after = vec![ditch(1, 0.0, 0.33), rest(0, 0.0, -0.1)];
    let v = judge(Ruleset::Tournament, before, after, vec![disc_ev(0.2, 1, 0)]);
    assert!(v.rule_met);
    assert_eq!(v.removed, [removed(0, 1, RemovalReason::Ditch)]);
    // The shooter in the ditch after a miss is listed as ditched, not as removed by the rule.
    let before = vec![placed(1, 0.0, 0.1)];
    let after = vec![rest(1, 0.0, 0.1), ditch(0, 0.2, 0.25)];
    let v = judge(Ruleset::Traditional, before, after, vec![]);
    assert!(!v.rule_met);
    assert_eq!(v.removed, [removed(1, 0, RemovalReason::Ditch)]);
}

/// The hole's support window for a tournament disc: sqrt(r_h^2 - R^2), 7.27 mm.
fn window() -> f64 {
    let rh = board().hole_radius;
    (rh * rh - R * R).sqrt()
}

#[test]
fn a_hanger_stays_and_scores_15_and_a_disc_inside_the_window_is_a_20() {
    // Real physics, along the centreline: a shooter stopping 0.5 mm outside the support
    // window rests overhanging the hole (a hanger): it stays and scores 15. Stopping
    // 0.5 mm inside, it tips in: a 20.
    let b = board();
    let stop = window() + 0.0005;
    let v = judge_real(
        Ruleset::Traditional,
        &[],
        speed_for(b.shooting_line_radius - stop),
    );
    assert!(v.twenties.is_empty() && v.removed.is_empty(), "{v:?}");
    let r = v.position[0].pos.length();
    assert!(r > window() && r < b.hole_radius, "a hanger: r = {r}");
    assert!(
        v.rule_met,
        "a hanger meets the opening rule (it is in the 15 zone)"
    );
    assert_eq!((v.position[0].points, v.board_score), (15, [15, 0]));

    let stop = window() - 0.0005;
    let v = judge_real(
        Ruleset::Traditional,
        &[],
        speed_for(b.shooting_line_radius - stop),
    );
    assert!(v.rule_met && v.position.is_empty(), "{v:?}");
    assert_eq!(v.twenties, [Twenty { id: 0, team: 0 }]);
}

#[test]
fn a_resting_hanger_is_a_board_disc_in_the_15_zone() {
    // Placed before the shot, 1 mm outside the window: accepted, scored 15 for its team,
    // and the shot (short of it) leaves it there.
    let hanger = placed(1, 0.0, window() + 0.001);
    let v = judge_real(Ruleset::Traditional, &[hanger], speed_for(0.1));
    let kept = v
        .position
        .iter()
        .find(|d| d.id == 0)
        .expect("the hanger stays");
    assert_eq!((kept.pos, kept.points), (hanger.pos, 15));
    assert_eq!(board_score(&board(), R, &[hanger]), [0, 15]);
}

#[test]
fn a_hanger_used_as_a_backboard_makes_a_20() {
    // An opponent's hanger just beyond the hole on the shooter's line (3 mm right of the
    // centre): a shot entering the window a little above its critical speed (0.343 m/s at
    // 3 mm) would ride over, but strikes the hanger with its centre inside the window, stops
    // there and drops in. The hit meets the must-hit rule: the 20 counts.
    let b = board();
    let x = 0.003;
    let y0 = -(b.shooting_line_radius * b.shooting_line_radius - x * x).sqrt();
    let to_window = -y0 - (window() * window() - x * x).sqrt();
    let entry: f64 = 0.36;
    let flick = Flick {
        team: 0,
        pos: DVec2::new(x, y0),
        vel: DVec2::new(0.0, (entry * entry + speed_for(to_window).powi(2)).sqrt()),
        spin: 0.0,
    };
    let judge = |before: &[Placed]| {
        let v = judge_shot(&b, &physics(), before, 0, 2, Ruleset::Traditional, flick).unwrap();
        assert_partition(&v);
        v
    };
    let alone = judge(&[]);
    assert!(
        alone.twenties.is_empty(),
        "without the hanger it rides over: {alone:?}"
    );
    let hanger = placed(1, x, -0.002 + 2.0 * R);
    assert!(
        hanger.pos.length() - R < b.hole_radius,
        "it overhangs the hole"
    );
    let v = judge(&[hanger]);
    assert!(v.rule_met && v.hit_opponent, "{v:?}");
    assert_eq!(v.twenties, [Twenty { id: 1, team: 0 }], "{v:?}");
}

#[test]
fn a_hanger_is_always_wholly_inside_the_15_line_of_a_tournament_board() {
    // A disc overhangs the hole when its centre is within r_h + R of the hole's centre, so
    // its far edge is at most r_h + 2 R = 49.2 mm out: far inside the 15 line (100.8 mm
    // less half a line width). On a board whose 15 line is drawn close to the hole, a hanger
    // can touch it and then scores the lower value.
    let b = board();
    let farthest = DVec2::new(b.hole_radius + R - 1e-9, 0.0);
    assert_eq!(b.zone(farthest, R), crokinole::Zone::Fifteen);
    let small = Board {
        fifteen_line_radius: 0.04,
        ..board()
    };
    let hanger = DVec2::new(0.0, -0.025);
    assert!(
        hanger.length() - R < small.hole_radius,
        "it overhangs the hole"
    );
    assert!(small.touches_fifteen_line(hanger, R));
    assert_eq!(small.zone(hanger, R), crokinole::Zone::Ten);
    assert_eq!(
        board_score(&small, R, &[placed(0, hanger.x, hanger.y)]),
        [10, 0]
    );
}

// ---------------------------------------------------------------- scoring

#[test]
fn scoring_on_lines_takes_the_lower_value() {
    let b = board();
    let w2 = 0.5 * b.line_width;
    let discs = [
        // wholly inside the 15 line: 15
        placed(0, b.fifteen_line_radius - w2 - R - 1e-9, 0.0),
        // touching the 15 line: 10
        placed(0, 0.0, b.fifteen_line_radius - w2 - R + 1e-6),
        // wholly inside the 10 line: 10
        placed(1, 0.0, -(b.ten_line_radius - w2 - R - 1e-9)),
        // touching the 10 line: 5
        placed(1, -(b.ten_line_radius - w2 - R + 1e-6), 0.0),
        // touching the shooting line: 0 (it would be removed)
        placed(1, 0.2, -0.25),
    ];
    assert_eq!(board_score(&b, R, &discs), [25, 15]);
}

// ---------------------------------------------------------------- refusals and format

#[test]
fn judge_shot_refuses_an_illegal_placement_before_any_physics() {
    let mut f = flick_up(1.0);
    // 0.308 m from the middle (touching the line) but beyond seat 0's 315 degree line.
    f.pos = DVec2::new(0.25, -0.18);
    let e = judge_shot(&board(), &physics(), &[], 0, 2, Ruleset::Traditional, f).unwrap_err();
    assert_eq!(e.field, "shooter.pos");
    assert!(e.problem.contains("quadrant line at 315 deg"), "{e}");
    // The engine's own checks still apply: a shooter overlapping a disc.
    let e = judge_shot(
        &board(),
        &physics(),
        &[placed(1, 0.0, -0.29)],
        0,
        2,
        Ruleset::Traditional,
        flick_up(1.0),
    )
    .unwrap_err();
    assert_eq!(e.field, "shooter.pos");
    assert!(e.problem.contains("overlaps disc 0"), "{e}");
}

#[test]
fn apply_rules_refuses_an_outcome_of_another_shot() {
    let shot = Shot {
        discs: vec![placed(1, 0.1, 0.0)],
        shooter: flick_up(1.0),
    };
    let out = outcome(vec![rest(0, 0.0, -0.1)], vec![]);
    let e = apply_rules(
        &board(),
        &physics(),
        &shot,
        &out,
        0,
        2,
        Ruleset::Traditional,
    )
    .unwrap_err();
    assert_eq!(e.field, "outcome.discs");
}

#[test]
fn the_verdict_serializes_with_snake_case_fields() {
    let before = vec![placed(1, 0.0, -0.05), placed(1, 0.15, 0.0)];
    let after = vec![hole(1), ditch(1, 0.33, 0.0), rest(0, 0.0, -0.07)];
    let v = judge(
        Ruleset::Tournament,
        before,
        after,
        vec![disc_ev(0.2, 2, 0), disc_ev(0.3, 2, 1)],
    );
    let json = serde_json::to_string(&crokinole::io::Json(&v)).unwrap();
    assert_eq!(
        json,
        r#"{"legal":true,"ruleset":"tournament","seat":0,"team":0,"shooter":2,"opponents_on_board":true,"rule":"must_hit","rule_met":true,"hit_opponent":true,"struck":[0,1],"removed":[{"id":1,"team":1,"reason":"ditch"}],"twenties":[{"id":0,"team":1}],"board_score":[15,0],"position":[{"id":2,"team":0,"pos":[0.0,-0.07],"points":15}]}"#
    );
}
