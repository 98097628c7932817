//! No import cycle among the chain crate's files. A file depends on another when its code names
//! an item that file defines, through `crate::`, `super::` or `self::` paths, followed through
//! `pub use` re-exports to the file that defines the item (so `use crate::ChainError` is a use of
//! `error.rs`). A module's `mod` and `pub use` lines are its interface, not uses; test code (a
//! `tests.rs` or `*_tests.rs` file, a `#[cfg(test)] mod` and what follows it) is left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::source::{non_test_files, plant};

/// A module path, `["client", "reader"]` for `client/reader.rs`; the crate root is `[]`.
type Module = Vec<String>;

/// A crate's files by module, each with its code (comments and unit tests cut off).
fn modules(src: &Path) -> BTreeMap<Module, String> {
    non_test_files(src)
        .into_iter()
        .map(|f| (f.module, f.code))
        .collect()
}

/// The paths a `use` tree or a qualified path names: `a::{b, c::d as e}` is `a::b`, `a::c::d`.
fn expand(head: &str, group: Option<&str>) -> Vec<(String, Vec<String>)> {
    let head: Vec<String> = head
        .split("::")
        .filter(|s| !s.is_empty())
        .map(Into::into)
        .collect();
    let Some(group) = group else {
        let alias = head.last().cloned().unwrap_or_default();
        return vec![(alias, head)];
    };
    group
        .split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty() && !item.contains('{'))
        .map(|item| {
            let (path, alias) = match item.split_once(" as ") {
                Some((p, a)) => (p.trim(), a.trim()),
                None => (item, item.rsplit("::").next().unwrap_or(item)),
            };
            let mut full = head.clone();
            full.extend(path.split("::").map(String::from));
            (alias.to_string(), full)
        })
        .collect()
}

/// `path` (as written in `module`) made absolute from the crate root.
fn absolute(module: &Module, path: &[String]) -> Vec<String> {
    match path.first().map(String::as_str) {
        Some("crate") => path[1..].to_vec(),
        Some("self") => module.iter().chain(&path[1..]).cloned().collect(),
        Some("super") => {
            let mut base = module.clone();
            let mut rest = path;
            while rest.first().map(String::as_str) == Some("super") {
                base.pop();
                rest = &rest[1..];
            }
            base.into_iter().chain(rest.iter().cloned()).collect()
        }
        _ => module.iter().chain(path).cloned().collect(),
    }
}

/// Every segment of `a::{b, c}` and `a::b` after a `crate`, `super` or `self`, with the group.
fn qualified(code: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        for (at, _) in code.match_indices(start) {
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
                continue;
            }
            let rest = &code[at..];
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(rest.len());
            let head = rest[..end].trim_end_matches(':');
            let group = rest[end..]
                .strip_prefix('{')
                .filter(|_| rest[..end].ends_with("::"))
                .and_then(|g| g.find('}').map(|close| g[..close].to_string()));
            out.push((head.to_string(), group));
        }
    }
    out
}

/// The import graph of a crate's files: who names an item defined where.
fn graph(src: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let files = modules(src);
    let mut reexports: BTreeMap<(Module, String), Vec<String>> = BTreeMap::new();
    for (module, code) in &files {
        for statement in code.split(';') {
            let s = statement.trim();
            let Some(body) = s
                .strip_prefix("pub use ")
                .or_else(|| s.strip_prefix("pub(crate) use "))
            else {
                continue;
            };
            let body = body
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .replace(":: ", "::")
                .replace("{ ", "{")
                .replace(" }", "}");
            let (head, group) = match body.split_once("::{") {
                Some((h, g)) => (h.to_string(), Some(g.trim_end_matches('}').to_string())),
                None => (body.clone(), None),
            };
            for (alias, path) in expand(&head, group.as_deref()) {
                reexports.insert((module.clone(), alias), absolute(module, &path));
            }
        }
    }
    let resolve = |path: Vec<String>| -> Option<Module> {
        let mut path = path;
        for _ in 0..10 {
            let k = (0..=path.len())
                .rev()
                .find(|&k| files.contains_key(&path[..k]))?;
            let prefix = path[..k].to_vec();
            match path
                .get(k)
                .and_then(|next| reexports.get(&(prefix.clone(), next.clone())))
            {
                Some(target) => path = target.iter().chain(&path[k + 1..]).cloned().collect(),
                None => return (!prefix.is_empty()).then_some(prefix),
            }
        }
        None
    };
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (module, code) in &files {
        let uses: String = code
            .split(';')
            .filter(|s| {
                let s = s.trim_start();
                !(s.starts_with("pub use ") || s.starts_with("pub(crate) use "))
            })
            .collect::<Vec<_>>()
            .join(";");
        for (head, group) in qualified(&uses) {
            for (_, path) in expand(&head, group.as_deref()) {
                let Some(target) = resolve(absolute(module, &path)) else {
                    continue;
                };
                let ancestor = target.len() < module.len() && module.starts_with(&target);
                if &target != module && !ancestor {
                    edges.entry(module.clone()).or_default().insert(target);
                }
            }
        }
    }
    edges
}

/// The cycles of `edges`: its strongly connected components of more than one file.
fn cycles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<String>> {
    let reach = |from: &Module| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(m) = todo.pop() {
            for next in edges.get(&m).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&Module, BTreeSet<Module>> =
        edges.keys().map(|m| (m, reach(m))).collect();
    let mut out: Vec<Vec<String>> = Vec::new();
    for (m, from_m) in &reached {
        let component: Vec<String> = from_m
            .iter()
            .filter(|n| reached.get(n).is_some_and(|r| r.contains(*m)))
            .map(|n| n.join("::"))
            .collect();
        if component.len() > 1 && !out.contains(&component) {
            out.push(component);
        }
    }
    out
}

#[test]
fn the_chain_crate_has_no_module_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/chain/src");
    let edges = graph(&src);
    let found = cycles(&edges);
    let shown: Vec<String> = found
        .iter()
        .flat_map(|component| {
            edges.iter().filter_map(move |(from, to)| {
                let name = from.join("::");
                component.contains(&name).then(|| {
                    let inside: Vec<String> = to
                        .iter()
                        .map(|t| t.join("::"))
                        .filter(|t| component.contains(t))
                        .collect();
                    format!("{name} -> {}", inside.join(", "))
                })
            })
        })
        .collect();
    assert!(
        found.is_empty(),
        "files of the chain crate import each other:\n{}",
        shown.join("\n")
    );
}

#[test]
fn a_cycle_through_a_reexport_is_found() {
    let root = tempfile::tempdir().unwrap();
    let write = |rel: &str, text: &str| plant(root.path(), rel, text);
    write(
        "lib.rs",
        "mod error;\nmod client;\npub use error::ChainError;\n",
    );
    write(
        "error.rs",
        "use crate::client::{Report, other};\npub enum ChainError {}\n",
    );
    write(
        "client/mod.rs",
        "mod reader;\npub use reader::Report;\npub fn other() {}\n",
    );
    write(
        "client/reader.rs",
        "use crate::ChainError;\npub struct Report;\n",
    );
    write(
        "leaf.rs",
        "// use crate::error::ChainError;\npub fn f() {}\n#[cfg(test)]\nmod tests {\n    use crate::ChainError;\n}\n",
    );
    let found = cycles(&graph(root.path()));
    assert_eq!(
        found,
        vec![vec!["client::reader".to_string(), "error".to_string()]]
    );
}
