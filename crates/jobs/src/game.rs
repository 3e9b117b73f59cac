//! Play a game against the computer, one request at a time (docs/play-on-the-page.md):
//! `POST /api/game` is this job. Stateless: the request is a game file (the seats, each a
//! human or a strategy with its own noise, the rule set, the seed, and the intended flick
//! of every shot so far); the job plays those shots again from the start through the
//! library's [`PlayConfig`] / [`GameInPlay`] (each executed with its seat's noise, exactly
//! as `crokinole play` executes a shot), then lets the computer seats decide and play up
//! to `moves` shots of their own until it is a human's turn or the game is over, and
//! answers with the game log, the new shots (traced, for the animation), the state and,
//! if asked, the planner's hint for the human to play.
//!
//! Seeds are those of `crokinole play --seed S` for game 0: a game file whose seats are
//! all computers plays the game `crokinole play` plays with those strategies and (one)
//! noise, shot for shot. A human's flick is executed as a computer's: sample `n` (the
//! shot's number in the game) of the game's execution stream, with the seat's noise.

use super::simulate::{ShotFile, SimulateOptions, Simulated, simulate_until};
use crokinole_core::board::Board;
use crokinole_core::cancel::{Cancel, Cancelled};
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_core::shot::{Placed, Shot};
use crokinole_io::{GameFile, game_answer_json, game_log_json, parse_game_file, shot_file_json};
use crokinole_montecarlo::{Noise, PlayerFlick, SkillLevel};
use crokinole_play::{
    AnyStrategy, Decision, GameInPlay, GameLog, NoLegalFlick, PlayConfig, PlayError, Strategy, Turn,
};
use crokinole_rules::{ShotEntry, check_placement, seats_in_play, valid_players};
use serde_json::json;

/// Reads a game file's text.
pub fn read(text: &str) -> Result<GameFile, InputError> {
    parse_game_file(text)
}

/// What one request asks besides the game file.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Advance {
    /// Most computer shots played by this request (then the answer says whose turn it is
    /// and the page asks again).
    pub moves: usize,
    /// Trace the new shots, a path point every this many fixed steps.
    pub trace: u32,
    /// With `Some(budget)`, when it is a human's turn, the planner's best flick for that
    /// seat (its noise, the game's rules) with this sample budget.
    pub hint: Option<u64>,
    /// The file's shots from this number on are also returned traced (the page has seen
    /// the ones before); `None`: only the shots this request plays.
    pub seen: Option<usize>,
}

/// Why a request could not be answered.
#[derive(Clone, Debug, PartialEq)]
pub enum GameJobError {
    /// The game file is wrong (a field, or a shot that cannot be played where it stands).
    Input(InputError),
    /// The work was stopped (the time budget, a client gone).
    Stopped(Cancelled),
}

impl std::fmt::Display for GameJobError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameJobError::Input(e) => write!(f, "{e}"),
            GameJobError::Stopped(e) => write!(f, "{e}"),
        }
    }
}

/// Its source is the input error or the stop it wraps.
impl std::error::Error for GameJobError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GameJobError::Input(e) => Some(e),
            GameJobError::Stopped(e) => Some(e),
        }
    }
}

impl From<InputError> for GameJobError {
    fn from(e: InputError) -> GameJobError {
        GameJobError::Input(e)
    }
}

/// A seat's player in the [`PlayConfig`]: a strategy, or the person at the page (never
/// asked to decide: the job plays the file's flicks at the human turns). Its name, in the
/// game log's `seats`, says its noise too.
struct SeatPlayer {
    strategy: Option<AnyStrategy>,
    noise: Noise,
}

/// A noise in words: `exact`, a skill level's name, or its four widths.
pub fn noise_words(noise: &Noise) -> String {
    if *noise == Noise::NONE {
        return "exact".into();
    }
    match SkillLevel::of_noise(noise) {
        Some(level) => level.name.to_string(),
        None => format!(
            "offset={},aim={},speed={},spin={}",
            noise.offset, noise.aim, noise.speed, noise.spin
        ),
    }
}

