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
}

/// `crokinole serve`: bind, print the page's address, open it if asked, serve until
/// stopped.
pub fn run(a: Args) -> Result<(), Failure> {
    use crokinole::serve::{ServeConfig, Server};
    let (host, port, open) = (a.host, a.port, a.open);
    let server = Server::bind(ServeConfig {
        host,
        port,
        ..ServeConfig::default()
    })
    .map_err(Failure::Io)?;
    let url = server.url();
    println!("crokinole serve: {url} (Ctrl-C stops)");
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
    server.run();
    Ok(())
}
