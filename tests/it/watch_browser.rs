//! The live page in a real browser: `serve --http` on sim, chromium (Debian's, driven by PyPI
//! `playwright`, `tests/python/watch_browser.py`) holds `/watch/{id}` open while the game is
//! played through MCP; after each write the page shows the result's health, xp and beast within
//! 1 s, without a reload (a mark on the window survives, one navigation), with no console error.
//! The screenshot is kept and copied to docs/img/watch-page.png. Skipped when chromium or
//! playwright cannot be installed.

use crate::http_support;

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use http_support::{Server, Session};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// What the page must show after a write: the result's health, xp and beast.
fn expected(result: &Value) -> Value {
    let s = &result["state"];
    let beast = s["beast"].as_object().filter(|_| s["phase"] == "in_battle");
    json!({
        "health": s["health"], "xp": s["xp"],
        "beast": beast.map(|b| b["name"].clone()), "beast_health": beast.map(|b| b["health"].clone()),
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_live_page_follows_a_game_in_chromium_without_reloading() {
    let Some(python) = crate::sheet_browser::playwright() else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    // A master seed: the same game, so the same screenshot, on every run.
    let server = Server::start(home.path(), &[], &[("LS_SIM__SEED", "1")]).await;
    let mut s = Session::open(&server.url, None).await;
    let mut last = s.ok("ls_new_game", json!({"weapon": "Wand"})).await;
    let id = last["adventurer_id"].clone();

    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("watch_browser");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/watch_browser.py");
    let mut browser = tokio::process::Command::new(&python)
        .arg(&script)
        .args(["--url", &format!("{}/watch/{id}", server.base)])
        .arg("--out")
        .arg(&out)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut to = browser.stdin.take().unwrap();
    let mut from = BufReader::new(browser.stdout.take().unwrap()).lines();
    let mut answer = async || -> Value {
        let line = tokio::time::timeout(Duration::from_secs(60), from.next_line())
            .await
            .expect("the browser answers")
            .unwrap()
            .expect("the browser script ended early");
        serde_json::from_str(&line).unwrap()
    };
    let ready = answer().await;
    assert_eq!(ready["ready"], true, "{ready}");

    let (mut writes, mut slowest, mut beasts) = (0, 0, std::collections::HashSet::new());
    let (mut beast_was, mut beast_changes) = (expected(&last)["beast"].clone(), 0);
    while writes < 30 && last["state"]["phase"] != "dead" {
        if writes >= 8 && last["state"]["phase"] == "in_battle" {
            break;
        }
        let (tool, mut args) = crate::sheet_browser::advised(&json!({ "structuredContent": last }));
        args["adventurer_id"] = id.clone();
        last = s.ok(&tool, args).await;
        writes += 1;
        let want = expected(&last);
        if let Some(b) = want["beast"].as_str() {
            beasts.insert(b.to_string());
        }
        beast_changes += usize::from(want["beast"] != beast_was);
        beast_was = want["beast"].clone();
        to.write_all(format!("{want}\n").as_bytes()).await.unwrap();
        let shown = answer().await;
        assert_eq!(
            shown["ok"], true,
            "{tool}: the page did not show {want} within 1 s: {shown}"
        );
        slowest = slowest.max(shown["ms"].as_u64().unwrap());
    }
    to.write_all(b"done\n").await.unwrap();
    let report = answer().await;
    eprintln!("watch page: {writes} writes, slowest {slowest} ms, beasts {beasts:?}: {report}");
    assert!(writes >= 6, "{writes} writes");
    assert!(!beasts.is_empty(), "a beast was shown");
    assert!(
        beast_changes >= 2,
        "the beast came and went: {beast_changes}"
    );
    assert_eq!(report["mark"], "kept", "the page was reloaded: {report}");
    assert_eq!(report["loads"], 1, "{report}");
    assert_eq!(report["live"], "on", "{report}");
    assert!(
        report["events"].as_u64() >= Some(1),
        "event lines: {report}"
    );
    assert_eq!(report["errors"], json!([]), "console errors: {report}");
    let shot = report["screenshot"].as_str().unwrap();
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/img/watch-page.png");
    std::fs::copy(shot, &docs).unwrap();
    let _ = browser.wait().await;
    server.stop().await;
}
