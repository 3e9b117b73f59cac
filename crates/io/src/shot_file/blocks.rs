//! A shot file read from a reader a block at a time, each shot parsed from its own bytes
//! ([`read_shot_blocks`]): the path of a file too large to hold (`crokinole simulate` on a
//! file over 16 MiB reads it twice this way).
//!
//! Why: `serde_json`'s reader takes every byte through a call of its own, about twice the
//! cost per byte of parsing a text in memory (113 ms for 21.9 MB of crowded shots against
//! about 55 ms held). Here the file is read in blocks of 1 MiB, the structure around the
//! values (the object's keys, the array's commas) is followed by hand, and each value (a
//! block, a shot) is parsed from the bytes in the buffer by the parser of a text in memory,
//! which says where it ends: the same deserializer as a held text's, so the same bits.
//!
//! The scan expects the shape of a good file: an object of the four keys written plainly,
//! each once, `shots` an array. Anything else (another key, a duplicate, an escape in a
//! key, a value that does not parse, text after the end, an error reading) ends it, and
//! the file is read again from its start through [`read_shot_stream`], which finds the
//! error and reports it where and as it always did; the shots already handed over are not
//! handed over again. A good file is read once.

use super::{
    BoardJson, EachShot, FileKey, PhysicsJson, ShotJson, StreamStop, StreamedBlocks,
    read_shot_stream,
};
use crate::strict::Obj;
use crokinole_core::board::Board;
use crokinole_core::params::Physics;
use std::io::Read;

/// Bytes read at a time.
const BLOCK: usize = 1 << 20;

/// Bytes kept read past the value about to be parsed (256 KiB): more than a shot of
/// [`MAX_DISCS`](crokinole_core::limits::MAX_DISCS) discs written as usual (about 100 bytes a
/// disc), so a shot is whole in the buffer when it is parsed; a longer one is parsed again
/// with more bytes.
const AHEAD: usize = 1 << 18;

/// The longest value given more bytes after it failed to parse (4 MiB): a longer one is
/// read through `serde_json`'s reader, which also finds where a text that does not parse
/// is wrong.
const WINDOW: usize = 4 << 20;

/// Reads the shot file that `open` opens as [`read_shot_stream`] does, with the same
/// shots, blocks and errors, 1.6 times as fast (`benches/input.rs`): each shot parsed
/// from the bytes read, as a held text's is. `open` is called once for a good file, again (reading
/// through [`read_shot_stream`] from the start) if the scan meets anything a good file
/// does not have, and its error is the reading's.
pub fn read_shot_blocks<R: Read>(
    open: &dyn Fn() -> std::io::Result<R>,
    each: &mut EachShot<'_>,
) -> Result<StreamedBlocks, StreamStop> {
    let opened = |r: std::io::Result<R>| r.map_err(|e| StreamStop::Json(serde_json::Error::io(e)));
    let mut scan = Scan {
        reader: opened(open())?,
        buf: Vec::new(),
        end: 0,
        at: 0,
        done: false,
    };
    let mut handed = 0;
    match read_file(&mut scan, each, &mut handed) {
        Ok(blocks) => Ok(blocks),
        Err(Halt::Stopped) => Err(StreamStop::Stopped),
        Err(Halt::Unexpected) => {
            drop(scan);
            let mut rest = |k: usize, entry, board: &Board, physics: &Physics| {
                k < handed || each(k, entry, board, physics)
            };
            read_shot_stream(opened(open())?, &mut rest)
        }
    }
}

/// Why the scan ended early.
enum Halt {
    /// The caller's `each` asked to stop.
    Stopped,
    /// Something a good file does not have: read again through `serde_json`'s reader.
    Unexpected,
}

/// The file's bytes from `at`: `buf[..end]` holds what was read and not yet passed.
struct Scan<R> {
    reader: R,
    /// Room for the bytes read: a block or more, zeroed once when it grows.
    buf: Vec<u8>,
    /// The end of the bytes read, in `buf`.
    end: usize,
    /// The next byte to look at, in `buf`.
    at: usize,
    /// The reader is at its end.
    done: bool,
}

