//! Errors as Python exceptions, with the CLI's messages: bad input raises `CrokinoleError`
//! (a `ValueError`) whose message is what `crokinole` prints after `error: `; a file that
//! cannot be read raises `OSError` with the CLI's words. Also the worker pools the calls
//! run on, and [`interruptible`], which turns a Ctrl-C during long work into
//! `KeyboardInterrupt`.

use crokinole_core::InputError;
use crokinole_core::cancel::Cancel;
use crokinole_io::FileKind;
use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::{PyErr, Python};
use std::path::Path;
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

create_exception!(
    _crokinole,
    CrokinoleError,
    PyValueError,
    "Bad input, refused before anything runs. The message is the one the `crokinole` \
     command prints after `error: `: the shot (when there is one), the field and the problem."
);

/// `CrokinoleError` carrying an input error's message.
pub fn input_error(e: InputError) -> PyErr {
    CrokinoleError::new_err(e.to_string())
}

/// `CrokinoleError` with a message of its own.
pub fn error(message: impl Into<String>) -> PyErr {
    CrokinoleError::new_err(message.into())
}

/// `read_text(path)`: the text of a file, read and refused as the CLI reads its inputs.
#[pyo3::pyfunction]
pub fn read_text(
    py: Python<'_>,
    path: std::path::PathBuf,
) -> Result<pyo3::Bound<'_, pyo3::types::PyString>, PyErr> {
    let text = read_file(&path)?;
    Ok(pyo3::types::PyString::new(py, &text))
}

/// The text of `path`, as the CLI reads it ([`crokinole_io::read_held`]):
/// `OSError("cannot read `p`: ...")` if it cannot be read, `CrokinoleError` (field `file`)
/// if it is not UTF-8.
pub fn read_file(path: &Path) -> Result<crokinole_io::HeldText, PyErr> {
    match crokinole_io::read_held(path) {
        Ok(text) => Ok(text),
        Err(crokinole_io::ReadFailure::Io(message)) => Err(PyOSError::new_err(message)),
        Err(crokinole_io::ReadFailure::Input(e)) => Err(input_error(e)),
    }
}

/// Input `text` refused while read as a file of kind `expected`: if it looks like a file of
/// another kind, the message says what it looks like and which command reads it (as the
/// CLI does).
pub fn of_kind(e: InputError, text: &str, expected: FileKind) -> PyErr {
    input_error(crokinole_jobs::of_kind(e, text, expected))
}

/// A rayon pool of `threads` workers (all cores if `None`), at most 256 as in the CLI.
pub fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool, PyErr> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.map_or(0, |n| n.clamp(1, 256)))
        .build()
        .map_err(|e| PyOSError::new_err(format!("cannot start worker threads: {e}")))
}

/// The process that loaded the module: its rayon global pool is the one to use. A child
/// forked from it (multiprocessing's `fork`, Gymnasium's `AsyncVectorEnv`) inherits the
/// global pool's bookkeeping but none of its threads, so work sent there would wait
/// forever: a child uses a pool of its own instead ([`on_pool`]).
static LOADED_IN: std::sync::OnceLock<u32> = std::sync::OnceLock::new();

/// The pool of a forked child, with the process id it was built in (a grandchild builds
/// its own in turn).
static CHILD_POOL: std::sync::Mutex<Option<(u32, std::sync::Arc<rayon::ThreadPool>)>> =
    std::sync::Mutex::new(None);

/// Records the process that loaded the module (called when the module loads).
pub fn loaded() {
    LOADED_IN.get_or_init(std::process::id);
}

/// The pool of this forked child, built on its first use (all cores).
fn child_pool(pid: u32) -> Result<std::sync::Arc<rayon::ThreadPool>, PyErr> {
    // A lock poisoned by a panic elsewhere still holds a usable pool (or none).
    let mut slot = CHILD_POOL.lock().unwrap_or_else(|e| e.into_inner());
    match &*slot {
        Some((p, pool)) if *p == pid => Ok(pool.clone()),
        _ => {
            let fresh = std::sync::Arc::new(pool(None)?);
            *slot = Some((pid, fresh.clone()));
            Ok(fresh)
        }
    }
}

/// Runs `f` on `threads` workers: the global rayon pool when `None` (no pool to start),
/// a pool of its own otherwise. In a process forked from the one that loaded the module
/// (whose global pool has no threads), `None` means a pool built in that process on its
/// first use: so the package works in forked workers. Results never depend on the choice.
pub fn on_pool<T: Send>(threads: Option<usize>, f: impl FnOnce() -> T + Send) -> Result<T, PyErr> {
    match threads {
        Some(n) => Ok(pool(Some(n))?.install(f)),
        None if rayon::current_thread_index().is_some() => Ok(f()),
        None => {
            let pid = std::process::id();
            if LOADED_IN.get().is_none_or(|&p| p == pid) {
                Ok(f())
            } else {
                Ok(child_pool(pid)?.install(f))
            }
        }
    }
}

/// How often [`interruptible`] looks for a Ctrl-C while the work runs.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `work` without the GIL on a thread of its own while the calling thread watches
/// Python's signals every [`SIGNAL_POLL`]: a Ctrl-C (SIGINT, or a Jupyter kernel's
/// interrupt) cancels the [`Cancel`] `work` is given, and once `work` has stopped the
/// exception the signal's handler raised (`KeyboardInterrupt`) is returned in place of its
/// result. The engine checks the cancel within every shot (a study within its samples, a
/// game between and within shots, the planner between candidates), so `work` ends within a
/// fraction of a second. Python's handlers only run on the main thread, so from another
/// thread `work` runs to its end as before.
///
/// Called on a worker of a rayon pool (a Python strategy that calls the engine during
/// `play`), `work` runs right there without the GIL and without a watcher: the outer call
/// watches, and a thread of its own would wait for the very pool it blocks.
pub fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&Cancel) -> T + Send,
) -> Result<T, PyErr> {
    if rayon::current_thread_index().is_some() {
        return Ok(py.detach(|| work(&Cancel::never())));
    }
    let stop = Cancel::new();
    let mut raised = None;
    let out = py.detach(|| {
        std::thread::scope(|scope| {
            let (done, finished) = channel();
            let flag = &stop;
            let worker = scope.spawn(move || {
                let out = work(flag);
                let _ = done.send(());
                out
            });
            loop {
                match finished.recv_timeout(SIGNAL_POLL) {
                    Err(RecvTimeoutError::Timeout) if raised.is_none() => {
                        if let Err(e) = Python::attach(|py| py.check_signals()) {
                            raised = Some(e);
                            stop.cancel();
                        }
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                    Ok(()) | Err(RecvTimeoutError::Disconnected) => break,
                }
            }
            worker.join()
        })
    });
    let out = out.unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    match raised {
        Some(e) => Err(e),
        None => Ok(out),
    }
}
