//! The event history and adventurer list tools through a real MCP client (rmcp, in process), over
//! the embedded sim chain and the local Torii stand-in: events identical to the write tools'
//! events, lag reporting, and the chain fallback of `ls_list_adventurers`.

use crate::common;
use crate::tools;
use crate::torii_support;

use common::mcp::{all_pages, call, err, ok};
use loot_survivor_mcp::game::model::Adventurer;
use rmcp::RoleClient;
use rmcp::service::RunningService;
use serde_json::{Value, json};
use starknet_types_core::felt::Felt;
use tools::{FIRST_SIM_ID, me, rows, setup};
use torii_support::Game;

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
