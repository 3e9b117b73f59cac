//! The documentation stands alone: every relative Markdown link in README.md,
//! ARCHITECTURE.md and `docs/**/*.md` resolves to a file inside the repository (and, with
//! a `#anchor`, to a heading of that file, slugged as GitHub does), and no document points
//! into `shared/`, a folder users never get.
//!
//! Links inside fenced code blocks and inline code spans are not links and are skipped;
//! absolute URLs (`https:`, `mailto:`) are not checked.

use std::collections::HashMap;
use std::fs;
use std::path::{Component, Path, PathBuf};

/// The repository root (the crate root).
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Files whose prose must not mention `shared/` at all, link or not. ARCHITECTURE.md is
/// link-checked like the others but not listed here yet: its text is being rewritten
/// separately; add it once that lands.
const NO_SHARED_MENTION: &[&str] = &["README.md", "docs"];

/// One link found in a document: its 1-based line and the target as written.
#[derive(Debug, PartialEq, Eq)]
struct Link {
    line: usize,
    target: String,
}

/// Replaces inline code spans (`` `...` ``, any number of backticks) by spaces, so that
/// what looks like a link inside code is not taken for one.
fn blank_code_spans(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '`' {
            let mut n = 0;
            while i + n < chars.len() && chars[i + n] == '`' {
                n += 1;
            }
            // Find the closing run of exactly n backticks.
            let mut j = i + n;
            let mut close = None;
            while j < chars.len() {
                if chars[j] == '`' {
                    let mut m = 0;
                    while j + m < chars.len() && chars[j + m] == '`' {
                        m += 1;
                    }
                    if m == n {
                        close = Some(j + m);
                        break;
                    }
                    j += m;
                } else {
                    j += 1;
                }
            }
            match close {
                Some(end) => {
                    out.extend(std::iter::repeat_n(' ', end - i));
                    i = end;
                }
                None => {
                    // An unmatched run is literal text.
                    out.extend(&chars[i..i + n]);
                    i += n;
                }
            }
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// The lines of `text` outside fenced code blocks (``` or ~~~), with their 1-based
/// numbers and inline code blanked out.
fn prose_lines(text: &str) -> Vec<(usize, String)> {
    let mut fence: Option<String> = None;
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let marker: String = trimmed
            .chars()
            .take_while(|&c| c == '`' || c == '~')
            .collect();
        let is_fence =
            marker.len() >= 3 && marker.chars().all(|c| c == marker.as_bytes()[0] as char);
        match &fence {
            Some(open) => {
                if is_fence
                    && marker.starts_with(open.as_str())
                    && trimmed[marker.len()..].trim().is_empty()
                {
                    fence = None;
                }
            }
            None if is_fence => fence = Some(marker),
            None => out.push((k + 1, blank_code_spans(line))),
        }
    }
    out
}

/// Every link target of a document: inline links and images `[text](target "title")`,
/// and reference definitions `[label]: target`.
fn extract_links(text: &str) -> Vec<Link> {
    let mut links = Vec::new();
    for (line_no, line) in prose_lines(text) {
        // Reference definition.
        let t = line.trim_start();
        if t.starts_with('[')
            && let Some(close) = t.find("]:")
            && !t[..close].contains('(')
        {
            let target = t[close + 2..].split_whitespace().next().unwrap_or("");
            let target = target.trim_start_matches('<').trim_end_matches('>');
            if !target.is_empty() {
                links.push(Link {
                    line: line_no,
                    target: target.to_string(),
                });
            }
            continue;
        }
        // Inline links: every `](`, the target up to the matching `)`.
        let bytes = line.as_bytes();
        let mut i = 0;
        while let Some(k) = line[i..].find("](") {
            let start = i + k + 2;
            let mut depth = 0usize;
            let mut end = None;
            for (j, &b) in bytes.iter().enumerate().skip(start) {
                match b {
                    b'(' => depth += 1,
                    b')' if depth == 0 => {
                        end = Some(j);
                        break;
                    }
                    b')' => depth -= 1,
                    _ => {}
                }
            }
            let Some(end) = end else { break };
            let raw = line[start..end].trim();
            let target = if let Some(rest) = raw.strip_prefix('<') {
                rest.split('>').next().unwrap_or("")
            } else {
                raw.split_whitespace().next().unwrap_or("")
            };
            if !target.is_empty() {
                links.push(Link {
                    line: line_no,
                    target: target.to_string(),
                });
            }
            i = end + 1;
        }
    }
    links
}

/// GitHub's anchor for a heading: the rendered text lower-cased, everything but letters,
/// digits, spaces, `-` and `_` dropped, spaces turned into `-`.
fn slug(heading: &str) -> String {
    // Render the inline markup that changes the text: `code` and [text](url).
    let mut text = String::new();
    let mut rest = heading;
    while let Some(open) = rest.find('[') {
        text.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find("](") {
            Some(close) if after[close..].contains(')') => {
                text.push_str(&after[..close]);
                let tail = &after[close + 2..];
                rest = &tail[tail.find(')').map_or(tail.len(), |p| p + 1)..];
            }
            _ => {
                text.push('[');
                rest = after;
            }
        }
    }
    text.push_str(rest);
    text.to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a document's ATX headings, with GitHub's `-1`, `-2` suffixes for
/// repeated headings.
fn anchors(text: &str) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    let mut fence = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fence = !fence;
            continue;
        }
        if fence {
            continue;
        }
        let hashes = t.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !t[hashes..].starts_with(' ') {
            continue;
        }
        let title = t[hashes..].trim().trim_end_matches('#').trim();
        let base = slug(title);
        let n = seen.entry(base.clone()).or_insert(0);
        out.push(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
    }
    out
}

