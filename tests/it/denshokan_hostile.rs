//! The Denshokan API is a third party: through the real binary (`serve --profile mainnet`, its
//! node a closed port, its indexer the stand-in of tests/it/denshokan_support), an API that sends
//! every row whatever the limit costs no more `/rank` requests than the rows asked for, a player
//! name carrying a terminal's escape codes reaches the model without them, and an API key in the
//! indexer's URL is hidden when the API echoes it back.

use crate::common;
use crate::denshokan_support;

use denshokan_support::{FakeDenshokan, Fault, Row};
use loot_survivor_mcp::devnet::free_port;
use serde_json::json;

/// The key the indexer URL carries; never shown.
const KEY: &str = "s3cr3tDenshokanKey9";

#[tokio::test]
async fn a_lying_or_hostile_denshokan_api_is_bounded_cleaned_and_its_key_hidden() {
    let port = free_port().expect("a free port");
    let rpc: url::Url = format!("http://127.0.0.1:{port}").parse().unwrap();
    let denshokan = FakeDenshokan::start().await;
    denshokan.add((1..=300).map(|n| {
        let mut row = Row::new(&n.to_string(), "0xa11ce", 1000 - u64::from(n), n);
        if n == 1 {
            row.player_name = Some("Ada\u{1b}[2J\u{7}\nLovelace".into());
        }
        row
    }));
    denshokan.send_every_row();
    let keyed = denshokan
        .url
        .replacen("http://", &format!("http://key:{KEY}@"), 1);
    let client = common::serve_profile(
        "mainnet",
        &rpc,
        std::path::Path::new("no-manifest-on-v2.json"),
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
            ("LS_DENSHOKAN_URL", keyed.as_str()),
        ],
    )
    .await;

    // Before, the 300 rows sent for a limit of 5 were each asked their rank (28 s).
    let board = client
        .ok(
            "ls_get_leaderboard",
            json!({"scope": "all", "live_only": true, "limit": 5}),
        )
        .await;
    let rows = board["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 5, "{board}");
    let ranks = denshokan
        .log()
        .iter()
        .filter(|l| l.path.ends_with("/rank"))
        .count();
    assert!(ranks <= 5, "{ranks} rank requests");
    let text = board.to_string();
    assert!(
        text.contains("AdaLovelace") || text.contains("Ada[2JLovelace"),
        "{text}"
    );
    assert!(
        !text.contains("\\u001b") && !text.contains("\\u0007") && !text.contains("\\n"),
        "{text}"
    );

    denshokan.fault(Fault::Json(
        400,
        r#"{"error": "invalid key s3cr3tDenshokanKey9 for http://key:s3cr3tDenshokanKey9@denshokan"}"#,
    ));
    let e = client
        .err(
            "ls_get_leaderboard",
            json!({"scope": "all"}),
            "INDEXER_ERROR",
        )
        .await;
    assert!(!e.to_string().contains(KEY), "{e}");
    let log = client.shutdown().await;
    assert!(!log.contains(KEY), "the key in the log:\n{log}");
}
