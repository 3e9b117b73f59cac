//! The page's game against the computer in a real browser (headless Chromium through
//! WebDriver, the harness of `serve_browser.rs`): a human seat against `greedy` played to
//! its end through pointer events, every shot checked bit for bit against the library's
//! `PlayConfig::play` with the same seed and noise, the downloaded game log replayed by
//! `crokinole simulate --rules` to the same outcomes; undo; an illegal flick refused beside
//! the game, in words; a four-player game of computers playing itself to its end.
//! Screenshots go to target/screenshots/ (1366x768 and 414 px wide). A module of
//! `serve_browser.rs`, so `.ci/test` runs it with the other browser tests.

use super::{Driver, POLLS, cli, open_page, positions};
use crate::binary;

use crokinole::montecarlo::{PlayerFlick, SkillLevel};
use crokinole::play::{AnyStrategy, Decision, NoLegalFlick, PlayConfig, Strategy, Turn};
use crokinole::rules::Ruleset;
use crokinole::{Board, Physics};
use serde_json::{Value, json};
use std::sync::Mutex;
use std::time::Duration;

/// Sets a `<select>` or `<input>` of the game form and tells the page it changed.
fn set(d: &Driver, css: &str, value: &str) {
    d.script(
        "const e = document.querySelector(arguments[0]); e.value = arguments[1];
         e.dispatchEvent(new Event('change'));",
        json!([css, value]),
    );
}

/// Waits until the game waits for the human or is over; returns which.
fn wait_game(d: &Driver) -> String {
    for _ in 0..POLLS {
        let s = d.state();
        if s == "your-turn" || s == "game-over" || s == "error" {
            return s;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("the game never came back to a human ({})", d.state());
}

/// The human at seat 0 presses the shooting line at `offset` and pulls back by `pull` (m)
/// a little to the side `side`, then releases.
fn flick(d: &Driver, offset: f64, pull: f64, side: f64) {
    let r = 0.3048_f64;
    let (ox, oy) = (offset, -(r * r - offset * offset).sqrt());
    let (px, py) = d.pixel(ox, oy);
    let (qx, qy) = d.pixel(ox + side, oy - pull);
    let mut steps = vec![
        json!({"type": "pointerMove", "duration": 0, "x": px, "y": py, "origin": "viewport"}),
        json!({"type": "pointerDown", "button": 0}),
    ];
    for k in 1..=4 {
        let x = px + (qx - px) * k / 4;
        let y = py + (qy - py) * k / 4;
        steps.push(
            json!({"type": "pointerMove", "duration": 30, "x": x, "y": y, "origin": "viewport"}),
        );
    }
    steps.push(json!({"type": "pointerUp", "button": 0}));
    d.mark_sent();
    d.pointer(steps);
}

/// `v` with every number as a float: the browser hands back `0.0` as `0`.
fn floats(v: &Value) -> Value {
    match v {
        Value::Number(n) => json!(n.as_f64().unwrap()),
        Value::Array(a) => Value::Array(a.iter().map(floats).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), floats(v))).collect()),
        other => other.clone(),
    }
}

fn game(d: &Driver) -> Value {
    d.script("return window.crokinole.game.G;", json!([]))
}

/// Plays the human's flicks in order, then the page's computer seats' decisions as the
/// game log records them (the library checks the flick is legal where it stands).
struct Scripted(Mutex<std::collections::VecDeque<PlayerFlick>>);

impl Strategy for Scripted {
    fn choose(&self, turn: &Turn<'_>) -> Result<Decision, NoLegalFlick> {
        let flick = self
            .0
            .lock()
            .unwrap()
            .pop_front()
            .ok_or(NoLegalFlick { seat: turn.seat() })?;
        Ok(Decision {
            flick,
            value: None,
            candidates: 0,
        })
    }
    fn name(&self) -> String {
        "scripted".into()
    }
}

fn player_flick(v: &Value) -> PlayerFlick {
    PlayerFlick {
        offset: v["offset"].as_f64().unwrap(),
        aim: v["aim"].as_f64().unwrap(),
        target: v["target"]
            .as_array()
            .map(|t| [t[0].as_f64().unwrap(), t[1].as_f64().unwrap()].into()),
        speed: v["speed"].as_f64().unwrap(),
        spin: v["spin"].as_f64().unwrap(),
    }
}

