//! The referee's deterministic core: the game (through `play`'s game-in-progress API, so
//! a refereed game draws the same noise as `crokinole play`), and the messages that follow
//! from it. No clocks and no I/O here: the match (`run.rs`) and the replay (`replay.rs`)
//! both drive a [`Table`], so a log is checked by the code that made it.

use crate::config::{MatchConfig, PlayerSpec};
use crokinole_core::cancel::Cancel;
use crokinole_core::error::InputError;
use crokinole_io::match_protocol::{
    game_end_msg, hello_msg, params_value, round_end_msg, shot_msg, turn_msg,
};
use crokinole_montecarlo::{Noise, PlayerFlick};
use crokinole_play::{
    AnyStrategy, Decision, GameInPlay, PlayConfig, PlayError, ShotLog, Strategy, check_flick,
};
use crokinole_rules::{GameError, Ruleset};
use serde_json::Value;

/// Why a game ended.
#[derive(Clone, Debug, PartialEq)]
pub enum End {
    /// By the rules (traditional: a side reached 100).
    Score,
    /// Its rounds ran out (tournament: after 4; or the match's `max_rounds`).
    Rounds,
    /// A seat forfeited it.
    Forfeit {
        /// The seat.
        seat: u8,
        /// Why (`exited`, `total clock`, ...).
        why: String,
    },
}

impl End {
    /// The `reason` of `game_end`.
    pub fn reason(&self) -> &'static str {
        match self {
            End::Score => "score",
            End::Rounds => "rounds",
            End::Forfeit { .. } => "forfeit",
        }
    }
}

/// A game in progress under a referee.
pub struct Table {
    play: PlayConfig,
    game: GameInPlay,
    noises: [Noise; 4],
    params: (Value, Value),
    commitment: String,
    game_id: String,
    clock: crokinole_io::match_protocol::Clock,
}

impl Table {
    /// The game of `config` before its first shot. Run [`MatchConfig::check`] first.
    pub fn new(config: &MatchConfig) -> Result<Table, InputError> {
        let mut noises = [Noise::NONE; 4];
        let mut strategies: Vec<Box<dyn Strategy>> = Vec::new();
        for (&seat, s) in config.seat_numbers().iter().zip(&config.seats) {
            noises[usize::from(seat)] = s.noise;
            // The strategies only name a seat in `play`'s messages: a program's seat gets
            // the random strategy, which the referee never asks.
            let strategy = match &s.player {
                PlayerSpec::Builtin { strategy, .. } => *strategy,
                _ => AnyStrategy::parse("random", Noise::NONE)
                    .map_err(|e| InputError::new("seats", e))?,
            };
            strategies.push(Box::new(strategy));
        }
        let play = PlayConfig {
            board: config.board.clone(),
            physics: config.physics.clone(),
            players: config.players,
            ruleset: config.ruleset,
            strategies,
            noise: Noise::NONE,
            seed: config.seed,
            max_rounds: config.max_rounds,
        };
        let game = play
            .start(0)
            .map_err(|e| InputError::new("players", e.to_string()))?;
        Ok(Table {
            params: params_value(&config.board, &config.physics),
            commitment: config.commitment(),
            game_id: config.game_id.clone(),
            clock: config.clock,
            play,
            game,
            noises,
        })
    }

    /// The rule set.
    pub fn ruleset(&self) -> Ruleset {
        self.play.ruleset
    }

    /// The `hello` of `seat`.
    pub fn hello(&self, seat: u8) -> Value {
        let team = self.game.game().team_of(seat).unwrap_or(0);
        hello_msg(
            &self.game_id,
            seat,
            self.play.players,
            team,
            self.play.ruleset,
            &self.params,
            &self.noises[usize::from(seat)],
            &self.clock,
            &self.commitment,
        )
    }

    /// The seat to shoot; `None` once the game is over (or capped).
    pub fn to_shoot(&self) -> Option<u8> {
        self.play.turn(&self.game)
    }

    /// The shots played so far.
    pub fn shots(&self) -> &[ShotLog] {
        self.game.shots()
    }

    /// The round's running totals per team before the next shot.
    fn round_totals(&self) -> [u32; 2] {
        match self.game.shots().last() {
            Some(s) if !s.round_end => s.round_totals,
            _ => [0, 0],
        }
    }

    /// The `turn` of the seat to shoot, with its remaining clock.
    pub fn turn_msg(&self, clock_left_s: f64) -> Option<Value> {
        let seat = self.to_shoot()?;
        let g = self.game.game();
        Some(turn_msg(
            g.round() + 1,
            g.shots_in_round(),
            seat,
            g.position(),
            g.discs_left_per_seat(),
            g.score(),
            self.round_totals(),
            clock_left_s,
        ))
    }

