//! `crokinole serve`: a local web server with one page, an interactive board, and a JSON
//! API over the `io` readers and writers (docs/serve.md).
//!
//! The top layer: it may use io, render, model, table and core, and nothing but the
//! binary uses it. The page (HTML, CSS, JavaScript; no build step, nothing fetched from
//! elsewhere) is compiled into the binary from `crates/serve/src/page/`.
//!
//! The HTTP is hyper's HTTP/1.1 on a single-threaded tokio runtime (the ecosystem's
//! well-kept stack: request parsing, header limits, keep-alive and timeouts are its, not
//! a loop of ours), with the least of each crate's features. The endpoints stay plain
//! functions ([`api`]); each request's work runs on tokio's blocking threads (and the
//! simulations on the rayon pool, as on the command line), so answers do not depend on how
//! many requests arrive at once. What no client can do to it ([`ServeConfig`] has every
//! bound; docs/serve.md the table):
//!
//! - run it out of descriptors for good: connections are capped below the descriptor
//!   limit ([`connection_cap`]), and should an accept fail all the same (`EMFILE`) the
//!   error is logged, the oldest idle connections closed, and the loop goes on after a
//!   short pause;
//! - hold it with slow or idle connections: the header must arrive within
//!   [`Timeouts::header`] (hyper's header read timeout, also the keep-alive idle
//!   timeout), the body within [`Timeouts::body`], and a write that makes no progress for
//!   [`Timeouts::write`] drops the connection (a client that does not read its answer);
//!   at most [`ServeConfig::max_connections`] connections are open, and beyond that the
//!   oldest connection with no work under way is closed to make room;
//! - send a huge header (hyper reads at most [`MAX_HEADER_BYTES`]: 431) or body
//!   ([`Limits::max_body`]: 413, counted as it arrives);
//! - reach it from a web page through DNS rebinding: the `Host` header must name the bound
//!   address (`127.0.0.1:PORT`, `localhost:PORT`, `[::1]:PORT`) or a name given with
//!   `--allow-host` (421 otherwise);
//! - make it work long: every request's work watches a [`Cancel`] with the request's time
//!   budget ([`ServeConfig::budget`]), cancelled too when the client goes away (hyper drops
//!   the request's future), and the engine checks it within every shot (503 when it ran
//!   out); the heavy endpoints (simulate, shot, montecarlo, suggest, game, match) pass one
//!   [`Gate`], waiting there within their budget.
//!
//! - [`api`]: the endpoints as plain functions (query and body in, [`Reply`] out) and the
//!   [`Limits`] every request is held to; [`watch`]: the match endpoints.
//! - [`route`]: method and path to endpoint, the body-size and content-type checks, the
//!   gate, and a last guard against panics.
//! - [`Server`]: the socket, the connections and their bounds; `write_timeout.rs` the
//!   stream that drops a client which stops reading.

pub mod api;
mod gate;
pub mod watch;
mod write_timeout;

pub use gate::{Gate, Slot};
use write_timeout::WriteTimeout;

pub use api::{Limits, Query, Reply};

use crokinole_core::cancel::Cancel;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{HOST, HeaderValue};
use hyper::{Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::VecDeque;
use std::future::Future;
use std::net::SocketAddr;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::Poll;
use std::time::{Duration, Instant};

/// The page, its style and its script, compiled in.
const INDEX_HTML: &str = include_str!("page/index.html");
const STYLE_CSS: &str = include_str!("page/style.css");
const APP_JS: &str = include_str!("page/app.js");
const GAME_JS: &str = include_str!("page/game.js");
const STUDY_JS: &str = include_str!("page/study.js");
const REPLAY_JS: &str = include_str!("page/replay.js");
const WATCH_JS: &str = include_str!("page/watch.js");

/// Most bytes of a request's line and headers hyper reads (its read buffer): a longer
/// head is answered 431 and the connection closed.
pub const MAX_HEADER_BYTES: usize = 16 * 1024;

/// How long a new connection waits for a place when [`ServeConfig::max_connections`] are
/// open and none can be closed to make room (every one has work under way); then it is
/// closed.
pub const CONNECTION_WAIT: Duration = Duration::from_secs(1);

/// The pause after a failed accept (out of descriptors, say) before the next.
pub const ACCEPT_PAUSE: Duration = Duration::from_millis(10);

/// Idle connections closed after a failed accept, to free descriptors.
pub const CLOSED_ON_ACCEPT_ERROR: usize = 8;

/// Descriptors kept free of connections: the process's own (standard streams, the
/// listening socket, the runtime's) and a margin.
pub const DESCRIPTOR_RESERVE: u64 = 32;

/// The connection cap in force: `max_connections`, lowered to the process's descriptor
/// limit less [`DESCRIPTOR_RESERVE`] (Unix), so connections alone never exhaust it.
pub fn connection_cap(max_connections: usize) -> usize {
    let mut cap = max_connections.max(1);
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit(2) only writes the struct it is given.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0 {
            // `rlim_t` is not `u64` on every Unix.
            #[allow(clippy::unnecessary_cast)]
            let free = (limit.rlim_cur as u64)
                .saturating_sub(DESCRIPTOR_RESERVE)
                .max(1);
            cap = cap.min(usize::try_from(free).unwrap_or(usize::MAX));
        }
    }
    cap
}

