//! The summary of many games: win rates with 95 % Wilson intervals, draws, mean round
//! points and totals, 20s per round, rounds per game.
//!
//! Each game is reduced to integer counts ([`GameStats`]) on the worker that played it;
//! the counts are added serially in game order ([`SummaryTally`]) and every mean is one
//! division of exact integer sums at the end, so the summary does not depend on the thread
//! count. `crokinole_io::games_summary_json` writes it as JSON.

use crate::run::{GAMES_CHUNK, GameLog, NoiseLog, PlayConfig, PlayError, SeatLog};
use crokinole_core::cancel::Cancel;
use crokinole_core::error::InputError;
use crokinole_montecarlo::tally::{Proportion, Stopped};
use crokinole_rules::{GameResult, Ruleset};

/// What one game contributes to a summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameStats {
    /// How it ended (`None`: stopped unfinished at `max_rounds`).
    pub result: Option<GameResult>,
    /// Rounds played.
    pub rounds: u64,
    /// Shots played.
    pub shots: u64,
    /// Shots cut off by `max_time`.
    pub cut_off: u64,
    /// 20s per team, summed over the rounds.
    pub twenties: [u64; 2],
    /// Round totals (`20 * twenties + board_score`) per team, summed over the rounds.
    pub totals: [u64; 2],
    /// Game points per team, summed over the rounds (= the final game score).
    pub points: [u64; 2],
}

impl GameStats {
    /// The counts of a game log.
    pub fn of(log: &GameLog) -> GameStats {
        let mut s = GameStats {
            result: log.result,
            rounds: log.rounds.len() as u64,
            shots: log.shots.len() as u64,
            cut_off: log.shots.iter().filter(|s| s.outcome.cut_off).count() as u64,
            ..GameStats::default()
        };
        for r in &log.rounds {
            for t in 0..2 {
                s.twenties[t] += u64::from(r.twenties[t]);
                s.totals[t] += u64::from(r.totals[t]);
                s.points[t] += u64::from(r.points[t]);
            }
        }
        s
    }
}

/// Counts of many games, added in game order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SummaryTally {
    /// Games added.
    pub games: u64,
    /// Games won per team.
    pub wins: [u64; 2],
    /// Drawn games.
    pub draws: u64,
    /// Games stopped at `max_rounds`.
    pub unfinished: u64,
    /// Sums of the games' [`GameStats`].
    pub sums: GameStats,
}

impl SummaryTally {
    /// Adds one game.
    pub fn add(&mut self, g: &GameStats) {
        self.games += 1;
        match g.result {
            Some(GameResult::Won(t)) => self.wins[usize::from(t.min(1))] += 1,
            Some(GameResult::Draw) => self.draws += 1,
            None => self.unfinished += 1,
        }
        let s = &mut self.sums;
        s.rounds += g.rounds;
        s.shots += g.shots;
        s.cut_off += g.cut_off;
        for t in 0..2 {
            s.twenties[t] += g.twenties[t];
            s.totals[t] += g.totals[t];
            s.points[t] += g.points[t];
        }
    }

    /// The summary of the games added (at least one) under `config`.
    pub fn summary(&self, config: &PlayConfig) -> GamesSummary {
        let n = self.games.max(1);
        let rounds = self.sums.rounds;
        let per = |x: u64, d: u64| if d == 0 { 0.0 } else { x as f64 / d as f64 };
        let seats = config.seats();
        let teams = (0..2u8)
            .map(|team| {
                let t = usize::from(team);
                TeamSummary {
                    team,
                    seats: seats
                        .iter()
                        .filter(|s| s.team == team)
                        .map(|s| s.seat)
                        .collect(),
                    wins: Proportion::new(self.wins[t], n),
                    mean_round_points: per(self.sums.points[t], rounds),
                    mean_round_total: per(self.sums.totals[t], rounds),
                    twenties_per_round: per(self.sums.twenties[t], rounds),
                    mean_game_score: per(self.sums.points[t], n),
                }
            })
            .collect();
        GamesSummary {
            games: self.games,
            stopped: None,
            seed: config.seed,
            players: config.players,
            ruleset: config.ruleset,
            noise: config.noise.into(),
            skill: crokinole_montecarlo::SkillLevel::of_noise(&config.noise).map(|l| l.name),
            max_rounds: config.max_rounds,
            seats,
            teams,
            draws: Proportion::new(self.draws, n),
            unfinished: self.unfinished,
            rounds,
            mean_rounds_per_game: per(rounds, n),
            shots: self.sums.shots,
            cut_off: self.sums.cut_off,
        }
    }
}

/// Most games one run plays: hours of play on a few cores with the fast strategies.
pub const MAX_GAMES: u64 = 1_000_000;

