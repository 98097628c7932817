//! Following a game on the sim chain through the real binary over stdio, in both MCP eras: a
//! 2025-11-25 client's `resources/subscribe` and a 2026-07-28 client's `subscriptions/listen`
//! each get `notifications/resources/updated` within a second of every write that changed the
//! adventurer, `resources/read` then equals `ls_get_adventurer`, nothing arrives after
//! unsubscribing, the 101st subscription of a session is refused, bad URIs are refused with
//! nothing left behind, and the subscription tools collect what changed.
#![allow(deprecated)]

use std::time::Duration;

use crate::common;

use common::BIN;
use common::mcp::{call, ok, read_text, sim_server, sim_server_with};
use rmcp::ClientHandler;
use rmcp::model::{
    ClientConfig, InitializeRequestParams, ProtocolVersion, ResourceUpdatedNotificationParam,
    ServerNotification, SubscribeRequestParams, SubscriptionFilter, UnsubscribeRequestParams,
};
use rmcp::service::{NotificationContext, Peer, RoleClient};
use serde_json::{Value, json};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

/// A 2025-11-25 client that keeps the resource updates it receives.
pub(crate) struct Updates(pub(crate) UnboundedSender<String>);

impl ClientHandler for Updates {
    fn get_info(&self) -> ClientConfig {
        let mut params = InitializeRequestParams::default();
        params.protocol_version = ProtocolVersion::V_2025_11_25;
        params
    }

    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let _ = self.0.send(params.uri);
    }
}

/// The next update within `within`, if any.
async fn next_update(rx: &mut UnboundedReceiver<String>, within: Duration) -> Option<String> {
    tokio::time::timeout(within, rx.recv()).await.ok().flatten()
}

/// The adventurer as `ls_get_adventurer` shows it in full.
async fn full_view(peer: &Peer<RoleClient>, id: &Value) -> Value {
    ok(
        peer,
        "ls_get_adventurer",
        json!({"adventurer_id": id, "detail": "full"}),
    )
    .await["adventurer"]
        .clone()
}

/// `ls_get_adventurer` in full, and `resources/read` of the same adventurer, as JSON.
async fn both_reads(peer: &Peer<RoleClient>, id: &Value) -> (Value, Value) {
    let tool = full_view(peer, id).await;
    let uri = format!("ls://adventurer/{}", id.as_u64().unwrap());
    let (text, _) = read_text(peer, &uri).await.expect("read the resource");
    (tool, serde_json::from_str(&text).unwrap())
}

/// The session's subscriptions as `ls_subscriptions` lists them (without waiting).
async fn listed(peer: &Peer<RoleClient>) -> Vec<Value> {
    ok(peer, "ls_subscriptions", json!({})).await["subscriptions"]
        .as_array()
        .unwrap()
        .clone()
}

