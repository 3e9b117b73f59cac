//! The layering of ARCHITECTURE.md, as far as the compiler does not already keep it.
//!
//! Each layer is a crate (`crates/NAME`, the command line at the top), so an import of a
//! higher layer does not compile. What the crate graph cannot say is checked here:
//!
//! - the crates' order: each crate's manifest names only crates of lower layers (or of
//!   earlier groups of its own layer), as the table [`CRATES`] (ARCHITECTURE.md's
//!   "Layers") lists them; every crate folder is in the table and every crate of the table
//!   exists, so it cannot go stale;
//! - the outside crates each layer may use ([`OUTSIDE`]): the core on glam and rayon
//!   alone, serde from the io layer up, hyper and tokio only in the server, clap,
//!   indicatif and signal-hook only in the command line; and the Python extension, whose
//!   whole tree of path dependencies carries none of the server's or the command line's;
//! - no two files of one crate import each other, directly or through others.
//!
//! An import is any `crate::`, `super::`, `self::` path, or a path that starts with a child
//! module's name (in code and in string literals such as serde's `with = "..."`, not in
//! comments). Paths through a module's `pub use` are followed to the file that defines the
//! item. A `mod x;` declaration is not an import. The file checker is tested on synthetic
//! sources (`layering/checker.rs`), so a broken checker cannot pass silently.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers, lowest first: a row per layer, its name and its groups of crates (the
/// folder names under `crates/`; `.` is the root package, the command line). A crate may
/// depend on the crates of lower layers and of earlier groups of its own layer.
const CRATES: &[(&str, &[&[&str]])] = &[
    ("core", &[&["core"]]),
    ("table", &[&["rules"]]),
    ("model", &[&["montecarlo"], &["fit"], &["plan"], &["play"]]),
    ("json", &[&["io"], &["render"]]),
    ("jobs", &[&["jobs"]]),
    ("referee", &[&["referee"]]),
    ("serve", &[&["serve"]]),
    ("cli", &[&["."]]),
];

/// The outside crates and the lowest layer that may use each (it and every layer above).
/// A crate not listed may be used anywhere from the json layer up.
const OUTSIDE: &[(&str, &str)] = &[
    ("glam", "core"),
    ("rayon", "core"),
    ("rand_chacha", "model"),
    ("serde", "json"),
    ("serde_json", "json"),
    ("serde_path_to_error", "json"),
    ("libc", "json"),
    ("sha2", "referee"),
    ("hyper", "serve"),
    ("hyper-util", "serve"),
    ("http-body-util", "serve"),
    ("tokio", "serve"),
    ("clap", "cli"),
    ("indicatif", "cli"),
    ("signal-hook", "cli"),
];

/// What the Python extension must not carry, directly or through the crates it uses.
const NOT_IN_PYTHON: &[&str] = &[
    "clap",
    "tokio",
    "hyper",
    "hyper-util",
    "indicatif",
    "signal-hook",
];

/// Where a crate sits: its layer and its group in the layer.
fn place(folder: &str) -> Option<(usize, usize)> {
    CRATES.iter().enumerate().find_map(|(layer, (_, groups))| {
        groups
            .iter()
            .position(|g| g.contains(&folder))
            .map(|group| (layer, group))
    })
}

fn layer_named(name: &str) -> usize {
    CRATES
        .iter()
        .position(|(n, _)| *n == name)
        .expect("a layer of CRATES")
}

/// A manifest's `[dependencies]`: each dependency's name and, for a crate of the
/// workspace, its folder (from `path = "../NAME"` or `path = "crates/NAME"`).
fn dependencies(manifest: &str) -> Vec<(String, Option<String>)> {
    let mut out = vec![];
    let mut inside = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == "[dependencies]";
            continue;
        }
        if !inside || line.is_empty() || line.starts_with('#') {
            continue;
        }
        let name = line
            .split(|c: char| c == '=' || c == '.' || c.is_whitespace())
            .next()
            .unwrap()
            .to_string();
        let folder = line.split("path = \"").nth(1).map(|rest| {
            let path = rest.split('"').next().unwrap();
            path.rsplit('/').next().unwrap().to_string()
        });
        out.push((name, folder));
    }
    out
}

/// The workspace's crates: folder name (`.` for the root) and manifest text.
fn manifests(root: &Path) -> Vec<(String, String)> {
    let mut out = vec![(
        ".".to_string(),
        std::fs::read_to_string(root.join("Cargo.toml")).unwrap(),
    )];
    let mut dirs: Vec<_> = std::fs::read_dir(root.join("crates"))
        .expect("crates/ is readable")
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    for d in dirs {
        let name = d.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(d.join("Cargo.toml"))
            .unwrap_or_else(|_| panic!("crates/{name}/Cargo.toml"));
        out.push((name, text));
    }
    out
}

