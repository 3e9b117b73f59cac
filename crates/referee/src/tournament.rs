//! Round-robin tournaments (`crokinole tournament CONFIG`): every pairing of the entrants
//! plays a number of games with seats swapped, several at once, one log per game; the
//! standings rate each entrant (Bradley-Terry, [`crate::rating`]). Game `k` of
//! the schedule has the match seed `mix(seed, k)`, so the results depend on the
//! configuration and the seed only, not on how many games run at once.

use crate::config::{
    DEFAULT_MAX_ROUNDS, DEFAULT_PER_SHOT_S, DEFAULT_TOTAL_S, MatchConfig, PlayerSpec,
    READY_TIMEOUT_S, SeatConfig,
};
use crate::players::play_match;
use crate::rating::{Rating, bradley_terry};
use crate::run::{MatchError, MatchOutcome};
use crokinole_core::board::Board;
use crokinole_core::cancel::Cancel;
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_io::match_protocol::Clock;
use crokinole_montecarlo::Noise;
use crokinole_montecarlo::noise::mix;
use crokinole_play::parse_noise;
use crokinole_rules::Ruleset;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Most entrants of a tournament.
pub const MAX_ENTRANTS: usize = 64;
/// Most games of a tournament.
pub const MAX_GAMES: usize = 100_000;

/// One entrant.
#[derive(Clone, Debug, PartialEq)]
pub struct Entrant {
    /// Its name in the standings.
    pub name: String,
    /// What plays for it (a command or `builtin:NAME`).
    pub player: String,
}

/// A tournament's configuration (docs/match.md, "Tournaments").
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentConfig {
    /// The entrants, at least 2.
    pub entrants: Vec<Entrant>,
    /// Games per pairing and seating (each pairing plays `2 * games`, seats swapped).
    pub games: u32,
    /// Rule set.
    pub ruleset: Ruleset,
    /// Every seat's noise.
    pub noise: Noise,
    /// Every seat's clock.
    pub clock: Clock,
    /// Round cap of each game.
    pub max_rounds: u32,
    /// The tournament's seed.
    pub seed: u64,
}

/// One scheduled game: its index, the entrants at seat 0 and seat 2.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pairing {
    /// Index in the schedule (its seed is `mix(seed, index)`).
    pub index: usize,
    /// Entrant at seat 0 (team 0).
    pub first: usize,
    /// Entrant at seat 2 (team 1).
    pub second: usize,
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// Entrant index.
    pub entrant: usize,
    /// Games won, drawn, lost (forfeits included).
    pub won: u32,
    /// Draws.
    pub drawn: u32,
    /// Losses.
    pub lost: u32,
    /// Games forfeited.
    pub forfeits: u32,
    /// Its rating.
    pub rating: Rating,
}

/// A tournament's results: each game's outcome (in schedule order) and the standings
/// (best rating first).
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    /// Each game with its outcome (`None` for a game not played: stopped).
    pub games: Vec<(Pairing, Option<MatchOutcome>)>,
    /// Best first.
    pub standings: Vec<Standing>,
    /// Whether Ctrl-C stopped it before every game was played.
    pub stopped: bool,
}

fn bad(field: &str, problem: impl Into<String>) -> InputError {
    InputError::new(field, problem)
}