/// The time limits on one connection (docs/serve.md).
#[derive(Clone, Debug, PartialEq)]
pub struct Timeouts {
    /// From the connection's start, or the end of its last answer, until a request's
    /// line and headers have arrived whole: a slow or idle client is closed after this.
    pub header: Duration,
    /// From the headers until the body has arrived whole: 408 after this.
    pub body: Duration,
    /// Longest a write of the answer may wait for the client to read: the connection is
    /// closed after this.
    pub write: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            header: Duration::from_secs(10),
            body: Duration::from_secs(10),
            write: Duration::from_secs(10),
        }
    }
}

/// Where to listen and how much to allow.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Host or address to bind: `127.0.0.1` by default (this machine only).
    pub host: String,
    /// Port; 0 picks a free one.
    pub port: u16,
    /// Heavy requests (simulations, shots, Monte Carlo studies, planner searches) that
    /// run at once at most; more wait at the [`Gate`] within their time budget (503 if it
    /// runs out there).
    pub heavy: usize,
    /// Connections open at once at most (see [`Server`]).
    pub max_connections: usize,
    /// The time budget of one request's work, from its arrival: the work is stopped then
    /// and answered 503.
    pub budget: Duration,
    /// The connection time limits.
    pub timeouts: Timeouts,
    /// Host names (`evil.example`, or with a port, `name:8080`) accepted in the `Host`
    /// header besides the bound address, `localhost` and the loopback addresses.
    pub allow_hosts: Vec<String>,
    /// The bounds on one request.
    pub limits: Limits,
}

impl Default for ServeConfig {
    fn default() -> ServeConfig {
        ServeConfig {
            host: "127.0.0.1".into(),
            port: 8080,
            heavy: 2,
            max_connections: 256,
            budget: Duration::from_secs(10),
            timeouts: Timeouts::default(),
            allow_hosts: Vec::new(),
            limits: Limits::default(),
        }
    }
}

/// One request as the router sees it.
pub struct Request<'a> {
    /// `GET`, `POST`, ...
    pub method: &'a str,
    /// Path and query (`/api/montecarlo?samples=100`).
    pub url: &'a str,
    /// The `Content-Type` header, if any.
    pub content_type: Option<&'a str>,
    /// The body (at most `limits.max_body` bytes: the server refuses larger ones before
    /// routing).
    pub body: &'a [u8],
}

