//! The durable journal across a crash: the server is killed with SIGKILL between sending a write
//! and its receipt (a fault proxy holds the receipt), restarted on the same data directory, and
//! finds the transaction, answers the retry with the earlier result, keeps its counters, and
//! sends nothing twice. A second server on the same account refuses to start. A devnet restarted
//! from scratch gets no replay of the old chain's writes.

use crate::common;

use std::time::{Duration, Instant};

use common::mcp::try_call;
use common::proxy::{self, Fault};
use serde_json::{Value, json};

fn nonce(v: &(Value, Value)) -> u64 {
    u64::from_str_radix(v.0.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

fn fri(v: &Value) -> u128 {
    v.as_str().unwrap().parse().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_killed_before_its_receipt_is_followed_and_replayed_after_restart() {
    let world = common::world().await;
    let devnet = world.devnet.url.clone();
    let home = tempfile::tempdir().unwrap();
    let home_env = home.path().to_str().unwrap().to_string();
    let env = [("LS_HOME", home_env.as_str())];
    let (proxy_url, faults) = proxy::start(devnet.clone()).await;
    let (_, balance_start) = common::nonce_and_balance(&devnet, common::ACCOUNT).await;

    let first = world.client_at(&proxy_url, (), &env).await;
    let started = first.ok("ls_new_game", json!({"weapon": "Club"})).await;
    let first_send = Instant::now();
    let id = started["adventurer_id"].as_u64().unwrap();
    let count = started["adventurer"]["action_count"].as_u64().unwrap();

    // One server per account: a second one on the same data directory refuses to start.
    let second = tokio::process::Command::new(common::BIN)
        .args(["serve", "--profile", "devnet", "--rpc-url", devnet.as_str()])
        .env("LS_MANIFEST", &world.manifest)
        .env("LS_HOME", home.path())
        .stdin(std::process::Stdio::null())
        .output()
        .await
        .unwrap();
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success(), "{err}");
    assert!(err.contains("already running for this account"), "{err}");

    // Hold every status and receipt answer, send the attack, and kill the server once the node
    // has the transaction.
    let hold = vec![Fault::Delay(Duration::from_secs(120)); 50];
    faults.inject("starknet_getTransactionStatus", &hold);
    faults.inject("starknet_getTransactionReceipt", &hold);
    let before = common::nonce_and_balance(&devnet, common::ACCOUNT).await;
    let args = json!({"adventurer_id": id, "expected_action_count": count});
    let peer = first.service.peer().clone();
    let call_args = args.clone();
    let in_flight = tokio::spawn(async move { try_call(&peer, "ls_attack", call_args).await });
    let deadline = Instant::now() + Duration::from_secs(60);
    while nonce(&common::nonce_and_balance(&devnet, common::ACCOUNT).await) == nonce(&before) {
        assert!(
            Instant::now() < deadline,
            "the attack never reached the node"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let killed_log = first.kill().await;
    assert!(
        in_flight.await.unwrap().is_err(),
        "the call got no answer before the kill"
    );
    assert!(!killed_log.contains("following"), "{killed_log}");
    let block = common::rpc(
        &devnet,
        "starknet_getBlockWithTxHashes",
        json!({"block_id": "latest"}),
    )
    .await;
    let hash = block["transactions"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();

    // Restart on the same data directory, straight to devnet.
    let again = world.client(&env).await;
    let tx = again.ok("ls_get_tx", json!({"tx_hash": hash})).await;
    assert_eq!(tx["sent_by_this_server"], true, "{tx}");
    assert_eq!(tx["record"]["action"], "attack");
    assert_eq!(tx["record"]["adventurer_id"], id);
    assert_eq!(tx["record"]["last_status"], "ACCEPTED_ON_L2", "{tx}");
    assert_eq!(tx["execution"], "SUCCEEDED");

    let retry = again.ok("ls_attack", args).await;
    assert_eq!(retry["replayed"], true, "{retry}");
    assert_eq!(retry["tx_hash"], hash);
    assert_eq!(retry["adventurer"]["action_count"], count + 1);
    let after = common::nonce_and_balance(&devnet, common::ACCOUNT).await;
    assert_eq!(nonce(&after), nonce(&before) + 1, "no second transaction");
    let again_retry = again
        .ok(
            "ls_attack",
            json!({"adventurer_id": id, "expected_action_count": count}),
        )
        .await;
    assert_eq!(again_retry["replayed"], true);
    assert_eq!(again_retry["adventurer"], retry["adventurer"]);

    // The counters went on: today's spending is the two transactions' fees (the new game, mint
    // and start in one, and the attack), this run has spent nothing, and the rate window still
    // holds them.
    let wallet = again.ok("ls_wallet", json!({})).await;
    let p = &wallet["wallet"]["policy"];
    assert_eq!(p["tx_count_today"], 2, "{p}");
    assert_eq!(
        fri(&p["spent_today"]["fri"]),
        fri(&balance_start) - fri(&after.1),
        "today's spending is what the balance lost"
    );
    assert_eq!(
        (p["tx_count"].as_u64(), fri(&p["spent"]["fri"])),
        (Some(0), 0)
    );
    assert_eq!(wallet["wallet"]["transactions_signed"], 2);
    if first_send.elapsed() < Duration::from_secs(55) {
        assert_eq!(p["tx_last_minute"], 2, "{p}");
    }
    let log = again.shutdown().await;
    assert!(
        log.contains("following a transaction left pending by an earlier run"),
        "{log}"
    );
}

/// A devnet restarted from scratch keeps its chain id, account, contract addresses and even block
/// 0's hash, so the same adventurer id and action count come back: the journal's result of the
/// old chain's attack must not answer for the new chain's, and the old record is still shown,
/// marked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_devnet_gets_no_replay_from_the_old_chain() {
    let home = tempfile::tempdir().unwrap();
    let home_env = home.path().to_str().unwrap().to_string();
    let env = [("LS_HOME", home_env.as_str())];

    let (old_id, old_count, old_hash) = {
        let world = common::world().await;
        let client = world.client(&env).await;
        let started = client.ok("ls_new_game", json!({"weapon": "Club"})).await;
        let id = started["adventurer_id"].as_u64().unwrap();
        let count = started["adventurer"]["action_count"].as_u64().unwrap();
        // A second game first, so the old attack's nonce (and hash) differs from the new chain's
        // (the same transaction on both chains would have the same hash and one record).
        client.ok("ls_new_game", json!({"weapon": "Wand"})).await;
        let attacked = client
            .ok(
                "ls_attack",
                json!({"adventurer_id": id, "expected_action_count": count, "detail": "full"}),
            )
            .await;
        client.shutdown().await;
        (id, count, attacked["tx_hash"].clone())
    };

    let world = common::world().await;
    let devnet = world.devnet.url.clone();
    let client = world.client(&env).await;
    let started = client.ok("ls_new_game", json!({"weapon": "Club"})).await;
    let id = started["adventurer_id"].as_u64().unwrap();
    let count = started["adventurer"]["action_count"].as_u64().unwrap();
    assert_eq!(
        (id, count),
        (old_id, old_count),
        "the fresh chain repeats the old ids, so an unguarded journal would replay"
    );
    let before = common::nonce_and_balance(&devnet, common::ACCOUNT).await;
    let attacked = client
        .ok(
            "ls_attack",
            json!({"adventurer_id": id, "expected_action_count": count, "detail": "full"}),
        )
        .await;
    assert_eq!(attacked["replayed"], false, "{attacked}");
    assert_ne!(attacked["tx_hash"], old_hash);
    let after = common::nonce_and_balance(&devnet, common::ACCOUNT).await;
    assert_eq!(nonce(&after), nonce(&before) + 1, "the attack was sent");
    let landed = client
        .ok("ls_get_tx", json!({"tx_hash": attacked["tx_hash"]}))
        .await;
    assert_eq!(landed["execution"], "SUCCEEDED", "{landed}");
    assert!(
        landed["record"].get("from_another_chain").is_none(),
        "{landed}"
    );

    let old = client.ok("ls_get_tx", json!({"tx_hash": old_hash})).await;
    assert_eq!(old["status"], "NOT_RECEIVED", "{old}");
    assert_eq!(old["record"]["action"], "attack", "{old}");
    assert_eq!(old["record"]["from_another_chain"], true, "{old}");
    client.shutdown().await;
}
