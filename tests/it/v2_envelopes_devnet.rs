//! Both `GameEvent` envelopes on a real node: the v2 practice world switched to mainnet's earlier
//! envelope (the id in `data[0]`) for a game's first actions and back for the rest. A server told
//! the block that envelope ended at reads the whole history (and the state's action count) from
//! both; one not told reads only the keyed, current events.

use crate::common;

use common::v2_replay::next_move;
use loot_survivor_mcp::deploy::v2::V2Deployment;
use loot_survivor_mcp::game::v2::GAME_CORE_EVENT_SELECTOR;
use serde_json::{Value, json};
use starknet::core::types::{Call, Felt};
use starknet::providers::JsonRpcClient;
use starknet::providers::jsonrpc::HttpTransport;

/// Devnet's predeployed account #0 key (seed 0): the account `devnet deploy` deploys with.
const KEY_0: &str = "0x71d7bb07b9a64f6f78ac4c816aff4da9";

/// The GameCore events of transaction `hash`, as (number of keys, variant).
async fn events_of(url: &url::Url, game: Felt, hash: &str) -> Vec<(usize, String)> {
    let receipt = common::rpc(
        url,
        "starknet_getTransactionReceipt",
        json!({"transaction_hash": hash}),
    )
    .await;
    receipt["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| Felt::from_hex(e["from_address"].as_str().unwrap()).unwrap() == game)
        .map(|e| {
            let keys = e["keys"].as_array().unwrap();
            assert_eq!(
                Felt::from_hex(keys[0].as_str().unwrap()).unwrap(),
                GAME_CORE_EVENT_SELECTOR
            );
            let data = e["data"].as_array().unwrap();
            let variant = if keys.len() == 1 { &data[1] } else { &data[0] };
            (keys.len(), variant.as_str().unwrap().to_string())
        })
        .collect()
}

/// The adventurer's history through `ls_get_game_events`.
async fn history(client: &common::Client, id: &Value) -> Vec<Value> {
    client
        .ok(
            "ls_get_game_events",
            json!({"adventurer_id": id, "limit": 100}),
        )
        .await["events"]
        .as_array()
        .unwrap()
        .clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_history_across_both_envelopes_reads_whole_where_the_switch_is_known() {
    let devnet = common::start_devnet(&[]).await;
    let url = &devnet.url;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("v2.json");
    common::devnet_deploy(url, &["--generation", "v2", "--vrf", "off"], &file).await;
    let d = V2Deployment::load(&file).unwrap();
    let provider = std::sync::Arc::new(JsonRpcClient::new(HttpTransport::new(url.clone())));
    let chain_id = Felt::from_bytes_be_slice(b"SN_SEPOLIA");
    let deployer = common::accounts::dev_account(&provider, chain_id, common::ACCOUNT, KEY_0);
    let envelope = |legacy: bool| Call {
        to: d.game,
        selector: starknet::core::utils::get_selector_from_name("set_legacy_envelope").unwrap(),
        calldata: vec![Felt::from(u8::from(legacy))],
    };

    common::accounts::send(&deployer, vec![envelope(true)]).await;
    let player = common::serve_v2(url, &file, &[]).await;
    let started = player
        .ok("ls_new_game", json!({"weapon": "Short Sword"}))
        .await;
    let id = started["adventurer_id"].clone();
    let mut per_tx = vec![events_of(url, d.game, started["tx_hash"].as_str().unwrap()).await];
    let mut adv = started["adventurer"].clone();
    let play = async |per_tx: &mut Vec<Vec<(usize, String)>>, adv: &mut Value| {
        for _ in 0..3 {
            if adv["phase"] == "dead" {
                return;
            }
            let (tool, args) = next_move(&id, adv);
            let out = player.ok(tool, args).await;
            per_tx.push(events_of(url, d.game, out["tx_hash"].as_str().unwrap()).await);
            *adv = out["adventurer"].clone();
        }
    };
    play(&mut per_tx, &mut adv).await;
    let earlier = per_tx.len();
    assert!(
        per_tx.iter().flatten().all(|(keys, _)| *keys == 1),
        "the first {earlier} transactions emit the earlier envelope: {per_tx:?}"
    );
    let until = common::rpc(url, "starknet_blockNumber", json!([])).await;
    common::accounts::send(&deployer, vec![envelope(false)]).await;
    play(&mut per_tx, &mut adv).await;
    assert!(
        per_tx[earlier..]
            .iter()
            .flatten()
            .all(|(keys, _)| *keys == 2),
        "the rest emit the current one: {per_tx:?}"
    );
    let all: Vec<(usize, String)> = per_tx.iter().flatten().cloned().collect();
    let later = per_tx[earlier..].iter().flatten().count();
    assert!(later > 0, "the game went on after the switch: {per_tx:?}");

    assert_eq!(
        history(&player, &id).await.len(),
        later,
        "a server not told the switch block reads only the current envelope"
    );
    player.shutdown().await;

    let until_env = until.as_u64().unwrap().to_string();
    let reader = common::serve_v2(
        url,
        &file,
        &[("LS_DEPLOYMENT__LEGACY_ENVELOPE_UNTIL_BLOCK", &until_env)],
    )
    .await;
    let whole = history(&reader, &id).await;
    assert_eq!(
        whole.len(),
        all.len(),
        "every event of every transaction, once: {whole:?}"
    );
    let counts: Vec<u64> = whole
        .iter()
        .map(|e| e["action_count"].as_u64().unwrap())
        .collect();
    let expected: Vec<u64> = per_tx
        .iter()
        .enumerate()
        .flat_map(|(i, events)| std::iter::repeat_n(i as u64 + 1, events.len()))
        .collect();
    assert_eq!(counts, expected, "each event's transaction ordinal");
    let now = reader
        .ok("ls_get_adventurer", json!({"adventurer_id": id}))
        .await;
    assert_eq!(
        now["adventurer"]["action_count"],
        per_tx.len(),
        "the state counts the transactions of both envelopes"
    );
    reader.shutdown().await;
}
