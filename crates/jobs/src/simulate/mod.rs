//! Simulate a shot file: every shot run by the engine, optionally judged by the rules and
//! traced; the outcome file out (docs/shot-file.md). `crokinole simulate`, `POST
//! /api/simulate` and the Python package's `simulate_file` are this job.
//!
//! Three forms, the same bytes for one file (tested):
//! - [`ShotFile::read`] and [`simulate`] (here) hold the file and its outcomes whole (the
//!   server and Python, whose inputs are bounded).
//! - [`check_stream`] ([`check`]) and [`simulate_stream`] ([`stream`]) read the file from a
//!   [`ShotSource`] a shot at a time, twice (once to check every shot, once to run them),
//!   and write each chunk's outcomes as it is computed, so memory is bounded by a chunk
//!   ([`chunk_size`]) whatever the file's size.
//! - [`check_and_simulate_stream`] ([`held`]), what `crokinole simulate` runs: a file held in
//!   memory is parsed once and checked while its first chunks compute; any other, as the
//!   second form.

pub mod check;
pub mod held;
pub mod stream;
pub mod whole;

pub use check::{Checked, HELD_BYTES, ShotSource, Text, check_stream};
pub use held::{AHEAD, AHEAD_TRACED, Streamed, check_and_simulate_stream};
pub use stream::{STREAM_CHUNK, StreamFailure, StreamOutput, chunk_size, simulate_stream};
pub use whole::{ShotFile, SimulateOptions, Simulated, simulate, simulate_until};
