//! `crokinole serve` without a browser: the API's answers are the command line's bytes,
//! bad requests get a 4xx with a message saying what is wrong, every bound holds, several
//! requests are served at once, and nothing a client sends makes it panic.
//!
//! Most tests talk over HTTP to one server started in this process on a free port
//! (`crokinole::serve::Server`), the concurrency test to one of its own; one starts the
//! binary's `serve` as a user would.

use crate::binary;
use crate::http;

use crokinole::cancel::Cancel;
use crokinole::serve::{Gate, Limits, Request, ServeConfig, Server, route};
use http::{Answer, request};
use serde_json::Value;
use std::sync::OnceLock;
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(120);

/// Starts a server in this process on a free port, letting `heavy` studies and plans
/// through at once, and returns its address.
fn start(heavy: usize) -> String {
    let server = Server::bind(ServeConfig {
        port: 0,
        heavy,
        ..ServeConfig::default()
    })
    .expect("bind a free port");
    let addr = server.addr().to_string();
    std::thread::spawn(move || server.run());
    addr
}

/// The address of the server these tests share (started once). The tests run in parallel
/// and each may have a study in flight, so its gate is wide: none of them is about the
/// gate. (With the default gate of 2, the studies of the concurrency test once turned a
/// bad request of another test away with a 503 instead of its 400; that test now has a
/// server of its own.)
fn server() -> &'static str {
    static ADDR: OnceLock<String> = OnceLock::new();
    ADDR.get_or_init(|| start(64))
}

fn post(path: &str, body: &[u8]) -> Answer {
    post_to(server(), path, body)
}

fn post_to(addr: &str, path: &str, body: &[u8]) -> Answer {
    request(addr, "POST", path, Some("application/json"), body, TIMEOUT)
        .expect("the server answers")
}

fn get(path: &str) -> Answer {
    request(server(), "GET", path, None, b"", TIMEOUT).expect("the server answers")
}

fn fixture(dir: &str, name: &str) -> Vec<u8> {
    std::fs::read(binary::fixture(dir, name)).unwrap()
}

/// Whether two JSON documents are the same values (numbers compared exactly).
fn same_json(a: &[u8], b: &[u8]) -> bool {
    let parse = |x: &[u8]| serde_json::from_slice::<serde_json::Value>(x).expect("JSON");
    parse(a) == parse(b)
}

/// What `crokinole ARGS` prints in the layout the server answers with: `--compact`, and
/// for a study the kept positions (`--positions`), which the page draws.
fn cli(args: &[&str]) -> Vec<u8> {
    let mut args = args.to_vec();
    args.push("--compact");
    if args[0] == "montecarlo" {
        args.push("--positions");
    }
    binary::ok(&args)
}

/// A refusal: the status, a JSON `{"error"}` whose message holds every fragment.
fn assert_refused(a: &Answer, status: u16, fragments: &[&str]) {
    assert_eq!(a.status, status, "{}", a.text());
    assert_eq!(a.header("content-type"), Some("application/json"));
    let msg = a.json()["error"]
        .as_str()
        .expect("an error message")
        .to_string();
    for f in fragments {
        assert!(msg.contains(f), "{msg:?} lacks {f:?}");
    }
}

#[test]
fn simulate_is_the_command_line_byte_for_byte() {
    let file = binary::fixture("", "example.json");
    let body = fixture("", "example.json");
    for (query, flags) in [
        ("", vec![]),
        ("?rules=traditional", vec!["--rules"]),
        ("?trace=10", vec!["--trace", "10"]),
        (
            "?rules=tournament&trace=3",
            vec!["--rules", "--ruleset", "tournament", "--trace", "3"],
        ),
    ] {
        let a = post(&format!("/api/simulate{query}"), &body);
        assert_eq!(a.status, 200, "{query}: {}", a.text());
        let mut args = vec!["simulate", file.as_str()];
        args.extend(flags);
        assert!(a.body == cli(&args), "{query}: differs from {args:?}");
    }
    // The benchmark-shaped batch too (many discs, many shots).
    let crowded = fixture("", "crowded.json");
    let v: Value = serde_json::from_slice(&crowded).unwrap();
    let first: Vec<Value> = v["shots"].as_array().unwrap()[..40].to_vec();
    let text = serde_json::to_string(&serde_json::json!({"shots": first})).unwrap();
    let dir = binary::scratch("crowded");
    let path = dir.join("crowded40.json");
    std::fs::write(&path, &text).unwrap();
    let a = post("/api/simulate", text.as_bytes());
    assert_eq!(a.status, 200, "{}", a.text());
    assert!(a.body == cli(&["simulate", path.to_str().unwrap()]));
}

