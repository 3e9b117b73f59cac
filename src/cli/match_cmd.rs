//! `crokinole match`: referee one game between players that are programs, built-in
//! strategies or TCP connections (docs/match.md), write its log and print the result;
//! `crokinole match replay LOG` checks a log bit for bit.

use super::args::ruleset_parser;
use super::failure::Failure;
use super::output::write_output;
use super::signals::StopSignals;
use crokinole::io::match_protocol::Clock;
use crokinole::io::{CmnEvent, CmnMatch, cmn_batch_json};
use crokinole::montecarlo::Noise;
use crokinole::montecarlo::noise::mix;
use crokinole::play::parse_noise;
use crokinole::referee::config::{
    DEFAULT_MAX_ROUNDS, DEFAULT_PER_SHOT_S, DEFAULT_TOTAL_S, READY_TIMEOUT_S,
};
use crokinole::referee::tournament::cmn_match;
use crokinole::referee::{
    End, MatchConfig, MatchError, MatchOutcome, PlayerSpec, SeatConfig, accept_players,
    join_tokens, play_match, replay_log,
};
use crokinole::rules::{Ruleset, seats_in_play, team_of_seat};
use crokinole::{Board, InputError, Physics};
use std::fs::File;
use std::io::BufWriter;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The flags of `crokinole match`, or its `replay` subcommand.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    replay: Option<Sub>,
    #[command(flatten)]
    game: GameArgs,
}

/// `crokinole match replay LOG`.
#[derive(clap::Subcommand)]
enum Sub {
    /// Check a match log: the seed against its commitment, every executed flick against
    /// the seed, every outcome, verdict and score against the engine. Exit 1 naming the
    /// first line that disagrees.
    Replay {
        /// The log (JSON Lines) written by `crokinole match`.
        log: PathBuf,
    },
}

/// The flags of a match.
#[derive(clap::Args)]
struct GameArgs {
    /// A player, once per seat in seat order: a command (`'python3 bot.py'`, run with
    /// `sh -c`), `builtin:NAME` (any strategy `crokinole play` takes), or `tcp` (a player
    /// joining `--listen` with a token printed here), `tcp:TOKEN` (with that token).
    #[arg(long = "player", value_name = "CMD|builtin:NAME|tcp[:TOKEN]")]
    player: Vec<String>,
    /// Players: 2 or 4 (default: the number of --player; with --listen and no --player,
    /// 2 TCP seats).
    #[arg(long, value_name = "N")]
    players: Option<u8>,
    /// Rule set.
    #[arg(long, value_name = "RULESET", default_value = "traditional",
              value_parser = ruleset_parser())]
    ruleset: Ruleset,
    /// Each seat's execution error: a skill level (`world`, `elite`, `competitive`,
    /// `club`, `casual`), `none`, or `offset=..,aim=..,speed=..,spin=..`. Once for every
    /// seat, or once per seat in seat order.
    #[arg(long, value_name = "SPEC", default_value = "competitive")]
    noise: Vec<String>,
    /// Each seat's total thinking time for the game, seconds.
    #[arg(long, value_name = "S", default_value_t = DEFAULT_TOTAL_S)]
    clock: f64,
    /// Thinking time of one shot, seconds: over it the shot is forfeited.
    #[arg(long, value_name = "S", default_value_t = DEFAULT_PER_SHOT_S)]
    shot_clock: f64,
    /// Time a player has to answer hello, seconds (outside the clock).
    #[arg(long, value_name = "S", default_value_t = READY_TIMEOUT_S)]
    ready_timeout: f64,
    /// The match seed (default: drawn, and logged).
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// The log (default: `match-SEED.jsonl` here).
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Replace the log if the file exists (without it, an existing log is refused: a
    /// match's log is its record).
    #[arg(long)]
    overwrite_log: bool,
    /// Also write the game as a match record in Crokinole Match Notation to PATH, the
    /// players named by their `ready` names (docs/cmn.md).
    #[arg(long, value_name = "PATH")]
    cmn: Option<PathBuf>,
    /// A game not over after this many rounds ends there.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_ROUNDS,
              value_parser = clap::value_parser!(u32).range(1..))]
    max_rounds: u32,
    /// Wait for TCP players on HOST:PORT (PORT or :PORT alone: on 127.0.0.1).
    #[arg(long, value_name = "HOST:PORT")]
    listen: Option<String>,
    /// How long to wait for every TCP player to join, seconds.
    #[arg(long, value_name = "S", default_value_t = 300.0)]
    join_timeout: f64,
}

