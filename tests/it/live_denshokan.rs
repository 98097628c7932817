//! The leaderboard told of the Denshokan API's own pushes, through the real binary (`serve
//! --http --profile mainnet`, its node a closed port, its indexer the stand-in of
//! tests/it/denshokan_support): five sessions following `ls://leaderboard` are each told within
//! 1 s of a push, over ONE WebSocket the server opens only while something is followed and
//! closes once nothing is; a malformed and an oversized message are skipped and the next good one
//! is told; a socket the API drops is connected again and its pushes told. An API without the WebSocket route is tried once, said once, and the server serves on.
//! Every push below is written out as Provable-Games/denshokan at `aa8eb22` sends it:
//! `api/src/ws/subscriptions.ts` (`broadcast`: `{channel, data, _timing: {serverTs}}`, the
//! `tokens` channel) over the `token_updates` payload of
//! `indexer/migrations/0008_fix_ws_numeric_precision.sql` (`token_id` as text, `game_id`, `type`,
//! `score` as text or `owner_address`).

use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::mpsc::UnboundedReceiver;

use crate::denshokan_support::{FakeDenshokan, Row};
use crate::http_support::{Server, Session};
use loot_survivor_mcp::devnet::free_port;

/// Sessions following the leaderboard together.
const SESSIONS: usize = 5;
const LEADERBOARD: &str = "ls://leaderboard";

/// A score update of token 77 (`notify_score_update`'s `token_updates` payload).
const SCORE_77: &str = r#"{"channel":"tokens","data":{"token_id":"77","game_id":1,"type":"score_update","score":"42"},"_timing":{"serverTs":1761955200000}}"#;
/// Token 78's game over (`notify_game_over`'s `token_updates` payload).
const OVER_78: &str = r#"{"channel":"tokens","data":{"token_id":"78","game_id":1,"type":"game_over","score":"9"},"_timing":{"serverTs":1761955201000}}"#;

/// `serve --http` on the mainnet profile with its node on a closed port and the stand-in as its
/// Denshokan API.
async fn serve(home: &std::path::Path, denshokan: &FakeDenshokan) -> Server {
    let port = free_port().expect("a free port");
    let rpc = format!("http://127.0.0.1:{port}");
    Server::start(
        home,
        &["--profile", "mainnet", "--rpc-url", &rpc],
        &[
            ("LS_MANIFEST", "no-manifest-on-v2.json"),
            ("LS_WALLET_KIND", "session"),
            (
                "LS_ACCOUNT_ADDRESS",
                "0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde",
            ),
            (
                "LS_KEYSTORE_PASSWORD",
                "not used until a session is approved",
            ),
            ("LS_DENSHOKAN_URL", &denshokan.url),
            ("RUST_LOG", "info,loot_survivor_indexer=debug"),
        ],
    )
    .await
}

/// A session following the leaderboard, and its updates.
async fn follower(url: &str) -> (Session, UnboundedReceiver<String>) {
    let mut s = Session::open(url, None).await;
    let updates = s.updates().await;
    let answer = s
        .request("resources/subscribe", json!({"uri": LEADERBOARD}))
        .await;
    assert!(answer.get("error").is_none(), "subscribe: {answer}");
    (s, updates)
}

/// Drops what each session was told so far.
fn drain(all: &mut [UnboundedReceiver<String>]) {
    for rx in all {
        while rx.try_recv().is_ok() {}
    }
}

/// Checks that every session is told of the leaderboard within `within` of now.
async fn all_told(all: &mut [UnboundedReceiver<String>], within: Duration, what: &str) {
    let deadline = tokio::time::Instant::now() + within;
    for (i, rx) in all.iter_mut().enumerate() {
        let got = tokio::time::timeout_at(deadline, rx.recv()).await;
        assert_eq!(
            got.ok().flatten().as_deref(),
            Some(LEADERBOARD),
            "session {i} told of {what} within {within:?}"
        );
    }
}

