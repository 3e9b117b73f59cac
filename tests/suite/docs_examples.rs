//! The docs' examples are what the commands print. Each entry names a doc, the command
//! whose output a code block shows, and the text that introduces that block. Every line
//! of the block that is not elided (`...`) must appear, whole, in a line of the output, so
//! a change of model or format that moves a documented number fails here, with the
//! command that regenerates it.
//!
//! Symptoms this pins: docs/montecarlo.md's example summary could no longer be reproduced
//! from its fixture after the engine changed; docs/play.md's game log (seed 7) and
//! docs/shot-file.md's outcome file showed numbers of an older hole model.

use crate::binary;

/// (doc, the sentence before the block, the command's arguments): every documented
/// command example that prints output. A new example in the docs goes here too.
const EXAMPLES: &[(&str, &str, &[&str])] = &[
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
    ),
    (
        "docs/shot-file.md",
        "`crokinole simulate fixtures/example.json` prints",
        &["simulate", "fixtures/example.json"],
    ),
    (
        "docs/shot-file.md",
        "--rules` prints, for the second shot:",
        &["simulate", "fixtures/example.json", "--rules"],
    ),
    (
        "docs/play.md",
        "`crokinole play --games 1 --seed 7` prints the log",
        &["play", "--games", "1", "--seed", "7"],
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

#[test]
fn documented_outputs_are_what_the_commands_print() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for &(doc, marker, args) in EXAMPLES {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
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
        for line in block_after(&text, marker) {
            let line = line.trim();
            if line.is_empty() || line.contains("...") {
                continue;
            }
            assert!(
                out.lines().any(|l| l.trim() == line),
                "{doc}: the example line\n  {line}\nis not in the output of `crokinole {}`; \
                 regenerate the example from that command",
                args.join(" ")
            );
        }
    }
}

#[test]
fn the_block_reader_finds_the_block_after_its_marker() {
    let text = "intro\n```sh\nfirst\n```\nthe marker here\n```json\n{\n  \"a\": 1\n}\n```\n";
    assert_eq!(
        block_after(text, "the marker"),
        vec!["{", "  \"a\": 1", "}"]
    );
}
