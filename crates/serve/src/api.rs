//! The JSON API of `crokinole serve`: one function per endpoint, each taking the request's
//! query and body and returning a [`Reply`]. No sockets here (the HTTP loop is in
//! `serve/mod.rs`), so every endpoint is tested as a plain function.
//!
//! The bodies are the files the command line reads (a shot file, a study file, a suggest
//! file, a game log), read by the same `io` readers, and the answers are the bytes the
//! command line prints for the same flags (`simulate`, `montecarlo`, `suggest`), so a
//! request is a command line without a shell. Every request is bounded before any work
//! starts ([`Limits`]): shots, discs, steps per shot, trace points, samples, planner
//! budget; a request over a bound is refused with 400 and a message naming the bound.
//! The work itself watches a [`Cancel`] (the server's per-request time budget, a client
//! gone): stopped, an endpoint answers 503 ([`Reply::stopped`]), never part of an answer.

use crokinole_core::Board;
use crokinole_core::cancel::{Cancel, CancelReason, Cancelled};
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_fit::{Coefficient, FitConfig};
use crokinole_io::{Layout, flick_answer_json, params_json, sizes, skills_json};
use crokinole_jobs::simulate::{ShotFile, SimulateOptions};
use crokinole_jobs::{fit, flick, game, plan, replay, simulate, study};
use crokinole_montecarlo::Sampling;
use crokinole_plan::{Budget, Objective, PlanConfig};
use crokinole_rules::Ruleset;
use serde_json::json;

/// The bounds on what one request may ask for. [`Limits::default`] is what
/// `crokinole serve` uses (docs/serve.md).
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// Largest request body, bytes.
    pub max_body: usize,
    /// Most shots in one shot file.
    pub max_shots: usize,
    /// Most discs at rest in one shot or position.
    pub max_discs: usize,
    /// Most fixed steps one shot may take (`physics.max_time / physics.dt`).
    pub max_steps: f64,
    /// Most trace points one `/api/simulate` or `/api/shot` answer may hold: shots x
    /// (discs + 1) x (steps / every + 1).
    pub max_trace_points: f64,
    /// Most Monte Carlo samples in one study.
    pub max_samples: u64,
    /// Largest planner budget, samples.
    pub max_budget: u64,
    /// Largest planner budget, seconds.
    pub max_seconds: f64,
    /// Most flicks a plan may report.
    pub max_top: usize,
    /// Most shots in a game log given to `/api/replay`.
    pub max_log_shots: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_body: 1 << 20,
            max_shots: 64,
            max_discs: 64,
            max_steps: 100_000.0,
            max_trace_points: 2_000_000.0,
            max_samples: 100_000,
            max_budget: 100_000,
            max_seconds: 10.0,
            max_top: 20,
            max_log_shots: 5_000,
        }
    }
}

/// An answer: HTTP status, content type and body.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// HTTP status code.
    pub status: u16,
    /// `Content-Type` header.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
}

/// The content type of every JSON answer.
pub const JSON: &str = "application/json";

impl Reply {
    /// 200 with a JSON body.
    pub fn json(body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status: 200,
            content_type: JSON,
            body: body.into(),
        }
    }

    /// An error: `status` with `{"error": message}` and a newline.
    pub fn error(status: u16, message: impl std::fmt::Display) -> Reply {
        let mut body = serde_json::to_vec(&json!({ "error": message.to_string() }))
            .unwrap_or_else(|_| b"{\"error\":\"?\"}".to_vec());
        body.push(b'\n');
        Reply {
            status,
            content_type: JSON,
            body,
        }
    }

    /// 400 for bad input.
    pub fn bad(message: impl std::fmt::Display) -> Reply {
        Reply::error(400, message)
    }

    /// 503 for work a [`Cancel`] stopped: the request's time budget ran out (the usual
    /// case: the server's `--budget`), or the client went away (then nobody reads it).
    pub fn stopped(why: Cancelled) -> Reply {
        match why.0 {
            CancelReason::Deadline => Reply::error(
                503,
                "the request's time budget ran out before the work was done (nothing of it \
                 is answered): send less work (fewer shots or samples, a smaller budget, \
                 shorter shots) or start the server with a larger --budget",
            ),
            CancelReason::Requested => Reply::error(503, "the request was stopped"),
        }
    }
}