#[test]
fn montecarlo_and_suggest_are_the_command_lines_documents() {
    let study = binary::fixture("montecarlo", "takeout.json");
    let a = post(
        "/api/montecarlo?samples=3000&seed=7",
        &fixture("montecarlo", "takeout.json"),
    );
    assert_eq!(a.status, 200, "{}", a.text());
    // The command line's bytes: one job, one writer.
    assert!(
        a.body == cli(&["montecarlo", &study, "--samples", "3000", "--seed", "7"]),
        "montecarlo differs"
    );
    let file = binary::fixture("suggest", "takeout.json");
    let a = post(
        "/api/suggest?budget=3000&top=3&seed=2&objective=score",
        &fixture("suggest", "takeout.json"),
    );
    assert_eq!(a.status, 200, "{}", a.text());
    let want = cli(&[
        "suggest", &file, "--budget", "3000", "--top", "3", "--seed", "2",
    ]);
    assert!(a.body == want, "suggest differs");
}

/// `POST /api/fit` answers the report `crokinole fit --compact` prints, byte for byte,
/// and the blocks `--physics-out` writes; refuses a bad query naming the parameter; and
/// stopped by its budget answers 503, never part of a fit.
#[test]
fn fit_is_the_command_lines_report_and_blocks() {
    let file = binary::fixture("tracks", "example.json");
    let body = fixture("tracks", "example.json");
    let a = post("/api/fit?holdout=0.3&seed=2&svg", &body);
    assert_eq!(a.status, 200, "{}", a.text());
    let report = cli(&["fit", &file, "--holdout", "0.3", "--seed", "2"]);
    let report = String::from_utf8(report).unwrap();
    let text = a.text();
    assert!(
        text.starts_with(&format!("{{\"report\": {}, ", report.trim_end())),
        "the report differs"
    );
    let dir = binary::scratch("fit");
    let params = dir.join("params.json");
    let p = params.to_str().unwrap();
    cli(&[
        "fit",
        &file,
        "--holdout",
        "0.3",
        "--seed",
        "2",
        "--physics-out",
        p,
    ]);
    let v = a.json();
    assert!(same_json(
        v["params"].to_string().as_bytes(),
        &std::fs::read(&params).unwrap()
    ));
    assert!(v["svg"].as_str().unwrap().contains("<svg"));
    assert!(post("/api/fit", &body).json().get("svg").is_none());
    for (query, words) in [
        ("fit=hole_speed", &["fit", "unknown coefficient"][..]),
        ("holdout=1", &["holdout", "[0, 1)"]),
        ("max_iterations=501", &["max_iterations"]),
        ("samples=3", &["unknown query parameter `samples`"]),
    ] {
        assert_refused(&post(&format!("/api/fit?{query}"), &body), 400, words);
    }
    assert_refused(&post("/api/fit", b"{\"shots\": 3}"), 400, &["tracks file"]);
    let stopped = Cancel::new();
    stopped.cancel();
    let q = crokinole::serve::Query::parse("");
    let r = crokinole::serve::api::fit(&q, &body, &Limits::default(), &stopped);
    assert_eq!(r.status, 503, "{}", String::from_utf8_lossy(&r.body));
}

