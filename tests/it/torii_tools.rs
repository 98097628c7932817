//! The leaderboard tool through a real MCP client (rmcp, in process), over the embedded sim chain
//! and the local Torii stand-in: limits (default 50, cap 200), cursor round trips with no row lost
//! or repeated, filters, the dungeon scope, and `INDEXER_ERROR` only when no cached page can answer.

use crate::common;
use crate::tools;
use crate::torii_support;

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use common::mcp::{all_pages, err, ok};
use loot_survivor_mcp::game::engine::EngineSettings;
use loot_survivor_mcp::mcp::{LsServer, ServerOptions, connect_in_memory};
use loot_survivor_mcp::sim::{SimChain, sim_account};
use serde_json::json;
use starknet_types_core::felt::Felt;
use tools::{FIRST_SIM_ID, me, rows, seed_leaderboard, setup, setup_with};
use torii_support::Game;

#[tokio::test]
async fn the_indexer_tools_are_listed_read_only_with_schemas() {
    let s = setup(true, 0).await;
    let tools = s.client.list_all_tools().await.unwrap();
    for name in [
        "ls_get_leaderboard",
        "ls_list_adventurers",
        "ls_get_game_events",
    ] {
        let t = tools
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!(t.annotations.as_ref().unwrap().read_only_hint, Some(true));
        let out = serde_json::to_value(t.output_schema.as_ref().unwrap()).unwrap();
        assert!(out["properties"]["next_cursor"].is_object(), "{name}");
        assert!(out["properties"]["indexer"].is_object(), "{name}");
        let input = serde_json::to_value(&t.input_schema).unwrap();
        assert!(input["properties"]["limit"].is_object(), "{name}");
        assert!(input["properties"]["cursor"].is_object(), "{name}");
    }
}

#[tokio::test]
async fn leaderboard_limits_and_cursor_round_trip() {
    let s = setup(true, 0).await;
    seed_leaderboard(&s.fake);
    let c = &s.client;

    let first = ok(c, "ls_get_leaderboard", json!({})).await;
    assert_eq!(first["limit"], 50);
    assert_eq!(first["rows"].as_array().unwrap().len(), 50);
    assert_eq!(first["total"], 230);
    assert_eq!(first["chain"], "sim");
    assert_eq!(first["indexer"]["source"], "torii");
    assert!(first["next_cursor"].is_string());
    let row = &first["rows"][0];
    for key in [
        "rank",
        "adventurer_id",
        "player_name",
        "score",
        "level",
        "health",
        "owner",
        "game_over",
    ] {
        assert!(row.get(key).is_some(), "row lacks {key}: {row}");
    }
    assert_eq!(row["rank"], 1);

    let capped = ok(c, "ls_get_leaderboard", json!({"limit": 500})).await;
    assert_eq!(capped["limit"], 200);
    assert_eq!(capped["rows"].as_array().unwrap().len(), 200);
    let exact = ok(c, "ls_get_leaderboard", json!({"limit": 200})).await;
    assert_eq!(exact["rows"], capped["rows"]);
    for bad in [
        json!({"limit": 0}),
        json!({"limit": -1}),
        json!({"limit": "ten"}),
        json!({"limt": 5}),
    ] {
        err(c, "ls_get_leaderboard", bad, "VALIDATION_ERROR").await;
    }

    // Every page through the MCP tool, default size and others: each game once, ranks 1..=230.
    for limit in [50, 200, 7] {
        let pages = all_pages(c, "ls_get_leaderboard", json!({"limit": limit}), 40).await;
        let all = rows(&pages, "rows");
        let ranks: Vec<u64> = all.iter().map(|r| r["rank"].as_u64().unwrap()).collect();
        assert_eq!(ranks, (1..=230).collect::<Vec<_>>(), "limit {limit}");
        let ids: BTreeSet<u64> = all
            .iter()
            .map(|r| r["adventurer_id"].as_u64().unwrap())
            .collect();
        assert_eq!(ids.len(), 230);
        assert!(pages.last().unwrap()["next_cursor"].is_null());
        let scores: Vec<u64> = all.iter().map(|r| r["score"].as_u64().unwrap()).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]));
    }

    // Filters travel in the cursor: later pages are called with the cursor alone.
    let pages = all_pages(
        c,
        "ls_get_leaderboard",
        json!({"limit": 10, "live_only": true, "mine": true}),
        20,
    )
    .await;
    let mine = rows(&pages, "rows");
    let want = (1000..1230u64)
        .filter(|id| id.is_multiple_of(3) && !id.is_multiple_of(4))
        .count();
    assert_eq!(mine.len(), want);
    assert!(
        mine.iter()
            .all(|r| r["owner"] == format!("{:#x}", me()) && r["game_over"] == false)
    );
    let ranks: Vec<u64> = mine.iter().map(|r| r["rank"].as_u64().unwrap()).collect();
    assert!(
        ranks.windows(2).all(|w| w[0] < w[1]),
        "global ranks, increasing"
    );
    assert!(
        pages
            .iter()
            .all(|p| p["filters"] == json!({"live_only": true, "mine": true, "scope": "all"}))
    );

    let cursor = first["next_cursor"].as_str().unwrap();
    err(
        c,
        "ls_get_leaderboard",
        json!({"cursor": cursor, "live_only": true}),
        "VALIDATION_ERROR",
    )
    .await;
    err(
        c,
        "ls_get_leaderboard",
        json!({"cursor": "bm90IGEgY3Vyc29y"}),
        "VALIDATION_ERROR",
    )
    .await;
    err(
        c,
        "ls_get_leaderboard",
        json!({"cursor": format!("{cursor}x")}),
        "VALIDATION_ERROR",
    )
    .await;
    let same = ok(
        c,
        "ls_get_leaderboard",
        json!({"cursor": cursor, "live_only": false}),
    )
    .await;
    assert_eq!(same["rows"][0]["rank"], 51);
}

