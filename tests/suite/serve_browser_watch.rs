//! Matches on the page in a real browser (headless Chromium through WebDriver, the harness
//! of `serve_browser.rs`): a match between built-ins started from the page and watched
//! live to its end (one round), every animated shot's final positions checked against the
//! match's log, the log verified by the library and by `crokinole match replay`; the log
//! loaded back into the replay view and stepped through (verified, each shot's seat and
//! flicks shown); a tampered copy shown as not verified, naming its line. Screenshots go
//! to target/screenshots/ (1366x768 and 414 px wide). A module of `serve_browser.rs`.

use super::{Driver, POLLS, cli, open_page};
use crate::binary;

use serde_json::{Value, json};
use std::time::Duration;

fn set(d: &Driver, css: &str, value: &str) {
    d.script(
        "const e = document.querySelector(arguments[0]); e.value = arguments[1];
         e.dispatchEvent(new Event('change'));",
        json!([css, value]),
    );
}

/// The shooter's copy of every `shot` message of a match log, in order.
fn logged_shots(log: &str) -> Vec<Value> {
    log.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["dir"] == "to" && v["msg"]["type"] == "shot" && v["msg"]["seat"] == v["seat"])
        .map(|v| v["msg"].clone())
        .collect()
}

fn positions(discs: &Value) -> Vec<Value> {
    discs
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["pos"].clone())
        .collect()
}

fn sizes(d: &Driver, name: &str) {
    d.screenshot(&format!("{name}-1366.png"));
    d.call(
        "POST",
        "/window/rect",
        Some(json!({"width": 414, "height": 900})),
    );
    d.screenshot(&format!("{name}-414.png"));
    d.call(
        "POST",
        "/window/rect",
        Some(json!({"width": 1366, "height": 768})),
    );
}

#[test]
#[ignore = "needs chromium and chromedriver (apt-get install chromium chromium-driver); \
            .ci/test runs it when they are installed"]
