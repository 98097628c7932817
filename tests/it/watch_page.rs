//! The live page of `serve --http` on sim, through the real binary: `/watch/{id}` renders the
//! sheet without JavaScript, `/watch/{id}/events` sends the state at connect and again within 1 s
//! of each MCP write (health and xp as the write's result says), unknown and malformed ids are
//! 404, and on a token server the page asks what `/mcp` asks and shows an identity only its own
//! games. `serve --watch` serves the same page beside MCP on stdio.

use crate::common;
use crate::http_support;

use std::time::{Duration, Instant};

use http_support::{EventStream, Server, Session, assert_no_token, make_tokens};
use serde_json::{Value, json};

/// A GET with an optional bearer token: status and body.
async fn get(url: &str, token: Option<&str>) -> (u16, String) {
    let mut req = reqwest::Client::new().get(url);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let r = req.send().await.expect("GET");
    (r.status().as_u16(), r.text().await.unwrap())
}

/// The adventurer's event stream and the state it sends at connect.
async fn follow(base: &str, id: &Value, token: Option<&str>) -> (EventStream, Value) {
    let mut events = EventStream::open(&format!("{base}/watch/{id}/events"), token)
        .await
        .unwrap_or_else(|r| panic!("events: HTTP {}", r.status()));
    let first = events.state(Duration::from_secs(2)).await;
    (events, first.expect("a state at connect"))
}

