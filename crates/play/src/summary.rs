//! The summary of many games: win rates with 95 % Wilson intervals, draws, mean round
//! points and totals, 20s per round, rounds per game; and what a real game's statistics
//! report (docs/play.md, `../shared/data/real-games.md`): 20s per player-round and their
//! distribution, the hammer's rounds won, tied and lost, round points per round (2 a win,
//! 1 a tie), counted as [`crate::stats`] counts match records.
//!
//! Each game is reduced to integer counts ([`GameStats`]) on the worker that played it;
//! the counts are added serially in game order ([`SummaryTally`]) and every mean is one
//! division of exact integer sums at the end, so the summary does not depend on the thread
//! count. The intervals of the means come from exact integer sums of squares over games
//! ([`Moments`]): a game's rounds are not independent (the same players, the same
//! strategies), so the game is the unit of the interval (a ratio estimator's variance with
//! games as clusters). `crokinole_io::games_summary_json` writes it as JSON.

use crate::run::{GAMES_CHUNK, GameLog, NoiseLog, PlayConfig, PlayError, SeatLog};
use crate::stats::RoundFacts;
use crokinole_core::cancel::Cancel;
use crokinole_core::error::InputError;
use crokinole_montecarlo::tally::{Proportion, Stopped, Z95};
use crokinole_rules::{GameResult, Ruleset};

/// Bins of the histogram of 20s in a round: 0 to 12, the most discs a team shoots in a
/// round (12 a player in traditional singles, 6 each of two in doubles).
pub const TWENTIES_BINS: usize = 13;

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
    /// Round points per team as real tournament records count them, whatever the rule
    /// set: 2 for a round won (the higher round total), 1 for a tie, 0 for a loss.
    pub round_points: [u64; 2],
    /// Per team, the rounds it had the hammer (its seat shot last): won, tied, lost.
    pub hammer: [[u64; 3]; 2],
    /// Player-rounds by the player's 20s in the round (bin `k`: `k` 20s); in doubles a
    /// team-round by the team's 20s (the rounds record 20s per team).
    pub twenties_histogram: [u64; TWENTIES_BINS],
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
        for (r, f) in log.rounds.iter().zip(RoundFacts::of_game(log)) {
            for t in 0..2 {
                s.twenties[t] += u64::from(r.twenties[t]);
                s.totals[t] += u64::from(r.totals[t]);
                s.points[t] += u64::from(r.points[t]);
                let bin = (r.twenties[t] as usize).min(TWENTIES_BINS - 1);
                s.twenties_histogram[bin] += 1;
            }
            // 0 won, 1 tied, 2 lost, for team 0; team 1 the other way round.
            let k = match f.winner {
                Some(0) => 0,
                None => 1,
                Some(_) => 2,
            };
            s.round_points[0] += 2 - k as u64;
            s.round_points[1] += k as u64;
            if let Some(h) = f.hammer {
                let h = usize::from(h.min(1));
                s.hammer[h][if h == 0 { k } else { 2 - k }] += 1;
            }
        }
        s
    }
}

/// Sums over games of squares and products of a game's counts, for the intervals of
/// the means per round: with `x_g` a game's count (20s, round points), `n_g` its rounds
/// and `r = sum x / sum n`, the variance of `r` is estimated by
/// `G / (G - 1) * sum (x_g - r n_g)^2 / (sum n)^2` over the `G` games (the ratio
/// estimator with games as clusters). Every sum is an exact integer, added in game order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Moments {
    /// Sum of `rounds^2`.
    pub rounds_sq: u64,
    /// Sum of `twenties^2`: team 0, team 1, both.
    pub twenties_sq: [u64; 3],
    /// Sum of `twenties * rounds`: team 0, team 1, both.
    pub twenties_rounds: [u64; 3],
    /// Sum of `round_points^2` per team.
    pub points_sq: [u64; 2],
    /// Sum of `round_points * rounds` per team.
    pub points_rounds: [u64; 2],
}

