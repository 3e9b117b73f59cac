//! The game state machine: turns, discs per player, round scoring, who starts each round,
//! the end of a game, refusals. Scoring tests hand the game hand-built outcomes
//! ([`Game::play_outcome`]) so that their results do not depend on luck; full games run
//! the real physics with a scripted (seeded) player and check that the log adds up.

use crokinole::rules::game::splitmix64;
use crokinole::rules::placement::seat_direction;
use crokinole::rules::{
    Game, GameError, GameResult, PlacementError, RoundRecord, Ruleset, ShotRecord, round_points,
};
use crokinole::{Board, Disc, DiscState, Event, EventKind, Flick, Outcome, Physics, Placed};
use glam::DVec2;

const R: f64 = 0.015_875;
const M: f64 = 0.0055;

fn board() -> Board {
    Board::tournament()
}

fn physics() -> Physics {
    Physics::default()
}

/// Where a hand-built shot leaves the shooter.
#[derive(Clone, Copy, Debug)]
enum Fate {
    /// In the 20 hole.
    Hole,
    /// In the ditch.
    Ditch,
    /// At rest here.
    Rest(f64, f64),
}

/// A flick from the middle of `seat`'s quadrant on the shooting line, toward the centre.
fn flick_for(game: &Game, seat: u8) -> Flick {
    let u = seat_direction(seat);
    Flick {
        team: game.team_of(seat).unwrap(),
        pos: u * board().shooting_line_radius,
        vel: -u,
        spin: 0.0,
    }
}

/// Plays the seat whose turn it is with a hand-built outcome: the discs on the board stay
/// where they are and the shooter ends as `fate`. If an opponent disc is on the board the
/// log has the shooter touching it (without moving it), so the must-hit rule is met.
fn play(game: &mut Game, fate: Fate) -> ShotRecord {
    let seat = game.turn().expect("the game is over");
    let f = flick_for(game, seat);
    let shot = game.shot(f);
    let n = shot.discs.len();
    let mut discs: Vec<Disc> = shot
        .discs
        .iter()
        .map(|d| Disc::at_rest(d.team, d.pos, R, M))
        .collect();
    let mut last = Disc::at_rest(f.team, f.pos, R, M);
    match fate {
        Fate::Hole => {
            last.pos = DVec2::new(0.0, 0.0);
            last.state = DiscState::Hole;
        }
        Fate::Ditch => {
            last.pos = -f.pos * 1.1;
            last.state = DiscState::Ditch;
        }
        Fate::Rest(x, y) => last.pos = DVec2::new(x, y),
    }
    discs.push(last);
    let events = shot
        .discs
        .iter()
        .position(|d| d.team != f.team)
        .map(|k| {
            vec![Event {
                t: 0.1,
                kind: EventKind::Disc { a: k, b: n },
            }]
        })
        .unwrap_or_default();
    let out = Outcome {
        discs,
        events,
        steps: 0,
        time: 0.0,
        cut_off: false,
        limit: None,
        capped_steps: 0,
    };
    game.play_outcome(seat, f, &out, &board(), &physics())
        .unwrap()
}

/// Plays one whole round: each team's shots take the next fate of its list, in order, and
/// `Ditch` once the list runs out. Returns the round's shot records.
fn play_round(game: &mut Game, fates: [&[Fate]; 2]) -> Vec<ShotRecord> {
    let round = game.round();
    let mut next = [0, 0];
    let mut records = Vec::new();
    loop {
        let team = usize::from(game.team_of(game.turn().unwrap()).unwrap());
        let fate = fates[team].get(next[team]).copied().unwrap_or(Fate::Ditch);
        next[team] += 1;
        let rec = play(game, fate);
        let done = rec.round_end.is_some();
        assert_eq!(rec.round, round);
        records.push(rec);
        if done {
            return records;
        }
    }
}

fn last_round(records: &[ShotRecord]) -> RoundRecord {
    records.last().unwrap().round_end.unwrap()
}

// ---------------------------------------------------------------- turns and rounds