/// `crokinole match` or `crokinole match replay`.
pub fn run(args: Args) -> Result<(), Failure> {
    match args.replay {
        Some(Sub::Replay { log }) => replay(&log),
        None => play(args.game),
    }
}

/// A seed nobody chose: the clock and the process id, mixed.
pub fn drawn_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    mix(nanos, u64::from(std::process::id()))
}

/// Reads `--noise` values: one for every seat or one per seat.
pub fn seat_noises(specs: &[String], seats: usize) -> Result<Vec<Noise>, Failure> {
    let noises: Vec<Noise> = specs
        .iter()
        .map(|s| parse_noise(s))
        .collect::<Result<_, InputError>>()
        .map_err(Failure::Input)?;
    match noises.len() {
        1 => Ok(vec![noises[0]; seats]),
        n if n == seats => Ok(noises),
        n => Err(Failure::Input(InputError::new(
            "noise",
            format!("give it once for every seat or once per seat ({seats}), got {n}"),
        ))),
    }
}

fn play(args: GameArgs) -> Result<(), Failure> {
    let mut specs = args.player.clone();
    if specs.is_empty() && args.listen.is_some() {
        specs = vec!["tcp".into(); usize::from(args.players.unwrap_or(2))];
    }
    let players = args.players.unwrap_or(specs.len() as u8);
    if players != 2 && players != 4 {
        return Err(Failure::Input(InputError::new(
            "players",
            format!("must be 2 or 4, got {players}"),
        )));
    }
    let seat_count = seats_in_play(players).len();
    if specs.len() != seat_count {
        return Err(Failure::Input(InputError::new(
            "player",
            format!(
                "{players} players need {seat_count} --player, got {}",
                specs.len()
            ),
        )));
    }
    let noises = seat_noises(&args.noise, seat_count)?;
    let mut seats = Vec::new();
    for (k, (spec, noise)) in specs.iter().zip(&noises).enumerate() {
        let player = match spec.strip_prefix("tcp") {
            Some("") => PlayerSpec::Remote {
                token: String::new(),
            },
            Some(t) if t.starts_with(':') => PlayerSpec::Remote {
                token: t[1..].to_string(),
            },
            _ => PlayerSpec::parse(spec, *noise)
                .map_err(|e| Failure::Input(InputError::new(format!("player[{k}]"), e)))?,
        };
        seats.push(SeatConfig {
            player,
            noise: *noise,
        });
    }
    let remote = seats
        .iter()
        .any(|s| matches!(s.player, PlayerSpec::Remote { .. }));
    if remote && args.listen.is_none() {
        return Err(Failure::Input(InputError::new(
            "player",
            "a tcp player needs --listen HOST:PORT",
        )));
    }
    let seed = args.seed.unwrap_or_else(drawn_seed);
    let mut config = MatchConfig {
        board: Board::tournament(),
        physics: Physics::default(),
        players,
        ruleset: args.ruleset,
        seats,
        clock: Clock {
            total_s: args.clock,
            per_shot_s: args.shot_clock,
        },
        seed,
        max_rounds: args.max_rounds,
        game_id: format!("match-{seed}"),
        ready_timeout_s: args.ready_timeout,
    };
    join_tokens(&mut config, mix(drawn_seed(), seed));
    config.check().map_err(Failure::Input)?;
    let log_path = args
        .log
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("match-{seed}.jsonl")));
    if !args.overwrite_log && log_path.exists() {
        return Err(Failure::Input(InputError::new(
            "log",
            format!(
                "`{}` exists: a match's log is its record, so it is not replaced without \
                 --overwrite-log",
                log_path.display()
            ),
        )));
    }
    let cmn = args.cmn.clone();
    if cmn.as_deref().is_some_and(|c| c == log_path) {
        return Err(Failure::Input(InputError::new(
            "cmn",
            "is the same path as the log: the record would overwrite it",
        )));
    }
    let signals = StopSignals::watch()?;
    let cancel = signals.cancel().clone();
    let mut conns = Vec::new();
    if let Some(listen) = &args.listen {
        // `PORT` and `:PORT` listen on 127.0.0.1.
        let addr = match listen.strip_prefix(':') {
            Some(port) => format!("127.0.0.1:{port}"),
            None if !listen.contains(':') => format!("127.0.0.1:{listen}"),
            None => listen.clone(),
        };
        let listener = TcpListener::bind(&addr)
            .map_err(|e| Failure::Io(format!("cannot listen on {addr}: {e}")))?;
        let local = listener
            .local_addr()
            .map_err(|e| Failure::Io(e.to_string()))?;
        write_output(None, |w| writeln!(w, "listening on {local}"))?;
        for (&seat, s) in config.seat_numbers().iter().zip(&config.seats) {
            if let PlayerSpec::Remote { token } = &s.player {
                write_output(None, |w| writeln!(w, "seat {seat} token {token}"))?;
            }
        }
        use std::io::Write as _;
        let _ = std::io::stdout().flush();
        let timeout = Duration::from_secs_f64(args.join_timeout.clamp(0.0, 86_400.0));
        conns = accept_players(&config, &listener, timeout, &cancel).map_err(|e| match e {
            MatchError::Stopped => signals.stopped("waiting for players: no game played".into()),
            e => Failure::Io(e.to_string()),
        })?;
    }
    let file = File::create(&log_path)
        .map_err(|e| Failure::Io(format!("cannot create {}: {e}", log_path.display())))?;
    let result = play_match(
        &config,
        conns,
        Box::new(BufWriter::new(file)),
        Some(&log_path),
        Box::new(|_| {}),
        &cancel,
    );
    match result {
        Ok(outcome) => {
            if let Some(path) = &cmn {
                let mut teams: [Vec<String>; 2] = [vec![], vec![]];
                for (seat, name) in &outcome.names {
                    let team = team_of_seat(*seat, config.players).unwrap_or(0);
                    teams[usize::from(team.min(1))].push(name.clone());
                }
                let id = CmnMatch::id_of(config.seed, 0);
                let record = cmn_match(&outcome, config.players, config.ruleset, teams, id);
                let event = CmnEvent {
                    name: format!("crokinole match, seed {}", config.seed),
                    kind: "simulation".into(),
                };
                let text = cmn_batch_json(&[record], &event);
                write_output(Some(path), |w| w.write_all(text.as_bytes()))?;
            }
            let text = result_text(&config, &outcome, &log_path);
            write_output(None, |w| w.write_all(text.as_bytes()))
        }
        Err(MatchError::Stopped) => Err(signals.stopped(format!(
            "the match was stopped; its log so far: {}",
            log_path.display()
        ))),
        Err(MatchError::Input(e)) => Err(Failure::Input(e)),
        Err(e) => Err(Failure::Io(e.to_string())),
    }
}

