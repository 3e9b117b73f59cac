//! `crokinole serve`: the interactive board in the browser (docs/serve.md): bind, print the
//! page's address, open it if asked, serve until stopped.

use super::failure::Failure;
use std::io::Write;

/// The flags of `crokinole serve`.
#[derive(clap::Args)]
pub struct Args {
    /// Port to listen on (0: any free port).
    #[arg(long, value_name = "P", default_value_t = 8080)]
    port: u16,
    /// Address to bind: 127.0.0.1 serves this machine only.
    #[arg(long, value_name = "H", default_value = "127.0.0.1")]
    host: String,
    /// Open the page in the default browser (`xdg-open`, `open` or `start`).
    #[arg(long)]
    open: bool,
    /// Also answer requests whose `Host` is NAME (or NAME:PORT), for deliberate exposure
    /// under another name; repeatable. Without it only the bound address, localhost and
    /// the loopback addresses are answered (421 otherwise: DNS rebinding).
    #[arg(long = "allow-host", value_name = "NAME")]
    allow_host: Vec<String>,
    /// Time budget of one request's work, seconds: the work is stopped then and the
    /// request answered 503.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0,
          value_parser = budget_seconds)]
    budget: f64,
    /// Connections open at once at most: beyond it the oldest idle one is closed.
    #[arg(long, value_name = "N", default_value_t = 256,
          value_parser = clap::value_parser!(u32).range(1..=65_536))]
    max_connections: u32,
}

/// A `--budget` of 0.01 to 86,400 seconds.
fn budget_seconds(s: &str) -> Result<f64, String> {
    let t: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("expected seconds, got `{s}`"))?;
    if (0.01..=86_400.0).contains(&t) {
        Ok(t)
    } else {
        Err(format!("must be 0.01 to 86400 seconds, got {s}"))
    }
}

/// `crokinole serve`: bind, print the page's address, open it if asked, serve until
/// stopped.
pub fn run(a: Args) -> Result<(), Failure> {
    use crokinole::serve::{ServeConfig, Server};
    let (host, port, open) = (a.host, a.port, a.open);
    let server = Server::bind(ServeConfig {
        host,
        port,
        allow_hosts: a.allow_host,
        budget: std::time::Duration::from_secs_f64(a.budget),
        max_connections: a.max_connections as usize,
        ..ServeConfig::default()
    })
    .map_err(Failure::Io)?;
    let url = server.url();
    super::output::write_output(None, |w| {
        writeln!(w, "crokinole serve: {url} (Ctrl-C stops)")
    })?;
    let _ = std::io::stdout().flush();
    if open {
        let opener = if cfg!(target_os = "macos") {
            "open"
        } else if cfg!(windows) {
            "explorer"
        } else {
            "xdg-open"
        };
        if let Err(e) = std::process::Command::new(opener).arg(&url).spawn() {
            eprintln!("note: cannot open a browser ({opener}: {e}); open {url} yourself");
        }
    }
    server.run().map_err(Failure::Io)
}
