//! Crokinole Match Notation (CMN 1.0-draft, by the Crokinole Open Data Alliance): the
//! JSON that Crokinole scoring apps exchange match results in (docs/cmn.md).
//!
//! A CMN *match* is a game of ours; a CMN *game* is one of its rounds (two points at
//! stake): its winner (or `null` for a tie), the team with the hammer, the raw totals and
//! the 20s of each team. The reader takes a single record or a batch, ignores the keys it
//! does not know (the format says consumers must), and refuses what it needs and cannot
//! use, naming the field (`matches[2].match.games[0].hammer`). The writer makes a batch of
//! this library's games ([`CmnMatch::of_game`]).
//!
//! `hammer` here is the team that shoots last in the round, the Crokinole meaning; the
//! draft's wording ("which team shot first (had the hammer)") contradicts itself, and
//! docs/cmn.md says so.

use crate::situation::from_json;
use crokinole_core::error::InputError;
use crokinole_montecarlo::noise::mix;
use crokinole_play::run::GameLog;
use crokinole_play::stats::RoundFacts;
use crokinole_rules::Ruleset;
use serde::{Deserialize, Deserializer, Serialize};
use std::io::{self, Write};

/// The date simulated matches carry: they have no wall-clock time, and their records are
/// a function of the run's seed alone.
pub const SIMULATED_DATE: &str = "1970-01-01T00:00:00Z";

/// One match: two teams of one (singles) or two (doubles) named players and its rounds.
#[derive(Clone, Debug, PartialEq)]
pub struct CmnMatch {
    /// The record's `id`.
    pub id: String,
    /// ISO 8601 UTC date, ending in `Z`.
    pub date: String,
    /// Each team's players' names.
    pub teams: [Vec<String>; 2],
    /// The rounds (CMN's games).
    pub rounds: Vec<RoundFacts>,
    /// The match's winner, `None` for a draw (or, for ours, a game stopped unfinished).
    pub winner: Option<u8>,
    /// Rounds of a fixed-length match (`gameFormat` `fixed`), if known.
    pub fixed_rounds: Option<u32>,
}

impl CmnMatch {
    /// A game this library played as a CMN match: the seats' names per team (`names[s]`
    /// for seat `s`, or the seat's strategy), the id derived from the run's seed and the
    /// game's index (the form of a version-4 UUID), the date [`SIMULATED_DATE`].
    pub fn of_game(log: &GameLog, names: Option<&[String]>) -> CmnMatch {
        let mut teams: [Vec<String>; 2] = [vec![], vec![]];
        for s in &log.seats {
            let name = names
                .and_then(|n| n.get(usize::from(s.seat)).cloned())
                .unwrap_or_else(|| format!("{} (seat {})", s.strategy, s.seat));
            teams[usize::from(s.team.min(1))].push(name);
        }
        CmnMatch {
            id: CmnMatch::id_of(log.seed, log.game),
            date: SIMULATED_DATE.to_string(),
            teams,
            rounds: RoundFacts::of_game(log),
            winner: log.winner,
            fixed_rounds: match log.ruleset {
                Ruleset::Tournament => log.ruleset.rounds(),
                Ruleset::Traditional => None,
            },
        }
    }
}

impl CmnMatch {
    /// The `id` of game `game` of a run or tournament seeded `seed`: a deterministic
    /// identifier in the form of a version-4 UUID.
    pub fn id_of(seed: u64, game: u64) -> String {
        uuid_of(seed, game)
    }
}

/// A deterministic identifier in the form of a version-4 UUID, from two mixed words.
fn uuid_of(seed: u64, game: u64) -> String {
    let a = mix(mix(seed, 0x0063_6d6e), game);
    let b = mix(a, game ^ 0x5555_5555_5555_5555);
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        0x8000 | ((b >> 48) & 0x3fff),
        b & 0xffff_ffff_ffff
    )
}

/// The batch's `event`: where the matches come from.
#[derive(Clone, Debug, PartialEq)]
pub struct CmnEvent {
    /// Its name (`crokinole play, seed 3`).
    pub name: String,
    /// Its type (`simulation`).
    pub kind: String,
}

/// The text of a CMN batch of `matches` ([`CmnBatchWriter`] into memory).
pub fn cmn_batch_json(matches: &[CmnMatch], event: &CmnEvent) -> String {
    let mut w = CmnBatchWriter::new(Vec::new(), event).expect("writing to memory cannot fail");
    for m in matches {
        w.push(m).expect("writing to memory cannot fail");
    }
    String::from_utf8(w.finish().expect("writing to memory cannot fail"))
        .expect("the writer writes UTF-8")
}

