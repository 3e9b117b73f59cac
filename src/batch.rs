//! Many shots on a rayon pool, outcomes in input order, bit-identical to running them one
//! by one: each shot is independent and deterministic, and results are collected in order
//! (never reduced in parallel).

use crate::board::Board;
use crate::error::InputError;
use crate::params::Physics;
use crate::shot::{Outcome, Shot, run_shot};
use rayon::prelude::*;

/// Runs every shot on the current rayon pool; result `k` belongs to `shots[k]`, with errors
/// attributed to their shot index.
pub fn run_batch(
    board: &Board,
    physics: &Physics,
    shots: &[Shot],
) -> Vec<Result<Outcome, InputError>> {
    shots
        .par_iter()
        .enumerate()
        .map(|(k, s)| run_shot(board, physics, s).map_err(|e| e.in_shot(k)))
        .collect()
}
