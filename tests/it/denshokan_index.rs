//! Denshokan as the indexer tools' index, through a real MCP client (rmcp, in process) over the
//! Denshokan stand-in (tests/it/denshokan_support): the leaderboard by scope (the dungeon's minter or
//! every game of game 1), `live_only` and `mine` with ranks among the scope's games, cursors that
//! page by offset, an owner's games newest mint first with ids above 2^250 as decimal strings, the
//! lag warning, and a 429, a server that is down and an event history as `INDEXER_ERROR`.

use crate::common;
use crate::denshokan_support;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use common::mcp::{all_pages, err, ok};
use denshokan_support::{DUNGEON, FakeDenshokan, Fault, OTHER_MINTER, Row};
use loot_survivor_mcp::denshokan::{
    DEATH_MOUNTAIN_GAME_ID, DenshokanClient, DenshokanIndex, DenshokanOptions,
};
use loot_survivor_mcp::game::engine::EngineSettings;
use loot_survivor_mcp::mcp::{LsServer, ServerOptions, connect_in_memory};
use loot_survivor_mcp::sim::SimChain;
use rmcp::RoleClient;
use rmcp::service::RunningService;
use serde_json::{Value, json};
use starknet_types_core::felt::Felt;

/// The wallet of the server (Alice) and another player.
const ALICE: &str = "0xa11ce";
const BOB: &str = "0xb0b";
/// A packed id above 2^250 in decimal, as the API writes `tokenId`; Alice's first game.
const BIG_ID: &str = "1809251394333065553493296641359414133978688967941018027463383199922813665281";
/// Alice's newest game: minted last, with the smallest id (packed ids do not sort by mint time).
const NEWEST_ALICE: &str =
    "1809251394333065553493296641359414133978688967941018027463383199922813665275";

/// The id of game `k`: `BIG_ID` minus `k`, in decimal.
fn id(k: u64) -> String {
    (Felt::from_dec_str(BIG_ID).unwrap() - Felt::from(k)).to_string()
}

/// 20 games minted one a second in order k = 0..20, id `BIG_ID - k`: Alice's are k = 0..7 (so
/// her newest, k = 6, has the smallest id), Bob's the rest; score `(k * 37) % 100`; every third
/// is over; k = 3 and k = 10 were minted by another minter.
fn seed(fake: &FakeDenshokan) {
    fake.add((0..20u64).map(|k| {
        let owner = if k < 7 { ALICE } else { BOB };
        let mut r = Row::new(&id(k), owner, (k * 37) % 100, 100 + k as u32);
        r.game_over = k % 3 == 0;
        if k == 3 || k == 10 {
            r.minted_by = OTHER_MINTER;
        }
        r.player_name = Some(format!("hero{k}"));
        r
    }));
}

fn felt(hex: &str) -> Felt {
    Felt::from_hex(hex).unwrap()
}

/// An MCP client of a server whose index is Denshokan (the stand-in, the dungeon as official
/// scope), with Alice's wallet.
async fn serve(fake: &FakeDenshokan) -> RunningService<RoleClient, ()> {
    let client = DenshokanClient::new(DenshokanOptions {
        url: fake.url.parse().unwrap(),
        request_timeout: Duration::from_secs(5),
        retries: 1,
        max_retry_wait: Duration::from_millis(200),
        cache_ttl: Duration::ZERO,
        api_key: None,
    })
    .unwrap();
    let index = DenshokanIndex::new(
        Arc::new(client),
        DEATH_MOUNTAIN_GAME_ID,
        Some(felt(DUNGEON)),
    );
    let sim = Arc::new(SimChain::new(EngineSettings::default(), 5000));
    let server = LsServer::new(
        sim,
        ServerOptions {
            chain: "mainnet".into(),
            strict: true,
            default_timeout: Duration::from_secs(30),
        },
    )
    .with_wallet(felt(ALICE))
    .with_index(Arc::new(index));
    connect_in_memory(server, ()).await.expect("MCP handshake")
}

/// The seeded stand-in and a client of a server reading it.
async fn seeded() -> (FakeDenshokan, RunningService<RoleClient, ()>) {
    let fake = FakeDenshokan::start().await;
    seed(&fake);
    let c = serve(&fake).await;
    (fake, c)
}

/// Every row of every page, in order.
fn rows(pages: &[Value]) -> Vec<Value> {
    pages
        .iter()
        .flat_map(|p| p["rows"].as_array().unwrap().clone())
        .collect()
}

/// The ranks the API gives the scope's games: score descending, ties to the earliest mint.
fn expected_ranks(keep: impl Fn(u64) -> bool) -> BTreeMap<String, u64> {
    let mut ks: Vec<u64> = (0..20).filter(|k| keep(*k)).collect();
    ks.sort_by_key(|k| (std::cmp::Reverse((k * 37) % 100), *k));
    ks.iter()
        .enumerate()
        .map(|(i, k)| (id(*k), i as u64 + 1))
        .collect()
}

