//! The chain client's VRF path end to end, on devnet behind a stand-in for the Cartridge RPC: a
//! local HTTP server on 127.0.0.1 forwards ordinary JSON-RPC to devnet and plays the paymaster for
//! `cartridge_addExecuteOutsideTransaction`. With `vrf = true` the client reads the adventurer,
//! bundles `request_random` with the battle salt before `attack`, signs a SNIP-9 v2 outside
//! execution and submits it; plain actions (mint, start) stay ordinary invokes. The stand-in checks
//! the request (salt from the pre-action state, signature against the SNIP-12 hash) and — devnet
//! having no VRF provider to wrap — has our wallet's key sign the game call alone as a new outside
//! execution that devnet account #1 submits through `execute_from_outside_v2`; the client then
//! tracks that transaction like any other write and reports its game events. Handed the state it
//! already holds, the client sends the bundle without a read.

use crate::common;
use crate::torii_support::http;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use loot_survivor_mcp::chain::manifest::{GameAddresses, read_manifest};
use loot_survivor_mcp::chain::outside::{ANY_CALLER, OutsideExecution};
use loot_survivor_mcp::chain::wallet_account::AccountSigner;
use loot_survivor_mcp::chain::{Confirm, Hooks, WriteOptions};
use loot_survivor_mcp::game::engine::Action;
use loot_survivor_mcp::game::random::battle_salt;
use loot_survivor_mcp::wallet::{
    CARTRIDGE_VRF_PROVIDER, PolicySettings, REQUEST_RANDOM_SELECTOR, SecretSigner,
};
use serde_json::{Value, json};
use starknet::accounts::{Account, ExecutionEncoding, SingleOwnerAccount};
use starknet::core::types::{BlockId, BlockTag, Call, Felt};
use starknet::providers::jsonrpc::{HttpTransport, JsonRpcClient};
use starknet::signers::{LocalWallet, SigningKey};
use starknet_types_core::felt::secret_felt::SecretFelt;
use tokio::net::TcpListener;

const KEY_0: &str = "0x71d7bb07b9a64f6f78ac4c816aff4da9";
const ACCOUNT_1: &str = "0x078662e7352d062084b0010068b99288486c2d8b914f6e2a55ce945f8792c8b1";
const KEY_1: &str = "0xe1406455b7d66b1690803be066cbe5e";

fn felt(v: &Value) -> Felt {
    Felt::from_hex(v.as_str().unwrap()).unwrap()
}

fn signer0() -> SecretSigner {
    SecretSigner::new(SecretFelt::from_hex_string(&mut KEY_0.to_string()).unwrap())
}

