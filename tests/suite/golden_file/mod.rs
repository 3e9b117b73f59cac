//! Golden files: outputs pinned byte for byte, with one way to compare and to update them.
//! `UPDATE_GOLDEN=1 cargo test --profile ci --test suite MODULE::` rewrites a module's files
//! instead of comparing; the failure message says so, and what to write in the commit.

use std::path::Path;

/// Compares `actual` with the file at `path` (or, with `UPDATE_GOLDEN` set, writes it).
/// `what` names the output in the failure message, `test` is the test module that
/// regenerates it, `meant` lists what may legitimately change it ("the physics").
pub fn check(path: &Path, actual: &str, what: &str, test: &str, meant: &str) {
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    let name = path
        .strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(path)
        .display();
    assert!(
        expected == actual,
        "\n{what} changed.\nExpected {name}:\n{expected}\nGot:\n{actual}\n\
         If {meant} was meant to change, regenerate with\n\
         \x20   UPDATE_GOLDEN=1 cargo test --profile ci --test suite {test}::\n\
         and commit {name}, saying in the commit what changed and why. If not, this is a\n\
         determinism or behaviour regression: find it.\n"
    );
}
