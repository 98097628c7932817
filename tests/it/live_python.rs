//! Following adventurers with the official Python SDK (PyPI `mcp`) through the real binary, in
//! each protocol era (`tests/python/live_watch.py`): a 2025-11-25 session by `resources/subscribe`,
//! a 2026-07-28 session (`server/discover`, no `initialize`) by `subscriptions/listen`. The session
//! follows its own game and then a game another process plays: on sim a second server on the same
//! data directory, on starknet-devnet (v1 and v2) a second server signing with another account.
//! Each write's update arrives within 1 s (sim) or 2 s (devnet), `resources/read` then equals
//! `ls_get_adventurer`, nothing arrives after stopping, and nothing is left subscribed; on sim a
//! session following 100 things is refused a 101st in each era.

use std::process::Stdio;

use serde_json::{Value, json};

use crate::common;
use crate::http_support::python;

/// Devnet's account #1 (seed 0) and its key: the other server's wallet.
const ACCOUNT_1: &str = "0x078662e7352d062084b0010068b99288486c2d8b914f6e2a55ce945f8792c8b1";
const KEY_1: &str = "0xe1406455b7d66b1690803be066cbe5e";

/// Runs the script in `era` with the server `args` and `env`; its JSON summary.
async fn watch(era: &str, args: &[&str], env: &[(&str, String)]) -> Value {
    let script =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/live_watch.py");
    let mut cmd = tokio::process::Command::new(python());
    cmd.arg(&script)
        .arg(common::BIN)
        .arg(era)
        .arg("4")
        .args(args)
        .env_remove("LS_CHAIN")
        .env("LS_CONFIG_DIR", "/nonexistent")
        .env("RUST_LOG", "warn")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdin(Stdio::null())
        .kill_on_drop(true);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().await.expect("run live_watch.py");
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

/// Checks one era's summary: every update within `limit_ms`, for both games.
fn check(s: &Value, version: &str, limit_ms: f64) {
    assert_eq!(s["protocol_version"], version, "{s}");
    for key in ["delays_ms", "other_delays_ms"] {
        let delays = s[key].as_array().unwrap();
        assert_eq!(delays.len(), 4, "{key}: {s}");
        assert!(
            delays.iter().all(|d| d.as_f64().unwrap() < limit_ms),
            "{key}: every update within {limit_ms} ms: {s}"
        );
    }
    assert_eq!(s["after_stop"], 0, "nothing after stopping: {s}");
    assert_eq!(s["left"], 0, "nothing left subscribed: {s}");
}

const ERAS: [(&str, &str); 2] = [("legacy", "2025-11-25"), ("modern", "2026-07-28")];

#[tokio::test]
async fn the_python_sdk_follows_a_game_in_each_era() {
    for (era, version) in ERAS {
        let home = tempfile::tempdir().unwrap();
        let env = [
            ("LS_HOME", home.path().display().to_string()),
            ("LIVE_WATCH_LIMIT", "1".into()),
        ];
        let s = watch(era, &[], &env).await;
        check(&s, version, 1000.0);
        let refused = s["limit"].as_str().unwrap_or_default();
        assert!(refused.contains("100"), "the 101st is refused: {s}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_follows_another_accounts_game_on_devnet_in_each_era() {
    let world = common::world().await;
    let dir = tempfile::tempdir().unwrap();
    let v2_file = dir.path().join("v2.json");
    common::devnet_deploy(&world.devnet.url, &["--generation", "v2"], &v2_file).await;
    let manifest = world.manifest.display().to_string();
    let v2 = v2_file.display().to_string();
    let url = world.devnet.url.to_string();
    let args = ["serve", "--profile", "devnet", "--rpc-url", url.as_str()];
    for (generation, deployment) in [("v1", None), ("v2", Some(v2.as_str()))] {
        for (era, version) in ERAS {
            let (home, other_home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
            let mut env = vec![
                ("LS_HOME", home.path().display().to_string()),
                ("LS_MANIFEST", manifest.clone()),
            ];
            if let Some(file) = deployment {
                env.push(("LS_GENERATION", "v2".into()));
                env.push(("LS_DEPLOYMENT__DEPLOYMENT_FILE", file.into()));
            }
            let writer = json!({
                "LS_HOME": other_home.path(),
                "LS_PRIVATE_KEY": KEY_1,
                "LS_ACCOUNT_ADDRESS": ACCOUNT_1,
            });
            env.push(("LIVE_WATCH_WRITER_ENV", writer.to_string()));
            let s = watch(era, &args, &env).await;
            eprintln!("{generation} {era}: {s}");
            check(&s, version, 2000.0);
        }
    }
}
