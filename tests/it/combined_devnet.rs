//! Combined moves on a real node, in both generations: the real binary over stdio plays a whole
//! game by following the advice line's combined moves, then another by its single steps
//! (`server.combined_moves = false`), and prints calls and transactions per game side by side. A
//! level-up's stat points, purchases and first explore step land as one multicall (on v2 with a
//! salt VRF source, after the `request_random` call), read back from the node; a combined move
//! whose purchase the game would refuse names that part and sends nothing (the account's nonce
//! is unchanged).

use crate::common;

use loot_survivor_mcp::deploy::v2::VrfMode;
use serde_json::{Value, json};
use starknet::core::types::Felt;
use starknet::macros::selector;

use common::advice_game::{AdviceGame, play_by_advice};

/// Most calls of one game (a single-step game on the sim takes 132 at its p90).
const MAX_CALLS: usize = 800;

/// The (contract, selector) of each call of an account's `__execute__` calldata
/// (`[n, to, selector, len, data…]` per call).
fn calls_of(calldata: &[Value]) -> Vec<(Felt, Felt)> {
    let felt = |v: &Value| Felt::from_hex(v.as_str().expect("a felt")).expect("hex");
    let n = felt(&calldata[0]).to_biguint().try_into().unwrap_or(0usize);
    let mut at = 1;
    let mut out = Vec::new();
    for _ in 0..n {
        let (to, sel) = (felt(&calldata[at]), felt(&calldata[at + 1]));
        let len: usize = felt(&calldata[at + 2]).to_biguint().try_into().unwrap();
        out.push((to, sel));
        at += 3 + len;
    }
    out
}

/// The calls of each of the game's transactions, from the node.
async fn multicalls(url: &url::Url, game: &AdviceGame) -> Vec<Vec<(Felt, Felt)>> {
    let mut out = Vec::new();
    for hash in &game.txs {
        let tx = common::rpc(
            url,
            "starknet_getTransactionByHash",
            json!({"transaction_hash": hash}),
        )
        .await;
        out.push(calls_of(tx["calldata"].as_array().expect("calldata")));
    }
    out
}

/// A level-up in one transaction: the upgrade, then the explore step, after `first` when given.
fn level_up_in_one(calls: &[(Felt, Felt)], first: Option<Felt>) -> bool {
    let sels: Vec<Felt> = calls.iter().map(|c| c.1).collect();
    let upgrade = sels
        .iter()
        .position(|s| *s == selector!("select_stat_upgrades"));
    let explore = sels.iter().position(|s| *s == selector!("explore"));
    let starts = first.is_none_or(|f| sels.first() == Some(&f));
    matches!((upgrade, explore), (Some(u), Some(e)) if u < e) && starts
}

