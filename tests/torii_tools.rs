//! The three indexer tools through a real MCP client (rmcp, in process), over the embedded sim
//! chain and the local Torii stand-in: limits (default 50, cap 200), cursor round trips with no
//! row lost or repeated, filters, the chain fallback of `ls_list_adventurers`, events identical to
//! the write tools' events, lag reporting, and `INDEXER_ERROR` only when nothing else can answer.

mod common;
mod torii_support;

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use common::mcp::{all_pages, call, err, ok};
use loot_survivor_mcp::chain::sim::{SimChain, sim_account};
use loot_survivor_mcp::chain::{ChainError, TxLookup, TxReport, WriteOptions};
use loot_survivor_mcp::game::engine::Action;
use loot_survivor_mcp::game::engine::EngineSettings;
use loot_survivor_mcp::game::model::{Adventurer, GameState};
use loot_survivor_mcp::mcp::{GameBackend, LsServer, ServerOptions, connect_in_memory};
use loot_survivor_mcp::torii::{ToriiClient, ToriiOptions};
use rmcp::RoleClient;
use rmcp::service::RunningService;
use serde_json::{Value, json};
use starknet_types_core::felt::Felt;
use torii_support::{FakeTorii, Game};

const GAME: u64 = 0x5e2d;

/// The sim chain as a remote chain would look: no index of its own, so the indexer tools must
/// use Torii or the chain fallback.
struct RemoteLike(Arc<SimChain>);

#[async_trait::async_trait]
impl GameBackend for RemoteLike {
    async fn state(&self, id: u64) -> Result<GameState, ChainError> {
        self.0.state(id).await
    }
    async fn owner(&self, id: u64) -> Result<Option<Felt>, ChainError> {
        self.0.owner(id).await
    }
    async fn mint(
        &self,
        name: Option<Felt>,
        opts: WriteOptions,
    ) -> Result<(u64, TxReport), ChainError> {
        self.0.mint(name, opts).await
    }
    async fn act(
        &self,
        id: u64,
        action: &Action,
        before: Option<&Adventurer>,
        opts: WriteOptions,
    ) -> Result<TxReport, ChainError> {
        self.0.act(id, action, before, opts).await
    }
    async fn tx(&self, hash: Felt) -> Result<TxLookup, ChainError> {
        self.0.tx(hash).await
    }
}
const FIRST_SIM_ID: u64 = 5000;

struct Setup {
    client: RunningService<RoleClient, ()>,
    fake: FakeTorii,
}

async fn setup(with_torii: bool, cache_ttl_ms: u64) -> Setup {
    setup_with(with_torii, cache_ttl_ms, false).await
}

/// [`setup`], with the profile naming the stand-in's dungeon when `dungeon` is set.
async fn setup_with(with_torii: bool, cache_ttl_ms: u64, dungeon: bool) -> Setup {
    let fake = FakeTorii::start(Felt::from(GAME)).await;
    let sim = Arc::new(SimChain::new(EngineSettings::default(), FIRST_SIM_ID));
    let backend: Arc<dyn GameBackend> = if with_torii {
        sim
    } else {
        Arc::new(RemoteLike(sim))
    };
    let mut server = LsServer::new(
        backend,
        ServerOptions {
            chain: "sim".into(),
            strict: true,
            default_timeout: Duration::from_secs(30),
        },
    )
    .with_wallet(sim_account());
    if with_torii {
        let torii = ToriiClient::new(ToriiOptions {
            url: fake.url.parse().unwrap(),
            namespace: "ls_0_0_9".into(),
            token_namespace: "relayer_0_0_1".into(),
            game_address: Felt::from(GAME),
            world_address: Some(fake.world_address),
            dungeon: dungeon.then_some(fake.dungeon),
            request_timeout: Duration::from_millis(1000),
            retries: 1,
            cache_ttl: Duration::from_millis(cache_ttl_ms),
        })
        .unwrap();
        server = server.with_torii(Arc::new(torii));
    }
    let client = connect_in_memory(server, ()).await.expect("MCP handshake");
    Setup { client, fake }
}

fn me() -> Felt {
    sim_account()
}