fn official(k: u64) -> bool {
    k != 3 && k != 10
}

#[tokio::test]
async fn the_leaderboard_pages_by_scope_with_the_scope_s_ranks() {
    let (fake, c) = seeded().await;

    let pages = all_pages(&c, "ls_get_leaderboard", json!({"limit": 4}), 10).await;
    assert_eq!(pages.len(), 5, "18 official games, 4 a page");
    let first = &pages[0];
    assert_eq!(first["filters"]["scope"], "dungeon");
    assert_eq!(first["total"], 18);
    assert_eq!(first["indexer"]["source"], "denshokan");
    let warnings = first["warnings"].to_string();
    assert!(
        warnings.contains("may lag the chain by up to ~30 s"),
        "{warnings}"
    );
    let got: BTreeMap<String, u64> = rows(&pages)
        .iter()
        .map(|r| {
            assert!(r["health"].is_null(), "{r}");
            (
                r["adventurer_id"].as_str().unwrap().to_string(),
                r["rank"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(got, expected_ranks(official));
    let ranks: Vec<u64> = rows(&pages)
        .iter()
        .map(|r| r["rank"].as_u64().unwrap())
        .collect();
    assert_eq!(ranks, (1..=18).collect::<Vec<_>>());
    let top = &rows(&pages)[0];
    // k = 8 scores 96, the best.
    assert_eq!(top["adventurer_id"], id(8));
    assert_eq!(
        (top["score"].as_u64(), top["player_name"].as_str()),
        (Some(96), Some("hero8"))
    );
    assert_eq!(top["owner"], BOB);
    let lists: Vec<_> = fake
        .log()
        .into_iter()
        .filter(|l| l.path == "/tokens")
        .collect();
    let offsets: Vec<&str> = lists.iter().map(|l| l.param("offset").unwrap()).collect();
    assert_eq!(offsets, vec!["0", "4", "8", "12", "16"]);
    for l in &lists {
        assert_eq!(l.param("minter_address"), Some(DUNGEON));
        assert_eq!(
            (l.param("sort_by"), l.param("sort_order")),
            (Some("score"), Some("desc"))
        );
        assert_eq!(l.param("game_id"), Some("1"));
    }
    assert!(
        fake.log().iter().all(|l| !l.path.ends_with("/rank")),
        "unfiltered ranks are offsets"
    );

    let all = all_pages(
        &c,
        "ls_get_leaderboard",
        json!({"scope": "all", "limit": 7}),
        10,
    )
    .await;
    assert_eq!(all[0]["total"], 20);
    let got: BTreeMap<String, u64> = rows(&all)
        .iter()
        .map(|r| {
            (
                r["adventurer_id"].as_str().unwrap().into(),
                r["rank"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(got, expected_ranks(|_| true));
    assert!(
        fake.log()
            .iter()
            .rev()
            .take(3)
            .all(|l| l.param("minter_address").is_none())
    );
}

#[tokio::test]
async fn filtered_pages_keep_the_scope_s_ranks_and_page_by_offset() {
    let (fake, c) = seeded().await;
    let ranks = expected_ranks(official);

    let live = all_pages(
        &c,
        "ls_get_leaderboard",
        json!({"live_only": true, "limit": 3}),
        10,
    )
    .await;
    let live_rows = rows(&live);
    let want: Vec<u64> = (0..20).filter(|k| official(*k) && k % 3 != 0).collect();
    assert_eq!(live_rows.len(), want.len());
    assert_eq!(live[0]["total"], want.len());
    for r in &live_rows {
        assert_eq!(r["game_over"], false, "{r}");
        let id = r["adventurer_id"].as_str().unwrap();
        assert_eq!(
            r["rank"].as_u64(),
            ranks.get(id).copied(),
            "rank among all official games"
        );
    }
    let live_ranks: Vec<u64> = live_rows
        .iter()
        .map(|r| r["rank"].as_u64().unwrap())
        .collect();
    assert!(live_ranks.windows(2).all(|w| w[0] < w[1]), "{live_ranks:?}");
    assert!(
        live_ranks.windows(2).any(|w| w[1] > w[0] + 1),
        "finished games leave gaps"
    );
    let offsets: Vec<String> = fake
        .log()
        .iter()
        .filter(|l| l.path == "/tokens")
        .map(|l| l.param("offset").unwrap().to_string())
        .collect();
    assert_eq!(offsets, vec!["0", "3", "6", "9"]);
    let asked = fake
        .log()
        .into_iter()
        .find(|l| l.path.ends_with("/rank"))
        .unwrap();
    assert_eq!(asked.param("minter_address"), Some(DUNGEON));
    assert_eq!(
        asked.param("game_over"),
        None,
        "ranked among finished games too"
    );

    let mine = ok(&c, "ls_get_leaderboard", json!({"mine": true})).await;
    assert_eq!(mine["filters"]["mine"], true);
    let got: Vec<(String, u64)> = mine["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            assert_eq!(r["owner"], ALICE);
            (
                r["adventurer_id"].as_str().unwrap().into(),
                r["rank"].as_u64().unwrap(),
            )
        })
        .collect();
    let want: Vec<u64> = (0..7).filter(|k| official(*k)).collect();
    assert_eq!(got.len(), want.len());
    for (id, rank) in &got {
        assert_eq!(Some(rank), ranks.get(id), "{id}");
    }
    assert!(mine["next_cursor"].is_null());
}

#[tokio::test]
async fn an_owner_s_games_come_newest_mint_first_with_big_ids_as_strings() {
    let (fake, c) = seeded().await;

    let pages = all_pages(&c, "ls_list_adventurers", json!({"limit": 3}), 10).await;
    assert_eq!(pages.len(), 3);
    assert_eq!(pages[0]["total"], 7);
    assert_eq!(pages[0]["indexer"]["source"], "denshokan");
    assert!(
        pages[0]["warnings"]
            .to_string()
            .contains("may lag the chain")
    );
    let ids: Vec<String> = pages
        .iter()
        .flat_map(|p| p["adventurers"].as_array().unwrap().clone())
        .map(|a| {
            a["adventurer_id"]
                .as_str()
                .expect("an id above 2^53 is a string")
                .to_string()
        })
        .collect();
    assert_eq!(
        ids,
        (0..7).rev().map(id).collect::<Vec<_>>(),
        "newest mint first"
    );
    assert_eq!(ids[0], NEWEST_ALICE);
    assert_eq!(ids[6], BIG_ID);
    let lists: Vec<_> = fake
        .log()
        .into_iter()
        .filter(|l| l.path == "/tokens")
        .collect();
    let sent: Vec<(&str, &str, &str)> = lists
        .iter()
        .map(|l| {
            assert_eq!(l.param("minter_address"), None, "every game of game 1");
            (
                l.param("owner").unwrap(),
                l.param("sort_by").unwrap(),
                l.param("offset").unwrap(),
            )
        })
        .collect();
    assert_eq!(
        sent,
        vec![
            (ALICE, "minted", "0"),
            (ALICE, "minted", "3"),
            (ALICE, "minted", "6")
        ]
    );
    let oldest = &pages[2]["adventurers"][0];
    assert_eq!(
        (oldest["xp"].as_u64(), oldest["game_over"].as_bool()),
        (Some(0), Some(true))
    );

    let bob = ok(
        &c,
        "ls_list_adventurers",
        json!({"owner": BOB, "limit": 20}),
    )
    .await;
    assert_eq!(bob["adventurers"].as_array().unwrap().len(), 13);
    assert!(bob["next_cursor"].is_null());
    let cursor = pages[0]["next_cursor"].as_str().unwrap();
    err(
        &c,
        "ls_list_adventurers",
        json!({"owner": BOB, "cursor": cursor}),
        "VALIDATION_ERROR",
    )
    .await;
}

#[tokio::test]
async fn rate_limits_and_a_server_that_is_down_are_indexer_errors() {
    let (fake, c) = seeded().await;

    fake.fault(Fault::RateLimited(120));
    let e = err(&c, "ls_get_leaderboard", json!({}), "INDEXER_ERROR").await;
    assert_eq!(e["retryable"], true);
    assert_eq!(e["details"]["retry_after"], 120);
    assert_eq!(e["details"]["kind"], "rate_limited");
    assert!(
        e["hint"].as_str().unwrap().contains("retry in 120 s"),
        "{e}"
    );

    let e = err(
        &c,
        "ls_get_game_events",
        json!({"adventurer_id": BIG_ID}),
        "INDEXER_ERROR",
    )
    .await;
    assert_eq!(e["retryable"], false);
    assert_eq!(e["details"]["kind"], "not_served");

    let page = ok(&c, "ls_get_leaderboard", json!({"limit": 5})).await;
    fake.stop().await;
    let stale = ok(&c, "ls_get_leaderboard", json!({"limit": 5})).await;
    assert_eq!(stale["rows"], page["rows"]);
    assert_eq!(stale["indexer"]["source"], "stale_cache");
    assert!(
        stale["warnings"]
            .to_string()
            .contains("the Denshokan API is failing"),
        "{stale}"
    );
    let e = err(&c, "ls_list_adventurers", json!({}), "INDEXER_ERROR").await;
    assert_eq!(e["retryable"], true);
    assert_eq!(e["details"]["kind"], "connect");
    assert!(
        e["hint"].as_str().unwrap().contains("retry in a moment"),
        "{e}"
    );
    assert!(!e["message"].as_str().unwrap().contains("127.0.0.1"), "{e}");
}