#[test]
#[ignore = "needs chromium and chromedriver (apt-get install chromium chromium-driver); \
            .ci/test runs it when they are installed"]
fn a_game_against_greedy_is_played_to_its_end_in_chromium() {
    let dir = binary::scratch("browser-game");
    let (_server, _driver_process, d) = open_page(&dir);
    d.call(
        "POST",
        "/window/rect",
        Some(json!({"width": 1366, "height": 768})),
    );
    // Seat 0 is the human, a club player; seat 2 greedy, also club; a whole tournament
    // game (four rounds), no animation (the physics is the same).
    set(&d, "#g-seed", "5");
    set(&d, "#g-ruleset", "tournament");
    set(&d, "#g-speed", "1000");
    set(&d, "#g-seats .g-seat:nth-child(1) .g-noise", "club");
    set(&d, "#g-seats .g-seat:nth-child(2) .g-noise", "club");
    d.mark_sent();
    d.click("#g-new");
    assert_eq!(wait_game(&d), "your-turn", "{}", d.text("#g-error"));
    let note = d.text("#g-noise-note");
    assert!(note.contains("as a club player"), "{note}");

    // A tap on the arc without a pull fires nothing.
    let before = game(&d)["shots"].as_array().unwrap().len();
    flick(&d, 0.0, 0.0, 0.0);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(d.state(), "sent", "a tap changed the page's state");
    assert_eq!(game(&d)["shots"].as_array().unwrap().len(), before);

    // The first flick, then undo: back to where it was.
    flick(&d, 0.02, 0.05, 0.002);
    assert_eq!(wait_game(&d), "your-turn", "{}", d.text("#g-error"));
    let after = game(&d);
    assert!(after["shots"].as_array().unwrap().len() > before);
    d.mark_sent();
    d.click("#g-undo");
    assert_eq!(wait_game(&d), "your-turn");
    assert_eq!(
        game(&d)["shots"].as_array().unwrap().len(),
        before,
        "undone"
    );
    d.screenshot("game-start-1366.png");

    // Played to the end, each flick a little different.
    let mut k = 0;
    loop {
        let offset = -0.06 + 0.011 * f64::from(k % 11);
        let pull = 0.04 + 0.004 * f64::from(k % 5);
        flick(&d, offset, pull, 0.003 * f64::from(k % 3) - 0.003);
        k += 1;
        let s = wait_game(&d);
        assert_ne!(s, "error", "flick {k}: {}", d.text("#g-error"));
        if k == 4 {
            d.screenshot("game-mid-1366.png");
            d.call(
                "POST",
                "/window/rect",
                Some(json!({"width": 414, "height": 900})),
            );
            d.screenshot("game-mid-414.png");
            d.call(
                "POST",
                "/window/rect",
                Some(json!({"width": 1366, "height": 768})),
            );
        }
        if s == "game-over" {
            break;
        }
        assert!(k < 60, "the game does not end");
    }
    assert!(
        d.text("#g-over").contains("Game over"),
        "{}",
        d.text("#g-over")
    );
    d.screenshot("game-over-1366.png");
    d.call(
        "POST",
        "/window/rect",
        Some(json!({"width": 414, "height": 900})),
    );
    d.screenshot("game-over-414.png");
    d.call(
        "POST",
        "/window/rect",
        Some(json!({"width": 1366, "height": 768})),
    );

    // The same game through the library: the page's decisions, the same seed and noise.
    let g = game(&d);
    let log = &g["log"];
    let shots = log["shots"].as_array().unwrap();
    let human: Vec<PlayerFlick> = shots
        .iter()
        .filter(|s| s["seat"] == 0)
        .map(|s| player_flick(&s["intended"]))
        .collect();
    assert_eq!(human.len(), 32, "four rounds of eight discs");
    let club = SkillLevel::by_name("club").unwrap().noise;
    let config = PlayConfig {
        board: Board::tournament(),
        physics: Physics::default(),
        players: 2,
        ruleset: Ruleset::Tournament,
        strategies: vec![
            Box::new(Scripted(Mutex::new(human.into()))),
            Box::new(AnyStrategy::parse("greedy", club).unwrap()),
        ],
        noise: club,
        seed: 5,
        max_rounds: 100,
    };
    let lib = config.play(0).unwrap();
    let lib_json: Value = serde_json::from_str(&crokinole::io::game_log_json(&lib)).unwrap();
    assert_eq!(lib_json["shots"].as_array().unwrap().len(), shots.len());
    for (k, (page, lib)) in shots
        .iter()
        .zip(lib_json["shots"].as_array().unwrap())
        .enumerate()
    {
        for key in [
            "seat", "intended", "executed", "start", "outcome", "verdict", "score",
        ] {
            assert_eq!(floats(&page[key]), floats(&lib[key]), "shot {k}: {key}");
        }
    }
    assert_eq!(floats(&log["score"]), floats(&lib_json["score"]));
    assert_ne!(
        shots[0]["intended"], shots[0]["executed"],
        "a club player's flick is executed with its error"
    );

    // The downloaded game log, replayed by `crokinole simulate --rules`.
    d.script("window.crokinole.game.G.logText = null;", json!([]));
    d.click("#g-log");
    let mut text = Value::Null;
    for _ in 0..POLLS {
        text = d.script("return window.crokinole.game.G.logText;", json!([]));
        if text.is_string() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let text = text
        .as_str()
        .expect("the page fetched the game log")
        .to_string();
    // The log `crokinole play` writes for that game, but for the seats' names (the page
    // names its players and their noise).
    let mut got: Value = serde_json::from_str(&text).unwrap();
    let mut want = lib_json.clone();
    assert_eq!(got["seats"][0]["strategy"], "human (noise club)");
    assert_eq!(
        got["seats"][1]["strategy"],
        "greedy:k=16:spin=0 (noise club)"
    );
    got["seats"] = Value::Null;
    want["seats"] = Value::Null;
    assert!(got == want, "the downloaded log differs from the library's");
    assert_eq!(
        text,
        crokinole::io::game_log_json(&lib)
            .replace("scripted", "human (noise club)")
            .replacen("greedy:k=16:spin=0", "greedy:k=16:spin=0 (noise club)", 1),
        "laid out as `crokinole play` writes it"
    );
    let replay =
        crokinole::jobs::replay::replay(crokinole::jobs::replay::read(&text).unwrap()).unwrap();
    let file = dir.join("shots.json");
    std::fs::write(
        &file,
        crokinole::io::shot_file_json(&replay.board, &replay.physics, &replay.entries, "game"),
    )
    .unwrap();
    let out: Value =
        serde_json::from_slice(&cli(&["simulate", file.to_str().unwrap(), "--rules"])).unwrap();
    for (k, s) in shots.iter().enumerate() {
        assert_eq!(
            positions(&out["outcomes"][k]["discs"]),
            positions(&s["outcome"]["discs"]),
            "shot {k} replayed"
        );
    }
}

#[test]
#[ignore = "needs chromium and chromedriver (apt-get install chromium chromium-driver); \
            .ci/test runs it when they are installed"]
fn four_computers_play_a_game_by_themselves_and_a_bad_flick_is_refused_in_chromium() {
    let dir = binary::scratch("browser-game4");
    let (_server, _driver_process, d) = open_page(&dir);
    set(&d, "#g-players", "4");
    set(&d, "#g-rounds", "1");
    set(&d, "#g-speed", "1000");
    for (k, p) in ["random", "greedy", "montecarlo", "greedy"]
        .iter()
        .enumerate()
    {
        set(
            &d,
            &format!("#g-seats .g-seat:nth-child({}) .g-player", k + 1),
            p,
        );
    }
    // Seat 3 plays with the widths typed in the Monte Carlo section.
    set(&d, "#g-seats .g-seat:nth-child(4) .g-noise", "custom");
    d.mark_sent();
    d.click("#g-new");
    assert_eq!(wait_game(&d), "game-over", "{}", d.text("#g-error"));
    let g = game(&d);
    assert_eq!(
        g["log"]["seats"][3]["strategy"],
        "greedy:k=16:spin=0 (noise offset=0.003,aim=0.01,speed=0.03,spin=0.5)"
    );
    assert_eq!(
        g["log"]["seats"][0]["strategy"],
        "random:spin=0 (noise competitive)"
    );
    assert_eq!(
        g["log"]["shots"].as_array().unwrap().len(),
        24,
        "a round of 24 shots"
    );
    assert_eq!(g["log"]["rounds"].as_array().unwrap().len(), 1);
    assert!(d.text("#g-over").contains("Game stopped after 1 round"));
    d.screenshot("game-4-computers.png");

    // A human game: a flick faster than the physics allows is refused beside the game, in
    // words, and the game stays where it was.
    // (The computer shoots first with seed 2: its turn is animated this time, at 4x.)
    set(&d, "#g-players", "2");
    set(&d, "#g-seed", "2");
    set(&d, "#g-speed", "4");
    d.mark_sent();
    d.click("#g-new");
    assert_eq!(wait_game(&d), "your-turn");
    assert_eq!(
        game(&d)["log"]["shots"][0]["seat"],
        2,
        "the computer shot first"
    );
    let paths = d.script(
        "return document.querySelectorAll('#layer-paths polyline').length;",
        json!([]),
    );
    assert!(paths.as_u64().unwrap() >= 1, "its path stays on the board");
    set(&d, "#g-speed", "1000");
    let n = game(&d)["shots"].as_array().unwrap().len();
    d.script(
        "const S = window.crokinole.state; S.flick = {offset: 0.5, aim: 0, speed: 1, spin: 0};",
        json!([]),
    );
    d.script(
        "window.crokinole.game.G.config && (document.getElementById('f-offset').value = '0.5');",
        json!([]),
    );
    d.mark_sent();
    d.click("#shoot");
    assert_eq!(wait_game(&d), "error");
    let e = d.text("#g-error");
    assert!(e.starts_with("That flick cannot be played"), "{e}");
    assert!(!e.contains("game file"), "file words on the page: {e}");
    assert_eq!(game(&d)["shots"].as_array().unwrap().len(), n);

    // Hint: the planner's flick for the human, drawn and filled in; Shoot plays it.
    d.mark_sent();
    d.click("#g-hint");
    assert_eq!(wait_game(&d), "your-turn", "{}", d.text("#g-error"));
    assert!(d.text("#g-hint-text").starts_with("Hint (the planner"));
    let hint = d.script("return window.crokinole.game.G.hint.flick;", json!([]));
    let ghost = d.script(
        "return document.querySelectorAll('#layer-flick .shooter-ghost').length;",
        json!([]),
    );
    assert_eq!(ghost, json!(1), "the hint is drawn");
    d.mark_sent();
    d.click("#shoot");
    assert_eq!(wait_game(&d), "your-turn", "{}", d.text("#g-error"));
    let g = game(&d);
    let played = g["log"]["shots"]
        .as_array()
        .unwrap()
        .iter()
        .rfind(|s| s["seat"] == 0)
        .unwrap()["intended"]
        .clone();
    for key in ["offset", "aim", "speed", "spin"] {
        assert_eq!(played[key].as_f64(), hint[key].as_f64(), "{key}");
    }
    d.screenshot("game-hint-played.png");

    // Save and load: the game goes on from where it was.
    let saved = d.script(
        "const G = window.crokinole.game.G; return window.crokinole.game.gameFile(G.shots);",
        json!([]),
    );
    let shots = saved["shots"].as_array().unwrap().len();
    d.mark_sent();
    d.click("#g-new");
    assert_eq!(wait_game(&d), "your-turn");
    let path = dir.join("saved-game.json");
    std::fs::write(&path, saved.to_string()).unwrap();
    let input = d.element("#g-load");
    d.mark_sent();
    d.call(
        "POST",
        &format!("/element/{input}/value"),
        Some(json!({"text": path.to_str().unwrap()})),
    );
    assert_eq!(wait_game(&d), "your-turn", "{}", d.text("#g-error"));
    let g = game(&d);
    assert_eq!(g["shots"].as_array().unwrap().len(), shots);
    assert_eq!(floats(&g["log"]["shots"]), floats(&saved_log(&d, &saved)));
}

/// The log the server gives for a saved game.
fn saved_log(d: &Driver, saved: &Value) -> Value {
    d.script(
        "const r = await fetch('/api/game?moves=0', {method: 'POST',
           headers: {'Content-Type': 'application/json'}, body: JSON.stringify(arguments[0])});
         return (await r.json()).log.shots;",
        json!([saved]),
    )
}
