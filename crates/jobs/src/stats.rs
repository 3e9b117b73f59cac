//! A real game's statistics from match records (`crokinole stats FILES...`,
//! docs/cmn.md): Crokinole Match Notation files read, their rounds counted
//! ([`RoundStatsTally`]), the statistics written. Real records and the ones `play --cmn`
//! and `tournament --cmn` write are counted one way.

use super::of_kind;
use crokinole_core::error::InputError;
use crokinole_io::{CmnMatch, FileKind, Layout, laid_out, parse_cmn, round_stats_json};
use crokinole_play::stats::{RoundStats, RoundStatsTally};

/// Reads one CMN text (a record or a batch); a file that looks like another kind of
/// file is named in the error.
pub fn read(text: &str) -> Result<Vec<CmnMatch>, InputError> {
    parse_cmn(text).map_err(|e| of_kind(e, text, FileKind::Cmn))
}

/// The statistics of every round of `matches`, in the order given.
pub fn stats<'a>(matches: impl IntoIterator<Item = &'a CmnMatch>) -> RoundStats {
    let mut tally = RoundStatsTally::default();
    for m in matches {
        tally.add_match(&m.rounds, [&m.teams[0], &m.teams[1]]);
    }
    tally.stats()
}

/// The statistics' text in `layout`.
pub fn text(stats: &RoundStats, layout: Layout) -> String {
    laid_out(round_stats_json(stats), layout)
}