/// Reads a tournament configuration: `{"players": [{"name", "player"}, ...], "games",
/// "ruleset", "noise", "clock": {"total_s", "per_shot_s"}, "max_rounds", "seed"}`, every
/// key but `players` optional; unknown keys refused.
pub fn parse_tournament(text: &str) -> Result<TournamentConfig, InputError> {
    let v: Value = serde_json::from_str(text).map_err(|e| bad("file", format!("not JSON: {e}")))?;
    let Value::Object(o) = v else {
        return Err(bad("file", "expected a JSON object"));
    };
    const KEYS: [&str; 8] = [
        "description",
        "players",
        "games",
        "ruleset",
        "noise",
        "clock",
        "max_rounds",
        "seed",
    ];
    if let Some(k) = o.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(bad(
            k,
            format!("unknown key: expected one of {}", KEYS.join(", ")),
        ));
    }
    let list = o
        .get("players")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("players", "expected a list of {name, player}"))?;
    if !(2..=MAX_ENTRANTS).contains(&list.len()) {
        return Err(bad(
            "players",
            format!("expected 2 to {MAX_ENTRANTS} entrants, got {}", list.len()),
        ));
    }
    let mut entrants = Vec::new();
    for (k, e) in list.iter().enumerate() {
        let s = |key: &str| {
            e.get(key)
                .and_then(Value::as_str)
                .map(String::from)
                .ok_or_else(|| bad(&format!("players[{k}].{key}"), "expected a string"))
        };
        let name = s("name")?;
        if name.is_empty() || name.chars().count() > 64 {
            return Err(bad(
                &format!("players[{k}].name"),
                "expected 1 to 64 characters",
            ));
        }
        if let Some(c) = name.chars().find(|c| c.is_control()) {
            return Err(bad(
                &format!("players[{k}].name"),
                format!(
                    "holds the control character U+{:04X}: a name is printed in the standings, \
                     so it may hold none",
                    c as u32
                ),
            ));
        }
        if entrants.iter().any(|x: &Entrant| x.name == name) {
            return Err(bad(
                &format!("players[{k}].name"),
                format!("`{name}` is taken"),
            ));
        }
        entrants.push(Entrant {
            name,
            player: s("player")?,
        });
    }
    let whole = |key: &str, default: u64, max: u64| match o.get(key) {
        None => Ok(default),
        Some(v) => v
            .as_u64()
            .filter(|n| (1..=max).contains(n))
            .ok_or_else(|| bad(key, format!("expected a whole number from 1 to {max}"))),
    };
    let games = whole("games", 1, 10_000)? as u32;
    let max_rounds = whole("max_rounds", u64::from(DEFAULT_MAX_ROUNDS), 10_000)? as u32;
    let seed = match o.get("seed") {
        None => 0,
        Some(v) => v
            .as_u64()
            .ok_or_else(|| bad("seed", "expected a whole number"))?,
    };
    let ruleset = match o.get("ruleset") {
        None => Ruleset::Traditional,
        Some(v) => v
            .as_str()
            .ok_or_else(|| bad("ruleset", "expected a string"))?
            .parse()
            .map_err(|e: String| bad("ruleset", e))?,
    };
    let noise = match o.get("noise") {
        None => parse_noise("competitive")?,
        Some(Value::String(s)) => parse_noise(s)?,
        Some(Value::Object(m)) => noise_object(m)?,
        Some(_) => {
            return Err(bad(
                "noise",
                "expected a skill level or {offset, aim, speed, spin}",
            ));
        }
    };
    let clock = match o.get("clock") {
        None => Clock {
            total_s: DEFAULT_TOTAL_S,
            per_shot_s: DEFAULT_PER_SHOT_S,
        },
        Some(c) => Clock {
            total_s: c
                .get("total_s")
                .map_or(Some(DEFAULT_TOTAL_S), Value::as_f64)
                .ok_or_else(|| bad("clock.total_s", "expected seconds"))?,
            per_shot_s: c
                .get("per_shot_s")
                .map_or(Some(DEFAULT_PER_SHOT_S), Value::as_f64)
                .ok_or_else(|| bad("clock.per_shot_s", "expected seconds"))?,
        },
    };
    let config = TournamentConfig {
        entrants,
        games,
        ruleset,
        noise,
        clock,
        max_rounds,
        seed,
    };
    if config.schedule().len() > MAX_GAMES {
        return Err(bad(
            "games",
            format!("the tournament would play more than {MAX_GAMES} games"),
        ));
    }
    for k in 0..config.entrants.len() {
        config.check_entrant(k)?;
    }
    config
        .game(&Pairing {
            index: 0,
            first: 0,
            second: 1,
        })
        .check()?;
    Ok(config)
}

fn noise_object(m: &Map<String, Value>) -> Result<Noise, InputError> {
    let mut n = Noise::NONE;
    for (k, v) in m {
        let x = v
            .as_f64()
            .ok_or_else(|| bad(&format!("noise.{k}"), "expected a number"))?;
        match k.as_str() {
            "offset" => n.offset = x,
            "aim" => n.aim = x,
            "speed" => n.speed = x,
            "spin" => n.spin = x,
            _ => {
                return Err(bad(
                    &format!("noise.{k}"),
                    "unknown key: expected offset, aim, speed or spin",
                ));
            }
        }
    }
    Ok(n)
}

impl TournamentConfig {
    fn check_entrant(&self, k: usize) -> Result<(), InputError> {
        PlayerSpec::parse(&self.entrants[k].player, self.noise)
            .map(|_| ())
            .map_err(|e| bad(&format!("players[{k}].player"), e))
    }

