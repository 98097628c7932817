//! SNIP-9 v2 outside execution on a real account contract: the server's wallet (devnet account
//! #0, OpenZeppelin Account v1.0.0, which embeds `ISRC9_V2`) signs an `OutsideExecution` of a
//! practice-world action; devnet account #1 submits it through `execute_from_outside_v2` on
//! account #0, and the action lands. The same execution cannot be replayed, and a tampered one
//! is refused — so the SNIP-12 hash and the signature are what the account contract checks.
//! (Devnet has no Cartridge VRF provider, so the bundle here is the game call alone.)

use crate::common;

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use loot_survivor_mcp::chain::bindings::game_systems;
use loot_survivor_mcp::chain::manifest::{GameAddresses, read_manifest};
use loot_survivor_mcp::chain::outside::{EXECUTE_FROM_OUTSIDE_V2, OutsideExecution};
use loot_survivor_mcp::wallet::SecretSigner;
use serde_json::json;
use starknet::accounts::{Account, ExecutionEncoding, SingleOwnerAccount};
use starknet::core::types::{
    BlockId, BlockTag, ExecutionResult, Felt, FunctionCall, TransactionReceiptWithBlockInfo,
};
use starknet::providers::jsonrpc::{HttpTransport, JsonRpcClient};
use starknet::providers::{Provider, ProviderError};
use starknet::signers::{LocalWallet, SigningKey};
use starknet_types_core::felt::secret_felt::SecretFelt;

const KEY_0: &str = "0x71d7bb07b9a64f6f78ac4c816aff4da9";
const ACCOUNT_1: &str = "0x078662e7352d062084b0010068b99288486c2d8b914f6e2a55ce945f8792c8b1";
const KEY_1: &str = "0xe1406455b7d66b1690803be066cbe5e";

async fn receipt(p: &JsonRpcClient<HttpTransport>, hash: Felt) -> TransactionReceiptWithBlockInfo {
    for _ in 0..100 {
        match p.get_transaction_receipt(hash).await {
            Ok(r) => return r,
            Err(ProviderError::StarknetError(_)) => {
                tokio::time::sleep(std::time::Duration::from_millis(100)).await
            }
            Err(e) => panic!("{e}"),
        }
    }
    panic!("no receipt for {hash:#x}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_account_submits_our_signed_outside_execution() {
    let world = common::world().await;
    let provider = JsonRpcClient::new(HttpTransport::new(world.devnet.url.clone()));
    let chain_id = provider.chain_id().await.unwrap();
    let ours = Felt::from_hex(common::ACCOUNT).unwrap();
    let addresses = GameAddresses::from_map(&read_manifest(&world.manifest).unwrap()).unwrap();

    // The account class really is SNIP-9 v2: the nonce view of ISRC9_V2 answers.
    let fresh = provider
        .call(
            FunctionCall {
                contract_address: ours,
                entry_point_selector: starknet::macros::selector!(
                    "is_valid_outside_execution_nonce"
                ),
                calldata: vec![Felt::from(77)],
            },
            BlockId::Tag(BlockTag::Latest),
        )
        .await
        .unwrap();
    assert_eq!(fresh, vec![Felt::ONE]);

    // A new game through the server (account #0): the adventurer faces the starter beast.
    let client = world.client(&[]).await;
    let started = client.ok("ls_new_game", json!({"weapon": "Club"})).await;
    let id = started["adventurer_id"].as_u64().unwrap();
    assert_eq!(started["adventurer"]["phase"], "in_battle");
    let xp_before = started["adventurer"]["xp"].as_u64().unwrap();

    // Our wallet signs `attack(id, false)` for account #1 to submit.
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let relayer = Felt::from_hex(ACCOUNT_1).unwrap();
    let execution = OutsideExecution {
        caller: relayer,
        nonce: Felt::from(0x5eed_u64 + id),
        execute_after: 0,
        execute_before: now + 3600,
        calls: vec![game_systems::attack(addresses.game_systems, &id, &false)],
    };
    let signer = SecretSigner::new(SecretFelt::from_hex_string(&mut KEY_0.to_string()).unwrap());
    let signed = execution.sign(&signer, ours, chain_id).await.unwrap();

    let mut relayer_account = SingleOwnerAccount::new(
        Arc::new(JsonRpcClient::new(HttpTransport::new(
            world.devnet.url.clone(),
        ))),
        LocalWallet::from(SigningKey::from_secret_scalar(
            Felt::from_hex(KEY_1).unwrap(),
        )),
        relayer,
        chain_id,
        ExecutionEncoding::New,
    );
    relayer_account.set_block_id(BlockId::Tag(BlockTag::PreConfirmed));

    // A tampered execution (different nonce, same signature) is refused by the account.
    let mut tampered = signed.clone();
    tampered.execution.nonce += Felt::ONE;
    let refused = relayer_account
        .execute_v3(vec![tampered.execute_call()])
        .estimate_fee()
        .await;
    assert!(
        refused.is_err(),
        "a tampered outside execution must be refused"
    );

    let call = signed.execute_call();
    assert_eq!(call.selector, EXECUTE_FROM_OUTSIDE_V2);
    let sent = relayer_account
        .execute_v3(vec![call.clone()])
        .send()
        .await
        .expect("account #1 submits execute_from_outside_v2");
    let r = receipt(&provider, sent.transaction_hash).await;
    assert!(
        matches!(r.receipt.execution_result(), ExecutionResult::Succeeded),
        "{:?}",
        r.receipt.execution_result()
    );
    // The action landed: the starter beast is dead and the adventurer has gained XP.
    let after = client
        .ok("ls_get_adventurer", json!({"adventurer_id": id}))
        .await;
    assert!(
        after["adventurer"]["xp"].as_u64().unwrap() > xp_before,
        "{after}"
    );
    assert_ne!(after["adventurer"]["phase"], "in_battle", "{after}");

    // The nonce is spent: the same signed execution cannot be replayed.
    let replay = relayer_account.execute_v3(vec![call]).estimate_fee().await;
    assert!(
        replay.is_err(),
        "a replayed outside execution must be refused"
    );
    client.shutdown().await;
}
