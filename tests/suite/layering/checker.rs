//! The layering checker tested on synthetic sources: each rule of `layering.rs` refuses
//! what it should and passes what it should, so a broken checker cannot pass silently.

use super::*;

fn check(files: &[(&str, &str)]) -> Vec<String> {
    Crate::new(
        files
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect(),
    )
    .violations()
}

#[test]
fn a_clean_crate_passes() {
    let v = check(&[
        (
            "src/lib.rs",
            "pub mod board;\npub mod rules;\npub use board::Board;\n",
        ),
        ("src/board.rs", "pub struct Board;\n"),
        (
            "src/rules/mod.rs",
            "mod seat;\npub use seat::team_of_seat;\n",
        ),
        (
            "src/rules/seat.rs",
            "use crate::Board; // crate::io::x in a comment is not an import\n\
             pub fn team_of_seat(_: &Board) -> u8 { 0 }\n\
             #[cfg(test)] mod tests { use super::*; }\n",
        ),
    ]);
    assert!(v.is_empty(), "{v:?}");
}

#[test]
fn an_upward_import_fails_with_file_line_and_path() {
    let v = check(&[
        ("src/lib.rs", "pub mod board;\npub mod io;\n"),
        (
            "src/board.rs",
            "pub struct Board;\n\nuse crate::io::{write, read as r};\n",
        ),
        ("src/io/mod.rs", "pub fn write() {}\npub fn read() {}\n"),
    ]);
    assert_eq!(v.len(), 2, "{v:?}");
    assert!(
        v[0].starts_with("src/board.rs:3: `io::write` is in layer 3 (json)"),
        "{v:?}"
    );
    assert!(v[1].starts_with("src/board.rs:3: `io::read`"), "{v:?}");
}

#[test]
fn only_the_binary_may_use_the_server() {
    let v = check(&[
        ("src/lib.rs", "pub mod io;\npub mod serve;\n"),
        ("src/io/mod.rs", "use crate::serve::route;\n"),
        ("src/serve/mod.rs", "use crate::io::x;\npub fn route() {}\n"),
        ("src/cli/main.rs", "use crokinole::serve::route;\n"),
    ]);
    assert_eq!(v.len(), 2, "{v:?}");
    assert!(
        v[0].starts_with("src/io/mod.rs:1: `serve::route` is in layer 6 (serve)"),
        "{v:?}"
    );
    assert!(v[1].starts_with("import cycle"), "{v:?}");
}

#[test]
fn an_import_through_a_reexport_is_followed() {
    // `crate::io::X` is defined in json/inner.rs: the violation names that import.
    let v = check(&[
        ("src/lib.rs", "pub mod rules;\npub mod io;\n"),
        ("src/rules/mod.rs", "fn f() { let _ = crate::io::X; }\n"),
        ("src/io/mod.rs", "mod inner;\npub use inner::X;\n"),
        ("src/io/inner.rs", "pub const X: u8 = 1;\n"),
    ]);
    assert_eq!(v.len(), 1, "{v:?}");
    assert!(v[0].contains("src/rules/mod.rs:1: `io::X`"), "{v:?}");
}

#[test]
fn a_reexport_under_an_alias_is_followed() {
    let v = check(&[
        ("src/lib.rs", "pub mod rules;\npub mod io;\n"),
        ("src/rules/mod.rs", "use crate::io::Y;\n"),
        ("src/io/mod.rs", "mod inner;\npub use inner::{X as Y};\n"),
        ("src/io/inner.rs", "pub const X: u8 = 1;\n"),
    ]);
    assert_eq!(v.len(), 1, "{v:?}");
    assert!(v[0].starts_with("src/rules/mod.rs:1: `io::Y`"), "{v:?}");
}

#[test]
fn a_cycle_fails_naming_both_imports() {
    // Two modules of one layer whose order is free (an ordered layer would also fail
    // on the later module's import).
    let v = check(&[
        ("src/lib.rs", "pub mod io;\npub mod render;\n"),
        (
            "src/io/mod.rs",
            "use crate::render::draw;\npub fn parse() {}\n",
        ),
        (
            "src/render/mod.rs",
            "\n\nuse super::io::parse;\npub fn draw() {}\n",
        ),
    ]);
    assert_eq!(v.len(), 1, "{v:?}");
    assert!(v[0].starts_with("import cycle between src/io/mod.rs, src/render/mod.rs"));
    assert!(v[0].contains("src/io/mod.rs:1: `render::draw`"), "{v:?}");
    assert!(v[0].contains("src/render/mod.rs:3: `io::parse`"), "{v:?}");
}

#[test]
fn a_mod_rs_whose_children_use_its_items_is_a_cycle() {
    let v = check(&[
        ("src/lib.rs", "pub mod rules;\n"),
        (
            "src/rules/mod.rs",
            "mod game;\npub use game::Game;\npub fn seats() {}\n",
        ),
        ("src/rules/game.rs", "use super::seats;\npub struct Game;\n"),
    ]);
    assert_eq!(v.len(), 1, "{v:?}");
    assert!(v[0].contains("import cycle"), "{v:?}");
}

