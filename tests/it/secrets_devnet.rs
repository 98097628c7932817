//! A whole game played with a known key (devnet account #1, given through `LS_PRIVATE_KEY`), with
//! the most verbose logging: the key appears nowhere — not in tool results or error texts (what
//! went over stdout), not in stderr.

use crate::common;

use serde_json::json;

/// Devnet (seed 0) predeployed account #1 and its public development key.
const ACCOUNT_1: &str = "0x078662e7352d062084b0010068b99288486c2d8b914f6e2a55ce945f8792c8b1";
const KEY_1: &str = "0xe1406455b7d66b1690803be066cbe5e";

/// Every spelling of the key that could leak: hex with and without prefix or padding, decimal.
fn spellings() -> Vec<String> {
    let hex = KEY_1.trim_start_matches("0x");
    let value = u128::from_str_radix(hex, 16).unwrap();
    vec![
        hex.to_string(),
        format!("{value:064x}"),
        value.to_string(),
        hex.to_uppercase(),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_key_is_never_revealed() {
    let world = common::world().await;
    let client = world
        .client(&[
            ("LS_PRIVATE_KEY", KEY_1),
            ("LS_ACCOUNT_ADDRESS", ACCOUNT_1),
            ("RUST_LOG", "trace"),
        ])
        .await;
    let mut seen = String::new();
    let mut record = |o: &common::mcp::Outcome| seen.push_str(&o.text);

    let r = client.call("ls_new_game", json!({"weapon": "Book"})).await;
    assert!(!r.is_error, "{}", r.text);
    record(&r);
    let id = r.json["adventurer_id"].as_u64().unwrap();
    let mut actions = 0;
    for _ in 0..600 {
        let state = client
            .call("ls_get_adventurer", json!({"adventurer_id": id}))
            .await;
        record(&state);
        let adv = &state.json["adventurer"];
        let (tool, args) = match adv["phase"].as_str().unwrap() {
            "dead" => break,
            "in_battle" => (
                "ls_attack",
                json!({"adventurer_id": id, "to_the_death": true}),
            ),
            "stat_upgrade" => {
                let n = adv["stat_upgrades_available"].as_u64().unwrap();
                let cha = adv["stats"]["charisma"].as_u64().unwrap();
                let (c, i) = if cha + n <= 31 { (n, 0) } else { (0, n) };
                (
                    "ls_upgrade",
                    json!({"adventurer_id": id, "charisma": c, "intelligence": i}),
                )
            }
            _ => (
                "ls_explore",
                json!({"adventurer_id": id, "till_beast": true}),
            ),
        };
        let out = client.call(tool, args).await;
        assert!(!out.is_error, "{tool}: {}", out.text);
        record(&out);
        actions += 1;
    }
    // Failures too: a revert, a validation error, a not-found.
    for (tool, args) in [
        ("ls_attack", json!({"adventurer_id": id})),
        ("ls_explore", json!({"adventurer_id": "x"})),
        ("ls_get_adventurer", json!({"adventurer_id": 424242})),
        ("ls_get_tx", json!({"tx_hash": "0xdead"})),
    ] {
        let o = client.call(tool, args).await;
        assert!(o.is_error);
        record(&o);
    }
    let stderr = client.shutdown().await;
    assert!(actions >= 5, "only {actions} actions");
    assert!(
        stderr.contains("transaction sent"),
        "trace logs were captured"
    );
    for s in spellings() {
        assert!(!seen.contains(&s), "the key leaked into a tool result");
        assert!(!stderr.contains(&s), "the key leaked into stderr");
    }
}

/// Hosted RPC providers take their API key in the URL (query or user info). At every log level,
/// with the WebSocket endpoint derived from that URL, through a write and a failure, neither
/// the key nor the password appears in stderr or in a tool result.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_api_key_in_the_rpc_url_is_never_revealed() {
    const QUERY_KEY: &str = "Qk7apikeyF00d";
    const PASSWORD: &str = "pw9Secret42";
    let world = common::world().await;
    let mut rpc = world.devnet.url.clone();
    rpc.set_path("/rpc");
    rpc.set_query(Some(&format!("apikey={QUERY_KEY}")));
    rpc.set_username("agent").unwrap();
    rpc.set_password(Some(PASSWORD)).unwrap();
    for level in ["error", "warn", "info", "debug", "trace"] {
        let client = world.client_at(&rpc, (), &[("RUST_LOG", level)]).await;
        let started = client.call("ls_new_game", json!({"weapon": "Book"})).await;
        assert!(!started.is_error, "{level}: {}", started.text);
        let failed = client.call("ls_get_tx", json!({"tx_hash": "0xdead"})).await;
        let stderr = client.shutdown().await;
        for secret in [QUERY_KEY, PASSWORD] {
            assert!(
                !stderr.contains(secret),
                "{level}: the key leaked into stderr"
            );
            for o in [&started, &failed] {
                assert!(
                    !o.text.contains(secret),
                    "{level}: the key leaked into a result"
                );
            }
        }
        if level == "info" {
            assert!(
                stderr.contains("endpoint=ws://<hidden>@127.0.0.1:")
                    && stderr.contains("/ws?apikey=<hidden>"),
                "the derived WebSocket endpoint is logged with its credentials hidden: {stderr}"
            );
        }
    }
}
