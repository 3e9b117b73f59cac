//! Playing whole games: who sits where with which strategy ([`PlayConfig`]), one game
//! played shot by shot into a [`GameLog`] ([`PlayConfig::play`]), and many games in
//! parallel ([`PlayConfig::play_many`]).
//!
//! A shot of a game: the seat whose turn it is asks its strategy for the intended flick
//! ([`Strategy::choose`]); the player then executes it with its error: the executed flick
//! is [`FlickSampler::sample`](crokinole_montecarlo::FlickSampler::sample) of the intended flick under the configuration's
//! [`Noise`], with the game's execution seed and the shot's number in the game as the
//! sample (so each parameter follows its Gaussian truncated to legal values, exactly as in
//! `crokinole montecarlo`); the game plays it ([`Game::play_outcome`] after [`run_shot`](crokinole_core::run_shot)).
//!
//! Seeds (`mix` is [`mix`]): game `g` of a run with seed `s` has the game seed
//! `G = mix(s, g)`; its first shooter is [`crokinole_rules::first_seat_from_seed`]`(G)`; the
//! decision of its shot number `n` (from 0, counting every shot of the game) gets the seed
//! `mix(mix(G, 1), n)`; the execution of shot `n` is sample `n` of the seed `mix(G, 2)`.
//! A game therefore depends on `(s, g)` and the configuration only: the same with one game
//! or many, for every thread count.

use crate::strategy::{Decision, NoLegalFlick, Strategy, Turn};
use crokinole_core::board::Board;
use crokinole_core::cancel::{Cancel, Cancelled};
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_core::shot::{Flick, Outcome, ShotError, run_shot_until};
use crokinole_montecarlo::noise::mix;
use crokinole_montecarlo::{Noise, PlayerFlick, SkillLevel};
use crokinole_rules::{
    Game, GameError, GameResult, RoundRecord, Ruleset, ShotRecord, ShotVerdict, round_totals,
    seats_in_play, team_of_seat, valid_players,
};
use std::fmt;

/// Tag of the decision seeds.
const DECIDE: u64 = 1;
/// Tag of the execution seed.
const EXECUTE: u64 = 2;

/// Default cap on the rounds of a game ([`PlayConfig::max_rounds`]).
pub const DEFAULT_MAX_ROUNDS: u32 = 100;

/// Games computed at once by [`PlayConfig::play_many`]; results never depend on it.
pub const GAMES_CHUNK: usize = 256;

/// A game (or a run of games): the table, the rules, the strategies, the players' error.
pub struct PlayConfig {
    /// Board geometry.
    pub board: Board,
    /// Physical parameters.
    pub physics: Physics,
    /// Players, 2 or 4.
    pub players: u8,
    /// Rule set.
    pub ruleset: Ruleset,
    /// Strategies: one per seat in play, in seat order (`[seat 0, seat 2]` with two
    /// players, `[seat 0, 1, 2, 3]` with four), or with four players one per team
    /// (`[team 0, team 1]`, partners playing alike).
    pub strategies: Vec<Box<dyn Strategy>>,
    /// Every player's error when executing a flick.
    pub noise: Noise,
    /// Seed of the run.
    pub seed: u64,
    /// A game not over after this many rounds stops there, unfinished (no winner). Only
    /// long traditional games reach it.
    pub max_rounds: u32,
}

/// Why a game could not be played.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayError {
    /// A strategy found no legal flick.
    NoLegalFlick {
        /// Game index.
        game: u64,
        /// What the strategy said.
        error: NoLegalFlick,
    },
    /// The game refused a shot (a strategy chose an illegal flick).
    Game {
        /// Game index.
        game: u64,
        /// What the game said.
        error: GameError,
    },
    /// The run itself was refused (more than [`MAX_GAMES`](super::summary::MAX_GAMES) games).
    Input(InputError),
    /// A [`Cancel`] stopped game `game` before its end: the game is not counted.
    Stopped {
        /// Game index.
        game: u64,
        /// Why.
        why: Cancelled,
    },
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::NoLegalFlick { game, error } => write!(f, "game {game}: {error}"),
            PlayError::Game { game, error } => write!(f, "game {game}: {error}"),
            PlayError::Input(e) => write!(f, "{e}"),
            PlayError::Stopped { game, why } => write!(f, "game {game}: {why}"),
        }
    }
}

