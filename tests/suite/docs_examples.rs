//! The docs' examples are what the commands print. Each entry names a doc, the command
//! whose output a code block shows, the text that introduces that block, and whether the
//! block is the whole output or a part of it. The block must read, line by line and in
//! order, as the output (or, for a part, as consecutive lines of it), brackets, indentation
//! and all; a line with `...` elides one or more lines of the output, the first starting
//! with the text before the `...` and the last ending with the text after the last `...`.
//! A change of model or format that moves a documented number or line fails here, naming
//! the first line that differs and the command that regenerates it.
//!
//! Symptoms this pins: docs/montecarlo.md's example summary could no longer be reproduced
//! from its fixture after the engine changed; docs/play.md's game log (seed 7) and
//! docs/shot-file.md's outcome file showed numbers of an older hole model; the test once
//! accepted the documented lines in any order and skipped the structural ones.

use crate::binary;

/// What a documented block shows of its command's output.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shows {
    /// All of it, from its first line to its last.
    Whole,
    /// Consecutive lines of it (one outcome of several, say).
    Part,
}

/// (doc, the sentence before the block, the command's arguments, what the block shows):
/// every documented command example that prints output. A new example in the docs goes
/// here too.
const EXAMPLES: &[(&str, &str, &[&str], Shows)] = &[
    (
        "docs/cmn.md",
        "written for these docs) prints",
        &["stats", "fixtures/cmn/club-night.json"],
        Shows::Whole,
    ),
    (
        "docs/tracks.md",
        "`crokinole fit fixtures/tracks/example.json` prints",
        &["fit", "fixtures/tracks/example.json"],
        Shows::Whole,
    ),
    (
        "docs/tracks.md",
        "--holdout 0.34 --seed 1` prints, in part:",
        &[
            "fit",
            "fixtures/tracks/example.json",
            "--holdout",
            "0.34",
            "--seed",
            "1",
        ],
        Shows::Part,
    ),
    (
        "docs/montecarlo.md",
        "`crokinole montecarlo fixtures/montecarlo/opening.json --samples 2000 --seed 1`",
        &[
            "montecarlo",
            "fixtures/montecarlo/opening.json",
            "--samples",
            "2000",
            "--seed",
            "1",
        ],
        Shows::Whole,
    ),
    (
        "docs/shot-file.md",
        "`crokinole simulate fixtures/example.json` prints",
        &["simulate", "fixtures/example.json"],
        Shows::Whole,
    ),
    (
        "docs/shot-file.md",
        "--rules` prints, for the second shot:",
        &["simulate", "fixtures/example.json", "--rules"],
        Shows::Part,
    ),
    (
        "docs/play.md",
        "`crokinole play --games 1 --seed 7` prints the log",
        &["play", "--games", "1", "--seed", "7"],
        Shows::Whole,
    ),
    (
        "docs/play.md",
        "(this one is `crokinole play --games 20 --seed 3 --ruleset tournament --strategies",
        &[
            "play",
            "--games",
            "20",
            "--seed",
            "3",
            "--ruleset",
            "tournament",
            "--strategies",
            "random:spin=0,greedy:k=16:spin=0",
        ],
        Shows::Whole,
    ),
];

/// The first fenced code block after `marker` in `text`, as lines.
fn block_after<'a>(text: &'a str, marker: &str) -> Vec<&'a str> {
    let at = text
        .find(marker)
        .unwrap_or_else(|| panic!("marker {marker:?} not found"));
    let rest = &text[at..];
    let open = rest.find("```").expect("a code block after the marker");
    let body = &rest[open..];
    let body = &body[body.find('\n').unwrap() + 1..];
    let close = body.find("```").expect("the block closes");
    body[..close].lines().collect()
}

/// An elided line (`...`): the text before its first `...` and after its last.
fn elision(line: &str) -> Option<(&str, &str)> {
    let first = line.find("...")?;
    let last = line.rfind("...").unwrap();
    Some((&line[..first], &line[last + 3..]))
}

/// Whether `block` reads as `out` (all of it with [`Shows::Whole`], a prefix of it with
/// [`Shows::Part`]). On failure, `deepest` holds the furthest (block line, output line)
/// any attempt reached.
fn reads_as(
    block: &[&str],
    out: &[&str],
    shows: Shows,
    at: (usize, usize),
    deepest: &mut (usize, usize),
) -> bool {
    *deepest = (*deepest).max(at);
    let Some((line, rest)) = block.split_first() else {
        return shows == Shows::Part || out.is_empty();
    };
    match elision(line) {
        Some((first, last)) => {
            !out.is_empty()
                && out[0].starts_with(first)
                && (1..=out.len()).any(|n| {
                    out[n - 1].ends_with(last)
                        && reads_as(rest, &out[n..], shows, (at.0 + 1, at.1 + n), deepest)
                })
        }
        None => {
            out.first() == Some(line)
                && reads_as(rest, &out[1..], shows, (at.0 + 1, at.1 + 1), deepest)
        }
    }
}