impl Moments {
    /// One game's squares and products.
    fn of(g: &GameStats) -> Moments {
        let both = g.twenties[0] + g.twenties[1];
        let tw = [g.twenties[0], g.twenties[1], both];
        Moments {
            rounds_sq: g.rounds * g.rounds,
            twenties_sq: tw.map(|x| x * x),
            twenties_rounds: tw.map(|x| x * g.rounds),
            points_sq: g.round_points.map(|x| x * x),
            points_rounds: g.round_points.map(|x| x * g.rounds),
        }
    }

    fn add(&mut self, m: &Moments) {
        self.rounds_sq += m.rounds_sq;
        for i in 0..3 {
            self.twenties_sq[i] += m.twenties_sq[i];
            self.twenties_rounds[i] += m.twenties_rounds[i];
        }
        for t in 0..2 {
            self.points_sq[t] += m.points_sq[t];
            self.points_rounds[t] += m.points_rounds[t];
        }
    }
}

/// A mean per unit (a player-round, a round) with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mean {
    /// The mean: one division of exact sums.
    pub mean: f64,
    /// `mean -+ 1.96` standard errors, games as clusters ([`Moments`]), the low end cut at
    /// 0; `None` with fewer than 2 games.
    pub ci95: Option<[f64; 2]>,
}

impl Mean {
    /// The mean of `x / (size * n)` over `games` games, where `x = sum x_g`, `n = sum n_g`
    /// (rounds), `xx = sum x_g^2`, `xn = sum x_g n_g`, `nn = sum n_g^2`, and each round
    /// counts `size` units (players of a team, say): `r = x / (size n)`, its variance
    /// `G / (G - 1) * sum (x_g - r size n_g)^2 / (size n)^2`. The sum of squares is
    /// `(xx N^2 - 2 x N xn + x^2 nn) / N^2` with `N = n` (the size cancels), formed in exact
    /// 128-bit integers so nothing cancels in floating point.
    pub fn of_ratio(games: u64, size: u64, x: u64, n: u64, xx: u64, xn: u64, nn: u64) -> Mean {
        if n == 0 || size == 0 {
            return Mean {
                mean: 0.0,
                ci95: None,
            };
        }
        let mean = x as f64 / (size * n) as f64;
        let ci95 = (games >= 2).then(|| {
            let (x, n) = (i128::from(x), i128::from(n));
            let (xx, xn, nn) = (i128::from(xx), i128::from(xn), i128::from(nn));
            // sum (x_g - (x / n) n_g)^2 * n^2, exact (never negative: a sum of squares).
            let ss_n2 = (xx * n * n - 2 * x * n * xn + x * x * nn).max(0);
            let nf = n as f64;
            let g = games as f64;
            let var = g / (g - 1.0) * (ss_n2 as f64 / (nf * nf)) / ((size as f64 * nf).powi(2));
            let half = Z95 * var.sqrt();
            // A count per round is never negative: the normal interval is cut at 0.
            [(mean - half).max(0.0), mean + half]
        });
        Mean { mean, ci95 }
    }
}

/// The rounds in which a team had the hammer (or every round), and how the hammer fared.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HammerSummary {
    /// Rounds counted.
    pub rounds: u64,
    /// Won by the hammer, with the 95 % Wilson interval (`None` without a round).
    pub won: Option<Proportion>,
    /// Tied.
    pub tied: Option<Proportion>,
    /// Lost.
    pub lost: Option<Proportion>,
}

