//! What a write costs on a real node, counted at a proxy between the server and devnet: at most
//! three JSON-RPC requests per confirmed write (estimate, send, receipt) and four for a new game
//! (mint and start in one transaction), with the state built from the receipt's events equal to a
//! fresh read by another server process after every action (so no read refreshes what the
//! playing server knows: its states are derived from events alone, one from the other).

use crate::common;

use std::collections::BTreeMap;

use serde_json::{Value, json};

/// Actions played after the new game (the game usually ends sooner).
const ACTIONS: usize = 60;

fn upgrade_args(id: u64, adv: &Value) -> Value {
    let points = adv["stat_upgrades_available"].as_u64().unwrap();
    json!({"adventurer_id": id, "strength": points.div_ceil(2), "dexterity": points / 2, "detail": "full"})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_cost_three_requests_and_return_what_a_fresh_read_shows() {
    let world = common::world().await;
    let (proxy_url, faults) = common::proxy::start(world.devnet.url.clone()).await;
    let player = world.client_at(&proxy_url, (), &[]).await;
    let observer = world.client(&[]).await;
    let total = || faults.seen.lock().unwrap().len();
    let methods_since = |from: usize| -> Vec<String> {
        faults.seen.lock().unwrap()[from..]
            .iter()
            .map(|(m, _)| m.clone())
            .collect()
    };
    let fresh = |id: u64| {
        let observer = &observer;
        async move {
            observer
                .ok(
                    "ls_get_adventurer",
                    json!({"adventurer_id": id, "detail": "full"}),
                )
                .await["adventurer"]
                .clone()
        }
    };

    let before = total();
    let started = player
        .ok("ls_new_game", json!({"weapon": "Wand", "detail": "full"}))
        .await;
    // The first write of a process also reads the account nonce and the token contract.
    assert!(
        total() - before <= 6,
        "first new game: {:?}",
        methods_since(before)
    );
    assert_eq!(
        started["mint_tx_hash"], started["tx_hash"],
        "one transaction"
    );
    let id = started["adventurer_id"].as_u64().unwrap();
    assert_eq!(started["adventurer"], fresh(id).await);

    let mut costs: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut last = started["adventurer"].clone();
    let (mut bought, mut equipped, mut dropped, mut fled) = (false, false, false, false);
    for step in 0..ACTIONS {
        let adv = last.clone();
        let level = adv["level"].as_u64().unwrap();
        let gold = adv["gold"].as_u64().unwrap();
        let bag: Vec<u64> = adv["bag"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["id"].as_u64().unwrap())
            .collect();
        let affordable = adv["market"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["owned"] == false && m["price"].as_u64().unwrap() <= gold);
        let (tool, args) = match adv["phase"].as_str().unwrap() {
            "dead" => break,
            "in_battle" if level > 1 && !fled => {
                fled = true;
                ("ls_flee", json!({"adventurer_id": id, "detail": "full"}))
            }
            "in_battle" => ("ls_attack", json!({"adventurer_id": id, "detail": "full"})),
            "stat_upgrade" => ("ls_upgrade", upgrade_args(id, &adv)),
            "exploring" if !bought && affordable.is_some() => {
                bought = true;
                let item = affordable.unwrap()["id"].clone();
                (
                    "ls_buy_item",
                    json!({"adventurer_id": id, "items": [{"item": item, "equip": false}], "detail": "full"}),
                )
            }
            "exploring" if bought && !equipped && !bag.is_empty() => {
                equipped = true;
                (
                    "ls_equip",
                    json!({"adventurer_id": id, "items": [bag[0]], "detail": "full"}),
                )
            }
            "exploring" if equipped && !dropped && !bag.is_empty() => {
                dropped = true;
                (
                    "ls_drop",
                    json!({"adventurer_id": id, "items": [bag[0]], "detail": "full"}),
                )
            }
            "exploring" => ("ls_explore", json!({"adventurer_id": id, "detail": "full"})),
            other => panic!("unexpected phase {other}"),
        };
        let before = total();
        let out = player.ok(tool, args).await;
        let cost = total() - before;
        assert!(
            cost <= 3,
            "{tool} at step {step} cost {cost} requests: {:?}",
            methods_since(before)
        );
        costs.entry(tool.to_string()).or_default().push(cost);
        assert_eq!(
            out["adventurer"],
            fresh(id).await,
            "{tool} at step {step}: the state from the events differs from a fresh read"
        );
        last = out["adventurer"].clone();
    }
    for tool in ["ls_attack", "ls_upgrade", "ls_explore", "ls_buy_item"] {
        assert!(
            costs.contains_key(tool),
            "the game never used {tool}: {costs:?}"
        );
    }

    let before = total();
    let again = player
        .ok("ls_new_game", json!({"weapon": "Club", "detail": "full"}))
        .await;
    assert!(
        total() - before <= 4,
        "new game: {:?}",
        methods_since(before)
    );
    let id = again["adventurer_id"].as_u64().unwrap();
    assert_eq!(again["adventurer"], fresh(id).await);
    eprintln!("requests per write: {costs:?}");
    player.shutdown().await;
    observer.shutdown().await;
}

/// On a node with block times (devnet closing a block every 2 s), a transaction not yet in a
/// block is followed by subscription (one WebSocket, no status polling) with `tx.follow =
/// subscribe`, and by status polling with `poll`; both confirm the write.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pending_transactions_are_followed_by_subscription_or_polling() {
    let world = common::world_with(&["--block-generation-on", "2"]).await;
    let (proxy_url, faults) = common::proxy::start(world.devnet.url.clone()).await;
    let count = |from: usize, method: &str| {
        faults.seen.lock().unwrap()[from..]
            .iter()
            .filter(|(m, _)| m == method)
            .count()
    };
    for (follow, ws, polls) in [("subscribe", 1, false), ("poll", 0, true)] {
        let client = world
            .client_at(&proxy_url, (), &[("LS_TX__FOLLOW", follow)])
            .await;
        let started = client.ok("ls_new_game", json!({"weapon": "Book"})).await;
        assert_eq!(started["status"], "ACCEPTED_ON_L2");
        let id = started["adventurer_id"].as_u64().unwrap();
        let from = faults.seen.lock().unwrap().len();
        let out = client.ok("ls_attack", json!({"adventurer_id": id})).await;
        assert_eq!(out["status"], "ACCEPTED_ON_L2", "{follow}");
        assert_eq!(count(from, "ws"), ws, "{follow}: subscriptions");
        assert_eq!(
            count(from, "starknet_getTransactionStatus") > 0,
            polls,
            "{follow}: status polls"
        );
        client.shutdown().await;
    }
}
