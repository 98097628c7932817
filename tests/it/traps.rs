//! Traps an agent fell into, each checked through the real MCP tools on the `sim` chain: a wrong
//! starting weapon costs no mint, `ls_buy_item` takes bare names and its hint fits the gold,
//! market items carry a verdict, a dodged obstacle costs no health, the market lists each item once.

use crate::common;

use common::mcp::{err, full, ok, practice};
use rmcp::RoleClient;
use rmcp::service::Peer;
use serde_json::{Value, json};

/// Starts a game and brings it to an open market (starter beast killed, points spent).
async fn at_market(c: &Peer<RoleClient>, weapon: &str) -> (u64, Value) {
    let started = ok(c, "ls_new_game", full(json!({"weapon": weapon}))).await;
    let id = started["adventurer_id"].as_u64().unwrap();
    let hit = ok(c, "ls_attack", full(json!({"adventurer_id": id}))).await;
    let points = hit["adventurer"]["stat_upgrades_available"]
        .as_u64()
        .unwrap();
    let up = ok(
        c,
        "ls_upgrade",
        full(json!({"adventurer_id": id, "vitality": points})),
    )
    .await;
    assert_eq!(up["adventurer"]["phase"], "exploring");
    (id, up["adventurer"].clone())
}

#[tokio::test]
async fn a_wrong_starting_weapon_costs_no_mint() {
    let c = practice(false).await;
    let katana = full(json!({"weapon": "Katana"}));
    let e = err(&c, "ls_new_game", katana, "VALIDATION_ERROR").await;
    assert!(e["message"].as_str().unwrap().contains("Katana"));
    let a_number = full(json!({"weapon": 42}));
    err(&c, "ls_new_game", a_number, "VALIDATION_ERROR").await;
    // Token ids are minted in order from 1: the refused calls minted nothing.
    let started = ok(&c, "ls_new_game", full(json!({"weapon": "Club"}))).await;
    assert_eq!(started["adventurer_id"], 1);
    assert!(started.get("mint_tx_hash").is_some());
    c.cancel().await.ok();
}

#[tokio::test]
async fn buying_takes_bare_names_and_the_hint_fits_the_gold() {
    let c = practice(false).await;
    let (id, adv) = at_market(&c, "Wand").await;
    let market = adv["market"].as_array().unwrap();
    assert!(!market.is_empty());
    for m in market {
        let v = m["verdict"].as_str().unwrap_or_else(|| panic!("{m}"));
        assert!(
            ["upgrade", "downgrade", "same", "empty_slot"].contains(&v),
            "{v}"
        );
    }
    let ids: Vec<u64> = market.iter().map(|m| m["id"].as_u64().unwrap()).collect();
    let mut unique = ids.clone();
    unique.dedup();
    assert_eq!(ids, unique, "each market item once");
    let pick = market
        .iter()
        .find(|m| m["affordable"] == true && m["owned"] == false)
        .expect("an affordable item");
    let name = pick["name"].as_str().unwrap();
    let bought = ok(
        &c,
        "ls_buy_item",
        full(json!({"adventurer_id": id, "items": [name]})),
    )
    .await;
    let bag: Vec<&str> = bought["adventurer"]["bag"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert!(bag.contains(&name), "{name} not in {bag:?}");

    // Whatever the market and gold, calling the hint as given succeeds.
    let state = ok(&c, "ls_get_adventurer", full(json!({"adventurer_id": id}))).await;
    if let Some(buy) = state["adventurer"]["legal_actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["tool"] == "ls_buy_item")
    {
        let mut args = buy["args_hint"].clone();
        args["adventurer_id"] = json!(id);
        let has_something = args["items"].as_array().is_some_and(|i| !i.is_empty())
            || args["potions"].as_u64() > Some(0);
        if has_something {
            ok(&c, "ls_buy_item", full(args)).await;
        }
    }
    c.cancel().await.ok();
}

#[tokio::test]
async fn dodges_cost_nothing_and_markets_list_each_item_once() {
    let c = practice(false).await;
    let (mut dodges, mut markets) = (0, 0);
    'games: for _ in 0..30 {
        let (id, _) = at_market(&c, "Short Sword").await;
        for _ in 0..400 {
            let adv =
                ok(&c, "ls_get_adventurer", full(json!({"adventurer_id": id}))).await["adventurer"]
                    .clone();
            let phase = adv["phase"].as_str().unwrap().to_string();
            let r = match phase.as_str() {
                "dead" => continue 'games,
                "in_battle" => {
                    ok(
                        &c,
                        "ls_attack",
                        full(json!({"adventurer_id": id, "to_the_death": true})),
                    )
                    .await
                }
                "stat_upgrade" => {
                    let n = adv["stat_upgrades_available"].clone();
                    ok(
                        &c,
                        "ls_upgrade",
                        full(json!({"adventurer_id": id, "intelligence": n})),
                    )
                    .await
                }
                _ => ok(&c, "ls_explore", full(json!({"adventurer_id": id}))).await,
            };
            let health_before = adv["health"].as_u64().unwrap();
            for e in r["events"].as_array().unwrap() {
                let d = &e["details"];
                if d["type"] == "obstacle" && d["dodged"] == true {
                    dodges += 1;
                    assert_eq!(d["damage"], 0, "a dodge reports no damage taken: {d}");
                    if r["events"].as_array().unwrap().len() <= 2 {
                        assert_eq!(r["adventurer"]["health"].as_u64(), Some(health_before));
                    }
                }
                if d["type"] == "market_items" {
                    markets += 1;
                    let ids: Vec<u64> = d["items"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|i| i["id"].as_u64().unwrap())
                        .collect();
                    let mut unique = ids.clone();
                    unique.sort_unstable();
                    unique.dedup();
                    assert_eq!(unique.len(), ids.len(), "repeats in {ids:?}");
                }
            }
            if dodges >= 3 && markets >= 3 {
                break 'games;
            }
        }
    }
    assert!(
        dodges >= 3 && markets >= 3,
        "saw {dodges} dodges, {markets} markets"
    );
    c.cancel().await.ok();
}
