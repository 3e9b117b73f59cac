//! [`HeldText`]: an input file read whole into memory, as UTF-8, for the front ends that
//! parse it in place: the command line's inputs and the Python package's paths
//! ([`read_held`], with the messages both print).
//!
//! Why not a `String`: a large file's buffer (4 MiB or more, on Linux) is mapped on its own
//! and asked to be backed by 2 MiB pages (`madvise(MADV_HUGEPAGE)`). Reading a file costs
//! mostly the kernel's work of handing the buffer its pages: in 4 KiB pages that is one
//! fault and one zeroed page per 4 KiB, 2,700 of them for the 10.9 MB of 10,000 crowded
//! shots, and as many to free at exit. In 2 MiB pages it is six. Measured on the machine
//! that builds this project (mean of 15 processes, page cache warm): the read of that file
//! 6.8 -> 2.1 ms and its free 0.9 -> 0.06 ms. With two threads this read is the longest
//! stretch where only one thread works (README, "Performance").
//!
//! The kernel may decline (transparent huge pages off, or none free): the buffer is then an
//! ordinary one of 4 KiB pages, and nothing else changes. A file that grows while it is read
//! is read to its end all the same.

use crokinole_core::error::InputError;
use std::io::Read;
use std::path::Path;

/// Why [`read_held`] holds no text.
#[derive(Debug)]
pub enum ReadFailure {
    /// The file cannot be read: `cannot read `PATH`: why`.
    Io(String),
    /// It is not UTF-8 (field `file`, the offset of the first bad byte).
    Input(InputError),
}

impl std::fmt::Display for ReadFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadFailure::Io(why) => f.write_str(why),
            ReadFailure::Input(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ReadFailure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadFailure::Io(_) => None,
            ReadFailure::Input(e) => Some(e),
        }
    }
}

/// The text of the file at `path`, held ([`HeldText::read_file`]), or why not in the words
/// the command line prints.
pub fn read_held(path: &Path) -> Result<HeldText, ReadFailure> {
    let read = std::fs::File::open(path).and_then(|mut f| HeldText::read_file(&mut f));
    held_or_failure(path, read)
}

/// The text `reader` gives to its end (standard input, named `name`), or why not, as
/// [`read_held`] says it.
pub fn read_held_from(name: &Path, reader: impl Read) -> Result<HeldText, ReadFailure> {
    held_or_failure(name, HeldText::read(reader))
}

fn held_or_failure(
    name: &Path,
    read: std::io::Result<Result<HeldText, Refused>>,
) -> Result<HeldText, ReadFailure> {
    let text =
        read.map_err(|e| ReadFailure::Io(format!("cannot read `{}`: {e}", name.display())))?;
    text.map_err(|why| {
        ReadFailure::Input(InputError::new(
            "file",
            match why {
                Refused::NotUtf8(offset) => {
                    format!("not valid UTF-8 (bad byte at offset {offset})")
                }
                Refused::TooLarge => format!(
                    "more than {MAX_INPUT} bytes (1 GiB), the most an input is read to: \
                     stopped there"
                ),
                Refused::Binary { offset, byte } => format!(
                    "not a text file: byte {offset} is 0x{byte:02x}, a control character \
                     (the inputs are JSON text); nothing more was read"
                ),
            },
        ))
    })
}

/// The most bytes an input is read to, whatever it is (a file, a pipe, a device,
/// standard input): 1 GiB. A regular file larger than that is refused from its size; a
/// stream is read up to it and refused there, so `/dev/zero` or an endless pipe cannot
/// take the memory.
pub const MAX_INPUT: u64 = 1 << 30;

/// Bytes of an input's start looked at before the rest is read: a start that is not
/// text (a control character before anything else) is refused there.
const START: u64 = 1 << 16;

/// Why an input is not held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// Not UTF-8: the offset of the first bad byte.
    NotUtf8(usize),
    /// More than [`MAX_INPUT`] bytes.
    TooLarge,
    /// Not text: the first byte that is neither white space nor printable is a control
    /// character (`/dev/zero`, a binary file), at `offset`.
    Binary {
        /// Its offset.
        offset: usize,
        /// The byte.
        byte: u8,
    },
}

/// The first control character of `start` before any printable byte, if any.
fn binary_start(start: &[u8]) -> Option<Refused> {
    let (offset, &byte) = start
        .iter()
        .enumerate()
        .find(|(_, b)| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))?;
    (byte < 0x20 || byte == 0x7f).then_some(Refused::Binary { offset, byte })
}

/// An input file's text held in memory: [`HeldText::as_str`], or `&*held`.
pub struct HeldText {
    buffer: Buffer,
}

