//! A move on an adventurer the server last saw dead is refused before anything reaches the node:
//! through the real binary on the v2 practice world (devnet, behind the counting proxy of
//! tests/it/common/proxy.rs), a game is surrendered, and the write tools called on it afterwards
//! answer `VALIDATION_ERROR` (`ADVENTURER_DEAD`, naming the adventurer and `ls_new_game`) with no
//! request at the proxy: no estimate, no simulation, no send, not even a read.

use crate::common;

use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_on_a_dead_adventurer_never_reaches_the_node() {
    let devnet = common::start_devnet(&[]).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("v2.json");
    common::devnet_deploy(&devnet.url, &["--generation", "v2"], &file).await;
    let (proxy, seen) = common::proxy::start(devnet.url.clone()).await;
    let server = common::serve_v2(&proxy, &file, &[]).await;

    let started = server.ok("ls_new_game", json!({"weapon": "Wand"})).await;
    let id = started["adventurer_id"].clone();
    // A v2 id is a decimal string (251 bits).
    let id_text = id.as_str().map_or_else(|| id.to_string(), str::to_string);
    let gone = server
        .ok(
            "ls_surrender",
            json!({"adventurer_id": id, "confirm_surrender": true}),
        )
        .await;
    assert_eq!(gone["adventurer"]["phase"], "dead", "{gone}");

    let before = seen.seen.lock().unwrap().len();
    for (tool, args) in [
        ("ls_attack", json!({"adventurer_id": id})),
        ("ls_explore", json!({"adventurer_id": id})),
        ("ls_buy_item", json!({"adventurer_id": id, "potions": 1})),
        (
            "ls_surrender",
            json!({"adventurer_id": id, "confirm_surrender": true}),
        ),
    ] {
        let e = server.err(tool, args, "VALIDATION_ERROR").await;
        assert_eq!(
            e["details"]["reason_code"], "ADVENTURER_DEAD",
            "{tool}: {e}"
        );
        assert_eq!(e["retryable"], false, "{tool}: {e}");
        let message = e["message"].as_str().unwrap();
        assert!(
            message.starts_with(&format!("adventurer {id_text} is dead")),
            "{tool}: {message}"
        );
        assert!(
            e["hint"].as_str().unwrap().contains("ls_new_game"),
            "{tool}: {e}"
        );
    }
    let reached: Vec<String> = seen.seen.lock().unwrap()[before..]
        .iter()
        .map(|(m, _)| m.clone())
        .collect();
    assert!(reached.is_empty(), "the node saw {reached:?}");

    let read = server
        .ok("ls_get_adventurer", json!({"adventurer_id": id}))
        .await;
    assert_eq!(
        read["adventurer"]["phase"], "dead",
        "reads still work: {read}"
    );
    server.shutdown().await;
}