/// A CMN batch written as it goes, a match at a time, so that the memory does not grow
/// with the matches: the head (`cmn`, `batch`, `event`, this program as the `source`),
/// one match a line, and the closing brackets at [`CmnBatchWriter::finish`].
pub struct CmnBatchWriter<W: Write> {
    w: W,
    matches: u64,
}

impl<W: Write> CmnBatchWriter<W> {
    /// Starts a batch on `w` with its head.
    pub fn new(mut w: W, event: &CmnEvent) -> io::Result<CmnBatchWriter<W>> {
        let event = EventOut {
            name: &event.name,
            kind: &event.kind,
        };
        let source = SourceOut {
            app: "crokinole",
            version: env!("CARGO_PKG_VERSION"),
        };
        write!(
            w,
            "{{\n  \"cmn\": \"1.0\",\n  \"batch\": true,\n  \"event\": {},\n  \"source\": {},\n  \"matches\": [",
            serde_json::to_string(&event).map_err(io::Error::other)?,
            serde_json::to_string(&source).map_err(io::Error::other)?
        )?;
        Ok(CmnBatchWriter { w, matches: 0 })
    }

    /// Writes one match, on a line of its own.
    pub fn push(&mut self, m: &CmnMatch) -> io::Result<()> {
        let sep = if self.matches == 0 {
            "\n    "
        } else {
            ",\n    "
        };
        let line = serde_json::to_string(&EntryOut::of(m)).map_err(io::Error::other)?;
        self.w.write_all(sep.as_bytes())?;
        self.w.write_all(line.as_bytes())?;
        self.matches += 1;
        Ok(())
    }

    /// Closes the batch and hands back the writer.
    pub fn finish(mut self) -> io::Result<W> {
        let end = if self.matches == 0 {
            "]\n}\n"
        } else {
            "\n  ]\n}\n"
        };
        self.w.write_all(end.as_bytes())?;
        self.w.flush()?;
        Ok(self.w)
    }
}

#[derive(Serialize)]
struct EventOut<'a> {
    name: &'a str,
    #[serde(rename = "type")]
    kind: &'a str,
}

#[derive(Serialize)]
struct SourceOut {
    app: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct EntryOut<'a> {
    id: &'a str,
    #[serde(rename = "match")]
    m: MatchOut<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MatchOut<'a> {
    date: &'a str,
    format: &'static str,
    teams: [TeamOut<'a>; 2],
    #[serde(skip_serializing_if = "Option::is_none")]
    game_format: Option<GameFormatOut>,
    games: Vec<GameOut>,
    winner: Option<u8>,
}

#[derive(Serialize)]
struct TeamOut<'a> {
    players: Vec<PlayerOut<'a>>,
}

#[derive(Serialize)]
struct PlayerOut<'a> {
    name: &'a str,
}

#[derive(Serialize)]
struct GameFormatOut {
    #[serde(rename = "type")]
    kind: &'static str,
    count: u32,
}

#[derive(Serialize)]
struct GameOut {
    winner: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hammer: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    scores: Option<[u32; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    twenties: Option<[u32; 2]>,
}

impl<'a> EntryOut<'a> {
    fn of(m: &'a CmnMatch) -> EntryOut<'a> {
        let team = |t: &'a Vec<String>| TeamOut {
            players: t.iter().map(|name| PlayerOut { name }).collect(),
        };
        EntryOut {
            id: &m.id,
            m: MatchOut {
                date: &m.date,
                format: if m.teams[0].len() > 1 {
                    "doubles"
                } else {
                    "singles"
                },
                teams: [team(&m.teams[0]), team(&m.teams[1])],
                game_format: m.fixed_rounds.map(|count| GameFormatOut {
                    kind: "fixed",
                    count,
                }),
                games: m
                    .rounds
                    .iter()
                    .map(|r| GameOut {
                        winner: r.winner,
                        hammer: r.hammer,
                        scores: r.totals,
                        twenties: r.twenties,
                    })
                    .collect(),
                winner: m.winner,
            },
        }
    }
}

// --- reading ---

/// A key whose value may be `null` but must be present (serde takes a missing `Option`
/// as `None` unless told otherwise).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    Option::<T>::deserialize(d)
}

#[derive(Deserialize)]
struct FileIn {
    cmn: String,
    #[serde(default)]
    batch: bool,
    id: Option<String>,
    #[serde(rename = "match")]
    m: Option<MatchIn>,
    matches: Option<Vec<EntryIn>>,
}