/// Where the bytes live.
enum Buffer {
    /// An ordinary heap buffer (small files, standard input, pipes, other systems).
    Heap(Vec<u8>),
    /// A mapping of its own, in 2 MiB pages where the kernel grants them.
    #[cfg(target_os = "linux")]
    Mapped(huge::Mapping),
}

/// Files from this size on, in bytes (4 MiB), are read into a buffer of 2 MiB pages: below
/// it the pages saved are too few to matter.
pub const HUGE_FROM: u64 = 4 << 20;

impl HeldText {
    /// Reads `file` to its end: into a buffer of 2 MiB pages if it is a regular file of
    /// [`HUGE_FROM`] bytes or more (on Linux), else into an ordinary one. `Err` is the
    /// error reading; `Ok(Err(why))` an input refused: not UTF-8, larger than
    /// [`MAX_INPUT`] (a regular file by its size, before any read; anything else when the
    /// bound is reached), or not text from its first bytes.
    pub fn read_file(file: &mut std::fs::File) -> std::io::Result<Result<HeldText, Refused>> {
        let size = file.metadata().map(|m| m.is_file().then_some(m.len()));
        let Ok(Some(size)) = size else {
            // A pipe, a FIFO, a device: read as a stream, bounded.
            return HeldText::read(file);
        };
        if size > MAX_INPUT {
            return Ok(Err(Refused::TooLarge));
        }
        {
            use std::io::{Seek, SeekFrom};
            let mut start = Vec::new();
            (&mut *file).take(START).read_to_end(&mut start)?;
            if let Some(why) = binary_start(&start) {
                return Ok(Err(why));
            }
            file.seek(SeekFrom::Start(0))?;
        }
        #[cfg(target_os = "linux")]
        if size >= HUGE_FROM
            && let Ok(size) = usize::try_from(size)
            && let Some(mapping) = huge::Mapping::new(size)
        {
            return huge::read_into(mapping, file).map(HeldText::checked);
        }
        let mut bytes = Vec::new();
        file.take(MAX_INPUT + 1).read_to_end(&mut bytes)?;
        Ok(HeldText::checked(Buffer::Heap(bytes)))
    }

    /// Reads `reader` (standard input, a pipe) to its end into an ordinary buffer: its
    /// first 64 KiB first, refused there if they are not text, then the rest up to
    /// [`MAX_INPUT`] bytes.
    pub fn read(reader: impl Read) -> std::io::Result<Result<HeldText, Refused>> {
        HeldText::read_up_to(reader, MAX_INPUT)
    }

    /// [`HeldText::read`] with the bound `max` (at least 64 KiB).
    fn read_up_to(mut reader: impl Read, max: u64) -> std::io::Result<Result<HeldText, Refused>> {
        let mut bytes = Vec::new();
        (&mut reader).take(START).read_to_end(&mut bytes)?;
        if let Some(why) = binary_start(&bytes) {
            return Ok(Err(why));
        }
        let left = max + 1 - bytes.len() as u64;
        reader.take(left).read_to_end(&mut bytes)?;
        if bytes.len() as u64 > max {
            return Ok(Err(Refused::TooLarge));
        }
        Ok(HeldText::checked(Buffer::Heap(bytes)))
    }

    /// `buffer` as a text, or why not: more than [`MAX_INPUT`] bytes, or not UTF-8 (the
    /// offset of the first bad byte).
    fn checked(buffer: Buffer) -> Result<HeldText, Refused> {
        let held = HeldText { buffer };
        if held.bytes().len() as u64 > MAX_INPUT {
            return Err(Refused::TooLarge);
        }
        match std::str::from_utf8(held.bytes()) {
            Ok(_) => Ok(held),
            Err(e) => Err(Refused::NotUtf8(e.valid_up_to())),
        }
    }

    fn bytes(&self) -> &[u8] {
        match &self.buffer {
            Buffer::Heap(bytes) => bytes,
            #[cfg(target_os = "linux")]
            Buffer::Mapped(mapping) => mapping.filled(),
        }
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        // SAFETY: `checked` made every `HeldText` from bytes that are UTF-8, and they do not
        // change after.
        unsafe { std::str::from_utf8_unchecked(self.bytes()) }
    }

    /// Whether the text lies in 2 MiB pages the kernel asked for (for the tests: whether
    /// this build and system take that path; the pages themselves may still be 4 KiB).
    pub fn is_mapped(&self) -> bool {
        !matches!(self.buffer, Buffer::Heap(_))
    }
}