/// The problems of the crate graph: a crate not in [`CRATES`] or listed there but
/// missing, a dependency on a crate of a higher layer or a later group, an outside crate
/// below the layer [`OUTSIDE`] allows it in.
fn graph_problems(crates: &[(String, String)]) -> Vec<String> {
    let mut out = vec![];
    for (_, groups) in CRATES {
        for folder in groups.iter().copied().flatten() {
            if !crates.iter().any(|(c, _)| c == folder) {
                out.push(format!(
                    "tests/suite/layering.rs: CRATES lists `{folder}`, but crates/{folder} does not exist"
                ));
            }
        }
    }
    for (folder, manifest) in crates {
        let Some((layer, group)) = place(folder) else {
            out.push(format!(
                "crates/{folder}: not in the layer table of tests/suite/layering.rs (CRATES)"
            ));
            continue;
        };
        for (name, path) in dependencies(manifest) {
            if let Some(dep) = path {
                let Some((l, g)) = place(&dep) else {
                    continue;
                };
                if l > layer || (l == layer && g >= group && dep != *folder) {
                    out.push(format!(
                        "crates/{folder}/Cargo.toml: `{name}` is in layer {l} ({}), not below \
                         this crate's layer {layer} ({})",
                        CRATES[l].0, CRATES[layer].0
                    ));
                }
            } else {
                let lowest = OUTSIDE
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map_or(layer_named("json"), |(_, l)| layer_named(l));
                if layer < lowest {
                    out.push(format!(
                        "crates/{folder}/Cargo.toml: `{name}` below its lowest layer ({}): \
                         this crate is in layer {layer} ({})",
                        CRATES[lowest].0, CRATES[layer].0
                    ));
                }
            }
        }
    }
    out
}

#[test]
fn the_crates_follow_the_layers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let crates = manifests(root);
    assert!(crates.len() >= 10, "found the crates: {}", crates.len());
    let v = graph_problems(&crates);
    assert!(
        v.is_empty(),
        "{} layering violations:\n{}",
        v.len(),
        v.join("\n")
    );
}

#[test]
fn the_python_extension_carries_no_server_or_command_line() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let crates = manifests(root);
    let python = std::fs::read_to_string(root.join("python/Cargo.toml")).unwrap();
    let mut seen = BTreeSet::new();
    let mut todo = dependencies(&python);
    let mut outside = BTreeSet::new();
    while let Some((name, path)) = todo.pop() {
        match path {
            Some(folder) if folder == ".." || folder == "." => {
                panic!("the Python extension depends on the root package (the command line)")
            }
            Some(folder) => {
                if seen.insert(folder.clone()) {
                    let (_, m) = crates
                        .iter()
                        .find(|(c, _)| *c == folder)
                        .unwrap_or_else(|| panic!("crates/{folder}"));
                    todo.extend(dependencies(m));
                }
            }
            None => {
                outside.insert(name);
            }
        }
    }
    assert!(seen.contains("jobs") && seen.contains("core"), "{seen:?}");
    for banned in NOT_IN_PYTHON {
        assert!(
            !outside.contains(*banned),
            "the Python extension reaches `{banned}` through {seen:?}"
        );
    }
    assert!(
        !seen.contains("serve") && !seen.contains("referee"),
        "{seen:?}"
    );
}

#[test]
fn the_table_and_the_checks_refuse_what_they_should() {
    let ok = |folder: &str, deps: &str| {
        (
            folder.to_string(),
            format!("[package]\n\n[dependencies]\n{deps}"),
        )
    };
    let clean = vec![
        ok("core", "glam.workspace = true\n"),
        ok("rules", "crokinole-core = { path = \"../core\" }\n"),
    ];
    let v = graph_problems(&clean);
    assert!(v.iter().all(|p| p.contains("does not exist")), "{v:?}");
    let upward = vec![ok("core", "crokinole-rules = { path = \"../rules\" }\n")];
    assert!(
        graph_problems(&upward)
            .iter()
            .any(|p| p.contains("`crokinole-rules` is in layer 1 (table)"))
    );
    let serde_low = vec![ok("rules", "serde.workspace = true\n")];
    assert!(
        graph_problems(&serde_low)
            .iter()
            .any(|p| p.contains("`serde` below its lowest layer (json)"))
    );
    let order = vec![ok(
        "montecarlo",
        "crokinole-play = { path = \"../play\" }\n",
    )];
    assert!(
        graph_problems(&order)
            .iter()
            .any(|p| p.contains("`crokinole-play` is in layer 2 (model)"))
    );
    let stray = vec![ok("extra", "")];
    assert!(
        graph_problems(&stray)
            .iter()
            .any(|p| p.contains("crates/extra: not in the layer table"))
    );
}

