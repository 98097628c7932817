//! The library's layers hold: the scan the build script runs (`layers/check.rs`, which fails
//! `cargo build` on an upward import) finds nothing in this tree and finds a planted upward import;
//! every root module has a layer; and the game layer, a crate of its own (`game/`, re-exported as
//! `game`), names no crate of this workspace in its manifest, so the compiler holds it apart.

use std::fs;
use std::path::{Path, PathBuf};

#[path = "layers/check.rs"]
mod check;

use check::{CRATES, layer_of, named_modules, upward_imports};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn src() -> PathBuf {
    root().join("src")
}

#[test]
fn every_root_module_has_a_layer() {
    let lib = fs::read_to_string(src().join("lib.rs")).unwrap();
    // `pub mod x;`, and `pub use some_crate as x;` for a layer that is a crate of its own.
    let modules: Vec<&str> = lib
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            l.strip_prefix("pub mod ").or_else(|| {
                l.strip_prefix("pub use ")?
                    .split_once(" as ")
                    .map(|(_, m)| m)
            })
        })
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
    let upward = upward_imports(&root());
    assert!(upward.is_empty(), "{}", check::refusal(&upward));
}

#[test]
fn a_planted_upward_import_is_found() {
    let tree = std::env::temp_dir().join(format!("layers-{}", std::process::id()));
    let write = |path: &str, text: &str| {
        let path = tree.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    };
    write(
        "src/wallet/signer.rs",
        "use crate::game::felt;
use crate::mcp::errors::X;
",
    );
    write(
        "src/chain/mod.rs",
        "use crate::{wallet::A, torii::B};
",
    );
    write(
        "game/src/lib.rs",
        "use loot_survivor_mcp::chain::C;
",
    );
    let upward = upward_imports(&tree);
    fs::remove_dir_all(Path::new(&tree)).unwrap();
    assert_eq!(
        upward,
        [
            "game/src/lib.rs: names `loot_survivor_mcp::chain` (layer chain) from layer game",
            "src/wallet/signer.rs: names `crate::mcp` (layer mcp) from layer wallet",
            "src/chain/mod.rs: names `crate::torii` (layer torii) from layer chain",
        ]
    );
}

#[test]
fn the_scan_reads_grouped_and_nested_paths() {
    let text = "use crate::{game::felt::parse_felt, wallet::{A, B}, mcp};\nlet x = crate::torii::values::felt(v);";
    assert_eq!(
        named_modules(text, "crate::"),
        ["game", "wallet", "mcp", "torii"]
    );
    let text = "use crate::model::Item;\nuse loot_survivor_mcp::{chain::X, wallet};";
    assert_eq!(
        named_modules(text, "loot_survivor_mcp::"),
        ["chain", "wallet"]
    );
}

/// One dependency of a manifest: the table that declares it, its name, and its specification
/// (the inline value, or the keys of a `[dependencies.<name>]` table, one `key = value` a line).
#[derive(Debug)]
struct Dependency {
    table: String,
    name: String,
    spec: String,
}

impl Dependency {
    /// The value of `key` in the specification, if it has one (`{ key = "…" }` or `key = "…"`).
    fn key(&self, key: &str) -> Option<String> {
        let inner = self
            .spec
            .trim()
            .trim_start_matches('{')
            .trim_end_matches('}');
        inner.split([',', '\n']).find_map(|part| {
            let (k, v) = part.split_once('=')?;
            (k.trim() == key).then(|| v.trim().trim_matches('"').to_string())
        })
    }

    /// Whether it takes its specification from the workspace's `[workspace.dependencies]`.
    fn inherited(&self) -> bool {
        self.key("workspace").is_some_and(|v| v == "true")
    }

    /// The package it names (`package = "…"` when renamed).
    fn package(&self) -> String {
        self.key("package").unwrap_or_else(|| self.name.clone())
    }
}