impl std::ops::Deref for HeldText {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl std::fmt::Debug for HeldText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HeldText")
            .field("len", &self.as_str().len())
            .field("mapped", &self.is_mapped())
            .finish()
    }
}

#[cfg(target_os = "linux")]
mod huge {
    //! The mapping of a [`Buffer::Mapped`](super::Buffer): anonymous memory (zeroed by the
    //! kernel, so every byte is initialised), its start rounded up to a 2 MiB boundary so
    //! that whole 2 MiB pages fit in it, advised `MADV_HUGEPAGE`.

    use super::Buffer;
    use std::io::Read;

    /// The size of a huge page on x86-64 and most arm64 kernels; where it differs, the
    /// advice still holds for the pages that fit.
    const PAGE: usize = 2 << 20;

    /// Anonymous memory of `len` bytes at `base`, the text's room (`capacity` bytes) from
    /// `start`, the first `filled` of them read.
    pub(super) struct Mapping {
        base: *mut u8,
        len: usize,
        start: *mut u8,
        capacity: usize,
        filled: usize,
    }

    impl Mapping {
        /// Room for a file of `size` bytes plus one (so that a file that grew is seen), or
        /// `None` if the kernel maps nothing.
        pub(super) fn new(size: usize) -> Option<Mapping> {
            let capacity = size.checked_add(1)?;
            // Whole pages from `start`, and one more for the rounding of `start`.
            let pages = capacity.div_ceil(PAGE).checked_mul(PAGE)?;
            let len = pages.checked_add(PAGE)?;
            // SAFETY: a fresh private anonymous mapping; no memory of ours is touched.
            let base = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    len,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                    -1,
                    0,
                )
            };
            if base == libc::MAP_FAILED {
                return None;
            }
            let base = base.cast::<u8>();
            let offset = (PAGE - base as usize % PAGE) % PAGE;
            // SAFETY: `offset < PAGE`, so `start` and `pages >= capacity` bytes from it lie
            // in the mapping of `pages + PAGE` bytes.
            let start = unsafe { base.add(offset) };
            // Advice only: an error (THP compiled out) leaves ordinary pages.
            // SAFETY: the range lies in our mapping and is page-aligned.
            unsafe {
                libc::madvise(start.cast(), pages, libc::MADV_HUGEPAGE);
            }
            Some(Mapping {
                base,
                len,
                start,
                capacity,
                filled: 0,
            })
        }

        /// The bytes read so far.
        pub(super) fn filled(&self) -> &[u8] {
            // SAFETY: `filled <= capacity` bytes from `start` lie in the mapping, zeroed by
            // the kernel and then written by `read`: initialised.
            unsafe { std::slice::from_raw_parts(self.start, self.filled) }
        }

        /// The room not yet read into.
        fn room(&mut self) -> &mut [u8] {
            // SAFETY: as `filled`; `&mut self` makes the slice the only reference.
            unsafe {
                std::slice::from_raw_parts_mut(
                    self.start.add(self.filled),
                    self.capacity - self.filled,
                )
            }
        }
    }

    impl Drop for Mapping {
        fn drop(&mut self) {
            // SAFETY: `base` and `len` are the mapping `new` made, unmapped once, here.
            unsafe {
                libc::munmap(self.base.cast(), self.len);
            }
        }
    }

    /// `file` read to its end into `mapping`; into an ordinary buffer if it turns out
    /// longer than its size said (it grew while read).
    pub(super) fn read_into(
        mut mapping: Mapping,
        file: &mut std::fs::File,
    ) -> std::io::Result<Buffer> {
        loop {
            let room = mapping.room();
            if room.is_empty() {
                // The file grew while it was read: the rest, up to the bound.
                let mut bytes = mapping.filled().to_vec();
                let left = (super::MAX_INPUT + 1).saturating_sub(bytes.len() as u64);
                file.take(left).read_to_end(&mut bytes)?;
                return Ok(Buffer::Heap(bytes));
            }
            match file.read(room) {
                Ok(0) => return Ok(Buffer::Mapped(mapping)),
                Ok(n) => mapping.filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch file holding `bytes`, removed when dropped.
    struct Scratch(std::path::PathBuf);

    impl Scratch {
        fn new(name: &str, bytes: &[u8]) -> Scratch {
            let path =
                std::env::temp_dir().join(format!("crokinole-held-{}-{name}", std::process::id()));
            std::fs::write(&path, bytes).unwrap();
            Scratch(path)
        }

        fn read(&self) -> Result<HeldText, Refused> {
            HeldText::read_file(&mut std::fs::File::open(&self.0).unwrap()).unwrap()
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    /// `n` bytes of varied UTF-8 text (multi-byte characters across page boundaries).
    fn text_of(n: usize) -> String {
        let mut text = String::with_capacity(n + 8);
        let mut k = 0u32;
        while text.len() < n {
            text.push_str(["{\"x\": ", "é", "ß", "🥌", "\n"][(k % 5) as usize]);
            k = k.wrapping_mul(1_103_515_245).wrapping_add(12_345) >> 3;
        }
        text
    }

    #[test]
    fn a_large_file_is_read_whole_into_its_own_mapping() {
        // Sizes about the 2 MiB page: a whole number of pages, one byte either side.
        let page = 2 << 20;
        for size in [HUGE_FROM as usize, 3 * page - 1, 3 * page, 3 * page + 1] {
            let text = text_of(size);
            let file = Scratch::new(&format!("large-{size}"), text.as_bytes());
            let held = file.read().unwrap();
            assert_eq!(held.len(), text.len());
            assert!(*held == *text, "the text of {size} bytes read back differs");
            assert_eq!(held.is_mapped(), cfg!(target_os = "linux"), "{held:?}");
        }
    }

    #[test]
    fn a_small_file_or_a_reader_is_read_into_an_ordinary_buffer() {
        for text in [String::new(), text_of(100_000)] {
            let file = Scratch::new(&format!("small-{}", text.len()), text.as_bytes());
            let held = file.read().unwrap();
            assert!(!held.is_mapped() && *held == *text);
        }
        let text = text_of(HUGE_FROM as usize + 10);
        let held = HeldText::read(text.as_bytes()).unwrap().unwrap();
        assert!(!held.is_mapped() && *held == *text);
    }

    #[test]
    fn a_byte_that_is_not_utf8_is_reported_at_its_offset_whatever_the_buffer() {
        for size in [1000, HUGE_FROM as usize + 4096] {
            let mut bytes = "a".repeat(size).into_bytes();
            let at = size - 700;
            bytes[at] = 0xff;
            let file = Scratch::new(&format!("bad-{size}"), &bytes);
            assert_eq!(file.read().unwrap_err(), Refused::NotUtf8(at));
            assert_eq!(
                HeldText::read(&bytes[..]).unwrap().unwrap_err(),
                Refused::NotUtf8(at)
            );
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_longer_than_its_mapping_is_read_to_its_end() {
        // As a file that grew between its size and its reading: the mapping has room for
        // fewer bytes than the file holds.
        let text = text_of(HUGE_FROM as usize + 3000);
        let file = Scratch::new("grown", text.as_bytes());
        for room in [0, 1000, HUGE_FROM as usize] {
            let mapping = huge::Mapping::new(room).unwrap();
            let mut f = std::fs::File::open(&file.0).unwrap();
            let buffer = huge::read_into(mapping, &mut f).unwrap();
            let held = HeldText::checked(buffer).unwrap();
            assert!(
                !held.is_mapped(),
                "the bytes past the room moved to the heap"
            );
            assert!(*held == *text, "room {room}: the text read back differs");
        }
    }

    /// Issue #42, item 2: `/dev/zero`, a pipe or standard input was read whole (3 GB in
    /// 3 s; `/dev/full` to 24 GB). A stream is refused at its first control byte, within
    /// its first 64 KiB, and read at most to the bound.
    #[test]
    fn a_stream_that_is_not_text_is_refused_from_its_start_and_any_stream_stops_at_the_bound() {
        let zeros = std::io::repeat(0).take(10 * START);
        assert_eq!(
            HeldText::read(zeros).unwrap().unwrap_err(),
            Refused::Binary { offset: 0, byte: 0 }
        );
        let mut reader = std::io::repeat(b' ').take(4 * START + 4096);
        let refused = HeldText::read_up_to(&mut reader, 4 * START)
            .unwrap()
            .unwrap_err();
        assert_eq!(refused, Refused::TooLarge);
        assert_eq!(
            reader.limit(),
            4096 - 1,
            "read one byte past the bound, no more"
        );
        // /dev/zero itself, opened as a file (a device: read as a stream).
        #[cfg(target_os = "linux")]
        {
            let mut dev = std::fs::File::open("/dev/zero").unwrap();
            let why = HeldText::read_file(&mut dev).unwrap().unwrap_err();
            assert_eq!(why, Refused::Binary { offset: 0, byte: 0 });
        }
        // Text after white space is text; a control byte after text is left to the parser.
        let ok = HeldText::read(&b"  \n{\"a\": 1}\x01"[..]).unwrap().unwrap();
        assert_eq!(ok.len(), 12);
    }
}