impl<R: Read> Scan<R> {
    /// Reads more of the file after `end` (a block at most): `false` at its end. Bytes
    /// before `at` are dropped first when they are most of the buffer, so indices into
    /// `buf` held across a call must be relative to `at`.
    fn more(&mut self) -> Result<bool, Halt> {
        if self.done {
            return Ok(false);
        }
        if self.at > self.end / 2 {
            self.buf.copy_within(self.at..self.end, 0);
            self.end -= self.at;
            self.at = 0;
        }
        if self.buf.len() - self.end < BLOCK {
            self.buf.resize(self.end + BLOCK, 0);
        }
        let room = &mut self.buf[self.end..self.end + BLOCK];
        let n = loop {
            match self.reader.read(room) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => return Err(Halt::Unexpected),
            }
        };
        self.end += n;
        self.done = n == 0;
        Ok(n > 0)
    }

    /// The bytes read and not yet passed.
    fn rest(&self) -> &[u8] {
        &self.buf[self.at..self.end]
    }

    /// The next byte that is not JSON whitespace, left at `at`; `None` at the end.
    fn next_token(&mut self) -> Result<Option<u8>, Halt> {
        loop {
            while let Some(&b) = self.rest().first() {
                if !matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                    return Ok(Some(b));
                }
                self.at += 1;
            }
            if !self.more()? {
                return Ok(None);
            }
        }
    }

    /// Passes the byte `b` if it is next (after whitespace), else `Unexpected`.
    fn expect(&mut self, b: u8) -> Result<(), Halt> {
        if self.next_token()? != Some(b) {
            return Err(Halt::Unexpected);
        }
        self.at += 1;
        Ok(())
    }

    /// The value at `at` (after whitespace) parsed as a `T` by `serde_json`'s parser of a
    /// text in memory, which also says where the value ends, and passed. At least
    /// [`AHEAD`] bytes are read past `at` first, so a shot (a few kB) is whole in the buffer;
    /// a value that still does not parse is given twice the bytes, until [`WINDOW`] of them
    /// (a value cut by the end of the buffer fails to parse too), before the file is found
    /// unexpected.
    fn value<T: serde::de::DeserializeOwned>(&mut self) -> Result<T, Halt> {
        loop {
            let ahead = self.end - self.at;
            if !self.done && ahead < AHEAD {
                self.more()?;
                continue;
            }
            let mut values = serde_json::Deserializer::from_slice(self.rest()).into_iter::<T>();
            match values.next() {
                Some(Ok(value)) => {
                    self.at += values.byte_offset();
                    return Ok(value);
                }
                // Twice the bytes before it is parsed again: a long value costs a few
                // parses, not one a block.
                _ if !self.done && ahead < WINDOW => {
                    while self.end - self.at < 2 * ahead && self.more()? {}
                }
                _ => return Err(Halt::Unexpected),
            }
        }
    }

    /// The key at `at`, if it is one of the file's written plainly (no escapes), and the
    /// `:` after it.
    fn key(&mut self) -> Result<FileKey, Halt> {
        self.expect(b'"')?;
        let mut i = 0;
        loop {
            match self.rest().get(i).copied() {
                Some(b'"') => break,
                Some(b'\\') => return Err(Halt::Unexpected),
                Some(_) => i += 1,
                None if self.more()? => {}
                None => return Err(Halt::Unexpected),
            }
        }
        let key = match &self.rest()[..i] {
            b"description" => FileKey::Description,
            b"board" => FileKey::Board,
            b"physics" => FileKey::Physics,
            b"shots" => FileKey::Shots,
            _ => return Err(Halt::Unexpected),
        };
        self.at += i + 1;
        self.expect(b':')?;
        Ok(key)
    }
}

