//! On a real devnet, with the binary copied away from its build directory: `devnet deploy`, given
//! the node with the same `--rpc-url` as `serve`, writes the manifest into the data directory (no
//! `--out`), `serve --profile devnet` finds it there, and
//! a wrong starting weapon is refused before anything is signed (the account nonce is unchanged).

use crate::common;

use std::process::Stdio;

use common::mcp::call;
use common::{BIN, nonce_and_balance};
use loot_survivor_mcp::devnet::{Devnet, devnet_binary, free_port};
use rmcp::ServiceExt;
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

#[tokio::test]
async fn a_copied_binary_deploys_into_its_data_directory_and_never_mints_for_a_wrong_weapon() {
    devnet_binary().expect("starknet-devnet is required: run scripts/install-devnet.sh");
    let devnet = Devnet::start_with(free_port().unwrap(), &[])
        .await
        .expect("devnet starts");
    let bin_dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    let exe = bin_dir.path().join("loot-survivor-mcp");
    std::fs::copy(BIN, &exe).unwrap();

    let out = tokio::process::Command::new(&exe)
        .args(["devnet", "deploy", "--profile", "devnet", "--rpc-url"])
        .arg(devnet.url.as_str())
        .current_dir(cwd.path())
        .env("LS_HOME", home.path())
        .env_remove("LS_MANIFEST")
        .env("RUST_LOG", "warn")
        .output()
        .await
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let manifest = home.path().join("devnet").join("manifest.json");
    let m: Value = serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
    assert!(m["world"]["address"].as_str().is_some());
    assert!(
        std::fs::read_dir(cwd.path()).unwrap().next().is_none(),
        "nothing written to the working directory"
    );

    let mut cmd = tokio::process::Command::new(&exe);
    cmd.args(["serve", "--profile", "devnet", "--rpc-url"])
        .arg(devnet.url.as_str())
        .current_dir(cwd.path())
        .env("LS_HOME", home.path())
        .env_remove("LS_MANIFEST")
        .env("RUST_LOG", "warn");
    let (transport, _) = TokioChildProcess::builder(cmd)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let client = ().serve(transport).await.expect("MCP handshake");

    let (nonce_before, _) = nonce_and_balance(&devnet.url, common::ACCOUNT).await;
    let refused = call(&client, "ls_new_game", json!({"weapon": "Katana"})).await;
    assert!(refused.is_error);
    assert_eq!(refused.json["error"]["code"], "VALIDATION_ERROR");
    let (nonce_after, _) = nonce_and_balance(&devnet.url, common::ACCOUNT).await;
    assert_eq!(
        nonce_before, nonce_after,
        "nothing signed for a wrong weapon"
    );

    let started = call(&client, "ls_new_game", json!({"weapon": "Wand"})).await;
    assert!(!started.is_error, "{}", started.text);
    let (nonce_played, _) = nonce_and_balance(&devnet.url, common::ACCOUNT).await;
    assert_ne!(nonce_played, nonce_after, "mint and start were signed");
    client.cancel().await.ok();
}
