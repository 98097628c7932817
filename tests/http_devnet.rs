//! `serve --http` on a real starknet-devnet: 20 agent sessions (PyPI `mcp` streamable HTTP
//! client, 5 identities) share the server's one account and its nonce queue, each playing a short
//! game (bounded actions); every transaction lands once (the account nonce moves by exactly the
//! number of transactions the sessions sent). A client that hangs up mid-write finds its
//! transaction with `ls_get_tx` from its identity's next session; another identity is refused it.

mod common;
mod http_support;

use std::time::Duration;

use http_support::{Server, Session, assert_no_token, fleet, make_tokens};
use serde_json::json;

fn nonce_of(v: &serde_json::Value) -> u64 {
    u64::from_str_radix(v.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_sessions_share_one_account_on_devnet() {
    let world = common::world().await;
    let home = tempfile::tempdir().unwrap();
    let tokens = make_tokens(home.path(), 5);
    let url = world.devnet.url.to_string();
    let manifest = world.manifest.to_string_lossy().into_owned();
    let server = Server::start(
        home.path(),
        &["--profile", "devnet", "--rpc-url", &url],
        &[("LS_MANIFEST", &manifest)],
    )
    .await;
    let (before, _) = common::nonce_and_balance(&world.devnet.url, common::ACCOUNT).await;
    let summary = fleet(
        &server.url,
        &home.path().join("tokens.json"),
        20,
        &["--cross-check", "--max-actions", "5"],
    )
    .await;
    let (after, _) = common::nonce_and_balance(&world.devnet.url, common::ACCOUNT).await;
    let log = server.stop().await;
    eprintln!("fleet of 20 on devnet: {summary}");
    assert_eq!(summary["games"], 20, "{summary}");
    // A new game (mint and start) is one transaction, like every other action.
    let sent = 20 + summary["actions"].as_u64().unwrap();
    assert_eq!(
        nonce_of(&after) - nonce_of(&before),
        sent,
        "every transaction of every session landed once on the shared account: {summary}"
    );
    assert!(
        summary["cross_identity_refusals"].as_u64().unwrap() > 0,
        "{summary}"
    );
    let toks: Vec<&str> = tokens.iter().map(|t| t.token.as_str()).collect();
    assert_no_token(&log, &toks);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_hangs_up_mid_write_finds_its_transaction_in_the_next_session() {
    let world = common::world().await;
    let home = tempfile::tempdir().unwrap();
    let tokens = make_tokens(home.path(), 2);
    let url = world.devnet.url.to_string();
    let manifest = world.manifest.to_string_lossy().into_owned();
    let server = Server::start(
        home.path(),
        &["--profile", "devnet", "--rpc-url", &url],
        &[("LS_MANIFEST", &manifest)],
    )
    .await;
    let mut first = Session::open(&server.url, Some(&tokens[0].token)).await;
    let id = first.ok("ls_new_game", json!({"weapon": "Wand"})).await["adventurer_id"]
        .as_u64()
        .unwrap();
    let hash = first
        .call_and_hang_up("ls_attack", json!({"adventurer_id": id}))
        .await;
    drop(first);

    let mut next = Session::open(&server.url, Some(&tokens[0].token)).await;
    let mut found = json!(null);
    for _ in 0..60 {
        found = next.ok("ls_get_tx", json!({"tx_hash": hash})).await;
        if found["status"] == "ACCEPTED_ON_L2" || found["status"] == "ACCEPTED_ON_L1" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    assert_eq!(found["sent_by_this_server"], true, "{found}");
    assert_eq!(found["record"]["adventurer_id"], id, "{found}");
    assert_eq!(found["record"]["action"], "attack", "{found}");
    assert_eq!(found["execution"], "SUCCEEDED", "{found}");
    let adv = next
        .ok("ls_get_adventurer", json!({"adventurer_id": id}))
        .await;
    assert!(adv["state"]["action_count"].as_u64().unwrap() >= 2, "{adv}");

    let mut other = Session::open(&server.url, Some(&tokens[1].token)).await;
    let (err, v) = other.call("ls_get_tx", json!({"tx_hash": hash})).await;
    assert!(err && v["error"]["code"] == "POLICY_DENIED", "{v}");
    let log = server.stop().await;
    assert_no_token(&log, &[&tokens[0].token, &tokens[1].token]);
}