#[test]
fn shot_plays_the_studys_intended_flick_as_simulate_does() {
    let body = fixture("montecarlo", "takeout-ruled.json");
    let a = post("/api/shot?trace=5", &body);
    assert_eq!(a.status, 200, "{}", a.text());
    let v = a.json();
    // The shot file it returns, run through the command line, gives the same outcome.
    let dir = binary::scratch("shot");
    let path = dir.join("shot.json");
    std::fs::write(&path, v["shot_file"].to_string()).unwrap();
    let ruleset = serde_json::from_slice::<Value>(&body).unwrap()["ruleset"]
        .as_str()
        .unwrap()
        .to_string();
    let out: Value = serde_json::from_slice(&cli(&[
        "simulate",
        path.to_str().unwrap(),
        "--rules",
        "--ruleset",
        &ruleset,
        "--trace",
        "5",
    ]))
    .unwrap();
    assert_eq!(v["outcomes"], out["outcomes"]);
    // The shot is the study's intended one, computed by the library.
    let study = crokinole::io::parse_study_file(std::str::from_utf8(&body).unwrap()).unwrap();
    let spec = study.spec();
    let outcome = crokinole::run_shot(
        &spec.situation.board,
        &spec.situation.physics,
        &study.intended_shot(),
    )
    .unwrap();
    for (k, d) in outcome.discs.iter().enumerate() {
        let pos = &v["outcomes"][0]["discs"][k]["pos"];
        assert_eq!(pos[0].as_f64(), Some(d.pos.x), "disc {k}");
        assert_eq!(pos[1].as_f64(), Some(d.pos.y), "disc {k}");
    }
    let score = &v["score"];
    assert!(score["change"].is_i64(), "{score}");
    assert_eq!(score["team"], study.team());
    // The shot file endpoint gives the same shot file.
    let f = post("/api/shotfile", &body);
    assert_eq!(f.status, 200, "{}", f.text());
    assert_eq!(f.json(), v["shot_file"]);
}

#[test]
fn replay_rebuilds_every_shot_of_a_game_log() {
    let log = cli(&[
        "play",
        "--seed",
        "5",
        "--strategies",
        "greedy:k=4,random",
        "--max-rounds",
        "2",
    ]);
    let a = post("/api/replay", &log);
    assert_eq!(a.status, 200, "{}", a.text());
    let v = a.json();
    let logged: Value = serde_json::from_slice(&log).unwrap();
    let files = v["shots"].as_array().unwrap();
    assert_eq!(files.len(), logged["shots"].as_array().unwrap().len());
    assert!(files.len() > 10);
    let ruleset = v["ruleset"].as_str().unwrap();
    for (k, file) in files.iter().enumerate() {
        let out = post(
            &format!("/api/simulate?rules={ruleset}"),
            file.to_string().as_bytes(),
        );
        assert_eq!(out.status, 200, "shot {k}: {}", out.text());
        let o = &out.json()["outcomes"][0];
        let l = &logged["shots"][k];
        assert_eq!(
            o["discs"].as_array().unwrap().len(),
            l["outcome"]["discs"].as_array().unwrap().len(),
            "shot {k}"
        );
        for (d, e) in o["discs"]
            .as_array()
            .unwrap()
            .iter()
            .zip(l["outcome"]["discs"].as_array().unwrap())
        {
            assert_eq!(d["pos"], e["pos"], "shot {k}");
        }
        assert_eq!(o["rules"], l["verdict"], "shot {k}");
    }
}

