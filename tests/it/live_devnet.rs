//! Following games on devnet through the real binary, for both generations: a 2025-11-25 client
//! of server A, subscribed to a game of its own and to one of server B's (another devnet
//! account, on the same world), is told of each write of either within 2 s, once, and
//! `resources/read` then equals `ls_get_adventurer`. B's writes reach A through the chain's change
//! feed (one `starknet_subscribeEvents` socket, or `starknet_getEvents` by block when A polls);
//! A's own are told by the write, the feed's copy dropped.
// `resources/subscribe` is the 2025 revisions' way, deprecated in rmcp for 2026-07-28 clients.
#![allow(deprecated)]

use std::path::Path;
use std::time::Duration;

use rmcp::model::SubscribeRequestParams;
use serde_json::{Value, json};
use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};

use crate::common;
use crate::live_sim::Updates;

/// Devnet's predeployed account #1 (seed 0) and its key: server B's player.
const ACCOUNT_1: &str = "0x078662e7352d062084b0010068b99288486c2d8b914f6e2a55ce945f8792c8b1";
const KEY_1: &str = "0xe1406455b7d66b1690803be066cbe5e";

/// Rounds of one write by B then one by A.
const ROUNDS: usize = 3;

/// The resource of adventurer `id`.
fn uri_of(id: &Value) -> String {
    format!(
        "ls://adventurer/{}",
        id.as_str().map_or_else(|| id.to_string(), String::from)
    )
}

/// The next update within `within`, if any.
async fn next(rx: &mut UnboundedReceiver<String>, within: Duration) -> Option<String> {
    tokio::time::timeout(within, rx.recv()).await.ok().flatten()
}

/// The next move of game `id` by `writer`, made; `None` when the game is over.
async fn step<H: rmcp::ClientHandler>(
    writer: &common::Client<H>,
    id: &Value,
) -> Option<&'static str> {
    let adv = writer.adventurer(id).await;
    if adv["phase"] == "dead" {
        return None;
    }
    let (tool, args) = common::v2_replay::next_move(id, &adv);
    writer.ok(tool, args).await;
    Some(tool)
}

/// Checks that `a`'s client is told of game `id` next, within 2 s, after the write `moved` (none:
/// nothing to be told), and that the resource then reads as `ls_get_adventurer`.
async fn told(
    a: &common::Client<Updates>,
    rx: &mut UnboundedReceiver<String>,
    id: &Value,
    moved: Option<&str>,
    what: &str,
) {
    let Some(tool) = moved else {
        return;
    };
    let uri = uri_of(id);
    let got = next(rx, Duration::from_secs(2)).await;
    assert_eq!(
        got.as_deref(),
        Some(uri.as_str()),
        "{what}'s {tool} within 2 s, and nothing else before it"
    );
    let (text, _) = common::mcp::read_text(a.service.peer(), &uri)
        .await
        .expect("read the resource");
    let resource: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(resource, a.adventurer(id).await, "{what}'s game");
}

/// Plays `ROUNDS` rounds on the world at `url` (the deployment `file`, with `env` naming its
/// generation; A's own settings `a_env` beside it): B writes, A's client is told; A writes, A's
/// client is told once.
async fn told_of_every_servers_writes(
    url: &url::Url,
    file: &Path,
    env: &[(&str, &str)],
    a_env: &[(&str, &str)],
) {
    let (tx, mut rx) = unbounded_channel();
    let a = common::serve_profile("devnet", url, file, Updates(tx), &[env, a_env].concat()).await;
    let mut b_env = env.to_vec();
    b_env.extend([("LS_PRIVATE_KEY", KEY_1), ("LS_ACCOUNT_ADDRESS", ACCOUNT_1)]);
    let b = common::serve_profile("devnet", url, file, (), &b_env).await;
    let weapon = json!({"weapon": "Short Sword"});
    let mine = a.ok("ls_new_game", weapon.clone()).await["adventurer_id"].clone();
    let theirs = b.ok("ls_new_game", weapon).await["adventurer_id"].clone();
    for id in [&mine, &theirs] {
        a.service
            .peer()
            .subscribe(SubscribeRequestParams::new(uri_of(id)))
            .await
            .expect("subscribe");
    }
    for round in 0..ROUNDS {
        let b_moved = step(&b, &theirs).await;
        told(&a, &mut rx, &theirs, b_moved, &format!("round {round}: B")).await;
        let a_moved = step(&a, &mine).await;
        told(&a, &mut rx, &mine, a_moved, &format!("round {round}: A")).await;
    }
    // Every write was told once: no late copy from the feed.
    assert_eq!(next(&mut rx, Duration::from_millis(1500)).await, None);
    b.shutdown().await;
    a.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_v2_subscriber_is_told_of_every_servers_writes_within_2_s() {
    let devnet = common::start_devnet(&[]).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("v2.json");
    common::devnet_deploy(&devnet.url, &["--generation", "v2"], &file).await;
    let file_env = file.display().to_string();
    let env = [
        ("LS_GENERATION", "v2"),
        ("LS_DEPLOYMENT__DEPLOYMENT_FILE", file_env.as_str()),
    ];
    told_of_every_servers_writes(&devnet.url, &file, &env, &[]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_v1_subscriber_is_told_of_every_servers_writes_within_2_s() {
    let world = common::world().await;
    told_of_every_servers_writes(&world.devnet.url, &world.manifest, &[], &[]).await;
}

/// Without a socket (`tx.follow = "poll"`), A's feed reads the chain's events by block.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_polling_subscriber_is_told_of_every_servers_writes_within_2_s() {
    let world = common::world().await;
    let poll = [("LS_TX__FOLLOW", "poll")];
    told_of_every_servers_writes(&world.devnet.url, &world.manifest, &[], &poll).await;
}