#[test]
fn two_players_alternate_shots_and_the_first_shot_alternates_each_round() {
    for ruleset in Ruleset::ALL {
        let mut game = Game::new(2, ruleset, 0).unwrap();
        let mut firsts = Vec::new();
        for _ in 0..4 {
            firsts.push(game.round_first_seat());
            let records = play_round(&mut game, [&[], &[]]);
            let seats: Vec<u8> = records.iter().map(|r| r.seat).collect();
            let first = firsts[firsts.len() - 1];
            let expected: Vec<u8> = (0..seats.len())
                .map(|k| (first + 2 * k as u8) % 4)
                .collect();
            assert_eq!(seats, expected, "{ruleset}");
        }
        assert_eq!(firsts, [0, 2, 0, 2], "{ruleset}");
    }
}

#[test]
fn four_players_shoot_clockwise_and_the_first_shot_moves_clockwise_each_round() {
    for ruleset in Ruleset::ALL {
        let mut game = Game::new(4, ruleset, 1).unwrap();
        let mut firsts = Vec::new();
        for _ in 0..4 {
            firsts.push(game.round_first_seat());
            let records = play_round(&mut game, [&[], &[]]);
            let seats: Vec<u8> = records.iter().map(|r| r.seat).collect();
            let first = firsts[firsts.len() - 1];
            let expected: Vec<u8> = (0..seats.len()).map(|k| (first + k as u8) % 4).collect();
            assert_eq!(seats, expected, "{ruleset}");
        }
        assert_eq!(firsts, [1, 2, 3, 0], "{ruleset}");
    }
    // The traditional game goes on (nobody scores) and the rotation continues.
    let mut game = Game::new(4, Ruleset::Traditional, 3).unwrap();
    let firsts: Vec<u8> = (0..6)
        .map(|_| last_round(&play_round(&mut game, [&[], &[]])).first_seat)
        .collect();
    assert_eq!(firsts, [3, 0, 1, 2, 3, 0]);
}

#[test]
fn each_player_shoots_its_discs_each_round() {
    for (players, ruleset, each) in [
        (2, Ruleset::Traditional, 12),
        (4, Ruleset::Traditional, 6),
        (2, Ruleset::Tournament, 8),
        (4, Ruleset::Tournament, 6),
    ] {
        let mut game = Game::new(players, ruleset, 0).unwrap();
        let seats: &[u8] = if players == 2 { &[0, 2] } else { &[0, 1, 2, 3] };
        for &s in seats {
            assert_eq!(game.discs_left(s), each);
        }
        let records = play_round(&mut game, [&[], &[]]);
        assert_eq!(records.len(), usize::from(players) * usize::from(each));
        for &s in seats {
            assert_eq!(
                records.iter().filter(|r| r.seat == s).count(),
                usize::from(each)
            );
        }
        // discs_left counts down for the shooter only.
        let first = &records[0];
        assert_eq!(first.discs_left[0], each - 1);
        assert_eq!(last_round(&records).shots as usize, records.len());
        // The next round deals again.
        for &s in seats {
            assert_eq!(game.discs_left(s), each);
        }
    }
}

// ---------------------------------------------------------------- round scoring

#[test]
fn seeds_example_60_against_35_scores_25() {
    assert_eq!(round_points(Ruleset::Traditional, [60, 35]), [25, 0]);
    assert_eq!(round_points(Ruleset::Traditional, [35, 60]), [0, 25]);
    // The same round played: team 0 sinks three 20s; team 1 rests a disc in the 15 zone
    // and sinks one 20.
    let mut game = Game::new(2, Ruleset::Traditional, 0).unwrap();
    let records = play_round(
        &mut game,
        [
            &[Fate::Hole, Fate::Hole, Fate::Hole],
            &[Fate::Rest(0.0, 0.05), Fate::Hole],
        ],
    );
    let round = last_round(&records);
    assert_eq!(round.twenties, [3, 1]);
    assert_eq!(round.board_score, [0, 15]);
    assert_eq!(round.totals, [60, 35]);
    assert_eq!(round.points, [25, 0]);
    assert_eq!(game.score(), [25, 0]);
    assert_eq!(game.result(), None);
}