#[test]
fn shotfile_is_the_shot_file_flick_writes() {
    // `/api/shotfile` and `crokinole flick --shot-out` write the study's shot through one
    // job and one writer: the same bytes but for the description.
    let study = binary::fixture("montecarlo", "takeout-ruled.json");
    let dir = binary::scratch("shotfile");
    let path = dir.join("shot.json");
    cli(&["flick", &study, "--shot-out", path.to_str().unwrap()]);
    let written = std::fs::read_to_string(&path).unwrap();
    let a = post(
        "/api/shotfile",
        &fixture("montecarlo", "takeout-ruled.json"),
    );
    assert_eq!(a.status, 200, "{}", a.text());
    let described = |t: &str| {
        t.lines()
            .filter(|l| !l.trim_start().starts_with("\"description\""))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(described(&a.text()), described(&written));
    assert!(
        a.text()
            .contains("\"description\": \"the intended flick of a study")
    );
}

#[test]
fn a_bad_game_log_is_refused_naming_the_field() {
    let log = cli(&["play", "--seed", "1", "--max-rounds", "1"]);
    let mut v: Value = serde_json::from_slice(&log).unwrap();
    v["shots"][2]["start"]
        .as_object_mut()
        .unwrap()
        .remove("pos");
    assert_refused(
        &post("/api/replay", v.to_string().as_bytes()),
        400,
        &["game log", "shots[2].start", "missing field `pos`"],
    );
    let mut v: Value = serde_json::from_slice(&log).unwrap();
    v["shots"][0]["seat"] = Value::from(7);
    assert_refused(
        &post("/api/replay", v.to_string().as_bytes()),
        400,
        &["shots[0].seat", "0-3"],
    );
    let mut v: Value = serde_json::from_slice(&log).unwrap();
    v["shots"][1]["start"]["pos"] = serde_json::json!([0.0, 0.0]);
    assert_refused(
        &post("/api/replay", v.to_string().as_bytes()),
        400,
        &["game log", "shots[1]"],
    );
    // What the page shows of a shot must have its type: no text where a number goes (a
    // round of `<img src=x onerror=...>` once ran in the page).
    for (key, bad, field) in [
        (
            "round",
            serde_json::json!("<img src=x onerror=alert(1)>"),
            "shots[1].round",
        ),
        ("team", serde_json::json!("<b>"), "shots[1].team"),
        (
            "round_totals",
            serde_json::json!(["<i>", 0]),
            "shots[1].round_totals",
        ),
        ("score", serde_json::json!("<script>"), "shots[1].score"),
    ] {
        let mut v: Value = serde_json::from_slice(&log).unwrap();
        v["shots"][1][key] = bad;
        assert_refused(
            &post("/api/replay", v.to_string().as_bytes()),
            400,
            &["game log", field],
        );
    }
}

#[test]
fn bad_requests_get_a_4xx_naming_the_problem() {
    // Malformed JSON, with where.
    assert_refused(
        &post("/api/simulate", b"{\"shots\": [}"),
        400,
        &["shot file", "line 1 column"],
    );
    // Overlapping discs.
    let overlap = br#"{"shots":[{"discs":[{"team":0,"pos":[0.1,0.1]},{"team":1,"pos":[0.11,0.1]}],
        "shooter":{"team":0,"pos":[0.0,-0.3048],"vel":[0.0,1.0]}}]}"#;
    assert_refused(
        &post("/api/simulate", overlap),
        400,
        &["shots[0].discs[1].pos", "overlaps disc 0"],
    );
    let study_overlap =
        br#"{"seat":0,"discs":[{"team":0,"pos":[0.1,0.1]},{"team":1,"pos":[0.11,0.1]}],
        "flick":{"speed":1.0}}"#;
    assert_refused(
        &post("/api/montecarlo", study_overlap),
        400,
        &["study file", "discs[1].pos", "overlaps"],
    );
    // Absurd sample counts, budgets, trace rates.
    let study = fixture("montecarlo", "takeout.json");
    assert_refused(
        &post("/api/montecarlo?samples=1000000000", &study),
        400,
        &["samples", "1..=100000"],
    );
    assert_refused(
        &post("/api/montecarlo?samples=-3", &study),
        400,
        &["samples", "whole number"],
    );
    assert_refused(
        &post("/api/montecarlo?samples=0", &study),
        400,
        &["samples"],
    );
    let sug = fixture("suggest", "takeout.json");
    assert_refused(
        &post("/api/suggest?budget=100000000", &sug),
        400,
        &["budget", "100000"],
    );
    assert_refused(&post("/api/suggest?budget=1h", &sug), 400, &["budget"]);
    assert_refused(
        &post("/api/suggest?budget=60s", &sug),
        400,
        &["budget", "10 s"],
    );
    assert_refused(&post("/api/suggest?top=500", &sug), 400, &["top"]);
    assert_refused(
        &post("/api/suggest?objective=fun", &sug),
        400,
        &["objective", "fun"],
    );
    // Unknown query parameters and rule sets.
    assert_refused(
        &post("/api/montecarlo?sample=10", &study),
        400,
        &["`sample`"],
    );
    assert_refused(
        &post("/api/simulate?rules=street", &fixture("", "example.json")),
        400,
        &["rules", "street"],
    );
    // Too many shots, discs, steps, trace points.
    let shot = r#"{"discs":[],"shooter":{"team":0,"pos":[0.0,-0.3048],"vel":[0.0,0.85]}}"#;
    let many = format!("{{\"shots\":[{}]}}", vec![shot; 65].join(","));
    assert_refused(
        &post("/api/simulate", many.as_bytes()),
        400,
        &["65 shots", "64"],
    );
    let discs: Vec<String> = (0..65)
        .map(|k| format!("{{\"team\":0,\"pos\":[{},0.2]}}", -0.3 + 0.0001 * k as f64))
        .collect();
    let crowd = format!(
        "{{\"shots\":[{{\"discs\":[{}],\"shooter\":{{\"team\":0,\"pos\":[0.0,-0.3048],\"vel\":[0.0,0.85]}}}}]}}",
        discs.join(",")
    );
    assert_refused(&post("/api/simulate", crowd.as_bytes()), 400, &["65 discs"]);
    let slow = format!("{{\"physics\":{{\"dt\":1e-4,\"max_time\":100.0}},\"shots\":[{shot}]}}");
    assert_refused(
        &post("/api/simulate", slow.as_bytes()),
        400,
        &["physics.max_time", "steps per shot"],
    );
    let traced = format!(
        "{{\"physics\":{{\"dt\":0.001,\"max_time\":100.0}},\"shots\":[{}]}}",
        vec![shot; 30].join(",")
    );
    assert_refused(
        &post("/api/simulate?trace=1", traced.as_bytes()),
        400,
        &["trace points"],
    );
    // Over-large bodies: 413, read or not.
    let big = vec![b' '; (1 << 20) + 10];
    assert_refused(&post("/api/simulate", &big), 413, &["larger", "1048576"]);
    // Wrong content type, method, path; a body that is not UTF-8.
    let a = request(
        server(),
        "POST",
        "/api/simulate",
        Some("text/plain"),
        b"{}",
        TIMEOUT,
    )
    .unwrap();
    assert_refused(&a, 415, &["application/json"]);
    assert_refused(&get("/api/simulate"), 405, &["POST"]);
    assert_refused(&get("/nope"), 404, &["/nope"]);
    assert_refused(&post("/api/simulate", &[0xff, 0xfe]), 400, &["UTF-8"]);
    // A game log that is not one.
    assert_refused(
        &post("/api/replay", b"{\"players\": 2}"),
        400,
        &["game log", "ruleset"],
    );
    assert_refused(
        &post("/api/replay", b"[1,"),
        400,
        &["game log", "expected a game log object"],
    );
    // The server still answers after all that.
    assert_eq!(get("/api/params").status, 200);
}