impl PlayConfig {
    /// Plays games `0..games` (1 to [`MAX_GAMES`]) on the current rayon pool, `GAMES_CHUNK` at a time in
    /// parallel ([`crokinole_core::batch::map_ordered`]), and folds their [`GameStats`] serially in
    /// game order into the [`GamesSummary`]. The first failing game (in game order) stops the
    /// run with its error. Identical for every thread count.
    pub fn play_many(&self, games: u64) -> Result<GamesSummary, PlayError> {
        self.play_many_until(games, || (), &Cancel::never())
    }

    /// [`PlayConfig::play_many`], calling `on_game` on the worker as each game ends (a
    /// progress bar) and stopped by `cancel` ([`PlayConfig::play_until`]: between shots
    /// and within them, so within milliseconds): the summary is then that of the first
    /// games, in order, up to the first stopped one, marked [`Stopped`] (game `g` depends
    /// on the seed and `g` alone, so it is the summary of that many games); a stopped game
    /// is not counted.
    pub fn play_many_until(
        &self,
        games: u64,
        on_game: impl Fn() + Sync,
        cancel: &Cancel,
    ) -> Result<GamesSummary, PlayError> {
        let none = |()| Ok::<(), std::convert::Infallible>(());
        self.play_each_until(games, |_| (), none, on_game, cancel)
            .map(|done| done.unwrap_or_else(|never| match never {}))
    }

    /// [`PlayConfig::play_many_until`], keeping something of every game: `each` makes it
    /// from the game's log on the worker that played it (a match record, say), and `sink`
    /// receives those in game order as each chunk ends (its error stops the run: nothing
    /// more is played, and it is returned inside the `Ok`). The summary is the one
    /// `play_many_until` gives for the same games, byte for byte.
    pub fn play_each_until<T: Send, E>(
        &self,
        games: u64,
        each: impl Fn(&GameLog) -> T + Sync,
        mut sink: impl FnMut(T) -> Result<(), E>,
        on_game: impl Fn() + Sync,
        cancel: &Cancel,
    ) -> Result<Result<GamesSummary, E>, PlayError> {
        if !(1..=MAX_GAMES).contains(&games) {
            return Err(PlayError::Input(InputError::new(
                "games",
                format!("must be 1 to {MAX_GAMES:e}, got {games}"),
            )));
        }
        let mut tally = SummaryTally::default();
        let played = |g| {
            let kept = self
                .play_until(g, cancel)
                .map(|log| (GameStats::of(&log), each(&log)));
            on_game();
            kept
        };
        let stop = || cancel.is_cancelled();
        for item in crokinole_core::batch::map_ordered_until(0..games, GAMES_CHUNK, played, stop) {
            match item {
                Err(PlayError::Stopped { .. }) => break,
                item => {
                    let (stats, kept) = item?;
                    tally.add(&stats);
                    if let Err(e) = sink(kept) {
                        return Ok(Err(e));
                    }
                }
            }
        }
        let mut summary = tally.summary(self);
        if tally.games < games {
            summary.stopped = Some(Stopped { requested: games });
        }
        Ok(Ok(summary))
    }
}

/// One team's results over the games.
#[derive(Clone, Debug, PartialEq)]
pub struct TeamSummary {
    /// The team.
    pub team: u8,
    /// Its seats.
    pub seats: Vec<u8>,
    /// Games won, of all games (draws and unfinished games count as not won), with the
    /// 95 % Wilson score interval.
    pub wins: Proportion,
    /// Game points per round (traditional: the difference to the round's winner, 0 to the
    /// loser; tournament: 2, 1 or 0).
    pub mean_round_points: f64,
    /// Round total per round: `20 * twenties + board_score` at the end of the round.
    pub mean_round_total: f64,
    /// 20s per round.
    pub twenties_per_round: f64,
    /// Final game score per game.
    pub mean_game_score: f64,
}

/// The summary of a run of games (`crokinole play --games N`, `N > 1`).
#[derive(Clone, Debug, PartialEq)]
pub struct GamesSummary {
    /// Games played.
    pub games: u64,
    /// Set when the run was stopped before its end (Ctrl-C): the summary is then that of
    /// the `games` it finished, which are the run of that many games (game `g` depends on
    /// the seed and `g` alone).
    pub stopped: Option<Stopped>,
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
    /// Cap on the rounds of a game.
    pub max_rounds: u32,
    /// Who sits where.
    pub seats: Vec<SeatLog>,
    /// Team 0, team 1.
    pub teams: Vec<TeamSummary>,
    /// Drawn games (tournament rules only), with the 95 % Wilson score interval.
    pub draws: Proportion,
    /// Games stopped at `max_rounds`.
    pub unfinished: u64,
    /// Rounds played in all.
    pub rounds: u64,
    /// Rounds per game.
    pub mean_rounds_per_game: f64,
    /// Shots played in all.
    pub shots: u64,
    /// Shots cut off by `max_time` (0 in ordinary games).
    pub cut_off: u64,
}
