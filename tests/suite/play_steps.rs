//! Games played one shot at a time (`PlayConfig::start`, `decide`, `execute`, `finish`,
//! the API the Python environments use): with the strategies' own decisions they are the
//! games `PlayConfig::play` plays; a caller's own decision is executed with the player's
//! error and the same seeds; a game stops at `max_rounds` marked as capped; a finished
//! game refuses another shot; an illegal flick stops the game with its reason, or
//! forfeits the shot when its strategy asks for that.

use crokinole::montecarlo::PlayerFlick;
use crokinole::play::{Decision, PlayConfig, PlayError, Strategy, parse_noise, parse_strategies};
use crokinole::rules::{GameError, Ruleset};
use crokinole::{Board, Physics};
use glam::DVec2;

fn config(strategies: &str, noise: &str, seed: u64, max_rounds: u32) -> PlayConfig {
    let noise = parse_noise(noise).unwrap();
    PlayConfig {
        board: Board::tournament(),
        physics: Physics::default(),
        players: 2,
        ruleset: Ruleset::Tournament,
        strategies: parse_strategies(strategies, noise)
            .unwrap()
            .into_iter()
            .map(|s| Box::new(s) as Box<dyn Strategy>)
            .collect(),
        noise,
        seed,
        max_rounds,
    }
}

#[test]
fn step_by_step_with_the_strategies_decisions_is_play() {
    for (seed, index, max_rounds) in [(3, 0, 100), (9, 4, 2), (1, 7, 1)] {
        let c = config(
            "random,greedy:k=3",
            "offset=0.003,aim=0.01",
            seed,
            max_rounds,
        );
        let mut game = c.start(index).unwrap();
        let mut shots = 0;
        while let Some(seat) = c.turn(&game) {
            assert_eq!(game.game().turn(), Some(seat));
            let decision = c.decide(&game).unwrap();
            let log = c.execute(&mut game, decision).unwrap();
            assert_eq!((log.seat, log.number), (seat, shots));
            shots += 1;
        }
        let log = c.finish(game);
        assert_eq!(log, c.play(index).unwrap());
        assert_eq!(log.capped, max_rounds < 4, "{max_rounds} rounds of 4");
        assert_eq!(log.rounds.len() as u32, max_rounds.min(4));
        if log.capped {
            assert_eq!(log.shots.last().unwrap().next_turn, None);
        }
    }
}

#[test]
fn a_callers_decision_is_executed_with_the_players_error() {
    let c = config("random,random", "aim=0.02,speed=0.05", 5, 100);
    let mut game = c.start(2).unwrap();
    let seat = c.turn(&game).unwrap();
    let intended = PlayerFlick {
        offset: 0.0,
        aim: 0.0,
        target: Some(DVec2::ZERO),
        speed: 0.85,
        spin: 0.0,
    };
    let decision = Decision {
        flick: intended,
        value: None,
        candidates: 1,
    };
    let mut again = game.clone();
    let log = c.execute(&mut game, decision).unwrap().clone();
    assert_eq!((log.seat, log.intended.speed), (seat, 0.85));
    assert_ne!(log.executed, log.intended, "the error perturbs the flick");
    // The same decision in the same game executes the same way (seeded by the shot's number).
    assert_eq!(*c.execute(&mut again, decision).unwrap(), log);
    // Without error the executed flick is the intended one.
    let quiet = config("random,random", "none", 5, 100);
    let mut game = quiet.start(2).unwrap();
    let log = quiet.execute(&mut game, decision).unwrap();
    assert_eq!(log.executed, log.intended);
}

#[test]
fn an_illegal_decision_and_a_finished_game_are_refused() {
    let c = config("random,random", "none", 0, 1);
    let mut game = c.start(0).unwrap();
    let off_the_line = Decision {
        flick: PlayerFlick {
            offset: 0.3,
            aim: 0.0,
            target: None,
            speed: 1.0,
            spin: 0.0,
        },
        value: None,
        candidates: 1,
    };
    let before = game.clone();
    let err = c.execute(&mut game, off_the_line).unwrap_err();
    assert!(err.to_string().contains("chose an illegal flick"), "{err}");
    assert_eq!(game, before, "a refused shot changes nothing");
    while c.turn(&game).is_some() {
        let d = c.decide(&game).unwrap();
        c.execute(&mut game, d).unwrap();
    }
    // Capped after one round: the rules' game goes on, the run stops there.
    assert!(game.game().turn().is_some() && !game.game().is_over());
    assert_eq!(game.game().rounds().len(), 1);
    assert!(c.finish(game).capped);
    // A finished game (over by the rules) refuses any decision.
    let c4 = config("random,random", "none", 0, 100);
    let mut full = c4.start(0).unwrap();
    while c4.turn(&full).is_some() {
        let d = c4.decide(&full).unwrap();
        c4.execute(&mut full, d).unwrap();
    }
    assert!(full.game().is_over());
    assert!(matches!(
        c4.decide(&full),
        Err(PlayError::Game {
            error: GameError::Over,
            ..
        })
    ));
}

/// Plays from beyond its quadrant: always illegal. Forfeits its shots if told to.
struct Outside(bool);

impl Strategy for Outside {
    fn choose(
        &self,
        _turn: &crokinole::play::Turn<'_>,
    ) -> Result<Decision, crokinole::play::NoLegalFlick> {
        Ok(Decision {
            flick: PlayerFlick {
                offset: 0.5,
                aim: 0.0,
                target: Some(DVec2::ZERO),
                speed: 1.0,
                spin: 0.0,
            },
            value: None,
            candidates: 1,
        })
    }
    fn name(&self) -> String {
        "outside".to_string()
    }
    fn forfeits_illegal(&self) -> bool {
        self.0
    }
}

fn outside_game(forfeits: bool) -> PlayConfig {
    PlayConfig {
        board: Board::tournament(),
        physics: Physics::default(),
        players: 2,
        ruleset: Ruleset::Tournament,
        strategies: vec![Box::new(Outside(forfeits)), Box::new(Outside(forfeits))],
        noise: parse_noise("none").unwrap(),
        seed: 3,
        max_rounds: 1,
    }
}

#[test]
fn an_illegal_flick_stops_the_game_with_its_reason_or_forfeits_the_shot() {
    let e = outside_game(false).play(0).unwrap_err().to_string();
    assert!(
        e.starts_with(
            "game 0: field `flick`: the strategy `outside` chose an illegal flick: \
             field `flick.offset`: 0.5 m puts"
        ),
        "{e}"
    );
    let log = outside_game(true).play(0).unwrap();
    assert_eq!(log.shots.len(), 16);
    for s in &log.shots {
        let reason = s.forfeit.as_deref().unwrap();
        assert!(
            reason.starts_with("illegal flick: field `flick.offset`: 0.5 m"),
            "{reason}"
        );
        assert_eq!(s.intended.offset, 0.5);
    }
    assert_eq!(log.rounds[0].board_score, [0, 0]);
}