#[test]
fn the_page_and_its_files_are_served() {
    let page = get("/");
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    let html = page.text();
    assert!(html.contains("<svg id=\"board\""), "{html}");
    for (path, kind) in [
        ("/app.js", "text/javascript"),
        ("/game.js", "text/javascript"),
        ("/style.css", "text/css"),
    ] {
        let a = get(path);
        assert_eq!(a.status, 200, "{path}");
        assert!(a.header("content-type").unwrap().starts_with(kind));
        assert!(!a.body.is_empty());
        // Nothing is fetched from elsewhere.
        assert!(!a.text().contains("http://") || path == "/app.js", "{path}");
        assert!(!a.text().contains("https://"), "{path}");
    }
    assert!(!html.contains("https://"));
    let params = get("/api/params");
    assert_eq!(params.status, 200);
    assert!(same_json(&params.body, &cli(&["params"])));
}

#[test]
fn concurrent_requests_are_all_answered_and_equal() {
    // A server of its own, with the default gate: no other test's study takes a place.
    let addr = start(ServeConfig::default().heavy);
    let example = fixture("", "example.json");
    let want = cli(&[
        "simulate",
        &binary::fixture("", "example.json"),
        "--trace",
        "10",
    ]);
    let study = fixture("montecarlo", "opening.json");
    let mc_want = post_to(&addr, "/api/montecarlo?samples=2000&seed=1", &study);
    assert_eq!(mc_want.status, 200);
    let threads: Vec<_> = (0..10)
        .map(|k| {
            let (example, study, addr) = (example.clone(), study.clone(), addr.clone());
            std::thread::spawn(move || {
                if k % 5 == 4 {
                    post_to(&addr, "/api/montecarlo?samples=2000&seed=1", &study)
                } else {
                    post_to(&addr, "/api/simulate?trace=10", &example)
                }
            })
        })
        .collect();
    for (k, t) in threads.into_iter().enumerate() {
        let a = t.join().expect("no client thread panics");
        // At most two studies at once: two were sent, so none is turned away.
        assert_eq!(a.status, 200, "request {k}: {}", a.text());
        if k % 5 == 4 {
            assert!(a.body == mc_want.body, "request {k}");
        } else {
            assert!(a.body == want, "request {k}");
        }
    }
}

