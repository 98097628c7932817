//! The second generation through MCP on a real node: starknet-devnet with the v2 practice world
//! deployed in each VRF mode (off, nonce, salt), the real binary with `LS_GENERATION=v2` over
//! stdio, rmcp's client playing a game: the packed id as a decimal string with its fields,
//! every action landing with the VRF request its mode needs, `ls_get_adventurer` equal to
//! GameCore's `load_assets` and to the engine's replay of the game (each action with the seed its
//! `randomness` event announced), the history from the chain's GameCore events, the leaderboard
//! through the Denshokan stand-in, and `ls_surrender` ending the game only when confirmed.

use crate::common;
use crate::denshokan_support;

use std::collections::BTreeSet;

use loot_survivor_mcp::deploy::v2::{V2Deployment, VrfMode};
use loot_survivor_mcp::game::AdventurerId;
use loot_survivor_mcp::game::catalogue::item_by_name;
use loot_survivor_mcp::game::engine::{Action, EngineSettings};
use loot_survivor_mcp::game::v2::Replay;
use serde_json::json;
use starknet::core::types::Felt;
use starknet::providers::JsonRpcClient;
use starknet::providers::jsonrpc::HttpTransport;

use common::v2_replay::{action_of, assert_matches_engine, load_assets, next_move, seed_of};
use denshokan_support::{FakeDenshokan, Row};

/// Actions played before surrendering (the game may end sooner).
const ACTIONS: usize = 24;