impl Strategy for SeatPlayer {
    fn choose(&self, turn: &Turn<'_>) -> Result<Decision, NoLegalFlick> {
        match &self.strategy {
            Some(s) => s.choose(turn),
            None => Err(NoLegalFlick { seat: turn.seat() }),
        }
    }

    fn name(&self) -> String {
        let who = self
            .strategy
            .as_ref()
            .map_or_else(|| crokinole_io::HUMAN.to_string(), |s| s.name());
        format!("{who} (noise {})", noise_words(&self.noise))
    }

    fn check(&self, physics: &Physics) -> Result<(), InputError> {
        self.strategy.as_ref().map_or(Ok(()), |s| s.check(physics))
    }
}

/// The game file checked and made into one [`PlayConfig`] per seat in play (in seat
/// order): the same players, rules, seed and strategies, each with its seat's noise (the
/// config that executes that seat's shots). Errors name the field (`seats[1].player`,
/// `seats[0].noise.aim`, `players`, `max_rounds`).
pub fn configs(file: &GameFile) -> Result<Vec<PlayConfig>, InputError> {
    if !valid_players(file.players) {
        return Err(InputError::new(
            "players",
            format!("must be 2 or 4, got {}", file.players),
        ));
    }
    let seats = seats_in_play(file.players);
    if file.seats.len() != seats.len() {
        return Err(InputError::new(
            "seats",
            format!(
                "expected {} seats for {} players (seats {:?} in order), got {}",
                seats.len(),
                file.players,
                seats,
                file.seats.len()
            ),
        ));
    }
    let (board, physics) = (Board::tournament(), Physics::default());
    for (k, s) in file.seats.iter().enumerate() {
        s.noise.check(&board, &physics).map_err(|e| InputError {
            field: format!("seats[{k}].{}", e.field),
            ..e
        })?;
    }
    let players = |file: &GameFile| -> Result<Vec<Box<dyn Strategy>>, InputError> {
        file.seats
            .iter()
            .enumerate()
            .map(|(k, s)| {
                let strategy = if s.is_human() {
                    None
                } else {
                    Some(AnyStrategy::parse(&s.player, s.noise).map_err(|e| {
                        InputError::new(format!("seats[{k}].player"), format!("{e} (or `human`)"))
                    })?)
                };
                Ok(Box::new(SeatPlayer {
                    strategy,
                    noise: s.noise,
                }) as Box<dyn Strategy>)
            })
            .collect()
    };
    let mut out = Vec::with_capacity(seats.len());
    for s in &file.seats {
        let config = PlayConfig {
            board: board.clone(),
            physics: physics.clone(),
            players: file.players,
            ruleset: file.ruleset,
            strategies: players(file)?,
            noise: s.noise,
            seed: file.seed,
            max_rounds: file.max_rounds,
        };
        config.check()?;
        out.push(config);
    }
    Ok(out)
}

/// Why `flick` cannot be played by the seat to shoot in `game`, in a player's words;
/// `None` if it can.
pub fn illegal(config: &PlayConfig, game: &GameInPlay, flick: &PlayerFlick) -> Option<String> {
    let turn = game.turn(&config.board, &config.physics).ok()?;
    if turn.legal(flick).is_some() {
        return None;
    }
    let seat = turn.seat();
    if let Err(e) = flick.check(&config.board, seat) {
        return Some(e.to_string());
    }
    let f = flick.to_flick(&config.board, seat, turn.team());
    if let Err(e) = check_placement(
        &config.board,
        config.physics.disc_radius,
        seat,
        config.players,
        config.ruleset,
        &f,
    ) {
        return Some(format!("the disc cannot be placed there: {e}"));
    }
    Some(
        "the disc would overlap a disc on the board, or the flick is faster than the \
         physics allows"
            .into(),
    )
}

