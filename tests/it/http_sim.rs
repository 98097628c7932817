//! `serve --http` on the sim profile, over loopback: many agent sessions at once through the PyPI
//! `mcp` streamable HTTP client, the MCP Inspector CLI in HTTP mode, and raw HTTP for the
//! refusals (missing and bad tokens, foreign origins, another identity's adventurers, a session
//! taken over by a second token, per-identity limits) and the refusal to serve a non-loopback
//! address without tokens. Every server log is checked to hold no token.

use crate::common;
use crate::http_support;

use std::path::Path;
use std::process::Command;

use http_support::{Server, Session, assert_no_token, fleet, make_tokens};
use loot_survivor_mcp::mcp::http::hash_hex;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_sessions_play_whole_games_each_on_its_own_adventurers() {
    let home = tempfile::tempdir().unwrap();
    let tokens = make_tokens(home.path(), 10);
    let server = Server::start(home.path(), &[], &[]).await;
    let summary = fleet(
        &server.url,
        &home.path().join("tokens.json"),
        50,
        &["--cross-check"],
    )
    .await;
    let log = server.stop().await;
    eprintln!("fleet of 50 on sim: {summary}");
    assert_eq!(summary["games"], 50, "{summary}");
    assert_eq!(
        summary["deaths"], 50,
        "every game played to the end: {summary}"
    );
    let ids: std::collections::HashSet<u64> = summary["adventurers"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(ids.len(), 50, "50 distinct adventurers: {summary}");
    // Each session tried two tools on the next session's adventurer (another identity).
    assert_eq!(summary["cross_identity_refusals"], 100, "{summary}");
    assert!(
        log.contains("refused: another identity's adventurer"),
        "{log}"
    );
    let toks: Vec<&str> = tokens.iter().map(|t| t.token.as_str()).collect();
    assert_no_token(&log, &toks);
    // Ownership is on disk, every adventurer with the identity that made it.
    let owners: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(home.path().join("sim/world.owners.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(owners.as_object().unwrap().len(), 50, "{owners}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_or_bad_tokens_and_foreign_origins_are_refused_and_never_logged() {
    let home = tempfile::tempdir().unwrap();
    let tokens = make_tokens(home.path(), 1);
    let server = Server::start(
        home.path(),
        &[],
        &[(
            "LS_HTTP__ALLOWED_ORIGINS",
            "https://agents.example.org, http://localhost:3000",
        )],
    )
    .await;
    let http = reqwest::Client::new();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let post = |auth: Option<&str>, origin: Option<&str>| {
        let mut r = http
            .post(&server.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(init.to_string());
        if let Some(a) = auth {
            r = r.header("authorization", a);
        }
        if let Some(o) = origin {
            r = r.header("origin", o);
        }
        r.send()
    };
    let good = format!("Bearer {}", tokens[0].token);
    let wrong = "Bearer lsmcp_0000000000000000000000000000000000000000000000000000000000000000";
    let r = post(None, None).await.unwrap();
    assert_eq!(r.status(), 401);
    assert!(
        r.headers()["www-authenticate"]
            .to_str()
            .unwrap()
            .starts_with("Bearer")
    );
    assert_eq!(post(Some(wrong), None).await.unwrap().status(), 401);
    assert_eq!(post(Some("Basic YTpi"), None).await.unwrap().status(), 401);
    let cut = &good[..good.len() - 1];
    assert_eq!(post(Some(cut), None).await.unwrap().status(), 401);
    let r = post(Some(&good), Some("https://evil.example.com"))
        .await
        .unwrap();
    assert_eq!(r.status(), 403, "a foreign origin, even with a good token");
    let r = post(Some(&good), Some("https://agents.example.org"))
        .await
        .unwrap();
    assert_eq!(r.status(), 200, "an allowed origin");
    let r = post(Some(&good), None).await.unwrap();
    assert_eq!(r.status(), 200, "no origin (not a browser)");
    // Health answers load balancers without a token.
    let h = http
        .get(format!("{}/healthz", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(h.status(), 200);
    let h = http
        .get(format!("{}/readyz", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(h.status(), 200);
    let log = server.stop().await;
    assert!(
        log.contains("refused an HTTP request: no bearer token"),
        "{log}"
    );
    assert!(
        log.contains("refused an HTTP request: unknown bearer token"),
        "{log}"
    );
    assert!(log.contains("origin not allowed"), "{log}");
    assert_no_token(&log, &[&tokens[0].token, &wrong[7..], &cut[7..]]);
}

#[test]
fn a_non_loopback_address_without_tokens_is_refused() {
    let home = tempfile::tempdir().unwrap();
    for addr in ["0.0.0.0:0", "[::]:0"] {
        let out = Command::new(common::BIN)
            .args(["serve", "--http", addr])
            .env("LS_HOME", home.path())
            .env_remove("LS_HTTP_TOKENS")
            .env_remove("LS_HTTP__TOKENS_FILE")
            .output()
            .unwrap();
        assert!(!out.status.success(), "{addr} served without auth");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("refusing to serve on") && err.contains("without authentication"),
            "{err}"
        );
        assert!(!err.contains("serving MCP over streamable HTTP"), "{err}");
    }
}

/// A token file with a grant and a tight rate limit.
fn write_tokens(home: &Path, granted_to_c: Option<u64>) -> [String; 3] {
    let toks = ["tok-a", "tok-b", "tok-c"].map(|t| format!("{t}-{}", hash_hex(t)));
    let grant = granted_to_c.map_or(String::new(), |id| format!("adventurers = [{id}]\n"));
    let text = format!(
        "[[token]]\nidentity = \"alice\"\nsha256 = \"{}\"\nprofile = \"sim\"\n\n\
         [[token]]\nidentity = \"bob\"\nsha256 = \"{}\"\nmax_tx_per_minute = 3\n\n\
         [[token]]\nidentity = \"carol\"\nsha256 = \"{}\"\n{grant}",
        hash_hex(&toks[0]),
        hash_hex(&toks[1]),
        hash_hex(&toks[2]),
    );
    std::fs::write(home.join("tokens.toml"), text).unwrap();
    toks
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn identities_stay_apart_across_a_restart_grants_and_limits() {
    let home = tempfile::tempdir().unwrap();
    let [a, b, c] = write_tokens(home.path(), None);
    let server = Server::start(home.path(), &[], &[]).await;
    let mut alice = Session::open(&server.url, Some(&a)).await;
    let id = alice.ok("ls_new_game", json!({"weapon": "Wand"})).await["adventurer_id"]
        .as_u64()
        .unwrap();
    let mut bob = Session::open(&server.url, Some(&b)).await;
    for (tool, args) in [
        ("ls_get_adventurer", json!({"adventurer_id": id})),
        ("ls_attack", json!({"adventurer_id": id})),
        ("ls_battle_preview", json!({"adventurer_id": id})),
        ("ls_get_game_events", json!({"adventurer_id": id})),
    ] {
        bob.err(tool, args, "POLICY_DENIED").await;
    }
    // Bob's own limit: 3 transactions a minute (a new game is 2).
    let bobs = bob.ok("ls_new_game", json!({"weapon": "Wand"})).await["adventurer_id"]
        .as_u64()
        .unwrap();
    bob.ok("ls_attack", json!({"adventurer_id": bobs})).await;
    let o = bob.call("ls_attack", json!({"adventurer_id": bobs})).await;
    assert!(
        o.is_error && o.json["error"]["details"]["rule"] == "max_tx_per_minute",
        "{}",
        o.text
    );
    // Alice's limit is her own.
    alice.ok("ls_attack", json!({"adventurer_id": id})).await;
    // A session stays with the identity that opened it.
    alice.token = Some(b.clone());
    alice
        .err(
            "ls_get_adventurer",
            json!({"adventurer_id": bobs}),
            "POLICY_DENIED",
        )
        .await;
    let log = server.stop().await;
    assert_no_token(&log, &[&a, &b, &c]);

    // After a restart the ownership holds; carol is granted alice's adventurer in the token file.
    write_tokens(home.path(), Some(id));
    let server = Server::start(home.path(), &[], &[]).await;
    let mut bob = Session::open(&server.url, Some(&b)).await;
    bob.err(
        "ls_get_adventurer",
        json!({"adventurer_id": id}),
        "POLICY_DENIED",
    )
    .await;
    let mut carol = Session::open(&server.url, Some(&c)).await;
    carol
        .ok("ls_get_adventurer", json!({"adventurer_id": id}))
        .await;
    let mut alice = Session::open(&server.url, Some(&a)).await;
    alice
        .ok("ls_get_adventurer", json!({"adventurer_id": id}))
        .await;
    let listed = alice.ok("ls_list_adventurers", json!({})).await;
    let ids: Vec<u64> = listed["adventurers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["adventurer_id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, vec![id], "alice lists only her game: {listed}");
    let log = server.stop().await;
    assert_no_token(&log, &[&a, &b, &c]);

    // A world started afresh: its adventurer `id` is a new game, bob's now, and alice, who owned
    // the old one, has no claim on it (before, bob was refused it and alice could play it).
    write_tokens(home.path(), None);
    let server = Server::start(home.path(), &["--fresh"], &[]).await;
    let mut bob = Session::open(&server.url, Some(&b)).await;
    let fresh = bob.ok("ls_new_game", json!({"weapon": "Wand"})).await["adventurer_id"]
        .as_u64()
        .unwrap();
    assert_eq!(fresh, id, "the fresh world mints the same id again");
    bob.ok("ls_get_adventurer", json!({"adventurer_id": fresh}))
        .await;
    let mut alice = Session::open(&server.url, Some(&a)).await;
    alice
        .err(
            "ls_get_adventurer",
            json!({"adventurer_id": fresh}),
            "POLICY_DENIED",
        )
        .await;
    let log = server.stop().await;
    assert_no_token(&log, &[&a, &b, &c]);
}

/// A `tools/call` that rmcp cannot read (no params, no name, a number for a name) is a bad request
/// to a method that exists: `-32602`, saying what the method expects, over HTTP as over stdio.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_malformed_tools_call_is_invalid_params_over_http() {
    let home = tempfile::tempdir().unwrap();
    let tokens = make_tokens(home.path(), 1);
    let server = Server::start(home.path(), &[], &[]).await;
    let session = Session::open(&server.url, Some(&tokens[0].token)).await;
    let cases = [
        (
            "no params",
            json!({"jsonrpc": "2.0", "id": 90, "method": "tools/call"}),
        ),
        (
            "no name",
            json!({"jsonrpc": "2.0", "id": 91, "method": "tools/call", "params": {"arguments": {}}}),
        ),
        (
            "a number for a name",
            json!({"jsonrpc": "2.0", "id": 92, "method": "tools/call", "params": {"name": 5}}),
        ),
    ];
    for (what, msg) in cases {
        let r = session.post(&msg).await;
        let body = r.text().await.unwrap();
        let answer = http_support::response_of(&body, &msg["id"])
            .unwrap_or_else(|| panic!("{what}: no answer in {body}"));
        assert_eq!(answer["error"]["code"], -32602, "{what}: {answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("tools/call") && message.contains("\"name\""),
            "{what}: {message}"
        );
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_before_initialize_is_told_to_initialize_and_a_closed_session_answers_204() {
    let home = tempfile::tempdir().unwrap();
    let server = Server::start(home.path(), &[], &[]).await;
    let call = json!({"jsonrpc": "2.0", "id": 41, "method": "tools/call",
        "params": {"name": "ls_get_adventurer", "arguments": {"adventurer_id": 1}}});
    let r = reqwest::Client::new()
        .post(&server.url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(call.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), reqwest::StatusCode::BAD_REQUEST);
    let answer: serde_json::Value = r.json().await.unwrap();
    assert_eq!(answer["id"], 41, "{answer}");
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.contains("before `initialize`"), "{message}");

    let mut session = Session::open(&server.url, None).await;
    session.ok("ls_wallet", json!({})).await;
    assert_eq!(session.close().await, reqwest::StatusCode::NO_CONTENT);
    server.stop().await;
}
