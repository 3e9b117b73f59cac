//! Play many games and keep something of each (`crokinole play --cmn`): the summary of the
//! games, and per game what the caller makes of its log on the worker that played it (a
//! match record), handed over in game order.
//!
//! The summary is the one `PlayConfig::play_many_until` gives for the same games (the
//! same [`GameStats`] added in game order: tested), so asking for the records changes no
//! byte of it.

use crokinole_core::batch::map_ordered_until;
use crokinole_core::cancel::Cancel;
use crokinole_core::error::InputError;
use crokinole_montecarlo::tally::Stopped;
use crokinole_play::run::{GAMES_CHUNK, GameLog};
use crokinole_play::summary::MAX_GAMES;
use crokinole_play::{GameStats, GamesSummary, PlayConfig, PlayError, SummaryTally};

/// Plays games `0..games` of `config` on the current rayon pool, a chunk at a time; `each`
/// makes what is kept of a game from its log on the worker, and `sink` receives those in
/// game order as each chunk ends (its error stops the run: nothing more is played).
/// Stopped by `cancel` as `play_many_until` is: the summary is then that of the games
/// finished before the first stopped one, marked stopped, and `sink` has had exactly
/// those games.
pub fn play_games_until<T: Send, E>(
    config: &PlayConfig,
    games: u64,
    each: impl Fn(&GameLog) -> T + Sync,
    mut sink: impl FnMut(T) -> Result<(), E>,
    on_game: impl Fn() + Sync,
    cancel: &Cancel,
) -> Result<Result<GamesSummary, E>, PlayError> {
    if !(1..=MAX_GAMES).contains(&games) {
        return Err(PlayError::Input(InputError::new(
            "games",
            format!("must be 1 to {MAX_GAMES:e}, got {games}"),
        )));
    }
    let mut tally = SummaryTally::default();
    let played = |g| {
        let kept = config
            .play_until(g, cancel)
            .map(|log| (GameStats::of(&log), each(&log)));
        on_game();
        kept
    };
    let stop = || cancel.is_cancelled();
    for item in map_ordered_until(0..games, GAMES_CHUNK, played, stop) {
        match item {
            Err(PlayError::Stopped { .. }) => break,
            item => {
                let (stats, kept) = item?;
                tally.add(&stats);
                if let Err(e) = sink(kept) {
                    return Ok(Err(e));
                }
            }
        }
    }
    let mut summary = tally.summary(config);
    if tally.games < games {
        summary.stopped = Some(Stopped { requested: games });
    }
    Ok(Ok(summary))
}