/// One request's work done.
pub struct Advanced {
    /// The game as far as it goes now, as `crokinole play --games 1` logs it (its `noise`
    /// the first human seat's, or seat 0's; each seat's own is in its `strategy` name).
    pub log: GameLog,
    /// Number of the first shot of `entries` (the file's shots from `seen` on, then those
    /// played by this request).
    pub from: usize,
    /// The file's shots from `seen` on and the shots played by this request, as shot-file
    /// entries.
    pub entries: Vec<ShotEntry>,
    /// Those shots simulated again with their traces (the same outcomes).
    pub traced: Option<Simulated>,
    /// The seat to shoot next (`None`: the game is over or capped).
    pub turn: Option<u8>,
    /// Whether that seat is a human's.
    pub human: bool,
    /// The planner's hint for the human to shoot, if asked.
    pub hint: Option<Decision>,
    /// The discs on the board now.
    pub position: Vec<Placed>,
    /// Discs left to shoot this round, per seat 0-3.
    pub discs_left: [u8; 4],
    /// The board score now (0 once a round has ended and before the next shot).
    pub board_score: [u32; 2],
    /// Round being played (from 0).
    pub round: u32,
    board: Board,
    physics: Physics,
}

fn play_error(e: PlayError) -> GameJobError {
    match e {
        PlayError::Stopped { why, .. } => GameJobError::Stopped(why),
        PlayError::Input(e) => GameJobError::Input(e),
        other => GameJobError::Input(InputError::new("shots", other.to_string())),
    }
}

/// The shot of a logged shot from the discs before it, as a shot file's entry.
fn entry_of(discs: Vec<Placed>, log: &crokinole_play::ShotLog, players: u8) -> ShotEntry {
    ShotEntry {
        shot: Shot {
            discs,
            shooter: crokinole_core::shot::Flick {
                team: log.start.team,
                pos: log.start.pos.into(),
                vel: log.start.vel.into(),
                spin: log.start.spin,
            },
        },
        seat: Some(log.seat),
        players,
    }
}

/// Plays `file` forward as the module says, watching `cancel`.
pub fn advance_until(
    file: &GameFile,
    options: Advance,
    cancel: &Cancel,
) -> Result<Advanced, GameJobError> {
    let configs = configs(file)?;
    let seats = seats_in_play(file.players);
    let index_of = |seat: u8| seats.iter().position(|&s| s == seat).unwrap_or(0);
    let first = &configs[0];
    let mut game = first.start(0).map_err(play_error)?;
    let mut entries = Vec::new();
    for (k, decision) in file.shots.iter().enumerate() {
        let Some(seat) = first.turn(&game) else {
            return Err(InputError::new(
                format!("shots[{k}]"),
                "the game is already over before this shot",
            )
            .into());
        };
        let config = &configs[index_of(seat)];
        if let Some(why) = illegal(config, &game, &decision.flick) {
            return Err(InputError::new(format!("shots[{k}]"), why).into());
        }
        let discs = game.game().position().to_vec();
        let log = config
            .execute_until(&mut game, *decision, cancel)
            .map_err(play_error)?;
        if options.seen.is_some_and(|seen| k >= seen) {
            entries.push(entry_of(discs, log, file.players));
        }
    }
    let from = game.shots().len() - entries.len();
    let mut moved = 0;
    while moved < options.moves {
        let Some(seat) = first.turn(&game) else { break };
        let k = index_of(seat);
        if file.seats[k].is_human() {
            break;
        }
        let config = &configs[k];
        let decision = config.decide_until(&game, cancel).map_err(play_error)?;
        cancel.check().map_err(GameJobError::Stopped)?;
        let discs = game.game().position().to_vec();
        let log = config
            .execute_until(&mut game, decision, cancel)
            .map_err(play_error)?;
        entries.push(entry_of(discs, log, file.players));
        moved += 1;
    }
    let turn = first.turn(&game);
    let human = turn.is_some_and(|s| file.seats[index_of(s)].is_human());
    let hint = match (options.hint, turn) {
        (Some(budget), Some(seat)) if human => {
            let noise = file.seats[index_of(seat)].noise;
            let planner = AnyStrategy::parse(&format!("planner:budget={budget}"), noise)
                .map_err(|e| InputError::new("hint", e))?;
            let t = game
                .turn(&first.board, &first.physics)
                .map_err(play_error)?
                .with_cancel(cancel.clone());
            let d = planner
                .choose(&t)
                .map_err(|e| InputError::new("hint", e.to_string()))?;
            cancel.check().map_err(GameJobError::Stopped)?;
            Some(d)
        }
        _ => None,
    };
    let traced = if entries.is_empty() {
        None
    } else {
        let shots = ShotFile {
            board: first.board.clone(),
            physics: first.physics.clone(),
            entries: entries.clone(),
        };
        let (simulated, stopped) = simulate_until(
            &shots,
            SimulateOptions {
                rules: None,
                trace: Some(options.trace),
            },
            cancel,
        )?;
        if let Some(why) = stopped {
            return Err(GameJobError::Stopped(why));
        }
        Some(simulated)
    };
    let g = game.game();
    let (position, discs_left, round) = (g.position().to_vec(), g.discs_left_per_seat(), g.round());
    let board_score = match game.shots().last() {
        Some(s) if !s.round_end => s.verdict.board_score,
        _ => [0, 0],
    };
    let log_config = file
        .seats
        .iter()
        .position(|s| s.is_human())
        .map_or(first, |k| &configs[k]);
    let log = log_config.finish(game);
    Ok(Advanced {
        log,
        from,
        entries,
        traced,
        turn,
        human,
        hint,
        position,
        discs_left,
        board_score,
        round,
        board: first.board.clone(),
        physics: first.physics.clone(),
    })
}