    /// Every game in order: each pairing `(i, j)`, `i < j`, `games` times with `i` at seat 0
    /// and then `games` times with `j` there.
    pub fn schedule(&self) -> Vec<Pairing> {
        let n = self.entrants.len();
        let mut out = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                for (first, second) in [(i, j), (j, i)] {
                    for _ in 0..self.games {
                        out.push(Pairing {
                            index: out.len(),
                            first,
                            second,
                        });
                    }
                }
            }
        }
        out
    }

    /// The match of one scheduled game.
    pub fn game(&self, p: &Pairing) -> MatchConfig {
        let seat = |k: usize| SeatConfig {
            player: PlayerSpec::parse(&self.entrants[k].player, self.noise)
                .unwrap_or(PlayerSpec::Program(self.entrants[k].player.clone())),
            noise: self.noise,
        };
        let seed = mix(self.seed, p.index as u64);
        MatchConfig {
            board: Board::tournament(),
            physics: Physics::default(),
            players: 2,
            ruleset: self.ruleset,
            seats: vec![seat(p.first), seat(p.second)],
            clock: self.clock,
            seed,
            max_rounds: self.max_rounds,
            game_id: format!("game-{}", p.index),
            ready_timeout_s: READY_TIMEOUT_S,
        }
    }
}

/// The log of game `index` in `dir`.
pub fn game_log_path(dir: &Path, index: usize) -> PathBuf {
    dir.join(format!("game-{index:04}.jsonl"))
}

