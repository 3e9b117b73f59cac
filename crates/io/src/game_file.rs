//! The game file of the page's game against the computer (`docs/play-on-the-page.md`):
//! who sits where (each seat a human or a strategy, each with its own noise), the rule
//! set, the seed, the cap on rounds, and the intended flick of every shot played so far.
//! `POST /api/game` reads it ([`parse_game_file`]) and answers with
//! [`game_answer_json`].
//!
//! ```json
//! {"players": 2, "ruleset": "tournament", "seed": 7, "max_rounds": 100,
//!  "seats": [{"player": "human", "noise": "competitive"}, {"player": "greedy", "noise": {}}],
//!  "shots": [{"offset": 0.01, "aim": 0.0, "speed": 0.9, "spin": 0.0}]}
//! ```
//!
//! Conventions are those of the other files: unknown keys and `null` refused (but for a
//! shot's `value`, which a strategy may leave `null`), errors naming the field
//! (`seats[1].player`, `shots[3].speed`) and, for JSON errors, the line and column.

use crate::situation::{NoiseSpec, from_json};
use crate::strict::{Obj, present};
use crokinole_core::error::InputError;
use crokinole_montecarlo::{Noise, PlayerFlick};
use crokinole_play::Decision;
use crokinole_rules::Ruleset;
use glam::DVec2;
use serde::Deserialize;

/// The word for a human seat in `seats[k].player`.
pub const HUMAN: &str = "human";

/// One seat of a game file.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSeat {
    /// `"human"` ([`HUMAN`]) or a strategy as `crokinole play --strategies` takes it
    /// (`greedy`, `planner:budget=2000`).
    pub player: String,
    /// The seat's error when it executes a flick (none: exact).
    pub noise: Noise,
}

impl GameSeat {
    /// Whether the seat is played by a person on the page.
    pub fn is_human(&self) -> bool {
        self.player.trim() == HUMAN
    }
}

/// A game file as read: the game's configuration and the decisions so far.
#[derive(Clone, Debug, PartialEq)]
pub struct GameFile {
    /// Players, 2 or 4 (checked by the job).
    pub players: u8,
    /// Rule set.
    pub ruleset: Ruleset,
    /// Seed of the game (the seed of `crokinole play --seed`, game 0).
    pub seed: u64,
    /// Cap on the rounds.
    pub max_rounds: u32,
    /// The seats in play, in seat order (`[0, 2]` or `[0, 1, 2, 3]`).
    pub seats: Vec<GameSeat>,
    /// The decision of every shot played so far, in order: the intended flick and, for a
    /// computer's shot, its strategy's value and candidates (as in the game log).
    pub shots: Vec<Decision>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a game file object")]
struct GameFileJson {
    players: u8,
    #[serde(default, deserialize_with = "present")]
    ruleset: Option<String>,
    #[serde(default, deserialize_with = "present")]
    seed: Option<u64>,
    #[serde(default, deserialize_with = "present")]
    max_rounds: Option<u32>,
    seats: Vec<Obj<SeatJson>>,
    #[serde(default, deserialize_with = "present")]
    shots: Option<Vec<Obj<ShotJson>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a seat object {player, noise}")]
struct SeatJson {
    player: String,
    #[serde(default, deserialize_with = "present")]
    noise: Option<NoiseSpec>,
}

#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a shot object {offset, aim, target, speed, spin, value, candidates}"
)]
struct ShotJson {
    #[serde(default, deserialize_with = "present")]
    offset: Option<f64>,
    #[serde(default, deserialize_with = "present")]
    aim: Option<f64>,
    #[serde(default, deserialize_with = "present")]
    target: Option<[f64; 2]>,
    speed: f64,
    #[serde(default, deserialize_with = "present")]
    spin: Option<f64>,
    #[serde(default)]
    value: Option<f64>,
    #[serde(default, deserialize_with = "present")]
    candidates: Option<u32>,
}

/// The default cap on rounds of a game file (`crokinole play`'s).
pub const GAME_MAX_ROUNDS: u32 = 100;