/// `path` with `.` and `..` folded away lexically; `None` if it climbs above its start.
fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Normal(p) => out.push(p),
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

/// Percent-decoding of the few escapes a path may carry (`%20`).
fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Some(b) = std::str::from_utf8(&bytes[i + 1..i + 3])
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(b);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether a target is an absolute URL (a scheme such as `https:` or `mailto:`).
fn is_url(target: &str) -> bool {
    match target.find(':') {
        Some(k) => {
            let scheme = &target[..k];
            !scheme.is_empty()
                && !scheme.contains('/')
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '+' || c == '-' || c == '.')
        }
        None => false,
    }
}

/// The problems of the links of document `rel` (a path relative to `root`) with text
/// `text`: one message per bad link, naming the file, the line and the link.
fn check_document(root: &Path, rel: &Path, text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let dir = rel.parent().unwrap_or(Path::new(""));
    for link in extract_links(text) {
        let at = format!("{}:{}: link `{}`", rel.display(), link.line, link.target);
        if is_url(&link.target) {
            continue;
        }
        let (path_part, anchor) = match link.target.split_once('#') {
            Some((p, a)) => (p, Some(a)),
            None => (link.target.as_str(), None),
        };
        let path_part = decode(path_part);
        if path_part.contains("shared/") {
            problems.push(format!("{at}: points into shared/, which users never get"));
            continue;
        }
        let target_rel = if path_part.is_empty() {
            rel.to_path_buf()
        } else if let Some(abs) = path_part.strip_prefix('/') {
            PathBuf::from(abs)
        } else {
            dir.join(&path_part)
        };
        let Some(target_rel) = normalize(&target_rel) else {
            problems.push(format!("{at}: resolves outside the repository"));
            continue;
        };
        let full = root.join(&target_rel);
        // A bare `#anchor` points into the document itself, which may be synthetic.
        if !path_part.is_empty() && !full.exists() {
            problems.push(format!(
                "{at}: no such file or directory `{}`",
                target_rel.display()
            ));
            continue;
        }
        if let Some(anchor) = anchor {
            if target_rel != rel && (full.is_dir() || full.extension().is_none_or(|e| e != "md")) {
                continue;
            }
            let target_text = if target_rel == rel {
                text.to_string()
            } else {
                fs::read_to_string(&full).unwrap_or_default()
            };
            let anchor = decode(anchor).to_lowercase();
            if !anchors(&target_text).contains(&anchor) {
                problems.push(format!(
                    "{at}: no heading with anchor `#{anchor}` in `{}`",
                    target_rel.display()
                ));
            }
        }
    }
    problems
}

/// Mentions of `shared/spec` or `shared/bench` anywhere in the text, code included.
fn shared_mentions(rel: &Path, text: &str) -> Vec<String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.contains("shared/spec") || l.contains("shared/bench"))
        .map(|(k, l)| {
            format!(
                "{}:{}: mentions shared/, which users never get: {}",
                rel.display(),
                k + 1,
                l.trim()
            )
        })
        .collect()
}

/// README.md, ARCHITECTURE.md and every Markdown file under `docs/`, relative to the root.
fn documents(root: &Path) -> Vec<PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = fs::read_dir(root.join(dir))
            .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
            .map(|e| e.unwrap().file_name())
            .collect();
        entries.sort();
        for name in entries {
            let rel = dir.join(&name);
            if root.join(&rel).is_dir() {
                walk(root, &rel, out);
            } else if rel.extension().is_some_and(|e| e == "md") {
                out.push(rel);
            }
        }
    }
    let mut out = vec![PathBuf::from("README.md"), PathBuf::from("ARCHITECTURE.md")];
    walk(root, Path::new("docs"), &mut out);
    out
}

