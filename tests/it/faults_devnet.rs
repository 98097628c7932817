//! Transport faults between the server and the node, injected by a proxy: reads survive 429,
//! 503, dropped connections and slow answers; a write is never lost and never sent twice, and
//! every failure maps to the right error code.

use crate::common;

use std::time::Duration;

use common::proxy::{self, Fault};
use serde_json::{Value, json};

const INVOKE: &str = "starknet_addInvokeTransaction";

fn nonce(v: &(Value, Value)) -> u64 {
    u64::from_str_radix(v.0.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn faults_lose_nothing_and_send_nothing_twice() {
    let world = common::world().await;
    let (proxy_url, faults) = proxy::start(world.devnet.url.clone()).await;
    let client = world
        .client_at(&proxy_url, (), &[("LS_CHAIN__REQUEST_TIMEOUT_MS", "1500")])
        .await;
    let devnet = &world.devnet.url;
    let started = client.ok("ls_new_game", json!({"weapon": "Club"})).await;
    let id = started["adventurer_id"].as_u64().unwrap();

    // Reads: 503, 429, a dropped connection and an answer slower than the request timeout.
    let calls_before = faults.count("starknet_call");
    faults.inject(
        "starknet_call",
        &[
            Fault::Unavailable,
            Fault::TooManyRequests,
            Fault::Drop,
            Fault::Delay(Duration::from_secs(3)),
        ],
    );
    let read = client
        .ok("ls_get_adventurer", json!({"adventurer_id": id}))
        .await;
    assert_eq!(read["adventurer"]["phase"], "in_battle");
    assert!(
        faults.count("starknet_call") >= calls_before + 5,
        "the faults were hit"
    );

    // A write whose answer is lost after the node got it: looked up, not resent.
    let before = common::nonce_and_balance(devnet, common::ACCOUNT).await;
    let sent_before = faults.forwarded(INVOKE);
    faults.inject(INVOKE, &[Fault::CutAfterForward]);
    let attacked = client.ok("ls_attack", json!({"adventurer_id": id})).await;
    assert_eq!(attacked["status"], "ACCEPTED_ON_L2");
    assert_eq!(
        faults.forwarded(INVOKE),
        sent_before + 1,
        "sent exactly once"
    );
    let after = common::nonce_and_balance(devnet, common::ACCOUNT).await;
    assert_eq!(nonce(&after), nonce(&before) + 1);
    let tx = client
        .ok("ls_get_tx", json!({"tx_hash": attacked["tx_hash"]}))
        .await;
    assert_eq!(tx["execution"], "SUCCEEDED");

    // A write the node never received: an RPC error naming the hash, nothing sent, and the
    // next write goes through with the right nonce.
    for fault in [Fault::Drop, Fault::Unavailable, Fault::TooManyRequests] {
        let before = common::nonce_and_balance(devnet, common::ACCOUNT).await;
        faults.inject(INVOKE, &[fault]);
        let r = client
            .call("ls_upgrade", json!({"adventurer_id": id, "strength": 1}))
            .await;
        assert!(r.is_error, "{fault:?}: {}", r.text);
        assert_eq!(
            r.json["error"]["code"], "RPC_ERROR",
            "{fault:?}: {}",
            r.text
        );
        assert_eq!(r.json["error"]["retryable"], true);
        assert_eq!(
            common::nonce_and_balance(devnet, common::ACCOUNT).await,
            before,
            "{fault:?}: nothing landed"
        );
    }

    // The simulation failing on a 503 is an RPC error too, before anything is signed.
    faults.inject("starknet_estimateFee", &[Fault::Unavailable]);
    let r = client
        .call("ls_upgrade", json!({"adventurer_id": id, "strength": 1}))
        .await;
    assert_eq!(r.json["error"]["code"], "RPC_ERROR", "{}", r.text);

    // Status polling through faults still confirms the write.
    faults.inject(
        "starknet_getTransactionStatus",
        &[Fault::Unavailable, Fault::Drop, Fault::TooManyRequests],
    );
    let up = client
        .ok("ls_upgrade", json!({"adventurer_id": id, "strength": 1}))
        .await;
    assert_eq!(up["status"], "ACCEPTED_ON_L2");
    let end = common::nonce_and_balance(devnet, common::ACCOUNT).await;
    assert_eq!(nonce(&end), nonce(&after) + 1, "one upgrade landed, once");

    // A lagging replica: a server that does not know the state before a write (here a new
    // process) reads the state after it; the first reads return the old state, and the write
    // still returns the state that includes it.
    let fresh_before = client
        .ok("ls_get_adventurer", json!({"adventurer_id": id}))
        .await;
    let count = fresh_before["adventurer"]["action_count"].as_u64().unwrap();
    client.shutdown().await;
    let client = world
        .client_at(&proxy_url, (), &[("LS_CHAIN__REQUEST_TIMEOUT_MS", "1500")])
        .await;
    let calls_before = faults.count("starknet_call");
    faults.inject("starknet_call", &[Fault::Stale, Fault::Stale, Fault::Stale]);
    let explored = client.ok("ls_explore", json!({"adventurer_id": id})).await;
    assert!(
        faults.count("starknet_call") >= calls_before + 4,
        "the write read the state back through the lagging answers"
    );
    assert_eq!(
        explored["adventurer"]["action_count"],
        count + 1,
        "read-after-write waited for the node"
    );
    let fresh = client
        .ok("ls_get_adventurer", json!({"adventurer_id": id}))
        .await;
    assert_eq!(explored["adventurer"], fresh["adventurer"]);

    // The node is gone: reads fail as RPC_ERROR, not a crash.
    for _ in 0..6 {
        faults.inject("starknet_call", &[Fault::Unavailable]);
    }
    let r = client
        .call("ls_get_adventurer", json!({"adventurer_id": id}))
        .await;
    assert_eq!(r.json["error"]["code"], "RPC_ERROR", "{}", r.text);
    client.shutdown().await;
}
