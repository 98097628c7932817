//! Writes an agent can trust, on a real devnet: confirmation modes, timeouts that keep the hash,
//! progress and cancellation seen by a real MCP client, parallel writes, no double sends,
//! STALE_STATE, and a whole game in which the wallet's key never shows up anywhere.

use crate::common;

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, ClientRequest, ProgressNotificationParam, Request};
use rmcp::service::{NotificationContext, PeerRequestOptions};
use rmcp::{ClientHandler, RoleClient};
use serde_json::{Value, json};

/// Records every progress notification the server sends.
#[derive(Clone, Default)]
struct ProgressLog(Arc<Mutex<Vec<ProgressNotificationParam>>>);

impl ClientHandler for ProgressLog {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.0.lock().unwrap().push(params);
    }
}

impl ProgressLog {
    fn messages(&self) -> Vec<String> {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter_map(|p| p.message.clone())
            .collect()
    }
}

async fn new_game<H: ClientHandler>(client: &common::Client<H>) -> u64 {
    let r = client.ok("ls_new_game", json!({"weapon": "Wand"})).await;
    r["adventurer_id"].as_u64().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn confirmation_modes_timeouts_and_tx_lookup() {
    // Blocks every 2 s: a transaction stays PRE_CONFIRMED for a while.
    let world = common::world_with(&["--block-generation-on", "2"]).await;
    let client = world.client(&[]).await;
    let id = new_game(&client).await;

    let pre = client
        .ok(
            "ls_attack",
            json!({"adventurer_id": id, "confirm": "pre_confirmed"}),
        )
        .await;
    assert_eq!(pre["status"], "PRE_CONFIRMED");
    assert_eq!(
        pre["adventurer"]["phase"], "stat_upgrade",
        "pre-confirmed state is read back"
    );

    let accepted = client
        .ok(
            "ls_upgrade",
            json!({"adventurer_id": id, "strength": 1, "confirm": "accepted"}),
        )
        .await;
    assert_eq!(accepted["status"], "ACCEPTED_ON_L2");

    let timed_out = client
        .call(
            "ls_explore",
            json!({"adventurer_id": id, "confirm": "accepted", "timeout_ms": 300}),
        )
        .await;
    assert!(timed_out.is_error, "{}", timed_out.text);
    assert_eq!(timed_out.json["error"]["code"], "TX_TIMEOUT");
    let hash = timed_out.json["error"]["details"]["tx_hash"]
        .as_str()
        .expect("the hash is reported")
        .to_string();

    let mut found = Value::Null;
    for _ in 0..50 {
        found = client.ok("ls_get_tx", json!({"tx_hash": hash})).await;
        if found["status"] == "ACCEPTED_ON_L2" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(found["status"], "ACCEPTED_ON_L2", "{found}");
    assert_eq!(found["execution"], "SUCCEEDED");
    assert_eq!(found["sent_by_this_server"], true);
    assert_eq!(found["record"]["action"], "explore");
    assert_eq!(
        found["record"]["last_status"], "ACCEPTED_ON_L2",
        "the record follows the status: {found}"
    );
    assert!(!found["events"].as_array().unwrap().is_empty());

    // The pre-confirmed attack's record follows it to ACCEPTED_ON_L2 too.
    let attack = client
        .ok("ls_get_tx", json!({"tx_hash": pre["tx_hash"]}))
        .await;
    assert_eq!(attack["status"], "ACCEPTED_ON_L2", "{attack}");
    assert_eq!(
        attack["record"]["last_status"], "ACCEPTED_ON_L2",
        "{attack}"
    );

    let unknown = client.call("ls_get_tx", json!({"tx_hash": "0x1234"})).await;
    assert_eq!(unknown.json["error"]["code"], "NOT_FOUND");
    client.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finalized_waits_for_l1_acceptance() {
    let world = common::world().await;
    let client = world.client(&[]).await;
    let id = new_game(&client).await;
    let url = world.devnet.url.clone();
    // Accepts the latest block on L1 every 250 ms; "already accepted" (no new block yet) is
    // expected until the attack's block exists.
    let accepter = tokio::spawn(async move {
        let http = reqwest::Client::new();
        for _ in 0..160 {
            tokio::time::sleep(Duration::from_millis(250)).await;
            let _ = http
                .post(url.clone())
                .json(
                    &json!({"jsonrpc": "2.0", "id": 1, "method": "devnet_acceptOnL1",
                    "params": {"starting_block_id": "latest"}}),
                )
                .send()
                .await;
        }
    });
    let r = client
        .ok(
            "ls_attack",
            json!({"adventurer_id": id, "confirm": "finalized"}),
        )
        .await;
    accepter.abort();
    assert_eq!(r["status"], "ACCEPTED_ON_L1");
    client.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_notifications_and_cancellation() {
    let world = common::world_with(&["--block-generation-on", "2"]).await;
    let log = ProgressLog::default();
    let client = world.client_with(log.clone(), &[]).await;
    let id = new_game(&client).await;

    let args = json!({"adventurer_id": id}).as_object().unwrap().clone();
    let handle = client
        .service
        .send_cancellable_request(
            ClientRequest::CallToolRequest(Request::new(
                CallToolRequestParams::new("ls_attack").with_arguments(args),
            )),
            PeerRequestOptions::no_options(),
        )
        .await
        .expect("request sent");
    let response = handle.await_response().await.expect("response");
    let rmcp::model::ServerResult::CallToolResult(result) = response else {
        panic!("unexpected response {response:?}")
    };
    let out = common::mcp::parse_result("ls_attack", result);
    assert!(!out.is_error, "{}", out.text);
    let hash = out.json["tx"].as_str().unwrap().to_string();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let messages = log.messages();
    let position = |needle: &str| {
        messages
            .iter()
            .position(|m| m.contains(needle))
            .unwrap_or_else(|| panic!("no '{needle}' in {messages:?}"))
    };
    let (simulated, submitted, accepted) = (
        position("simulated"),
        position(&format!("submitted {hash}")),
        position(&format!("ACCEPTED_ON_L2 {hash}")),
    );
    assert!(
        simulated < submitted && submitted < accepted,
        "{messages:?}"
    );

    // Cancel a write while it waits for its block: the hash stays reachable.
    let before = log.messages().len();
    let args = json!({"adventurer_id": id, "strength": 1})
        .as_object()
        .unwrap()
        .clone();
    let handle = client
        .service
        .send_cancellable_request(
            ClientRequest::CallToolRequest(Request::new(
                CallToolRequestParams::new("ls_upgrade").with_arguments(args),
            )),
            PeerRequestOptions::no_options(),
        )
        .await
        .expect("request sent");
    let mut sent_hash = None;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(20)).await;
        sent_hash = log.messages()[before..]
            .iter()
            .find_map(|m| m.strip_prefix("submitted ").map(str::to_string));
        if sent_hash.is_some() {
            break;
        }
    }
    let sent_hash = sent_hash.expect("the write was submitted");
    handle
        .cancel(Some("agent changed its mind".into()))
        .await
        .expect("cancel");
    let mut status = Value::Null;
    for _ in 0..50 {
        let r = client.ok("ls_get_tx", json!({"tx_hash": sent_hash})).await;
        assert_eq!(r["sent_by_this_server"], true);
        status = r["status"].clone();
        if status == "ACCEPTED_ON_L2" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(
        status, "ACCEPTED_ON_L2",
        "the cancelled write still landed and is tracked"
    );
    client.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parallel_writes_get_distinct_nonces() {
    let world = common::world().await;
    let client = Arc::new(world.client(&[]).await);
    let (nonce_before, _) = common::nonce_and_balance(&world.devnet.url, common::ACCOUNT).await;
    let mut tasks = Vec::new();
    for _ in 0..10 {
        let c = client.clone();
        tasks.push(tokio::spawn(async move {
            c.ok("ls_new_game", json!({"weapon": "Club"})).await
        }));
    }
    let mut hashes = Vec::new();
    let mut ids = BTreeSet::new();
    for t in tasks {
        let r = t.await.expect("task");
        assert_eq!(r["status"], "ACCEPTED_ON_L2");
        ids.insert(r["adventurer_id"].as_u64().unwrap());
        // Mint and start are one transaction on devnet.
        assert_eq!(r["mint_tx_hash"], r["tx_hash"]);
        hashes.push(r["tx_hash"].as_str().unwrap().to_string());
    }
    assert_eq!(ids.len(), 10, "ten distinct adventurers");
    let mut nonces = BTreeSet::new();
    for h in &hashes {
        let r = client.ok("ls_get_tx", json!({"tx_hash": h})).await;
        assert_eq!(r["execution"], "SUCCEEDED");
        nonces.insert(r["record"]["nonce"].as_str().unwrap().to_string());
    }
    assert_eq!(nonces.len(), 10, "ten transactions, ten distinct nonces");
    let (nonce_after, _) = common::nonce_and_balance(&world.devnet.url, common::ACCOUNT).await;
    let n =
        |v: &Value| u64::from_str_radix(v.as_str().unwrap().trim_start_matches("0x"), 16).unwrap();
    assert_eq!(n(&nonce_after) - n(&nonce_before), 10);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retries_do_not_send_twice_and_stale_calls_are_refused() {
    let world = common::world().await;
    let client = world.client(&[]).await;
    let id = new_game(&client).await;
    let state = client
        .ok("ls_get_adventurer", json!({"adventurer_id": id}))
        .await;
    let count = state["adventurer"]["action_count"].as_u64().unwrap();

    let args = json!({"adventurer_id": id, "expected_action_count": count});
    let first = client.ok("ls_attack", args.clone()).await;
    assert_eq!(first["replayed"], false);
    let nonce = common::nonce_and_balance(&world.devnet.url, common::ACCOUNT).await;
    let retry = client.ok("ls_attack", args).await;
    assert_eq!(retry["replayed"], true);
    assert_eq!(retry["tx_hash"], first["tx_hash"]);
    assert_eq!(retry["adventurer"], first["adventurer"]);
    assert_eq!(
        common::nonce_and_balance(&world.devnet.url, common::ACCOUNT).await,
        nonce,
        "the retry sent nothing"
    );

    let stale = client
        .call(
            "ls_upgrade",
            json!({"adventurer_id": id, "strength": 1, "expected_action_count": count}),
        )
        .await;
    assert!(stale.is_error);
    assert_eq!(stale.json["error"]["code"], "STALE_STATE", "{}", stale.text);
    assert_eq!(stale.json["error"]["details"]["action_count"], count + 1);
    assert_eq!(
        common::nonce_and_balance(&world.devnet.url, common::ACCOUNT).await,
        nonce,
        "a stale call signs nothing"
    );
    client.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wallet_reports_spending_and_policy_refuses_before_signing() {
    let world = common::world().await;
    let url = &world.devnet.url;
    let client = world.client(&[]).await;
    let before = client.ok("ls_wallet", json!({})).await;
    let w = &before["wallet"];
    let addr = |s: &Value| starknet::core::types::Felt::from_hex(s.as_str().unwrap()).unwrap();
    assert_eq!(addr(&w["account_address"]), addr(&json!(common::ACCOUNT)));
    assert_eq!(w["chain_id"], "SN_SEPOLIA");
    assert_eq!(w["policy"]["tx_count"], 0);
    let strk = |w: &Value| -> u128 {
        w["balances"][0]["amount"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap()
    };
    assert_eq!(w["balances"][0]["token"], "STRK");
    assert!(strk(w) > 0);
    new_game(&client).await;
    let after = client.ok("ls_wallet", json!({})).await;
    let a = &after["wallet"];
    // Mint and start are one transaction.
    assert_eq!(a["policy"]["tx_count"], 1);
    assert_eq!(a["transactions_signed"], 1);
    let spent: u128 = a["policy"]["spent"]["fri"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(spent > 0);
    assert_eq!(
        strk(w) - strk(a),
        spent,
        "spending matches the balance change"
    );
    client.shutdown().await;

    for (env, rule) in [
        (("LS_POLICY__READ_ONLY", "true"), "read_only"),
        (("LS_POLICY__MAX_FEE_PER_TX", "1"), "max_fee_per_tx"),
    ] {
        let c = world.client(&[env]).await;
        let nonce = common::nonce_and_balance(url, common::ACCOUNT).await;
        let r = c.call("ls_new_game", json!({"weapon": "Wand"})).await;
        assert!(r.is_error);
        assert_eq!(r.json["error"]["code"], "POLICY_DENIED", "{}", r.text);
        assert_eq!(r.json["error"]["details"]["rule"], rule);
        assert!(
            r.json["error"]["details"]["setting"]
                .as_str()
                .unwrap()
                .starts_with("policy.")
        );
        assert_eq!(
            common::nonce_and_balance(url, common::ACCOUNT).await,
            nonce,
            "nothing signed"
        );
        c.shutdown().await;
    }

    // A new game is one transaction: a budget smaller than its fee refuses it whole (nothing
    // minted), and a rate of one a minute lets it through and refuses the next write.
    for env in [
        ("LS_POLICY__SESSION_FEE_BUDGET", "1"),
        ("LS_POLICY__DAILY_FEE_BUDGET", "1"),
    ] {
        let c = world.client(&[env]).await;
        let nonce = common::nonce_and_balance(url, common::ACCOUNT).await;
        let r = c.call("ls_new_game", json!({"weapon": "Wand"})).await;
        assert_eq!(r.json["error"]["code"], "POLICY_DENIED", "{}", r.text);
        assert_eq!(
            common::nonce_and_balance(url, common::ACCOUNT).await,
            nonce,
            "no mint was signed"
        );
        c.shutdown().await;
    }
    let c = world.client(&[("LS_POLICY__MAX_TX_PER_MINUTE", "1")]).await;
    let started = c.ok("ls_new_game", json!({"weapon": "Wand"})).await;
    let id = started["adventurer_id"].as_u64().unwrap();
    let nonce = common::nonce_and_balance(url, common::ACCOUNT).await;
    let r = c.call("ls_attack", json!({"adventurer_id": id})).await;
    assert_eq!(r.json["error"]["code"], "POLICY_DENIED", "{}", r.text);
    assert_eq!(r.json["error"]["details"]["rule"], "max_tx_per_minute");
    assert_eq!(
        common::nonce_and_balance(url, common::ACCOUNT).await,
        nonce,
        "nothing signed"
    );
    c.shutdown().await;
}
