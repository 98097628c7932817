//! Checking a v2 game against the engine: the seed each transaction announced in its GameCore
//! `randomness` event, the engine action a tool call stands for, and `ls_get_adventurer`'s full
//! view compared with the engine's replayed state.

use std::collections::BTreeSet;

use loot_survivor_mcp::chain::bindings::v2::game_core;
use loot_survivor_mcp::game::AdventurerId;
use loot_survivor_mcp::game::engine::Action;
use loot_survivor_mcp::game::model::{GameState, Stats};
use loot_survivor_mcp::game::v2::{Assets, announced_seed, decode_game_core_events};
use serde_json::{Value, json};
use starknet::core::types::Felt;
use starknet::providers::JsonRpcClient;
use starknet::providers::jsonrpc::HttpTransport;

/// The seed transaction `hash` announced in its GameCore `randomness` event, if it drew one.
pub async fn seed_of(url: &url::Url, game: Felt, hash: &str) -> Option<Felt> {
    let receipt = super::rpc(
        url,
        "starknet_getTransactionReceipt",
        json!({"transaction_hash": hash}),
    )
    .await;
    let felts = |v: &Value| -> Vec<Felt> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|f| Felt::from_hex(f.as_str().unwrap()).unwrap())
            .collect()
    };
    let raw: Vec<(Vec<Felt>, Vec<Felt>)> = receipt["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| Felt::from_hex(e["from_address"].as_str().unwrap()).unwrap() == game)
        .map(|e| (felts(&e["keys"]), felts(&e["data"])))
        .collect();
    let decoded =
        decode_game_core_events(raw.iter().map(|(k, d)| (k.as_slice(), d.as_slice()))).unwrap();
    let details: Vec<_> = decoded.into_iter().map(|e| e.details).collect();
    announced_seed(&details)
}

/// `ls_get_adventurer` (full) against the engine's replayed state, field by field; true when it
/// showed a market to compare.
pub fn assert_matches_engine(view: &Value, engine: &GameState, at: &str) -> bool {
    let a = &engine.adventurer;
    assert_eq!(view["health"], a.health, "{at}: health");
    assert_eq!(view["xp"], a.xp, "{at}: xp");
    assert_eq!(view["gold"], a.gold, "{at}: gold");
    assert_eq!(
        view["stat_upgrades_available"], a.stat_upgrades_available,
        "{at}"
    );
    assert_eq!(
        view["stats"],
        serde_json::to_value(a.stats).unwrap(),
        "{at}: stats (boosted, with luck)"
    );
    let equipped: BTreeSet<(u64, u64)> = view["equipment"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["id"].as_u64().unwrap(), i["xp"].as_u64().unwrap()))
        .collect();
    let engine_equipped: BTreeSet<(u64, u64)> = a
        .equipment
        .worn()
        .map(|(_, i)| (u64::from(i.id), u64::from(i.xp)))
        .collect();
    assert_eq!(equipped, engine_equipped, "{at}: equipment");
    let bag: BTreeSet<u64> = view["bag"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_u64().unwrap())
        .collect();
    let engine_bag: BTreeSet<u64> = engine.bag.iter().map(|i| u64::from(i.id)).collect();
    assert_eq!(bag, engine_bag, "{at}: bag");
    assert_eq!(
        view["phase"] == "in_battle",
        a.health > 0 && a.beast_health > 0,
        "{at}: in battle"
    );
    if view["phase"] == "in_battle" {
        let beast = &view["beast"];
        assert_eq!(beast["id"], engine.beast.id, "{at}: beast");
        assert_eq!(beast["level"], engine.beast.level, "{at}: beast level");
        assert_eq!(beast["health"], a.beast_health, "{at}: beast health");
        assert_eq!(
            beast["starting_health"], engine.beast.health,
            "{at}: beast's full health"
        );
    }
    let market: BTreeSet<u64> = view["market"]
        .as_array()
        .map(|m| m.iter().map(|i| i["id"].as_u64().unwrap()).collect())
        .unwrap_or_default();
    if !market.is_empty() {
        let engine_market: BTreeSet<u64> = engine.market.iter().map(|&i| u64::from(i)).collect();
        assert_eq!(market, engine_market, "{at}: market");
    }
    !market.is_empty()
}

/// `load_assets` read with plain starknet-rs, beside the server.
pub async fn load_assets(url: &url::Url, game: Felt, id: AdventurerId) -> Assets {
    let provider = JsonRpcClient::new(HttpTransport::new(url.clone()));
    let felts = super::accounts::view(&provider, game_core::load_assets(game, &id.felt())).await;
    Assets::from_felts(&felts).unwrap()
}

/// The move a game in `adv` (a full view) takes next: upgrade (into vitality), fight, or explore.
pub fn next_move(id: &Value, adv: &Value) -> (&'static str, Value) {
    match adv["phase"].as_str().unwrap() {
        "in_battle" => ("ls_attack", json!({"adventurer_id": id})),
        "stat_upgrade" => {
            let points = adv["stat_upgrades_available"].as_u64().unwrap();
            (
                "ls_upgrade",
                json!({"adventurer_id": id, "vitality": points}),
            )
        }
        _ => ("ls_explore", json!({"adventurer_id": id})),
    }
}

/// The engine action a write tool call stands for (the tools' defaults spelled out).
pub fn action_of(tool: &str, args: &Value) -> Action {
    let flag = |name: &str| args[name].as_bool().unwrap_or(false);
    let stat = |name: &str| u8::try_from(args[name].as_u64().unwrap_or(0)).unwrap();
    match tool {
        "ls_explore" => Action::Explore {
            till_beast: flag("till_beast"),
        },
        "ls_attack" => Action::Attack {
            to_the_death: flag("to_the_death"),
        },
        "ls_flee" => Action::Flee {
            to_the_death: flag("to_the_death"),
        },
        "ls_upgrade" => Action::Upgrade {
            stats: Stats {
                strength: stat("strength"),
                dexterity: stat("dexterity"),
                vitality: stat("vitality"),
                intelligence: stat("intelligence"),
                wisdom: stat("wisdom"),
                charisma: stat("charisma"),
                luck: 0,
            },
        },
        other => panic!("no engine action for {other}"),
    }
}
