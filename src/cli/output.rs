//! Reading the input and writing the output, the same for every command: [`read_input`]
//! (a file or standard input, as UTF-8; [`read_input_of`] refuses a large file of another
//! kind from its start), [`write_output`] (standard output, or a file
//! written whole or not at all); and `laid_out` (the JSON in the layout `--compact` asks
//! for), the library's `crokinole::io::laid_out`.

use super::failure::Failure;
use crokinole::InputError;
use crokinole::io::FileKind;
pub use crokinole::io::laid_out;
use crokinole::io::{HeldText, ReadFailure, read_held, read_held_from};
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// The text of `file` (`-` is standard input).
pub fn read_input(file: &Path) -> Result<HeldText, Failure> {
    let read = if file == Path::new("-") {
        read_held_from(file, std::io::stdin().lock())
    } else {
        read_held(file)
    };
    read.map_err(|e| match e {
        ReadFailure::Io(message) => Failure::Io(message),
        ReadFailure::Input(e) => Failure::Input(e),
    })
}

/// Bytes of a file's start [`read_input_of`] looks at before reading it whole.
const SNIFF_BYTES: u64 = 1 << 16;

/// [`read_input`] for a command that reads files of kind `expected`: a file larger than
/// its first 64 KiB whose start already shows it is another kind of file
/// ([`FileKind::sniff_start`]) is refused at once, without reading the rest, so a huge file
/// given to the wrong command costs neither the time nor the memory of reading it. A
/// smaller file is read and refused by the command's reader as before (its message then
/// also names the kind).
pub fn read_input_of(file: &Path, expected: FileKind) -> Result<HeldText, Failure> {
    // Only a regular file is looked at twice: a pipe's or a device's first bytes, once
    // read, would be lost to the reading that follows.
    if file != Path::new("-")
        && std::fs::metadata(file).is_ok_and(|m| m.is_file())
        && let Ok(f) = std::fs::File::open(file)
    {
        let mut start = Vec::new();
        if f.take(SNIFF_BYTES + 1).read_to_end(&mut start).is_ok()
            && start.len() as u64 > SNIFF_BYTES
            && let Some(kind) = FileKind::sniff_start(&start)
            && kind != expected
        {
            return Err(Failure::Input(InputError::new(
                "file",
                format!(
                    "not {}: this file looks like {}",
                    expected.describe(),
                    kind.describe()
                ),
            )));
        }
    }
    read_input(file)
}

