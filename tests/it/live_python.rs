//! Following an adventurer with the official Python SDK (PyPI `mcp`) through the real binary on
//! sim, in each protocol era (`tests/python/live_watch.py`): a 2025-11-25 session by
//! `resources/subscribe`, a 2026-07-28 session (`server/discover`, no `initialize`) by
//! `subscriptions/listen`. Each write's update arrives within 1 s, `resources/read` then equals
//! `ls_get_adventurer`, nothing arrives after stopping, and nothing is left subscribed.

use std::process::Stdio;

use serde_json::Value;

use crate::common;
use crate::http_support::python;

/// Runs the script in `era`, its server's data directory a fresh one; its JSON summary.
async fn watch(era: &str) -> Value {
    let home = tempfile::tempdir().unwrap();
    let script =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/live_watch.py");
    let out = tokio::process::Command::new(python())
        .arg(&script)
        .arg(common::BIN)
        .arg(era)
        .arg("4")
        .env("LS_HOME", home.path())
        .env_remove("LS_CHAIN")
        .env("LS_CONFIG_DIR", "/nonexistent")
        .env("RUST_LOG", "warn")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdin(Stdio::null())
        .kill_on_drop(true)
        .output()
        .await
        .expect("run live_watch.py");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "live_watch.py {era}: {}\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let last = stdout.lines().last().expect("a summary line");
    serde_json::from_str(last).unwrap_or_else(|e| panic!("{e}: {last}"))
}

#[tokio::test]
async fn the_python_sdk_follows_a_game_in_each_era() {
    for (era, version) in [("legacy", "2025-11-25"), ("modern", "2026-07-28")] {
        let s = watch(era).await;
        assert_eq!(s["protocol_version"], version, "{s}");
        let delays = s["delays_ms"].as_array().unwrap();
        assert_eq!(delays.len(), 4, "{s}");
        assert!(
            delays.iter().all(|d| d.as_f64().unwrap() < 1000.0),
            "every update within 1 s: {s}"
        );
        assert_eq!(s["after_stop"], 0, "nothing after stopping: {s}");
        assert_eq!(s["left"], 0, "nothing left subscribed: {s}");
    }
}