#[tokio::test]
async fn the_dungeon_leaderboard_is_the_default_where_the_profile_names_a_dungeon() {
    let s = setup_with(true, 0, true).await;
    let c = &s.client;
    // 30 games: every third one minted by another minter (a tournament), with the best scores.
    for id in 1..=30u64 {
        let g = Game {
            id,
            owner: Felt::from(7u8),
            score: if id.is_multiple_of(3) { 1000 + id } else { id },
            game_over: false,
            player_name: None,
        };
        if id.is_multiple_of(3) {
            s.fake.add_game_minted_by(&g, torii_support::OTHER_MINTER);
        } else {
            s.fake.add_game(&g);
        }
    }
    let official = ok(c, "ls_get_leaderboard", json!({"limit": 50})).await;
    assert_eq!(official["filters"]["scope"], "dungeon");
    assert_eq!(official["total"], 20);
    let ids: Vec<u64> = official["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["adventurer_id"].as_u64().unwrap())
        .collect();
    let mut want: Vec<u64> = (1..=30u64).filter(|id| !id.is_multiple_of(3)).collect();
    want.reverse();
    assert_eq!(ids, want, "ranked among the dungeon's games only");
    let all = ok(
        c,
        "ls_get_leaderboard",
        json!({"limit": 50, "scope": "all"}),
    )
    .await;
    assert_eq!(all["filters"]["scope"], "all");
    assert_eq!(all["total"], 30);
    assert_eq!(all["rows"][0]["adventurer_id"], 30);
    assert_ne!(all["rows"], official["rows"]);
    // The scope travels in the cursor, and a contradicting scope is refused.
    let pages = all_pages(c, "ls_get_leaderboard", json!({"limit": 7}), 10).await;
    let paged: Vec<u64> = rows(&pages, "rows")
        .iter()
        .map(|r| r["adventurer_id"].as_u64().unwrap())
        .collect();
    assert_eq!(paged, want);
    let cursor = pages[0]["next_cursor"].as_str().unwrap();
    err(
        c,
        "ls_get_leaderboard",
        json!({"cursor": cursor, "scope": "all"}),
        "VALIDATION_ERROR",
    )
    .await;
    err(
        c,
        "ls_get_leaderboard",
        json!({"scope": "tournament"}),
        "VALIDATION_ERROR",
    )
    .await;
}

#[tokio::test]
async fn without_a_dungeon_the_scope_is_all_and_dungeon_is_refused() {
    // Torii without a dungeon address, and the sim chain's own answers: both default to "all".
    let s = setup(true, 0).await;
    seed_leaderboard(&s.fake);
    let page = ok(&s.client, "ls_get_leaderboard", json!({"limit": 3})).await;
    assert_eq!(page["filters"]["scope"], "all");
    let e = err(
        &s.client,
        "ls_get_leaderboard",
        json!({"scope": "dungeon"}),
        "VALIDATION_ERROR",
    )
    .await;
    assert_eq!(e["details"]["field"], "scope");
    let sim = Arc::new(SimChain::new(EngineSettings::default(), FIRST_SIM_ID));
    let server = LsServer::new(
        sim,
        ServerOptions {
            chain: "sim".into(),
            strict: true,
            default_timeout: Duration::from_secs(30),
        },
    )
    .with_wallet(sim_account());
    let c = connect_in_memory(server, ()).await.expect("MCP handshake");
    ok(&c, "ls_new_game", json!({"weapon": "Short Sword"})).await;
    let page = ok(&c, "ls_get_leaderboard", json!({})).await;
    assert_eq!(page["filters"]["scope"], "all");
    assert_eq!(page["indexer"]["source"], "sim");
    assert_eq!(page["rows"].as_array().unwrap().len(), 1);
    let page = ok(&c, "ls_get_leaderboard", json!({"scope": "all"})).await;
    assert_eq!(page["rows"].as_array().unwrap().len(), 1);
    err(
        &c,
        "ls_get_leaderboard",
        json!({"scope": "dungeon"}),
        "VALIDATION_ERROR",
    )
    .await;
}

#[tokio::test]
async fn leaderboard_failures_are_indexer_errors_unless_a_cached_page_exists() {
    let s = setup(true, 60_000).await;
    seed_leaderboard(&s.fake);
    let c = &s.client;
    let fresh = ok(c, "ls_get_leaderboard", json!({"limit": 5})).await;
    let cached = ok(c, "ls_get_leaderboard", json!({"limit": 5})).await;
    assert_eq!(cached["indexer"]["source"], "cache");
    assert!(cached["indexer"]["cache_age_ms"].is_u64());
    assert_eq!(cached["rows"], fresh["rows"]);
    s.fake.set_down(true);
    let e = err(
        c,
        "ls_get_leaderboard",
        json!({"limit": 6}),
        "INDEXER_ERROR",
    )
    .await;
    assert_eq!(e["retryable"], true);
    assert_eq!(e["details"]["kind"], "http_status");
    assert!(!e["message"].as_str().unwrap().contains("127.0.0.1"), "{e}");
    s.fake.set_down(false);
    s.fake.fail_next(
        torii_support::Endpoint::Sql,
        torii_support::Fault::Malformed,
    );
    let e = err(
        c,
        "ls_get_leaderboard",
        json!({"limit": 7}),
        "INDEXER_ERROR",
    )
    .await;
    assert_eq!(e["retryable"], false);
}
