//! The sizes of a file, counted before it is read: how many shots and how many discs each
//! holds. A front end with bounds (the server's limits) refuses an over-large file from
//! these counts before the reader checks it item by item.

use serde::Deserialize;
use serde::de::IgnoredAny;

/// The counts of a shot, study or suggest file: `shots` and each shot's `discs` (a shot
/// file), or the top-level `discs` (a study or suggest file). A key that is missing or
/// malformed is not counted (the file's reader refuses it with its reason).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sizes {
    /// The length of `shots`.
    pub shots: Option<usize>,
    /// The length of each shot's `discs`, in shot order.
    pub shot_discs: Vec<usize>,
    /// The length of the top-level `discs`.
    pub discs: Option<usize>,
}

#[derive(Deserialize)]
struct Top {
    shots: Option<Vec<ShotSize>>,
    discs: Option<Vec<IgnoredAny>>,
}

#[derive(Deserialize)]
struct ShotSize {
    discs: Option<Vec<IgnoredAny>>,
}

/// Counts the shots and discs of `text` without building them (see [`Sizes`]).
pub fn sizes(text: &str) -> Sizes {
    let Ok(top) = serde_json::from_str::<Top>(text) else {
        return Sizes::default();
    };
    Sizes {
        shots: top.shots.as_ref().map(Vec::len),
        shot_discs: top
            .shots
            .iter()
            .flatten()
            .map(|s| s.discs.as_ref().map_or(0, Vec::len))
            .collect(),
        discs: top.discs.map(|d| d.len()),
    }
}
