//! The check pass of a streamed shot file: [`ShotSource`] (a file that can be read again
//! from its start; [`Text`], one held in memory) and [`check_stream`], which reads it a
//! shot at a time and checks every shot, with the errors and order of
//! [`ShotFile::read`](super::whole::ShotFile::read), before anything runs; `Findings` keeps the
//! first errors. Shared by the two-pass stream ([`super::stream`]) and the held one
//! ([`super::held`]).

use super::whole::ShotFile;
use crokinole_core::board::Board;
use crokinole_core::cancel::Cancel;
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_core::validate::{check_board, check_physics};
use crokinole_io::{
    EachShot, FileKind, StreamStop, StreamedBlocks, read_shot_blocks, read_shot_text,
};
use crokinole_rules::{Ruleset, ShotEntry, check_rules};
use std::io::Read;

/// A shot file read from somewhere it can be read again from the start: the streamed job
/// reads it twice ([`check_stream`], then [`simulate_stream`](super::simulate_stream)), and a third time, up to an
/// error, to name the field of a JSON error.
pub trait ShotSource: Sync {
    /// The file from its first byte.
    fn open(&self) -> std::io::Result<Box<dyn Read + Send + '_>>;

    /// The whole text, if it is held in memory: then it is parsed in place, several times
    /// faster than through [`ShotSource::open`].
    fn text(&self) -> Option<&str> {
        None
    }
}

/// Reads the shot file in `source` a shot at a time ([`read_shot_text`] if it is held,
/// else [`read_shot_blocks`]).
pub(super) fn read_source(
    source: &dyn ShotSource,
    each: &mut EachShot<'_>,
) -> Result<StreamedBlocks, StreamStop> {
    match source.text() {
        Some(text) => read_shot_text(text, each),
        None => read_shot_blocks(&|| source.open(), each),
    }
}

/// A shot file's text held in memory, as a [`ShotSource`].
#[derive(Clone, Copy, Debug)]
pub struct Text<'a>(pub &'a str);

impl ShotSource for Text<'_> {
    fn open(&self) -> std::io::Result<Box<dyn Read + Send + '_>> {
        Ok(Box::new(self.0.as_bytes()))
    }

    fn text(&self) -> Option<&str> {
        Some(self.0)
    }
}

/// Bytes of a file's start that [`FileKind::sniff_start`] looks at to say what a file
/// that is not a shot file is instead.
const SNIFF_BYTES: u64 = 1 << 16;

/// A shot file checked by [`check_stream`]: its board and physics (checked) and how many
/// shots it holds (each checked).
#[derive(Clone, Debug)]
pub struct Checked {
    /// The board (`board`, defaults filled in).
    pub board: Board,
    /// The physics (`physics`, defaults filled in).
    pub physics: Physics,
    /// Shots in the file.
    pub shots: usize,
}

/// An error reading `source`: a failure of the source itself, not of its text.
fn unreadable(e: std::io::Error) -> InputError {
    InputError::new("file", format!("cannot be read: {e}"))
}

/// `e` (an error in a shot file read from `source`) with what the file looks like if it is
/// of another kind, told from its first bytes ([`super::of_kind`] for a file not held).
pub(super) fn of_kind_start(e: InputError, source: &dyn ShotSource) -> InputError {
    let mut start = Vec::new();
    let read = source
        .open()
        .and_then(|r| r.take(SNIFF_BYTES).read_to_end(&mut start));
    match read.ok().and(FileKind::sniff_start(&start)) {
        Some(kind) if kind != FileKind::Shots => InputError {
            problem: format!("{}; this file looks like {}", e.problem, kind.describe()),
            ..e
        },
        _ => e,
    }
}

/// Files up to this size, in bytes (16 MiB), are best held in memory ([`Text`]): parsed
/// once, in place, they cost less than reading them twice in blocks
/// ([`read_shot_blocks`]), and the bound on memory stays a constant. A JSON error in a
/// file up to this size is reported from the whole text, so its message is exactly
/// [`ShotFile::read`]'s; a larger
/// file's error is found by scanning it again up to the error, whose column may then lie
/// one byte further on (the streaming parser counts the byte it peeked at).
pub const HELD_BYTES: u64 = 16 << 20;

/// The error of the parser, `e`, on the shot file in `source`, naming the field and the
/// kind of file it looks like.
pub(super) fn json_error(source: &dyn ShotSource, e: &serde_json::Error) -> InputError {
    let mut start = Vec::new();
    let whole = source
        .open()
        .and_then(|r| r.take(HELD_BYTES + 1).read_to_end(&mut start));
    if let Ok(n) = whole
        && (n as u64) <= HELD_BYTES
        && let Ok(text) = std::str::from_utf8(&start)
        && let Err(whole) = ShotFile::read(text)
    {
        return whole;
    }
    drop(start);
    match source.open() {
        Ok(again) => of_kind_start(crokinole_io::json_path::json_error_in(again, e), source),
        Err(io) => unreadable(io),
    }
}