/// The file as [`super::FileSeed`] reads it, on the scan: `handed` counts the shots given
/// to `each`.
fn read_file<R: Read>(
    scan: &mut Scan<R>,
    each: &mut EachShot<'_>,
    handed: &mut usize,
) -> Result<StreamedBlocks, Halt> {
    let (mut board, mut physics) = (None::<BoardJson>, None::<PhysicsJson>);
    let (mut description, mut shots) = (false, None::<usize>);
    let mut blocks_after_shots = false;
    scan.expect(b'{')?;
    loop {
        match scan.key()? {
            FileKey::Description if !description => {
                scan.value::<String>()?;
                description = true;
            }
            FileKey::Board if board.is_none() => {
                board = Some(scan.value::<Obj<BoardJson>>()?.0);
                blocks_after_shots |= shots.is_some();
            }
            FileKey::Physics if physics.is_none() => {
                physics = Some(scan.value::<Obj<PhysicsJson>>()?.0);
                blocks_after_shots |= shots.is_some();
            }
            FileKey::Shots if shots.is_none() => {
                let b = board.clone().unwrap_or_default().apply(Board::tournament());
                let p = physics
                    .clone()
                    .unwrap_or_default()
                    .apply(Physics::default());
                shots = Some(read_shots(scan, each, handed, &b, &p)?);
            }
            // A duplicate: the reader names it.
            _ => return Err(Halt::Unexpected),
        }
        match scan.next_token()? {
            Some(b',') => scan.at += 1,
            Some(b'}') => break,
            _ => return Err(Halt::Unexpected),
        }
    }
    scan.at += 1;
    if scan.next_token()?.is_some() {
        return Err(Halt::Unexpected);
    }
    Ok(StreamedBlocks {
        board: board.unwrap_or_default().apply(Board::tournament()),
        physics: physics.unwrap_or_default().apply(Physics::default()),
        shots: shots.ok_or(Halt::Unexpected)?,
        blocks_after_shots,
    })
}