#[test]
fn an_equal_round_scores_nothing() {
    assert_eq!(round_points(Ruleset::Traditional, [40, 40]), [0, 0]);
    let mut game = Game::new(2, Ruleset::Traditional, 2).unwrap();
    let records = play_round(&mut game, [&[Fate::Hole], &[Fate::Hole]]);
    assert_eq!(last_round(&records).totals, [20, 20]);
    assert_eq!(game.score(), [0, 0]);
}

#[test]
fn a_twenty_is_set_aside_at_once_and_counted_at_the_round_end() {
    let mut game = Game::new(2, Ruleset::Traditional, 0).unwrap();
    let rec = play(&mut game, Fate::Hole);
    assert_eq!(game.twenties(), [1, 0]);
    assert!(game.position().is_empty());
    assert_eq!(rec.verdict.twenties.len(), 1);
    let rec = play(&mut game, Fate::Rest(0.0, 0.07));
    assert_eq!(
        game.position(),
        [Placed {
            team: 1,
            pos: DVec2::new(0.0, 0.07)
        }]
    );
    assert_eq!(rec.verdict.board_score, [0, 15]);
}

#[test]
fn the_game_ends_after_the_round_in_which_a_side_reaches_100() {
    // 40, then 40 to the other side, then 60: exactly 100 ends the game.
    let mut game = Game::new(2, Ruleset::Traditional, 0).unwrap();
    let h = Fate::Hole;
    play_round(&mut game, [&[h, h, h], &[h]]);
    assert_eq!((game.score(), game.result()), ([40, 0], None));
    play_round(&mut game, [&[], &[h, h]]);
    assert_eq!((game.score(), game.result()), ([40, 40], None));
    let records = play_round(&mut game, [&[h, h, h, h], &[h]]);
    assert_eq!(game.score(), [100, 40]);
    assert_eq!(game.result(), Some(GameResult::Won(0)));
    assert_eq!(records.last().unwrap().result, Some(GameResult::Won(0)));
    assert_eq!((game.turn(), game.rounds().len()), (None, 3));
    assert_eq!(
        game.play(0, flick_for(&game, 0), &board(), &physics()),
        Err(GameError::Over)
    );
}

#[test]
fn the_game_does_not_end_in_the_middle_of_a_round() {
    // Team 1 sinks all twelve: 240 points, but only once the round is over.
    let mut game = Game::new(2, Ruleset::Traditional, 2).unwrap();
    let records = play_round(&mut game, [&[], &[Fate::Hole; 12]]);
    assert_eq!(records.len(), 24);
    assert!(
        records[..23]
            .iter()
            .all(|r| r.result.is_none() && r.next_turn.is_some())
    );
    assert_eq!(records[23].result, Some(GameResult::Won(1)));
    assert_eq!(game.score(), [0, 240]);
}

#[test]
fn tournament_rounds_score_2_1_0_over_4_rounds() {
    let h = Fate::Hole;
    let mut game = Game::new(2, Ruleset::Tournament, 0).unwrap();
    // Won, tied, lost, won.
    for (fates, points) in [
        ([&[h, h][..], &[h][..]], [2, 0]),
        ([&[h][..], &[h][..]], [1, 1]),
        ([&[][..], &[h][..]], [0, 2]),
        ([&[h][..], &[][..]], [2, 0]),
    ] {
        assert_eq!(game.result(), None);
        let round = last_round(&play_round(&mut game, fates));
        assert_eq!(round.points, points);
    }
    assert_eq!(game.score(), [5, 3]);
    assert_eq!(game.result(), Some(GameResult::Won(0)));
    assert_eq!(game.rounds().len(), 4);
    // A margin of 240 is worth no more than 2 points.
    let mut game = Game::new(4, Ruleset::Tournament, 0).unwrap();
    assert_eq!(
        last_round(&play_round(&mut game, [&[h; 12], &[]])).points,
        [2, 0]
    );
}

