//! A real game's statistics, counted over rounds: what tournament records report and
//! what a simulated game is compared with (docs/stats.md).
//!
//! A round is seen as a match record sees it ([`RoundFacts`]): its winner (or a tie), the
//! team with the hammer (the one that shoots last in the round), the 20s and the raw
//! totals of each team, any of which a record may lack. [`RoundStatsTally`] counts them in
//! exact integers, overall and per player (each team's players named); [`RoundStats`] is
//! the result, every mean one division at the end. The same facts come from a game this
//! library played ([`RoundFacts::of_game`]) or from a Crokinole Match Notation record, so
//! a club's own games and simulated ones are counted one way.
//!
//! Definitions, as in the published tournament figures:
//! - **20s per player-round**: a team's 20s in a round divided by its players (one in
//!   singles), averaged over the player-rounds of rounds whose 20s are recorded. The
//!   distribution is that of a team's 20s in a round (singles: a player's).
//! - **the hammer's rounds**: of the rounds whose hammer is recorded, the share the hammer
//!   team won, tied and lost.
//! - **points per round**: round points, 2 a win, 1 a tie, 0 a loss (every round gives 2 in
//!   all, so the overall mean is 1; per player it measures strength).

use crate::run::GameLog;
use crokinole_montecarlo::tally::Proportion;
use crokinole_rules::{RoundRecord, next_seat, seats_in_play, team_of_seat};
use std::collections::BTreeMap;

/// One round as a match record gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundFacts {
    /// The team that won the round, `None` for a tie.
    pub winner: Option<u8>,
    /// The team that shot last in the round, if recorded.
    pub hammer: Option<u8>,
    /// Each team's 20s in the round, if recorded.
    pub twenties: Option<[u32; 2]>,
    /// Each team's raw total (`20 * twenties + board points`), if recorded.
    pub totals: Option<[u32; 2]>,
}

impl RoundFacts {
    /// The rounds of a game this library played, in order: the winner by the round's
    /// totals, the hammer the team of the seat before the round's first seat in the play
    /// order (the seat that shoots last).
    pub fn of_game(log: &GameLog) -> Vec<RoundFacts> {
        RoundFacts::of_rounds(&log.rounds, log.players)
    }

    /// The rounds of a game of `players` players ([`RoundFacts::of_game`]).
    pub fn of_rounds(rounds: &[RoundRecord], players: u8) -> Vec<RoundFacts> {
        rounds
            .iter()
            .map(|r| RoundFacts {
                winner: match r.totals[0].cmp(&r.totals[1]) {
                    std::cmp::Ordering::Greater => Some(0),
                    std::cmp::Ordering::Less => Some(1),
                    std::cmp::Ordering::Equal => None,
                },
                hammer: last_seat(r.first_seat, players).and_then(|s| team_of_seat(s, players)),
                twenties: Some(r.twenties),
                totals: Some(r.totals),
            })
            .collect()
    }
}

/// The seat that shoots last in a round whose first shot is `first`: the seat before it
/// in the play order.
pub fn last_seat(first: u8, players: u8) -> Option<u8> {
    seats_in_play(players)
        .iter()
        .copied()
        .find(|&s| next_seat(s, players) == Some(first))
}

/// Integer counts of rounds, for everyone or one player.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Counts {
    rounds: u64,
    /// Player-rounds whose 20s are recorded, and the 20s in them (a team's 20s, shared by
    /// its players: counted in units of 1/players by counting `twenties` once and
    /// `player_rounds` once per player).
    player_rounds: u64,
    twenties: u64,
    /// Team-rounds whose 20s are recorded, by the team's 20s in the round.
    histogram: BTreeMap<u32, u64>,
    /// Rounds with the hammer recorded: won, tied, lost by the hammer team.
    hammer: [u64; 3],
    /// Round points (2 a win, 1 a tie) and the team-rounds they were counted over.
    points: u64,
    team_rounds: u64,
    /// Raw totals and the team-rounds whose totals are recorded.
    totals: u64,
    totals_rounds: u64,
}

impl Counts {
    /// Adds team `t`'s side of a round (`players` in the team); `hammer` says whether to
    /// count the hammer's result (once per round).
    fn add_side(&mut self, f: &RoundFacts, t: usize, players: u64) {
        self.team_rounds += 1;
        self.points += match f.winner {
            Some(w) if usize::from(w) == t => 2,
            Some(_) => 0,
            None => 1,
        };
        if let Some(tw) = f.twenties {
            self.player_rounds += players;
            self.twenties += u64::from(tw[t]);
            *self.histogram.entry(tw[t]).or_default() += 1;
        }
        if let Some(tot) = f.totals {
            self.totals += u64::from(tot[t]);
            self.totals_rounds += 1;
        }
    }

    fn add_hammer(&mut self, f: &RoundFacts) {
        if let Some(h) = f.hammer {
            let k = match f.winner {
                Some(w) if w == h => 0,
                None => 1,
                Some(_) => 2,
            };
            self.hammer[k] += 1;
        }
    }
}

/// The counts of many rounds, overall and per player, added in any order of matches: the
/// result depends on the rounds only (integer sums; players kept sorted by name).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoundStatsTally {
    matches: u64,
    all: Counts,
    players: BTreeMap<String, Counts>,
}