/// 230 games: every third one is this wallet's, every fourth one is over.
fn seed_leaderboard(fake: &FakeTorii) {
    for id in 1000..1230u64 {
        fake.add_game(&Game {
            id,
            owner: if id.is_multiple_of(3) {
                me()
            } else {
                Felt::from(7u8)
            },
            score: (id * 53) % 700,
            game_over: id.is_multiple_of(4),
            player_name: Some(format!("hero{id}")),
        });
        fake.set_adventurer(
            id,
            &Adventurer {
                health: if id.is_multiple_of(4) { 0 } else { 50 },
                xp: ((id * 53) % 700) as u16,
                action_count: 9,
                ..Adventurer::default()
            },
        );
    }
}

fn rows(pages: &[Value], key: &str) -> Vec<Value> {
    pages
        .iter()
        .flat_map(|p| p[key].as_array().unwrap().clone())
        .collect()
}

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

/// Plays through the MCP write tools; returns the adventurer id and each action's events (the full
/// shape, to compare with the event history).
async fn play(c: &RunningService<RoleClient, ()>) -> (u64, Vec<Value>) {
    let started = ok(
        c,
        "ls_new_game",
        json!({"weapon": "Short Sword", "detail": "full"}),
    )
    .await;
    let id = started["adventurer_id"].as_u64().unwrap();
    let mut events = vec![started["events"].clone()];
    let attacked = ok(
        c,
        "ls_attack",
        json!({"adventurer_id": id, "detail": "full"}),
    )
    .await;
    events.push(attacked["events"].clone());
    let upgraded = ok(
        c,
        "ls_upgrade",
        json!({"adventurer_id": id, "strength": 1, "detail": "full"}),
    )
    .await;
    events.push(upgraded["events"].clone());
    let explored = ok(
        c,
        "ls_explore",
        json!({"adventurer_id": id, "detail": "full"}),
    )
    .await;
    events.push(explored["events"].clone());
    (id, events)
}

fn as_events(v: &[Value]) -> Vec<loot_survivor_mcp::game::events::GameEvent> {
    v.iter()
        .flat_map(|a| a.as_array().unwrap().clone())
        .map(|e| serde_json::from_value(e).unwrap())
        .collect()
}

