//! ARCHITECTURE.md's module map kept true: every source file of the workspace is placed
//! by a row of the map, and every path the map names exists.
//!
//! A row's first cell holds one or more paths in backticks: a file, or a folder (ending in
//! `/`) whose files the second cell names, each as `name.rs` (or `sub/` for a whole
//! subfolder). A folder's `lib.rs` or `mod.rs` is its row's own file and needs no naming.

use std::path::Path;

/// The map's rows: the paths of the first cell and the text of the second.
fn rows(map: &str) -> Vec<(Vec<String>, String)> {
    let start = map
        .find("## Module map")
        .expect("ARCHITECTURE.md has a module map");
    let section = &map[start..];
    let end = section[3..].find("\n## ").map_or(section.len(), |e| e + 3);
    section[..end]
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<&str> = l.split(" | ").collect();
            let paths = backticked(cells[0].trim_start_matches("| "));
            (paths, cells[1..].join(" | "))
        })
        .collect()
}

/// The backticked words of a text.
fn backticked(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The source files of the workspace (Rust, and the page's scripts, styles and HTML),
/// relative to the root, sorted.
fn sources(root: &Path) -> Vec<String> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, root, out);
            } else if p
                .extension()
                .is_some_and(|x| x == "rs" || x == "js" || x == "css" || x == "html")
            {
                out.push(
                    p.strip_prefix(root)
                        .unwrap()
                        .to_string_lossy()
                        .replace('\\', "/"),
                );
            }
        }
    }
    let mut out = vec![];
    walk(&root.join("src"), root, &mut out);
    for e in std::fs::read_dir(root.join("crates")).unwrap() {
        walk(&e.unwrap().path().join("src"), root, &mut out);
    }
    out.sort();
    out
}

/// The problems of a map against the files: a file no row places, a row's path that does
/// not exist, a file a folder row names that is not in the folder.
fn problems(rows: &[(Vec<String>, String)], files: &[String]) -> Vec<String> {
    let mut out = vec![];
    for f in files {
        let placed = rows.iter().any(|(paths, text)| {
            paths.iter().any(|p| {
                if p == f {
                    return true;
                }
                let Some(rel) = f.strip_prefix(p.as_str()).filter(|_| p.ends_with('/')) else {
                    return false;
                };
                let named = backticked(text);
                let base = rel.rsplit('/').next().unwrap();
                let first_dir = rel.split('/').next().unwrap();
                rel == "lib.rs"
                    || rel == "mod.rs"
                    || named.iter().any(|n| n == base || n == rel)
                    || (rel.contains('/') && named.iter().any(|n| *n == format!("{first_dir}/")))
            })
        });
        if !placed {
            out.push(format!(
                "{f}: no row of ARCHITECTURE.md's module map places it"
            ));
        }
    }
    for (paths, text) in rows {
        for p in paths.iter().filter(|p| !p.contains('*')) {
            let exists = files
                .iter()
                .any(|f| f == p || (p.ends_with('/') && f.starts_with(p.as_str())));
            if !exists {
                out.push(format!(
                    "ARCHITECTURE.md's module map names `{p}`, which does not exist"
                ));
                continue;
            }
            if p.ends_with('/') {
                for name in backticked(text).iter().filter(|n| {
                    n.ends_with(".rs")
                        || n.ends_with(".js")
                        || n.ends_with(".css")
                        || n.ends_with(".html")
                }) {
                    if name.starts_with("crates/") || name.starts_with("src/") {
                        if !files.contains(name) {
                            out.push(format!(
                                "ARCHITECTURE.md's module map names `{name}`, which does not exist"
                            ));
                        }
                        continue;
                    }
                    let inside = files.iter().any(|f| {
                        f.strip_prefix(p.as_str())
                            .is_some_and(|rel| rel == name || rel.ends_with(&format!("/{name}")))
                    });
                    if !inside {
                        out.push(format!(
                            "ARCHITECTURE.md's module map names `{name}` in `{p}`, which has no such file"
                        ));
                    }
                }
            }
        }
    }
    out
}

#[test]
fn every_source_file_is_on_the_map_and_every_mapped_file_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let map = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let rows = rows(&map);
    let files = sources(root);
    assert!(
        rows.len() > 20 && files.len() > 150,
        "{} rows, {} files",
        rows.len(),
        files.len()
    );
    let v = problems(&rows, &files);
    assert!(v.is_empty(), "{} problems:\n{}", v.len(), v.join("\n"));
}

#[test]
fn the_map_check_refuses_a_ghost_and_an_unplaced_file() {
    let rows = rows(
        "## Module map\n| path | purpose |\n|---|---|\n\
         | `crates/io/src/` | files (`a.rs`, `ghost.rs`), `sub/` |\n\
         | `src/lib.rs` | the facade |\n| `src/gone.rs` | gone |\n",
    );
    let files: Vec<String> = [
        "crates/io/src/lib.rs",
        "crates/io/src/a.rs",
        "crates/io/src/sub/x.rs",
        "crates/io/src/stray.rs",
        "src/lib.rs",
    ]
    .map(String::from)
    .to_vec();
    let v = problems(&rows, &files);
    assert_eq!(v.len(), 3, "{v:?}");
    assert!(v[0].starts_with("crates/io/src/stray.rs: no row"), "{v:?}");
    assert!(
        v.iter()
            .any(|p| p.contains("`ghost.rs` in `crates/io/src/`")),
        "{v:?}"
    );
    assert!(v.iter().any(|p| p.contains("names `src/gone.rs`")), "{v:?}");
}