impl std::error::Error for PlayError {}

/// A flick as a player describes it, in the log: `{"offset", "aim", "target"?, "speed",
/// "spin"}` (`target` only when aimed at a point).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlickLog {
    /// Place on the shooting line, m, in the seat's frame.
    pub offset: f64,
    /// Aim, rad (relative to the direction toward `target`, if any).
    pub aim: f64,
    /// Point aimed at, `[x, y]`.
    pub target: Option<[f64; 2]>,
    /// Speed, m/s.
    pub speed: f64,
    /// Spin, rad/s.
    pub spin: f64,
}

impl From<PlayerFlick> for FlickLog {
    fn from(f: PlayerFlick) -> FlickLog {
        FlickLog {
            offset: f.offset,
            aim: f.aim,
            target: f.target.map(|t| t.to_array()),
            speed: f.speed,
            spin: f.spin,
        }
    }
}

/// The executed flick's initial conditions, as the `shooter` of a shot file.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StartLog {
    /// Team.
    pub team: u8,
    /// Centre, `[x, y]`, m.
    pub pos: [f64; 2],
    /// Velocity, `[x, y]`, m/s.
    pub vel: [f64; 2],
    /// Spin, rad/s.
    pub spin: f64,
}

impl From<Flick> for StartLog {
    fn from(f: Flick) -> StartLog {
        StartLog {
            team: f.team,
            pos: f.pos.to_array(),
            vel: f.vel.to_array(),
            spin: f.spin,
        }
    }
}

/// The noise widths, in the log and the summary.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NoiseLog {
    /// Offset, m.
    pub offset: f64,
    /// Aim, rad.
    pub aim: f64,
    /// Speed, fraction.
    pub speed: f64,
    /// Spin, rad/s.
    pub spin: f64,
}

impl From<Noise> for NoiseLog {
    fn from(n: Noise) -> NoiseLog {
        NoiseLog {
            offset: n.offset,
            aim: n.aim,
            speed: n.speed,
            spin: n.spin,
        }
    }
}

/// Who sits where.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatLog {
    /// Seat, 0-3.
    pub seat: u8,
    /// Its team.
    pub team: u8,
    /// Its strategy ([`Strategy::name`]).
    pub strategy: String,
}

/// One shot of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct ShotLog {
    /// Round, from 0.
    pub round: u32,
    /// Shot in the round, from 0.
    pub shot: u32,
    /// Shot in the game, from 0 (the `n` of the seeds).
    pub number: u64,
    /// Seat that shot.
    pub seat: u8,
    /// Its team.
    pub team: u8,
    /// The flick the strategy chose.
    pub intended: FlickLog,
    /// The strategy's own estimate of the change in score difference (`null` for the
    /// random strategy).
    pub value: Option<f64>,
    /// Legal candidates the strategy considered.
    pub candidates: u32,
    /// The flick as the player executed it (the intended one plus the error).
    pub executed: FlickLog,
    /// The executed flick's initial conditions (a shot file's `shooter`).
    pub start: StartLog,
    /// The physics: an outcome of the outcome file (discs with the engine's states, events,
    /// steps, time).
    pub outcome: Outcome,
    /// What the rules made of it (the `rules` object of `simulate --rules`).
    pub verdict: ShotVerdict,
    /// Discs left to shoot this round per seat 0-3, after the shot.
    pub discs_left: [u8; 4],
    /// 20s set aside this round so far, per team.
    pub twenties: [u32; 2],
    /// The round as it stands after the shot, per team: `20 * twenties + board_score`.
    pub round_totals: [u32; 2],
    /// Game score after the shot, per team.
    pub score: [u32; 2],
    /// Whether the shot ended its round.
    pub round_end: bool,
    /// Seat to shoot next (`null` once the game is over or stopped).
    pub next_turn: Option<u8>,
    /// Why the shot was forfeited ([`PlayConfig::forfeit`]), or `None` for a shot played.
    pub forfeit: Option<String>,
}

