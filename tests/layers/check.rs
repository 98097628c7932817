//! The library's layers, lowest first, and the scan that holds them apart: a module names only its
//! own layer and the layers below it (`crate::<module>`), never one above. The build script runs
//! it, so an upward import fails `cargo build`; `tests/layers.rs` runs it too and checks the scan.

use std::fs;
use std::path::{Path, PathBuf};

/// Each layer and the root modules it holds, lowest first.
pub const LAYERS: [(&str, &[&str]); 8] = [
    ("base", &["redact", "home", "devnet", "terminal_note"]),
    ("game", &["game"]),
    ("wallet", &["wallet"]),
    ("chain", &["chain"]),
    ("torii", &["torii"]),
    ("mcp", &["mcp", "error"]),
    ("agent", &["agent"]),
    ("config", &["config"]),
];

/// Layers that are workspace crates of their own: root module, crate directory (beside `src/`).
pub const CRATES: [(&str, &str); 1] = [("game", "game")];

/// The crate directory of a root module that is a workspace crate of its own.
fn crate_dir(root: &Path, module: &str) -> Option<PathBuf> {
    CRATES
        .iter()
        .find(|(m, _)| *m == module)
        .map(|(_, dir)| root.join(dir))
}

/// How a file of `module` names the library's root modules: `crate::` inside the root crate, and
/// `loot_survivor_mcp::` from a crate of its own (whose `crate::` is itself).
fn library_prefix(root: &Path, module: &str) -> &'static str {
    if crate_dir(root, module).is_some() {
        "loot_survivor_mcp::"
    } else {
        "crate::"
    }
}

/// The layer (index into [`LAYERS`]) of a root module, if it is one of the library's.
pub fn layer_of(module: &str) -> Option<usize> {
    LAYERS
        .iter()
        .position(|(_, modules)| modules.contains(&module))
}

/// Every `.rs` file of root module `module`: `src/<module>.rs` or the files under `src/<module>/`,
/// or, for a crate of its own, the files under `<crate dir>/src/`; none when it has no sources.
fn files_of(root: &Path, module: &str) -> Vec<PathBuf> {
    let top = match crate_dir(root, module) {
        Some(dir) => dir.join("src"),
        None => {
            let single = root.join("src").join(format!("{module}.rs"));
            if single.exists() {
                return vec![single];
            }
            root.join("src").join(module)
        }
    };
    let mut out = Vec::new();
    let mut stack = vec![top];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The root modules a source text names through `prefix` (`crate::`): `crate::x::…`, and each item
/// of a grouped `use crate::{x::…, y}`.
pub fn named_modules(text: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut rest = text;
    while let Some(i) = rest.find(prefix) {
        rest = &rest[i + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut start = 0;
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        out.push(ident(&group[start..j]));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.push(ident(&group[start..j]));
                        start = j + 1;
                    }
                    _ => {}
                }
            }
        } else {
            out.push(ident(rest));
        }
    }
    out.retain(|m| !m.is_empty());
    out
}

/// Every file under `root` that names a higher layer, with what it names: one line each,
/// `<file>: names `crate::x` (layer y) from layer z`. Empty when the layers hold.
pub fn upward_imports(root: &Path) -> Vec<String> {
    let mut upward = Vec::new();
    for (index, (layer, modules)) in LAYERS.iter().enumerate() {
        for module in *modules {
            let prefix = library_prefix(root, module);
            for file in files_of(root, module) {
                let text = fs::read_to_string(&file).unwrap_or_default();
                for named in named_modules(&text, prefix) {
                    if let Some(other) = layer_of(&named).filter(|&o| o > index) {
                        let shown = file.strip_prefix(root).unwrap_or(&file).display();
                        upward.push(format!(
                            "{shown}: names `{prefix}{named}` (layer {}) from layer {layer}",
                            LAYERS[other].0
                        ));
                    }
                }
            }
        }
    }
    upward
}

/// The refusal the build prints: the order of the layers and each upward name.
pub fn refusal(upward: &[String]) -> String {
    format!(
        "a lower layer names a higher one (order: {}):\n{}",
        LAYERS.map(|(l, _)| l).join(" < "),
        upward.join("\n")
    )
}
