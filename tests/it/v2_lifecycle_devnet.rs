//! A game's lifecycle on the v2 practice world: a token minted with an end (the practice
//! Denshokan packs `start_delay` and `end_delay`, the end counting from the start) plays until the
//! chain's clock passes its end; then the server refuses the next action before anything is built
//! or signed (the account's nonce does not move), and the practice GameCore reverts the same action
//! sent around the server ('Game expired'), as mainnet's playable check does.

use crate::common;
use crate::common::v2_replay::next_move;

use std::sync::Arc;

use serde_json::json;
use starknet::accounts::Account;
use starknet::core::types::{Call, Felt};
use starknet::providers::jsonrpc::{HttpTransport, JsonRpcClient};

use loot_survivor_mcp::deploy::v2::V2Deployment;

/// How long after its mint the game ends, in seconds.
const LIFETIME: u64 = 600;

/// `'Game expired'` as a short string, as a revert reason carries it.
const GAME_EXPIRED_HEX: &str = "47616d652065787069726564";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_game_is_refused_by_the_server_and_by_the_game() {
    let devnet = common::start_devnet(&[]).await;
    let url = &devnet.url;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("v2.json");
    common::devnet_deploy(url, &["--generation", "v2"], &file).await;
    let d = V2Deployment::load(&file).unwrap();
    let provider = Arc::new(JsonRpcClient::new(HttpTransport::new(url.clone())));
    let chain_id = Felt::from_bytes_be_slice(b"SN_SEPOLIA");
    let player = common::accounts::dev_account(
        &provider,
        chain_id,
        common::v2::ACCOUNT_0,
        common::v2::KEY_0,
    );
    let account = Felt::from_hex(common::v2::ACCOUNT_0).unwrap();

    // mint_game(player_name None, settings_id Some(0), start None, end Some(now + LIFETIME),
    // objective None, context None, client_url None, renderer None, skills None, to, soulbound,
    // paymaster, salt, metadata): an Option is [0, value] when Some and [1] when None.
    let latest = common::rpc(
        url,
        "starknet_getBlockWithTxHashes",
        json!({"block_id": "latest"}),
    )
    .await;
    let end = latest["timestamp"].as_u64().unwrap() + LIFETIME;
    let one = Felt::ONE;
    let mint = Call {
        to: d.token,
        selector: starknet::macros::selector!("mint_game"),
        calldata: vec![
            one,
            Felt::ZERO,
            Felt::ZERO,
            one,
            Felt::ZERO,
            Felt::from(end),
            one,
            one,
            one,
            one,
            one,
            account,
            Felt::ZERO,
            Felt::ZERO,
            Felt::ZERO,
            Felt::ZERO,
        ],
    };
    let receipt = common::accounts::send(&player, vec![mint]).await;
    // Denshokan's Transfer: keys [selector, from, to, id.low, id.high].
    let transfer = receipt
        .events()
        .iter()
        .find(|e| e.from_address == d.denshokan && e.keys.len() == 5)
        .expect("a Transfer");
    let two_128 = Felt::from_hex_unchecked("0x100000000000000000000000000000000");
    let id = transfer.keys[3] + transfer.keys[4] * two_128;
    let start = Call {
        to: d.game,
        selector: starknet::macros::selector!("start_game"),
        calldata: vec![id, Felt::from(common::v2::SHORT_SWORD)],
    };
    common::accounts::send(&player, vec![start]).await;

    let server = common::serve_v2(url, &file, &[]).await;
    let id_text = id.to_biguint().to_string();
    let adv = server.adventurer(&json!(id_text)).await;
    assert_eq!(
        adv["token"]["expires_at"].as_u64(),
        Some(end),
        "the end counts from the start: {adv}"
    );
    let (tool, args) = next_move(&json!(id_text), &adv);
    let out = server.ok(tool, args).await;
    assert_eq!(out["status"], "ACCEPTED_ON_L2", "playable before its end");

    // The chain's clock passes the end.
    common::rpc(url, "devnet_increaseTime", json!({"time": LIFETIME + 60})).await;
    common::rpc(url, "devnet_createBlock", json!({})).await;

    let adv = server.adventurer(&json!(id_text)).await;
    let (tool, args) = next_move(&json!(id_text), &adv);
    let before = common::nonce_and_balance(url, common::v2::ACCOUNT_0)
        .await
        .0;
    let refused = server.err(tool, args.clone(), "VALIDATION_ERROR").await;
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains(&format!("game expired at {end} (unix seconds")),
        "{refused}"
    );
    assert!(
        refused["hint"].as_str().unwrap().contains("ls_new_game"),
        "{refused}"
    );
    assert_eq!(
        common::nonce_and_balance(url, common::v2::ACCOUNT_0)
            .await
            .0,
        before,
        "nothing was sent"
    );
    server.shutdown().await;

    // Around the server, the practice GameCore refuses it too.
    let call = Call {
        to: d.game,
        selector: match tool {
            "ls_attack" => starknet::macros::selector!("attack"),
            _ => starknet::macros::selector!("explore"),
        },
        calldata: vec![id, Felt::ZERO],
    };
    let e = player
        .execute_v3(vec![call])
        .send()
        .await
        .expect_err("the game refuses an expired token");
    let text = format!("{e:?}");
    assert!(
        text.contains("Game expired") || text.contains(GAME_EXPIRED_HEX),
        "{text}"
    );
}