/// Reads the shot file in `source` once, a shot at a time, and checks it as
/// [`ShotFile::read`] and [`simulate`](super::whole::simulate) do before running anything, with the same errors in
/// the same order: the JSON (the first error in the text), the board, the physics, every
/// shot in order (seat, players, placement, speeds), then, with `rules`, every shot's seat
/// and placement under the rules. Holds one shot at a time. A file whose `board` or
/// `physics` comes after its `shots` is read a second time to check the shots against
/// them.
pub fn check_stream(
    source: &dyn ShotSource,
    rules: Option<Ruleset>,
) -> Result<Checked, InputError> {
    let checked = check_stream_until(source, rules, &Cancel::never())?;
    Ok(checked
        .expect("a check that cannot be cancelled reads the whole file")
        .0)
}

/// [`check_stream`], stopped by `cancel` between two shots (`None`: a file of any size
/// stops within a shot's reading), and whether the file's `board` or `physics` came after
/// its shots (so a reading that ran the shots as they came used the defaults instead).
pub(super) fn check_stream_until(
    source: &dyn ShotSource,
    rules: Option<Ruleset>,
    cancel: &Cancel,
) -> Result<Option<(Checked, bool)>, InputError> {
    let mut found = Findings::default();
    let read = read_source(source, &mut |k, entry, board, physics| {
        found.checked(rules, k, entry, board, physics);
        !cancel.is_cancelled()
    });
    let blocks = match read {
        Ok(blocks) => blocks,
        Err(StreamStop::Json(e)) if e.is_io() => return Err(unreadable(e.into())),
        Err(StreamStop::Json(e)) => return Err(json_error(source, &e)),
        Err(StreamStop::Stopped) => return Ok(None),
    };
    let (board, physics) = (blocks.board, blocks.physics);
    check_board(&board).map_err(|e| of_kind_start(e, source))?;
    check_physics(&physics).map_err(|e| of_kind_start(e, source))?;
    if blocks.blocks_after_shots {
        // The shots were checked against the defaults: again, against the file's blocks.
        found = Findings::default();
        let again = read_source(source, &mut |k, entry, _, _| {
            found.checked(rules, k, entry, &board, &physics);
            !cancel.is_cancelled()
        });
        match again {
            Ok(_) => {}
            Err(StreamStop::Stopped) => return Ok(None),
            Err(StreamStop::Json(_)) => {
                return Err(InputError::new(
                    "file",
                    "changed while it was read: read it again",
                ));
            }
        }
    }
    if let Some(e) = found.shot {
        return Err(of_kind_start(e, source));
    }
    if let Some(e) = found.rules {
        return Err(e);
    }
    let checked = Checked {
        board,
        physics,
        shots: blocks.shots,
    };
    Ok(Some((checked, blocks.blocks_after_shots)))
}

/// The first errors [`check_stream`] found in the shots.
#[derive(Default)]
pub(super) struct Findings {
    /// The first shot that is wrong in itself or on the board.
    pub(super) shot: Option<InputError>,
    /// The first shot the rules refuse.
    rules: Option<InputError>,
    /// The discs of the shot being checked ([`Shot::check`]).
    scratch: Vec<crokinole_core::disc::Disc>,
    /// The board and the physics passed their own checks (done once, at the first shot
    /// read: they are every shot's).
    table_checked: bool,
}

impl Findings {
    /// Checks shot `k` as read (`entry`), on `board` and `physics`, under `rules` if
    /// given: keeps the first error of each kind (the reading goes on: a JSON error further
    /// on comes first). Gives the shot back if it is valid and no shot before it was wrong.
    pub(super) fn checked(
        &mut self,
        rules: Option<Ruleset>,
        k: usize,
        entry: Result<ShotEntry, InputError>,
        board: &Board,
        physics: &Physics,
    ) -> Option<ShotEntry> {
        if self.shot.is_some() {
            return None;
        }
        let (scratch, table_checked) = (&mut self.scratch, &mut self.table_checked);
        let checked = entry.and_then(|e| {
            let checked = if *table_checked {
                e.shot.check_discs(board, physics, scratch)
            } else {
                e.shot.check(board, physics, scratch)
            };
            checked.map_err(|x| x.in_shot(k))?;
            *table_checked = true;
            Ok(e)
        });
        match checked {
            Err(e) => self.shot = Some(e),
            Ok(e) => {
                if let Some(ruleset) = rules
                    && self.rules.is_none()
                    && let Err(x) = check_rules(board, physics, std::slice::from_ref(&e), ruleset)
                {
                    self.rules = Some(x.offset_shot(k));
                }
                return (self.rules.is_none()).then_some(e);
            }
        }
        None
    }

    /// The first error found, shots before rules.
    pub(super) fn first(self) -> Option<InputError> {
        self.shot.or(self.rules)
    }
}