/// Plays both games and checks the combined one's multicalls; returns the printed line.
async fn both_games(
    label: &str,
    url: &url::Url,
    combined: common::Client,
    single: impl std::future::Future<Output = common::Client>,
    vrf_first: Option<Felt>,
) -> String {
    let game = play_by_advice(&combined, "Short Sword", MAX_CALLS).await;
    assert!(game.died, "{}", game.summary("combined"));
    let txs = multicalls(url, &game).await;
    let batched = txs.iter().filter(|c| level_up_in_one(c, vrf_first)).count();
    assert!(
        batched > 0,
        "{label}: no level-up went as one multicall: {}",
        game.summary("combined")
    );
    assert!(
        game.txs.len() > game.calls,
        "{label}: moves that go on send several transactions: {}",
        game.summary("combined")
    );
    combined.shutdown().await;
    let single = single.await;
    let steps = play_by_advice(&single, "Short Sword", MAX_CALLS).await;
    assert!(steps.died, "{}", steps.summary("single steps"));
    assert!(
        !steps.tools.keys().any(|t| t == "ls_upgrade")
            || multicalls(url, &steps)
                .await
                .iter()
                .all(|c| !level_up_in_one(c, vrf_first)),
        "{label}: single steps send no combined transaction"
    );
    single.shutdown().await;
    let line = format!(
        "{label}: {} | {} ({batched} level-ups in one multicall)",
        steps.summary("single steps"),
        game.summary("combined moves")
    );
    eprintln!("{line}");
    line
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn v1_games_by_combined_moves_and_by_single_steps() {
    let world = common::world().await;
    let combined = world.client(&[]).await;
    let single = world.client(&[("LS_SERVER__COMBINED_MOVES", "false")]);
    both_games("v1", &world.devnet.url, combined, single, None).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn v2_games_by_combined_moves_and_by_single_steps() {
    let devnet = common::start_devnet(&[]).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("v2.json");
    common::devnet_deploy(
        &devnet.url,
        &["--generation", "v2", "--vrf", VrfMode::Salt.name()],
        &file,
    )
    .await;
    let d = loot_survivor_mcp::deploy::v2::V2Deployment::load(&file).unwrap();
    let combined = common::serve_v2(&devnet.url, &file, &[]).await;
    let single = common::serve_v2(
        &devnet.url,
        &file,
        &[("LS_SERVER__COMBINED_MOVES", "false")],
    );
    let vrf = Some(selector!("request_random"));
    assert!(d.vrf != Felt::ZERO);
    both_games("v2", &devnet.url, combined, single, vrf).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_part_is_named_and_nothing_is_sent() {
    let world = common::world().await;
    let client = world.client(&[]).await;
    let started = client
        .ok(
            "ls_new_game",
            json!({"weapon": "Wand", "detail": "compact"}),
        )
        .await;
    let id = started["adventurer_id"].clone();
    // The starter beast, then the first level-up.
    let mut state = started["state"].clone();
    for _ in 0..20 {
        if state["phase"] != "in_battle" {
            break;
        }
        let out = client
            .ok(
                "ls_attack",
                json!({"adventurer_id": id, "to_the_death": true, "detail": "compact"}),
            )
            .await;
        state = out["state"].clone();
    }
    assert_eq!(state["phase"], "stat_upgrade", "{state}");
    let adv = client
        .ok("ls_get_adventurer", json!({"adventurer_id": id}))
        .await;
    let market: Vec<u64> = adv["adventurer"]["market"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_u64().unwrap())
        .collect();
    let absent = (1..=101).find(|i| !market.contains(i)).unwrap();
    let points = adv["adventurer"]["stat_upgrades_available"].clone();
    let nonce = || common::nonce_and_balance(&world.devnet.url, common::ACCOUNT);
    let before = nonce().await;
    let e = client
        .err(
            "ls_upgrade",
            json!({"adventurer_id": id, "vitality": points, "items": [absent], "explore": true}),
            "CONTRACT_REVERT",
        )
        .await;
    assert_eq!(e["details"]["part"], 2, "{e}");
    assert_eq!(e["details"]["entrypoint"], "buy_items", "{e}");
    assert_eq!(e["details"]["reason_code"], "ITEM_NOT_IN_MARKET", "{e}");
    assert!(
        e["message"].as_str().unwrap().contains("nothing was sent"),
        "{e}"
    );
    assert_eq!(nonce().await, before, "nothing was signed or sent");
    // The same move without the bad part lands as one transaction, and explores.
    let out = client
        .ok(
            "ls_upgrade",
            json!({"adventurer_id": id, "vitality": points, "explore": true}),
        )
        .await;
    let calls = common::rpc(
        &world.devnet.url,
        "starknet_getTransactionByHash",
        json!({"transaction_hash": out["tx_hash"]}),
    )
    .await;
    let calls = calls_of(calls["calldata"].as_array().unwrap());
    assert!(level_up_in_one(&calls, None), "{calls:?}");
    assert!(out["events"].as_array().unwrap().len() > 1, "{out}");
    client.shutdown().await;
}