/// The first call's target of transaction `hash` (an account's `__execute__` calldata).
async fn first_call_target(url: &url::Url, hash: &str) -> String {
    let tx = common::rpc(
        url,
        "starknet_getTransactionByHash",
        json!({"transaction_hash": hash}),
    )
    .await;
    tx["calldata"][1].as_str().expect("calldata").to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_v2_game_through_mcp_in_each_vrf_mode() {
    let devnet = common::start_devnet(&[]).await;
    let dir = tempfile::tempdir().unwrap();
    for mode in [VrfMode::Off, VrfMode::Nonce, VrfMode::Salt] {
        let file = dir.path().join(format!("v2-{}.json", mode.name()));
        common::devnet_deploy(
            &devnet.url,
            &["--generation", "v2", "--vrf", mode.name()],
            &file,
        )
        .await;
        let deployment = V2Deployment::load(&file).unwrap();
        play(&devnet.url, &file, &deployment, mode).await;
        if mode == VrfMode::Off {
            every_id_tool_takes_an_id_above_two_to_the_250(&devnet.url, &file, &deployment).await;
        }
    }
}

/// Devnet's account #0 (seed 0), the devnet profile's wallet, and its key.
const KEY_0: &str = "0x71d7bb07b9a64f6f78ac4c816aff4da9";

/// A game minted by a plain `mint_game` with metadata 0x1fff (bits 238–250: the id is above
/// 2^250), then started and played through MCP by every tool that takes an id, as a string.
async fn every_id_tool_takes_an_id_above_two_to_the_250(
    url: &url::Url,
    file: &std::path::Path,
    d: &V2Deployment,
) {
    let provider = std::sync::Arc::new(JsonRpcClient::new(HttpTransport::new(url.clone())));
    let chain_id = Felt::from_bytes_be_slice(b"SN_SEPOLIA");
    let account = common::accounts::dev_account(&provider, chain_id, common::ACCOUNT, KEY_0);
    let none = Felt::ONE;
    let mut calldata = vec![none; 9]; // name, settings, start, end, objective, context, url, renderer, skills
    calldata.extend([
        Felt::from_hex(common::ACCOUNT).unwrap(),
        Felt::ZERO,
        Felt::ZERO,
    ]);
    calldata.extend([Felt::ZERO, Felt::from(0x1fff_u16)]); // salt, metadata
    let mint = starknet::core::types::Call {
        to: d.token,
        selector: starknet::core::utils::get_selector_from_name("mint_game").unwrap(),
        calldata,
    };
    let receipt = common::accounts::send(&account, vec![mint]).await;
    let events: Vec<_> = receipt
        .events()
        .iter()
        .map(|e| starknet::core::types::Event {
            from_address: e.from_address,
            keys: e.keys.clone(),
            data: e.data.clone(),
        })
        .collect();
    let id = loot_survivor_mcp::chain::token_id::token_id_from_events(&events, Some(d.denshokan))
        .expect("a minted id");
    let two_250 = AdventurerId::parse(&format!("0x4{}", "0".repeat(62))).unwrap();
    assert!(id > two_250, "{id} is above 2^250");
    let dec = id.to_string();
    let hex = format!("{:#x}", id.felt());

    let client = common::serve_v2(url, file, &[]).await;
    let started = client
        .ok(
            "ls_new_game",
            json!({"adventurer_id": hex, "weapon": "Wand"}),
        )
        .await;
    assert_eq!(
        started["adventurer_id"],
        json!(dec),
        "named back in decimal"
    );
    let read = client
        .ok("ls_get_adventurer", json!({"adventurer_id": dec}))
        .await;
    assert_eq!(read["adventurer"]["adventurer_id"], json!(dec));
    assert_eq!(read["adventurer"]["token"]["minted_by"], 1, "{read}");
    let compact = client
        .ok(
            "ls_get_adventurer",
            json!({"adventurer_id": hex, "detail": "compact"}),
        )
        .await;
    assert!(
        compact["token"]["minted_at"].as_u64().is_some(),
        "{compact}"
    );
    for (tool, args) in [
        ("ls_battle_preview", json!({"adventurer_id": dec})),
        ("ls_advise", json!({"adventurer_id": hex, "about": "stats"})),
        ("ls_attack", json!({"adventurer_id": dec})),
        ("ls_get_game_events", json!({"adventurer_id": hex})),
    ] {
        let out = client.ok(tool, args).await;
        let named = out
            .get("adventurer_id")
            .or_else(|| out.get("adventurer").map(|a| &a["adventurer_id"]));
        if let Some(named) = named {
            assert_eq!(named, &json!(dec), "{tool} names the id back: {out}");
        }
    }
    let events = client
        .ok("ls_get_game_events", json!({"adventurer_id": dec}))
        .await;
    assert!(
        events["events"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["adventurer_id"] == json!(dec)),
        "{events}"
    );
    let gone = client
        .ok(
            "ls_surrender",
            json!({"adventurer_id": hex, "confirm_surrender": true}),
        )
        .await;
    assert_eq!(gone["adventurer"]["phase"], "dead");
    client.shutdown().await;
}

async fn play(url: &url::Url, file: &std::path::Path, d: &V2Deployment, mode: VrfMode) {
    let fake = FakeDenshokan::start().await;
    let client = common::serve_v2(url, file, &[("LS_DENSHOKAN_URL", &fake.url)]).await;

    let started = client
        .ok("ls_new_game", json!({"weapon": "Short Sword"}))
        .await;
    let id_json = started["adventurer_id"].clone();
    let id_text = id_json
        .as_str()
        .unwrap_or_else(|| panic!("{mode:?}: a packed id is a decimal string: {started}"));
    let id = AdventurerId::parse(id_text).unwrap();
    assert!(id.to_u64().is_none(), "{mode:?}: {id_text} is above 2^64");
    assert!(
        id_text.chars().all(|c| c.is_ascii_digit()),
        "{mode:?}: written in decimal: {id_text}"
    );
    assert_eq!(started["adventurer"]["phase"], "in_battle", "{mode:?}");
    assert_eq!(started["adventurer"]["adventurer_id"], id_json);
    let minted_at = started["adventurer"]["token"]["minted_at"].as_u64();
    assert!(
        minted_at.is_some_and(|t| t > 1_700_000_000),
        "{mode:?}: the packed fields are decoded: {}",
        started["adventurer"]
    );
    let hex_id = format!("{:#x}", id.felt());
    let mut replay = Replay::new(id, EngineSettings::practice_world());
    let weapon = item_by_name("Short Sword").unwrap().id;
    replay
        .apply(&Action::StartGame { weapon }, None)
        .expect("the engine starts the game too");

    let mut txs = BTreeSet::new();
    let mut drew_randomness = 0;
    let mut markets_compared = 0;
    for _ in 0..ACTIONS {
        let now = client
            .ok(
                "ls_get_adventurer",
                json!({"adventurer_id": hex_id, "detail": "full"}),
            )
            .await;
        let adv = &now["adventurer"];
        let at = format!("{mode:?} before #{}", txs.len());
        markets_compared += usize::from(assert_matches_engine(adv, &replay.state(), &at));
        if adv["phase"] == "dead" {
            break;
        }
        let (tool, args) = next_move(&id_json, adv);
        let action = action_of(tool, &args);
        let out = client.ok(tool, args).await;
        let hash = out["tx_hash"].as_str().expect("a real hash").to_string();
        let seed = seed_of(url, d.game, &hash).await;
        assert_eq!(
            seed.is_some(),
            tool != "ls_upgrade",
            "{mode:?} {tool}: a randomness event exactly when the action draws"
        );
        replay
            .apply(&action, seed)
            .unwrap_or_else(|e| panic!("{mode:?} {tool}: the engine refused what landed: {e:?}"));
        assert!(
            txs.insert(hash.clone()),
            "{mode:?}: one transaction per action"
        );
        assert_eq!(out["status"], "ACCEPTED_ON_L2", "{mode:?} {tool}");
        let target = first_call_target(url, &hash).await;
        let to_vrf = Felt::from_hex(&target).unwrap() == d.vrf;
        if tool == "ls_upgrade" {
            assert!(!to_vrf, "{mode:?}: an upgrade draws no randomness");
        } else {
            assert_eq!(
                to_vrf,
                mode != VrfMode::Off,
                "{mode:?} {tool}: request_random comes first exactly when the mode draws from the provider"
            );
            drew_randomness += 1;
        }
        let assets = load_assets(url, d.game, id).await;
        let full = &out["adventurer"];
        assert_eq!(full["health"], assets.adventurer.health, "{mode:?} {tool}");
        assert_eq!(full["xp"], assets.adventurer.xp, "{mode:?} {tool}");
        assert_eq!(full["gold"], assets.adventurer.gold, "{mode:?} {tool}");
        assert_eq!(
            full["stats"]["vitality"], assets.adventurer.stats.vitality,
            "{mode:?} {tool}"
        );
        assert_eq!(
            full["action_count"],
            txs.len() + 1,
            "{mode:?}: the count of the game's transactions"
        );
    }
    assert!(drew_randomness >= 2, "{mode:?}: fights and explores played");
    assert!(
        replay.state().adventurer.level() == 1 || markets_compared > 0,
        "{mode:?}: a level was gained, so a market was compared"
    );

    let history = client
        .ok(
            "ls_get_game_events",
            json!({"adventurer_id": id_text, "limit": 50}),
        )
        .await;
    let events = history["events"].as_array().expect("events");
    assert!(!events.is_empty(), "{mode:?}: {history}");
    assert_eq!(events[0]["adventurer_id"], id_json, "{mode:?}");
    assert_eq!(events[0]["action_count"], 1, "{mode:?}: start_game first");

    let xp = load_assets(url, d.game, id).await.adventurer.xp;
    fake.add([
        Row::new(id_text, common::ACCOUNT, u64::from(xp), 10),
        Row::new("7", "0x1", u64::from(xp) + 100, 5),
    ]);
    let board = client
        .ok("ls_get_leaderboard", json!({"scope": "all", "limit": 10}))
        .await;
    let rows = board["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 2, "{mode:?}: {board}");
    assert_eq!(rows[1]["adventurer_id"], id_json, "{mode:?}: {board}");
    assert_eq!(rows[1]["rank"], 2);
    assert!(
        fake.log()
            .iter()
            .any(|l| l.param("include_uri") == Some("false")),
        "{mode:?}: token URIs are never asked for"
    );

    let refused = client
        .err(
            "ls_surrender",
            json!({"adventurer_id": id_text, "confirm_surrender": false}),
            "VALIDATION_ERROR",
        )
        .await;
    assert!(
        refused["hint"]
            .as_str()
            .unwrap()
            .contains("confirm_surrender: true"),
        "{refused}"
    );
    let alive = load_assets(url, d.game, id).await.adventurer.health;
    if alive > 0 {
        let gone = client
            .ok(
                "ls_surrender",
                json!({"adventurer_id": id_text, "confirm_surrender": true}),
            )
            .await;
        assert_eq!(gone["adventurer"]["phase"], "dead", "{mode:?}");
        assert_eq!(load_assets(url, d.game, id).await.adventurer.health, 0);
    }
    client.shutdown().await;
}
