//! The file checker of `layering.rs` tested on synthetic sources: it finds the import
//! cycles it should, through re-exports and aliases, and passes what it should, so a
//! broken checker cannot pass silently.

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
fn an_import_through_a_reexport_is_followed() {
    // `crate::io::X` is defined in io/inner.rs, which uses rules: a cycle through the
    // re-export, naming the import as written.
    let v = check(&[
        ("src/lib.rs", "pub mod rules;\npub mod io;\n"),
        (
            "src/rules/mod.rs",
            "fn f() { let _ = crate::io::X; }\npub const R: u8 = 0;\n",
        ),
        ("src/io/mod.rs", "mod inner;\npub use inner::X;\n"),
        (
            "src/io/inner.rs",
            "use crate::rules::R;\npub const X: u8 = R;\n",
        ),
    ]);
    assert_eq!(v.len(), 1, "{v:?}");
    assert!(v[0].contains("src/rules/mod.rs:1: `io::X`"), "{v:?}");
    assert!(v[0].contains("src/io/inner.rs"), "{v:?}");
}

#[test]
fn a_reexport_under_an_alias_is_followed() {
    let v = check(&[
        ("src/lib.rs", "pub mod rules;\npub mod io;\n"),
        (
            "src/rules/mod.rs",
            "use crate::io::Y;\npub const R: u8 = 0;\n",
        ),
        ("src/io/mod.rs", "mod inner;\npub use inner::{X as Y};\n"),
        (
            "src/io/inner.rs",
            "use crate::rules::R;\npub const X: u8 = R;\n",
        ),
    ]);
    assert_eq!(v.len(), 1, "{v:?}");
    assert!(v[0].contains("src/rules/mod.rs:1: `io::Y`"), "{v:?}");
}

#[test]
fn paths_into_other_crates_are_not_imports_of_this_one() {
    let v = check(&[
        ("src/lib.rs", "pub mod a;\npub mod b;\n"),
        (
            "src/a.rs",
            "use crokinole_core::b::X;\npub const A: u8 = 0;\n",
        ),
        ("src/b.rs", "use crate::a::A;\npub const X: u8 = A;\n"),
    ]);
    assert!(v.is_empty(), "{v:?}");
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
fn strings_and_lifetimes_do_not_confuse_the_comment_stripper() {
    let src = "let url = \"http://x\"; // crate::io\nfn f<'a>(c: char) -> bool { c == '/' }\n/* crate::io */ let s = r#\"//\"#;";
    let s = strip_comments(src);
    assert!(s.contains("\"http://x\""));
    assert!(!s.contains("crate::io"));
    assert!(s.contains("'/'"));
    assert!(s.contains("r#\"//\"#"));
    assert_eq!(s.lines().count(), src.lines().count());
}