#[tokio::test]
async fn game_events_have_the_write_tools_shapes_and_report_lag() {
    let s = setup(true, 0).await;
    let c = &s.client;
    let (id, actions) = play(c).await;
    // Torii has indexed every action but the last.
    s.fake.add_events(&as_events(&actions[..3]));
    // The stand-in's rows are Torii v1.8.16's, spelled out: keys and both halves of `model_id`
    // as `0x` and 64 digits (crates/storage/src/utils.rs `format_world_scoped_id` and
    // crates/sqlite/sqlite/src/utils.rs `felt_to_sql_string`, `{:#064x}` under
    // starknet-types-core 0.2.0); 0x1388 is adventurer 5000, 0x2ef59169 the stand-in's world.
    let stored = s
        .fake
        .query("SELECT DISTINCT keys, model_id FROM event_messages_historical")
        .unwrap();
    assert_eq!(stored.len(), 1, "{stored:?}");
    assert_eq!(
        stored[0]["keys"],
        "0x0000000000000000000000000000000000000000000000000000000000001388/"
    );
    assert_eq!(
        stored[0]["model_id"],
        "0x000000000000000000000000000000000000000000000000000000002ef59169:\
         0x053f716bb3e8a7730e612809aa0416ce2cbf4aff462e4784d5f2f29d5e96605c"
    );
    // A row of another model keyed by the same id stays out of the history.
    let mut foreign = torii_support::data::event_data(&as_events(&actions[1..2])[0]);
    foreign["action_count"] = json!(2);
    s.fake.add_model_event(
        "AdventurerNote",
        id,
        foreign,
        (999, Felt::from(0xfeedu32), 0),
    );
    let page = ok(c, "ls_get_game_events", json!({"adventurer_id": id})).await;
    let expected: Vec<Value> = actions[..3]
        .iter()
        .flat_map(|a| a.as_array().unwrap().clone())
        .collect();
    assert_eq!(
        page["events"],
        Value::Array(expected),
        "same JSON as the write tools"
    );
    assert_eq!(page["limit"], 50);
    assert_eq!(page["lag"]["indexed_action_count"], 3);
    assert_eq!(page["lag"]["chain_action_count"], 4);
    assert_eq!(page["lag"]["actions_behind"], 1);
    assert_eq!(page["indexer"]["behind"], true);

    s.fake.add_events(&as_events(&actions[3..]));
    let all: Vec<Value> = actions
        .iter()
        .flat_map(|a| a.as_array().unwrap().clone())
        .collect();
    let page = ok(c, "ls_get_game_events", json!({"adventurer_id": id})).await;
    assert!(page["lag"].is_null());
    assert_eq!(page["events"], Value::Array(all.clone()));
    assert_eq!(page["total"], all.len());

    for limit in [1, 2, 3] {
        let pages = all_pages(
            c,
            "ls_get_game_events",
            json!({"adventurer_id": id, "limit": limit}),
            100,
        )
        .await;
        assert_eq!(rows(&pages, "events"), all, "limit {limit}");
    }
    let capped = ok(
        c,
        "ls_get_game_events",
        json!({"adventurer_id": id, "limit": 1000}),
    )
    .await;
    assert_eq!(capped["limit"], 200);
    let cursor = ok(
        c,
        "ls_get_game_events",
        json!({"adventurer_id": id, "limit": 1}),
    )
    .await["next_cursor"]
        .clone();
    err(
        c,
        "ls_get_game_events",
        json!({"adventurer_id": id + 1, "cursor": cursor}),
        "VALIDATION_ERROR",
    )
    .await;
    let lb = ok(c, "ls_get_leaderboard", json!({"limit": 1})).await;
    assert!(lb["next_cursor"].is_null(), "empty leaderboard");
    err(
        c,
        "ls_get_game_events",
        json!({"adventurer_id": id, "cursor": "e30"}),
        "VALIDATION_ERROR",
    )
    .await;
    s.fake.set_down(true);
    let e = err(
        c,
        "ls_get_game_events",
        json!({"adventurer_id": id}),
        "INDEXER_ERROR",
    )
    .await;
    assert_eq!(e["retryable"], true);
}