/// One source file: its path (`src/...`), module path and text.
struct File {
    path: String,
    module: Vec<String>,
    text: String,
}

/// One import found in a file.
#[derive(Debug)]
struct Import {
    line: usize,
    /// The path as written, normalised to `a::b::c`.
    written: String,
    /// The absolute module path it names (from the crate root).
    absolute: Vec<String>,
}

/// The module path of a file under `src/`: `src/a/b.rs` is `a::b`, `src/a/mod.rs` is `a`,
/// `src/lib.rs` is the root, `src/cli/x.rs` is `cli::x` (the binary crate, in its folder).
fn module_of(path: &str) -> Vec<String> {
    let rel = path.strip_prefix("src/").expect("a path under src/");
    let rel = rel.strip_suffix(".rs").expect("a .rs file");
    let mut parts: Vec<String> = rel.split('/').map(str::to_string).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// The text with every comment blanked out (newlines kept, so line numbers hold). String
/// and character literals are kept as they are.
fn strip_comments(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let blank = |c: u8| if c == b'\n' { b'\n' } else { b' ' };
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                out.push(b' ');
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    out.extend([b' ', b' ']);
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    out.extend([b' ', b' ']);
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
        } else if c == b'r'
            && matches!(b.get(i + 1), Some(b'"') | Some(b'#'))
            && !ident_before(b, i)
        {
            // A raw string: r"...", r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == b'"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&b'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.extend_from_slice(&b[i..j.min(b.len())]);
            i = j;
        } else if c == b'"' {
            out.push(c);
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    out.push(b[i]);
                    i += 1;
                }
                if i < b.len() {
                    out.push(b[i]);
                    i += 1;
                }
            }
            if i < b.len() {
                out.push(b'"');
                i += 1;
            }
        } else if c == b'\'' {
            // A character literal ('x', '\n', '\u{..}') or a lifetime ('a).
            let end = if b.get(i + 1) == Some(&b'\\') {
                (i + 2..b.len()).find(|&k| b[k] == b'\'')
            } else {
                // One character (possibly multi-byte) then a quote.
                let ch_len = src[i + 1..].chars().next().map_or(1, char::len_utf8);
                (b.get(i + 1 + ch_len) == Some(&b'\'')).then_some(i + 1 + ch_len)
            };
            match end {
                Some(e) => {
                    out.extend_from_slice(&b[i..=e]);
                    i = e + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    String::from_utf8(out).expect("blanking keeps UTF-8 (multi-byte chars only in kept text)")
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn ident_before(b: &[u8], i: usize) -> bool {
    i > 0 && is_ident(b[i - 1])
}

/// A token of the (comment-free) text: an identifier, `::`, or one punctuation byte.
#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Path,
    Punct(u8),
}

fn tokens(text: &str) -> Vec<(Tok, usize)> {
    let b = text.as_bytes();
    let mut out = vec![];
    let (mut i, mut line) = (0, 1);
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if is_ident(c) {
            let start = i;
            while i < b.len() && is_ident(b[i]) {
                i += 1;
            }
            out.push((Tok::Ident(text[start..i].to_string()), line));
        } else if c == b':' && b.get(i + 1) == Some(&b':') {
            out.push((Tok::Path, line));
            i += 2;
        } else if c == b'"' {
            // Tokenise inside strings too (serde's `with = "crate::..."`): only the quote
            // itself is dropped.
            i += 1;
        } else {
            out.push((Tok::Punct(c), line));
            i += 1;
        }
    }
    out
}

/// A path and the alias it is imported as (`a::B as C`), if any.
type Leaf = (Vec<String>, Option<String>);

/// Expands the use-tree or path starting at `toks[k]` (an identifier followed by `::`)
/// into its leaf paths; returns them and the index after the tree.
fn expand(toks: &[(Tok, usize)], mut k: usize, prefix: Vec<String>) -> (Vec<Leaf>, usize) {
    let mut path = prefix;
    loop {
        match toks.get(k) {
            Some((Tok::Ident(name), _)) if name != "as" => {
                path.push(name.clone());
                k += 1;
                if toks.get(k).map(|t| &t.0) == Some(&Tok::Path) {
                    k += 1;
                    continue;
                }
                if let (Some((Tok::Ident(a), _)), Some((Tok::Ident(alias), _))) =
                    (toks.get(k), toks.get(k + 1))
                    && a == "as"
                {
                    return (vec![(path, Some(alias.clone()))], k + 2);
                }
                return (vec![(path, None)], k);
            }
            Some((Tok::Punct(b'{'), _)) => {
                k += 1;
                let mut all = vec![];
                loop {
                    match toks.get(k) {
                        None => return (all, k),
                        Some((Tok::Punct(b'}'), _)) => return (all, k + 1),
                        Some((Tok::Punct(b','), _)) => k += 1,
                        Some((Tok::Ident(a), _)) if a == "as" => k += 2,
                        Some((Tok::Ident(_), _)) | Some((Tok::Punct(b'{'), _)) => {
                            let (leaves, next) = expand(toks, k, path.clone());
                            all.extend(leaves);
                            k = next;
                        }
                        Some(_) => k += 1,
                    }
                }
            }
            _ => return (vec![(path, None)], k),
        }
    }
}

/// Every import of a file, as absolute module paths, and the names its `pub use` items
/// export (name -> absolute path).
fn imports(
    file: &File,
    children: &BTreeSet<String>,
) -> (Vec<Import>, BTreeMap<String, Vec<String>>) {
    let text = strip_comments(&file.text);
    let toks = tokens(&text);
    let mut found = vec![];
    let mut exports = BTreeMap::new();
    // Inline modules (`mod tests { .. }`): their names, and the brace depth they close at.
    let mut inline: Vec<(String, usize)> = vec![];
    let mut depth = 0usize;
    let mut k = 0;
    while k < toks.len() {
        let (tok, line) = &toks[k];
        match tok {
            Tok::Punct(b'{') => {
                depth += 1;
                k += 1;
                continue;
            }
            Tok::Punct(b'}') => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|&(_, d)| d == depth) {
                    inline.pop();
                }
                k += 1;
                continue;
            }
            Tok::Ident(m) if m == "mod" => {
                if let (Some((Tok::Ident(name), _)), Some((Tok::Punct(b'{'), _))) =
                    (toks.get(k + 1), toks.get(k + 2))
                {
                    inline.push((name.clone(), depth));
                }
                k += 1;
                continue;
            }
            _ => {}
        }
        let starts_path = matches!(tok, Tok::Ident(_))
            && toks.get(k + 1).map(|t| &t.0) == Some(&Tok::Path)
            && (k == 0 || toks[k - 1].0 != Tok::Path);
        let Tok::Ident(first) = tok else {
            k += 1;
            continue;
        };
        if !starts_path {
            k += 1;
            continue;
        }
        let mut current = file.module.clone();
        current.extend(inline.iter().map(|(n, _)| n.clone()));
        let (base, skip): (Vec<String>, usize) = match first.as_str() {
            "crate" | "crokinole" => (vec![], 2),
            "self" => (current.clone(), 2),
            "super" => {
                let mut base = current.clone();
                let mut j = k;
                while matches!(&toks.get(j).map(|t| &t.0), Some(Tok::Ident(s)) if s == "super")
                    && toks.get(j + 1).map(|t| &t.0) == Some(&Tok::Path)
                {
                    base.pop();
                    j += 2;
                }
                (base, j - k)
            }
            // A child of the file's own module, named directly (`pub use study::Study`).
            name if inline.is_empty() && children.contains(name) => (file.module.clone(), 0),
            _ => {
                k += 1;
                continue;
            }
        };
        let is_pub_use = k >= 2
            && toks[k - 1].0 == Tok::Ident("use".into())
            && matches!(&toks[k - 2].0, Tok::Ident(p) if p == "pub")
            || k >= 5
                && toks[k - 1].0 == Tok::Ident("use".into())
                && toks[k - 2].0 == Tok::Punct(b')')
                && matches!(&toks[k - 5].0, Tok::Ident(p) if p == "pub");
        let (leaves, next) = expand(&toks, k + skip, base);
        for (leaf, alias) in leaves {
            let written = leaf.join("::");
            // A re-export is known by its alias if it has one (`pub use a::B as C`).
            if is_pub_use
                && inline.is_empty()
                && let Some(name) = alias.as_ref().or(leaf.last())
            {
                exports.insert(name.clone(), leaf.clone());
            }
            found.push(Import {
                line: *line,
                written,
                absolute: leaf,
            });
        }
        k = next.max(k + 1);
    }
    (found, exports)
}

