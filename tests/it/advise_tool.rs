//! `ls_advise` through a real MCP client (rmcp over an in-memory pipe) on the sim chain: compact
//! answers for the market, stats and weapons, typed errors; and `play --json` reproducible per
//! seed through the real binary.

use crate::common;

use common::BIN;
use common::mcp::{agent_error, practice_agent};
use loot_survivor_mcp::agent::AgentError;
use serde_json::{Value, json};

/// The error code of a failed agent call.
fn code(e: AgentError) -> String {
    agent_error(e)["error"]["code"]
        .as_str()
        .unwrap()
        .to_string()
}

fn size(v: &Value) -> usize {
    serde_json::to_string(v).unwrap().len()
}

#[tokio::test]
async fn advice_is_compact_and_follows_the_phase() {
    let a = practice_agent().await;
    a.call("ls_new_game", json!({"weapon": "short sword"}))
        .await
        .unwrap();
    let w = a
        .call("ls_advise", json!({"adventurer_id": 1}))
        .await
        .unwrap();
    assert_eq!(w["weapons"][0]["equipped"], true, "{w}");
    assert!(size(&w) < 1500, "{} bytes", size(&w));
    a.call("ls_attack", json!({"adventurer_id": 1}))
        .await
        .unwrap();
    let s = a
        .call("ls_advise", json!({"adventurer_id": 1}))
        .await
        .unwrap();
    let stats = s["stats"]
        .as_array()
        .expect("stats advice with a point to spend");
    assert!(stats.len() >= 5);
    assert!(stats[0]["value"].as_f64() >= stats[1]["value"].as_f64());
    assert!(s["market"].is_null() && s["weapons"].is_null());
    assert!(size(&s) < 1500, "{} bytes", size(&s));
    assert_eq!(
        code(
            a.call("ls_advise", json!({"adventurer_id": 1, "about": "market"}))
                .await
                .unwrap_err()
        ),
        "VALIDATION_ERROR",
        "the market is closed while points are unspent"
    );
    a.call("ls_upgrade", json!({"adventurer_id": 1, "vitality": 1}))
        .await
        .unwrap();
    let m = a
        .call("ls_advise", json!({"adventurer_id": 1, "keep_gold": 10}))
        .await
        .unwrap();
    let market = &m["market"];
    let items = market["items"].as_array().unwrap();
    assert!(!items.is_empty() && items.len() <= 6);
    assert!(
        items
            .windows(2)
            .all(|w| w[0]["per_gold"].as_f64() >= w[1]["per_gold"].as_f64())
    );
    assert!(market["best_buys"]["cost"].as_u64().unwrap() <= 40 - 10);
    assert!(size(&m) < 1500, "{} bytes", size(&m));
    assert_eq!(
        code(
            a.call("ls_advise", json!({"adventurer_id": 1, "about": "weapons"}))
                .await
                .unwrap_err()
        ),
        "VALIDATION_ERROR"
    );
    assert_eq!(
        code(
            a.call("ls_advise", json!({"adventurer_id": 1, "limit": 0}))
                .await
                .unwrap_err()
        ),
        "VALIDATION_ERROR"
    );
    assert_eq!(
        code(
            a.call("ls_advise", json!({"adventurer_id": 99}))
                .await
                .unwrap_err()
        ),
        "NOT_FOUND"
    );
    let bought = a
        .call(
            "ls_buy_item",
            json!({"adventurer_id": 1, "items": market["best_buys"]["items"].as_array().unwrap().iter().map(|i| json!({"item": i, "equip": true})).collect::<Vec<_>>()}),
        )
        .await
        .unwrap();
    assert!(bought["adventurer"]["gold"].as_u64().unwrap() >= 10);
    a.close().await;
}

#[test]
fn play_json_is_reproducible_per_seed() {
    let home = tempfile::tempdir().unwrap();
    let run = |seed: &str| {
        let out = std::process::Command::new(BIN)
            .args([
                "play",
                "--games",
                "3",
                "--seed",
                seed,
                "--json",
                "--strategy",
                "both",
            ])
            .env("LS_HOME", home.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let first = run("5");
    assert_eq!(first, run("5"), "same seed, same games");
    let lines: Vec<Value> = first
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 8, "3 games and a summary per strategy");
    assert_eq!(lines[0]["strategy"], "baseline");
    assert_eq!(lines[4]["strategy"], "planner");
    assert!(lines[0]["level"].as_u64().unwrap() >= 1);
    let summary = &lines[7]["summary"];
    assert_eq!(summary["games"], 3);
    assert!(summary["level"]["median"].as_f64().unwrap() >= 1.0);
    assert_ne!(first, run("6"), "another seed, other dungeons");
}
