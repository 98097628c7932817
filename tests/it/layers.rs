//! The layers are crates, and the compiler holds them apart only if no crate's manifest names a
//! higher one: this reads the workspace's dependency graph (`cargo metadata`) and fails on any
//! member that depends on a layer above its own, and on a game crate whose dependency tree holds
//! an async runtime or an I/O crate.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use serde_json::Value;

mod generation_seam;
mod module_cycles;
mod source;

/// Each workspace member and its layer's rank: a member may depend only on lower ranks.
const LAYERS: &[(&str, u8)] = &[
    ("loot-survivor-game", 0),
    ("loot-survivor-base", 0),
    ("loot-survivor-wallet", 1),
    // The transaction journal and the Cartridge Controller's generic parts, side by side.
    ("loot-survivor-journal", 2),
    ("loot-survivor-cartridge", 2),
    ("loot-survivor-chain", 3),
    ("loot-survivor-sim", 4),
    // The practice deployers, beside the sim (neither uses the other); cli calls them.
    ("loot-survivor-deploy", 4),
    // The first-contact checks (ABIs, the VRF rule): they read through chain; cli runs them.
    ("loot-survivor-check", 4),
    ("loot-survivor-indexer", 5),
    ("loot-survivor-mcp-server", 6),
    ("loot-survivor-agent", 7),
    ("loot-survivor-cli", 8),
    ("loot-survivor-mcp", 9),
];

/// Crates the pure game layer must not reach, directly or through its dependencies.
const NOT_IN_GAME: &[&str] = &[
    "tokio",
    "async-std",
    "smol",
    "futures",
    "futures-util",
    "mio",
    "hyper",
    "reqwest",
    "rusqlite",
    "rmcp",
    "axum",
    "tracing",
];

/// The machine's target triple, so the graph holds what builds here (not wasm-only crates).
fn host() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(rustc)
        .arg("-vV")
        .output()
        .expect("run rustc -vV");
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("rustc -vV names the host")
        .to_string()
}

fn metadata() -> Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--locked",
            "--filter-platform",
        ])
        .arg(host())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run cargo metadata");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("cargo metadata JSON")
}

/// Each workspace member's name and the names of the workspace members it depends on (normal,
/// build and dev dependencies alike: a test of a lower layer may not reach up either).
fn member_deps(meta: &Value) -> BTreeMap<String, BTreeSet<String>> {
    let members: BTreeSet<&str> = meta["workspace_members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let packages: Vec<&Value> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| members.contains(p["id"].as_str().unwrap()))
        .collect();
    let names: BTreeSet<&str> = packages
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    packages
        .iter()
        .map(|p| {
            let deps = p["dependencies"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d["name"].as_str().unwrap().to_string())
                .filter(|d| names.contains(d.as_str()))
                .collect();
            (p["name"].as_str().unwrap().to_string(), deps)
        })
        .collect()
}

/// Every `member -> dependency` edge that does not go strictly down the layers, and every member
/// that has no layer.
fn upward(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let rank = |name: &str| LAYERS.iter().find(|(n, _)| *n == name).map(|(_, r)| *r);
    let mut found = Vec::new();
    for (member, deps) in graph {
        let Some(own) = rank(member) else {
            found.push(format!("{member} has no layer in tests/it/layers.rs"));
            continue;
        };
        for dep in deps {
            match rank(dep) {
                Some(r) if r < own => {}
                _ => found.push(format!(
                    "{member} depends on {dep}, a layer not below its own"
                )),
            }
        }
    }
    found
}

#[test]
fn every_layer_is_a_member_and_depends_only_downward() {
    let graph = member_deps(&metadata());
    let names: BTreeSet<&str> = graph.keys().map(String::as_str).collect();
    for (layer, _) in LAYERS {
        assert!(names.contains(layer), "{layer} is not a workspace member");
    }
    assert!(graph.len() >= 10, "{names:?}");
    let found = upward(&graph);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn an_upward_or_sideways_dependency_is_found() {
    let mut graph = member_deps(&metadata());
    graph
        .get_mut("loot-survivor-wallet")
        .unwrap()
        .insert("loot-survivor-mcp-server".into());
    graph
        .get_mut("loot-survivor-game")
        .unwrap()
        .insert("loot-survivor-base".into());
    graph.insert("loot-survivor-stray".into(), BTreeSet::new());
    assert_eq!(
        upward(&graph),
        [
            "loot-survivor-game depends on loot-survivor-base, a layer not below its own",
            "loot-survivor-stray has no layer in tests/it/layers.rs",
            "loot-survivor-wallet depends on loot-survivor-mcp-server, a layer not below its own",
        ]
    );
}

#[test]
fn the_game_crate_reaches_no_async_runtime_and_no_io_crate() {
    let meta = metadata();
    let packages: BTreeMap<&str, &str> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p["name"].as_str().unwrap()))
        .collect();
    let nodes: BTreeMap<&str, &Value> = meta["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["id"].as_str().unwrap(), n))
        .collect();
    let game = packages
        .iter()
        .find(|(_, name)| **name == "loot-survivor-game")
        .map(|(id, _)| *id)
        .unwrap();
    // Normal dependencies only (the kind is null): what a user of the crate builds.
    let mut seen = BTreeSet::new();
    let mut todo = vec![game];
    while let Some(id) = todo.pop() {
        if !seen.insert(id) {
            continue;
        }
        for dep in nodes[id]["deps"].as_array().unwrap() {
            let normal = dep["dep_kinds"]
                .as_array()
                .unwrap()
                .iter()
                .any(|k| k["kind"].is_null());
            if normal {
                todo.push(dep["pkg"].as_str().unwrap());
            }
        }
    }
    let reached: BTreeSet<&str> = seen.iter().map(|id| packages[id]).collect();
    assert!(reached.len() > 5, "{reached:?}");
    let bad: Vec<&&str> = NOT_IN_GAME
        .iter()
        .filter(|c| reached.contains(**c))
        .collect();
    assert!(bad.is_empty(), "the game crate reaches {bad:?}");
}