/// All files, their imports resolved to files, and the checks.
struct Crate {
    files: Vec<File>,
    /// Module path -> index in `files`.
    by_module: BTreeMap<Vec<String>, usize>,
    exports: Vec<BTreeMap<String, Vec<String>>>,
    imports: Vec<Vec<Import>>,
}

impl Crate {
    fn new(sources: Vec<(String, String)>) -> Crate {
        let files: Vec<File> = sources
            .into_iter()
            .map(|(path, text)| File {
                module: module_of(&path),
                path,
                text,
            })
            .collect();
        let by_module: BTreeMap<Vec<String>, usize> = files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.module.clone(), i))
            .collect();
        let mut exports = vec![];
        let mut all_imports = vec![];
        for f in &files {
            let children: BTreeSet<String> = by_module
                .keys()
                .filter(|m| m.len() == f.module.len() + 1 && m.starts_with(&f.module))
                .map(|m| m.last().unwrap().clone())
                .collect();
            let (found, ex) = imports(f, &children);
            all_imports.push(found);
            exports.push(ex);
        }
        Crate {
            files,
            by_module,
            exports,
            imports: all_imports,
        }
    }

    /// The file that defines what an absolute path names: modules are walked down, and a
    /// `pub use` re-export is followed to its source.
    fn resolve(&self, path: &[String], hops: usize) -> Option<usize> {
        let mut at = *self.by_module.get(&Vec::<String>::new())?;
        let mut module: Vec<String> = vec![];
        for (i, seg) in path.iter().enumerate() {
            let mut next = module.clone();
            next.push(seg.clone());
            if let Some(&f) = self.by_module.get(&next) {
                module = next;
                at = f;
                continue;
            }
            if hops < 8
                && let Some(target) = self.exports[at].get(seg)
            {
                let mut full = target.clone();
                full.extend(path[i + 1..].iter().cloned());
                if full != path {
                    return self.resolve(&full, hops + 1);
                }
            }
            return Some(at);
        }
        Some(at)
    }

    /// Every import cycle between files of the crate, one line each, naming the imports.
    fn violations(&self) -> Vec<String> {
        let mut out = vec![];
        let mut edges: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
        for i in 0..self.files.len() {
            for imp in &self.imports[i] {
                let Some(j) = self.resolve(&imp.absolute, 0) else {
                    continue;
                };
                if j != i {
                    edges.entry(i).or_default().insert(j);
                }
            }
        }
        for cycle in cycles(self.files.len(), &edges) {
            let names: Vec<&str> = cycle.iter().map(|&i| self.files[i].path.as_str()).collect();
            let mut detail = vec![];
            for &a in &cycle {
                for imp in &self.imports[a] {
                    if let Some(b) = self.resolve(&imp.absolute, 0)
                        && b != a
                        && cycle.contains(&b)
                        && edges.get(&a).is_some_and(|e| e.contains(&b))
                    {
                        detail.push(format!(
                            "{}:{}: `{}`",
                            self.files[a].path, imp.line, imp.written
                        ));
                    }
                }
            }
            out.push(format!(
                "import cycle between {}; its imports: {}",
                names.join(", "),
                detail.join("; ")
            ));
        }
        out
    }
}