/// Where `block` first fails to read as `out`: `None` if it does; else the block's line
/// and the output's line (1-based, `None` past the end) at the furthest any reading got.
type Mismatch = (Option<usize>, Option<usize>);

fn mismatch(block: &[&str], out: &[&str], shows: Shows) -> Option<Mismatch> {
    let mut deepest = (0, 0);
    let starts = match shows {
        Shows::Whole => 0..1,
        Shows::Part => 0..out.len().max(1),
    };
    for start in starts {
        if reads_as(block, &out[start..], shows, (0, start), &mut deepest) {
            return None;
        }
    }
    let (b, o) = deepest;
    Some((
        (b < block.len()).then_some(b + 1),
        (o < out.len()).then_some(o + 1),
    ))
}

#[test]
fn documented_outputs_are_what_the_commands_print() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for &(doc, marker, args, shows) in EXAMPLES {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        let command = format!("crokinole {}", args.join(" "));
        let args: Vec<String> = args
            .iter()
            .map(|a| {
                if a.starts_with("fixtures/") {
                    root.join(a).to_str().unwrap().to_string()
                } else {
                    a.to_string()
                }
            })
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = binary::run(&args, None);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let out = String::from_utf8(run.stdout).unwrap();
        let out: Vec<&str> = out.lines().collect();
        let block = block_after(&text, marker);
        if let Some((b, o)) = mismatch(&block, &out, shows) {
            panic!(
                "{doc}: the example after {marker:?} is not what `{command}` prints \
                 (it shows {}).\n\
                 The example's line {}:\n  {}\nthe output's line {}:\n  {}\n\
                 Regenerate the example from that command.",
                match shows {
                    Shows::Whole => "the whole output",
                    Shows::Part => "consecutive lines of the output",
                },
                b.map_or("past the end".to_string(), |b| b.to_string()),
                b.map_or("(none)", |b| block[b - 1]),
                o.map_or("past the end".to_string(), |o| o.to_string()),
                o.map_or("(none)", |o| out[o - 1]),
            );
        }
    }
}

#[test]
fn examples_are_read_in_order_with_their_structure() {
    let out = ["{", "  \"a\": 1,", "  \"b\": [1, 2],", "  \"c\": 3", "}"];
    let ok = |block: &[&str], shows| mismatch(block, &out, shows).is_none();
    assert!(ok(&out, Shows::Whole));
    assert!(ok(&["{", "  \"a\": 1,", "  ...", "}"], Shows::Whole));
    assert!(ok(
        &["{", "  \"a\": 1,", "  \"b\": [...],", "  \"c\": 3", "}"],
        Shows::Whole
    ));
    assert!(ok(&["  \"b\": [1, 2],", "  \"c\": 3"], Shows::Part));
    // Out of order, a structural line missing or re-indented, an elision whose ends do not
    // fit, a part passed off as the whole, or a line past the output's end: each fails.
    assert_eq!(
        mismatch(
            &["{", "  \"b\": [1, 2],", "  \"a\": 1,", "  \"c\": 3", "}"],
            &out,
            Shows::Whole
        ),
        Some((Some(2), Some(2)))
    );
    assert_eq!(
        mismatch(
            &["{", "  \"a\": 1,", "  \"b\": [1, 2],", "  \"c\": 3"],
            &out,
            Shows::Whole
        ),
        Some((None, Some(5)))
    );
    assert!(!ok(&["{", "\"a\": 1,", "  ...", "}"], Shows::Whole));
    assert!(!ok(
        &["{", "  \"a\": 1,", "  \"b\": {...},", "  \"c\": 3", "}"],
        Shows::Whole
    ));
    assert!(!ok(&["  \"b\": [1, 2],", "  \"c\": 3"], Shows::Whole));
    assert_eq!(
        mismatch(&["  \"c\": 3", "}", "}"], &out, Shows::Part),
        Some((Some(3), None))
    );
}

#[test]
fn the_block_reader_finds_the_block_after_its_marker() {
    let text = "intro\n```sh\nfirst\n```\nthe marker here\n```json\n{\n  \"a\": 1\n}\n```\n";
    assert_eq!(
        block_after(text, "the marker"),
        vec!["{", "  \"a\": 1", "}"]
    );
}
