//! Golden files: outputs pinned byte for byte in readable text files, with one way to
//! compare and to update them. `UPDATE_GOLDEN=1 cargo test --profile ci --test suite
//! MODULE::` rewrites a module's files instead of comparing, so `git diff` shows what
//! changed; a failure names the first line that differs and says how to regenerate.

use std::path::Path;

/// Compares `actual` with the file at `path` (or, with `UPDATE_GOLDEN` set, writes it).
/// `what` names the output in the failure message, `test` is the test module that
/// regenerates it, `meant` lists what may legitimately change it ("the physics").
pub fn check(path: &Path, actual: &str, what: &str, test: &str, meant: &str) {
    let name = path
        .strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(path)
        .display()
        .to_string();
    let expected = std::fs::read_to_string(path);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        if expected.ok().as_deref() != Some(actual) {
            std::fs::write(path, actual).unwrap();
            eprintln!("UPDATE_GOLDEN: rewrote {name}");
        }
        return;
    }
    let how = format!(
        "If {meant} was meant to change, regenerate with\n\
         \x20   UPDATE_GOLDEN=1 cargo test --profile ci --test suite {test}::\n\
         review `git diff {name}` and commit it, saying in the commit what changed and why.\n\
         If not, this is a determinism or behaviour regression: find it.\n"
    );
    let expected =
        expected.unwrap_or_else(|e| panic!("\n{what}: cannot read {name} ({e}).\n{how}"));
    if let Some(difference) = first_difference(&expected, actual) {
        panic!("\n{what} changed: {name}, {difference}\n{how}");
    }
}

/// Where `expected` and `actual` first differ, as a message: the line number, the lines
/// enclosing it (each line above it with less indentation: for a pretty-printed JSON file
/// its keys, for an outcome file its shot), both versions of the line, and how many lines
/// differ in all. `None` when the texts are equal.
pub fn first_difference(expected: &str, actual: &str) -> Option<String> {
    if expected == actual {
        return None;
    }
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let Some(i) = (0..e.len().max(a.len())).find(|&i| e.get(i) != a.get(i)) else {
        // Only the final newline differs.
        return Some(format!(
            "the last line ends with{} a newline, expected with{}",
            if actual.ends_with('\n') { "" } else { "out" },
            if expected.ends_with('\n') { "" } else { "out" },
        ));
    };
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut within = Vec::new();
    let mut depth = e.get(i).or(a.get(i)).map_or(0, |l| indent(l));
    for l in e[..i.min(e.len())].iter().rev() {
        if depth == 0 {
            break;
        }
        if !l.trim().is_empty() && indent(l) < depth {
            depth = indent(l);
            within.push(format!("\n  within:   {}", l.trim_end()));
        }
    }
    within.reverse();
    let (expected_line, actual_line) = (e.get(i).copied(), a.get(i).copied());
    let differing = (0..e.len().max(a.len()))
        .filter(|&k| e.get(k) != a.get(k))
        .count();
    Some(format!(
        "line {}:{}{}\n({differing} of {} lines differ, compared line for line; the file has \
         {} lines, the output {})",
        i + 1,
        within.concat(),
        both_lines(expected_line, actual_line),
        e.len().max(a.len()),
        e.len(),
        a.len(),
    ))
}

/// The expected and the actual line, labelled; a long line cut to a window around its
/// first differing column, which is named.
fn both_lines(expected: Option<&str>, actual: Option<&str>) -> String {
    const WIDE: usize = 120;
    let (Some(e), Some(a)) = (expected, actual) else {
        let show = |l: Option<&str>| l.unwrap_or("(end of file)").to_string();
        return format!(
            "\n  expected: {}\n  actual:   {}",
            show(expected),
            show(actual)
        );
    };
    if e.len().max(a.len()) <= WIDE {
        return format!("\n  expected: {e}\n  actual:   {a}");
    }
    let column = e
        .char_indices()
        .zip(a.chars())
        .find(|((_, x), y)| x != y)
        .map_or(e.len().min(a.len()), |((k, _), _)| k);
    let window = |l: &str| {
        let from = l.floor_char_boundary(column.saturating_sub(40));
        let to = l.ceil_char_boundary((column + 60).min(l.len()));
        format!(
            "{}{}{}",
            if from > 0 { "..." } else { "" },
            &l[from..to],
            if to < l.len() { "..." } else { "" }
        )
    };
    format!(
        " (column {}, shown around it)\n  expected: {}\n  actual:   {}",
        column + 1,
        window(e),
        window(a)
    )
}

#[test]
fn the_first_difference_names_its_line_and_what_encloses_it() {
    let expected = "{\n  \"a\": {\n    \"b\": 1,\n    \"c\": 2\n  }\n}\n";
    let actual = "{\n  \"a\": {\n    \"b\": 1,\n    \"c\": 3\n  }\n}\n";
    assert_eq!(first_difference(expected, expected), None);
    let d = first_difference(expected, actual).unwrap();
    assert!(
        d.starts_with("line 4:\n  within:   {\n  within:     \"a\": {\n"),
        "{d}"
    );
    assert!(
        d.contains("  expected:     \"c\": 2\n  actual:       \"c\": 3\n"),
        "{d}"
    );
    assert!(d.contains("(1 of 6 lines differ"), "{d}");
    let long = |c: &str| format!("{}{c}{}\n", "x".repeat(200), "y".repeat(200));
    let d = first_difference(&long("a"), &long("b")).unwrap();
    assert!(
        d.starts_with("line 1: (column 201, shown around it)\n"),
        "{d}"
    );
    assert!(
        d.contains(&format!(
            "expected: ...{}a{}...",
            "x".repeat(40),
            "y".repeat(59)
        )),
        "{d}"
    );
    let d = first_difference("x\ny\n", "x\n").unwrap();
    assert!(d.contains("expected: y\n  actual:   (end of file)"), "{d}");
    let d = first_difference("x\n", "x").unwrap();
    assert!(d.contains("without a newline"), "{d}");
}
