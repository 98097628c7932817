//! SNIP-9 outside execution v3 signed by a Controller session key, on starknet-devnet with the
//! real Controller class (v1.0.9): our message hash equals the account's own view
//! `get_outside_execution_message_hash_rev_2`; a session-signed execution relayed by devnet account
//! #1 through `execute_from_outside_v3` moves tokens and spends its nonce bit; replaying it is
//! refused; and through a local stand-in of Cartridge's paymaster, our `request_body_v3` is relayed
//! and answered with a transaction hash, while a call the stand-in does not sponsor comes back as
//! `CartridgeError::Unsponsored`. The stand-in also relays our v2 body for an OpenZeppelin account.
//!
//! Skipped, with a message, without the Controller class fixture (`common::controller::class_dir`).
//! Needs starknet-devnet (`scripts/install-devnet.sh`).

use crate::common;

use std::time::{SystemTime, UNIX_EPOCH};

use common::controller::{
    STRK, class_dir, deploy_controller, signer, strk_balance, succeeded, view,
};
use common::paymaster::{self, Relayer, UNSPONSORED_MESSAGE};
use loot_survivor_mcp::chain::CartridgeError;
use loot_survivor_mcp::chain::controller::cartridge;
use loot_survivor_mcp::chain::controller::cartridge::CartridgePaymaster;
use loot_survivor_mcp::chain::controller::outside_v3::OutsideExecutionV3;
use loot_survivor_mcp::chain::outside::{ANY_CALLER, OutsideExecution};
use loot_survivor_mcp::chain::paymaster::{OutsideRequest, Paymaster};
use loot_survivor_mcp::wallet::session::{SessionPolicies, SessionSigner};
use starknet::accounts::{Account, ExecutionEncoding, SingleOwnerAccount};
use starknet::core::types::{BlockId, BlockTag, Call, Felt};
use starknet::macros::{felt, selector};
use starknet::providers::JsonRpcClient;
use starknet::providers::jsonrpc::HttpTransport;
use starknet::signers::{LocalWallet, SigningKey};

/// Test-only key of the session.
const SESSION_KEY: &str = "0x5e5510c0ffee5e5510c0ffee5e5510c0";
/// Salt of the Controller deployment (its address is then fixed, see the unit test vector).
const SALT: u64 = 0x0e3;

type Rpc = common::controller::Rpc;

async fn nonce_is_free(provider: &Rpc, account: Felt, (channel, mask): (Felt, u128)) -> bool {
    let free = view(
        provider,
        account,
        selector!("is_valid_outside_execution_v3_nonce"),
        vec![channel, Felt::from(mask)],
    )
    .await;
    free == vec![Felt::ONE]
}