#[tokio::test]
async fn sessions_following_the_leaderboard_share_one_socket_to_the_api() {
    let denshokan = FakeDenshokan::start().await;
    denshokan.add([
        Row::new("77", "0xa11ce", 42, 1),
        Row::new("78", "0xb0b", 9, 2),
    ]);
    let home = tempfile::tempdir().unwrap();
    let server = serve(home.path(), &denshokan).await;

    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        denshokan.sockets().opened,
        0,
        "no socket while nothing is followed"
    );

    let mut sessions = Vec::new();
    let mut updates = Vec::new();
    for _ in 0..SESSIONS {
        let (s, rx) = follower(&server.url).await;
        sessions.push(s);
        updates.push(rx);
    }
    assert!(
        denshokan
            .sockets_until(Duration::from_secs(5), |s| s.subscribed == 1)
            .await,
        "a socket subscribed: {:?}",
        denshokan.sockets()
    );
    let sent: Vec<Value> = denshokan
        .socket_received()
        .iter()
        .map(|t| serde_json::from_str(t).unwrap())
        .collect();
    assert_eq!(
        sent,
        [json!({"type": "subscribe", "channels": ["tokens"], "gameIds": ["1"]})],
        "one subscription, to game 1's token changes"
    );

    drain(&mut updates);
    denshokan.push(SCORE_77);
    all_told(&mut updates, Duration::from_secs(1), "a score update").await;

    // Not JSON, then a well-formed change padded past the client's bound (64 KiB): both
    // skipped, nothing told, and the socket stays up for the next good one.
    denshokan.push(r#"{"channel":"tokens","data":{"token_id":"#);
    let padded = format!(
        r#"{{"channel":"tokens","data":{{"token_id":"79","game_id":1,"type":"minted","owner_address":"0x{}"}},"_timing":{{"serverTs":1761955200500}}}}"#,
        "a".repeat(64 << 10)
    );
    denshokan.push(&padded);
    tokio::time::sleep(Duration::from_millis(500)).await;
    for (i, rx) in updates.iter_mut().enumerate() {
        assert!(
            rx.try_recv().is_err(),
            "session {i}: nothing told of bad messages"
        );
    }
    denshokan.push(OVER_78);
    all_told(
        &mut updates,
        Duration::from_secs(1),
        "a game over after bad messages",
    )
    .await;
    assert_eq!(
        denshokan.sockets(),
        crate::denshokan_support::Sockets {
            opened: 1,
            open: 1,
            subscribed: 1
        },
        "one socket for every session"
    );

    for s in &mut sessions {
        let answer = s
            .request("resources/unsubscribe", json!({"uri": LEADERBOARD}))
            .await;
        assert!(answer.get("error").is_none(), "unsubscribe: {answer}");
    }
    assert!(
        denshokan
            .sockets_until(Duration::from_secs(3), |s| s.open == 0)
            .await,
        "the socket is closed once nothing is followed: {:?}",
        denshokan.sockets()
    );
    assert_eq!(denshokan.sockets().opened, 1);
    let log = server.stop().await;
    assert_eq!(
        log.matches("following the Denshokan API's changes").count(),
        1,
        "{log}"
    );
    for said in ["a malformed message", "past the bound of 16384"] {
        assert!(
            log.contains(said),
            "the bad messages were logged ({said}): {log}"
        );
    }
}

#[tokio::test]
async fn a_socket_the_api_drops_is_connected_again() {
    let denshokan = FakeDenshokan::start().await;
    let home = tempfile::tempdir().unwrap();
    let server = serve(home.path(), &denshokan).await;
    let (_s, rx) = follower(&server.url).await;
    let mut updates = [rx];
    let subscribed =
        |n: usize| move |s: crate::denshokan_support::Sockets| s.opened == n && s.subscribed == 1;
    assert!(
        denshokan
            .sockets_until(Duration::from_secs(5), subscribed(1))
            .await
    );
    denshokan.drop_sockets();
    assert!(
        denshokan
            .sockets_until(Duration::from_secs(3), subscribed(2))
            .await,
        "connected again after the first backoff: {:?}",
        denshokan.sockets()
    );
    drain(&mut updates);
    denshokan.push(SCORE_77);
    all_told(
        &mut updates,
        Duration::from_secs(1),
        "a push after reconnecting",
    )
    .await;
    let log = server.stop().await;
    assert_eq!(log.matches("connecting again in").count(), 1, "{log}");
}

#[tokio::test]
async fn an_api_without_the_socket_is_tried_once_and_the_server_serves_on() {
    let denshokan = FakeDenshokan::start().await;
    denshokan.without_socket();
    denshokan.add([Row::new("77", "0xa11ce", 42, 1)]);
    let home = tempfile::tempdir().unwrap();
    let server = serve(home.path(), &denshokan).await;

    let (mut s, _updates) = follower(&server.url).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let tries = denshokan.log().iter().filter(|l| l.path == "/ws").count();
    assert_eq!(tries, 1, "tried once, not again and again");
    assert_eq!(denshokan.sockets().opened, 0);
    let board = s.ok("ls_get_leaderboard", json!({"scope": "all"})).await;
    assert!(board.to_string().contains("77"), "{board}");

    let log = server.stop().await;
    assert_eq!(
        log.matches("does not speak the WebSocket of its source")
            .count(),
        1,
        "{log}"
    );
    assert!(log.contains("HTTP 404 on the upgrade"), "{log}");
}
