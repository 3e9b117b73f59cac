//! A player's connection: a child process's stdio or a TCP stream, each read by a thread of
//! its own in bounded lines (at most [`MAX_LINE`] bytes) handed over a channel, so the
//! referee waits for a line with a deadline ([`Conn::recv`]) and is never stalled by a
//! player that hangs, floods or stops reading; written by another thread through a bounded
//! queue ([`Conn::send`] refuses when the player does not read). A child is started in a
//! process group of its own and killed with it, and reaped, on every path ([`Drop`]).

use crokinole_io::match_protocol::MAX_LINE;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError, sync_channel};
use std::thread;
use std::time::{Duration, Instant};

/// Lines a reader thread holds before it waits for the referee to take them.
const READ_QUEUE: usize = 64;
/// Messages a writer thread holds before [`Conn::send`] says the player does not read.
const WRITE_QUEUE: usize = 1024;
/// How long a TCP write may block before the connection counts as gone.
const TCP_WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// What a player's reader thread saw.
#[derive(Clone, Debug, PartialEq)]
pub enum Incoming {
    /// A line, its `\n` (and a `\r` before it) removed.
    Line(String),
    /// A line that is not UTF-8.
    NotUtf8,
    /// A line longer than [`MAX_LINE`] bytes: nothing more is read.
    TooLong,
    /// End of the stream (the process exited or closed its output, the socket closed).
    Closed,
}

/// Why a message could not be handed to a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SendError {
    /// Its queue is full: the player does not read its input.
    NotReading,
    /// The connection is gone.
    Gone,
}

impl std::fmt::Display for SendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SendError::NotReading => "the player does not read its input (its queue is full)",
            SendError::Gone => "the player's connection is gone",
        })
    }
}

impl std::error::Error for SendError {}

/// A player's connection.
pub struct Conn {
    lines: Receiver<Incoming>,
    out: Option<SyncSender<String>>,
    child: Option<Child>,
    tcp: Option<TcpStream>,
}

/// Reads `input` in bounded lines into `tx` until its end, an oversized line, or the
/// referee hanging up.
fn read_lines(input: impl Read, tx: SyncSender<Incoming>) {
    let mut reader = BufReader::with_capacity(64 * 1024, input);
    loop {
        let mut buf = Vec::new();
        let limit = (MAX_LINE + 2) as u64;
        // A read error ends the stream as its end would.
        let got: usize = reader
            .by_ref()
            .take(limit)
            .read_until(b'\n', &mut buf)
            .unwrap_or_default();
        if got == 0 {
            let _ = tx.send(Incoming::Closed);
            return;
        }
        let ended = buf.last() == Some(&b'\n');
        if ended {
            buf.pop();
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
        }
        if buf.len() > MAX_LINE {
            let _ = tx.send(Incoming::TooLong);
            return;
        }
        let item = match String::from_utf8(buf) {
            Ok(s) => Incoming::Line(s),
            Err(_) => Incoming::NotUtf8,
        };
        if tx.send(item).is_err() {
            return;
        }
        if !ended {
            let _ = tx.send(Incoming::Closed);
            return;
        }
    }
}

/// Writes each queued message to `output` until the queue closes or a write fails.
fn write_lines(mut output: impl Write, rx: Receiver<String>) {
    for msg in rx {
        if output
            .write_all(msg.as_bytes())
            .and_then(|_| output.flush())
            .is_err()
        {
            return;
        }
    }
}

impl Conn {
    /// Starts `command` with `sh -c 'exec COMMAND'` in a process group of its own, its
    /// standard error to `stderr` (or discarded).
    pub fn spawn(command: &str, stderr: Option<File>) -> std::io::Result<Conn> {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(format!("exec {command}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr.map_or_else(Stdio::null, Stdio::from));
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn()?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => {
                kill_and_reap(&mut child);
                return Err(std::io::Error::other("no pipes to the child"));
            }
        };
        let mut conn = Conn::threads(stdout, stdin)?;
        conn.child = Some(child);
        Ok(conn)
    }

    /// A player connected over TCP.
    pub fn tcp(stream: TcpStream) -> std::io::Result<Conn> {
        stream.set_nodelay(true)?;
        stream.set_write_timeout(Some(TCP_WRITE_TIMEOUT))?;
        let (r, w) = (stream.try_clone()?, stream.try_clone()?);
        let mut conn = Conn::threads(r, w)?;
        conn.tcp = Some(stream);
        Ok(conn)
    }

    /// The reader and writer threads over `input` and `output`.
    fn threads(
        input: impl Read + Send + 'static,
        output: impl Write + Send + 'static,
    ) -> std::io::Result<Conn> {
        let (tx, lines) = sync_channel(READ_QUEUE);
        let (out, rx) = sync_channel(WRITE_QUEUE);
        thread::Builder::new()
            .name("match-reader".into())
            .spawn(move || read_lines(input, tx))?;
        thread::Builder::new()
            .name("match-writer".into())
            .spawn(move || write_lines(output, rx))?;
        Ok(Conn {
            lines,
            out: Some(out),
            child: None,
            tcp: None,
        })
    }

    /// Queues `line` (ending in `\n`) for the player.
    pub fn send(&self, line: String) -> Result<(), SendError> {
        match self.out.as_ref().map(|o| o.try_send(line)) {
            Some(Ok(())) => Ok(()),
            Some(Err(TrySendError::Full(_))) => Err(SendError::NotReading),
            _ => Err(SendError::Gone),
        }
    }

    /// The player's next line, waiting until `deadline`; `None` if none came by then.
    pub fn recv(&self, deadline: Instant) -> Option<Incoming> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(item) => Some(item),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(Incoming::Closed),
        }
    }

    /// Ends the connection: closes the player's input (after what is queued), gives a
    /// child `grace` to exit, then kills its process group and reaps it; shuts a socket.
    pub fn close(mut self, grace: Duration) {
        self.out = None;
        if let Some(child) = self.child.as_mut() {
            let end = Instant::now() + grace;
            while Instant::now() < end {
                match child.try_wait() {
                    Ok(Some(_)) | Err(_) => break,
                    Ok(None) => thread::sleep(Duration::from_millis(5)),
                }
            }
        }
        // Drop kills and reaps.
    }
}

/// Kills `child`'s process group (and the child) and waits for it.
fn kill_and_reap(child: &mut Child) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: kill(2) with a negative pid signals the process group the child leads
        // (it was started with process_group(0)); it touches no memory of ours.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

impl Drop for Conn {
    fn drop(&mut self) {
        self.out = None;
        if let Some(child) = self.child.as_mut() {
            kill_and_reap(child);
        }
        if let Some(s) = &self.tcp {
            let _ = s.shutdown(Shutdown::Both);
        }
    }
}