impl HammerSummary {
    /// Of `counts` (won, tied, lost).
    pub fn of(counts: [u64; 3]) -> HammerSummary {
        let rounds = counts.iter().sum::<u64>();
        let share = |k: usize| (rounds > 0).then(|| Proportion::new(counts[k], rounds));
        HammerSummary {
            rounds,
            won: share(0),
            tied: share(1),
            lost: share(2),
        }
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
    /// Sums over the games of squares and products of their counts (the intervals).
    pub moments: Moments,
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
            s.round_points[t] += g.round_points[t];
            for k in 0..3 {
                s.hammer[t][k] += g.hammer[t][k];
            }
        }
        for (a, b) in s.twenties_histogram.iter_mut().zip(g.twenties_histogram) {
            *a += b;
        }
        self.moments.add(&Moments::of(g));
    }

    /// The tally as [`TALLY_INTS`] integers, in a fixed order (for a run split into shards
    /// of games, as the Python package's distributed run does): tallies of disjoint sets of
    /// games add up, integer by integer, to the tally of their union
    /// ([`SummaryTally::from_ints`] reads them back).
    pub fn to_ints(&self) -> [u64; TALLY_INTS] {
        let (s, m) = (&self.sums, &self.moments);
        let mut v = vec![
            self.games,
            self.wins[0],
            self.wins[1],
            self.draws,
            self.unfinished,
            s.rounds,
            s.shots,
            s.cut_off,
        ];
        v.extend(s.twenties);
        v.extend(s.totals);
        v.extend(s.points);
        v.extend(s.round_points);
        v.extend(s.hammer.iter().flatten());
        v.extend(s.twenties_histogram);
        v.push(m.rounds_sq);
        v.extend(m.twenties_sq);
        v.extend(m.twenties_rounds);
        v.extend(m.points_sq);
        v.extend(m.points_rounds);
        v.try_into().expect("TALLY_INTS integers")
    }

    /// The tally [`SummaryTally::to_ints`] wrote.
    pub fn from_ints(v: &[u64; TALLY_INTS]) -> SummaryTally {
        let mut it = v.iter().copied();
        let mut next = || it.next().expect("TALLY_INTS integers");
        let mut t = SummaryTally {
            games: next(),
            wins: [next(), next()],
            draws: next(),
            unfinished: next(),
            ..SummaryTally::default()
        };
        let s = &mut t.sums;
        s.rounds = next();
        s.shots = next();
        s.cut_off = next();
        s.twenties = [next(), next()];
        s.totals = [next(), next()];
        s.points = [next(), next()];
        s.round_points = [next(), next()];
        s.hammer = [[next(), next(), next()], [next(), next(), next()]];
        s.twenties_histogram = std::array::from_fn(|_| next());
        let m = &mut t.moments;
        m.rounds_sq = next();
        m.twenties_sq = [next(), next(), next()];
        m.twenties_rounds = [next(), next(), next()];
        m.points_sq = [next(), next()];
        m.points_rounds = [next(), next()];
        t
    }

    /// The summary of the games added (at least one) under `config`.
    pub fn summary(&self, config: &PlayConfig) -> GamesSummary {
        let n = self.games.max(1);
        let rounds = self.sums.rounds;
        let per = |x: u64, d: u64| if d == 0 { 0.0 } else { x as f64 / d as f64 };
        let seats = config.seats();
        let (m, sums) = (&self.moments, &self.sums);
        let size = u64::from(config.players / 2).max(1);
        let ratio =
            |size, x, xx, xn| Mean::of_ratio(self.games, size, x, rounds, xx, xn, m.rounds_sq);
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
                    twenties_per_player_round: ratio(
                        size,
                        sums.twenties[t],
                        m.twenties_sq[t],
                        m.twenties_rounds[t],
                    ),
                    points_per_round: ratio(
                        1,
                        sums.round_points[t],
                        m.points_sq[t],
                        m.points_rounds[t],
                    ),
                    hammer: HammerSummary::of(sums.hammer[t]),
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
            player_rounds: rounds * u64::from(config.players),
            twenties_per_player_round: ratio(
                u64::from(config.players),
                sums.twenties[0] + sums.twenties[1],
                m.twenties_sq[2],
                m.twenties_rounds[2],
            ),
            twenties_histogram: histogram(&sums.twenties_histogram),
            hammer: HammerSummary::of(std::array::from_fn(|k| {
                sums.hammer[0][k] + sums.hammer[1][k]
            })),
        }
    }
}

/// The bins of a histogram that are not empty, `(20s, count)`, ascending.
fn histogram(bins: &[u64; TWENTIES_BINS]) -> Vec<(u32, u64)> {
    (0..TWENTIES_BINS as u32)
        .zip(bins.iter().copied())
        .filter(|&(_, c)| c > 0)
        .collect()
}

