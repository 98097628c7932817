//! The wallet from an encrypted keystore (the format starkli and starknet-rs write), with the
//! password from the environment, signing real transactions on devnet; a wrong password stops
//! the server at start with a clear message that contains neither the password nor the key.

use crate::common;

use serde_json::json;
use starknet::core::types::Felt;
use starknet::signers::SigningKey;

/// Devnet (seed 0) predeployed account #2 and its public development key.
const ACCOUNT_2: &str = "0x049dfb8ce986e21d354ac93ea65e6a11f639c1934ea253e5ff14ca62eca0f38e";
const KEY_2: &str = "0xa20a02f0ac53692d144b20cb371a60d7";
const PASSWORD: &str = "correct horse battery staple";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keystore_wallet_signs_and_wrong_password_fails_at_start() {
    let world = common::world().await;
    let dir = tempfile::tempdir().unwrap();
    let keystore = dir.path().join("account2.json");
    SigningKey::from_secret_scalar(Felt::from_hex(KEY_2).unwrap())
        .save_as_keystore(&keystore, PASSWORD)
        .unwrap();
    let path = keystore.to_str().unwrap();

    let client = world
        .client(&[
            ("LS_KEYSTORE", path),
            ("LS_KEYSTORE_PASSWORD", PASSWORD),
            ("LS_ACCOUNT_ADDRESS", ACCOUNT_2),
        ])
        .await;
    let started = client.ok("ls_new_game", json!({"weapon": "Club"})).await;
    assert_eq!(started["status"], "ACCEPTED_ON_L2");
    let wallet = client.ok("ls_wallet", json!({})).await;
    assert_eq!(
        Felt::from_hex(wallet["wallet"]["account_address"].as_str().unwrap()).unwrap(),
        Felt::from_hex(ACCOUNT_2).unwrap()
    );
    // Mint and start went out as one transaction.
    assert_eq!(wallet["wallet"]["policy"]["tx_count"], 1);
    client.shutdown().await;

    let out = tokio::process::Command::new(common::BIN)
        .args([
            "serve",
            "--profile",
            "devnet",
            "--rpc-url",
            world.devnet.url.as_str(),
        ])
        .env("LS_MANIFEST", &world.manifest)
        .env("LS_KEYSTORE", path)
        .env("LS_KEYSTORE_PASSWORD", "wrong password")
        .env("LS_ACCOUNT_ADDRESS", ACCOUNT_2)
        .stdin(std::process::Stdio::null())
        .output()
        .await
        .unwrap();
    assert!(
        !out.status.success(),
        "a wrong password must stop the server"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.to_lowercase().contains("password"), "{stderr}");
    assert!(
        !stderr.contains("wrong password") && !stderr.contains(PASSWORD),
        "{stderr}"
    );
    assert!(!stderr.contains(KEY_2.trim_start_matches("0x")), "{stderr}");
    assert!(out.stdout.is_empty(), "nothing but MCP on stdout");
}
