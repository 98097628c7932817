//! The indexer tools end to end: the real binary over stdio (rmcp's client), on a starknet-devnet
//! with the practice world, with `LS_TORII_URL` pointing at the local Torii stand-in. Checks the
//! limit rules and cursor round trips through the MCP tools, the namespace derived from the
//! manifest, and a game played on the chain showing up before Torii indexes it.

use crate::common;
use crate::torii_support;

use std::collections::BTreeSet;

use common::mcp::{all_pages, err, ok};
use loot_survivor_mcp::chain::manifest::read_manifest;
use loot_survivor_mcp::game::model::Adventurer;
use serde_json::{Value, json};
use starknet_types_core::felt::Felt;
use torii_support::{Endpoint, FakeTorii, Game};

/// starknet-devnet `--seed 0` account #0, the devnet profile's wallet.
const WALLET: &str = "0x64b48806902a367c8598f4f95c305e8c1a1acba5f082d294a43793113115691";

#[tokio::test]
async fn indexer_tools_over_stdio_with_limits_cursors_and_chain_merge() {
    let world = common::world().await;
    let tags = read_manifest(&world.manifest).expect("manifest");
    let fake = FakeTorii::start(tags["game_token_systems"]).await;
    let wallet = Felt::from_hex(WALLET).unwrap();
    for id in 2000..2230u64 {
        fake.add_game(&Game {
            id,
            owner: if id.is_multiple_of(4) {
                wallet
            } else {
                Felt::from(5u8)
            },
            score: (id * 31) % 600,
            game_over: id.is_multiple_of(5),
            player_name: None,
        });
        fake.set_adventurer(
            id,
            &Adventurer {
                health: if id.is_multiple_of(5) { 0 } else { 33 },
                xp: ((id * 31) % 600) as u16,
                action_count: 3,
                ..Adventurer::default()
            },
        );
    }
    let client = world
        .client(&[
            ("LS_TORII_URL", fake.url.as_str()),
            ("LS_TORII__CACHE_TTL_MS", "0"),
        ])
        .await;
    let c = &client.service;

    let first = ok(c, "ls_get_leaderboard", json!({})).await;
    assert_eq!(first["limit"], 50);
    assert_eq!(first["rows"].as_array().unwrap().len(), 50);
    assert_eq!(first["total"], 230);
    assert_eq!(first["chain"], "devnet");
    let capped = ok(c, "ls_get_leaderboard", json!({"limit": 201})).await;
    assert_eq!(capped["limit"], 200);
    assert_eq!(capped["rows"].as_array().unwrap().len(), 200);
    err(
        c,
        "ls_get_leaderboard",
        json!({"limit": 0}),
        "VALIDATION_ERROR",
    )
    .await;
    err(
        c,
        "ls_get_leaderboard",
        json!({"cursor": "garbage"}),
        "VALIDATION_ERROR",
    )
    .await;

    let pages = all_pages(c, "ls_get_leaderboard", json!({}), 10).await;
    assert_eq!(pages.len(), 5, "230 rows in pages of 50");
    let rows: Vec<Value> = pages
        .iter()
        .flat_map(|p| p["rows"].as_array().unwrap().clone())
        .collect();
    let ranks: Vec<u64> = rows.iter().map(|r| r["rank"].as_u64().unwrap()).collect();
    assert_eq!(ranks, (1..=230).collect::<Vec<_>>());
    let ids: BTreeSet<u64> = rows
        .iter()
        .map(|r| r["adventurer_id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids.len(), 230, "no row lost or repeated");

    let mine = all_pages(
        c,
        "ls_get_leaderboard",
        json!({"mine": true, "limit": 20}),
        10,
    )
    .await;
    let mine: Vec<Value> = mine
        .iter()
        .flat_map(|p| p["rows"].as_array().unwrap().clone())
        .collect();
    assert_eq!(mine.len(), 230 / 4 + 1);
    assert!(mine.iter().all(|r| r["owner"] == WALLET));

    // The GraphQL root came from the manifest's namespace (ls_0_0_9 -> ls009).
    assert!(
        fake.requests()
            .iter()
            .any(|(e, q)| *e == Endpoint::GraphQl && q.contains("ls009AdventurerPackedModels"))
    );

    // A game played on the chain is listed (from the chain) before Torii indexes it, and its
    // history shows the lag until its events are indexed.
    let started = ok(c, "ls_new_game", json!({"weapon": 46, "detail": "full"})).await;
    let id = started["adventurer_id"].as_u64().unwrap();
    let all = all_pages(c, "ls_list_adventurers", json!({"limit": 9}), 20).await;
    assert_eq!(all[0]["owner"], WALLET);
    let listed: Vec<Value> = all
        .iter()
        .flat_map(|p| p["adventurers"].as_array().unwrap().clone())
        .collect();
    let ids: Vec<u64> = listed
        .iter()
        .map(|r| r["adventurer_id"].as_u64().unwrap())
        .collect();
    let mut want: Vec<u64> = (2000..2230u64).filter(|i| i.is_multiple_of(4)).collect();
    want.push(id);
    want.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(ids, want, "newest first, each game once");
    let played = listed.iter().find(|r| r["adventurer_id"] == id).unwrap();
    assert_eq!(played["source"], "chain");
    assert_eq!(played["phase"], "in_battle");
    assert!(
        listed
            .iter()
            .filter(|r| r["adventurer_id"] != id)
            .all(|r| r["source"] == "torii")
    );

    let history = ok(c, "ls_get_game_events", json!({"adventurer_id": id})).await;
    assert_eq!(history["events"], json!([]));
    assert_eq!(history["lag"]["chain_action_count"], 1);
    assert_eq!(history["lag"]["actions_behind"], 1);
    let events: Vec<loot_survivor_mcp::game::events::GameEvent> =
        serde_json::from_value(started["events"].clone()).unwrap();
    fake.add_events(&events);
    let history = ok(
        c,
        "ls_get_game_events",
        json!({"adventurer_id": id, "limit": 1}),
    )
    .await;
    assert_eq!(history["events"][0], started["events"][0]);
    assert!(history["lag"].is_null());
    let pages = all_pages(
        c,
        "ls_get_game_events",
        json!({"adventurer_id": id, "limit": 1}),
        10,
    )
    .await;
    let got: Vec<Value> = pages
        .iter()
        .flat_map(|p| p["events"].as_array().unwrap().clone())
        .collect();
    assert_eq!(Value::Array(got), started["events"]);

    fake.set_down(true);
    let e = err(
        c,
        "ls_get_game_events",
        json!({"adventurer_id": id}),
        "INDEXER_ERROR",
    )
    .await;
    assert_eq!(e["retryable"], true);
    let fallback = ok(c, "ls_list_adventurers", json!({})).await;
    assert_eq!(fallback["indexer"]["source"], "chain");
    assert_eq!(fallback["adventurers"][0]["adventurer_id"], id);

    let stderr = client.shutdown().await;
    assert!(!stderr.contains("panicked"), "{stderr}");
}
