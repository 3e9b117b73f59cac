//! Match players over TCP (docs/match.md, "Transport"): a full 4-player game with every
//! seat joining by its token, replayed bit for bit; a wrong token or another message
//! first closes that connection; a closed socket forfeits the game.

use crate::binary::scratch;
use crate::match_referee::{config, messages};
use crokinole::cancel::Cancel;
use crokinole::montecarlo::Noise;
use crokinole::referee::{
    End, MatchConfig, PlayerSpec, accept_players, join_tokens, play_match, replay_log,
};
use crokinole::rules::Ruleset;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::thread;
use std::time::Duration;

/// Seats of `c` all made TCP seats, with tokens.
fn remote(mut c: MatchConfig) -> MatchConfig {
    for s in &mut c.seats {
        s.player = PlayerSpec::Remote {
            token: String::new(),
        };
    }
    join_tokens(&mut c, 99);
    c
}

fn token(c: &MatchConfig, k: usize) -> String {
    match &c.seats[k].player {
        PlayerSpec::Remote { token } => token.clone(),
        _ => unreachable!(),
    }
}

/// A TCP player: joins with `token`, answers `hello`, and flicks at the centre from the
/// first offset the referee accepts; closes its socket after `quit_after` turns if given.
fn client(addr: SocketAddr, token: String, quit_after: Option<usize>) -> thread::JoinHandle<()> {
    thread::spawn(move || {
        let mut s = TcpStream::connect(addr).unwrap();
        let mut r = BufReader::new(s.try_clone().unwrap());
        writeln!(s, "{}", json!({"type": "join", "token": token})).unwrap();
        let offsets = [0.0, 0.05, -0.05, 0.1, -0.1, 0.12];
        let (mut turns, mut k) = (0, 0);
        let mut line = String::new();
        while r.read_line(&mut line).unwrap_or(0) > 0 {
            let m: Value = serde_json::from_str(&line).unwrap();
            line.clear();
            let flick = |k: usize| {
                json!({"type": "flick", "offset": offsets[k % offsets.len()], "aim": 0.0,
                       "speed": 0.85, "spin": 0.0})
            };
            match m["type"].as_str().unwrap() {
                "hello" => writeln!(s, "{}", json!({"type": "ready", "name": "tcp"})).unwrap(),
                "turn" => {
                    if quit_after == Some(turns) {
                        return;
                    }
                    turns += 1;
                    k = 0;
                    writeln!(s, "{}", flick(k)).unwrap();
                }
                "error" if m["fatal"] == false => {
                    k += 1;
                    writeln!(s, "{}", flick(k)).unwrap();
                }
                "game_end" => return,
                _ => {}
            }
        }
    })
}

/// Accepts the players of `c` on `listener` and plays; the outcome and the log.
fn referee(
    c: &MatchConfig,
    listener: &TcpListener,
    test: &str,
) -> (crokinole::referee::MatchOutcome, String) {
    let cancel = Cancel::never();
    let conns = accept_players(c, listener, Duration::from_secs(20), &cancel).unwrap();
    let dir = scratch(test);
    let path = dir.join("m.jsonl");
    let file = std::fs::File::create(&path).unwrap();
    let out = play_match(c, conns, Box::new(file), None, Box::new(|_| {}), &cancel).unwrap();
    (out, std::fs::read_to_string(&path).unwrap())
}

#[test]
fn a_four_player_game_over_tcp_replays_bit_for_bit() {
    let mut c = remote(config(
        &["builtin:random"; 4],
        Ruleset::Tournament,
        Noise {
            aim: 0.01,
            speed: 0.02,
            ..Noise::NONE
        },
        21,
    ));
    c.max_rounds = 4;
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    // A wrong token and a message other than join first: both connections closed.
    let mut wrong = TcpStream::connect(addr).unwrap();
    writeln!(wrong, "{}", json!({"type": "join", "token": "nope"})).unwrap();
    let mut rude = TcpStream::connect(addr).unwrap();
    writeln!(rude, "{}", json!({"type": "ready", "name": "x"})).unwrap();
    let clients: Vec<_> = (0..4).map(|k| client(addr, token(&c, k), None)).collect();
    let (out, log) = referee(&c, &listener, "tcp4");
    for h in clients {
        h.join().unwrap();
    }
    assert_eq!(out.end, End::Rounds);
    assert_eq!(out.shots, 4 * 24);
    let report = replay_log(&log).unwrap();
    assert_eq!((report.shots, report.scores), (out.shots, out.scores));
    for s in [&mut wrong, &mut rude] {
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut buf = [0u8; 16];
        assert_eq!(
            s.read(&mut buf).unwrap_or(0),
            0,
            "the connection stays open"
        );
    }
}

#[test]
fn a_closed_socket_forfeits_the_game() {
    let c = remote(config(
        &["builtin:random"; 2],
        Ruleset::Tournament,
        Noise::NONE,
        22,
    ));
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let a = client(addr, token(&c, 0), Some(2));
    let b = client(addr, token(&c, 1), None);
    let (out, log) = referee(&c, &listener, "closed");
    a.join().unwrap();
    b.join().unwrap();
    match &out.end {
        End::Forfeit { seat, why } => {
            assert_eq!(*seat, 0);
            assert!(why.contains("closed"), "{why}");
        }
        e => panic!("{e:?}"),
    }
    assert_eq!(out.winner, Some(1));
    assert!(
        messages(&log)
            .iter()
            .any(|(_, _, m)| m["reason"] == "forfeit")
    );
    replay_log(&log).unwrap();
}

/// The Rust example player (`examples/match_player.rs`), its `play` run here over TCP.
#[path = "../../examples/match_player.rs"]
mod match_player;

#[test]
fn the_rust_example_player_plays_a_whole_game() {
    let c = remote(config(
        &["builtin:random"; 2],
        Ruleset::Tournament,
        Noise::NONE,
        23,
    ));
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let tok = token(&c, 0);
    let example = thread::spawn(move || {
        let mut s = TcpStream::connect(addr).unwrap();
        writeln!(s, "{}", json!({"type": "join", "token": tok})).unwrap();
        match_player::play(BufReader::new(s.try_clone().unwrap()), s).unwrap();
    });
    let other = client(addr, token(&c, 1), None);
    let (out, log) = referee(&c, &listener, "rust_example");
    example.join().unwrap();
    other.join().unwrap();
    assert_eq!(out.end, End::Rounds);
    assert_eq!(out.names[0].1, "match_player.rs");
    let forfeits = messages(&log)
        .iter()
        .filter(|(_, _, m)| m["type"] == "shot" && m.get("forfeit").is_some())
        .count();
    assert_eq!(forfeits, 0);
    replay_log(&log).unwrap();
}
