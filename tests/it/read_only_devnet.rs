//! A server started without an account or a key serves read-only: through the real binary on
//! starknet-devnet with the v2 practice world, with the devnet profile's account and development
//! key cleared, it starts (before, it stopped: "no account address"), reads another server's
//! game, and refuses every write before anything is built, the nonce of no account moving.

use crate::common;

use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_a_key_starts_reads_and_refuses_writes() {
    let devnet = common::start_devnet(&[]).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("v2.json");
    common::devnet_deploy(&devnet.url, &["--generation", "v2"], &file).await;
    let player = common::serve_v2(&devnet.url, &file, &[]).await;
    let id = player.ok("ls_new_game", json!({"weapon": "Wand"})).await["adventurer_id"].clone();
    player.shutdown().await;

    let reader = common::serve_v2(
        &devnet.url,
        &file,
        &[
            ("LS_ACCOUNT_ADDRESS", ""),
            ("LS_WALLET__DEV_PRIVATE_KEY", ""),
        ],
    )
    .await;
    let read = reader
        .ok("ls_get_adventurer", json!({"adventurer_id": id.clone()}))
        .await;
    assert_eq!(read["adventurer"]["phase"], "in_battle", "{read}");
    let (nonce, _) = common::nonce_and_balance(&devnet.url, common::ACCOUNT).await;
    for (tool, args) in [
        ("ls_new_game", json!({"weapon": "Wand"})),
        ("ls_attack", json!({"adventurer_id": id.clone()})),
        ("ls_wallet", json!({})),
    ] {
        let e = reader.err(tool, args, "POLICY_DENIED").await;
        assert_eq!(e["details"]["rule"], "no_signer", "{tool}: {e}");
        assert!(
            e["hint"].as_str().unwrap().contains("ls_get_adventurer"),
            "{e}"
        );
    }
    assert_eq!(
        common::nonce_and_balance(&devnet.url, common::ACCOUNT)
            .await
            .0,
        nonce
    );
    let log = reader.shutdown().await;
    assert!(log.contains("serving read-only"), "{log}");
}
