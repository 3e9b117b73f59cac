//! `crokinole serve`: a local web server with one page, an interactive board, and a JSON
//! API over the `io` readers and writers (docs/serve.md).
//!
//! The top layer: it may use io, render, model, table and core, and nothing but the
//! binary uses it. The HTTP is `tiny_http` (a small synchronous server: no async runtime
//! to compile on a two-core machine, and a page that asks for one shot at a time needs
//! none); a few worker threads take requests from it, and the simulations of a request
//! run on the rayon pool, as on the command line, so answers do not depend on how many
//! requests arrive at once. The page (HTML, CSS, JavaScript; no build step, nothing
//! fetched from elsewhere) is compiled into the binary from `src/serve/page/`.
//!
//! - [`api`]: the endpoints as plain functions (query and body in, [`Reply`] out) and the
//!   [`Limits`] every request is held to.
//! - [`route`]: method and path to endpoint, the body-size and content-type checks, the
//!   bound on concurrent heavy requests, and a last guard against panics.
//! - [`Server`]: the socket and the worker threads.

pub mod api;

pub use api::{Limits, Query, Reply};

use std::io::Read;
use std::net::SocketAddr;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The page, its style and its script, compiled in.
const INDEX_HTML: &str = include_str!("page/index.html");
const STYLE_CSS: &str = include_str!("page/style.css");
const APP_JS: &str = include_str!("page/app.js");

/// Where to listen and how much to allow.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Host or address to bind: `127.0.0.1` by default (this machine only).
    pub host: String,
    /// Port; 0 picks a free one.
    pub port: u16,
    /// Threads taking requests.
    pub workers: usize,
    /// Heavy requests (Monte Carlo studies and planner searches, which may take seconds)
    /// run at once at most; more are answered 503 at once. Shots are bounded by
    /// [`Limits`] to a fraction of a second and always run.
    pub heavy: usize,
    /// The bounds on one request.
    pub limits: Limits,
}

impl Default for ServeConfig {
    fn default() -> ServeConfig {
        ServeConfig {
            host: "127.0.0.1".into(),
            port: 8080,
            workers: 4,
            heavy: 2,
            limits: Limits::default(),
        }
    }
}

/// Counts heavy requests in flight; a [`Slot`] holds one and gives it back when dropped.
#[derive(Debug, Default)]
pub struct Gate {
    busy: AtomicUsize,
    max: usize,
}

/// One heavy request's place at the [`Gate`].
pub struct Slot<'a>(&'a Gate);

impl Gate {
    /// A gate letting `max` heavy requests through at once.
    pub fn new(max: usize) -> Gate {
        Gate {
            busy: AtomicUsize::new(0),
            max: max.max(1),
        }
    }

    /// A place, if fewer than `max` are taken.
    pub fn enter(&self) -> Option<Slot<'_>> {
        let prev = self.busy.fetch_add(1, Ordering::SeqCst);
        let slot = Slot(self);
        (prev < self.max).then_some(slot)
    }
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        self.0.busy.fetch_sub(1, Ordering::SeqCst);
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
/// most `limits.max_body` bytes), 404 for an unknown path, 405 for a wrong method, 503
/// when `gate` is full. A panic inside an endpoint (a bug: input is checked first) is
/// caught and answered 500.
pub fn route(req: &Request, limits: &Limits, gate: &Gate) -> Reply {
    let (path, query) = req.url.split_once('?').unwrap_or((req.url, ""));
    let query = Query::parse(query);
    let page = |content_type, text: &'static str| Reply {
        status: 200,
        content_type,
        body: text.as_bytes().to_vec(),
    };
    type Endpoint = fn(&Query, &[u8], &Limits) -> Reply;
    let post: Option<(Endpoint, bool)> = match path {
        "/api/simulate" => Some((api::simulate, false)),
        "/api/shot" => Some((api::shot, false)),
        "/api/shotfile" => Some((api::shotfile, false)),
        "/api/montecarlo" => Some((api::montecarlo, true)),
        "/api/suggest" => Some((api::suggest, true)),
        "/api/replay" => Some((api::replay, false)),
        _ => None,
    };
    match (req.method, path, post) {
        ("GET" | "HEAD", "/" | "/index.html", _) => page("text/html; charset=utf-8", INDEX_HTML),
        ("GET" | "HEAD", "/style.css", _) => page("text/css; charset=utf-8", STYLE_CSS),
        ("GET" | "HEAD", "/app.js", _) => page("text/javascript; charset=utf-8", APP_JS),
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
                match gate.enter() {
                    Some(slot) => Some(slot),
                    None => {
                        return Reply::error(
                            503,
                            "the server is busy with other simulations; try again in a moment",
                        );
                    }
                }
            } else {
                None
            };
            catch_unwind(AssertUnwindSafe(|| endpoint(&query, req.body, limits))).unwrap_or_else(
                |_| Reply::error(500, "internal error while handling the request (a bug)"),
            )
        }
        (_, "/" | "/index.html" | "/style.css" | "/app.js" | "/api/params" | "/api/skills", _) => {
            Reply::error(405, format!("{path} takes GET"))
        }
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