/// Answers one request: the page's files on `GET`, the API on `POST` (a JSON body, at
/// most `limits.max_body` bytes), 404 for an unknown path, 405 for a wrong method. A
/// heavy endpoint waits for a place at `gate` until `cancel` is cancelled (503), and its
/// work watches `cancel` (503 when it stopped it, [`Reply::stopped`]). A panic inside an
/// endpoint (a bug: input is checked first) is caught and answered 500.
pub fn route(req: &Request, limits: &Limits, gate: &Gate, cancel: &Cancel) -> Reply {
    let (path, query) = req.url.split_once('?').unwrap_or((req.url, ""));
    let query = Query::parse(query);
    let page = |content_type, text: &'static str| Reply {
        status: 200,
        content_type,
        body: text.as_bytes().to_vec(),
    };
    type Endpoint = fn(&Query, &[u8], &Limits, &Cancel) -> Reply;
    let post: Option<(Endpoint, bool)> = match path {
        "/api/simulate" => Some((api::simulate, true)),
        "/api/shot" => Some((api::shot, true)),
        "/api/shotfile" => Some((api::shotfile, false)),
        "/api/montecarlo" => Some((api::montecarlo, true)),
        "/api/suggest" => Some((api::suggest, true)),
        "/api/fit" => Some((api::fit, true)),
        "/api/replay" => Some((api::replay, false)),
        "/api/game" => Some((api::game, true)),
        "/api/match/replay" => Some((watch::replay, true)),
        "/api/match/watch" => Some((watch::watch, true)),
        _ => None,
    };
    match (req.method, path, post) {
        ("GET" | "HEAD", "/" | "/index.html", _) => page("text/html; charset=utf-8", INDEX_HTML),
        ("GET" | "HEAD", "/style.css", _) => page("text/css; charset=utf-8", STYLE_CSS),
        ("GET" | "HEAD", "/app.js", _) => page("text/javascript; charset=utf-8", APP_JS),
        ("GET" | "HEAD", "/game.js", _) => page("text/javascript; charset=utf-8", GAME_JS),
        ("GET" | "HEAD", "/study.js", _) => page("text/javascript; charset=utf-8", STUDY_JS),
        ("GET" | "HEAD", "/replay.js", _) => page("text/javascript; charset=utf-8", REPLAY_JS),
        ("GET" | "HEAD", "/watch.js", _) => page("text/javascript; charset=utf-8", WATCH_JS),
        ("GET" | "HEAD", "/api/params", _) => api::params(),
        ("GET" | "HEAD", "/api/skills", _) => api::skills(),
        ("POST", _, Some((endpoint, heavy))) => {
            let json = req
                .content_type
                .is_some_and(|c| c.trim().to_ascii_lowercase().starts_with(api::JSON));
            if !json {
                return Reply::error(
                    415,
                    "send the body as JSON with `Content-Type: application/json`",
                );
            }
            if req.body.len() > limits.max_body {
                return too_large(limits);
            }
            let _slot = if heavy {
                match gate.enter_until(cancel) {
                    Some(slot) => Some(slot),
                    None => {
                        return Reply::error(
                            503,
                            "the server is busy with other simulations and the request's \
                             time budget ran out waiting; try again in a moment",
                        );
                    }
                }
            } else {
                None
            };
            catch_unwind(AssertUnwindSafe(|| {
                endpoint(&query, req.body, limits, cancel)
            }))
            .unwrap_or_else(|_| {
                Reply::error(500, "internal error while handling the request (a bug)")
            })
        }
        (
            _,
            "/" | "/index.html" | "/style.css" | "/app.js" | "/game.js" | "/study.js"
            | "/replay.js" | "/watch.js" | "/api/params" | "/api/skills",
            _,
        ) => Reply::error(405, format!("{path} takes GET")),
        (_, _, Some(_)) => Reply::error(405, format!("{path} takes POST with a JSON body")),
        _ => Reply::error(404, format!("no such page or endpoint: {path}")),
    }
}

/// 413 for a body over the limit.
fn too_large(limits: &Limits) -> Reply {
    Reply::error(
        413,
        format!(
            "the body is larger than this server allows ({} bytes)",
            limits.max_body
        ),
    )
}

/// Whether `host` (a `Host` header's value) names this server: the bound address,
/// `localhost`, `127.0.0.1` or `[::1]` with the bound port, or a name of `allowed`
/// (with or without a port; a port given there must match). Names compare without case.
pub fn host_allowed(host: &str, bound: SocketAddr, allowed: &[String]) -> bool {
    let host = host.trim().to_ascii_lowercase();
    let port = bound.port();
    let (name, given_port) = match host.rsplit_once(':') {
        Some((n, p)) if !p.contains(']') => (n.to_string(), p.parse::<u16>().ok()),
        _ => (host.clone(), None),
    };
    let port_ok = given_port == Some(port) || (given_port.is_none() && port == 80);
    let loopback = ["localhost", "127.0.0.1", "[::1]"];
    let bound_name = match bound {
        SocketAddr::V4(a) => a.ip().to_string(),
        SocketAddr::V6(a) => format!("[{}]", a.ip()),
    };
    if port_ok && (loopback.contains(&name.as_str()) || name == bound_name) {
        return !bound.ip().is_unspecified() || loopback.contains(&name.as_str());
    }
    allowed.iter().any(|a| {
        let a = a.trim().to_ascii_lowercase();
        match a.rsplit_once(':') {
            Some((n, p)) if !p.contains(']') => n == name && p.parse::<u16>().ok() == given_port,
            _ => a == name && (given_port.is_none() || port_ok),
        }
    })
}