#[test]
fn a_tournament_game_with_equal_points_is_a_draw() {
    let h = Fate::Hole;
    let mut game = Game::new(2, Ruleset::Tournament, 2).unwrap();
    for fates in [
        [&[h][..], &[][..]],
        [&[][..], &[h][..]],
        [&[][..], &[][..]],
        [&[h][..], &[h][..]],
    ] {
        play_round(&mut game, fates);
    }
    assert_eq!(game.score(), [4, 4]);
    assert_eq!(game.result(), Some(GameResult::Draw));
    assert_eq!(game.result().unwrap().winner(), None);
}

// ---------------------------------------------------------------- refusals

#[test]
fn a_shot_out_of_turn_is_refused_and_changes_nothing() {
    let mut game = Game::new(4, Ruleset::Traditional, 1).unwrap();
    let before = game.clone();
    let f = flick_for(&game, 2);
    assert_eq!(
        game.play(2, f, &board(), &physics()),
        Err(GameError::OutOfTurn { seat: 2, turn: 1 })
    );
    assert_eq!(game, before);
}

#[test]
fn a_shot_from_a_player_with_no_discs_left_is_refused() {
    // Two players, seat 0 first: after 23 shots seat 0 has shot all twelve and seat 2 has
    // one left.
    let mut game = Game::new(2, Ruleset::Traditional, 0).unwrap();
    for _ in 0..23 {
        play(&mut game, Fate::Ditch);
    }
    assert_eq!(
        (game.discs_left(0), game.discs_left(2), game.turn()),
        (0, 1, Some(2))
    );
    let f = flick_for(&game, 0);
    assert_eq!(
        game.play(0, f, &board(), &physics()),
        Err(GameError::NoDiscsLeft { seat: 0 })
    );
}

#[test]
fn empty_seats_illegal_placements_and_overlaps_are_refused() {
    let mut game = Game::new(2, Ruleset::Traditional, 0).unwrap();
    let before = game.clone();
    let mut f = flick_for(&game, 0);
    f.pos = DVec2::new(0.0, 1.0);
    assert_eq!(
        game.play(1, f, &board(), &physics()),
        Err(GameError::SeatNotInPlay {
            seat: 1,
            players: 2
        })
    );
    let mut f = flick_for(&game, 0);
    f.pos = DVec2::new(0.0, -0.2);
    assert!(matches!(
        game.play(0, f, &board(), &physics()),
        Err(GameError::Placement(
            PlacementError::NotTouchingShootingLine { .. }
        ))
    ));
    let mut f = flick_for(&game, 0);
    f.team = 1;
    assert!(matches!(
        game.play(0, f, &board(), &physics()),
        Err(GameError::Placement(PlacementError::Team { .. }))
    ));
    assert_eq!(game, before);
    // The engine's checks: a shooter faster than physics.max_speed.
    let mut f = flick_for(&game, 0);
    f.vel = DVec2::new(0.0, 20.0);
    match game.play(0, f, &board(), &physics()) {
        Err(GameError::Input(e)) => assert_eq!(e.field, "shooter.vel"),
        other => panic!("{other:?}"),
    }
    assert_eq!(game, before);
}

#[test]
fn constructors_check_players_and_the_first_seat() {
    assert_eq!(
        Game::new(3, Ruleset::Traditional, 0),
        Err(GameError::Players { players: 3 })
    );
    assert_eq!(
        Game::new(2, Ruleset::Traditional, 3),
        Err(GameError::SeatNotInPlay {
            seat: 3,
            players: 2
        })
    );
    for seed in 0..32 {
        let a = Game::from_seed(4, Ruleset::Tournament, seed).unwrap();
        let b = Game::from_seed(4, Ruleset::Tournament, seed).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.turn(), Some(a.first_seat()));
    }
    // Both seats of a two-player game come up.
    let firsts: Vec<u8> = (0..16)
        .map(|seed| {
            Game::from_seed(2, Ruleset::Traditional, seed)
                .unwrap()
                .first_seat()
        })
        .collect();
    assert!(firsts.contains(&0) && firsts.contains(&2), "{firsts:?}");
}

