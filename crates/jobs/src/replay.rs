//! Replay a game log: for every logged shot, the shot file that reproduces it (the discs
//! the previous shot left, the logged start), each checked as the shot-file reader checks
//! a shot. `POST /api/replay` (the page's replay view) is this job; `crokinole simulate
//! --rules` on one of the files gives the logged outcome and verdict.

use crokinole_core::board::Board;
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_io::{parse_game_log, shot_file_json};
use crokinole_play::LoggedGame;
use crokinole_rules::ShotEntry;

/// Reads a game log's text (`crokinole play --games 1`).
pub fn read(text: &str) -> Result<LoggedGame, InputError> {
    parse_game_log(text)
}

/// A game log's shots as shot files.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The log as read.
    pub log: LoggedGame,
    /// The board the games are played on.
    pub board: Board,
    /// The physics they are played with.
    pub physics: Physics,
    /// Every logged shot's shot, in order.
    pub entries: Vec<ShotEntry>,
}

/// The shot of every shot of `log`, on the board and with the physics `crokinole play`
/// uses, each checked as a shot file's shot (errors name `shots[k]`).
pub fn replay(log: LoggedGame) -> Result<Replay, InputError> {
    let board = Board::tournament();
    let physics = Physics::default();
    let entries = log.shot_entries();
    for (k, e) in entries.iter().enumerate() {
        e.shot.world(&board, &physics).map_err(|e| e.in_shot(k))?;
    }
    Ok(Replay {
        log,
        board,
        physics,
        entries,
    })
}

impl Replay {
    /// `{"players", "ruleset", "shots": [shot file, ...]}` on one line and a newline: each
    /// shot file as `crokinole flick --shot-out` writes it, described as `shot k of a game
    /// log`.
    pub fn text(&self) -> String {
        let files: Vec<String> = self
            .entries
            .iter()
            .enumerate()
            .map(|(k, e)| {
                shot_file_json(
                    &self.board,
                    &self.physics,
                    std::slice::from_ref(e),
                    &format!("shot {k} of a game log"),
                )
            })
            .collect();
        crokinole_io::replay_json(self.log.players, self.log.ruleset, &files)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A log of three shots: the second ends the round, so the third starts on an empty
    /// board; keys a replay does not read are ignored.
    const LOG: &str = r#"{"game": 0, "players": 2, "ruleset": "tournament", "shots": [
        {"seat": 0, "start": {"team": 0, "pos": [0.0, -0.3048], "vel": [0.0, 0.8], "spin": 0.0},
         "verdict": {"position": [{"team": 0, "pos": [0.0, 0.1]}]}, "extra": 1},
        {"seat": 1, "start": {"team": 1, "pos": [0.3048, 0.0], "vel": [-0.8, 0.0], "spin": 1.0},
         "verdict": {"position": [{"team": 0, "pos": [0.0, 0.1]}, {"team": 1, "pos": [0.1, 0.0]}]},
         "round_end": true},
        {"seat": 1, "start": {"team": 1, "pos": [0.3048, 0.0], "vel": [-0.8, 0.0], "spin": 0.0},
         "verdict": {"position": []}}
    ]}"#;

    #[test]
    fn each_shot_starts_from_the_position_the_last_one_left() {
        let replayed = replay(read(LOG).unwrap()).unwrap();
        let discs: Vec<usize> = replayed
            .entries
            .iter()
            .map(|e| e.shot.discs.len())
            .collect();
        assert_eq!(discs, [0, 1, 0]);
        assert_eq!(replayed.entries[1].shot.discs[0].pos.y, 0.1);
        assert_eq!(replayed.entries[1].seat, Some(1));
        assert_eq!(replayed.entries[2].shot.shooter.spin, 0.0);
        assert_eq!(replayed.log.ruleset, crokinole_rules::Ruleset::Tournament);
        // Each file reads back to its shot, bit for bit.
        let text = replayed.text();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        for (k, file) in v["shots"].as_array().unwrap().iter().enumerate() {
            let (_, _, entries) = crokinole_io::parse_shot_file(&file.to_string()).unwrap();
            assert_eq!(entries[0], replayed.entries[k], "shot {k}");
        }
    }

    #[test]
    fn a_bad_log_names_the_field() {
        let field = |text: &str| read(text).unwrap_err().field;
        assert_eq!(
            field(&LOG.replace("\"players\": 2", "\"players\": 3")),
            "players"
        );
        assert_eq!(field(&LOG.replace("tournament", "street")), "ruleset");
        assert_eq!(
            field(&LOG.replacen("\"pos\": [0.0, -0.3048], ", "", 1)),
            "shots[0].start"
        );
        assert_eq!(
            field(&LOG.replacen(
                "\"team\": 1, \"pos\": [0.3048",
                "\"team\": 2, \"pos\": [0.3048",
                1
            )),
            "shots[1].start.team"
        );
        assert_eq!(field("[1,"), "file");
        // A start off the board is the engine's refusal, attributed to its shot.
        let off = LOG.replacen("[0.3048, 0.0]", "[0.0, 0.1]", 1);
        let e = replay(read(&off).unwrap()).unwrap_err();
        assert!(e.to_string().contains("shot 1"), "{e}");
    }
}