/// A whole game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameLog {
    /// Index of the game in its run.
    pub game: u64,
    /// Seed of the run.
    pub seed: u64,
    /// Players, 2 or 4.
    pub players: u8,
    /// Rule set.
    pub ruleset: Ruleset,
    /// The players' error.
    pub noise: NoiseLog,
    /// The skill level whose widths `noise` has exactly, if any (docs/skill.md).
    pub skill: Option<&'static str>,
    /// Cap on the rounds.
    pub max_rounds: u32,
    /// Who sits where, in seat order.
    pub seats: Vec<SeatLog>,
    /// Seat that shot first in the game.
    pub first_seat: u8,
    /// Every shot, in order.
    pub shots: Vec<ShotLog>,
    /// Every finished round, in order.
    pub rounds: Vec<RoundRecord>,
    /// Final game score per team.
    pub score: [u32; 2],
    /// How the game ended: `{"won": team}` or `"draw"`; `null` if it stopped unfinished.
    pub result: Option<GameResult>,
    /// The winning team (`null` for a draw or an unfinished game).
    pub winner: Option<u8>,
    /// Whether the game stopped at `max_rounds` before it was over.
    pub capped: bool,
}

/// A game of a run in progress, played one shot at a time: [`PlayConfig::start`] makes
/// it, [`PlayConfig::decide`] and [`PlayConfig::execute`] play its shots,
/// [`PlayConfig::finish`] turns it into its [`GameLog`]. Its seeds are those of
/// [`PlayConfig::play`] (module documentation), so a game played step by step with the
/// strategies' own decisions is the game `play` plays.
#[derive(Clone, Debug, PartialEq)]
pub struct GameInPlay {
    index: u64,
    /// (decision, execution) seeds.
    seeds: (u64, u64),
    game: Game,
    shots: Vec<ShotLog>,
}

impl GameInPlay {
    /// Index of the game in its run.
    pub fn index(&self) -> u64 {
        self.index
    }

    /// The rules' state: position, turn, discs left, scores, rounds.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The shots played so far.
    pub fn shots(&self) -> &[ShotLog] {
        &self.shots
    }

    /// The seed of the next shot's decision (`mix(mix(G, 1), n)`, `n` the shot's number).
    pub fn decision_seed(&self) -> u64 {
        mix(self.seeds.0, self.shots.len() as u64)
    }

    /// The [`Turn`] of the seat to shoot, with [`GameInPlay::decision_seed`].
    pub fn turn<'a>(
        &'a self,
        board: &'a Board,
        physics: &'a Physics,
    ) -> Result<Turn<'a>, PlayError> {
        Turn::new(board, physics, &self.game, self.decision_seed()).map_err(|error| {
            PlayError::Game {
                game: self.index,
                error,
            }
        })
    }
}

/// What a shot's log says of how it was played (the rest follows from its record).
struct Played {
    intended: FlickLog,
    value: Option<f64>,
    candidates: u32,
    executed: FlickLog,
    start: StartLog,
    forfeit: Option<String>,
}

impl GameInPlay {
    /// Logs shot `number` of `seat` (`team`), played as `played`, with its outcome and the
    /// game's record of it; returns the log.
    fn record(
        &mut self,
        number: u64,
        seat: u8,
        team: u8,
        played: Played,
        outcome: Outcome,
        record: ShotRecord,
    ) -> &ShotLog {
        let twenties = record
            .round_end
            .map_or(self.game.twenties(), |r| r.twenties);
        let board_score = record.verdict.board_score;
        self.shots.push(ShotLog {
            round: record.round,
            shot: record.shot,
            number,
            seat,
            team,
            intended: played.intended,
            value: played.value,
            candidates: played.candidates,
            executed: played.executed,
            start: played.start,
            outcome,
            verdict: record.verdict,
            discs_left: record.discs_left,
            twenties,
            round_totals: round_totals(twenties, board_score),
            score: self.game.score(),
            round_end: record.round_end.is_some(),
            next_turn: record.next_turn,
            forfeit: played.forfeit,
        });
        &self.shots[self.shots.len() - 1]
    }
}

