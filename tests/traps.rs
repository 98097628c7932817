//! Traps an agent fell into, each checked through the real MCP tools on the `sim` chain: a wrong
//! starting weapon costs no mint, `ls_buy_item` takes bare names and its hint fits the gold,
//! market items carry a verdict, a dodged obstacle costs no health, the market lists each item once.

use loot_survivor_mcp::mcp::{LsServer, connect_in_memory};
use rmcp::model::CallToolRequestParams;
use rmcp::service::{RoleClient, RunningService};
use serde_json::{Value, json};

type Client = RunningService<RoleClient, ()>;

async fn client() -> Client {
    connect_in_memory(LsServer::practice(false), ())
        .await
        .expect("client connects")
}

/// Calls a tool with the full result shape; `Ok(structured)` or `Err(error envelope)`.
async fn call(c: &Client, tool: &str, mut args: Value) -> Result<Value, Value> {
    args["detail"] = json!("full");
    let Value::Object(map) = args else {
        unreachable!()
    };
    let r = c
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(map))
        .await
        .expect("the MCP exchange works");
    let text = r
        .content
        .first()
        .and_then(|b| b.as_text())
        .map(|t| t.text.clone())
        .unwrap_or_default();
    let value = r
        .structured_content
        .clone()
        .unwrap_or_else(|| serde_json::from_str(&text).unwrap_or(Value::String(text)));
    if r.is_error == Some(true) {
        Err(value)
    } else {
        Ok(value)
    }
}

async fn ok(c: &Client, tool: &str, args: Value) -> Value {
    call(c, tool, args.clone())
        .await
        .unwrap_or_else(|e| panic!("{tool} {args}: {e}"))
}

/// Starts a game and brings it to an open market (starter beast killed, points spent).
async fn at_market(c: &Client, weapon: &str) -> (u64, Value) {
    let started = ok(c, "ls_new_game", json!({"weapon": weapon})).await;
    let id = started["adventurer_id"].as_u64().unwrap();
    let hit = ok(c, "ls_attack", json!({"adventurer_id": id})).await;
    let points = hit["adventurer"]["stat_upgrades_available"]
        .as_u64()
        .unwrap();
    let up = ok(
        c,
        "ls_upgrade",
        json!({"adventurer_id": id, "vitality": points}),
    )
    .await;
    assert_eq!(up["adventurer"]["phase"], "exploring");
    (id, up["adventurer"].clone())
}

#[tokio::test]
async fn a_wrong_starting_weapon_costs_no_mint() {
    let c = client().await;
    let e = call(&c, "ls_new_game", json!({"weapon": "Katana"}))
        .await
        .unwrap_err();
    assert_eq!(e["error"]["code"], "VALIDATION_ERROR", "{e}");
    assert!(e["error"]["message"].as_str().unwrap().contains("Katana"));
    let e = call(&c, "ls_new_game", json!({"weapon": 42}))
        .await
        .unwrap_err();
    assert_eq!(e["error"]["code"], "VALIDATION_ERROR", "{e}");
    // Token ids are minted in order from 1: the refused calls minted nothing.
    let started = ok(&c, "ls_new_game", json!({"weapon": "Club"})).await;
    assert_eq!(started["adventurer_id"], 1);
    assert!(started.get("mint_tx_hash").is_some());
    c.cancel().await.ok();
}

#[tokio::test]
async fn buying_takes_bare_names_and_the_hint_fits_the_gold() {
    let c = client().await;
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
        json!({"adventurer_id": id, "items": [name]}),
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
    let state = ok(&c, "ls_get_adventurer", json!({"adventurer_id": id})).await;
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
            ok(&c, "ls_buy_item", args).await;
        }
    }
    c.cancel().await.ok();
}

#[tokio::test]
async fn dodges_cost_nothing_and_markets_list_each_item_once() {
    let c = client().await;
    let (mut dodges, mut markets) = (0, 0);
    'games: for _ in 0..30 {
        let (id, _) = at_market(&c, "Short Sword").await;
        for _ in 0..400 {
            let adv = ok(&c, "ls_get_adventurer", json!({"adventurer_id": id})).await["adventurer"]
                .clone();
            let phase = adv["phase"].as_str().unwrap().to_string();
            let r = match phase.as_str() {
                "dead" => continue 'games,
                "in_battle" => {
                    ok(
                        &c,
                        "ls_attack",
                        json!({"adventurer_id": id, "to_the_death": true}),
                    )
                    .await
                }
                "stat_upgrade" => {
                    let n = adv["stat_upgrades_available"].clone();
                    ok(
                        &c,
                        "ls_upgrade",
                        json!({"adventurer_id": id, "intelligence": n}),
                    )
                    .await
                }
                _ => ok(&c, "ls_explore", json!({"adventurer_id": id})).await,
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
