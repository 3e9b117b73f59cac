//! `crokinole player builtin:NAME`: a built-in strategy as a protocol player, on standard
//! input and output (for `crokinole match --player '...'` or any other referee) or joining
//! a referee over TCP with `--connect HOST:PORT --token T`.

use super::failure::Failure;
use crokinole::InputError;
use crokinole::io::match_protocol::MAX_LINE;
use crokinole::montecarlo::Noise;
use crokinole::play::parse_noise;
use crokinole::referee::{BuiltinPlayer, PlayerSpec, Reply};
use serde_json::json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;

/// The flags of `crokinole player`.
#[derive(clap::Args)]
pub struct Args {
    /// The strategy: `builtin:NAME[:KEY=VALUE...]`, any strategy `crokinole play` takes.
    #[arg(value_name = "builtin:NAME")]
    strategy: String,
    /// The noise model of the Monte Carlo strategy and the planner (a skill level,
    /// `none` or `offset=..,aim=..,speed=..,spin=..`).
    #[arg(long, value_name = "SPEC", default_value = "competitive")]
    noise: String,
    /// Seed of the strategy's own random numbers.
    #[arg(long, value_name = "N", default_value_t = 0)]
    seed: u64,
    /// Join a referee listening on HOST:PORT instead of speaking on stdio.
    #[arg(long, value_name = "HOST:PORT", requires = "token")]
    connect: Option<String>,
    /// The seat's join token (with --connect).
    #[arg(long, value_name = "TOKEN")]
    token: Option<String>,
}

/// `crokinole player`.
pub fn run(args: Args) -> Result<(), Failure> {
    let noise: Noise = parse_noise(&args.noise).map_err(Failure::Input)?;
    let strategy = match PlayerSpec::parse(&args.strategy, noise) {
        Ok(PlayerSpec::Builtin { strategy, .. }) => strategy,
        Ok(_) => {
            return Err(Failure::Input(InputError::new(
                "strategy",
                format!("`{}`: expected builtin:NAME", args.strategy),
            )));
        }
        Err(e) => return Err(Failure::Input(InputError::new("strategy", e))),
    };
    let player = BuiltinPlayer::new(strategy, args.seed);
    match &args.connect {
        Some(addr) => {
            let mut s = TcpStream::connect(addr)
                .map_err(|e| Failure::Io(format!("cannot connect to {addr}: {e}")))?;
            let join = json!({"type": "join", "token": args.token.clone().unwrap_or_default()});
            writeln!(s, "{join}").map_err(|e| Failure::Io(e.to_string()))?;
            let r = s.try_clone().map_err(|e| Failure::Io(e.to_string()))?;
            serve(player, r, s)
        }
        None => serve(player, std::io::stdin().lock(), std::io::stdout().lock()),
    }
}

/// Answers each line of `input` on `output` until the game ends or the input does.
fn serve(
    mut player: BuiltinPlayer,
    input: impl Read,
    mut output: impl Write,
) -> Result<(), Failure> {
    let mut reader = BufReader::new(input);
    loop {
        let mut buf = Vec::new();
        let n = reader
            .by_ref()
            .take(MAX_LINE as u64 + 2)
            .read_until(b'\n', &mut buf)
            .map_err(|e| Failure::Io(e.to_string()))?;
        if n == 0 {
            return Ok(());
        }
        if buf.len() > MAX_LINE + 1 {
            return Err(Failure::Io("a line from the referee is over 1 MiB".into()));
        }
        let line = String::from_utf8_lossy(&buf);
        match player.reply(line.trim_end()) {
            Ok(Reply::Send(text)) => output
                .write_all(text.as_bytes())
                .and_then(|_| output.flush())
                .map_err(|e| Failure::Io(e.to_string()))?,
            Ok(Reply::Nothing) => {}
            Ok(Reply::Done) => return Ok(()),
            Err(e) => eprintln!("player: ignoring a line: {e}"),
        }
    }
}