#[test]
fn every_relative_link_in_the_docs_resolves_inside_the_repository() {
    let root = root();
    let mut problems = Vec::new();
    let mut checked = 0;
    for rel in documents(&root) {
        let text = fs::read_to_string(root.join(&rel))
            .unwrap_or_else(|e| panic!("reading {}: {e}", rel.display()));
        checked += extract_links(&text).len();
        problems.extend(check_document(&root, &rel, &text));
        let top = rel.components().next().unwrap().as_os_str();
        if NO_SHARED_MENTION.iter().any(|n| top == *n) {
            problems.extend(shared_mentions(&rel, &text));
        }
    }
    assert!(
        checked > 20,
        "only {checked} links found: is the extractor broken?"
    );
    assert!(
        problems.is_empty(),
        "{} broken link(s) in the docs:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_docs_index_lists_every_doc() {
    let root = root();
    let index = fs::read_to_string(root.join("docs/README.md")).expect("docs/README.md");
    let linked: Vec<String> = extract_links(&index)
        .into_iter()
        .map(|l| l.target)
        .collect();
    for rel in documents(&root) {
        let Ok(inside) = rel.strip_prefix("docs") else {
            continue;
        };
        if inside == Path::new("README.md") {
            continue;
        }
        let name = inside.to_string_lossy().replace('\\', "/");
        assert!(
            linked
                .iter()
                .any(|t| t.split('#').next() == Some(name.as_str())),
            "docs/README.md does not list docs/{name}"
        );
    }
}

#[test]
fn the_extractor_finds_links_and_skips_code() {
    let text = "# Title\n\
                See [the board](board.md) and ![a picture](img/x.svg \"title\").\n\
                Inline `[not](a-link.md)` code.\n\
                ```\n\
                [not](in-a-fence.md)\n\
                ```\n\
                A [web page](https://example.com) and a [ref][r].\n\
                \n\
                [r]: other.md#part\n\
                Nested [x](a_(b).md) parens.\n";
    let links: Vec<(usize, String)> = extract_links(text)
        .into_iter()
        .map(|l| (l.line, l.target))
        .collect();
    let expect = |l: usize, t: &str| (l, t.to_string());
    assert_eq!(
        links,
        vec![
            expect(2, "board.md"),
            expect(2, "img/x.svg"),
            expect(7, "https://example.com"),
            expect(9, "other.md#part"),
            expect(10, "a_(b).md"),
        ]
    );
}

#[test]
fn a_broken_link_is_reported_with_its_file_line_and_target() {
    let root = root();
    let rel = Path::new("docs/synthetic.md");
    let text = "# A heading\n\
                \n\
                Good: [physics](physics.md), [self](#a-heading), [up](../README.md).\n\
                Bad: [gone](no-such-file.md) and [anchor](physics.md#no-such-heading).\n\
                Out: [escape](../../outside.md) and [spec](../../shared/spec/board.md).\n";
    let problems = check_document(&root, rel, text);
    assert_eq!(problems.len(), 4, "{problems:#?}");
    assert!(problems[0].starts_with("docs/synthetic.md:4: link `no-such-file.md`"));
    assert!(problems[1].starts_with("docs/synthetic.md:4: link `physics.md#no-such-heading`"));
    assert!(problems[2].starts_with("docs/synthetic.md:5: link `../../outside.md`"));
    assert!(problems[2].contains("outside the repository"));
    assert!(problems[3].contains("points into shared/"));
    assert_eq!(
        shared_mentions(rel, "see `shared/spec/physics.md`\n").len(),
        1
    );
}

#[test]
fn headings_slug_as_github_does() {
    assert_eq!(slug("The 20 hole"), "the-20-hole");
    assert_eq!(slug("`simulate --rules`"), "simulate---rules");
    assert_eq!(
        slug("Choices where `rules.md` is silent"),
        "choices-where-rulesmd-is-silent"
    );
    assert_eq!(
        slug("Shards and `crokinole merge`"),
        "shards-and-crokinole-merge"
    );
    assert_eq!(slug("See [the board](board.md)"), "see-the-board");
    assert_eq!(
        anchors("# A\n## A\n```\n# not a heading\n```\n### B: c\n"),
        vec!["a", "a-1", "b-c"]
    );
}