#[tokio::test]
async fn a_2025_client_is_told_of_each_write_until_it_unsubscribes() {
    let home = tempfile::tempdir().unwrap();
    let (tx, mut rx) = unbounded_channel();
    let (client, _) = sim_server_with(BIN, home.path(), &[], &[], Updates(tx)).await;
    let peer = client.peer();
    let info = peer.peer_info().unwrap();
    assert_eq!(
        info.capabilities
            .resources
            .as_ref()
            .and_then(|r| r.subscribe),
        Some(true),
        "resources/subscribe is advertised"
    );
    let started = ok(peer, "ls_new_game", json!({"weapon": "Wand"})).await;
    let id = started["adventurer_id"].clone();
    let uri = format!("ls://adventurer/{}", id.as_u64().unwrap());
    peer.subscribe(SubscribeRequestParams::new(uri.clone()))
        .await
        .expect("subscribe");

    for _ in 0..3 {
        let adv = full_view(peer, &id).await;
        let (tool, args) = common::v2_replay::next_move(&id, &adv);
        let at = std::time::Instant::now();
        ok(peer, tool, args).await;
        let got = next_update(&mut rx, Duration::from_secs(1)).await;
        assert_eq!(got.as_deref(), Some(uri.as_str()), "{tool}: within 1 s");
        assert!(at.elapsed() < Duration::from_secs(5));
        let (tool_view, resource) = both_reads(peer, &id).await;
        assert_eq!(resource, tool_view, "resources/read is the tool's read");
    }

    peer.unsubscribe(UnsubscribeRequestParams::new(uri.clone()))
        .await
        .expect("unsubscribe");
    let adv = full_view(peer, &id).await;
    let (tool, args) = common::v2_replay::next_move(&id, &adv);
    ok(peer, tool, args).await;
    assert_eq!(
        next_update(&mut rx, Duration::from_millis(800)).await,
        None,
        "nothing after unsubscribing"
    );
    assert!(listed(peer).await.is_empty(), "nothing left behind");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_write_by_another_process_on_the_same_world_is_told_too() {
    let home = tempfile::tempdir().unwrap();
    let (tx, mut rx) = unbounded_channel();
    let (watcher, _) = sim_server_with(BIN, home.path(), &[], &[], Updates(tx)).await;
    let (player, _) = sim_server(BIN, home.path(), &[], &[]).await;
    let id =
        ok(player.peer(), "ls_new_game", json!({"weapon": "Wand"})).await["adventurer_id"].clone();
    let uri = format!("ls://adventurer/{}", id.as_u64().unwrap());
    watcher
        .peer()
        .subscribe(SubscribeRequestParams::new(uri.clone()))
        .await
        .expect("subscribe");
    for _ in 0..3 {
        let adv = full_view(player.peer(), &id).await;
        let (tool, args) = common::v2_replay::next_move(&id, &adv);
        ok(player.peer(), tool, args).await;
        let got = next_update(&mut rx, Duration::from_secs(1)).await;
        assert_eq!(got.as_deref(), Some(uri.as_str()), "{tool}: within 1 s");
        // What the other process wrote is what this one reads.
        let (tool_view, resource) = both_reads(watcher.peer(), &id).await;
        assert_eq!(resource, tool_view);
        assert_eq!(tool_view, full_view(player.peer(), &id).await);
        while next_update(&mut rx, Duration::from_millis(300))
            .await
            .is_some()
        {}
    }
    watcher.cancel().await.unwrap();
    player.cancel().await.unwrap();
}

#[tokio::test]
async fn bad_uris_and_the_101st_subscription_are_refused_and_leave_nothing() {
    let home = tempfile::tempdir().unwrap();
    let (tx, _rx) = unbounded_channel();
    let env = [("LS_POLICY__MAX_TX_PER_MINUTE", "1000")];
    let (client, _) = sim_server_with(BIN, home.path(), &[], &env, Updates(tx)).await;
    let peer = client.peer();
    for bad in [
        "ls://nothing",
        "ls://adventurer/",
        "ls://adventurer/abc",
        "ls://adventurer/987654",
    ] {
        peer.subscribe(SubscribeRequestParams::new(bad))
            .await
            .expect_err(bad);
    }
    assert!(listed(peer).await.is_empty(), "no subscription left behind");

    let mut ids = Vec::new();
    for _ in 0..100 {
        ids.push(ok(peer, "ls_new_game", json!({"weapon": "Wand"})).await["adventurer_id"].clone());
    }
    let uri = |id: &Value| format!("ls://adventurer/{}", id.as_u64().unwrap());
    peer.subscribe(SubscribeRequestParams::new("ls://leaderboard"))
        .await
        .unwrap();
    for id in &ids[..99] {
        peer.subscribe(SubscribeRequestParams::new(uri(id)))
            .await
            .unwrap();
    }
    // The same adventurer under its hex name is the same subscription.
    let hex = format!("ls://adventurer/{:#x}", ids[0].as_u64().unwrap());
    peer.subscribe(SubscribeRequestParams::new(hex))
        .await
        .unwrap();
    assert_eq!(listed(peer).await.len(), 100);
    let e = peer
        .subscribe(SubscribeRequestParams::new(uri(&ids[99])))
        .await
        .expect_err("the 101st");
    assert!(e.to_string().contains("100"), "{e}");
    let refused = call(peer, "ls_subscribe", json!({"adventurer_id": ids[99]}))
        .await
        .into_err("POLICY_DENIED");
    assert_eq!(refused["details"]["rule"], "max_subscriptions");
    assert_eq!(listed(peer).await.len(), 100, "nothing added");
    client.cancel().await.unwrap();
}

/// A 2026-07-28 client of the binary on sim: `server/discover`, no `initialize`.
async fn modern_client(home: &std::path::Path) -> rmcp::service::RunningService<RoleClient, ()> {
    use rmcp::service::{ClientLifecycleMode, ClientServiceExt};
    let mut cmd = tokio::process::Command::new(BIN);
    cmd.env_remove("LS_CHAIN")
        .env("LS_CONFIG_DIR", "/nonexistent")
        .env("LS_HOME", home)
        .env("RUST_LOG", "warn");
    let transport = rmcp::transport::TokioChildProcess::new(cmd).expect("spawn the server");
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    ().serve_with_lifecycle(transport, lifecycle)
        .await
        .expect("server/discover")
}

#[tokio::test]
async fn a_2026_client_listens_and_stops_by_cancelling() {
    let home = tempfile::tempdir().unwrap();
    let client = modern_client(home.path()).await;
    let peer = client.peer();
    let id = ok(peer, "ls_new_game", json!({"weapon": "Wand"})).await["adventurer_id"].clone();
    let uri = format!("ls://adventurer/{}", id.as_u64().unwrap());
    let filter = SubscriptionFilter::builder()
        .resource_subscription(uri.clone())
        .resource_subscription("ls://elsewhere")
        .build();
    let mut sub = peer.listen(filter).await.expect("listen");
    assert_eq!(
        sub.acknowledged().resource_subscriptions,
        Some(vec![uri.clone()]),
        "only what can be followed is acknowledged"
    );
    for _ in 0..2 {
        let adv = full_view(peer, &id).await;
        let (tool, args) = common::v2_replay::next_move(&id, &adv);
        ok(peer, tool, args).await;
        let got = tokio::time::timeout(Duration::from_secs(1), sub.next())
            .await
            .expect("an update within 1 s")
            .unwrap();
        match got {
            Some(ServerNotification::ResourceUpdatedNotification(n)) => {
                assert_eq!(n.params.uri, uri)
            }
            other => panic!("{other:?}"),
        }
        let (tool_view, resource) = both_reads(peer, &id).await;
        assert_eq!(resource, tool_view);
    }
    assert_eq!(listed(peer).await.len(), 1, "the stream is listed");
    sub.cancel().await.unwrap();
    let mut left = listed(peer).await.len();
    for _ in 0..30 {
        if left == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        left = listed(peer).await.len();
    }
    assert_eq!(left, 0, "released when cancelled");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_subscription_tools_collect_what_changed() {
    let home = tempfile::tempdir().unwrap();
    let (client, _) = sim_server(BIN, home.path(), &[], &[]).await;
    let peer = client.peer();
    let id = ok(peer, "ls_new_game", json!({"weapon": "Wand"})).await["adventurer_id"].clone();
    let missing = call(peer, "ls_subscribe", json!({"adventurer_id": 987654}))
        .await
        .into_err("NOT_FOUND");
    assert!(missing["message"].as_str().unwrap().contains("987654"));
    call(peer, "ls_subscribe", json!({}))
        .await
        .into_err("VALIDATION_ERROR");
    let sub = ok(peer, "ls_subscribe", json!({"adventurer_id": id})).await;
    let sid = sub["subscriptions"][0]["subscription_id"].clone();
    ok(peer, "ls_subscribe", json!({"leaderboard": true})).await;
    let quiet = ok(peer, "ls_subscriptions", json!({})).await;
    assert_eq!(quiet["changed"], json!([]));

    let adv = full_view(peer, &id).await;
    let (tool, args) = common::v2_replay::next_move(&id, &adv);
    ok(peer, tool, args).await;
    let seen = ok(peer, "ls_subscriptions", json!({"wait_seconds": 2})).await;
    let mut changed: Vec<String> = serde_json::from_value(seen["changed"].clone()).unwrap();
    changed.sort();
    assert_eq!(
        changed,
        [
            "ls://adventurer/".to_string() + &id.to_string(),
            "ls://leaderboard".into()
        ]
    );
    let again = ok(peer, "ls_subscriptions", json!({})).await;
    assert_eq!(again["changed"], json!([]), "collected once");

    // A wait with nothing pending returns empty-handed after the wait.
    let at = std::time::Instant::now();
    let waited = ok(peer, "ls_subscriptions", json!({"wait_seconds": 1})).await;
    assert_eq!(waited["changed"], json!([]));
    assert!(at.elapsed() >= Duration::from_millis(900));
    call(peer, "ls_subscriptions", json!({"wait_seconds": 11}))
        .await
        .into_err("VALIDATION_ERROR");

    ok(peer, "ls_unsubscribe", json!({"subscription_id": sid})).await;
    let gone = call(peer, "ls_unsubscribe", json!({"subscription_id": sid}))
        .await
        .into_err("NOT_FOUND");
    assert!(gone["hint"].as_str().unwrap().contains("ls_subscriptions"));
    assert_eq!(listed(peer).await.len(), 1);
    client.cancel().await.unwrap();
}