/// Integers of [`SummaryTally::to_ints`]: 5 counts of games, 3 of rounds and shots, 8 of
/// 20s, totals and points, 6 of the hammer, the histogram's bins, and the 11 moments.
pub const TALLY_INTS: usize = 5 + 3 + 8 + 6 + TWENTIES_BINS + 11;

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
    /// 20s per player-round (the team's 20s in a round over its players), with the
    /// interval of [`Mean`].
    pub twenties_per_player_round: Mean,
    /// Round points per round as real records count them (2 a round won, 1 tied, 0 lost,
    /// by the round totals, whatever the rule set), with the interval of [`Mean`].
    pub points_per_round: Mean,
    /// The rounds in which this team had the hammer (shot last), won, tied and lost.
    pub hammer: HammerSummary,
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
    /// Player-rounds: rounds times players.
    pub player_rounds: u64,
    /// 20s per player-round over every player, with the interval of [`Mean`].
    pub twenties_per_player_round: Mean,
    /// Player-rounds by the player's 20s in the round, `(20s, player-rounds)`, the empty
    /// bins left out; in doubles team-rounds by the team's 20s (rounds record 20s per
    /// team).
    pub twenties_histogram: Vec<(u32, u64)>,
    /// Every round's hammer (the team that shot last): won, tied, lost.
    pub hammer: HammerSummary,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interval_of_a_ratio_treats_games_as_clusters() {
        // Two games of 4 rounds with 2 and 6 20s: r = 1, sum (x - r n)^2 = 4 + 4, so the
        // variance is 2 / 1 * 8 / 8^2 = 0.25 and the standard error 0.5.
        let m = Mean::of_ratio(2, 1, 8, 8, 4 + 36, 8 + 24, 16 + 16);
        assert_eq!(m.mean, 1.0);
        let [lo, hi] = m.ci95.unwrap();
        assert!((hi - 1.0 - Z95 * 0.5).abs() < 1e-12 && (1.0 - lo - Z95 * 0.5).abs() < 1e-12);
        // Per player of a team of 2: the mean and the interval halve.
        let h = Mean::of_ratio(2, 2, 8, 8, 4 + 36, 8 + 24, 16 + 16);
        assert_eq!(h.mean, 0.5);
        assert!((h.ci95.unwrap()[1] - 0.5 - Z95 * 0.25).abs() < 1e-12);
        // Games that agree exactly: no spread.
        assert_eq!(
            Mean::of_ratio(2, 1, 8, 8, 32, 32, 32).ci95,
            Some([1.0, 1.0])
        );
        // One game: no interval.
        assert_eq!(Mean::of_ratio(1, 1, 2, 4, 4, 8, 16).ci95, None);
    }

    fn game(seed: u64) -> GameStats {
        let k = |i: u64| (seed * 7 + i * 3) % 5;
        GameStats {
            result: Some(GameResult::Won((seed % 2) as u8)),
            rounds: 4,
            shots: 64,
            cut_off: k(0),
            twenties: [k(1), k(2)],
            totals: [k(3) * 20, k(4) * 20],
            points: [k(5), k(6)],
            round_points: [k(7), 8 - k(7)],
            hammer: [[k(8), k(9), 0], [1, 0, k(10)]],
            twenties_histogram: std::array::from_fn(|i| k(i as u64 + 11)),
        }
    }

    #[test]
    fn tallies_as_integers_round_trip_and_add_up() {
        let mut a = SummaryTally::default();
        let mut b = SummaryTally::default();
        let mut all = SummaryTally::default();
        for g in 0..5 {
            (if g < 2 { &mut a } else { &mut b }).add(&game(g));
            all.add(&game(g));
        }
        assert_eq!(SummaryTally::from_ints(&all.to_ints()), all);
        let (va, vb) = (a.to_ints(), b.to_ints());
        let sum: [u64; TALLY_INTS] = std::array::from_fn(|i| va[i] + vb[i]);
        let back = SummaryTally::from_ints(&sum);
        // Everything but the per-game result (a sum has none) adds up.
        assert_eq!(back.games, all.games);
        assert_eq!(back.wins, all.wins);
        assert_eq!(back.moments, all.moments);
        assert_eq!(
            GameStats {
                result: None,
                ..back.sums
            },
            GameStats {
                result: None,
                ..all.sums
            }
        );
    }
}