/// What the stand-in paymaster does with a request: checks it and submits the game call.
async fn paymaster(devnet: url::Url, body: Value, captured: Arc<Mutex<Vec<Value>>>) -> Value {
    captured.lock().unwrap().push(body.clone());
    let p = &body["params"];
    let oe = &p["outside_execution"];
    let calls: Vec<Call> = oe["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| Call {
            to: felt(&c["to"]),
            selector: felt(&c["selector"]),
            calldata: c["calldata"].as_array().unwrap().iter().map(felt).collect(),
        })
        .collect();
    let provider = Arc::new(JsonRpcClient::new(HttpTransport::new(devnet)));
    let chain_id = starknet::providers::Provider::chain_id(&*provider)
        .await
        .unwrap();
    let account = felt(&p["address"]);
    let received = OutsideExecution {
        caller: felt(&oe["caller"]),
        nonce: felt(&oe["nonce"]),
        execute_after: oe["execute_after"].as_u64().unwrap(),
        execute_before: oe["execute_before"].as_u64().unwrap(),
        calls: calls.clone(),
    };
    let hash = received.message_hash(chain_id, account);
    let sig = p["signature"].as_array().unwrap();
    let public = starknet_crypto::get_public_key(&Felt::from_hex(KEY_0).unwrap());
    if !starknet_crypto::verify(&public, &hash, &felt(&sig[0]), &felt(&sig[1])).unwrap() {
        return json!({"jsonrpc": "2.0", "id": body["id"], "error": {"code": 10, "message": "invalid signature"}});
    }
    // Devnet has no VRF provider: run the game call alone, signed by the same wallet.
    let game_only = OutsideExecution {
        caller: Felt::from_hex(ACCOUNT_1).unwrap(),
        nonce: received.nonce + Felt::ONE,
        calls: calls[1..].to_vec(),
        ..received
    }
    .sign(&signer0(), account, chain_id)
    .await
    .unwrap();
    let mut relayer = SingleOwnerAccount::new(
        provider,
        LocalWallet::from(SigningKey::from_secret_scalar(
            Felt::from_hex(KEY_1).unwrap(),
        )),
        Felt::from_hex(ACCOUNT_1).unwrap(),
        chain_id,
        ExecutionEncoding::New,
    );
    relayer.set_block_id(BlockId::Tag(BlockTag::PreConfirmed));
    let sent = relayer
        .execute_v3(vec![game_only.execute_call()])
        .send()
        .await
        .unwrap();
    json!({"jsonrpc": "2.0", "id": body["id"],
           "result": {"transaction_hash": format!("{:#x}", sent.transaction_hash)}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vrf_profile_sends_randomness_through_outside_execution() {
    let world = common::world().await;
    let devnet = world.devnet.url.clone();
    let addresses = GameAddresses::from_map(&read_manifest(&world.manifest).unwrap()).unwrap();

    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = url::Url::parse(&format!("http://{}/", listener.local_addr().unwrap())).unwrap();
    let captured: Arc<Mutex<Vec<Value>>> = Arc::default();
    let methods: Arc<Mutex<Vec<String>>> = Arc::default();
    let (cap, seen, up) = (captured.clone(), methods.clone(), devnet.clone());
    let handler: http::Handler = Arc::new(move |req: http::Request| {
        let (cap, seen, up) = (cap.clone(), seen.clone(), up.clone());
        Box::pin(async move {
            let body: Value = serde_json::from_slice(&req.body).unwrap();
            let method = body["method"].as_str().unwrap_or("").to_string();
            seen.lock().unwrap().push(method.clone());
            if method == "cartridge_addExecuteOutsideTransaction" {
                return http::Response::json(200, &paymaster(up, body, cap).await);
            }
            let answer: Value = reqwest::Client::new()
                .post(up)
                .json(&body)
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            http::Response::json(200, &answer)
        })
    });
    tokio::spawn(http::serve(listener, handler));

    let policy = PolicySettings {
        read_only: false,
        max_fee_per_tx: 10 * loot_survivor_mcp::wallet::FRI_PER_STRK,
        session_fee_budget: 100 * loot_survivor_mcp::wallet::FRI_PER_STRK,
        daily_fee_budget: 100 * loot_survivor_mcp::wallet::FRI_PER_STRK,
        max_tx_per_minute: 100,
        allow_vrf: None,
    };
    let client = common::vrf_client(
        &url,
        &addresses,
        Felt::from_hex(common::ACCOUNT).unwrap(),
        AccountSigner::Key(Arc::new(signer0())),
        &policy,
    )
    .await;
    let opts = || WriteOptions {
        confirm: Confirm::Accepted,
        timeout: Duration::from_secs(60),
        hooks: Hooks::default(),
    };

    let (id, _) = client.mint_game(None, opts()).await.unwrap();
    client
        .act(id, &Action::StartGame { weapon: 46 }, None, opts())
        .await
        .unwrap();
    assert!(
        captured.lock().unwrap().is_empty(),
        "mint and start are plain invokes"
    );

    let before = client.game_state(id).await.unwrap().adventurer;
    assert!(before.beast_health > 0, "the starter beast");
    let sent_from = methods.lock().unwrap().len();
    let report = client
        .act(
            id,
            &Action::Attack {
                to_the_death: false,
            },
            Some(&before),
            opts(),
        )
        .await
        .unwrap();
    // Handed the state it needs for the salt, the client reads nothing before sending.
    assert_eq!(
        methods.lock().unwrap()[sent_from],
        "cartridge_addExecuteOutsideTransaction",
        "{:?}",
        &methods.lock().unwrap()[sent_from..]
    );
    assert_eq!(report.status.as_str(), "ACCEPTED_ON_L2");
    assert!(
        !report.events.is_empty(),
        "the attack's game events are reported"
    );
    let after = client.game_state(id).await.unwrap().adventurer;
    assert!(after.xp > before.xp && after.beast_health == 0, "{after:?}");

    let requests = captured.lock().unwrap().clone();
    assert_eq!(requests.len(), 1);
    let oe = &requests[0]["params"]["outside_execution"];
    assert_eq!(
        felt(&requests[0]["params"]["address"]),
        client.account_address()
    );
    assert_eq!(felt(&oe["caller"]), ANY_CALLER);
    let calls = oe["calls"].as_array().unwrap();
    assert_eq!(calls.len(), 2);
    assert_eq!(felt(&calls[0]["to"]), CARTRIDGE_VRF_PROVIDER);
    assert_eq!(felt(&calls[0]["selector"]), REQUEST_RANDOM_SELECTOR);
    let salt = battle_salt(id, before.xp, before.action_count);
    let want: Vec<Felt> = vec![addresses.game_systems, Felt::ONE, salt];
    let got: Vec<Felt> = calls[0]["calldata"]
        .as_array()
        .unwrap()
        .iter()
        .map(felt)
        .collect();
    assert_eq!(got, want);
    assert_eq!(felt(&calls[1]["to"]), addresses.game_systems);
    assert_eq!(
        felt(&calls[1]["selector"]),
        starknet::macros::selector!("attack")
    );
    // The wallet's own nonce was not used by the outside execution.
    let m = methods.lock().unwrap();
    assert_eq!(
        m.iter()
            .filter(|x| *x == "starknet_addInvokeTransaction")
            .count(),
        2
    );
}