impl PlayConfig {
    /// Checks the configuration: 2 or 4 players (field `players`), one strategy per seat
    /// in play or, with four players, per team (`strategies`), each strategy's own
    /// parameters, the noise widths ([`Noise::check`], fields `noise.*`), and
    /// `max_rounds >= 1`.
    pub fn check(&self) -> Result<(), InputError> {
        if !valid_players(self.players) {
            return Err(InputError::new(
                "players",
                format!("must be 2 or 4, got {}", self.players),
            ));
        }
        let seats = seats_in_play(self.players).len();
        let n = self.strategies.len();
        if !(n == seats || (self.players == 4 && n == 2)) {
            let want = if self.players == 4 {
                "4 strategies (one per seat) or 2 (one per team)"
            } else {
                "2 strategies (one per seat)"
            };
            return Err(InputError::new(
                "strategies",
                format!("expected {want} for {} players, got {n}", self.players),
            ));
        }
        for s in &self.strategies {
            s.check(&self.physics)?;
        }
        self.noise.check(&self.board, &self.physics)?;
        if self.max_rounds == 0 {
            return Err(InputError::new("max_rounds", "must be at least 1, got 0"));
        }
        Ok(())
    }

    /// The strategy of `seat` (a seat in play).
    pub fn strategy_of(&self, seat: u8) -> &dyn Strategy {
        let seats = seats_in_play(self.players);
        let k = if self.strategies.len() == seats.len() {
            seats.iter().position(|&s| s == seat).unwrap_or(0)
        } else {
            usize::from(team_of_seat(seat, self.players).unwrap_or(0))
        };
        self.strategies[k.min(self.strategies.len() - 1)].as_ref()
    }

    /// Who sits where, in seat order.
    pub fn seats(&self) -> Vec<SeatLog> {
        seats_in_play(self.players)
            .iter()
            .map(|&seat| SeatLog {
                seat,
                team: team_of_seat(seat, self.players).unwrap_or(0),
                strategy: self.strategy_of(seat).name(),
            })
            .collect()
    }

    /// Plays game `index` of the run to its end (or to `max_rounds`). Run
    /// [`PlayConfig::check`] first. Batches inside run on the current rayon pool; the log
    /// does not depend on it. The same as [`PlayConfig::start`], then [`PlayConfig::decide`]
    /// and [`PlayConfig::execute`] while [`PlayConfig::turn`] names a seat, then
    /// [`PlayConfig::finish`].
    pub fn play(&self, index: u64) -> Result<GameLog, PlayError> {
        self.play_until(index, &Cancel::never())
    }

    /// [`PlayConfig::play`] that stops when `cancel` is cancelled: it is checked before and
    /// after each decision (the strategies' batches and searches watch it too,
    /// [`Turn::cancel`]) and while each shot runs, so a game stops within milliseconds of
    /// the request, with [`PlayError::Stopped`]: a stopped game has no log. Uncancelled,
    /// the log is [`PlayConfig::play`]'s.
    pub fn play_until(&self, index: u64, cancel: &Cancel) -> Result<GameLog, PlayError> {
        let stopped = |why| PlayError::Stopped { game: index, why };
        let mut game = self.start(index)?;
        while self.turn(&game).is_some() {
            cancel.check().map_err(stopped)?;
            let decision = self.decide_until(&game, cancel)?;
            cancel.check().map_err(stopped)?;
            self.execute_until(&mut game, decision, cancel)?;
        }
        Ok(self.finish(game))
    }

    /// Game `index` of the run, before its first shot, to be played one shot at a time
    /// (by [`PlayConfig::play`], or by a caller that makes some decisions itself).
    pub fn start(&self, index: u64) -> Result<GameInPlay, PlayError> {
        let game_seed = mix(self.seed, index);
        let game = Game::from_seed(self.players, self.ruleset, game_seed)
            .map_err(|error| PlayError::Game { game: index, error })?;
        Ok(GameInPlay {
            index,
            seeds: (mix(game_seed, DECIDE), mix(game_seed, EXECUTE)),
            game,
            shots: Vec::new(),
        })
    }

