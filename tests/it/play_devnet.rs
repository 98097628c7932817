//! The vertical slice on a real node: starknet-devnet with the practice world, the real binary
//! over stdio, and rmcp's client playing one whole game from mint to death.

use crate::common;

use std::collections::BTreeSet;

use serde_json::{Value, json};

/// Upper bound on actions; a game with this strategy ends long before.
const MAX_ACTIONS: usize = 600;

/// Spends all stat points on strength and charisma (never survival stats, so the game ends).
fn upgrade_args(id: u64, adv: &Value) -> Value {
    let points = adv["stat_upgrades_available"].as_u64().unwrap();
    let mut strength = adv["stats"]["strength"].as_u64().unwrap();
    let mut charisma = adv["stats"]["charisma"].as_u64().unwrap();
    let (mut add_str, mut add_cha, mut add_int) = (0, 0, 0);
    for _ in 0..points {
        if strength <= charisma && strength < 31 {
            strength += 1;
            add_str += 1;
        } else if charisma < 31 {
            charisma += 1;
            add_cha += 1;
        } else {
            add_int += 1;
        }
    }
    json!({"adventurer_id": id, "strength": add_str, "charisma": add_cha, "intelligence": add_int})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plays_a_whole_game_from_mint_to_death() {
    let world = common::world().await;
    let client = world.client(&[]).await;

    let tools = client.service.list_all_tools().await.expect("tools/list");
    let names: BTreeSet<_> = tools.iter().map(|t| t.name.to_string()).collect();
    for t in [
        "ls_new_game",
        "ls_explore",
        "ls_attack",
        "ls_flee",
        "ls_upgrade",
        "ls_buy_item",
        "ls_equip",
        "ls_drop",
        "ls_get_adventurer",
    ] {
        assert!(names.contains(t), "missing tool {t}");
    }

    let mut confirmed: BTreeSet<String> = BTreeSet::new();
    let started = client
        .ok(
            "ls_new_game",
            json!({"weapon": "Short Sword", "player_name": "devnet-bot"}),
        )
        .await;
    let id = started["adventurer_id"].as_u64().expect("adventurer id");
    confirmed.insert(
        started["mint_tx_hash"]
            .as_str()
            .expect("mint hash")
            .to_string(),
    );
    confirmed.insert(started["tx_hash"].as_str().unwrap().to_string());
    assert_eq!(started["adventurer"]["phase"], "in_battle");
    assert_eq!(started["adventurer"]["health"], 90);
    assert_eq!(started["adventurer"]["equipment"][0]["id"], 46);

    let mut tested_illegal_attack = false;
    let mut last = started["adventurer"].clone();
    for step in 0..MAX_ACTIONS {
        let current = client
            .ok("ls_get_adventurer", json!({"adventurer_id": id}))
            .await;
        assert_eq!(
            current["adventurer"], last,
            "state drifted between actions at step {step}"
        );
        let adv = &current["adventurer"];
        let (tool, args) = match adv["phase"].as_str().unwrap() {
            "dead" => break,
            "in_battle" => ("ls_attack", json!({"adventurer_id": id})),
            "stat_upgrade" => {
                if !tested_illegal_attack {
                    tested_illegal_attack = true;
                    illegal_attack_reverts_without_fee(&client, &world.devnet.url, id).await;
                }
                ("ls_upgrade", upgrade_args(id, adv))
            }
            "exploring" => ("ls_explore", json!({"adventurer_id": id})),
            other => panic!("unexpected phase {other}"),
        };
        let out = client.ok(tool, args).await;
        assert_eq!(out["status"], "ACCEPTED_ON_L2");
        assert!(confirmed.insert(out["tx_hash"].as_str().unwrap().to_string()));
        let events = out["events"].as_array().expect("events");
        assert!(!events.is_empty(), "{tool} produced no game events");
        let action_count = &out["adventurer"]["action_count"];
        for e in events {
            assert_eq!(
                &e["action_count"], action_count,
                "event of another action: {e}"
            );
            assert_eq!(e["adventurer_id"], json!(id));
        }
        let fresh = client
            .ok("ls_get_adventurer", json!({"adventurer_id": id}))
            .await;
        assert_eq!(
            out["adventurer"], fresh["adventurer"],
            "write result differs from a fresh read after {tool}"
        );
        last = fresh["adventurer"].clone();
    }

    let end = client
        .ok("ls_get_adventurer", json!({"adventurer_id": id}))
        .await;
    assert_eq!(
        end["adventurer"]["phase"], "dead",
        "the game did not end in {MAX_ACTIONS} actions"
    );
    assert_eq!(end["adventurer"]["health"], 0);
    assert!(
        tested_illegal_attack,
        "never reached an out-of-battle state"
    );
    assert!(
        confirmed.len() >= 10,
        "only {} confirmed transactions",
        confirmed.len()
    );

    let dead = client
        .call("ls_explore", json!({"adventurer_id": id}))
        .await;
    assert!(dead.is_error);
    assert_eq!(
        dead.json["error"]["details"]["reason_code"],
        "ADVENTURER_DEAD"
    );

    let stderr = client.shutdown().await;
    assert!(
        stderr.contains("transaction sent"),
        "server logs go to stderr"
    );
    eprintln!(
        "game over: adventurer {id}, level {}, xp {}, {} confirmed transactions",
        end["adventurer"]["level"],
        end["adventurer"]["xp"],
        confirmed.len()
    );
}

async fn illegal_attack_reverts_without_fee(client: &common::Client, url: &url::Url, id: u64) {
    let before = common::nonce_and_balance(url, common::ACCOUNT).await;
    let r = client.call("ls_attack", json!({"adventurer_id": id})).await;
    assert!(r.is_error, "attacking outside battle must fail: {}", r.text);
    assert!(r.structured.is_none());
    let err = &r.json["error"];
    assert_eq!(r.json["ok"], false);
    assert_eq!(err["code"], "CONTRACT_REVERT");
    assert_eq!(err["details"]["reason"], "Not in battle");
    assert_eq!(err["details"]["reason_code"], "NOT_IN_BATTLE");
    assert_eq!(err["details"]["fee_charged"], false);
    assert_eq!(
        common::nonce_and_balance(url, common::ACCOUNT).await,
        before,
        "the revert cost a nonce or a fee"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_a_typed_tool_error() {
    let world = common::world().await;
    let client = world.client(&[("LS_SERVER__STRICT", "true")]).await;

    let r = client
        .call("ls_get_adventurer", json!({"adventurer_id": -1}))
        .await;
    assert!(r.is_error);
    assert_eq!(r.json["error"]["code"], "VALIDATION_ERROR");

    let r = client.call("ls_new_game", json!({"weapon": 300})).await;
    assert_eq!(r.json["error"]["code"], "VALIDATION_ERROR");
    assert!(r.text.contains("weapon"), "{}", r.text);

    let r = client
        .call("ls_explore", json!({"adventurer_id": 1, "tilbeast": true}))
        .await;
    assert_eq!(r.json["error"]["code"], "VALIDATION_ERROR");
    assert!(r.text.contains("tilbeast"), "{}", r.text);

    // A wrong starting weapon is refused before anything is signed: no mint is wasted.
    let r = client
        .call("ls_new_game", json!({"weapon": "Pendant"}))
        .await;
    assert_eq!(r.json["error"]["code"], "VALIDATION_ERROR", "{}", r.text);
    assert_eq!(r.json["error"]["details"]["field"], "weapon");
    assert!(r.json["error"]["details"].get("adventurer_id").is_none());

    let started = client.ok("ls_new_game", json!({"weapon": 12})).await;
    let minted = started["adventurer_id"].as_u64().expect("new id");
    assert!(started.get("mint_tx_hash").is_some(), "{started}");

    let r = client
        .call(
            "ls_upgrade",
            json!({"adventurer_id": minted, "strength": 2}),
        )
        .await;
    assert_eq!(r.json["error"]["code"], "VALIDATION_ERROR", "{}", r.text);
    client.shutdown().await;
}