    /// Whether `flick` is legal for the seat to shoot, and if not the first thing wrong,
    /// naming the field ([`check_flick`]: `flick.*` for its numbers, `shooter.pos` for its
    /// placement or an overlap, `shooter.vel` for a speed over `max_speed`).
    pub fn check_flick(&self, flick: &PlayerFlick) -> Result<(), InputError> {
        let (board, physics) = (&self.play.board, &self.play.physics);
        let turn = self
            .game
            .turn(board, physics)
            .map_err(|e| InputError::new("flick", e.to_string()))?;
        check_flick(turn.setup(), flick).map(|_| ())
    }

    /// The flick a built-in strategy chooses for the seat to shoot, with the decision seed
    /// `crokinole play` would give it.
    pub fn decide(
        &self,
        strategy: &dyn Strategy,
        cancel: &Cancel,
    ) -> Result<PlayerFlick, PlayError> {
        let turn = self
            .game
            .turn(&self.play.board, &self.play.physics)?
            .with_cancel(cancel.clone());
        strategy
            .choose(&turn)
            .map(|d| d.flick)
            .map_err(|error| PlayError::NoLegalFlick { game: 0, error })
    }

    /// Plays the seat to shoot's legal `intended` flick with its noise: the `shot`
    /// message, and `round_end` if the shot ended a round.
    pub fn play(
        &mut self,
        intended: PlayerFlick,
        cancel: &Cancel,
    ) -> Result<Vec<Value>, PlayError> {
        let seat = self.to_shoot().ok_or(PlayError::Game {
            game: 0,
            error: GameError::Over,
        })?;
        let decision = Decision {
            flick: intended,
            value: None,
            candidates: 0,
        };
        let noise = self.noises[usize::from(seat)];
        self.play
            .execute_with_noise(&mut self.game, decision, noise, cancel)?;
        Ok(self.after_shot())
    }

    /// The seat to shoot forfeits its shot for `why` (`bad flick`, `shot clock`): its disc
    /// is removed as a shot off the board that touched nothing, no noise is drawn.
    pub fn forfeit_shot(&mut self, why: &str) -> Result<Vec<Value>, PlayError> {
        self.play.forfeit(&mut self.game, None, why)?;
        Ok(self.after_shot())
    }

    /// The messages after the last shot: `shot` (marked `forfeit` if it was) and
    /// `round_end` when it ended a round.
    fn after_shot(&self) -> Vec<Value> {
        let shots = self.game.shots();
        let Some(s) = shots.last() else {
            return Vec::new();
        };
        let before = match shots.len().checked_sub(2).map(|k| &shots[k]) {
            Some(p) if !p.round_end => p.round_totals,
            _ => [0, 0],
        };
        let own = usize::from(s.team);
        let diff = |t: [u32; 2]| i64::from(t[own]) - i64::from(t[1 - own]);
        let mut out = vec![shot_msg(s, diff(s.round_totals) - diff(before))];
        if s.round_end
            && let Some(r) = self.game.game().rounds().last()
        {
            out.push(round_end_msg(r.round + 1, r.points, r.score));
        }
        out
    }

    /// How the game ended, if it did without a forfeit.
    pub fn end(&self) -> Option<End> {
        if self.to_shoot().is_some() {
            return None;
        }
        match (self.game.game().result(), self.play.ruleset) {
            (Some(_), Ruleset::Traditional) => Some(End::Score),
            _ => Some(End::Rounds),
        }
    }

    /// The game's finished rounds, in order.
    pub fn rounds(&self) -> &[crokinole_rules::RoundRecord] {
        self.game.game().rounds()
    }

    /// The game's totals per team.
    pub fn scores(&self) -> [u32; 2] {
        self.game.game().score()
    }

    /// The winning team for an end: the other team for a forfeit, else the rules' winner.
    pub fn winner(&self, end: &End) -> Option<u8> {
        match end {
            End::Forfeit { seat, .. } => {
                let team = self.game.game().team_of(*seat).unwrap_or(0);
                Some(1 - team)
            }
            _ => self.game.game().result().and_then(|r| r.winner()),
        }
    }

    /// The `game_end` message, revealing `seed`.
    pub fn game_end(&self, end: &End, seed: u64) -> Value {
        let forfeit = match end {
            End::Forfeit { seat, why } => Some((*seat, why.as_str())),
            _ => None,
        };
        game_end_msg(self.scores(), self.winner(end), end.reason(), seed, forfeit)
    }
}
