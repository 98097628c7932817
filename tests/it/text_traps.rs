//! Text a model reads must be true for the compact results it gets by default, and every hint must
//! lead to a call that succeeds. Each test is one trap a text-only model fell into, played through
//! the real tools on the `sim` chain with the server's default (strict) argument checking: wrong
//! keys, quoted numbers, acting in the wrong phase, asking for more potions than fit.

use crate::common;

use common::mcp::{call, err, ok, practice};
use rmcp::RoleClient;
use rmcp::service::Peer;
use serde_json::{Value, json};

/// A new game with the starter beast killed: phase `stat_upgrade`, one point pending (compact).
async fn after_the_starter(c: &Peer<RoleClient>) -> (u64, Value) {
    let started = ok(c, "ls_new_game", json!({"weapon": "Wand"})).await;
    let id = started["adventurer_id"].as_u64().unwrap();
    let hit = ok(c, "ls_attack", json!({"adventurer_id": id})).await;
    assert_eq!(hit["state"]["phase"], "stat_upgrade", "{hit}");
    (id, hit["state"].clone())
}

fn text(v: &Value, key: &str) -> String {
    v[key].as_str().unwrap_or_default().to_string()
}

#[tokio::test]
async fn descriptions_and_prompts_name_only_what_compact_results_show() {
    let c = practice(true).await;
    let tools = c.list_all_tools().await.unwrap();
    for t in &tools {
        let d = t.description.as_deref().unwrap_or_default();
        for stale in ["stat_upgrades_available", "args_hint", "legal action's"] {
            assert!(!d.contains(stale), "{} names {stale}: {d}", t.name);
        }
    }
    let prompt = c
        .get_prompt(rmcp::model::GetPromptRequestParams::new("play_game"))
        .await
        .unwrap();
    let words = serde_json::to_string(&prompt.messages).unwrap();
    assert!(!words.contains("legal_actions"), "{words}");
    let (_, state) = after_the_starter(&c).await;
    assert!(state.get("stat_points").is_some(), "{state}");
    c.cancel().await.ok();
}

#[tokio::test]
async fn an_unknown_key_is_refused_naming_the_accepted_keys_and_the_fix_works() {
    let c = practice(true).await;
    let (id, state) = after_the_starter(&c).await;
    let wrong = json!({"adventurer_id": id, "stats": {"vitality": 1}});
    let e = err(&c, "ls_upgrade", wrong, "VALIDATION_ERROR").await;
    let message = text(&e, "message");
    assert!(
        message.contains("`stats` (its keys vitality are arguments themselves"),
        "says what to do with the wrapped keys: {message}"
    );
    let points = state["stat_points"].as_u64().unwrap();
    ok(
        &c,
        "ls_upgrade",
        json!({"adventurer_id": id, "vitality": points}),
    )
    .await;

    // `id` instead of `item` in a purchase names the `item` key.
    let e = err(
        &c,
        "ls_buy_item",
        json!({"adventurer_id": id, "items": [{"id": 81, "equip": true}]}),
        "VALIDATION_ERROR",
    )
    .await;
    let message = text(&e, "message");
    assert!(
        message.contains("`items[0].id` (did you mean `item`?)"),
        "the one missing key is suggested: {message}"
    );
    c.cancel().await.ok();
}

#[tokio::test]
async fn quoted_numbers_and_booleans_are_understood() {
    let c = practice(true).await;
    let (id, _) = after_the_starter(&c).await;
    let up = ok(
        &c,
        "ls_upgrade",
        json!({"adventurer_id": id.to_string(), "vitality": "1"}),
    )
    .await;
    assert_eq!(up["state"]["phase"], "exploring", "{up}");
    let read = ok(
        &c,
        "ls_explore",
        json!({"adventurer_id": id.to_string(), "till_beast": "false"}),
    )
    .await;
    assert!(read["state"].is_object(), "{read}");
    c.cancel().await.ok();
}

/// Follows an error's hint: it must name a tool, and that tool must then succeed.
async fn hint_leads_to(c: &Peer<RoleClient>, e: &Value, tool: &str, args: Value) {
    let hint = text(e, "hint");
    assert!(
        hint.contains(tool),
        "the hint should lead to {tool}: {hint}"
    );
    let r = call(c, tool, args).await;
    assert!(
        !r.is_error,
        "following the hint ({hint}) failed: {}",
        r.text
    );
}

#[tokio::test]
async fn attacking_after_the_kill_with_points_pending_leads_to_ls_upgrade() {
    let c = practice(true).await;
    let (id, state) = after_the_starter(&c).await;
    let e = err(
        &c,
        "ls_attack",
        json!({"adventurer_id": id}),
        "CONTRACT_REVERT",
    )
    .await;
    assert_eq!(e["details"]["reason_code"], "NOT_IN_BATTLE", "{e}");
    let points = state["stat_points"].as_u64().unwrap();
    hint_leads_to(
        &c,
        &e,
        "ls_upgrade",
        json!({"adventurer_id": id, "strength": points}),
    )
    .await;
    c.cancel().await.ok();
}

#[tokio::test]
async fn buying_with_points_pending_leads_to_ls_upgrade_then_buying_works() {
    let c = practice(true).await;
    let (id, state) = after_the_starter(&c).await;
    let e = err(
        &c,
        "ls_buy_item",
        json!({"adventurer_id": id, "potions": 1}),
        "CONTRACT_REVERT",
    )
    .await;
    assert_eq!(e["details"]["reason_code"], "MARKET_CLOSED", "{e}");
    assert!(!text(&e, "hint").contains("or only when"), "{e}");
    let points = state["stat_points"].as_u64().unwrap();
    hint_leads_to(
        &c,
        &e,
        "ls_upgrade",
        json!({"adventurer_id": id, "charisma": points}),
    )
    .await;
    ok(
        &c,
        "ls_buy_item",
        json!({"adventurer_id": id, "potions": 1}),
    )
    .await;
    c.cancel().await.ok();
}

#[tokio::test]
async fn the_potion_cap_is_explained_and_the_stated_number_can_be_bought() {
    let c = practice(true).await;
    let (id, state) = after_the_starter(&c).await;
    let points = state["stat_points"].as_u64().unwrap();
    let up = ok(
        &c,
        "ls_upgrade",
        json!({"adventurer_id": id, "strength": points}),
    )
    .await;
    let line = up["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .find(|a| a.starts_with("ls_buy_item"))
        .expect("an ls_buy_item line")
        .to_string();
    assert!(line.contains("max_health"), "{line}");
    let fit: u64 = line
        .split("up to ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no potion count in {line}"));
    let e = err(
        &c,
        "ls_buy_item",
        json!({"adventurer_id": id, "potions": fit + 3}),
        "CONTRACT_REVERT",
    )
    .await;
    let hint = text(&e, "hint");
    assert!(
        hint.contains("max_health") && hint.contains("10 HP"),
        "{hint}"
    );
    if fit > 0 {
        ok(
            &c,
            "ls_buy_item",
            json!({"adventurer_id": id, "potions": fit}),
        )
        .await;
    }
    c.cancel().await.ok();
}
