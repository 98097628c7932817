//! Another client of the server's own account moves its nonce on between two writes (a wallet
//! app, a script): the next write is refused at its fee estimate for the stale nonce, re-reads the
//! nonce and lands, for a game action and for a new game (whose token id is read from storage).

use crate::common;

use std::sync::Arc;

use serde_json::json;
use starknet::accounts::{Account, ExecutionEncoding, SingleOwnerAccount};
use starknet::core::types::{BlockId, BlockTag, Call, Felt};
use starknet::core::utils::get_selector_from_name;
use starknet::providers::Provider;
use starknet::providers::jsonrpc::{HttpTransport, JsonRpcClient};
use starknet::signers::{LocalWallet, SigningKey};

/// The devnet profile's account #0 and its public development key (`starknet-devnet --seed 0`).
const KEY_0: &str = "0x71d7bb07b9a64f6f78ac4c816aff4da9";
/// STRK on starknet-devnet.
const STRK: &str = "0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d";

fn nonce_of(v: &(serde_json::Value, serde_json::Value)) -> u64 {
    u64::from_str_radix(v.0.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

/// Sends a 1-fri STRK transfer to itself from account #0, outside the server, and waits for it.
async fn move_nonce_elsewhere(world: &common::World) {
    let provider = Arc::new(JsonRpcClient::new(HttpTransport::new(
        world.devnet.url.clone(),
    )));
    let me = Felt::from_hex(common::ACCOUNT).unwrap();
    let mut account = SingleOwnerAccount::new(
        provider.clone(),
        LocalWallet::from(SigningKey::from_secret_scalar(
            Felt::from_hex(KEY_0).unwrap(),
        )),
        me,
        provider.chain_id().await.unwrap(),
        ExecutionEncoding::New,
    );
    account.set_block_id(BlockId::Tag(BlockTag::PreConfirmed));
    let transfer = Call {
        to: Felt::from_hex(STRK).unwrap(),
        selector: get_selector_from_name("transfer").unwrap(),
        calldata: vec![me, Felt::ONE, Felt::ZERO],
    };
    let sent = account.execute_v3(vec![transfer]).send().await.unwrap();
    for _ in 0..100 {
        if provider
            .get_transaction_receipt(sent.transaction_hash)
            .await
            .is_ok()
        {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the outside transfer never landed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nonce_moved_on_by_another_client_is_reread_and_the_write_lands() {
    let world = common::world().await;
    let client = world.client(&[]).await;
    let devnet = &world.devnet.url;
    let started = client.ok("ls_new_game", json!({"weapon": "Wand"})).await;
    let id = started["adventurer_id"].as_u64().unwrap();

    move_nonce_elsewhere(&world).await;
    let before = common::nonce_and_balance(devnet, common::ACCOUNT).await;
    let attacked = client.ok("ls_attack", json!({"adventurer_id": id})).await;
    assert_eq!(attacked["status"], "ACCEPTED_ON_L2");
    let after = common::nonce_and_balance(devnet, common::ACCOUNT).await;
    assert_eq!(
        nonce_of(&after),
        nonce_of(&before) + 1,
        "one attack, sent once"
    );

    move_nonce_elsewhere(&world).await;
    let again = client.ok("ls_new_game", json!({"weapon": "Club"})).await;
    let new_id = again["adventurer_id"].as_u64().unwrap();
    assert_eq!(new_id, id + 1, "the id read from storage is the one minted");
    assert_eq!(again["adventurer"]["phase"], "in_battle");
    let end = common::nonce_and_balance(devnet, common::ACCOUNT).await;
    assert_eq!(
        nonce_of(&end),
        nonce_of(&after) + 2,
        "the outside transfer and one new-game transaction"
    );
    client.shutdown().await;
}