#[derive(Deserialize)]
struct EntryIn {
    id: Option<String>,
    #[serde(rename = "match")]
    m: MatchIn,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct MatchIn {
    date: String,
    format: String,
    teams: Vec<TeamIn>,
    games: Vec<GameIn>,
    #[serde(deserialize_with = "present")]
    winner: Option<u8>,
    game_format: Option<GameFormatIn>,
}

#[derive(Deserialize)]
struct TeamIn {
    players: Vec<PlayerIn>,
}

#[derive(Deserialize)]
struct PlayerIn {
    name: String,
}

#[derive(Deserialize)]
struct GameFormatIn {
    #[serde(rename = "type")]
    kind: String,
    count: Option<u32>,
}

#[derive(Deserialize)]
struct GameIn {
    #[serde(deserialize_with = "present")]
    winner: Option<u8>,
    hammer: Option<u8>,
    scores: Option<[u32; 2]>,
    twenties: Option<[u32; 2]>,
}

/// Reads a CMN text: a single record (`match`) or a batch (`batch: true`, `matches`).
/// Unknown keys are ignored, as the format asks of consumers; a missing required key, a
/// wrong type, a team count other than 2, a team size that does not fit `format`, or a
/// team index other than 0 or 1 is refused naming the field.
pub fn parse_cmn(text: &str) -> Result<Vec<CmnMatch>, InputError> {
    let file: FileIn = from_json(text)?;
    if !file.cmn.starts_with("1.") {
        return Err(InputError::new(
            "cmn",
            format!(
                "version `{}` is not one this reader knows (1.x)",
                short(&file.cmn)
            ),
        ));
    }
    let entries: Vec<(String, Option<String>, MatchIn)> = match (file.batch, file.m, file.matches) {
        (true, _, Some(matches)) => matches
            .into_iter()
            .enumerate()
            .map(|(k, e)| (format!("matches[{k}].match"), e.id, e.m))
            .collect(),
        (true, _, None) => {
            return Err(InputError::new("matches", "a batch needs its `matches`"));
        }
        (false, Some(m), _) => vec![("match".to_string(), file.id, m)],
        (false, None, _) => {
            return Err(InputError::new(
                "match",
                "missing: a record holds a `match` (or is a batch: `\"batch\": true` and `matches`)",
            ));
        }
    };
    entries
        .into_iter()
        .map(|(at, id, m)| checked(&at, id, m))
        .collect()
}

/// A string cut for a message.
fn short(s: &str) -> String {
    let cut: String = s.chars().take(40).collect();
    if cut.len() < s.len() {
        format!("{cut}...")
    } else {
        cut
    }
}

fn checked(at: &str, id: Option<String>, m: MatchIn) -> Result<CmnMatch, InputError> {
    let field = |k: &str| format!("{at}.{k}");
    let size = match m.format.as_str() {
        "singles" => 1,
        "doubles" => 2,
        other => {
            return Err(InputError::new(
                field("format"),
                format!("must be `singles` or `doubles`, got `{}`", short(other)),
            ));
        }
    };
    if m.teams.len() != 2 {
        return Err(InputError::new(
            field("teams"),
            format!("must hold exactly 2 teams, got {}", m.teams.len()),
        ));
    }
    for (t, team) in m.teams.iter().enumerate() {
        if team.players.len() != size {
            return Err(InputError::new(
                field(&format!("teams[{t}].players")),
                format!(
                    "a {} team has {size} player{}, got {}",
                    m.format,
                    if size == 1 { "" } else { "s" },
                    team.players.len()
                ),
            ));
        }
    }
    let team_index = |k: &str, v: Option<u8>| match v {
        Some(t) if t > 1 => Err(InputError::new(
            field(k),
            format!("a team is 0 or 1, got {t}"),
        )),
        _ => Ok(v),
    };
    let winner = team_index("winner", m.winner)?;
    let mut rounds = Vec::with_capacity(m.games.len());
    for (k, g) in m.games.iter().enumerate() {
        rounds.push(RoundFacts {
            winner: team_index(&format!("games[{k}].winner"), g.winner)?,
            hammer: team_index(&format!("games[{k}].hammer"), g.hammer)?,
            twenties: g.twenties,
            totals: g.scores,
        });
    }
    let fixed_rounds = m
        .game_format
        .filter(|f| f.kind == "fixed")
        .and_then(|f| f.count);
    let [a, b]: [TeamIn; 2] = m
        .teams
        .try_into()
        .unwrap_or_else(|_| unreachable!("checked above"));
    let names = |t: TeamIn| t.players.into_iter().map(|p| p.name).collect::<Vec<_>>();
    Ok(CmnMatch {
        id: id.unwrap_or_default(),
        date: m.date,
        teams: [names(a), names(b)],
        rounds,
        winner,
        fixed_rounds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_have_the_version_4_form_and_differ_by_game() {
        let a = uuid_of(3, 0);
        assert_eq!(a.len(), 36);
        assert_eq!(&a[14..15], "4");
        assert!(matches!(&a[19..20], "8" | "9" | "a" | "b"), "{a}");
        assert_ne!(a, uuid_of(3, 1));
        assert_eq!(a, uuid_of(3, 0));
    }
}
