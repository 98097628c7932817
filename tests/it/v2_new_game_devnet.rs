//! A v2 new game is two transactions (the mint, then `start_game`): through the real binary on
//! starknet-devnet with the v2 practice world, room for both is checked before the mint, so a
//! rate limit with room for one refuses the new game with nothing signed (before, the mint landed,
//! the start was refused, and the error named neither the adventurer nor the mint's hash).

use crate::common;

use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_v2_new_game_is_planned_and_policed_as_its_two_transactions() {
    let devnet = common::start_devnet(&[]).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("v2.json");
    common::devnet_deploy(&devnet.url, &["--generation", "v2"], &file).await;
    let server =
        common::serve_v2(&devnet.url, &file, &[("LS_POLICY__MAX_TX_PER_MINUTE", "3")]).await;
    let first = server.ok("ls_new_game", json!({"weapon": "Wand"})).await;
    let (mint, start) = (first["mint_tx_hash"].clone(), first["tx_hash"].clone());
    assert!(
        mint.is_string() && start.is_string() && mint != start,
        "{first}"
    );

    // One transaction of the minute is left: the second new game needs two.
    let (nonce, _) = common::nonce_and_balance(&devnet.url, common::ACCOUNT).await;
    let refused = server
        .err("ls_new_game", json!({"weapon": "Wand"}), "POLICY_DENIED")
        .await;
    assert_eq!(refused["details"]["rule"], "max_tx_per_minute", "{refused}");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("(2 are needed)"),
        "{refused}"
    );
    assert_eq!(
        common::nonce_and_balance(&devnet.url, common::ACCOUNT)
            .await
            .0,
        nonce,
        "nothing was minted"
    );
    server.shutdown().await;
}