// ---------------------------------------------------------------- full games, real physics

/// A scripted player: a seeded stream of flicks from free spots on the seat's stretch of
/// shooting line, aimed near the centre at 0.4-1.6 m/s.
struct Scripted {
    state: u64,
}

impl Scripted {
    /// Uniform in [0, 1).
    fn next(&mut self) -> f64 {
        self.state = self.state.wrapping_add(1);
        (splitmix64(self.state) >> 11) as f64 / (1u64 << 53) as f64
    }

    fn flick(&mut self, game: &Game, seat: u8) -> Flick {
        let l = board().shooting_line_radius;
        let u = seat_direction(seat);
        let p = DVec2::new(-u.y, u.x);
        let target = DVec2::new(0.2 * self.next() - 0.1, 0.2 * self.next() - 0.1);
        let speed = 0.4 + 1.2 * self.next();
        for _ in 0..50 {
            let lateral = 0.3 * l * (2.0 * self.next() - 1.0);
            let pos = u * (l * l - lateral * lateral).sqrt() + p * lateral;
            let free = game
                .position()
                .iter()
                .all(|d| (d.pos - pos).length() > 2.0 * R + 1e-6);
            if free {
                return Flick {
                    team: game.team_of(seat).unwrap(),
                    pos,
                    vel: (target - pos).normalize() * speed,
                    spin: 0.0,
                };
            }
        }
        panic!("no free spot on seat {seat}'s line");
    }
}

/// Plays a whole game with real physics; returns its shot records.
fn full_game(players: u8, ruleset: Ruleset, seed: u64) -> (Game, Vec<ShotRecord>) {
    let mut game = Game::from_seed(players, ruleset, seed).unwrap();
    let mut script = Scripted { state: seed };
    let mut records = Vec::new();
    while let Some(seat) = game.turn() {
        let f = script.flick(&game, seat);
        records.push(game.play(seat, f, &board(), &physics()).unwrap());
        assert!(records.len() < 100_000, "the game does not end");
    }
    (game, records)
}

/// Every round: the right number of shots in clockwise order, every disc accounted for
/// (removed, set aside or on the board at the end), round totals and game scores adding up;
/// the game ends exactly when its rule set says.
fn check_log(game: &Game, records: &[ShotRecord]) -> Tally {
    let mut tally = Tally::default();
    let (players, ruleset) = (game.players(), game.ruleset());
    let each = u32::from(ruleset.discs_per_player(players));
    let per_team = each * u32::from(players) / 2;
    let rounds = game.rounds();
    assert!(!rounds.is_empty());
    let mut score = [0, 0];
    let mut start = 0;
    for (k, round) in rounds.iter().enumerate() {
        let shots = &records[start..start + round.shots as usize];
        start += shots.len();
        assert_eq!(round.round as usize, k);
        assert_eq!(round.shots, each * u32::from(players));
        let step = if players == 2 { 2 } else { 1 };
        let mut left = [0u32; 2];
        let mut twenties = [0u32; 2];
        for (i, rec) in shots.iter().enumerate() {
            assert_eq!((rec.round as usize, rec.shot as usize), (k, i));
            assert_eq!(rec.seat, (round.first_seat + step * (i as u8)) % 4);
            assert_eq!(rec.verdict.team, game.team_of(rec.seat).unwrap());
            for r in &rec.verdict.removed {
                left[usize::from(r.team)] += 1;
                tally.removed[r.reason as usize] += 1;
            }
            tally.twenties += rec.verdict.twenties.len();
            tally.hits += usize::from(rec.verdict.hit_opponent);
            for t in &rec.verdict.twenties {
                left[usize::from(t.team)] += 1;
                twenties[usize::from(t.team)] += 1;
            }
            assert_eq!(rec.round_end.is_some(), i + 1 == shots.len());
        }
        let end = &shots[shots.len() - 1].verdict;
        let mut on_board = [0u32; 2];
        for d in &end.position {
            on_board[usize::from(d.team)] += 1;
        }
        for t in 0..2 {
            assert_eq!(left[t] + on_board[t], per_team, "round {k} team {t}");
        }
        assert_eq!(round.twenties, twenties);
        assert_eq!(round.board_score, end.board_score);
        let [b0, b1] = end.board_score;
        assert_eq!(round.totals, [20 * twenties[0] + b0, 20 * twenties[1] + b1]);
        assert_eq!(round.points, round_points(ruleset, round.totals));
        score = [score[0] + round.points[0], score[1] + round.points[1]];
        assert_eq!(round.score, score);
        let last = k + 1 == rounds.len();
        match ruleset {
            Ruleset::Traditional => assert_eq!(score[0].max(score[1]) >= 100, last),
            Ruleset::Tournament => assert_eq!(k + 1 == 4, last),
        }
    }
    assert_eq!(start, records.len());
    assert_eq!(game.score(), score);
    let expected = match score[0].cmp(&score[1]) {
        std::cmp::Ordering::Greater => GameResult::Won(0),
        std::cmp::Ordering::Less => GameResult::Won(1),
        std::cmp::Ordering::Equal => GameResult::Draw,
    };
    assert_eq!(game.result(), Some(expected));
    assert_eq!(records.last().unwrap().result, Some(expected));
    tally
}