/// A bound socket and its configuration; [`Server::run`] serves until the process ends.
pub struct Server {
    listener: std::net::TcpListener,
    addr: SocketAddr,
    config: ServeConfig,
}

/// What every connection of a server shares.
struct Shared {
    config: ServeConfig,
    /// The connection cap in force ([`connection_cap`]).
    cap: usize,
    addr: SocketAddr,
    gate: Gate,
    conns: Conns,
}

/// The open connections, oldest first, and how many there are.
#[derive(Default)]
struct Conns {
    open: Mutex<VecDeque<Arc<Conn>>>,
    next_id: AtomicU64,
    /// Set by the accept loop when it closed connections to make room.
    freed: tokio::sync::Notify,
}

/// One open connection: whether a request's work is under way on it (then it is not
/// closed to make room), and the signal that closes it.
struct Conn {
    id: u64,
    working: AtomicBool,
    close: tokio::sync::Notify,
}

impl Conns {
    fn count(&self) -> usize {
        self.open.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Closes the `n` oldest connections with no work under way (fewer if there are not
    /// so many).
    fn close_oldest_idle(&self, n: usize) {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        for c in open
            .iter()
            .filter(|c| !c.working.load(Ordering::SeqCst))
            .take(n)
        {
            c.close.notify_one();
        }
    }

    fn add(&self) -> Arc<Conn> {
        let conn = Arc::new(Conn {
            id: self.next_id.fetch_add(1, Ordering::Relaxed),
            working: AtomicBool::new(false),
            close: tokio::sync::Notify::new(),
        });
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.push_back(Arc::clone(&conn));
        conn
    }

    fn remove(&self, id: u64) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(k) = open.iter().position(|c| c.id == id) {
            open.remove(k);
        }
        drop(open);
        self.freed.notify_waiters();
    }
}

impl Server {
    /// Binds `config.host:config.port` (port 0: a free one).
    pub fn bind(config: ServeConfig) -> Result<Server, String> {
        let at = if config.host.contains(':') && !config.host.starts_with('[') {
            format!("[{}]:{}", config.host, config.port)
        } else {
            format!("{}:{}", config.host, config.port)
        };
        let listener =
            std::net::TcpListener::bind(&at).map_err(|e| format!("cannot listen on {at}: {e}"))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("cannot listen on {at}: {e}"))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| format!("cannot listen on {at}: {e}"))?;
        Ok(Server {
            listener,
            addr,
            config,
        })
    }

    /// The address bound.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's address, `http://HOST:PORT/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Serves requests until the process ends (or returns the error that kept the
    /// runtime from starting).
    pub fn run(self) -> Result<(), String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .max_blocking_threads(self.config.max_connections.max(1) + 8)
            .build()
            .map_err(|e| format!("cannot start the server's runtime: {e}"))?;
        let shared = Arc::new(Shared {
            cap: connection_cap(self.config.max_connections),
            gate: Gate::new(self.config.heavy),
            addr: self.addr,
            config: self.config,
            conns: Conns::default(),
        });
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(self.listener)
                .map_err(|e| format!("cannot listen: {e}"))?;
            accept_loop(listener, shared).await;
            Ok(())
        })
    }
}

/// Accepts connections for ever: an error (out of descriptors, say) is logged (at most
/// once a second), the [`CLOSED_ON_ACCEPT_ERROR`] oldest idle connections are closed to
/// free descriptors, and the loop goes on after [`ACCEPT_PAUSE`]. At the connection cap
/// the oldest idle connection is closed for each new one. Never waits for anything but
/// the socket.
async fn accept_loop(listener: tokio::net::TcpListener, shared: Arc<Shared>) {
    let mut last_log: Option<Instant> = None;
    let mut failures = 0u64;
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                failures += 1;
                if last_log.is_none_or(|t| t.elapsed() >= Duration::from_secs(1)) {
                    eprintln!(
                        "crokinole serve: cannot accept a connection ({e}; {failures} so far); \
                         closing the oldest idle one and going on"
                    );
                    last_log = Some(Instant::now());
                }
                shared.conns.close_oldest_idle(CLOSED_ON_ACCEPT_ERROR);
                tokio::time::sleep(ACCEPT_PAUSE).await;
                continue;
            }
        };
        if shared.conns.count() >= shared.cap {
            shared.conns.close_oldest_idle(1);
        }
        tokio::spawn(connection(stream, Arc::clone(&shared)));
    }
}

