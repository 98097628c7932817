//! A real third-party MCP client: the official Python SDK (PyPI `mcp` 2.x) spawns the real binary
//! over stdio and plays one whole game on starknet-devnet (`tests/python/play_game.py`). It
//! validates every structured result against the tool's output schema on its own, so a schema
//! that only rmcp accepts fails here. On the v2 world, each state the client read is checked
//! against the engine's replay of its game.

use crate::common;

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use loot_survivor_mcp::deploy::v2::V2Deployment;
use loot_survivor_mcp::game::AdventurerId;
use loot_survivor_mcp::game::catalogue::item_by_name;
use loot_survivor_mcp::game::engine::{Action, EngineSettings};
use loot_survivor_mcp::game::v2::Replay;
use serde_json::Value;

use common::v2_replay::{action_of, assert_matches_engine, seed_of};

/// The whole game (hundreds of devnet transactions) must finish well within this.
const TIMEOUT: Duration = Duration::from_secs(600);

/// The venv python with `mcp` installed: `LS_PYTHON`, else the one `scripts/setup-python-client.sh`
/// creates in the project cache.
fn python() -> PathBuf {
    let python = std::env::var_os("LS_PYTHON").map_or_else(
        || {
            loot_survivor_mcp::devnet::cache_dir()
                .join("py-mcp")
                .join("bin")
                .join("python")
        },
        PathBuf::from,
    );
    assert!(
        python.is_file(),
        "no Python MCP client at {}: run scripts/setup-python-client.sh (the README test command does)",
        python.display()
    );
    python
}

fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_client_plays_a_whole_game() {
    let world = common::world().await;
    let summary = play_with_python(&world.devnet.url, &world.manifest, "v1").await;
    assert!(summary["adventurer_id"].is_u64(), "{summary}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_client_plays_a_whole_v2_game() {
    let devnet = common::start_devnet(&[]).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("v2.json");
    common::devnet_deploy(
        &devnet.url,
        &["--generation", "v2", "--vrf", "nonce"],
        &file,
    )
    .await;
    let summary = play_with_python(&devnet.url, &file, "v2").await;
    let id = summary["adventurer_id"]
        .as_str()
        .expect("a packed id is a string");
    assert!(
        id.len() > 20 && id.chars().all(|c| c.is_ascii_digit()),
        "{summary}"
    );

    // Every state the Python client read equals the engine's, each action given the seed its
    // transaction announced.
    let game = V2Deployment::load(&file).unwrap().game;
    let mut replay = Replay::new(
        AdventurerId::parse(id).unwrap(),
        EngineSettings::practice_world(),
    );
    let weapon = item_by_name("Wand").unwrap().id;
    replay.apply(&Action::StartGame { weapon }, None).unwrap();
    assert_matches_engine(&summary["start"]["after"], &replay.state(), "start");
    let moves = summary["moves"].as_array().expect("the client's moves");
    assert_eq!(
        summary["transactions"].as_u64(),
        Some(moves.len() as u64 + 1),
        "the start and one transaction per move"
    );
    for (i, m) in moves.iter().enumerate() {
        let tool = m["tool"].as_str().unwrap();
        let seed = seed_of(&devnet.url, game, m["tx_hash"].as_str().unwrap()).await;
        replay
            .apply(&action_of(tool, &m["args"]), seed)
            .unwrap_or_else(|e| panic!("move {i} {tool}: the engine refused what landed: {e:?}"));
        assert_matches_engine(&m["after"], &replay.state(), &format!("move {i} {tool}"));
    }
}

/// Runs `tests/python/play_game.py` on `rpc` with the deployment `file` of `generation`; checks
/// the game ended in death with enough transactions and returns its summary.
async fn play_with_python(rpc: &url::Url, file: &std::path::Path, generation: &str) -> Value {
    let python = python();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/play_game.py");
    // The server's journal goes to a temporary data directory, never the user's.
    let home = tempfile::tempdir().unwrap();

    let child = tokio::process::Command::new(&python)
        .arg(&script)
        .arg("--server-bin")
        .arg(common::BIN)
        .arg("--rpc-url")
        .arg(rpc.as_str())
        .arg("--manifest")
        .arg(file)
        .arg("--generation")
        .arg(generation)
        .env("LS_HOME", home.path())
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .env("PYTHONUNBUFFERED", "1")
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|e| panic!("run {}: {e}", python.display()));
    let out = tokio::time::timeout(TIMEOUT, child.wait_with_output())
        .await
        .unwrap_or_else(|_| panic!("play_game.py did not finish within {TIMEOUT:?}"))
        .expect("wait for play_game.py");

    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("--- play_game.py stderr (client and server logs) ---\n{stderr}\n--- end ---");
    assert!(
        out.status.success(),
        "play_game.py exited with {}\nstdout:\n{stdout}\nstderr (tail):\n{}",
        out.status,
        tail(&stderr, 60)
    );

    let last = stdout
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_else(|| panic!("play_game.py printed nothing on stdout"));
    let summary: Value = serde_json::from_str(last)
        .unwrap_or_else(|e| panic!("the last stdout line is not JSON ({e}): {last}"));
    assert_eq!(summary["phase"], "dead", "{summary}");
    assert!(
        summary["level"].as_u64().is_some_and(|l| l >= 1),
        "{summary}"
    );
    assert!(summary["xp"].is_u64(), "{summary}");
    let transactions = summary["transactions"]
        .as_u64()
        .expect("transactions count");
    // A v1 game is one transaction to start and lasts long with this strategy; a v2 game's draws
    // depend on its id, which packs the mint time: one was seen dying at level 2 after 7.
    let least = if generation == "v1" { 10 } else { 5 };
    assert!(
        transactions >= least,
        "only {transactions} transactions: {summary}"
    );
    eprintln!(
        "python client ({generation}): adventurer {} died at level {}, xp {}, {transactions} transactions",
        summary["adventurer_id"], summary["level"], summary["xp"]
    );
    summary
}