/// Runs `write` on a buffered `output` file, or standard output if `None`, and flushes. A
/// regular file (or a path not there yet) is written under a temporary name beside it and
/// renamed into place once complete, so a failed write never leaves a truncated file
/// behind; through a symbolic link, the file it points to is replaced and the link kept.
/// Anything else (`/dev/null`, `/dev/full`, a named pipe) is written to as it is: renaming
/// a file over it would replace the device or pipe itself. A closed pipe on standard
/// output ends the command quietly ([`Failure::BrokenPipe`]).
pub fn write_output(
    output: Option<&Path>,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), Failure> {
    let Some(path) = output else {
        if stdout_was_closed() {
            return Err(Failure::Io(
                "cannot write standard output: it was closed when the command started; \
                 redirect it (`> FILE`, `> /dev/null`) or give `--output FILE`"
                    .into(),
            ));
        }
        let mut w = BufWriter::new(std::io::stdout().lock());
        return write(&mut w)
            .and_then(|()| w.flush())
            .map_err(|e| write_failure("standard output", e));
    };
    let name = format!("`{}`", path.display());
    let Some(path) = replaced_file(path) else {
        let written = std::fs::File::create(path).and_then(|file| {
            let mut w = BufWriter::new(file);
            write(&mut w)?;
            w.flush()
        });
        return written.map_err(|e| write_failure(&name, e));
    };
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp-{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let written = std::fs::File::create(&tmp).and_then(|file| {
        let mut w = BufWriter::new(file);
        write(&mut w)?;
        w.into_inner()
            .map_err(|e| e.into_error())
            .and_then(|f| f.sync_all())
    });
    match written.and_then(|()| std::fs::rename(&tmp, &path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(write_failure(&name, e))
        }
    }
}

/// The regular file an output to `path` replaces whole (renaming a finished temporary
/// file onto it): `path` itself if it is a regular file or is not there, the file a
/// symbolic link at `path` points to; `None` for anything else (a device, a named pipe,
/// a directory, a dangling link), which is written to as it is.
fn replaced_file(path: &Path) -> Option<PathBuf> {
    match std::fs::symlink_metadata(path) {
        Err(_) => Some(path.to_path_buf()),
        Ok(m) if m.is_file() => Some(path.to_path_buf()),
        Ok(m) if m.file_type().is_symlink() => {
            let target = std::fs::canonicalize(path).ok()?;
            std::fs::metadata(&target).ok()?.is_file().then_some(target)
        }
        Ok(_) => None,
    }
}

/// Whether standard output was closed when the process started (`crokinole ... >&-`).
///
/// Rust's runtime reopens a closed descriptor 0-2 on `/dev/null` before `main`, read-write,
/// so writes to it would succeed and the output vanish with exit status 0. A shell's
/// `> /dev/null` opens it write-only, so `/dev/null` open read-write on descriptor 1 is
/// taken as "was closed" (Linux, from `/proc/self`; elsewhere never).
fn stdout_was_closed() -> bool {
    if !cfg!(target_os = "linux") {
        return false;
    }
    let is_null = std::fs::read_link("/proc/self/fd/1").is_ok_and(|p| p == Path::new("/dev/null"));
    let read_write = || {
        let info = std::fs::read_to_string("/proc/self/fdinfo/1").ok()?;
        let flags = info.lines().find_map(|l| l.strip_prefix("flags:"))?;
        let flags = u32::from_str_radix(flags.trim(), 8).ok()?;
        Some(flags & 0o3 == 0o2)
    };
    is_null && read_write() == Some(true)
}

/// The failure for a write to `name` that failed with `e`.
fn write_failure(name: &str, e: std::io::Error) -> Failure {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        Failure::BrokenPipe
    } else {
        Failure::Io(format!("cannot write {name}: {e}"))
    }
}

/// Refuses an output path that names an input or another output of the same command
/// (`-o` equal to the input, `--samples-out` equal to the study file, `-o X --svg X`): the
/// write would destroy the input or the other output, silently. Paths are compared as the
/// files they name (the same device and inode: links and `./` spellings included); an
/// output that does not exist yet is compared by its absolute path. `-` (standard input)
/// and standard output take part in no comparison.
pub fn distinct_paths(
    inputs: &[(&str, &Path)],
    outputs: &[(&str, Option<&Path>)],
) -> Result<(), Failure> {
    let key = |p: &Path| -> Option<(u64, u64, PathBuf)> {
        if p == Path::new("-") {
            return None;
        }
        #[cfg(unix)]
        if let Ok(m) = std::fs::metadata(p) {
            use std::os::unix::fs::MetadataExt;
            return Some((m.dev(), m.ino(), PathBuf::new()));
        }
        let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        Some((0, 0, abs))
    };
    let outputs: Vec<(&str, &Path)> = outputs
        .iter()
        .filter_map(|(flag, p)| p.map(|p| (*flag, p)))
        .collect();
    for (k, (flag, out)) in outputs.iter().enumerate() {
        let Some(o) = key(out) else { continue };
        let clash = inputs
            .iter()
            .map(|(what, p)| (*what, *p))
            .chain(outputs[..k].iter().map(|(f, p)| (*f, *p)))
            .find(|(_, p)| key(p).is_some_and(|q| q == o));
        if let Some((other, _)) = clash {
            return Err(Failure::Input(InputError::new(
                flag.trim_start_matches('-'),
                format!(
                    "`{}` is also {other}: writing it would destroy that; give another path",
                    out.display()
                ),
            )));
        }
    }
    Ok(())
}