/// Serves one connection: waits (at most [`CONNECTION_WAIT`]) for a place under the
/// connection cap, then lets hyper serve it until it ends, its timeouts end it, or the
/// accept loop closes it to make room.
async fn connection(stream: tokio::net::TcpStream, shared: Arc<Shared>) {
    let cap = shared.cap;
    let waited = Instant::now();
    while shared.conns.count() >= cap {
        let left = CONNECTION_WAIT.saturating_sub(waited.elapsed());
        if left.is_zero() {
            return; // dropped: closed
        }
        let _ = tokio::time::timeout(
            left.min(Duration::from_millis(50)),
            shared.conns.freed.notified(),
        )
        .await;
    }
    let conn = shared.conns.add();
    let _ = stream.set_nodelay(true);
    let io = TokioIo::new(WriteTimeout::new(stream, shared.config.timeouts.write));
    let service = {
        let (shared, conn) = (Arc::clone(&shared), Arc::clone(&conn));
        hyper::service::service_fn(move |req| {
            let (shared, conn) = (Arc::clone(&shared), Arc::clone(&conn));
            async move { Ok::<_, std::convert::Infallible>(handle(req, &shared, &conn).await) }
        })
    };
    let served = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(shared.config.timeouts.header)
        .max_buf_size(MAX_HEADER_BYTES)
        .keep_alive(true)
        .serve_connection(io, service);
    {
        let mut served = pin!(served);
        let mut closed = pin!(conn.close.notified());
        std::future::poll_fn(|cx| {
            if served.as_mut().poll(cx).is_ready() || closed.as_mut().poll(cx).is_ready() {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        })
        .await;
    } // the connection (and its socket) is dropped here
    shared.conns.remove(conn.id);
}

/// Cancels its [`Cancel`] when dropped: when hyper drops a request's future (its client
/// went away) the work of the request stops.
struct CancelOnDrop(Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// Clears a connection's "work under way" mark when dropped.
struct Working<'a>(&'a Conn);

impl Drop for Working<'_> {
    fn drop(&mut self) {
        self.0.working.store(false, Ordering::SeqCst);
    }
}

/// One request: the `Host` check, the body read within its limits and time, then the
/// router on a blocking thread with the request's budget.
async fn handle(
    req: hyper::Request<Incoming>,
    shared: &Arc<Shared>,
    conn: &Conn,
) -> Response<Full<Bytes>> {
    let config = &shared.config;
    let cancel = Cancel::new().with_budget(config.budget);
    let _stop_when_dropped = CancelOnDrop(cancel.clone());
    let header = |name| -> Result<Option<String>, Reply> {
        match req.headers().get(name).map(HeaderValue::to_str) {
            None => Ok(None),
            Some(Ok(v)) => Ok(Some(v.to_string())),
            Some(Err(_)) => Err(Reply::bad(format!(
                "the `{name}` header is not printable ASCII"
            ))),
        }
    };
    let checked = (|| -> Result<(Option<String>, Option<u64>), Reply> {
        // RFC 9112, 3.2: a request with more than one Host field is answered 400 (taking
        // the first would let a proxy and this server disagree about the host).
        if req.headers().get_all(HOST).iter().count() > 1 {
            return Err(Reply::bad("the request has more than one `Host` header"));
        }
        let host =
            header(HOST.as_str())?.ok_or_else(|| Reply::bad("the request has no `Host` header"))?;
        if !host_allowed(&host, shared.addr, &config.allow_hosts) {
            return Err(Reply::error(
                421,
                format!(
                    "this server answers only requests for {} (or localhost) with this port; \
                     `Host: {host}` is refused (a page of another site reaching this machine, \
                     DNS rebinding); start it with `--allow-host NAME` to serve that name",
                    shared.addr
                ),
            ));
        }
        let content_type = header("content-type")?;
        let declared = header("content-length")?.and_then(|n| n.trim().parse::<u64>().ok());
        if declared.is_some_and(|n| n > config.limits.max_body as u64) {
            return Err(too_large(&config.limits));
        }
        Ok((content_type, declared))
    })();
    let (content_type, _) = match checked {
        Ok(c) => c,
        Err(reply) => return response(reply, true),
    };
    let method = req.method().as_str().to_string();
    let url = req
        .uri()
        .path_and_query()
        .map_or_else(|| req.uri().path().to_string(), |p| p.as_str().to_string());
    let limited = Limited::new(req.into_body(), config.limits.max_body);
    let body = match tokio::time::timeout(config.timeouts.body, limited.collect()).await {
        Err(_) => {
            return response(
                Reply::error(
                    408,
                    format!(
                        "the body did not arrive within {} s",
                        config.timeouts.body.as_secs_f64()
                    ),
                ),
                true,
            );
        }
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => {
            return response(too_large(&config.limits), true);
        }
        Ok(Err(e)) => return response(Reply::bad(format!("cannot read the body: {e}")), true),
        Ok(Ok(b)) => b.to_bytes(),
    };
    conn.working.store(true, Ordering::SeqCst);
    let _working = Working(conn);
    // The router runs on a blocking thread with its own handle on what it needs: if this
    // future is dropped (the client went away), the cancel stops the work there.
    let work = {
        let (cancel, shared) = (cancel.clone(), Arc::clone(shared));
        tokio::task::spawn_blocking(move || {
            route(
                &Request {
                    method: &method,
                    url: &url,
                    content_type: content_type.as_deref(),
                    body: &body,
                },
                &shared.config.limits,
                &shared.gate,
                &cancel,
            )
        })
    };
    let reply = work
        .await
        .unwrap_or_else(|_| Reply::error(500, "internal error while handling the request (a bug)"));
    response(reply, false)
}