/// The `shots` array at `at`, each shot handed to `each` as [`super::ShotsSeed`] does.
fn read_shots<R: Read>(
    scan: &mut Scan<R>,
    each: &mut EachShot<'_>,
    handed: &mut usize,
    board: &Board,
    physics: &Physics,
) -> Result<usize, Halt> {
    scan.expect(b'[')?;
    if scan.next_token()? == Some(b']') {
        scan.at += 1;
        return Ok(0);
    }
    let mut k = 0;
    loop {
        let Obj(shot) = scan.value::<Obj<ShotJson>>()?;
        let entry = shot.into_entry().map_err(|e| e.in_shot(k));
        *handed += 1;
        if !each(k, entry, board, physics) {
            return Err(Halt::Stopped);
        }
        k += 1;
        match scan.next_token()? {
            Some(b',') => scan.at += 1,
            Some(b']') => {
                scan.at += 1;
                return Ok(k);
            }
            _ => return Err(Halt::Unexpected),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader giving at most `step` bytes a call, so that block ends fall everywhere.
    struct Trickle<'a> {
        bytes: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let n = self.step.min(out.len()).min(self.bytes.len());
            out[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    /// Everything a reading gave: each call of `each` (shot, entry or error, the board and
    /// physics), then the blocks or the error, as text.
    fn record(
        read: impl FnOnce(&mut EachShot<'_>) -> Result<StreamedBlocks, StreamStop>,
    ) -> Vec<String> {
        let mut calls = Vec::new();
        let mut each =
            |k: usize,
             entry: Result<crokinole_rules::ShotEntry, crokinole_core::error::InputError>,
             b: &Board,
             p: &Physics| {
                calls.push(format!("{k}: {entry:?} {b:?} {p:?}"));
                k < 40
            };
        let end = match read(&mut each) {
            Ok(blocks) => format!("{blocks:?}"),
            Err(StreamStop::Stopped) => "stopped".into(),
            Err(StreamStop::Json(e)) => format!("json: {e}"),
        };
        calls.push(end);
        calls
    }

    fn shot(k: usize) -> String {
        format!(
            "{{\"discs\": [{{\"team\": 1, \"pos\": [0.{k}1, 0.1]}}], \"shooter\": {{\"team\": 0, \
             \"pos\": [0, -0.3048], \"vel\": [0.0{k}, 1.5]}}, \"seat\": {}}}",
            k % 5
        )
    }

    fn shots(n: usize) -> String {
        (0..n).map(shot).collect::<Vec<_>>().join(",\n ")
    }

    #[test]
    fn every_file_reads_as_through_serde_jsons_reader_wherever_the_blocks_end() {
        let good = format!("{{\"shots\": [{}]}}", shots(6));
        let cases = [
            good.clone(),
            format!(
                " {{ \"description\" : \"a \\\"quoted\\\" [file]}}\" , \"board\": {{\"pegs\": []}}, \"physics\": {{\"dt\": 0.0005}}, \"shots\": [ {} ] }} \n",
                shots(4)
            ),
            format!(
                "{{\"shots\": [{}], \"physics\": {{\"dt\": 0.0005}}}}",
                shots(3)
            ),
            "{\"shots\": []}".into(),
            "{\"shots\": [ ]}".into(),
            // Escapes in a key, unknown and duplicate keys.
            format!("{{\"sh\\u006fts\": [{}]}}", shots(2)),
            format!("{{\"shots\": [{}], \"extra\": 1}}", shots(2)),
            format!("{{\"shots\": [{}], \"shots\": []}}", shots(2)),
            format!(
                "{{\"board\": {{}}, \"board\": {{}}, \"shots\": [{}]}}",
                shots(1)
            ),
            // Broken after some shots, or at the end; a shot the rules refuse (seat 7).
            format!(
                "{{\"shots\": [{}, {{\"discs\": [], \"shooter\": 3}}, {}]}}",
                shots(3),
                shot(4)
            ),
            format!("{{\"shots\": [{} {}]}}", shot(0), shot(1)),
            format!("{{\"shots\": [{},]}}", shots(3)),
            format!("{{\"shots\": [{}]", shots(3)),
            format!("{{\"shots\": [{}]}} x", shots(3)),
            format!(
                "{{\"shots\": [{}]}}",
                shots(3).replace("\"seat\": 2", "\"seat\": 7")
            ),
            format!("{{\"shots\": [{}, 5, {}]}}", shots(2), shot(2)),
            "{\"shots\": 3}".into(),
            "{\"description\": \"unterminated".into(),
            "{}".into(),
            "[]".into(),
            "".into(),
            "{\"shots\": [".into(),
            // Stopped by the caller after shot 40.
            format!("{{\"shots\": [{}]}}", shots(45)),
            // Values longer than what is read ahead (parsed again with more bytes) and than
            // the window (read again through the reader).
            format!(
                "{{\"description\": \"{}\", \"shots\": [{}]}}",
                "d".repeat(AHEAD + 10),
                shots(2)
            ),
            format!(
                "{{\"shots\": [{}], \"description\": \"{}\"}}",
                shots(2),
                "d".repeat(WINDOW + 10)
            ),
        ];
        for (c, text) in cases.iter().enumerate() {
            let bytes = text.as_bytes();
            let want = record(|each| read_shot_stream(bytes, each));
            for step in [1, 2, 7, 64, 1 << 20] {
                let opens = std::cell::Cell::new(0);
                let open = || {
                    opens.set(opens.get() + 1);
                    Ok(Trickle { bytes, step })
                };
                let got = record(|each| read_shot_blocks(&open, each));
                assert_eq!(got, want, "case {c}, {step} bytes a read: {text}");
                let good = c <= 4 || c == cases.len() - 2;
                if good {
                    assert_eq!(opens.get(), 1, "case {c}: a good file is read once");
                }
            }
        }
    }

    #[test]
    fn an_error_opening_or_reading_is_the_readers() {
        let open = || -> std::io::Result<&[u8]> { Err(std::io::Error::other("no such disc")) };
        let got = record(|each| read_shot_blocks(&open, each));
        assert_eq!(got, vec!["json: no such disc".to_string()]);
        // A read that fails after the first shot: the reading again fails the same way.
        struct Failing(usize);
        impl Read for Failing {
            fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
                let text = format!("{{\"shots\": [{}, ", shot(0));
                let rest = &text.as_bytes()[self.0.min(text.len())..];
                if rest.is_empty() {
                    return Err(std::io::Error::other("the disk went away"));
                }
                let n = rest.len().min(out.len());
                out[..n].copy_from_slice(&rest[..n]);
                self.0 += n;
                Ok(n)
            }
        }
        let got = record(|each| read_shot_blocks(&|| Ok(Failing(0)), each));
        let want = record(|each| read_shot_stream(Failing(0), each));
        assert_eq!(got, want);
        assert!(
            got.last().unwrap().contains("the disk went away"),
            "{got:?}"
        );
    }
}