fn transfer(recipient: Felt, amount: u64) -> Call {
    Call {
        to: STRK,
        selector: selector!("transfer"),
        calldata: vec![recipient, Felt::from(amount), Felt::ZERO],
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn session_signed_outside_execution_v3_on_a_real_controller() {
    let Some(dir) = class_dir() else {
        return;
    };
    let devnet = common::start_devnet(&[]).await;
    let provider = JsonRpcClient::new(HttpTransport::new(devnet.url.clone()));
    let controller = deploy_controller(&dir, &devnet.url, SALT).await;
    let (address, chain_id) = (controller.address, controller.chain_id);

    // (a) The account's own view is the oracle of our hash (the fixed vector of the unit test).
    let fixed = OutsideExecutionV3 {
        caller: ANY_CALLER,
        nonce: (Felt::from(0xc0ffee_u64), 4),
        execute_after: 0,
        execute_before: 2_000_000_000,
        calls: vec![transfer(Felt::from(0x5eed), 1234)],
    };
    let onchain = view(
        &provider,
        address,
        selector!("get_outside_execution_message_hash_rev_2"),
        fixed.serialize(),
    )
    .await;
    assert_eq!(onchain, vec![fixed.message_hash(chain_id, address)]);
    assert_eq!(
        (address, onchain[0]),
        (
            felt!("0x3d30e010ae84d432d2845856c48e55d0c5fbbfe42b0f4429aefb77888f09c37"),
            felt!("0xa8f0b062c4687f7be43970f9a64bdbf7e099f7be521f75ae1ebff37a86dbc6")
        ),
        "the fixed vector of the unit test in crates/cartridge/src/outside_v3.rs"
    );

    // The owner registers a session allowed STRK transfers for an hour.
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let session = SessionSigner::new_as_registered(
        signer(SESSION_KEY),
        address,
        controller.owner_guid,
        chain_id,
        SessionPolicies::new([(STRK, "transfer")]).unwrap(),
        now + 3600,
    );
    controller.register_session(session.session()).await;
    assert!(controller.is_registered(session.session_hash()).await);

    // (b) A session-signed execution, relayed by devnet account #1, moves the tokens.
    let recipient = Felt::from(0x0b0b_u64);
    let start = strk_balance(&provider, recipient).await;
    let first =
        OutsideExecutionV3::new_any_caller(vec![transfer(recipient, 1000)], now + 600).unwrap();
    assert!(nonce_is_free(&provider, address, first.nonce).await);
    let signature = session
        .sign(first.message_hash(chain_id, address), &first.calls)
        .await
        .unwrap();
    let relayer = Relayer::devnet_account_1();
    let mut account_1 = SingleOwnerAccount::new(
        provider.clone(),
        LocalWallet::from(SigningKey::from_secret_scalar(relayer.key)),
        relayer.address,
        chain_id,
        ExecutionEncoding::New,
    );
    account_1.set_block_id(BlockId::Tag(BlockTag::PreConfirmed));
    let relay = first.execute_call(address, &signature);
    let sent = account_1
        .execute_v3(vec![relay.clone()])
        .send()
        .await
        .expect("account #1 relays the session-signed execution");
    succeeded(&provider, sent.transaction_hash, "execute_from_outside_v3").await;
    assert_eq!(
        strk_balance(&provider, recipient).await,
        start + Felt::from(1000)
    );
    assert!(!nonce_is_free(&provider, address, first.nonce).await);
    let channel_mask = view(
        &provider,
        address,
        selector!("get_outside_execution_v3_channel_nonce"),
        vec![first.nonce.0],
    )
    .await;
    assert_eq!(channel_mask, vec![Felt::ONE]);

    // (c) Replaying the same execution is refused by the account.
    let replay = account_1.execute_v3(vec![relay]).send().await;
    let err = replay
        .expect_err("a spent nonce bit is refused")
        .to_string();
    assert!(err.contains("invalid-outside-nonce"), "{err}");
    assert_eq!(
        strk_balance(&provider, recipient).await,
        start + Felt::from(1000)
    );

    // (d) Through the paymaster stand-in: another bit of the same channel is sponsored.
    let (url, pm) = paymaster::start(devnet.url.clone(), relayer).await;
    let http = reqwest::Client::new();
    let second = OutsideExecutionV3 {
        nonce: (first.nonce.0, 2),
        ..OutsideExecutionV3::new_any_caller(vec![transfer(recipient, 20)], now + 600).unwrap()
    };
    let signature = session
        .sign(second.message_hash(chain_id, address), &second.calls)
        .await
        .unwrap();
    let hash = CartridgePaymaster::new(http.clone(), url.clone())
        .submit(OutsideRequest::V3 {
            account: address,
            execution: &second,
            signature: &signature,
        })
        .await
        .expect("the stand-in relays it");
    succeeded(&provider, hash, "relayed by the paymaster").await;
    assert_eq!(
        strk_balance(&provider, recipient).await,
        start + Felt::from(1020)
    );
    let requests = pm.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(
        requests[0],
        cartridge::request_body_v3(address, &second, &signature, 1)
    );
    let channel_mask = view(
        &provider,
        address,
        selector!("get_outside_execution_v3_channel_nonce"),
        vec![first.nonce.0],
    )
    .await;
    assert_eq!(channel_mask, vec![Felt::from(3)]);

    // Its replay through the paymaster comes back as a failure, not as "unsponsored".
    let err = CartridgePaymaster::new(http.clone(), url.clone())
        .submit(OutsideRequest::V3 {
            account: address,
            execution: &second,
            signature: &signature,
        })
        .await
        .expect_err("the replay fails");
    assert!(!matches!(err, CartridgeError::Unsponsored(_)), "{err:?}");
    assert!(
        format!("{err:?}").contains("invalid-outside-nonce"),
        "{err:?}"
    );

    // Calls the paymaster does not sponsor: -32003, read as `Unsponsored`; the nonce stays free.
    pm.refuse(STRK, selector!("transfer"));
    let third =
        OutsideExecutionV3::new_any_caller(vec![transfer(recipient, 5)], now + 600).unwrap();
    let signature = session
        .sign(third.message_hash(chain_id, address), &third.calls)
        .await
        .unwrap();
    match CartridgePaymaster::new(http.clone(), url.clone())
        .submit(OutsideRequest::V3 {
            account: address,
            execution: &third,
            signature: &signature,
        })
        .await
    {
        Err(CartridgeError::Unsponsored(m)) => assert_eq!(m, UNSPONSORED_MESSAGE),
        other => panic!("{other:?}"),
    }
    assert!(nonce_is_free(&provider, address, third.nonce).await);
    assert_eq!(pm.requests().len(), 3);

    // Sponsored again, the same signed execution goes through.
    pm.sponsor_all();
    let hash = CartridgePaymaster::new(http.clone(), url.clone())
        .submit(OutsideRequest::V3 {
            account: address,
            execution: &third,
            signature: &signature,
        })
        .await
        .unwrap();
    succeeded(&provider, hash, "sponsored again").await;
    assert_eq!(
        strk_balance(&provider, recipient).await,
        start + Felt::from(1025)
    );
}

/// The stand-in also relays our v2 body (through `execute_from_outside_v2`), for accounts with
/// SNIP-9 v2 such as devnet's OpenZeppelin accounts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_paymaster_stand_in_relays_v2_too() {
    let devnet = common::start_devnet(&[]).await;
    let provider = JsonRpcClient::new(HttpTransport::new(devnet.url.clone()));
    let chain_id = starknet::providers::Provider::chain_id(&provider)
        .await
        .unwrap();
    let (url, pm) = paymaster::start(devnet.url.clone(), Relayer::devnet_account_1()).await;
    let account_0 = Felt::from_hex(common::ACCOUNT).unwrap();
    let recipient = Felt::from(0x0c0c_u64);
    let start = strk_balance(&provider, recipient).await;
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let signed = OutsideExecution {
        caller: ANY_CALLER,
        nonce: Felt::from(0x77_u64),
        execute_after: 0,
        execute_before: now + 600,
        calls: vec![transfer(recipient, 42)],
    }
    .sign(
        &signer(common::controller::DEPLOYER_KEY),
        account_0,
        chain_id,
    )
    .await
    .unwrap();
    let hash = CartridgePaymaster::new(reqwest::Client::new(), url.clone())
        .submit(OutsideRequest::V2(&signed))
        .await
        .expect("the stand-in relays a v2 execution");
    succeeded(&provider, hash, "v2 relayed by the paymaster").await;
    assert_eq!(
        strk_balance(&provider, recipient).await,
        start + Felt::from(42)
    );
    assert_eq!(pm.requests(), vec![cartridge::request_body(&signed, 1)]);
    // The stand-in forwards ordinary JSON-RPC to the devnet.
    let through = JsonRpcClient::new(HttpTransport::new(url));
    assert_eq!(
        starknet::providers::Provider::chain_id(&through)
            .await
            .unwrap(),
        chain_id
    );
}
