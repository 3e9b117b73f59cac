//! The match endpoints of `crokinole serve` (docs/serve.md): `POST /api/match/replay`, a
//! `crokinole match` log as the replay view shows it, verified; `POST /api/match/watch`, a
//! match between built-in strategies played up to a number of shots, for the page to
//! watch it shot by shot. Thin shells over [`crokinole_referee::match_view`] and
//! [`crokinole_referee::watch_match`]; both are heavy (they pass the gate) and watch the
//! request's time budget. The flicks a watched match's built-ins decided are kept
//! (`Decided`) so that the page's next request, one shot longer, decides one flick
//! instead of all of them again.

use crate::api::{Limits, Query, Reply};
use crokinole_core::cancel::{Cancel, CancelReason, Cancelled};
use crokinole_montecarlo::PlayerFlick;
use crokinole_referee::{MatchError, match_view, parse_watch, watch_match};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::collections::VecDeque;
use std::sync::Mutex;

/// Most shots one `/api/match/watch` request may ask for (`shots`): ten rounds (the most a
/// watched match may have) of 24 shots.
pub const MAX_WATCH_SHOTS: u64 = 240;

/// Watched matches whose decided flicks `Decided` keeps: the latest this many.
pub const KEPT_MATCHES: usize = 64;

/// The flicks the built-ins of the last [`KEPT_MATCHES`] watched matches decided, by the
/// SHA-256 of the watch request's body (the same bytes, the same match: built-ins and a
/// seed make it deterministic), the most recently used last. At most 64 matches of at most
/// 240 flicks: about 1 MB. The server's own results only: nothing a request sends is put
/// here but the key, so a page cannot make another page's match differ; a match found
/// here is the one the request would have played from its start (tested).
struct Decided(Mutex<VecDeque<([u8; 32], Vec<PlayerFlick>)>>);

static DECIDED: Decided = Decided(Mutex::new(VecDeque::new()));

impl Decided {
    fn entries(&self) -> std::sync::MutexGuard<'_, VecDeque<([u8; 32], Vec<PlayerFlick>)>> {
        // A panic elsewhere while it was held leaves whole entries: keep using them.
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The flicks kept for `key`, if any.
    fn get(&self, key: &[u8; 32]) -> Vec<PlayerFlick> {
        let entries = self.entries();
        let found = entries.iter().find(|(k, _)| k == key);
        found.map(|(_, f)| f.clone()).unwrap_or_default()
    }

    /// Keeps `flicks` for `key` (the longer of them and what was kept), the most recent.
    fn put(&self, key: [u8; 32], flicks: Vec<PlayerFlick>) {
        let mut entries = self.entries();
        let kept = entries.iter().position(|(k, _)| *k == key);
        let old = kept.and_then(|at| entries.remove(at)).map(|(_, f)| f);
        let flicks = match old {
            Some(old) if old.len() > flicks.len() => old,
            _ => flicks,
        };
        entries.push_back((key, flicks));
        while entries.len() > KEPT_MATCHES {
            entries.pop_front();
        }
    }
}

fn utf8(body: &[u8]) -> Result<&str, Reply> {
    std::str::from_utf8(body).map_err(|e| {
        Reply::bad(format!(
            "the body is not valid UTF-8 (bad byte at offset {})",
            e.valid_up_to()
        ))
    })
}

fn stopped(cancel: &Cancel) -> Reply {
    Reply::stopped(Cancelled(
        cancel.reason().unwrap_or(CancelReason::Requested),
    ))
}

