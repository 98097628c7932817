//! The library's layers, lowest first, and the rule that holds them apart: a module names only its
//! own layer and the layers below it (`crate::<module>`), never one above. The pure game rules sit
//! at the bottom; the settings (`config`) compose every layer's options, so they sit at the top of
//! the library, under the binary. A test rather than the compiler says it while the layers share
//! one crate; it reads every source file, test modules included, so that no layer needs a higher
//! one even to be tested.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// Each layer and the root modules it holds, lowest first.
const LAYERS: [(&str, &[&str]); 8] = [
    ("base", &["redact", "home", "devnet", "terminal_note"]),
    ("game", &["game"]),
    ("wallet", &["wallet"]),
    ("chain", &["chain"]),
    ("torii", &["torii"]),
    ("mcp", &["mcp", "error"]),
    ("agent", &["agent"]),
    ("config", &["config"]),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The layer (index into [`LAYERS`]) of a root module, if it is one of the library's.
fn layer_of(module: &str) -> Option<usize> {
    LAYERS
        .iter()
        .position(|(_, modules)| modules.contains(&module))
}

/// Every `.rs` file of root module `module`: `src/<module>.rs` or the files under `src/<module>/`.
fn files_of(module: &str) -> Vec<PathBuf> {
    let single = src().join(format!("{module}.rs"));
    if single.exists() {
        return vec![single];
    }
    let mut out = Vec::new();
    let mut stack = vec![src().join(module)];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.unwrap().path();
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

/// The root modules a source text names through `crate::`: `crate::x::…`, and each item of a
/// grouped `use crate::{x::…, y}`.
fn named_modules(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut rest = text;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
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

#[test]
fn every_root_module_has_a_layer() {
    let lib = fs::read_to_string(src().join("lib.rs")).unwrap();
    let modules: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|m| m.trim_end_matches(';'))
        .collect();
    assert!(modules.len() >= 8, "lib.rs declares {modules:?}");
    for m in modules {
        assert!(
            layer_of(m).is_some(),
            "src/lib.rs declares `{m}`, which no layer of tests/layers.rs holds: place it"
        );
    }
}

#[test]
fn no_layer_names_a_higher_one() {
    let mut upward: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (index, (layer, modules)) in LAYERS.iter().enumerate() {
        for module in *modules {
            for file in files_of(module) {
                let text = fs::read_to_string(&file).unwrap();
                for named in named_modules(&text) {
                    if let Some(other) = layer_of(&named).filter(|&o| o > index) {
                        let shown = file.strip_prefix(src()).unwrap().display().to_string();
                        upward
                            .entry(format!("src/{shown}"))
                            .or_default()
                            .push(format!(
                                "names `crate::{named}` (layer {}) from layer {layer}",
                                LAYERS[other].0
                            ));
                    }
                }
            }
        }
    }
    assert!(
        upward.is_empty(),
        "a lower layer names a higher one (order: {}):\n{}",
        LAYERS.map(|(l, _)| l).join(" < "),
        upward
            .iter()
            .map(|(f, v)| format!("{f}: {}", v.join("; ")))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_scan_reads_grouped_and_nested_paths() {
    let text = "use crate::{game::felt::parse_felt, wallet::{A, B}, mcp};\nlet x = crate::torii::values::felt(v);";
    assert_eq!(named_modules(text), ["game", "wallet", "mcp", "torii"]);
}