/// What a game's log contained, to show that the scripted games exercise every rule.
#[derive(Debug, Default)]
struct Tally {
    hits: usize,
    twenties: usize,
    /// Removals by reason, indexed by `RemovalReason as usize`.
    removed: [usize; 4],
}

#[test]
fn full_games_finish_with_a_consistent_log() {
    let mut all = Tally::default();
    for players in [2, 4] {
        for ruleset in Ruleset::ALL {
            let (game, records) = full_game(players, ruleset, 7);
            let tally = check_log(&game, &records);
            all.hits += tally.hits;
            all.twenties += tally.twenties;
            for k in 0..4 {
                all.removed[k] += tally.removed[k];
            }
            // Same seed, same game.
            let (again, records_again) = full_game(players, ruleset, 7);
            assert_eq!((again, records_again), (game, records));
        }
    }
    // The scripted games hit opponents, sink 20s and remove discs for every reason.
    assert!(all.hits > 0 && all.twenties > 0, "{all:?}");
    assert!(all.removed.iter().all(|&n| n > 0), "{all:?}");
}

/// A forfeited shot removes the shooter's disc as a shot off the board that touched
/// nothing: the position stays, the turn passes, the seat has one disc fewer; a seat that
/// may not shoot cannot forfeit either.
#[test]
fn a_forfeited_shot_removes_the_shooter_and_leaves_the_position() {
    let (b, p) = (board(), physics());
    let mut game = Game::new(2, Ruleset::Tournament, 0).unwrap();
    play(&mut game, Fate::Rest(0.0, -0.10));
    let before = game.position().to_vec();
    assert_eq!(game.turn(), Some(2));
    assert_eq!(
        game.clone().forfeit_shot(0, &b, &p).unwrap_err(),
        GameError::OutOfTurn { seat: 0, turn: 2 }
    );
    let left = game.discs_left(2);
    let (start, outcome, record) = game.forfeit_shot(2, &b, &p).unwrap();
    assert_eq!(start.vel, DVec2::ZERO);
    assert_eq!(start.pos, seat_direction(2) * b.shooting_line_radius);
    assert!(outcome.events.is_empty());
    assert_eq!(outcome.discs.last().unwrap().state, DiscState::Ditch);
    assert_eq!(record.verdict.removed.len(), 1);
    assert_eq!(record.verdict.removed[0].id, before.len());
    assert_eq!(game.position(), &before[..]);
    assert_eq!(game.discs_left(2), left - 1);
    assert_eq!(game.turn(), Some(0));
}