/// `POST /api/match/replay`: a match log (JSON Lines) in; the replay view's shots (a shot
/// file per shot, `null` for a forfeited one), the log's own account of each shot, the
/// players, the end and whether the log verified (`verified`, else `problem`: the first
/// line that disagrees and why). Bounds: the body (`max_body`), the shots
/// (`max_log_shots`), the discs of a position (`max_discs`), the time budget (503).
pub fn replay(query: &Query, body: &[u8], limits: &Limits, cancel: &Cancel) -> Reply {
    let run = || -> Result<Reply, Reply> {
        if let Some((k, _)) = query.0.first() {
            return Err(Reply::bad(format!(
                "unknown query parameter `{k}`; this endpoint takes none"
            )));
        }
        let text = utf8(body)?;
        match match_view(text, limits.max_log_shots, limits.max_discs, cancel) {
            Ok(Some(view)) => Ok(Reply::json(format!("{}\n", view.json))),
            Ok(None) => Err(stopped(cancel)),
            Err(e) => Err(Reply::bad(format!("match log: {e}"))),
        }
    };
    run().unwrap_or_else(|e| e)
}

/// `POST /api/match/watch?shots=N&seen=K&log`: a watch request (built-in strategies only)
/// in; the match refereed up to `N` shots (default 1, at most [`MAX_WATCH_SHOTS`]) or its
/// end, played again from its start (its built-ins' flicks kept from earlier requests,
/// `Decided`, so only new shots are decided): `{"over": whether the game ended, "view": the replay
/// view of its log, "log": the log so far}`. With `seen=K` (0 to `N`) the view's shots
/// start at shot `K` (`view.from`: the page has the earlier ones); the log is in the
/// answer only once the game is over or with `log`, so watching a match shot by shot sends
/// each shot once. Bounds: the request's rounds (at most 10), `N`, the time budget (503),
/// the gate.
pub fn watch(query: &Query, body: &[u8], limits: &Limits, cancel: &Cancel) -> Reply {
    let run = || -> Result<Reply, Reply> {
        if let Some((k, _)) = query
            .0
            .iter()
            .find(|(k, _)| !["shots", "seen", "log"].contains(&k.as_str()))
        {
            return Err(Reply::bad(format!(
                "unknown query parameter `{k}`; this endpoint takes shots, seen, log"
            )));
        }
        let number = |key: &str, default: u64, lo: u64, hi: u64| match query.get(key) {
            None => Ok(default),
            Some(v) => v
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|n| (lo..=hi).contains(n))
                .ok_or_else(|| {
                    Reply::bad(format!(
                        "query parameter `{key}`: expected a whole number in {lo}..={hi}, \
                         got `{v}`"
                    ))
                }),
        };
        let shots = number("shots", 1, 1, MAX_WATCH_SHOTS)?;
        let seen = number("seen", 0, 0, shots)? as usize;
        let config = parse_watch(utf8(body)?).map_err(|e| Reply::bad(format!("watch: {e}")))?;
        let key: [u8; 32] = Sha256::digest(body).into();
        let decided = DECIDED.get(&key);
        let watched = match watch_match(&config, shots as usize, decided, cancel) {
            Ok(w) => w,
            Err(MatchError::Stopped) => return Err(stopped(cancel)),
            Err(MatchError::Input(e)) => return Err(Reply::bad(format!("watch: {e}"))),
            Err(e) => return Err(Reply::error(500, format!("the match failed: {e}"))),
        };
        DECIDED.put(key, watched.flicks);
        let mut view = match match_view(&watched.log, limits.max_log_shots, usize::MAX, cancel) {
            Ok(Some(view)) => view.json,
            Ok(None) => return Err(stopped(cancel)),
            Err(e) => return Err(Reply::error(500, format!("the match's own log: {e}"))),
        };
        for list in ["/shots", "/log/shots"] {
            if let Some(Value::Array(a)) = view.pointer_mut(list) {
                a.drain(..seen.min(a.len()));
            }
        }
        view["from"] = json!(seen);
        let mut body = json!({"over": watched.over, "view": view});
        if watched.over || query.get("log").is_some() {
            body["log"] = json!(watched.log);
        }
        Ok(Reply::json(format!("{body}\n")))
    };
    run().unwrap_or_else(|e| e)
}