#[test]
fn serde_below_the_json_layer_fails() {
    let v = check(&[
        ("src/lib.rs", "pub mod rules;\npub mod io;\n"),
        (
            "src/rules/mod.rs",
            "// serde in a comment is fine\n#[derive(Clone, serde::Serialize)]\npub struct Verdict;\n",
        ),
        ("src/io/mod.rs", "use serde::Serialize;\n"),
    ]);
    assert_eq!(v.len(), 1, "{v:?}");
    assert!(
        v[0].starts_with("src/rules/mod.rs:2: `serde` below the JSON layer"),
        "{v:?}"
    );
}

#[test]
fn strings_and_lifetimes_do_not_confuse_the_comment_stripper() {
    let src = "let url = \"http://x\"; // crate::io\nfn f<'a>(c: char) -> bool { c == '/' }\n/* crate::io */ let s = r#\"//\"#;";
    let s = strip_comments(src);
    assert!(s.contains("\"http://x\""));
    assert!(!s.contains("crate::io"));
    assert!(s.contains("'/'"));
    assert!(s.contains("r#\"//\"#"));
    assert_eq!(s.lines().count(), src.lines().count());
}

#[test]
fn an_unmapped_file_fails() {
    let v = check(&[("src/lib.rs", "pub mod misc;\n"), ("src/misc.rs", "\n")]);
    assert_eq!(
        v,
        ["src/misc.rs: not in the layer table of tests/suite/layering.rs (LAYERS)"]
    );
}

/// Inside the model layer: `montecarlo` uses neither `plan` nor `play`, `plan` does
/// not use `play`; the other way round is fine.
#[test]
fn the_model_layer_is_used_in_order() {
    let v = check(&[
        (
            "src/lib.rs",
            "pub mod montecarlo;\npub mod plan;\npub mod play;\n",
        ),
        (
            "src/montecarlo/mod.rs",
            "use crate::plan::suggest;\nfn f() { crate::play::Game; }\n",
        ),
        (
            "src/plan/mod.rs",
            "\nuse crate::play::Game;\npub fn suggest() {}\n",
        ),
        ("src/play/mod.rs", "pub struct Game;\n"),
    ]);
    assert_eq!(
        v,
        [
            "src/montecarlo/mod.rs:1: `plan::suggest` is in `plan`, after this file's \
             `montecarlo` in the model layer (montecarlo -> fit -> plan -> play)",
            "src/montecarlo/mod.rs:2: `play::Game` is in `play`, after this file's \
             `montecarlo` in the model layer (montecarlo -> fit -> plan -> play)",
            "src/plan/mod.rs:2: `play::Game` is in `play`, after this file's `plan` in \
             the model layer (montecarlo -> fit -> plan -> play)",
        ]
    );
    let v = check(&[
        (
            "src/lib.rs",
            "pub mod montecarlo;\npub mod plan;\npub mod play;\n",
        ),
        ("src/montecarlo/mod.rs", "pub struct Noise;\n"),
        (
            "src/plan/mod.rs",
            "use crate::montecarlo::Noise;\npub fn suggest() {}\n",
        ),
        (
            "src/play/mod.rs",
            "use crate::plan::suggest;\nuse crate::montecarlo::Noise;\n",
        ),
    ]);
    assert!(v.is_empty(), "{v:?}");
}

/// Every module of the table exists, as a file or a folder; one that does not (moved,
/// renamed, gone) fails, and so does one listed twice.
#[test]
fn a_module_the_table_lists_must_exist() {
    let all: Vec<String> = LAYERS
        .iter()
        .flat_map(|(_, groups)| groups.iter().copied().flatten())
        .map(|m| match *m {
            "step" => "src/step/mod.rs".to_string(),
            m => format!("src/{m}.rs"),
        })
        .collect();
    let paths: Vec<&str> = all.iter().map(String::as_str).collect();
    assert_eq!(table_problems(LAYERS, &paths), Vec::<String>::new());
    let without: Vec<&str> = paths
        .iter()
        .copied()
        .filter(|p| !p.starts_with("src/step/"))
        .chain(["src/steps/mod.rs"])
        .collect();
    assert_eq!(
        table_problems(LAYERS, &without),
        [
            "tests/suite/layering.rs: LAYERS lists `step` (layer core), but neither src/step.rs \
             nor src/step/ exists: drop it or move it to where it went"
        ]
    );
    let twice: &Table = &[("core", &[&["board"]]), ("cli", &[&["lib", "board"]])];
    assert_eq!(
        table_problems(twice, &["src/lib.rs", "src/board.rs"]),
        ["tests/suite/layering.rs: LAYERS lists `board` more than once"]
    );
}