impl Advanced {
    /// The state: `{"turn", "human", "over", "capped", "round", "discs_left",
    /// "board_score", "score", "position", "winner", "result"}`.
    pub fn state_json(&self) -> String {
        let position: Vec<_> = self
            .position
            .iter()
            .map(|d| json!({"team": d.team, "pos": [d.pos.x, d.pos.y]}))
            .collect();
        json!({
            "turn": self.turn,
            "human": self.human,
            "over": self.turn.is_none(),
            "capped": self.log.capped,
            "round": self.round,
            "discs_left": self.discs_left,
            "board_score": self.board_score,
            "score": self.log.score,
            "winner": self.log.winner,
            "position": position,
        })
        .to_string()
    }

    /// The answer of `POST /api/game` ([`game_answer_json`]).
    pub fn text(&self) -> String {
        let shot_file = (!self.entries.is_empty()).then(|| {
            shot_file_json(
                &self.board,
                &self.physics,
                &self.entries,
                "shots of a game on the page",
            )
        });
        let outcomes = self.traced.as_ref().map(|s| {
            let file: serde_json::Value =
                serde_json::from_str(&s.text(crokinole_io::Layout::Compact)).unwrap_or_default();
            file["outcomes"].to_string()
        });
        let hint = self.hint.map(|d| {
            let f = d.flick;
            let mut flick =
                json!({"offset": f.offset, "aim": f.aim, "speed": f.speed, "spin": f.spin});
            if let Some(t) = f.target {
                flick["target"] = json!([t.x, t.y]);
            }
            json!({"flick": flick, "value": d.value, "candidates": d.candidates}).to_string()
        });
        game_answer_json(
            &self.state_json(),
            self.from,
            shot_file.as_deref(),
            outcomes.as_deref(),
            hint.as_deref(),
            &game_log_json(&self.log),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crokinole_play::AnyStrategy;

    const ADVANCE: Advance = Advance {
        moves: 1000,
        trace: 50,
        hint: None,
        seen: None,
    };

    /// The logged shots' decisions, as a game file gives them.
    fn decisions(shots: &[crokinole_play::ShotLog]) -> Vec<Decision> {
        shots
            .iter()
            .map(|s| Decision {
                flick: PlayerFlick {
                    offset: s.intended.offset,
                    aim: s.intended.aim,
                    target: s.intended.target.map(Into::into),
                    speed: s.intended.speed,
                    spin: s.intended.spin,
                },
                value: s.value,
                candidates: s.candidates,
            })
            .collect()
    }

    fn file(seats: &str, shots: &str) -> GameFile {
        read(&format!(
            r#"{{"players": 2, "ruleset": "tournament", "seed": 3, "max_rounds": 1,
                "seats": {seats}, "shots": {shots}}}"#
        ))
        .unwrap()
    }

