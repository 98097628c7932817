//! The Denshokan API is a third party: through the real binary (`serve --profile mainnet`, its
//! node a closed port, its indexer the stand-in of tests/it/denshokan_support), an API that sends
//! every row whatever the limit costs no more `/rank` requests than the rows asked for, a player
//! name carrying a terminal's escape codes reaches the model without them, and an API key in the
//! indexer's URL is hidden when the API echoes it back. An API key set apart
//! (`LS_DENSHOKAN_API_KEY`) goes in the `X-API-Key` header of every request, is never shown even
//! when echoed, and the API's 401 (key refused) and 409 (ambiguous id) come back as typed,
//! non-retryable errors that say what to do.

use crate::common;
use crate::denshokan_support;

use denshokan_support::{FakeDenshokan, Fault, Row};
use loot_survivor_mcp::devnet::free_port;
use serde_json::json;

/// The key the indexer URL carries; never shown.
const KEY: &str = "s3cr3tDenshokanKey9";
/// The key given as `LS_DENSHOKAN_API_KEY`; never shown.
const HEADER_KEY: &str = "dk_live_7Rq2Wz9Lm4";

/// `serve --profile mainnet` on a closed node port, reading the Denshokan API at `url` with
/// `extra` in its environment.
async fn serve_mainnet(url: &str, extra: &[(&str, &str)]) -> common::Client {
    let port = free_port().expect("a free port");
    let rpc: url::Url = format!("http://127.0.0.1:{port}").parse().unwrap();
    let mut env = vec![
        ("LS_WALLET_KIND", "session"),
        (
            "LS_ACCOUNT_ADDRESS",
            "0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde",
        ),
        (
            "LS_KEYSTORE_PASSWORD",
            "not used until a session is approved",
        ),
        ("LS_DENSHOKAN_URL", url),
    ];
    env.extend_from_slice(extra);
    common::serve_profile(
        "mainnet",
        &rpc,
        std::path::Path::new("no-manifest-on-v2.json"),
        (),
        &env,
    )
    .await
}

#[tokio::test]
async fn a_lying_or_hostile_denshokan_api_is_bounded_cleaned_and_its_key_hidden() {
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
    let client = serve_mainnet(&keyed, &[]).await;

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

#[tokio::test]
async fn the_api_key_goes_in_its_header_and_401_and_409_are_typed() {
    let denshokan = FakeDenshokan::start().await;
    denshokan.add((1..=6).map(|n| Row::new(&n.to_string(), "0xa11ce", 100 - u64::from(n), n)));
    let client = serve_mainnet(&denshokan.url, &[("LS_DENSHOKAN_API_KEY", HEADER_KEY)]).await;

    // The API holds no key yet: the one sent is refused.
    let refused = client
        .err(
            "ls_get_leaderboard",
            json!({"scope": "all"}),
            "INDEXER_ERROR",
        )
        .await;
    assert_eq!(refused["details"]["kind"], "unauthorized", "{refused}");
    assert_eq!(refused["retryable"], false, "{refused}");
    assert!(
        refused["hint"]
            .as_str()
            .unwrap()
            .contains("deployment.indexer_api_key"),
        "{refused}"
    );

    denshokan.accept_key(HEADER_KEY);
    let args = json!({"scope": "all", "live_only": true, "limit": 3});
    let board = client.ok("ls_get_leaderboard", args.clone()).await;
    assert_eq!(board["rows"].as_array().unwrap().len(), 3, "{board}");
    let log = denshokan.log();
    assert!(log.len() >= 4, "a page and its ranks: {log:?}");
    assert!(
        log.iter().all(|l| l.api_key.as_deref() == Some(HEADER_KEY)),
        "every request carries the key: {log:?}"
    );

    // The page is cached for a few seconds: the next request is a rank, answered 409
    // (Provable-Games/denshokan at `2527bda`, an id the API holds under more than one game).
    denshokan.fault(Fault::Json(409, r#"{"error": "Ambiguous token ID"}"#));
    let ambiguous = client
        .err("ls_get_leaderboard", args, "INDEXER_ERROR")
        .await;
    assert_eq!(ambiguous["details"]["kind"], "ambiguous", "{ambiguous}");
    assert_eq!(ambiguous["retryable"], false, "{ambiguous}");
    assert!(
        ambiguous["hint"]
            .as_str()
            .unwrap()
            .starts_with("ls_get_adventurer"),
        "{ambiguous}"
    );

    denshokan.fault(Fault::Json(
        400,
        r#"{"error": "quota spent for key dk_live_7Rq2Wz9Lm4"}"#,
    ));
    let echoed = client
        .err(
            "ls_get_leaderboard",
            json!({"scope": "all", "limit": 2}),
            "INDEXER_ERROR",
        )
        .await;
    assert!(
        echoed.to_string().contains("quota spent for key"),
        "{echoed}"
    );
    for shown in [&refused, &ambiguous, &echoed] {
        assert!(!shown.to_string().contains(HEADER_KEY), "{shown}");
    }
    let log = client.shutdown().await;
    assert!(!log.contains(HEADER_KEY), "the key in the log:\n{log}");
}