/// The HTTP answer of `reply`, with the headers every answer has; `close` asks the client
/// to close the connection (a refused body may not have been read).
fn response(reply: Reply, close: bool) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(Bytes::from(reply.body)));
    *r.status_mut() =
        StatusCode::from_u16(reply.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let h = r.headers_mut();
    h.insert("content-type", HeaderValue::from_static(reply.content_type));
    h.insert("cache-control", HeaderValue::from_static("no-store"));
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    if close || reply.status == 413 {
        h.insert("connection", HeaderValue::from_static("close"));
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pages_class_colours_are_the_svg_renders() {
        for class in crokinole_montecarlo::ShotClass::ALL {
            let rule = format!(
                ".cls-{} {{ fill: {}; }}",
                class.name(),
                crokinole_render::class_colour(class)
            );
            assert!(STYLE_CSS.contains(&rule), "style.css lacks {rule}");
        }
    }

    #[test]
    fn every_script_the_page_loads_is_served() {
        let (limits, gate, cancel) = (Limits::default(), Gate::new(1), Cancel::never());
        for src in INDEX_HTML.split("<script src=\"").skip(1) {
            let path = &src[..src.find('"').unwrap()];
            let req = Request {
                method: "GET",
                url: path,
                content_type: None,
                body: b"",
            };
            let reply = route(&req, &limits, &gate, &cancel);
            assert_eq!(reply.status, 200, "{path}");
            assert!(reply.content_type.starts_with("text/javascript"), "{path}");
        }
    }

    #[test]
    fn only_the_bound_address_and_allowed_names_pass_the_host_check() {
        let bound: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        for ok in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST:8080",
            "[::1]:8080",
        ] {
            assert!(host_allowed(ok, bound, &[]), "{ok}");
        }
        for bad in [
            "evil.example:8080",
            "127.0.0.1:8081",
            "localhost",
            "127.0.0.1",
            "evil.example",
            "",
            "localhost:8080:1",
        ] {
            assert!(!host_allowed(bad, bound, &[]), "{bad}");
        }
        let allowed = vec![
            "board.example".to_string(),
            "other.example:9000".to_string(),
        ];
        assert!(host_allowed("board.example:8080", bound, &allowed));
        assert!(host_allowed("Board.Example", bound, &allowed));
        assert!(host_allowed("other.example:9000", bound, &allowed));
        assert!(!host_allowed("other.example:8080", bound, &allowed));
        assert!(!host_allowed("evil.example:8080", bound, &allowed));
        // Bound to every address: only the loopback names (and allowed ones) pass.
        let any: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        assert!(host_allowed("localhost:8080", any, &[]));
        assert!(!host_allowed("0.0.0.0:8080", any, &[]));
    }

    #[test]
    fn a_gate_waits_for_a_place_within_the_budget() {
        let gate = Gate::new(1);
        let first = gate.enter().expect("a place");
        assert!(gate.enter().is_none());
        let spent = Cancel::new().with_budget(Duration::ZERO);
        assert!(gate.enter_until(&spent).is_none());
        std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(50));
                drop(first);
            });
            assert!(gate.enter_until(&Cancel::new()).is_some());
        });
    }
}
