//! A v2 profile off mainnet names no Denshokan API unless told to: through the real binary on the
//! devnet profile with `LS_GENERATION=v2` (its node a closed port, no `deployment.indexer_url` and
//! no `LS_DENSHOKAN_URL`), the leaderboard and an owner's games answer at once that no indexer is
//! configured for this deployment, name the setting and what works instead, and are not
//! retryable. Before, they asked mainnet's public API, which does not index this chain, and said
//! "retry in a moment". (The `dungeon` scope's refusal on v2 is tried in `mainnet_offline`.)

use crate::common;

use loot_survivor_mcp::devnet::free_port;
use serde_json::json;

#[tokio::test]
async fn without_an_indexer_url_the_indexer_tools_say_none_is_configured() {
    let port = free_port().expect("a free port");
    let rpc: url::Url = format!("http://127.0.0.1:{port}").parse().unwrap();
    let client = common::serve_profile(
        "devnet",
        &rpc,
        std::path::Path::new("no-manifest-on-v2.json"),
        (),
        &[
            ("LS_GENERATION", "v2"),
            ("LS_DEPLOYMENT__DEPLOYMENT_FILE", ""),
            ("LS_DEPLOYMENT__GAME_CORE", "0x6a"),
            ("LS_DEPLOYMENT__GAME_TOKEN", "0x70"),
            ("LS_DEPLOYMENT__DENSHOKAN", "0xde"),
            ("LS_DEPLOYMENT__VRF_PROVIDER", "0xf0"),
        ],
    )
    .await;

    for (tool, args) in [
        ("ls_list_adventurers", json!({"owner": "0xa11ce"})),
        ("ls_get_leaderboard", json!({"scope": "all"})),
    ] {
        let started = std::time::Instant::now();
        let e = client.err(tool, args, "INDEXER_ERROR").await;
        assert!(started.elapsed().as_secs() < 5, "{tool} asked somewhere");
        assert_eq!(e["details"]["kind"], "not_configured", "{tool}: {e}");
        assert_eq!(e["retryable"], false, "{tool}: {e}");
        let message = e["message"].as_str().unwrap();
        assert!(
            message.starts_with("no indexer is configured for this deployment"),
            "{tool}: {message}"
        );
        let hint = e["hint"].as_str().unwrap();
        for named in [
            "deployment.indexer_url",
            "LS_DENSHOKAN_URL",
            "ls_get_adventurer",
        ] {
            assert!(hint.contains(named), "{tool}: {hint}");
        }
        assert!(!hint.contains("retry"), "{tool}: {hint}");
    }

    let log = client.shutdown().await;
    assert!(
        log.contains("no Denshokan API is configured for this deployment"),
        "{log}"
    );
}
