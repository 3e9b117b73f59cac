//! The layering check of ARCHITECTURE.md: every file of `src/` belongs to one layer, and
//! may import only from its own layer or a lower one (and inside a layer whose modules are
//! ordered, only from its own module or an earlier one); no two files import each other,
//! directly or through others; serde appears only in the JSON layer and above.
//!
//! The layers are the table [`LAYERS`], lowest first, one row per layer, the same table as
//! ARCHITECTURE.md's "Layers". Every module the table names must exist, so it cannot go
//! stale, and every file must be in it.
//!
//! An import is any `crate::`, `super::`, `self::` path, or a path that starts with a child
//! module's name (in code and in string literals such as serde's `with = "..."`, not in
//! comments). Paths through a module's `pub use` are followed to the file that defines the
//! item, so `crate::montecarlo::Noise` is an import of `montecarlo/noise.rs`, not of
//! `montecarlo/mod.rs`. A `mod x;` declaration is not an import.
//!
//! The checker itself is tested on synthetic sources (`layering/checker.rs`), so a broken
//! checker cannot pass silently.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A layer table: a row per layer, its name and its groups of modules ([`LAYERS`]).
type Table = [(&'static str, &'static [&'static [&'static str]])];

/// The layers, lowest first: a row per layer, its name and its modules. A module is the
/// first segment of a module path: the file `src/x.rs` or the folder `src/x/` (`lib` is
/// `src/lib.rs`, the public facade). A file may import from its own layer and the layers
/// below. A layer whose modules come in more than one group is ordered inside too: a
/// module may use its own group and earlier ones, never a later one (the model layer:
/// `montecarlo`, then `plan`, then `play`).
///
/// A new layer is a new row in its place (the indices and the messages follow the rows); a
/// module that moves or goes away must leave the table too (`src_respects_the_layers`
/// fails on a module that does not exist).
const LAYERS: &Table = &[
    (
        "core",
        &[&[
            "board", "disc", "params", "world", "step", "shot", "batch", "trace", "validate",
            "error", "limits", "scenes", "cancel",
        ]],
    ),
    ("table", &[&["rules"]]),
    ("model", &[&["montecarlo"], &["fit"], &["plan"], &["play"]]),
    ("json", &[&["io", "render"]]),
    ("jobs", &[&["jobs"]]),
    ("referee", &[&["referee"]]),
    ("serve", &[&["serve"]]),
    ("cli", &[&["cli", "lib"]]),
];

/// The lowest layer in which serde may appear (it and every layer above).
const SERDE_FROM: &str = "json";

/// Where a module sits in [`LAYERS`]: its layer (index), its group inside the layer, and
/// its name.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Place {
    layer: usize,
    group: usize,
    module: &'static str,
}

impl Place {
    fn layer_name(self) -> &'static str {
        LAYERS[self.layer].0
    }
}

/// The place of a module named by the first segment of its path.
fn place_of_module(first: &str) -> Option<Place> {
    LAYERS.iter().enumerate().find_map(|(layer, (_, groups))| {
        groups.iter().enumerate().find_map(|(group, modules)| {
            modules.iter().find(|&&m| m == first).map(|&module| Place {
                layer,
                group,
                module,
            })
        })
    })
}

/// The index of the layer called `name`.
fn layer_index(name: &str) -> usize {
    LAYERS
        .iter()
        .position(|(n, _)| *n == name)
        .expect("a layer of LAYERS")
}

/// The problems of a layer table (the real one is [`LAYERS`]), given the paths of the files
/// under `src/`: a module that no file is (`src/x.rs`) or is under (`src/x/`), and a
/// module listed twice.
fn table_problems(layers: &Table, paths: &[&str]) -> Vec<String> {
    let mut out = vec![];
    let mut seen = BTreeSet::new();
    for (layer, groups) in layers {
        for &module in groups.iter().copied().flatten() {
            if !seen.insert(module) {
                out.push(format!(
                    "tests/suite/layering.rs: LAYERS lists `{module}` more than once"
                ));
            }
            let (file, dir) = (format!("src/{module}.rs"), format!("src/{module}/"));
            if !paths.iter().any(|p| *p == file || p.starts_with(&dir)) {
                out.push(format!(
                    "tests/suite/layering.rs: LAYERS lists `{module}` (layer {layer}), but neither \
                     {file} nor {dir} exists: drop it or move it to where it went"
                ));
            }
        }
    }
    out
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

/// The place of a file, by the first segment of its module path (`lib` for `lib.rs`).
fn place_of(file: &File) -> Option<Place> {
    place_of_module(file.module.first().map_or("lib", String::as_str))
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

    /// Every violation, one line each: `file:line: problem`.
    fn violations(&self) -> Vec<String> {
        let mut out = vec![];
        let mut edges: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
        for (i, file) in self.files.iter().enumerate() {
            let Some(from) = place_of(file) else {
                out.push(format!(
                    "{}: not in the layer table of tests/suite/layering.rs (LAYERS)",
                    file.path
                ));
                continue;
            };
            for imp in &self.imports[i] {
                let Some(j) = self.resolve(&imp.absolute, 0) else {
                    continue;
                };
                if j == i {
                    continue;
                }
                if let Some(to) = place_of(&self.files[j]) {
                    out.extend(upward(file, imp, from, to));
                }
                edges.entry(i).or_default().insert(j);
            }
            let layer = from.layer;
            if layer < layer_index(SERDE_FROM) {
                let text = strip_comments(&file.text);
                for (n, line) in text.lines().enumerate() {
                    let words = line.split(|c: char| !(c.is_alphanumeric() || c == '_'));
                    if let Some(w) = words.into_iter().find(|w| {
                        matches!(
                            *w,
                            "serde"
                                | "serde_json"
                                | "serde_path_to_error"
                                | "Serialize"
                                | "Deserialize"
                                | "Serializer"
                                | "Deserializer"
                        )
                    }) {
                        out.push(format!(
                            "{}:{}: `{}` below the JSON layer (layer {}, {})",
                            file.path,
                            n + 1,
                            w,
                            layer,
                            from.layer_name()
                        ));
                    }
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

/// The violation, if any, of an import `imp` in `file` (at `from`) of a file at `to`: a
/// higher layer, or a later module of an ordered layer.
fn upward(file: &File, imp: &Import, from: Place, to: Place) -> Option<String> {
    let at = format!("{}:{}: `{}`", file.path, imp.line, imp.written);
    if to.layer > from.layer {
        return Some(format!(
            "{at} is in layer {} ({}), above this file's layer {} ({})",
            to.layer,
            to.layer_name(),
            from.layer,
            from.layer_name()
        ));
    }
    if to.layer == from.layer && to.group > from.group {
        let order: Vec<String> = LAYERS[from.layer]
            .1
            .iter()
            .map(|group| group.join(", "))
            .collect();
        return Some(format!(
            "{at} is in `{}`, after this file's `{}` in the {} layer ({})",
            to.module,
            from.module,
            from.layer_name(),
            order.join(" -> ")
        ));
    }
    None
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
fn src_respects_the_layers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut sources = vec![];
    read_sources(&root.join("src"), root, &mut sources);
    assert!(sources.len() > 30, "found the sources");
    let paths: Vec<&str> = sources.iter().map(|(p, _)| p.as_str()).collect();
    let mut v = table_problems(LAYERS, &paths);
    let krate = Crate::new(sources);
    v.extend(krate.violations());
    assert!(
        v.is_empty(),
        "{} layering violations:\n{}",
        v.len(),
        v.join("\n")
    );
}

#[cfg(test)]
mod checker;