#[test]
fn one_gate_holds_every_heavy_endpoint_within_the_budget() {
    // Studies, plans, shots and simulations all pass the gate; a full gate keeps them
    // waiting until their budget ends (503), the light endpoints never wait.
    let gate = Gate::new(2);
    let _a = gate.enter().expect("first");
    let b = gate.enter().expect("second");
    assert!(gate.enter().is_none());
    let limits = Limits::default();
    let study = fixture("montecarlo", "takeout.json");
    let req = |url: &'static str, body: &'static [u8]| Request {
        method: "POST",
        url,
        content_type: Some("application/json"),
        body,
    };
    let study: &'static [u8] = Box::leak(study.into_boxed_slice());
    let shots: &'static [u8] = Box::leak(fixture("", "example.json").into_boxed_slice());
    let budget = || Cancel::new().with_budget(Duration::from_millis(100));
    for (url, body) in [
        ("/api/montecarlo?samples=10", study),
        ("/api/shot", study),
        ("/api/simulate", shots),
        ("/api/game", GAME.as_bytes()),
    ] {
        let start = std::time::Instant::now();
        let r = route(&req(url, body), &limits, &gate, &budget());
        assert_eq!(r.status, 503, "{url}");
        assert!(String::from_utf8_lossy(&r.body).contains("busy"), "{url}");
        assert!(
            start.elapsed() >= Duration::from_millis(100),
            "{url} waited its budget"
        );
    }
    let r = route(&req("/api/shotfile", study), &limits, &gate, &budget());
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    drop(b);
    // A place again: the study runs (with no budget, so a loaded machine cannot fail it).
    let r = route(
        &req("/api/montecarlo?samples=10", study),
        &limits,
        &gate,
        &Cancel::new(),
    );
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
}

#[test]
fn garbage_never_panics_the_router() {
    // Truncations and byte flips of valid files, to every endpoint: each answer is a 4xx
    // (or 200 when the change left a valid file), never a 500.
    let limits = Limits::default();
    let gate = Gate::new(64);
    let files = [
        fixture("", "example.json"),
        fixture("montecarlo", "takeout.json"),
        fixture("suggest", "takeout.json"),
    ];
    let endpoints = [
        "/api/simulate?trace=50",
        "/api/shot?trace=50",
        "/api/shotfile",
        "/api/montecarlo?samples=5",
        "/api/suggest?budget=1000&top=1",
        "/api/replay",
    ];
    let mut cases = 0;
    for f in &files {
        for cut in (0..f.len()).step_by(f.len() / 12 + 1) {
            let mut variants = vec![f[..cut].to_vec()];
            let mut flipped = f.clone();
            flipped[cut] = b"x9-.]}\"{"[cut % 8];
            variants.push(flipped);
            for body in &variants {
                for url in endpoints {
                    let r = route(
                        &Request {
                            method: "POST",
                            url,
                            content_type: Some("application/json"),
                            body,
                        },
                        &limits,
                        &gate,
                        &Cancel::never(),
                    );
                    assert!(
                        r.status == 200 || (400..500).contains(&r.status),
                        "{url}: {} {}",
                        r.status,
                        String::from_utf8_lossy(&r.body)
                    );
                    cases += 1;
                }
            }
        }
    }
    assert!(cases > 200, "{cases}");
}

#[test]
fn the_binary_serves_and_prints_its_url() {
    let (mut child, addr) = crate::http::spawn_serve(&[], std::process::Stdio::null());
    // It listens on this machine only unless told otherwise.
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    let addr = addr.as_str();
    let a = request(addr, "GET", "/api/params", None, b"", TIMEOUT);
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(a.unwrap().status, 200);
}

/// A game of two computers, one round.
const GAME: &str = r#"{"players": 2, "ruleset": "tournament", "seed": 9, "max_rounds": 1,
    "seats": [{"player": "random", "noise": "club"}, {"player": "greedy:k=2", "noise": "club"}]}"#;

