//! Golden state hashes: the outcome bytes of the bundled fixtures, hashed, must not change
//! unless the physics is meant to change. Any change to the model, a coefficient, the event
//! order or the float formatting shows up here first.

use crate::golden_file;

use crokinole::io::{outcomes_to_string, parse_shot_file};
use crokinole::shot::run_shot;
use std::path::Path;

/// FNV-1a, 64 bit: small, dependency-free, stable across platforms.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn outcome_hash(fixture: &str) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let text = std::fs::read_to_string(dir.join(fixture)).unwrap();
    let (board, physics, shots) = parse_shot_file(&text).unwrap();
    let outcomes: Vec<_> = shots
        .iter()
        .map(|s| run_shot(&board, &physics, &s.shot).unwrap())
        .collect();
    format!("{:016x}", fnv1a(outcomes_to_string(&outcomes).as_bytes()))
}

/// The outcome files of `example.json`, `opening.json` and `crowded.json` hash to the values
/// recorded in `fixtures/golden-hashes.txt`.
#[test]
fn outcomes_match_the_golden_hashes() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/golden-hashes.txt");
    let fixtures = ["example.json", "opening.json", "crowded.json"];
    let actual: Vec<String> = fixtures
        .iter()
        .map(|f| format!("{f} {}", outcome_hash(f)))
        .collect();
    let actual = actual.join("\n") + "\n";
    golden_file::check(
        &path,
        &actual,
        "The simulated outcomes of the fixtures",
        "golden",
        "the physics",
    );
}
