//! The documentation holds together: README.md stays a short front door, every relative link in
//! README.md and docs/*.md reaches a file of this repository (and, with `#anchor`, a heading of
//! that file), and neither the docs nor the source comments send a reader to files that are not
//! in the repository.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The most lines README.md may have.
const README_MAX_LINES: usize = 250;

/// Names of files outside this repository that comments and docs once pointed to.
const OUTSIDE_FILES: [&str; 6] = [
    "game.md",
    "design.md",
    "rust-notes",
    "devnet.md",
    "controller.md",
    "../shared",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", relative(path)))
}

/// README.md and every `docs/*.md`, in a stable order.
fn doc_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    files.extend(docs_pages());
    files
}

/// Every `docs/*.md`, sorted.
fn docs_pages() -> Vec<PathBuf> {
    let dir = root().join("docs");
    let mut pages: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list docs/: {e}"))
        .map(|entry| entry.expect("a docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    pages
}

/// The text with fenced code blocks and inline code spans blanked out (newlines kept, so
/// positions still give line numbers): neither holds links or headings.
fn prose(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut fence: Option<&str> = None;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let opens = ["```", "~~~"].into_iter().find(|f| trimmed.starts_with(f));
        match (fence, opens) {
            (None, Some(f)) => {
                fence = Some(f);
                out.push_str(&blank(line));
            }
            (Some(f), Some(g)) if f == g => {
                fence = None;
                out.push_str(&blank(line));
            }
            (Some(_), _) => out.push_str(&blank(line)),
            (None, None) => out.push_str(line),
        }
    }
    blank_code_spans(&out)
}

fn blank(s: &str) -> String {
    s.chars()
        .map(|c| if c == '\n' { '\n' } else { ' ' })
        .collect()
}

/// Blanks every inline code span (a run of backticks up to the next run of the same length).
fn blank_code_spans(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = chars.clone();
    let run_at = |i: usize| chars[i..].iter().take_while(|&&c| c == '`').count();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            i += 1;
            continue;
        }
        let n = run_at(i);
        let mut j = i + n;
        let mut close = None;
        while j < chars.len() {
            if chars[j] == '`' {
                let m = run_at(j);
                if m == n {
                    close = Some(j);
                    break;
                }
                j += m;
            } else {
                j += 1;
            }
        }
        match close {
            Some(j) => {
                for c in &mut out[i..j + n] {
                    if *c != '\n' {
                        *c = ' ';
                    }
                }
                i = j + n;
            }
            None => i += n,
        }
    }
    out.into_iter().collect()
}

/// One markdown link `[text](target)`.
struct Link {
    file: PathBuf,
    line: usize,
    text: String,
    target: String,
}

impl Link {
    fn at(&self) -> String {
        format!(
            "{}:{}: [{}]({})",
            relative(&self.file),
            self.line,
            self.text,
            self.target
        )
    }

    fn is_external(&self) -> bool {
        let t = self.target.to_ascii_lowercase();
        t.starts_with("http://") || t.starts_with("https://") || t.starts_with("mailto:")
    }

    /// The file part and the anchor part of the target.
    fn split(&self) -> (&str, Option<&str>) {
        match self.target.split_once('#') {
            Some((path, anchor)) => (path, Some(anchor)),
            None => (self.target.as_str(), None),
        }
    }

    /// The file the link points to (the linking file itself for `#anchor`).
    fn resolved(&self) -> PathBuf {
        let (path, _) = self.split();
        if path.is_empty() {
            return self.file.clone();
        }
        self.file.parent().expect("a parent directory").join(path)
    }
}

/// Every `[text](target)` of a markdown file, outside code.
fn links(file: &Path) -> Vec<Link> {
    let text = prose(&read(file));
    let chars: Vec<char> = text.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '[' {
            i += 1;
            continue;
        }
        let Some(close) = matching(&chars, i, '[', ']') else {
            i += 1;
            continue;
        };
        if chars.get(close + 1) != Some(&'(') {
            i += 1;
            continue;
        }
        let Some(end) = matching(&chars, close + 1, '(', ')') else {
            i += 1;
            continue;
        };
        let inner: String = chars[close + 2..end].iter().collect();
        let target = inner
            .split_whitespace()
            .next()
            .unwrap_or("")
            .trim_start_matches('<')
            .trim_end_matches('>')
            .to_string();
        found.push(Link {
            file: file.to_path_buf(),
            line: 1 + chars[..i].iter().filter(|&&c| c == '\n').count(),
            text: chars[i + 1..close].iter().collect(),
            target,
        });
        i = end + 1;
    }
    found
}

/// The index of the bracket closing the one at `open`, on the same line.
fn matching(chars: &[char], open: usize, left: char, right: char) -> Option<usize> {
    let mut depth = 0usize;
    for (k, &c) in chars.iter().enumerate().skip(open) {
        if c == '\n' {
            return None;
        } else if c == left {
            depth += 1;
        } else if c == right {
            depth -= 1;
            if depth == 0 {
                return Some(k);
            }
        }
    }
    None
}

/// GitHub's anchor for a heading: lowercase, punctuation other than `-` and `_` dropped, spaces
/// turned into `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a markdown file's headings; a repeated heading gets `-1`, `-2`… as on GitHub.
fn anchors(file: &Path) -> Vec<String> {
    let mut seen: HashSet<String> = HashSet::new();
    let mut out = Vec::new();
    for line in prose(&read(file)).lines() {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(line[hashes..].trim().trim_end_matches('#'));
        let mut anchor = base.clone();
        let mut n = 0;
        while !seen.insert(anchor.clone()) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        out.push(anchor);
    }
    out
}