#[test]
fn game_plays_forward_to_the_game_crokinole_play_plays() {
    // All computers, one noise: the log of `crokinole play` with that seed, whichever
    // number of moves a request plays.
    let cli_log = binary::ok(&[
        "play",
        "--seed",
        "9",
        "--strategies",
        "random,greedy:k=2",
        "--noise",
        "club",
        "--ruleset",
        "tournament",
        "--max-rounds",
        "1",
        "--games",
        "1",
    ]);
    let want: Value = serde_json::from_slice(&cli_log).unwrap();
    let a = post("/api/game?moves=64&trace=100", GAME.as_bytes());
    assert_eq!(a.status, 200, "{}", a.text());
    let v = a.json();
    assert!(v["log"]["shots"] == want["shots"], "{}", v["error"]);
    assert_eq!(v["state"]["over"], true);
    assert_eq!(v["from"], 0);
    let n = want["shots"].as_array().unwrap().len();
    assert_eq!(v["outcomes"].as_array().unwrap().len(), n);
    assert_eq!(v["shot_file"]["shots"].as_array().unwrap().len(), n);
    // Five shots, then the rest from their decisions: the same game.
    let first = post("/api/game?moves=5", GAME.as_bytes()).json();
    assert_eq!(first["log"]["shots"].as_array().unwrap().len(), 5);
    assert_eq!(first["state"]["over"], false);
    let mut file: Value = serde_json::from_str(GAME).unwrap();
    file["shots"] = first["log"]["shots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let mut f = s["intended"].clone();
            f["value"] = s["value"].clone();
            f["candidates"] = s["candidates"].clone();
            f
        })
        .collect();
    let rest = post(
        "/api/game?moves=64&seen=3&trace=100",
        file.to_string().as_bytes(),
    )
    .json();
    assert!(rest["log"]["shots"] == want["shots"], "{}", rest["error"]);
    assert_eq!(
        rest["from"], 3,
        "the file's shots from `seen` are returned too"
    );
    assert_eq!(rest["outcomes"].as_array().unwrap().len(), n - 3);
    // `log`: the log alone, as `crokinole play` lays it out.
    let log = post("/api/game?moves=0&log", file.to_string().as_bytes());
    assert_eq!(log.status, 200);
    assert!(
        log.text().starts_with("{\n  \"game\": 0,"),
        "{}",
        log.text()
    );
    assert_eq!(log.json()["shots"].as_array().unwrap().len(), 5);
}

#[test]
fn a_bad_game_request_is_refused_naming_the_field() {
    let human = r#"{"players": 2, "seats": [{"player": "human"}, {"player": "greedy"}],
        "shots": [{"offset": 0.5, "speed": 1.0}]}"#;
    let cases: [(&str, &str, &[&str]); 8] = [
        ("/api/game?moves=65", GAME, &["moves", "65"]),
        (
            "/api/game?moov=1",
            GAME,
            &["unknown query parameter `moov`"],
        ),
        ("/api/game?hint=10", GAME, &["hint", "1000"]),
        ("/api/game", human, &["shots[0]"]),
        (
            "/api/game",
            &GAME.replace("random", "grredy"),
            &["seats[0].player", "human"],
        ),
        (
            "/api/game",
            &GAME.replace("greedy:k=2", "planner:budget=200000"),
            &["seats[1].player", "100000"],
        ),
        (
            "/api/game",
            &GAME.replace("\"max_rounds\": 1", "\"max_rounds\": 101"),
            &["max_rounds"],
        ),
        (
            "/api/game",
            &GAME.replace("\"club\"", "\"pro\""),
            &["seats[0].noise"],
        ),
    ];
    for (url, body, fragments) in cases {
        assert_refused(&post(url, body.as_bytes()), 400, fragments);
    }
    let many = format!(
        r#"{{"players": 2, "seats": [{{"player": "human"}}, {{"player": "human"}}], "shots": [{}]}}"#,
        vec![r#"{"speed": 1}"#; 5001].join(",")
    );
    assert_refused(&post("/api/game", many.as_bytes()), 400, &["shots", "5000"]);
}