/// The readable result of a match.
pub fn result_text(config: &MatchConfig, outcome: &MatchOutcome, log: &Path) -> String {
    let mut out = format!(
        "match {}: {} rules, {} players, seed {}\n",
        config.game_id,
        config.ruleset.name(),
        config.players,
        outcome.seed
    );
    for (&seat, s) in config.seat_numbers().iter().zip(&config.seats) {
        let name = outcome
            .names
            .iter()
            .find(|(n, _)| *n == seat)
            .map_or("(no name)", |(_, name)| name.as_str());
        out += &format!(
            "  seat {seat} (team {}): {name} [{}]\n",
            team_of_seat(seat, config.players).unwrap_or(0),
            s.player.describe()
        );
    }
    let [a, b] = outcome.scores;
    let how = match &outcome.end {
        End::Forfeit { seat, why } => format!("by forfeit: seat {seat} {why}"),
        End::Score => "on score".to_string(),
        End::Rounds => "after its rounds".to_string(),
    };
    out += &match outcome.winner {
        Some(t) => format!(
            "team {t} wins {how}, {a}-{b}, after {} shots\n",
            outcome.shots
        ),
        None => format!("no winner {how}, {a}-{b}, after {} shots\n", outcome.shots),
    };
    out += &format!("log: {}\n", log.display());
    out
}

fn replay(log: &Path) -> Result<(), Failure> {
    let meta = std::fs::metadata(log)
        .map_err(|e| Failure::Io(format!("cannot read {}: {e}", log.display())))?;
    if meta.len() > crokinole::referee::replay::MAX_LOG_BYTES as u64 {
        return Err(Failure::Io(format!("{}: larger than 1 GiB", log.display())));
    }
    // Read as every input is: bounded whatever the log is (a pipe, a device), refused at
    // its first bytes if they are not text.
    let text = super::output::read_input(log)?;
    match replay_log(&text) {
        Ok(r) => {
            let [a, b] = r.scores;
            let end = match &r.end {
                Some((reason, Some(t))) => format!("team {t} won ({reason})"),
                Some((reason, None)) => format!("no winner ({reason})"),
                None => "stopped before its end".into(),
            };
            write_output(None, |w| {
                writeln!(
                    w,
                    "ok: {}: {} lines, {} shots replayed bit for bit, {a}-{b}, {end}; seed {} matches its commitment",
                    log.display(),
                    r.lines,
                    r.shots,
                    r.seed
                )
            })?;
            Ok(())
        }
        Err(e) => Err(Failure::Io(format!("{}: {e}", log.display()))),
    }
}