/// The strongly connected components with more than one file (Tarjan), each sorted.
fn cycles(n: usize, edges: &BTreeMap<usize, BTreeSet<usize>>) -> Vec<Vec<usize>> {
    struct State<'a> {
        edges: &'a BTreeMap<usize, BTreeSet<usize>>,
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        let succ: Vec<usize> = s.edges.get(&v).into_iter().flatten().copied().collect();
        for w in succ {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on_stack[w] => s.low[v] = s.low[v].min(iw),
                _ => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut comp = vec![];
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort_unstable();
                s.out.push(comp);
            }
        }
    }
    let mut s = State {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: vec![],
        next: 0,
        out: vec![],
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.out
}

fn read_sources(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src/ is readable")
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            read_sources(&p, root, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            let rel = p
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.push((rel, std::fs::read_to_string(&p).unwrap()));
        }
    }
}

#[test]
fn no_two_files_of_a_crate_import_each_other() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut v = vec![];
    let mut files = 0;
    for (folder, _) in manifests(root) {
        let dir = if folder == "." {
            root.to_path_buf()
        } else {
            root.join("crates").join(&folder)
        };
        let mut sources = vec![];
        read_sources(&dir.join("src"), &dir, &mut sources);
        files += sources.len();
        let krate = Crate::new(sources);
        v.extend(
            krate
                .violations()
                .into_iter()
                .map(|p| format!("{folder}: {p}")),
        );
    }
    assert!(files > 150, "found the sources: {files}");
    assert!(v.is_empty(), "{} import cycles:\n{}", v.len(), v.join("\n"));
}

#[cfg(test)]
mod checker;
