//! Following a v2 game on devnet through the real binary: a 2025-11-25 client subscribed to its
//! adventurer is told of each write of its own session within 2 s, and `resources/read` then
//! equals `ls_get_adventurer`. (Writes by another server's account are not yet told: the chain's
//! change feed is not built.)
// `resources/subscribe` is the 2025 revisions' way, deprecated in rmcp for 2026-07-28 clients.
#![allow(deprecated)]

use std::time::Duration;

use rmcp::model::SubscribeRequestParams;
use serde_json::json;
use tokio::sync::mpsc::unbounded_channel;

use crate::common;
use crate::live_sim::Updates;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_v2_subscriber_is_told_of_each_write_within_2_s() {
    let devnet = common::start_devnet(&[]).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("v2.json");
    common::devnet_deploy(&devnet.url, &["--generation", "v2"], &file).await;
    let file_env = file.display().to_string();
    let env = [
        ("LS_GENERATION", "v2"),
        ("LS_DEPLOYMENT__DEPLOYMENT_FILE", file_env.as_str()),
    ];
    let (tx, mut rx) = unbounded_channel();
    let client = common::serve_profile("devnet", &devnet.url, &file, Updates(tx), &env).await;
    let started = client
        .ok("ls_new_game", json!({"weapon": "Short Sword"}))
        .await;
    let id = started["adventurer_id"].clone();
    let uri = format!(
        "ls://adventurer/{}",
        id.as_str().map_or_else(|| id.to_string(), String::from)
    );
    client
        .service
        .peer()
        .subscribe(SubscribeRequestParams::new(uri.clone()))
        .await
        .expect("subscribe");
    for _ in 0..3 {
        let adv = client.adventurer(&id).await;
        if adv["phase"] == "dead" {
            break;
        }
        let (tool, args) = common::v2_replay::next_move(&id, &adv);
        client.ok(tool, args).await;
        let got = tokio::time::timeout(Duration::from_secs(2), rx.recv())
            .await
            .ok()
            .flatten();
        assert_eq!(got.as_deref(), Some(uri.as_str()), "{tool}: within 2 s");
        let (text, _) = common::mcp::read_text(client.service.peer(), &uri)
            .await
            .expect("read the resource");
        let resource: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(resource, client.adventurer(&id).await);
    }
    client.shutdown().await;
}