/// Plays the tournament, `jobs` games at once (at least 1), each game's log in `dir`;
/// `done` is called after each game. Ctrl-C (`cancel`) stops the games under way and
/// starts no more; the standings are then those of the games finished.
pub fn run_tournament(
    config: &TournamentConfig,
    dir: &Path,
    jobs: usize,
    cancel: &Cancel,
    done: &(dyn Fn(&Pairing, &Result<MatchOutcome, MatchError>) + Sync),
) -> Result<Results, MatchError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| MatchError::Io(format!("cannot create {}: {e}", dir.display())))?;
    let schedule = config.schedule();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<MatchOutcome>>> = Mutex::new(vec![None; schedule.len()]);
    let failure: Mutex<Option<MatchError>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..jobs.clamp(1, 64) {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= schedule.len() || cancel.is_cancelled() {
                        return;
                    }
                    let p = &schedule[k];
                    let game = config.game(p);
                    let path = game_log_path(dir, k);
                    let out = std::fs::File::create(&path)
                        .map_err(|e| {
                            MatchError::Io(format!("cannot create {}: {e}", path.display()))
                        })
                        .and_then(|f| {
                            play_match(
                                &game,
                                Vec::new(),
                                Box::new(std::io::BufWriter::new(f)),
                                Some(&path),
                                Box::new(|_| {}),
                                cancel,
                            )
                        });
                    done(p, &out);
                    match out {
                        Ok(o) => {
                            if let Ok(mut r) = results.lock() {
                                r[k] = Some(o);
                            }
                        }
                        Err(MatchError::Stopped) => return,
                        Err(e) => {
                            if let Ok(mut f) = failure.lock() {
                                f.get_or_insert(e);
                            }
                            cancel.cancel();
                            return;
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let outcomes = results.into_inner().unwrap_or_default();
    let stopped = outcomes.iter().any(Option::is_none);
    let games: Vec<(Pairing, Option<MatchOutcome>)> = schedule.into_iter().zip(outcomes).collect();
    Ok(Results {
        standings: standings(config.entrants.len(), &games),
        games,
        stopped,
    })
}

/// The standings of the games played: records, ratings, best first (ties by entrant).
pub fn standings(n: usize, games: &[(Pairing, Option<MatchOutcome>)]) -> Vec<Standing> {
    let mut wins = vec![vec![0.0; n]; n];
    let mut rows: Vec<Standing> = (0..n)
        .map(|entrant| Standing {
            entrant,
            won: 0,
            drawn: 0,
            lost: 0,
            forfeits: 0,
            rating: Rating {
                elo: 0.0,
                interval: [0.0, 0.0],
            },
        })
        .collect();
    for (p, out) in games {
        let Some(o) = out else { continue };
        let (a, b) = (p.first, p.second);
        match o.winner {
            Some(0) => {
                wins[a][b] += 1.0;
                rows[a].won += 1;
                rows[b].lost += 1;
            }
            Some(_) => {
                wins[b][a] += 1.0;
                rows[b].won += 1;
                rows[a].lost += 1;
            }
            None => {
                wins[a][b] += 0.5;
                wins[b][a] += 0.5;
                rows[a].drawn += 1;
                rows[b].drawn += 1;
            }
        }
        if let crate::table::End::Forfeit { seat, .. } = &o.end {
            rows[if *seat == 0 { a } else { b }].forfeits += 1;
        }
    }
    for (row, r) in rows.iter_mut().zip(bradley_terry(&wins)) {
        row.rating = r;
    }
    rows.sort_by(|x, y| {
        y.rating
            .elo
            .total_cmp(&x.rating.elo)
            .then(x.entrant.cmp(&y.entrant))
    });
    rows
}

/// The standings as a table of text.
pub fn standings_text(config: &TournamentConfig, results: &Results) -> String {
    let played = results.games.iter().filter(|g| g.1.is_some()).count();
    let mut out = format!(
        "tournament: {} entrants, {played} of {} games, seed {}; ratings: Bradley-Terry, Elo scale, mean 0, 95 % intervals\n",
        config.entrants.len(),
        results.games.len(),
        config.seed
    );
    out += &format!(
        "{:>4}  {:<24} {:>8}  {:>19}  {:>4} {:>4} {:>4} {:>8}\n",
        "rank", "player", "rating", "95 % interval", "won", "drew", "lost", "forfeits"
    );
    for (k, s) in results.standings.iter().enumerate() {
        let r = s.rating;
        out += &format!(
            "{:>4}  {:<24} {:>8.1}  [{:>8.1}, {:>8.1}]  {:>4} {:>4} {:>4} {:>8}\n",
            k + 1,
            config.entrants[s.entrant].name,
            r.elo,
            r.interval[0],
            r.interval[1],
            s.won,
            s.drawn,
            s.lost,
            s.forfeits
        );
    }
    out
}

/// The results as `tournament --json` prints them (`logs`: the folder of the games' logs).
pub fn results_json(config: &TournamentConfig, results: &Results, logs: &Path) -> String {
    let name = |e: usize| config.entrants[e].name.clone();
    crokinole_io::tournament_json(&crokinole_io::TournamentJson {
        entrants: config.entrants.len(),
        games: results.games.len(),
        played: results.games.iter().filter(|g| g.1.is_some()).count(),
        seed: config.seed,
        stopped: results.stopped,
        logs: logs.display().to_string(),
        standings: results
            .standings
            .iter()
            .enumerate()
            .map(|(k, s)| crokinole_io::StandingJson {
                rank: k + 1,
                name: name(s.entrant),
                rating: s.rating.elo,
                interval: s.rating.interval,
                won: s.won,
                drew: s.drawn,
                lost: s.lost,
                forfeits: s.forfeits,
            })
            .collect(),
        results: results
            .games
            .iter()
            .filter_map(|(p, o)| {
                let o = o.as_ref()?;
                Some(crokinole_io::GameResultJson {
                    game: p.index,
                    players: [name(p.first), name(p.second)],
                    scores: o.scores,
                    winner: o.winner,
                    end: o.end.reason(),
                    shots: o.shots,
                })
            })
            .collect(),
    })
}

/// The games of a tournament as match records in Crokinole Match Notation, in schedule
/// order (games not played left out): each entrant named as in the standings, the id a
/// function of the tournament's seed and the game's index. `crokinole tournament --cmn`
/// writes them; `crokinole stats` reads them.
pub fn cmn_matches(config: &TournamentConfig, results: &Results) -> Vec<crokinole_io::CmnMatch> {
    results
        .games
        .iter()
        .filter_map(|(p, outcome)| {
            let name = |e: usize| vec![config.entrants[e].name.clone()];
            let id = crokinole_io::CmnMatch::id_of(config.seed, p.index as u64);
            Some(cmn_match(
                outcome.as_ref()?,
                2,
                config.ruleset,
                [name(p.first), name(p.second)],
                id,
            ))
        })
        .collect()
}

/// A refereed game as a match record: `teams` its players' names per team, the rounds as
/// the referee played them (`crokinole match --cmn`, [`cmn_matches`]).
pub fn cmn_match(
    outcome: &MatchOutcome,
    players: u8,
    ruleset: Ruleset,
    teams: [Vec<String>; 2],
    id: String,
) -> crokinole_io::CmnMatch {
    crokinole_io::CmnMatch {
        id,
        date: crokinole_io::SIMULATED_DATE.to_string(),
        teams,
        rounds: crokinole_play::stats::RoundFacts::of_rounds(&outcome.rounds, players),
        winner: outcome.winner,
        fixed_rounds: match ruleset {
            Ruleset::Tournament => ruleset.rounds(),
            Ruleset::Traditional => None,
        },
    }
}