fn all_links() -> Vec<Link> {
    doc_files().iter().flat_map(|f| links(f)).collect()
}

fn fail_with(problems: &[String], what: &str) {
    assert!(
        problems.is_empty(),
        "{} {what}:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn readme_is_a_front_door() {
    let readme = root().join("README.md");
    let lines = read(&readme).lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, more than {README_MAX_LINES}: move reference text into docs/"
    );
}

/// The docs pages `index` does not link to (the docs index itself only when `with_index`).
fn unlinked_pages(index: &Path, with_index: bool) -> Vec<String> {
    let linked: HashSet<PathBuf> = links(index)
        .iter()
        .filter(|l| !l.is_external())
        .filter_map(|l| l.resolved().canonicalize().ok())
        .collect();
    docs_pages()
        .iter()
        .filter(|p| with_index || p.file_name().is_some_and(|n| n != "README.md"))
        .filter(|p| !linked.contains(&p.canonicalize().expect("a docs page")))
        .map(|p| format!("{} has no link to {}", relative(index), relative(p)))
        .collect()
}

#[test]
fn readme_links_every_docs_page() {
    let missing = unlinked_pages(&root().join("README.md"), true);
    fail_with(&missing, "docs pages are not linked from README.md");
}

#[test]
fn docs_index_links_every_docs_page() {
    let missing = unlinked_pages(&root().join("docs/README.md"), false);
    fail_with(&missing, "docs pages are missing from the index");
}

#[test]
fn every_relative_link_resolves() {
    let broken: Vec<String> = all_links()
        .iter()
        .filter(|l| !l.is_external())
        .filter(|l| !l.resolved().exists())
        .map(|l| {
            format!(
                "{}: the target {} does not exist",
                l.at(),
                relative(&l.resolved())
            )
        })
        .collect();
    fail_with(&broken, "links point to missing files");
}

#[test]
fn every_anchor_exists() {
    let mut broken = Vec::new();
    for link in all_links().iter().filter(|l| !l.is_external()) {
        let (_, Some(anchor)) = link.split() else {
            continue;
        };
        let target = link.resolved();
        if !target.is_file() {
            continue; // reported by every_relative_link_resolves
        }
        if target.extension().is_none_or(|e| e != "md") {
            broken.push(format!(
                "{}: an anchor on {}, which is not a markdown file",
                link.at(),
                relative(&target)
            ));
            continue;
        }
        let known = anchors(&target);
        if !known.iter().any(|a| a == anchor) {
            broken.push(format!(
                "{}: {} has no heading with the anchor #{anchor} (its anchors: {})",
                link.at(),
                relative(&target),
                known.join(", ")
            ));
        }
    }
    fail_with(&broken, "links name missing anchors");
}

/// Notes each file outside the repository that `text` (part of line `n` of `file`) names.
fn outside_names(
    file: &Path,
    n: usize,
    text: &str,
    line: &str,
    what: &str,
    found: &mut Vec<String>,
) {
    for name in OUTSIDE_FILES {
        if text.contains(name) {
            found.push(format!(
                "{}:{}: {what} {name}: {}",
                relative(file),
                n + 1,
                line.trim()
            ));
        }
    }
}

#[test]
fn docs_name_no_file_outside_the_repository() {
    let mut found = Vec::new();
    for file in doc_files() {
        for (n, line) in read(&file).lines().enumerate() {
            outside_names(&file, n, line, line, "names", &mut found);
        }
    }
    fail_with(&found, "doc lines name files outside the repository");
}

/// Every file under `dir`, recursively, sorted.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap_or_else(|e| panic!("cannot list {}: {e}", d.display()))
        {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The comment part of a source line, if it has one: after `//` (Rust, Cairo) or, in GraphQL,
/// SQL and TOML files, after `#` or `--`.
fn comment(path: &Path, line: &str) -> Option<String> {
    let hash_comments = path
        .extension()
        .is_some_and(|e| e == "graphql" || e == "sql" || e == "toml");
    let mut starts = vec![line.find("//")];
    if hash_comments {
        starts.push(line.find('#'));
        starts.push(line.find("--"));
    }
    starts
        .into_iter()
        .flatten()
        .min()
        .map(|i| line[i..].to_string())
}

#[test]
fn no_source_comment_points_outside_the_repository() {
    let mut found = Vec::new();
    let mut files = files_under(&root().join("src"));
    files.extend(files_under(&root().join("contracts")));
    for file in files {
        let Ok(text) = fs::read_to_string(&file) else {
            continue; // not text
        };
        for (n, line) in text.lines().enumerate() {
            let Some(comment) = comment(&file, line) else {
                continue;
            };
            outside_names(&file, n, &comment, line, "a comment names", &mut found);
        }
    }
    fail_with(
        &found,
        "source comments point outside the repository (cite docs/ or the upstream file instead)",
    );
}

#[test]
fn slugs_follow_github() {
    assert_eq!(slug("VRF (mainnet and Sepolia)"), "vrf-mainnet-and-sepolia");
    assert_eq!(
        slug("The built-in agent (`play`)"),
        "the-built-in-agent-play"
    );
    assert_eq!(
        slug("Items: tiers, greatness & xp"),
        "items-tiers-greatness--xp"
    );
    assert_eq!(
        slug("stats_mode and `base_damage_reduction`"),
        "stats_mode-and-base_damage_reduction"
    );
}
