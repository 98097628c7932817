//! `serve --profile mainnet` whose node cannot be reached still starts: over stdio through the
//! real binary, with the RPC pointed at a closed local port and no key (a Controller session
//! wallet that is not approved yet), it lists its tools, answers a read and `ls_wallet` with an
//! error naming the RPC and what connecting would have checked (the chain id, the JSON-RPC
//! version, the v2 GameCore), and says the same on stderr. The leaderboard, which needs no node,
//! still comes from the Denshokan API (here its stand-in, tests/it/denshokan_support).

use crate::common;
use crate::denshokan_support;

use denshokan_support::{FakeDenshokan, Row};
use loot_survivor_mcp::devnet::free_port;
use serde_json::json;

#[tokio::test]
async fn mainnet_without_a_reachable_rpc_serves_and_says_what_it_could_not_check() {
    let port = free_port().expect("a free port");
    let rpc: url::Url = format!("http://127.0.0.1:{port}").parse().unwrap();
    let unused_manifest = std::path::Path::new("no-manifest-on-v2.json");
    let denshokan = FakeDenshokan::start().await;
    denshokan.add([Row::new("77", "0xa11ce", 42, 1)]);
    let client = common::serve_profile(
        "mainnet",
        &rpc,
        unused_manifest,
        (),
        &[
            ("LS_WALLET_KIND", "session"),
            (
                "LS_ACCOUNT_ADDRESS",
                "0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde",
            ),
            (
                "LS_KEYSTORE_PASSWORD",
                "not used until a session is approved",
            ),
            ("LS_DENSHOKAN_URL", denshokan.url.as_str()),
        ],
    )
    .await;

    let tools = client.service.list_all_tools().await.expect("tools/list");
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    for tool in ["ls_new_game", "ls_get_adventurer", "ls_wallet"] {
        assert!(names.contains(&tool), "{tool} in {names:?}");
    }

    let host = format!("127.0.0.1:{port}");
    for (tool, args) in [
        ("ls_get_adventurer", json!({"adventurer_id": 1})),
        ("ls_wallet", json!({})),
    ] {
        let e = client.err(tool, args, "RPC_ERROR").await;
        let message = e["message"].as_str().unwrap();
        assert!(
            message.starts_with(&format!(
                "the RPC at {host} (chain.rpc_url) cannot be reached ("
            )),
            "{tool}: {e}"
        );
        assert!(
            message.contains(
                "not checked yet: the chain id (SN_MAIN), the JSON-RPC version (0.9), and that \
                 0x23f86f5b4702f6ba114b82fb73448c58aad8f37a28b508b80bf129ee1edc405 answers as a \
                 v2 GameCore"
            ),
            "{tool}: {e}"
        );
        assert_eq!(e["retryable"], true, "{e}");
        assert!(
            e["hint"]
                .as_str()
                .unwrap()
                .contains("each call connects again"),
            "{e}"
        );
    }

    let board = client
        .ok("ls_get_leaderboard", json!({"scope": "all"}))
        .await;
    assert_eq!(board["indexer"]["source"], "denshokan", "{board}");
    assert_eq!(board["total"], 1, "{board}");
    // Mainnet names no dungeon: the refusal names the v2 key that would, not v1's.
    let e = client
        .err(
            "ls_get_leaderboard",
            json!({"scope": "dungeon"}),
            "VALIDATION_ERROR",
        )
        .await;
    assert!(
        e["hint"].as_str().unwrap().contains("deployment.minter")
            && !e.to_string().contains("chain.contracts.dungeon"),
        "{e}"
    );

    let log = client.shutdown().await;
    assert!(
        log.contains("cannot be reached (") && log.contains("serving anyway"),
        "stderr says what it could not check:\n{log}"
    );
}