/// Every dependency a Cargo manifest declares, in every dependency table (`[dependencies]`,
/// `[dev-dependencies]`, `[build-dependencies]`, `[target.'…'.dependencies]`,
/// `[workspace.dependencies]`, and `[dependencies.<name>]` tables); `name.key = value` reads as
/// `name = { key = value }`. Comments are dropped (so a `#` inside a string is not supported);
/// multi-line inline tables are not this workspace's style and are not read.
fn dependencies(manifest: &str) -> Vec<Dependency> {
    let is_table = |t: &str| t.ends_with("dependencies");
    let mut out: Vec<Dependency> = Vec::new();
    let mut table = String::new();
    // Set inside a `[<table>.<name>]` table: the dependency its keys specify.
    let mut own: Option<usize> = None;
    for line in manifest.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(header) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let header = header.trim();
            own = None;
            table = header.to_string();
            if let Some((parent, name)) = header.rsplit_once('.').filter(|(p, _)| is_table(p)) {
                out.push(Dependency {
                    table: parent.to_string(),
                    name: name.trim_matches('"').to_string(),
                    spec: String::new(),
                });
                own = Some(out.len() - 1);
            }
            continue;
        }
        if let Some(i) = own {
            out[i].spec.push_str(line);
            out[i].spec.push('\n');
        } else if is_table(&table) {
            let Some((key, value)) = line.split_once('=') else {
                continue;
            };
            let key = key.trim();
            let (name, spec) = match key.split_once('.') {
                Some((name, rest)) => (name, format!("{rest} = {}", value.trim())),
                None => (key, value.trim().to_string()),
            };
            out.push(Dependency {
                table: table.clone(),
                name: name.trim_matches('"').to_string(),
                spec,
            });
        }
    }
    out
}

#[test]
fn the_game_crate_depends_on_no_crate_of_this_workspace() {
    let read = |path: PathBuf| {
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let workspace = dependencies(&read(root().join("Cargo.toml")));
    let root_name = read(root().join("Cargo.toml"))
        .lines()
        .skip_while(|l| l.trim() != "[package]")
        .find_map(|l| {
            l.trim()
                .strip_prefix("name = ")
                .map(|n| n.trim_matches('"').to_string())
        })
        .expect("the root package's name");
    for (module, dir) in CRATES {
        let manifest = root().join(dir).join("Cargo.toml");
        let deps = dependencies(&read(manifest));
        assert!(
            deps.iter().any(|d| d.table == "dependencies"),
            "{dir}/Cargo.toml: no [dependencies] read; the scan is broken"
        );
        let mut wrong = Vec::new();
        for dep in &deps {
            // An inherited dependency is specified by the workspace root.
            let spec = if dep.inherited() {
                workspace
                    .iter()
                    .find(|w| w.table == "workspace.dependencies" && w.name == dep.name)
                    .unwrap_or_else(|| {
                        panic!("{dir}: `{}` is not a workspace dependency", dep.name)
                    })
            } else {
                dep
            };
            if dep.package() == root_name || spec.package() == root_name {
                wrong.push(format!("[{}] {}: the root package", dep.table, dep.name));
            }
            if let Some(path) = spec.key("path") {
                wrong.push(format!(
                    "[{}] {}: a path dependency ({path})",
                    dep.table, dep.name
                ));
            }
        }
        assert!(
            wrong.is_empty(),
            "{dir}/Cargo.toml (layer {module}) must depend on external crates only, so that the \
             build keeps it below every other layer:\n{}",
            wrong.join("\n")
        );
    }
}

#[test]
fn the_manifest_scan_reads_every_form() {
    let manifest = r#"
[package]
name = "x"

[dependencies]
a = "1"
b = { version = "2", features = ["f"] } # comment
c.workspace = true
d = { path = "../d" }

[target.'cfg(unix)'.dependencies]
e = { package = "renamed", version = "1" }

[dev-dependencies.f]
path = "f"

[workspace.dependencies]
c = { path = "c" }
"#;
    let deps = dependencies(manifest);
    let names: Vec<(&str, &str)> = deps
        .iter()
        .map(|d| (d.table.as_str(), d.name.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("dependencies", "a"),
            ("dependencies", "b"),
            ("dependencies", "c"),
            ("dependencies", "d"),
            ("target.'cfg(unix)'.dependencies", "e"),
            ("dev-dependencies", "f"),
            ("workspace.dependencies", "c"),
        ]
    );
    assert!(deps[2].inherited() && !deps[0].inherited());
    assert_eq!(deps[3].key("path").as_deref(), Some("../d"));
    assert_eq!(deps[4].package(), "renamed");
    assert_eq!(deps[5].key("path").as_deref(), Some("f"));
    assert_eq!(deps[6].key("path").as_deref(), Some("c"));
    assert_eq!(deps[1].key("path"), None);
}