/// Plays `writes` moves by the planner's advice; after each, the stream's next states must show
/// the write's health and xp within 1 s. Returns the delays.
pub(crate) async fn play_and_follow(
    s: &mut Session,
    id: &Value,
    first: &Value,
    events: &mut EventStream,
    writes: usize,
) -> Vec<Duration> {
    let mut last = first.clone();
    let mut delays = Vec::new();
    for _ in 0..writes {
        if last["state"]["phase"] == "dead" {
            break;
        }
        let (tool, mut args) = crate::sheet_browser::advised(&json!({ "structuredContent": last }));
        args["adventurer_id"] = id.clone();
        let started = Instant::now();
        last = s.ok(&tool, args).await;
        let done = Instant::now();
        let want = (&last["state"]["health"], &last["state"]["xp"]);
        loop {
            let left = Duration::from_secs(1).saturating_sub(done.elapsed());
            let model = events.state(left).await.unwrap_or_else(|| {
                panic!("{tool}: no state with health/xp {want:?} within 1 s of the result")
            });
            let a = &model["adventurer"];
            if (&a["health"], &a["xp"]) == want {
                delays.push(started.elapsed());
                break;
            }
        }
    }
    delays
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_open_page_renders_the_sheet_and_streams_every_write() {
    let home = tempfile::tempdir().unwrap();
    let server = Server::start(home.path(), &[], &[]).await;
    let mut s = Session::open(&server.url, None).await;
    let first = s.ok("ls_new_game", json!({"weapon": "Wand"})).await;
    let id = first["adventurer_id"].clone();
    let base = &server.base;

    let (status, list) = get(&format!("{base}/watch"), None).await;
    assert_eq!(status, 200, "{list}");
    assert!(list.contains(&format!("href=\"/watch/{id}\"")), "{list}");

    let (status, page) = get(&format!("{base}/watch/{id}"), None).await;
    assert_eq!(status, 200, "{page}");
    for part in [
        format!("Adventurer <span>#{id}</span>"),
        "class=\"bar hp".into(),
        "<h2>Gear</h2>".into(),
        format!("data-stream=\"/watch/{id}/events\""),
        "connect-src 'self'".into(),
    ] {
        assert!(page.contains(&part), "the page lacks {part}: {page}");
    }
    // `?id=` opens a game from the list's box.
    let (_, picked) = get(&format!("{base}/watch?id={id}"), None).await;
    assert!(picked.contains(&format!("Adventurer <span>#{id}</span>")));
    for bad in ["999999", "abc", "0xzz", "-1"] {
        let (status, body) = get(&format!("{base}/watch/{bad}"), None).await;
        assert_eq!(status, 404, "/watch/{bad}: {body}");
        assert!(!body.contains("Health"), "{body}");
        let refused = EventStream::open(&format!("{base}/watch/{bad}/events"), None).await;
        assert_eq!(
            refused.err().map(|r| r.status().as_u16()),
            Some(404),
            "{bad}"
        );
    }

    let (mut events, at_connect) = follow(base, &id, None).await;
    let full = s
        .ok(
            "ls_get_adventurer",
            json!({"adventurer_id": id, "detail": "full"}),
        )
        .await;
    assert_eq!(
        at_connect["adventurer"], full["adventurer"],
        "the state at connect"
    );
    let delays = play_and_follow(&mut s, &id, &first, &mut events, 8).await;
    eprintln!("watch: state events after each write: {delays:?}");
    assert!(delays.len() >= 4, "{delays:?}");
    let log = server.stop().await;
    assert!(log.contains("/watch"), "the log names the page: {log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_server_shows_each_identity_only_its_own_games() {
    let home = tempfile::tempdir().unwrap();
    let tokens = make_tokens(home.path(), 2);
    let (alice, bob) = (tokens[0].token.as_str(), tokens[1].token.as_str());
    let server = Server::start(home.path(), &[], &[]).await;
    let mut s = Session::open(&server.url, Some(alice)).await;
    let id = s.ok("ls_new_game", json!({"weapon": "Wand"})).await["adventurer_id"].clone();
    let base = &server.base;
    for path in [
        "/watch".to_string(),
        format!("/watch/{id}"),
        format!("/watch/{id}/events"),
    ] {
        let (status, body) = get(&format!("{base}{path}"), None).await;
        assert_eq!(status, 401, "{path} without a token: {body}");
        let (status, _) = get(&format!("{base}{path}"), Some("not-a-token")).await;
        assert_eq!(status, 401, "{path} with a bad token");
    }
    let (status, body) = get(&format!("{base}/watch/{id}"), Some(bob)).await;
    assert_eq!(status, 403, "another identity's game: {body}");
    assert!(
        !body.contains("Health") && !body.contains("<main"),
        "{body}"
    );
    let refused = EventStream::open(&format!("{base}/watch/{id}/events"), Some(bob)).await;
    assert_eq!(refused.err().map(|r| r.status().as_u16()), Some(403));
    let (_, theirs) = get(&format!("{base}/watch"), Some(bob)).await;
    assert!(!theirs.contains(&format!("/watch/{id}\"")), "{theirs}");

    let (status, page) = get(&format!("{base}/watch/{id}"), Some(alice)).await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains(&format!("Adventurer <span>#{id}</span>")));
    let (_, mine) = get(&format!("{base}/watch"), Some(alice)).await;
    assert!(mine.contains(&format!("href=\"/watch/{id}\"")), "{mine}");
    let (events, model) = follow(base, &id, Some(alice)).await;
    assert_eq!(model["adventurer"]["adventurer_id"], id);
    drop(events);
    let log = server.stop().await;
    assert_no_token(&log, &[alice, bob]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_watch_serves_the_page_beside_stdio_and_says_where() {
    let home = tempfile::tempdir().unwrap();
    let port = loot_survivor_mcp::devnet::free_port().unwrap();
    let mut child = tokio::process::Command::new(common::BIN)
        .args(["serve", "--watch", &format!("127.0.0.1:{port}")])
        .env("LS_HOME", home.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut err = child.stderr.take().unwrap();
    let url = format!("http://127.0.0.1:{port}/watch");
    let mut seen = String::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !seen.contains(&url) && Instant::now() < deadline {
        let mut buf = [0u8; 4096];
        let n = tokio::time::timeout(
            Duration::from_secs(1),
            tokio::io::AsyncReadExt::read(&mut err, &mut buf),
        )
        .await
        .map_or(0, |r| r.unwrap_or(0));
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    assert!(seen.contains(&url), "the URL is printed: {seen}");
    let (status, list) = get(&url, None).await;
    assert_eq!(status, 200, "{list}");
    let (status, _) = get(&format!("{url}/1"), None).await;
    assert_eq!(status, 404, "no game yet");
    drop(child.stdin.take());
    let _ = tokio::time::timeout(Duration::from_secs(20), child.wait()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_watch_streams_what_the_stdio_session_writes() {
    let home = tempfile::tempdir().unwrap();
    let port = loot_survivor_mcp::devnet::free_port().unwrap();
    let addr = format!("127.0.0.1:{port}");
    let (c, _) =
        common::mcp::sim_server(common::BIN, home.path(), &["serve", "--watch", &addr], &[]).await;
    let first = common::mcp::ok(&c, "ls_new_game", json!({"weapon": "Wand"})).await;
    let id = first["adventurer_id"].clone();
    let (mut events, _) = follow(&format!("http://{addr}"), &id, None).await;
    let (tool, mut args) = crate::sheet_browser::advised(&json!({ "structuredContent": first }));
    args["adventurer_id"] = id.clone();
    let after = common::mcp::ok(&c, &tool, args).await;
    let done = Instant::now();
    let want = (&after["state"]["health"], &after["state"]["xp"]);
    loop {
        let left = Duration::from_secs(1).saturating_sub(done.elapsed());
        let model = events
            .state(left)
            .await
            .expect("the stdio write shown within 1 s");
        if (&model["adventurer"]["health"], &model["adventurer"]["xp"]) == want {
            break;
        }
    }
    c.cancel().await.unwrap();
}