#[tokio::test]
async fn list_adventurers_merges_the_chain_and_falls_back_to_it() {
    let s = setup(true, 0).await;
    let c = &s.client;
    let (a, _) = play(c).await;
    let b = ok(c, "ls_new_game", json!({"weapon": 12})).await["adventurer_id"]
        .as_u64()
        .unwrap();
    assert_eq!((a, b), (FIRST_SIM_ID, FIRST_SIM_ID + 1));
    // Torii knows ten older games of this wallet, one of another owner, and game `a` as it was
    // after its first action (the chain is three actions further); it has not seen `b` yet.
    for id in 1000..1010u64 {
        s.fake.add_game(&Game {
            id,
            owner: me(),
            score: id - 990,
            game_over: id == 1003,
            player_name: None,
        });
        s.fake.set_adventurer(
            id,
            &Adventurer {
                health: if id == 1003 { 0 } else { 40 },
                xp: (id - 990) as u16,
                action_count: 5,
                ..Adventurer::default()
            },
        );
    }
    s.fake.add_game(&Game {
        id: 1010,
        owner: Felt::from(9u8),
        score: 1,
        game_over: false,
        player_name: None,
    });
    s.fake.add_game(&Game {
        id: a,
        owner: me(),
        score: 0,
        game_over: false,
        player_name: Some("Ada".into()),
    });
    s.fake.set_adventurer(
        a,
        &Adventurer {
            health: 90,
            beast_health: 3,
            action_count: 1,
            ..Adventurer::default()
        },
    );

    let list = ok(c, "ls_list_adventurers", json!({})).await;
    assert_eq!(list["owner"], format!("{:#x}", me()));
    assert_eq!(list["indexer"]["source"], "torii+chain");
    let advs = list["adventurers"].as_array().unwrap();
    let ids: Vec<u64> = advs
        .iter()
        .map(|r| r["adventurer_id"].as_u64().unwrap())
        .collect();
    let mut want = vec![b, a];
    want.extend((1000..1010u64).rev());
    assert_eq!(ids, want, "newest first, chain games merged in");
    assert_eq!(advs[0]["source"], "chain");
    assert_eq!(
        advs[0]["phase"], "in_battle",
        "started, facing the starter beast"
    );
    assert_eq!(advs[0]["action_count"], 1);
    assert_eq!(advs[1]["source"], "chain");
    assert_eq!(advs[1]["action_count"], 4);
    assert_eq!(advs[1]["player_name"], "Ada");
    assert_eq!(advs[2]["source"], "torii");
    assert_eq!(advs[2]["phase"], "exploring");
    let over = advs.iter().find(|r| r["adventurer_id"] == 1003).unwrap();
    assert_eq!(
        (over["phase"].as_str(), over["game_over"].as_bool()),
        (Some("dead"), Some(true))
    );
    assert_eq!(
        list["lag"],
        json!([{"adventurer_id": a, "indexed_action_count": 1, "chain_action_count": 4, "actions_behind": 3}])
    );
    assert_eq!(list["total"], 11);

    for limit in [1, 3, 5] {
        let pages = all_pages(c, "ls_list_adventurers", json!({"limit": limit}), 30).await;
        let got: Vec<u64> = rows(&pages, "adventurers")
            .iter()
            .map(|r| r["adventurer_id"].as_u64().unwrap())
            .collect();
        assert_eq!(got, want, "limit {limit}");
    }
    let theirs = ok(c, "ls_list_adventurers", json!({"owner": "0x9"})).await;
    assert_eq!(theirs["adventurers"].as_array().unwrap().len(), 1);
    err(
        c,
        "ls_list_adventurers",
        json!({"owner": "0xZZ"}),
        "VALIDATION_ERROR",
    )
    .await;
    let cursor = ok(c, "ls_list_adventurers", json!({"limit": 1})).await["next_cursor"].clone();
    err(
        c,
        "ls_list_adventurers",
        json!({"owner": "0x9", "cursor": cursor}),
        "VALIDATION_ERROR",
    )
    .await;

    // Torii down: the games this server knows are read from the chain (here only the sim's own
    // games exist on the chain); an owner it knows nothing about is an indexer error.
    s.fake.set_down(true);
    let fallback = ok(c, "ls_list_adventurers", json!({})).await;
    assert_eq!(fallback["indexer"]["source"], "chain");
    assert!(
        fallback["indexer"]["error"]
            .as_str()
            .unwrap()
            .contains("503")
    );
    let ids: Vec<u64> = fallback["adventurers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["adventurer_id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, vec![b, a]);
    assert!(!fallback["warnings"].as_array().unwrap().is_empty());
    let e = err(
        c,
        "ls_list_adventurers",
        json!({"owner": "0x9"}),
        "INDEXER_ERROR",
    )
    .await;
    assert_eq!(e["retryable"], true);
}

#[tokio::test]
async fn without_torii_only_the_chain_fallback_answers() {
    let s = setup(false, 0).await;
    let c = &s.client;
    let e = err(c, "ls_get_leaderboard", json!({}), "INDEXER_ERROR").await;
    assert_eq!(e["retryable"], false);
    assert!(e["hint"].as_str().unwrap().contains("LS_TORII_URL"));
    let (id, _) = play(c).await;
    let e = err(
        c,
        "ls_get_game_events",
        json!({"adventurer_id": id}),
        "INDEXER_ERROR",
    )
    .await;
    assert_eq!(e["retryable"], false);
    let list = ok(c, "ls_list_adventurers", json!({})).await;
    assert_eq!(list["adventurers"][0]["adventurer_id"], id);
    assert!(list["adventurers"][0]["phase"].is_string());
    assert_eq!(list["indexer"]["source"], "chain");
    assert!(list["warnings"][0].as_str().unwrap().contains("no Torii"));
    let empty = ok(c, "ls_list_adventurers", json!({"owner": "0x9"})).await;
    assert!(empty["adventurers"].as_array().unwrap().is_empty());
    assert!(
        s.fake.requests().is_empty(),
        "nothing was sent to an unconfigured Torii"
    );
    let o = call(c, "ls_list_adventurers", json!({"limit": 0})).await;
    assert!(o.is_error);
}