impl RoundStatsTally {
    /// Adds one match: its rounds and each team's players' names (1 a team in singles, 2
    /// in doubles; an empty team counts as one unnamed player).
    pub fn add_match(&mut self, rounds: &[RoundFacts], teams: [&[String]; 2]) {
        self.matches += 1;
        for f in rounds {
            self.all.rounds += 1;
            self.all.add_hammer(f);
            for (t, team) in teams.iter().enumerate() {
                let size = team.len().max(1) as u64;
                self.all.add_side(f, t, size);
                for name in team.iter() {
                    let c = self.players.entry(name.clone()).or_default();
                    c.rounds += 1;
                    c.add_side(f, t, 1);
                    // A player's hammer figures: the rounds its team had the hammer.
                    if f.hammer == Some(t as u8) {
                        c.add_hammer(f);
                    }
                }
            }
        }
    }

    /// The statistics of the rounds added.
    pub fn stats(&self) -> RoundStats {
        RoundStats {
            matches: self.matches,
            all: self.all.line(None),
            players: self
                .players
                .iter()
                .map(|(name, c)| c.line(Some(name.clone())))
                .collect(),
        }
    }
}

impl Counts {
    fn line(&self, name: Option<String>) -> StatsLine {
        let per = |x: u64, d: u64| {
            if d == 0 {
                None
            } else {
                Some(x as f64 / d as f64)
            }
        };
        let hammer_rounds = self.hammer.iter().sum::<u64>();
        let share =
            |k: usize| (hammer_rounds > 0).then(|| Proportion::new(self.hammer[k], hammer_rounds));
        StatsLine {
            name,
            rounds: self.rounds,
            twenties_per_player_round: per(self.twenties, self.player_rounds),
            twenties_histogram: self.histogram.iter().map(|(&k, &n)| (k, n)).collect(),
            hammer_rounds,
            hammer_won: share(0),
            hammer_tied: share(1),
            hammer_lost: share(2),
            points_per_round: per(self.points, self.team_rounds),
            mean_round_total: per(self.totals, self.totals_rounds),
        }
    }
}

/// The statistics of many rounds.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundStats {
    /// Matches (games of ours) counted.
    pub matches: u64,
    /// Every round.
    pub all: StatsLine,
    /// Each named player's rounds, sorted by name.
    pub players: Vec<StatsLine>,
}

/// The statistics of a set of rounds (everyone's, or one player's).
#[derive(Clone, Debug, PartialEq)]
pub struct StatsLine {
    /// The player, `None` for everyone.
    pub name: Option<String>,
    /// Rounds.
    pub rounds: u64,
    /// Mean 20s per player-round, over the rounds whose 20s are recorded (`None`: none is).
    pub twenties_per_player_round: Option<f64>,
    /// Team-rounds by the team's 20s in the round: `(20s, team-rounds)`, ascending.
    pub twenties_histogram: Vec<(u32, u64)>,
    /// Rounds whose hammer is recorded (for a player: those where the player's team had it).
    pub hammer_rounds: u64,
    /// Of those, the share the hammer team won, tied and lost (95 % Wilson intervals).
    pub hammer_won: Option<Proportion>,
    /// Tied.
    pub hammer_tied: Option<Proportion>,
    /// Lost.
    pub hammer_lost: Option<Proportion>,
    /// Mean round points (2 a win, 1 a tie) per team-round.
    pub points_per_round: Option<f64>,
    /// Mean raw round total per team-round, over the rounds whose totals are recorded.
    pub mean_round_total: Option<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(winner: Option<u8>, hammer: u8, tw: [u32; 2]) -> RoundFacts {
        RoundFacts {
            winner,
            hammer: Some(hammer),
            twenties: Some(tw),
            totals: Some([20 * tw[0], 20 * tw[1]]),
        }
    }

    #[test]
    fn the_hammer_and_the_twenties_are_counted_as_the_records_define_them() {
        let (a, b) = (vec!["A".to_string()], vec!["B".to_string()]);
        let mut t = RoundStatsTally::default();
        t.add_match(
            &[
                round(Some(0), 0, [3, 1]),
                round(Some(0), 1, [2, 0]),
                round(None, 0, [1, 1]),
                round(Some(1), 1, [0, 2]),
            ],
            [&a, &b],
        );
        let s = t.stats();
        assert_eq!(s.all.rounds, 4);
        assert_eq!(s.all.twenties_per_player_round, Some(10.0 / 8.0));
        assert_eq!(
            s.all.twenties_histogram,
            vec![(0, 2), (1, 3), (2, 2), (3, 1)]
        );
        // Hammer: won rounds 1 and 4, tied round 3, lost round 2.
        assert_eq!(s.all.hammer_rounds, 4);
        assert_eq!(s.all.hammer_won.unwrap().count, 2);
        assert_eq!(s.all.hammer_tied.unwrap().count, 1);
        assert_eq!(s.all.hammer_lost.unwrap().count, 1);
        assert_eq!(s.all.points_per_round, Some(1.0));
        let pa = &s.players[0];
        assert_eq!(pa.name.as_deref(), Some("A"));
        assert_eq!(pa.points_per_round, Some(5.0 / 4.0));
        assert_eq!(pa.twenties_per_player_round, Some(6.0 / 4.0));
        assert_eq!(pa.hammer_rounds, 2);
        assert_eq!(pa.hammer_won.unwrap().count, 1);
    }

    #[test]
    fn the_last_seat_is_the_one_before_the_first() {
        assert_eq!(last_seat(0, 2), Some(2));
        assert_eq!(last_seat(2, 2), Some(0));
        assert_eq!(last_seat(0, 4), Some(3));
        assert_eq!(last_seat(1, 4), Some(0));
        assert_eq!(last_seat(1, 2), None);
    }
}