/// Parses a game file's text. Defaults: `ruleset` traditional, `seed` 0, `max_rounds`
/// 100, a seat's `noise` none (exact), `shots` none, a shot's `offset`, `aim`, `spin` 0,
/// `value` null and `candidates` 0. Only the form is checked here; the job checks the
/// players, the strategies, the widths and each shot's legality.
pub fn parse_game_file(text: &str) -> Result<GameFile, InputError> {
    let Obj(file): Obj<GameFileJson> = from_json(text)?;
    let ruleset = match file.ruleset {
        None => Ruleset::Traditional,
        Some(name) => name
            .parse::<Ruleset>()
            .map_err(|problem| InputError::new("ruleset", problem))?,
    };
    let seats = file
        .seats
        .into_iter()
        .map(|Obj(s)| GameSeat {
            player: s.player,
            noise: s.noise.map_or(Noise::NONE, |n| n.noise()),
        })
        .collect();
    let shots = file
        .shots
        .unwrap_or_default()
        .into_iter()
        .map(|Obj(s)| Decision {
            flick: PlayerFlick {
                offset: s.offset.unwrap_or(0.0),
                aim: s.aim.unwrap_or(0.0),
                target: s.target.map(DVec2::from),
                speed: s.speed,
                spin: s.spin.unwrap_or(0.0),
            },
            value: s.value,
            candidates: s.candidates.unwrap_or(0),
        })
        .collect();
    Ok(GameFile {
        players: file.players,
        ruleset,
        seed: file.seed.unwrap_or(0),
        max_rounds: file.max_rounds.unwrap_or(GAME_MAX_ROUNDS),
        seats,
        shots,
    })
}

/// The answer of `POST /api/game` on one line and a newline: `{"state": STATE, "from":
/// K, "shot_file": FILE, "outcomes": [...], "hint": HINT, "log": LOG}`, each piece given
/// as JSON text and written compact: `state` the object the job made, `from` the number
/// of the first shot of `shot_file`, `shot_file` the shot file of the shots played by this
/// request (`null` if none) and `outcomes` their traced outcomes, `hint` a decision
/// (`null` if none was asked), `log` the game log as `crokinole play --games 1` writes it.
pub fn game_answer_json(
    state: &str,
    from: usize,
    shot_file: Option<&str>,
    outcomes: Option<&str>,
    hint: Option<&str>,
    log: &str,
) -> String {
    let compact = |t: &str| crate::compact_json(t).trim_end().to_string();
    let or_null = |t: Option<&str>| t.map_or_else(|| "null".to_string(), compact);
    format!(
        "{{\"state\":{},\"from\":{from},\"shot_file\":{},\"outcomes\":{},\"hint\":{},\"log\":{}}}\n",
        compact(state),
        or_null(shot_file),
        outcomes.map_or_else(|| "[]".to_string(), compact),
        or_null(hint),
        compact(log),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = r#"{"players": 2, "ruleset": "tournament", "seed": 7,
        "seats": [{"player": "human", "noise": "club"}, {"player": "greedy"}],
        "shots": [{"offset": 0.01, "speed": 0.9}, {"aim": 0.1, "speed": 1.0, "value": null, "candidates": 3}]}"#;

    #[test]
    fn a_game_file_reads_with_its_defaults() {
        let g = parse_game_file(FILE).unwrap();
        assert_eq!((g.players, g.ruleset, g.seed), (2, Ruleset::Tournament, 7));
        assert_eq!(g.max_rounds, GAME_MAX_ROUNDS);
        assert!(g.seats[0].is_human() && !g.seats[1].is_human());
        assert_eq!(
            g.seats[0].noise,
            crokinole_montecarlo::SkillLevel::by_name("club")
                .unwrap()
                .noise
        );
        assert_eq!(g.seats[1].noise, Noise::NONE);
        assert_eq!(g.shots[0].flick.offset, 0.01);
        assert_eq!((g.shots[1].value, g.shots[1].candidates), (None, 3));
    }

    #[test]
    fn a_bad_game_file_names_the_field() {
        let field = |t: &str| parse_game_file(t).unwrap_err().field;
        assert_eq!(
            field(&FILE.replace("\"club\"", "\"pro\"")),
            "seats[0].noise"
        );
        assert_eq!(field(&FILE.replace("tournament", "street")), "ruleset");
        assert_eq!(
            field(&FILE.replace("\"speed\": 0.9", "\"speed\": null")),
            "shots[0].speed"
        );
        assert_eq!(field(&FILE.replace("\"seed\"", "\"sed\"")), "sed");
        assert_eq!(
            field(&FILE.replace("\"player\": \"human\"", "\"player\": 3")),
            "seats[0].player"
        );
    }
}