fn a_match_is_watched_live_to_its_end_and_its_log_stepped_through_in_chromium() {
    let dir = binary::scratch("browser-watch");
    let (_server, _driver_process, d) = open_page(&dir);
    d.call(
        "POST",
        "/window/rect",
        Some(json!({"width": 1366, "height": 768})),
    );
    // Every animated outcome, as the page received it.
    d.script(
        "const orig = animate; window.animated = [];
         animate = function (e, o, done, speed) {
           window.animated.push(o.discs.map((x) => x.pos)); return orig(e, o, done, speed); };",
        json!([]),
    );
    d.click("#sec-replay summary");
    set(&d, "#w-seed", "5");
    set(&d, "#w-rounds", "1");
    // Slow enough that the test sees the match in its middle on an idle machine too: at
    // 1000 the 16 shots were all over before the test looked (the mid-match log then came
    // back whole, not stopped).
    set(&d, "#w-speed", "8");
    set(&d, "#w-seats .w-seat:nth-child(1) .w-player", "greedy:k=2");
    d.click("#w-start");
    let mut mid = false;
    let w = loop_until(&d, |w| {
        if !mid && w["shots"].as_u64().unwrap_or(0) >= 5 {
            mid = true;
            return Some(true);
        }
        (w["over"] == true && w["running"] == false).then_some(false)
    });
    let _ = w;
    sizes(&d, "watch-live");
    // "Download the match log" in the middle of the match: the log of the shots shown so
    // far, ended as stopped; it verifies.
    let mid_log = d.call(
        "POST",
        "/execute/async",
        Some(json!({
            "script": "const done = arguments[arguments.length - 1];
                       window.crokinole.watch.watchLog().then(done);",
            "args": []
        })),
    );
    let mid_log = mid_log.as_str().expect("the log so far").to_string();
    let report = crokinole::referee::replay_log(&mid_log).expect("the log so far verifies");
    assert!(report.stopped && report.shots >= 5, "{report:?}");
    let w = loop_until(&d, |w| {
        (w["over"] == true && w["running"] == false).then_some(false)
    });
    assert_eq!(d.text("#w-status"), "the match is over after 16 shots");
    let log = w["log"].as_str().unwrap().to_string();
    let shots = logged_shots(&log);
    assert_eq!(shots.len(), 16);
    let animated = d.script("return window.animated;", json!([]));
    assert_eq!(animated.as_array().unwrap().len(), 16);
    for (k, s) in shots.iter().enumerate() {
        assert_eq!(
            animated[k].as_array().unwrap().to_vec(),
            positions(&s["outcome"]["discs"]),
            "shot {k}"
        );
    }
    assert_eq!(
        d.script(
            "return document.getElementById('w-verified').className;",
            json!([])
        ),
        "ok"
    );
    assert!(
        d.text("#w-result").starts_with("Result: "),
        "{}",
        d.text("#w-result")
    );
    assert!(
        d.text("#rp-shot").contains("Round 1 ends"),
        "{}",
        d.text("#rp-shot")
    );
    sizes(&d, "watch-end");
    // The log (what "Download the match log" saves) replays.
    let path = dir.join("watched.jsonl");
    std::fs::write(&path, &log).unwrap();
    let ok = cli(&["match", "replay", path.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&ok).starts_with("ok: "));
    crokinole::referee::replay_log(&log).expect("the watched log verifies");
    // The log downloaded mid-match holds the same first shots.
    assert_eq!(
        logged_shots(&mid_log)[..],
        shots[..logged_shots(&mid_log).len()]
    );

    // The log loaded back and stepped through.
    let input = d.element("#log-file");
    d.mark_sent();
    d.call(
        "POST",
        &format!("/element/{input}/value"),
        Some(json!({"text": path.to_str().unwrap()})),
    );
    d.wait_for("done");
    assert!(d.text("#w-verified").starts_with("the log verified"));
    for (k, s) in shots.iter().enumerate().take(4).skip(1) {
        d.mark_sent();
        d.click("#rp-next");
        d.wait_for("done");
        assert_eq!(d.text("#rp-match"), "the same final positions as the log");
        assert!(
            d.text("#rp-info")
                .contains(&format!("Shot {} of 16", k + 1))
        );
        let shown = d.text("#rp-shot");
        assert!(shown.starts_with(&format!("Seat {}", s["seat"])), "{shown}");
        let speed = format!("speed {:.3} m/s", s["executed"]["speed"].as_f64().unwrap());
        assert!(shown.contains(&speed), "{shown} / {speed}");
        let fin: Value = serde_json::from_str(&d.text("#final")).unwrap();
        assert_eq!(
            positions(&fin["discs"]),
            positions(&s["outcome"]["discs"]),
            "shot {k}"
        );
    }
    sizes(&d, "match-replay");

    // A tampered copy: shown, not verified, the line named.
    let (bad, k) = crate::match_cli::tampered(&log);
    let bad_path = dir.join("tampered.jsonl");
    std::fs::write(&bad_path, &bad).unwrap();
    d.mark_sent();
    d.call(
        "POST",
        &format!("/element/{input}/value"),
        Some(json!({"text": bad_path.to_str().unwrap()})),
    );
    d.wait_for("done");
    let said = d.text("#w-verified");
    assert!(
        said.contains(&format!("did NOT verify: line {}:", k + 1)),
        "{said}"
    );
    // The shot whose lines hold it says so (the tampered line is the first shot's).
    let marked = d.text("#rp-bad-line");
    assert!(
        marked.starts_with(&format!("line {}, of this shot", k + 1)),
        "{marked}"
    );
    d.screenshot("match-replay-tampered.png");
}

/// Polls the page's watched match until `f` says stop (`Some`), returning its state.
fn loop_until(d: &Driver, mut f: impl FnMut(&Value) -> Option<bool>) -> Value {
    for _ in 0..POLLS {
        let w = d.script("return window.crokinole.watch.W;", json!([]));
        assert!(
            !d.text("#w-status").contains("error") && d.state() != "error",
            "{}",
            d.text("#w-status")
        );
        if f(&w).is_some() {
            return w;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("the watched match never got there: {}", d.text("#w-status"));
}