    /// The seat to shoot next in `game`; `None` once the game is over, or when a new round
    /// would start after `max_rounds` rounds (the game stops there, capped).
    pub fn turn(&self, game: &GameInPlay) -> Option<u8> {
        let seat = game.game.turn()?;
        let capped = game.game.shots_in_round() == 0
            && game.game.rounds().len() as u64 >= u64::from(self.max_rounds);
        (!capped).then_some(seat)
    }

    /// The decision of the strategy of the seat to shoot ([`PlayConfig::strategy_of`]),
    /// with the decision seed of the game's next shot ([`GameInPlay::decision_seed`]).
    /// Refuses a game that is over ([`GameError::Over`]).
    pub fn decide(&self, game: &GameInPlay) -> Result<Decision, PlayError> {
        self.decide_until(game, &Cancel::never())
    }

    /// [`PlayConfig::decide`] whose strategy's work stops when `cancel` is cancelled
    /// ([`Turn::cancel`]); the decision is then meaningless and must be thrown away.
    pub fn decide_until(&self, game: &GameInPlay, cancel: &Cancel) -> Result<Decision, PlayError> {
        let index = game.index;
        let turn = game
            .turn(&self.board, &self.physics)?
            .with_cancel(cancel.clone());
        self.strategy_of(turn.seat())
            .choose(&turn)
            .map_err(|error| PlayError::NoLegalFlick { game: index, error })
    }