/// A request's query string, decoded: `key=value` pairs in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Query(pub Vec<(String, String)>);

impl Query {
    /// Parses `a=1&b=x%3Ay` (`+` is a space; a key without `=` has an empty value).
    pub fn parse(text: &str) -> Query {
        Query(
            text.split('&')
                .filter(|p| !p.is_empty())
                .map(|p| {
                    let (k, v) = p.split_once('=').unwrap_or((p, ""));
                    (percent_decode(k), percent_decode(v))
                })
                .collect(),
        )
    }

    /// The last value of `key`, if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Refuses keys other than `allowed`, naming the first unknown one.
    fn only(&self, allowed: &[&str]) -> Result<(), Reply> {
        match self.0.iter().find(|(k, _)| !allowed.contains(&k.as_str())) {
            Some((k, _)) => Err(Reply::bad(format!(
                "unknown query parameter `{k}`; this endpoint takes {}",
                if allowed.is_empty() {
                    "none".to_string()
                } else {
                    allowed.join(", ")
                }
            ))),
            None => Ok(()),
        }
    }

    /// `key` as a whole number in `lo..=hi`, or `default` if absent.
    fn number(&self, key: &str, default: u64, lo: u64, hi: u64) -> Result<u64, Reply> {
        let Some(v) = self.get(key) else {
            return Ok(default);
        };
        let n: u64 = v.trim().parse().map_err(|_| {
            Reply::bad(format!(
                "query parameter `{key}`: expected a whole number, got `{v}`"
            ))
        })?;
        if n < lo || n > hi {
            return Err(Reply::bad(format!(
                "query parameter `{key}`: {n} is outside {lo}..={hi}"
            )));
        }
        Ok(n)
    }

    /// The rule set named by `key`, if given.
    fn ruleset(&self, key: &str) -> Result<Option<Ruleset>, Reply> {
        match self.get(key) {
            None | Some("") | Some("none") => Ok(None),
            Some(name) => Ruleset::ALL
                .into_iter()
                .find(|r| r.name() == name)
                .map(Some)
                .ok_or_else(|| {
                    Reply::bad(format!(
                        "query parameter `{key}`: expected traditional or tournament, got `{name}`"
                    ))
                }),
        }
    }
}

