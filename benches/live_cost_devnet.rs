//! What following costs the node on devnet: server A (`serve --http`, its node behind the
//! counting proxy) with `BENCH_SESSIONS` (20) sessions each subscribed to the leaderboard and to
//! a game of server B (another devnet account, straight to devnet), while B makes `BENCH_WRITES`
//! (20) writes, one block each. Printed per mode of A's change feed (`tx.follow = auto`: one
//! WebSocket subscription; `poll`: `starknet_getEvents` by block): A's node requests per new
//! block by method, its WebSockets, its requests while followed but quiet and after everyone
//! unsubscribed, and the notifications delivered. A benchmark, not a test:
//! `cargo bench --bench live_cost_devnet` (`BENCH_GENERATION=v2` for the v2 practice world).

#[path = "../tests/it/common/mod.rs"]
mod common;

#[path = "support/http_session.rs"]
mod http_session;

use std::collections::BTreeMap;
use std::process::Stdio;
use std::time::Duration;

use serde_json::json;

use http_session::Session;

/// Devnet's predeployed account #1 (seed 0) and its key: server B's player.
const ACCOUNT_1: &str = "0x078662e7352d062084b0010068b99288486c2d8b914f6e2a55ce945f8792c8b1";
const KEY_1: &str = "0xe1406455b7d66b1690803be066cbe5e";

/// How long the quiet phases last.
const QUIET: Duration = Duration::from_secs(5);

/// A number from the environment, or `default`.
fn knob(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Requests the proxy saw from index `from` on, by method.
fn since(faults: &common::proxy::Faults, from: usize) -> BTreeMap<String, usize> {
    let mut by = BTreeMap::new();
    for (m, _) in faults.seen.lock().unwrap().iter().skip(from) {
        *by.entry(m.clone()).or_insert(0) += 1;
    }
    by
}

fn seen(faults: &common::proxy::Faults) -> usize {
    faults.seen.lock().unwrap().len()
}

async fn block(url: &url::Url) -> u64 {
    common::rpc(url, "starknet_blockNumber", json!([]))
        .await
        .as_u64()
        .unwrap()
}

/// Server A over HTTP on `rpc` (the proxy) with `env` and its data in `home`; killed on drop.
async fn serve_http(
    rpc: &url::Url,
    home: &std::path::Path,
    env: &[(&str, &str)],
) -> (tokio::process::Child, String) {
    let port = loot_survivor_mcp::devnet::free_port().unwrap();
    let addr = format!("127.0.0.1:{port}");
    let mut cmd = tokio::process::Command::new(common::BIN);
    cmd.args(["serve", "--http", &addr, "--profile", "devnet", "--rpc-url"])
        .arg(rpc.as_str())
        .env("LS_HOME", home)
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let server = cmd.spawn().expect("start server A");
    http_session::wait_ready(&addr).await;
    (server, format!("http://{addr}/mcp"))
}

/// One run with A's feed in `follow` mode; prints its line.
async fn run(devnet: &url::Url, file: &std::path::Path, env: &[(&str, &str)], follow: &str) {
    let (sessions, writes) = (knob("BENCH_SESSIONS", 20), knob("BENCH_WRITES", 20));
    let (proxy, faults) = common::proxy::start(devnet.clone()).await;
    let file_env = file.display().to_string();
    let mut a_env = env.to_vec();
    a_env.extend([
        ("LS_MANIFEST", file_env.as_str()),
        ("LS_TX__FOLLOW", follow),
    ]);
    let home = tempfile::tempdir().unwrap();
    let (mut server, url) = serve_http(&proxy, home.path(), &a_env).await;
    let mut b_env = env.to_vec();
    b_env.extend([("LS_PRIVATE_KEY", KEY_1), ("LS_ACCOUNT_ADDRESS", ACCOUNT_1)]);
    let b = common::serve_profile("devnet", devnet, file, (), &b_env).await;
    let id = b.ok("ls_new_game", json!({"weapon": "Wand"})).await["adventurer_id"].clone();
    let shown = id.as_str().map_or_else(|| id.to_string(), String::from);
    let uris = [
        format!("ls://adventurer/{shown}"),
        "ls://leaderboard".into(),
    ];
    let mut followers = Vec::new();
    let mut streams = Vec::new();
    for _ in 0..sessions {
        let mut s = Session::open(&url).await;
        streams.push(s.drain_notifications());
        for uri in &uris {
            s.request("resources/subscribe", json!({"uri": uri})).await;
        }
        followers.push(s);
    }
    // Quiet but followed, then B's writes, one block each.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let quiet_from = seen(&faults);
    tokio::time::sleep(QUIET).await;
    let quiet = seen(&faults) - quiet_from;
    let (from, first_block) = (seen(&faults), block(devnet).await);
    let mut id = id;
    for _ in 0..writes {
        let adv = b.adventurer(&id).await;
        if adv["phase"] == "dead" {
            id = b.ok("ls_new_game", json!({"weapon": "Wand"})).await["adventurer_id"].clone();
            continue;
        }
        let (tool, args) = common::v2_replay::next_move(&id, &adv);
        b.ok(tool, args).await;
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let blocks = block(devnet).await - first_block;
    let during = since(&faults, from);
    for s in &mut followers {
        for uri in &uris {
            s.request("resources/unsubscribe", json!({"uri": uri}))
                .await;
        }
    }
    let left = followers[0].tool("ls_subscriptions", json!({})).await["subscriptions"].clone();
    assert_eq!(left, json!([]), "everyone unsubscribed");
    tokio::time::sleep(Duration::from_secs(1)).await;
    let after_from = seen(&faults);
    tokio::time::sleep(QUIET).await;
    let after = seen(&faults) - after_from;
    let _ = server.kill().await;
    b.shutdown().await;
    let mut delivered = 0;
    for s in streams {
        delivered += s.await.unwrap_or(0);
    }
    let total: usize = during.values().sum();
    let ws = faults.count("ws");
    let by: Vec<String> = during.iter().map(|(m, n)| format!("{m} {n}")).collect();
    println!(
        "| {follow} | {sessions} | {blocks} | {total} ({}) | {:.2} | {ws} | {:.1} | {after} | {delivered} |",
        by.join(", "),
        total as f64 / blocks.max(1) as f64,
        quiet as f64 / QUIET.as_secs_f64(),
    );
}

#[tokio::main]
async fn main() {
    let v2 = std::env::var("BENCH_GENERATION").is_ok_and(|g| g == "v2");
    let devnet = common::start_devnet(&[]).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("deployment.json");
    let args: &[&str] = if v2 { &["--generation", "v2"] } else { &[] };
    common::devnet_deploy(&devnet.url, args, &file).await;
    let file_env = file.display().to_string();
    let env: Vec<(&str, &str)> = if v2 {
        vec![
            ("LS_GENERATION", "v2"),
            ("LS_DEPLOYMENT__DEPLOYMENT_FILE", file_env.as_str()),
        ]
    } else {
        vec![]
    };
    println!(
        "live_cost_devnet: {} practice world, B's writes straight to devnet, A behind the counting proxy (cargo bench --bench live_cost_devnet)",
        if v2 { "v2" } else { "v1" }
    );
    println!(
        "| A's feed | sessions | new blocks | A's requests while B wrote (by method) | per new block | WebSockets | requests/s followed, quiet | requests in 5 s after all unsubscribed | notifications delivered |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for follow in ["auto", "poll"] {
        run(&devnet.url, &file, &env, follow).await;
    }
}
