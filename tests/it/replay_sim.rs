//! Every write tool answers a retry (same `expected_action_count`) with the earlier result, on
//! the embedded sim chain through a real MCP client: nothing acts twice, and no check that only
//! held before the action (ls_upgrade's point count) runs ahead of the replay lookup.

use crate::common;

use common::mcp::practice_agent;
use loot_survivor_mcp::agent::Agent;
use serde_json::{Value, json};

async fn state(a: &Agent, id: u64) -> Value {
    a.call("ls_get_adventurer", json!({"adventurer_id": id}))
        .await
        .unwrap()["adventurer"]
        .clone()
}

/// Calls `tool` at the adventurer's current action_count, then retries it: the retry must be
/// the earlier result, and the adventurer must not have moved. Returns the first result.
async fn twice(a: &Agent, tool: &str, id: u64, mut args: Value) -> Value {
    let count = state(a, id).await["action_count"].as_u64().unwrap();
    args["adventurer_id"] = json!(id);
    args["expected_action_count"] = json!(count);
    let first = a
        .call(tool, args.clone())
        .await
        .unwrap_or_else(|e| panic!("{tool} {args}: {e}"));
    assert_eq!(first["replayed"], false, "{tool}");
    let after = state(a, id).await;
    assert_eq!(after["action_count"], count + 1, "{tool} acted once");
    let retry = a
        .call(tool, args.clone())
        .await
        .unwrap_or_else(|e| panic!("retry of {tool} {args}: {e}"));
    assert_eq!(retry["replayed"], true, "{tool}");
    assert_eq!(retry["tx_hash"], first["tx_hash"], "{tool}");
    assert_eq!(retry["adventurer"], first["adventurer"], "{tool}");
    assert_eq!(state(a, id).await, after, "{tool}: the retry did not act");
    first
}

#[tokio::test]
async fn every_write_tool_replays_a_retry() {
    let a = practice_agent().await;
    let started = a
        .call(
            "ls_new_game",
            json!({"weapon": "Short Sword", "expected_action_count": 0}),
        )
        .await
        .unwrap();
    let id = started["adventurer_id"].as_u64().unwrap();
    // The retry names the minted adventurer (the hint of an interrupted ls_new_game).
    let retry = a
        .call(
            "ls_new_game",
            json!({"weapon": "Short Sword", "adventurer_id": id, "expected_action_count": 0}),
        )
        .await
        .unwrap();
    assert_eq!(retry["replayed"], true);
    assert_eq!(retry["tx_hash"], started["tx_hash"]);

    twice(&a, "ls_attack", id, json!({"to_the_death": true})).await;
    let points = state(&a, id).await["stat_upgrades_available"]
        .as_u64()
        .unwrap();
    assert!(points > 0, "the starter beast's level-up gives points");
    // After it lands no points are left: a retry must not be refused as "must add up to 0".
    twice(&a, "ls_upgrade", id, json!({"dexterity": points})).await;

    let s = state(&a, id).await;
    let gold = s["gold"].as_u64().unwrap();
    let item = s["market"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["price"].as_u64().unwrap() <= gold)
        .min_by_key(|m| m["price"].as_u64().unwrap())
        .expect("an affordable market item")
        .clone();
    let item_id = item["id"].as_u64().unwrap();
    twice(
        &a,
        "ls_buy_item",
        id,
        json!({"items": [{"item": item_id, "equip": false}]}),
    )
    .await;
    twice(&a, "ls_equip", id, json!({"items": [item_id]})).await;
    twice(&a, "ls_drop", id, json!({"items": [item_id]})).await;

    let mut explored = twice(&a, "ls_explore", id, json!({"till_beast": true})).await;
    for _ in 0..20 {
        if explored["adventurer"]["phase"] == "in_battle" {
            break;
        }
        if explored["adventurer"]["phase"] == "stat_upgrade" {
            let points = explored["adventurer"]["stat_upgrades_available"].clone();
            twice(&a, "ls_upgrade", id, json!({"vitality": points})).await;
        }
        explored = twice(&a, "ls_explore", id, json!({"till_beast": true})).await;
    }
    assert_eq!(
        explored["adventurer"]["phase"], "in_battle",
        "a beast was found"
    );
    twice(&a, "ls_flee", id, json!({})).await;
}