/// `%XX` and `+` decoded; a malformed escape is kept as it is; bytes that are not UTF-8
/// are replaced.
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => match (hex(b[i + 1]), hex(b[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A body as UTF-8 text, or 400.
fn text(body: &[u8]) -> Result<&str, Reply> {
    std::str::from_utf8(body).map_err(|e| {
        Reply::bad(format!(
            "the body is not valid UTF-8 (bad byte at offset {})",
            e.valid_up_to()
        ))
    })
}

/// Why `cancel` stopped the work (it was cancelled when this is asked).
fn stopped_by(cancel: &Cancel) -> Cancelled {
    Cancelled(cancel.reason().unwrap_or(CancelReason::Requested))
}

/// An input error as 400, its message prefixed with what was being read.
fn refused(what: &str) -> impl Fn(InputError) -> Reply + '_ {
    move |e| Reply::bad(format!("{what}: {e}"))
}

/// The physics bound: at most `max_steps` fixed steps per shot.
fn check_steps(physics: &Physics, limits: &Limits) -> Result<(), Reply> {
    let steps = physics.max_time / physics.dt;
    if steps > limits.max_steps {
        return Err(Reply::bad(format!(
            "field `physics.max_time`: max_time / dt = {steps:.0} steps per shot is more than \
             this server allows ({}); the command line takes up to 1e9",
            limits.max_steps
        )));
    }
    Ok(())
}

/// The disc bound of one position.
fn check_discs(field: &str, n: usize, limits: &Limits) -> Result<(), Reply> {
    if n > limits.max_discs {
        return Err(Reply::bad(format!(
            "field `{field}`: {n} discs is more than this server allows ({})",
            limits.max_discs
        )));
    }
    Ok(())
}

/// `GET /api/params`: the default board and physics blocks (`crokinole params`), plus a
/// newline.
pub fn params() -> Reply {
    let mut text = params_json(&Board::tournament(), &Physics::default());
    text.push('\n');
    Reply::json(text)
}

/// `GET /api/skills`: the named skill levels (`crokinole params --skills`,
/// docs/skill.md); the page's skill-level menu.
pub fn skills() -> Reply {
    Reply::json(skills_json())
}

/// The size bounds of a shot, study or suggest file, counted on the raw text before it
/// is read ([`sizes`]), so a file of a million discs is refused before it is checked disc
/// by disc.
fn check_sizes(text: &str, limits: &Limits) -> Result<(), Reply> {
    let counted = sizes(text);
    if let Some(shots) = counted.shots
        && shots > limits.max_shots
    {
        return Err(Reply::bad(format!(
            "field `shots`: {shots} shots is more than this server allows ({})",
            limits.max_shots
        )));
    }
    for (k, &n) in counted.shot_discs.iter().enumerate() {
        check_discs(&format!("shots[{k}].discs"), n, limits)?;
    }
    if let Some(n) = counted.discs {
        check_discs("discs", n, limits)?;
    }
    Ok(())
}

/// A shot file read ([`ShotFile::read`]) within the limits.
fn read_shot_file(text: &str, limits: &Limits) -> Result<ShotFile, Reply> {
    check_sizes(text, limits)?;
    let file = ShotFile::read(text).map_err(refused("shot file"))?;
    check_steps(&file.physics, limits)?;
    Ok(file)
}

/// The trace bound: shots x (discs + 1) x (steps / every + 1) points at most, for shots
/// of `discs[k]` discs at rest.
fn check_trace(
    physics: &Physics,
    discs: &[usize],
    every: u32,
    limits: &Limits,
) -> Result<(), Reply> {
    let steps = physics.max_time / physics.dt;
    let points: f64 = discs
        .iter()
        .map(|&n| (n as f64 + 1.0) * (steps / f64::from(every) + 2.0))
        .sum();
    if points > limits.max_trace_points {
        return Err(Reply::bad(format!(
            "query parameter `trace`: up to {points:.0} trace points is more than this server \
             allows ({}); trace less often (a larger `trace`) or send fewer shots",
            limits.max_trace_points
        )));
    }
    Ok(())
}

/// `POST /api/simulate?rules=R&trace=N`: a shot file in, the outcome file out, byte for
/// byte what `crokinole simulate FILE --compact [--rules --ruleset R] [--trace N]` prints
/// (the same job, [`simulate::simulate`]).
pub fn simulate(query: &Query, body: &[u8], limits: &Limits, cancel: &Cancel) -> Reply {
    let run = || -> Result<Reply, Reply> {
        query.only(&["rules", "trace"])?;
        let rules = query.ruleset("rules")?;
        let trace = match query.get("trace") {
            None => None,
            Some(_) => Some(query.number("trace", 10, 1, 1_000_000)? as u32),
        };
        let file = read_shot_file(text(body)?, limits)?;
        if let Some(every) = trace {
            let discs: Vec<usize> = file.entries.iter().map(|e| e.shot.discs.len()).collect();
            check_trace(&file.physics, &discs, every, limits)?;
        }
        let (simulated, stopped) =
            simulate::simulate_until(&file, SimulateOptions { rules, trace }, cancel)
                .map_err(refused("shot file"))?;
        if let Some(why) = stopped {
            return Err(Reply::stopped(why));
        }
        Ok(Reply::json(simulated.text(Layout::Compact)))
    };
    run().unwrap_or_else(|e| e)
}

/// A study file read ([`study::read`]) within the limits.
fn read_study(text: &str, limits: &Limits) -> Result<crokinole_montecarlo::Study, Reply> {
    check_sizes(text, limits)?;
    let study = study::read(text).map_err(refused("study file"))?;
    check_steps(&study.spec().situation.physics, limits)?;
    Ok(study)
}

/// The description of the shot file of a study's intended flick.
const STUDY_SHOT: &str = "the intended flick of a study (crokinole serve)";

/// `POST /api/shot?trace=N`: the page's flick ([`flick::flick`], as `crokinole flick`).
/// A study file in (its `noise` is ignored: the intended flick is played), and out
/// `{"shot_file", "outcomes", "score"}`: the shot file of the intended shot (as `crokinole
/// flick --shot-out` writes it), the `outcomes` member of the outcome file `crokinole
/// simulate` prints for it (with `--trace N`, default 10, and, if the study has a
/// `ruleset`, `--rules`), and the score: `{"team", "class", "change", "before"}`, the shot
/// disc's class and the change in score difference as a Monte Carlo sample of the study
/// counts them, and the board score of both teams before.
pub fn shot(query: &Query, body: &[u8], limits: &Limits, cancel: &Cancel) -> Reply {
    let run = || -> Result<Reply, Reply> {
        query.only(&["trace"])?;
        let every = query.number("trace", 10, 1, 1_000_000)? as u32;
        let study = read_study(text(body)?, limits)?;
        let s = &study.spec().situation;
        check_trace(&s.physics, &[s.discs.len()], every, limits)?;
        let played = flick::flick_until(&study, every, cancel)
            .map_err(refused("shot"))?
            .ok_or_else(|| Reply::stopped(stopped_by(cancel)))?;
        Ok(Reply::json(flick_answer_json(
            &flick::shot_file_text(&study, STUDY_SHOT),
            &played.simulated.file(),
            study.team(),
            &played.result,
            study.score_before(),
        )))
    };
    run().unwrap_or_else(|e| e)
}

/// `POST /api/shotfile`: a study file in, the shot file of its intended flick out (what
/// the page saves as "shot file"), byte for byte as `crokinole flick --shot-out` writes
/// it for the study.
pub fn shotfile(query: &Query, body: &[u8], limits: &Limits, _cancel: &Cancel) -> Reply {
    let run = || -> Result<Reply, Reply> {
        query.only(&[])?;
        let study = read_study(text(body)?, limits)?;
        Ok(Reply::json(flick::shot_file_text(&study, STUDY_SHOT)))
    };
    run().unwrap_or_else(|e| e)
}

/// `POST /api/montecarlo?samples=N&seed=S`: a study file in, the summary out, byte for
/// byte what `crokinole montecarlo FILE --samples N --seed S --positions --compact`
/// prints (defaults 10000 and 0; the page draws the positions).
pub fn montecarlo(query: &Query, body: &[u8], limits: &Limits, cancel: &Cancel) -> Reply {
    let run = || -> Result<Reply, Reply> {
        query.only(&["samples", "seed"])?;
        let samples = query.number("samples", 10_000, 1, limits.max_samples)?;
        let seed = query.number("seed", 0, 0, u64::MAX)?;
        let study = read_study(text(body)?, limits)?;
        let sampling = Sampling::new(seed, samples, None).map_err(refused("samples"))?;
        let tally = study
            .run_until(
                &sampling,
                crokinole_montecarlo::CHUNK,
                |_| (),
                |()| Ok::<(), std::convert::Infallible>(()),
                cancel,
            )
            .unwrap_or_else(|never| match never {});
        if !tally.is_complete() {
            return Err(Reply::stopped(stopped_by(cancel)));
        }
        let summary = tally.summary().map_err(refused("summary"))?;
        Ok(Reply::json(study::summary_text(
            summary,
            true,
            Layout::Compact,
        )))
    };
    run().unwrap_or_else(|e| e)
}

/// `POST /api/suggest?budget=N|Ts&top=K&seed=S&objective=O`: a suggest file in, the plan
/// out, byte for byte what `crokinole suggest FILE --compact` prints with the same flags
/// (defaults 20000, 5, 0, score).
pub fn suggest(query: &Query, body: &[u8], limits: &Limits, cancel: &Cancel) -> Reply {
    let run = || -> Result<Reply, Reply> {
        query.only(&["budget", "top", "seed", "objective"])?;
        let budget: Budget = query
            .get("budget")
            .unwrap_or("20000")
            .parse()
            .map_err(|e| Reply::bad(format!("query parameter `budget`: {e}")))?;
        match budget {
            Budget::Samples(n) if n > limits.max_budget => {
                return Err(Reply::bad(format!(
                    "query parameter `budget`: {n} samples is more than this server allows ({})",
                    limits.max_budget
                )));
            }
            Budget::Seconds(t) if t > limits.max_seconds => {
                return Err(Reply::bad(format!(
                    "query parameter `budget`: {t} s is more than this server allows ({} s)",
                    limits.max_seconds
                )));
            }
            _ => {}
        }
        let top = query.number("top", 5, 1, limits.max_top as u64)? as usize;
        let seed = query.number("seed", 0, 0, u64::MAX)?;
        let objective: Objective = query
            .get("objective")
            .unwrap_or("score")
            .parse()
            .map_err(|e| Reply::bad(format!("query parameter `objective`: {e}")))?;
        let text = text(body)?;
        check_sizes(text, limits)?;
        let request = plan::read(text).map_err(refused("suggest file"))?;
        check_steps(&request.situation.physics, limits)?;
        let config = PlanConfig {
            objective,
            budget,
            seed,
            top,
            grid: true,
        };
        let planned = plan::plan_until(&request, &config, cancel).map_err(refused("suggest"))?;
        if planned.stopped {
            return Err(Reply::stopped(stopped_by(cancel)));
        }
        Ok(Reply::json(plan::text(&planned, Layout::Compact)))
    };
    run().unwrap_or_else(|e| e)
}

/// `POST /api/fit?fit=LIST&holdout=F&seed=S&max_iterations=N&svg`: a tracks file in
/// (docs/tracks.md), the fit out: `{"report": what `crokinole fit --compact` prints,
/// "params": the fitted `board` and `physics` blocks (`--physics-out`)}`, with `svg` also
/// `"svg"`, the picture (`--svg`). The same defaults as the command (every coefficient,
/// no hold-out, seed 0, 50 iterations, at most 500). Bounds: the body, the tracks file's
/// own (200 shots, 200,000 observations), the steps per shot, the time budget (503).
pub fn fit(query: &Query, body: &[u8], limits: &Limits, cancel: &Cancel) -> Reply {
    let run = || -> Result<Reply, Reply> {
        query.only(&["fit", "holdout", "seed", "max_iterations", "svg"])?;
        let coefficients = match query.get("fit") {
            None => Coefficient::ALL.to_vec(),
            Some(list) => list
                .split(',')
                .map(|name| name.trim().parse::<Coefficient>())
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| Reply::bad(format!("query parameter `fit`: {e}")))?,
        };
        // The fit itself refuses a hold-out outside [0, 1) and an iteration count outside
        // 1..=500, naming the field, as it does for the command line and Python.
        let holdout = match query.get("holdout") {
            None => 0.0,
            Some(v) => v.trim().parse::<f64>().map_err(|_| {
                Reply::bad(format!(
                    "query parameter `holdout`: expected a number, got `{v}`"
                ))
            })?,
        };
        let seed = query.number("seed", 0, 0, u64::MAX)?;
        let default = u64::from(crokinole_fit::solve::DEFAULT_MAX_ITERATIONS);
        let max_iterations = query.number("max_iterations", default, 0, u32::MAX.into())? as u32;
        let tracks = fit::read(text(body)?).map_err(refused("tracks file"))?;
        check_steps(&tracks.physics, limits)?;
        let config = FitConfig {
            coefficients,
            holdout,
            seed,
            max_iterations,
        };
        let Some(fitted) = fit::fit_until(&tracks, &config, cancel).map_err(refused("fit"))? else {
            return Err(Reply::stopped(stopped_by(cancel)));
        };
        // The report's and the blocks' own bytes, as the command writes them.
        let (report, params) = (fitted.json(Layout::Compact), fitted.params());
        let svg = match query.get("svg") {
            Some(_) => {
                let svg = fitted.svg("fit").map_err(refused("fit"))?;
                format!(", \"svg\": {}", json!(svg))
            }
            None => String::new(),
        };
        Ok(Reply::json(format!(
            "{{\"report\": {}, \"params\": {}{svg}}}\n",
            report.trim_end(),
            params.trim_end()
        )))
    };
    run().unwrap_or_else(|e| e)
}

/// `POST /api/replay`: a game log of `crokinole play --games 1` in, and out
/// `{"players", "ruleset", "shots": [shot file, ...]}` ([`replay::replay`]): for every
/// shot of the log, the shot file that reproduces it (the discs the previous shot's
/// verdict left on the board, none at a round's first shot, and the logged `start`).
/// `crokinole simulate --rules` on one of them gives the logged outcome.
pub fn replay(query: &Query, body: &[u8], limits: &Limits, _cancel: &Cancel) -> Reply {
    let run = || -> Result<Reply, Reply> {
        query.only(&[])?;
        if crokinole_referee::is_match_log(text(body)?) {
            return Err(Reply::bad(
                "this is a `crokinole match` log: POST it to /api/match/replay",
            ));
        }
        let log = replay::read(text(body)?).map_err(refused("game log"))?;
        if log.shots.len() > limits.max_log_shots {
            return Err(Reply::bad(format!(
                "game log: field `shots`: {} shots is more than this server allows ({})",
                log.shots.len(),
                limits.max_log_shots
            )));
        }
        for (k, s) in log.shots.iter().enumerate() {
            check_discs(
                &format!("shots[{k}].verdict.position"),
                s.after.len(),
                limits,
            )?;
        }
        let replayed = replay::replay(log).map_err(refused("game log"))?;
        Ok(Reply::json(replayed.text()))
    };
    run().unwrap_or_else(|e| e)
}

/// Most computer shots one `/api/game` request may play (`moves`).
pub const MAX_GAME_MOVES: u64 = 64;

/// Most discs at rest before a shot of a game (a round's discs, less the shooter).
const GAME_DISCS: usize = 23;

/// `POST /api/game?moves=N&trace=T&hint=B&seen=K`: a game file in
/// (docs/play-on-the-page.md), the game played forward ([`game::advance_until`]): the
/// file's shots again (those from `K` on returned traced, at most [`MAX_GAME_MOVES`] of
/// them), then at most
/// `moves` (default 16, at most [`MAX_GAME_MOVES`]) computer shots until a human's turn
/// or the end, traced every `trace` steps (default 10); with `hint`, the planner's flick
/// for the human to shoot at that sample budget; with `log`, only the game log, as
/// `crokinole play --games 1` prints it (pass `moves=0` to log the file's shots alone).
/// Bounds: the file's shots
/// (`max_log_shots`), its rounds (at most 100), a planner seat's and the hint's budget
/// (`max_budget`), the trace points; the work watches `cancel` (503).
pub fn game(query: &Query, body: &[u8], limits: &Limits, cancel: &Cancel) -> Reply {
    let run = || -> Result<Reply, Reply> {
        query.only(&["moves", "trace", "hint", "seen", "log"])?;
        let log_only = query.get("log").is_some();
        let moves = query.number("moves", 16, 0, MAX_GAME_MOVES)? as usize;
        let trace = query.number("trace", 10, 1, 1_000_000)? as u32;
        let hint = match query.get("hint") {
            None => None,
            Some(_) => Some(query.number("hint", 2000, 1000, limits.max_budget)?),
        };
        let file = game::read(text(body)?).map_err(refused("game file"))?;
        if file.shots.len() > limits.max_log_shots {
            return Err(Reply::bad(format!(
                "game file: field `shots`: {} shots is more than this server allows ({})",
                file.shots.len(),
                limits.max_log_shots
            )));
        }
        if file.max_rounds > crokinole_io::GAME_MAX_ROUNDS {
            return Err(Reply::bad(format!(
                "game file: field `max_rounds`: {} rounds is more than this server allows ({})",
                file.max_rounds,
                crokinole_io::GAME_MAX_ROUNDS
            )));
        }
        for (k, seat) in file.seats.iter().enumerate() {
            if let Ok(crokinole_play::AnyStrategy::Planner(p)) =
                crokinole_play::AnyStrategy::parse(&seat.player, seat.noise)
                && p.budget > limits.max_budget
            {
                return Err(Reply::bad(format!(
                    "game file: field `seats[{k}].player`: a planner budget of {} samples is \
                     more than this server allows ({})",
                    p.budget, limits.max_budget
                )));
            }
        }
        let seen = match query.get("seen") {
            None => None,
            Some(_) => {
                let n = file.shots.len() as u64;
                let lo = n.saturating_sub(MAX_GAME_MOVES);
                Some(query.number("seen", n, lo, n)? as usize)
            }
        };
        let traced = moves + seen.map_or(0, |s| file.shots.len() - s);
        check_trace(
            &Physics::default(),
            &vec![GAME_DISCS; traced],
            trace,
            limits,
        )?;
        let advance = game::Advance {
            moves,
            trace,
            hint,
            seen,
        };
        match game::advance_until(&file, advance, cancel) {
            Ok(advanced) if log_only => Ok(Reply::json(crokinole_io::game_log_json(&advanced.log))),
            Ok(advanced) => Ok(Reply::json(advanced.text())),
            Err(game::GameJobError::Input(e)) => Err(refused("game file")(e)),
            Err(game::GameJobError::Stopped(why)) => Err(Reply::stopped(why)),
        }
    };
    run().unwrap_or_else(|e| e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_are_decoded_and_the_last_value_counts() {
        let q =
            Query::parse("a=1&strategies=greedy%3Ak%3D4%2Crandom&b=x+y&a=2&flag&bad=%zz&end=%4");
        assert_eq!(q.get("a"), Some("2"));
        assert_eq!(q.get("strategies"), Some("greedy:k=4,random"));
        assert_eq!(q.get("b"), Some("x y"));
        assert_eq!(q.get("flag"), Some(""));
        assert_eq!(q.get("bad"), Some("%zz"));
        assert_eq!(q.get("end"), Some("%4"));
        assert_eq!(q.get("none"), None);
        assert_eq!(Query::parse(""), Query::default());
    }

    #[test]
    fn numbers_and_rule_sets_are_checked() {
        let q = Query::parse("n=12&big=99&neg=-1&r=tournament&s=street");
        assert_eq!(q.number("n", 0, 1, 20), Ok(12));
        assert_eq!(q.number("missing", 7, 1, 20), Ok(7));
        assert_eq!(q.number("big", 0, 1, 20).unwrap_err().status, 400);
        assert_eq!(q.number("neg", 0, 0, 20).unwrap_err().status, 400);
        assert_eq!(q.ruleset("r"), Ok(Some(Ruleset::Tournament)));
        assert_eq!(q.ruleset("missing"), Ok(None));
        let e = q.ruleset("s").unwrap_err();
        assert!(String::from_utf8_lossy(&e.body).contains("street"));
        assert!(q.only(&["n", "big", "neg", "r"]).is_err());
    }
}
