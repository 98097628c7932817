//! `serve --http` on a real starknet-devnet: 20 agent sessions (PyPI `mcp` streamable HTTP
//! client, 5 identities) share the server's one account and its nonce queue, each playing a short
//! game (bounded actions); every transaction lands once (the account nonce moves by exactly the
//! number of transactions the sessions sent). A client that hangs up mid-write finds its
//! transaction with `ls_get_tx` from its identity's next session; another identity is refused it.
//! An identity with a daily fee budget of one transaction's worst case is refused after its first
//! (fee-paying) write while another identity still plays, and the counters survive a restart.

use crate::common;
use crate::http_support;

use std::time::Duration;

use http_support::{Server, Session, assert_no_token, fleet, make_tokens};
use serde_json::json;

fn nonce_of(v: &serde_json::Value) -> u64 {
    u64::from_str_radix(v.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

/// The HTTP server on `world`'s devnet, its data directory (with the token file) in `home`.
async fn serve_devnet(world: &common::World, home: &std::path::Path) -> Server {
    let url = world.devnet.url.to_string();
    let manifest = world.manifest.to_string_lossy().into_owned();
    Server::start(
        home,
        &["--profile", "devnet", "--rpc-url", &url],
        &[("LS_MANIFEST", &manifest)],
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_sessions_share_one_account_on_devnet() {
    let world = common::world().await;
    let home = tempfile::tempdir().unwrap();
    let tokens = make_tokens(home.path(), 5);
    let server = serve_devnet(&world, home.path()).await;
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
    // Blocks every 2 s: the attack waits for its block, so progress is sent (a write that lands
    // at once sends none) and the client hangs up while the write is still waiting.
    let world = common::world_with(&["--block-generation-on", "2"]).await;
    let home = tempfile::tempdir().unwrap();
    let tokens = make_tokens(home.path(), 2);
    let server = serve_devnet(&world, home.path()).await;
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
    other
        .err("ls_get_tx", json!({"tx_hash": hash}), "POLICY_DENIED")
        .await;
    let log = server.stop().await;
    assert_no_token(&log, &[&tokens[0].token, &tokens[1].token]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_identity_over_its_fee_budget_is_refused_while_another_plays() {
    let world = common::world().await;
    let home = tempfile::tempdir().unwrap();
    let tokens = make_tokens(home.path(), 2);
    // agent-0 has a budget far above what it spends: its fees are counted, never refused.
    let path = home.path().join("tokens.toml");
    let file = std::fs::read_to_string(&path).unwrap();
    let second = file.match_indices("[[token]]").nth(1).unwrap().0;
    let (a, b) = file.split_at(second);
    std::fs::write(
        &path,
        format!("{a}max_fee_per_day = \"1000000000000000000000\"\n{b}"),
    )
    .unwrap();
    let server = serve_devnet(&world, home.path()).await;
    let mut first = Session::open(&server.url, Some(&tokens[0].token)).await;
    let game = first.ok("ls_new_game", json!({"weapon": "Wand"})).await;
    let id = game["adventurer_id"].as_u64().unwrap();
    let fee_of =
        |v: serde_json::Value| -> u128 { v["fee_paid"].as_str().unwrap().parse().unwrap() };
    let mut spent = fee_of(first.ok("ls_get_tx", json!({"tx_hash": game["tx"]})).await);
    drop(first);
    let log = server.stop().await;

    // agent-1 (the last entry of the token file) is granted that adventurer with a budget of
    // exactly one transaction's worst case: the devnet policy's max_fee_per_tx, 1 STRK in FRI.
    let mut file = std::fs::read_to_string(home.path().join("tokens.toml")).unwrap();
    file.push_str(&format!(
        "adventurers = [{id}]\nmax_fee_per_day = \"1000000000000000000\"\n"
    ));
    std::fs::write(home.path().join("tokens.toml"), file).unwrap();
    let server = serve_devnet(&world, home.path()).await;
    let mut tight = Session::open(&server.url, Some(&tokens[1].token)).await;
    let hash = tight.ok("ls_attack", json!({"adventurer_id": id})).await["tx"]
        .as_str()
        .unwrap()
        .to_string();
    let fee: u128 = tight.ok("ls_get_tx", json!({"tx_hash": hash})).await["fee_paid"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(fee > 0, "devnet charges a fee");
    let e = tight
        .err("ls_attack", json!({"adventurer_id": id}), "POLICY_DENIED")
        .await;
    let message = e["message"].as_str().unwrap();
    assert!(message.contains("max_fee_per_day"), "{e}");
    assert!(message.contains(&tokens[1].identity), "{e}");

    let mut other = Session::open(&server.url, Some(&tokens[0].token)).await;
    let again = other.ok("ls_new_game", json!({"weapon": "Wand"})).await;
    assert!(again["adventurer_id"].as_u64().unwrap() > id, "{again}");
    spent += fee_of(other.ok("ls_get_tx", json!({"tx_hash": again["tx"]})).await);
    let log2 = server.stop().await;

    // The day's counters are on disk, carried over the restart, with the fee the chain charged.
    let counters: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(home.path().join("devnet/http-limits.json")).unwrap(),
    )
    .unwrap();
    // Two new games, each one transaction (mint and start in one multicall).
    assert_eq!(counters[&tokens[0].identity]["tx"], 2, "{counters}");
    assert_eq!(
        counters[&tokens[0].identity]["fee"],
        spent.to_string(),
        "a new game's fee is counted once: {counters}"
    );
    assert_eq!(counters[&tokens[1].identity]["tx"], 1, "{counters}");
    assert_eq!(
        counters[&tokens[1].identity]["fee"],
        fee.to_string(),
        "{counters}"
    );
    assert!(log2.contains("refused: identity write limit"), "{log2}");
    let toks = [tokens[0].token.as_str(), tokens[1].token.as_str()];
    assert_no_token(&log, &toks);
    assert_no_token(&log2, &toks);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_direct_new_game_counts_as_one_transaction_against_an_identity_limit() {
    let world = common::world().await;
    let home = tempfile::tempdir().unwrap();
    let tokens = make_tokens(home.path(), 1);
    let path = home.path().join("tokens.toml");
    let mut file = std::fs::read_to_string(&path).unwrap();
    file.push_str("max_tx_per_minute = 2\n");
    std::fs::write(&path, file).unwrap();
    let server = serve_devnet(&world, home.path()).await;
    let mut session = Session::open(&server.url, Some(&tokens[0].token)).await;
    // Mint and start are one multicall on a chain: one of the two transactions a minute.
    let game = session.ok("ls_new_game", json!({"weapon": "Wand"})).await;
    let id = game["adventurer_id"].as_u64().unwrap();
    session.ok("ls_attack", json!({"adventurer_id": id})).await;
    let e = session
        .err("ls_attack", json!({"adventurer_id": id}), "POLICY_DENIED")
        .await;
    assert!(
        e["message"].as_str().unwrap().contains("max_tx_per_minute"),
        "{e}"
    );
    drop(session);
    let log = server.stop().await;
    assert_no_token(&log, &[&tokens[0].token]);
}