    /// The seat to shoot plays `decision` (its intended flick, which must be legal where
    /// it stands, [`Turn::legal`]; an illegal one is refused with its reason,
    /// [`Turn::check`], or forfeits the shot with it as reason when the seat's strategy
    /// [`forfeits_illegal`](Strategy::forfeits_illegal)): its player's error perturbs the flick (sample `number`
    /// of stream `execute`, `number` the shot's number in the game; the intended flick if
    /// the executed one is not legal), the engine runs it and the game judges it. Returns
    /// the shot's log, also kept in `game`.
    pub fn execute<'g>(
        &self,
        game: &'g mut GameInPlay,
        decision: Decision,
    ) -> Result<&'g ShotLog, PlayError> {
        self.execute_until(game, decision, &Cancel::never())
    }

    /// [`PlayConfig::execute`] with `noise` as the shooting player's error instead of the
    /// configuration's [`PlayConfig::noise`] (a game whose seats have errors of their own,
    /// such as a refereed match): the same execution stream, sample and checks.
    pub fn execute_with_noise<'g>(
        &self,
        game: &'g mut GameInPlay,
        decision: Decision,
        noise: Noise,
        cancel: &Cancel,
    ) -> Result<&'g ShotLog, PlayError> {
        self.execute_noisy(game, decision, noise, cancel)
    }

    /// [`PlayConfig::execute`] whose shot stops when `cancel` is cancelled
    /// ([`PlayError::Stopped`]; the game is then left as it was before the shot).
    pub fn execute_until<'g>(
        &self,
        game: &'g mut GameInPlay,
        decision: Decision,
        cancel: &Cancel,
    ) -> Result<&'g ShotLog, PlayError> {
        self.execute_noisy(game, decision, self.noise, cancel)
    }

    /// The shot of [`PlayConfig::execute_until`] under the error `noise`.
    fn execute_noisy<'g>(
        &self,
        game: &'g mut GameInPlay,
        decision: Decision,
        noise: Noise,
        cancel: &Cancel,
    ) -> Result<&'g ShotLog, PlayError> {
        let (index, number) = (game.index, game.shots.len() as u64);
        let game_err = |error| PlayError::Game { game: index, error };
        let (board, physics) = (&self.board, &self.physics);
        let turn = game.turn(board, physics)?;
        let (seat, team) = (turn.seat(), turn.team());
        let intended = match turn.check(&decision.flick) {
            Ok(flick) => flick,
            // A strategy that asks for it forfeits the shot of an illegal flick.
            Err(e) if self.strategy_of(seat).forfeits_illegal() => {
                let reason = format!("illegal flick: {e}");
                return self.forfeit(game, Some(decision.flick), &reason);
            }
            Err(e) => {
                return Err(game_err(GameError::Input(InputError::new(
                    "flick",
                    format!(
                        "the strategy `{}` chose an illegal flick: {e}",
                        self.strategy_of(seat).name()
                    ),
                ))));
            }
        };
        // The flick the seat actually plays: sample `number` of its player's error
        // around the intended flick (the intended flick itself if the sampler refuses).
        let executed = turn
            .setup()
            .sampler(decision.flick, noise)
            .map_or(decision.flick, |s| s.sample(game.seeds.1, number));
        let (executed, flick) = match turn.legal(&executed) {
            Some(flick) => (executed, flick),
            None => (decision.flick, intended),
        };
        let outcome = match run_shot_until(board, physics, &game.game.shot(flick), cancel) {
            Ok(o) => o,
            Err(ShotError::Input(e)) => return Err(game_err(GameError::Input(e))),
            Err(ShotError::Cancelled(why)) => return Err(PlayError::Stopped { game: index, why }),
        };
        let record = game
            .game
            .play_outcome(seat, flick, &outcome, board, physics)
            .map_err(game_err)?;
        let played = Played {
            intended: decision.flick.into(),
            value: decision.value,
            candidates: decision.candidates,
            executed: executed.into(),
            start: flick.into(),
            forfeit: None,
        };
        Ok(game.record(number, seat, team, played, outcome, record))
    }

    /// The seat to shoot forfeits its shot ([`Game::forfeit_shot`]: its disc removed as a
    /// shot off the board that touched nothing), for `reason` (kept in the log). `intended`
    /// is the flick it meant to play, if any (logged as intended and executed; a zero flick
    /// otherwise); no noise is drawn, so the shots after it keep their numbers and draws.
    pub fn forfeit<'g>(
        &self,
        game: &'g mut GameInPlay,
        intended: Option<PlayerFlick>,
        reason: &str,
    ) -> Result<&'g ShotLog, PlayError> {
        let (index, number) = (game.index, game.shots.len() as u64);
        let game_err = |error| PlayError::Game { game: index, error };
        let seat = game.game.turn().ok_or(game_err(GameError::Over))?;
        let team = game.game.team_of(seat).unwrap_or(0);
        let (start, outcome, record) = game
            .game
            .forfeit_shot(seat, &self.board, &self.physics)
            .map_err(game_err)?;
        let flick = FlickLog::from(intended.unwrap_or(PlayerFlick {
            offset: 0.0,
            aim: 0.0,
            target: None,
            speed: 0.0,
            spin: 0.0,
        }));
        let played = Played {
            intended: flick,
            value: None,
            candidates: 0,
            executed: flick,
            start: start.into(),
            forfeit: Some(reason.to_string()),
        };
        Ok(game.record(number, seat, team, played, outcome, record))
    }

    /// The log of a game played as far as it goes: over, or stopped by `max_rounds`
    /// (`capped`: then its last shot has no next turn).
    pub fn finish(&self, game: GameInPlay) -> GameLog {
        let capped = game.game.turn().is_some() && self.turn(&game).is_none();
        let GameInPlay {
            index,
            game,
            mut shots,
            ..
        } = game;
        if capped && let Some(last) = shots.last_mut() {
            last.next_turn = None;
        }
        self.game_log(index, &game, shots, capped)
    }

    /// The log of game `index`, played to where `game` stands.
    fn game_log(&self, index: u64, game: &Game, shots: Vec<ShotLog>, capped: bool) -> GameLog {
        let result = game.result();
        GameLog {
            game: index,
            seed: self.seed,
            players: self.players,
            ruleset: self.ruleset,
            noise: self.noise.into(),
            skill: SkillLevel::of_noise(&self.noise).map(|l| l.name),
            max_rounds: self.max_rounds,
            seats: self.seats(),
            first_seat: game.first_seat(),
            shots,
            rounds: game.rounds().to_vec(),
            score: game.score(),
            result,
            winner: result.and_then(GameResult::winner),
            capped,
        }
    }
}