/// A bound socket and its configuration; [`Server::run`] serves until the process ends.
pub struct Server {
    http: Arc<tiny_http::Server>,
    addr: SocketAddr,
    config: ServeConfig,
}

impl Server {
    /// Binds `config.host:config.port` (port 0: a free one).
    pub fn bind(config: ServeConfig) -> Result<Server, String> {
        let at = format!("{}:{}", config.host, config.port);
        let http =
            tiny_http::Server::http(&at).map_err(|e| format!("cannot listen on {at}: {e}"))?;
        let addr = http
            .server_addr()
            .to_ip()
            .ok_or_else(|| format!("cannot listen on {at}: not an IP address"))?;
        Ok(Server {
            http: Arc::new(http),
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

    /// Serves requests on `config.workers` threads; returns only if they all stop.
    pub fn run(self) {
        let gate = Arc::new(Gate::new(self.config.heavy));
        let limits = Arc::new(self.config.limits.clone());
        let workers: Vec<_> = (0..self.config.workers.max(1))
            .map(|_| {
                let (http, gate, limits) = (self.http.clone(), gate.clone(), limits.clone());
                std::thread::spawn(move || {
                    while let Ok(request) = http.recv() {
                        answer(request, &limits, &gate);
                    }
                })
            })
            .collect();
        for w in workers {
            let _ = w.join();
        }
    }
}

/// Reads one request's body (refusing one over the limit before reading it), routes it
/// and sends the answer. A client that went away is not an error of the server.
fn answer(mut request: tiny_http::Request, limits: &Limits, gate: &Gate) {
    let content_type = request
        .headers()
        .iter()
        .find(|h| h.field.equiv("Content-Type"))
        .map(|h| h.value.as_str().to_string());
    let declared = request.body_length();
    let mut body = Vec::new();
    let reply = if declared.is_some_and(|n| n > limits.max_body) {
        too_large(limits)
    } else {
        let read = request
            .as_reader()
            .take(limits.max_body as u64 + 1)
            .read_to_end(&mut body);
        match read {
            Err(e) => Reply::bad(format!("cannot read the body: {e}")),
            Ok(_) if body.len() > limits.max_body => too_large(limits),
            Ok(_) => {
                let method = request.method().as_str().to_string();
                let url = request.url().to_string();
                route(
                    &Request {
                        method: &method,
                        url: &url,
                        content_type: content_type.as_deref(),
                        body: &body,
                    },
                    limits,
                    gate,
                )
            }
        }
    };
    let mut response = tiny_http::Response::from_data(reply.body).with_status_code(reply.status);
    for (k, v) in [
        ("Content-Type", reply.content_type),
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
    ] {
        if let Ok(h) = tiny_http::Header::from_bytes(k.as_bytes(), v.as_bytes()) {
            response.add_header(h);
        }
    }
    if reply.status == 413 {
        // The unread body would be taken for the next request: close the connection.
        if let Ok(h) = tiny_http::Header::from_bytes(&b"Connection"[..], &b"close"[..]) {
            response.add_header(h);
        }
    }
    let _ = request.respond(response);
}