    #[test]
    fn an_all_computer_file_plays_the_game_play_plays() {
        let f = file(
            r#"[{"player": "random", "noise": "club"}, {"player": "greedy:k=2", "noise": "club"}]"#,
            "[]",
        );
        let got = advance_until(&f, ADVANCE, &Cancel::never()).unwrap();
        let noise = crokinole_montecarlo::SkillLevel::by_name("club")
            .unwrap()
            .noise;
        let config = PlayConfig {
            board: Board::tournament(),
            physics: Physics::default(),
            players: 2,
            ruleset: crokinole_rules::Ruleset::Tournament,
            strategies: vec![
                Box::new(AnyStrategy::parse("random", noise).unwrap()),
                Box::new(AnyStrategy::parse("greedy:k=2", noise).unwrap()),
            ],
            noise,
            seed: 3,
            max_rounds: 1,
        };
        let want = config.play(0).unwrap();
        assert_eq!(got.log.shots, want.shots);
        assert_eq!(got.log.rounds, want.rounds);
        assert_eq!(got.turn, None);
        assert_eq!(got.entries.len(), want.shots.len());
        // The traced outcomes are the logged ones.
        let traced = got.traced.as_ref().unwrap();
        for (k, s) in want.shots.iter().enumerate() {
            assert_eq!(traced.outcomes[k], s.outcome, "shot {k}");
        }
        // Played again from its decisions, the game is the same, with no new shot.
        let decisions = decisions(&want.shots);
        let again = advance_until(
            &GameFile {
                shots: decisions,
                ..f
            },
            ADVANCE,
            &Cancel::never(),
        )
        .unwrap();
        assert_eq!(again.log.shots, want.shots);
        assert_eq!(again.from, want.shots.len());
        assert!(again.entries.is_empty());
    }

    #[test]
    fn the_computer_stops_at_the_humans_turn_and_a_hint_is_legal() {
        let f = file(
            r#"[{"player": "human"}, {"player": "greedy:k=2", "noise": "elite"}]"#,
            "[]",
        );
        let got = advance_until(
            &f,
            Advance {
                hint: Some(1000),
                ..ADVANCE
            },
            &Cancel::never(),
        )
        .unwrap();
        assert_eq!(got.turn, Some(0));
        assert!(got.human);
        let hint = got.hint.unwrap();
        // The hint, played as the human's flick, is accepted.
        let with_hint = GameFile {
            shots: decisions(&got.log.shots)
                .into_iter()
                .chain([hint])
                .collect(),
            ..f.clone()
        };
        let next = advance_until(
            &with_hint,
            Advance {
                moves: 1,
                ..ADVANCE
            },
            &Cancel::never(),
        )
        .unwrap();
        assert_eq!(next.log.shots[got.log.shots.len()].seat, 0);
        assert!(
            next.log.seats[0]
                .strategy
                .starts_with("human (noise exact)")
        );
        assert!(next.log.seats[1].strategy.ends_with("(noise elite)"));
    }

    #[test]
    fn bad_files_name_the_field_in_player_words() {
        let err = |f: &GameFile| match advance_until(f, ADVANCE, &Cancel::never()) {
            Err(GameJobError::Input(e)) => e,
            _ => panic!("accepted"),
        };
        let e = err(&file(
            r#"[{"player": "human"}, {"player": "grredy"}]"#,
            "[]",
        ));
        assert_eq!(e.field, "seats[1].player");
        let e = err(&file(r#"[{"player": "human"}]"#, "[]"));
        assert_eq!(e.field, "seats");
        let e = err(&file(
            r#"[{"player": "human", "noise": {"aim": -1}}, {"player": "greedy"}]"#,
            "[]",
        ));
        assert_eq!(e.field, "seats[0].noise.aim");
        // Whoever shoots first, an offset off the shooting line is refused at its shot.
        let e = err(&file(
            r#"[{"player": "human"}, {"player": "human"}]"#,
            r#"[{"offset": 0.5, "speed": 1.0}]"#,
        ));
        assert_eq!(e.field, "shots[0]");
    }
}
