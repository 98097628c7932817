//! What following costs on sim: the real binary with `serve --http` on a saved sim world; one
//! player session plays blocks of writes in turn alone and with `BENCH_FOLLOWERS` (100) other
//! sessions each subscribed to the player's adventurer and to the leaderboard
//! (`resources/subscribe`; each reads its notifications on its GET stream), side by side in one
//! run: each write's p50 and p90 as the player sees it, the server's resident memory per
//! subscription, and the notifications delivered. A benchmark, not a test:
//! `cargo bench --bench live_cost` (`BENCH_WRITES`, `BENCH_FOLLOWERS`).

use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

#[path = "support/http_session.rs"]
mod http_session;

use http_session::Session;

const BIN: &str = env!("CARGO_BIN_EXE_loot-survivor-mcp");

/// Writes per block; blocks alone and followed alternate.
const BLOCK: usize = 30;

/// A number from the environment, or `default`.
fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The server's resident memory, in KiB.
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// `n` writes on `id` by `player` (the next move each time, a new game when one dies), each
/// timed.
async fn play(player: &mut Session, id: &mut Value, n: usize) -> Vec<Duration> {
    let mut times = Vec::with_capacity(n);
    while times.len() < n {
        let adv = player
            .tool(
                "ls_get_adventurer",
                json!({"adventurer_id": id, "detail": "full"}),
            )
            .await["adventurer"]
            .clone();
        let (tool, args) = match adv["phase"].as_str().unwrap() {
            "dead" => ("ls_new_game", json!({"weapon": "Wand"})),
            "in_battle" => ("ls_attack", json!({"adventurer_id": id})),
            "stat_upgrade" => (
                "ls_upgrade",
                json!({"adventurer_id": id, "vitality": adv["stat_upgrades_available"]}),
            ),
            _ => ("ls_explore", json!({"adventurer_id": id})),
        };
        let at = Instant::now();
        let out = player.tool(tool, args).await;
        times.push(at.elapsed());
        if tool == "ls_new_game" {
            *id = out["adventurer_id"].clone();
        }
    }
    times
}

fn pct(times: &[Duration], p: f64) -> f64 {
    let i = ((times.len() - 1) as f64 * p).round() as usize;
    times[i].as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() {
    let followers = env("BENCH_FOLLOWERS", 100);
    let writes = env("BENCH_WRITES", 300);
    let home = tempfile::tempdir().unwrap();
    let port = loot_survivor_mcp::devnet::free_port().unwrap();
    let addr = format!("127.0.0.1:{port}");
    let mut server = tokio::process::Command::new(BIN)
        .args(["serve", "--http", &addr])
        .env("LS_HOME", home.path())
        .env("LS_CONFIG_DIR", "/nonexistent")
        .env("LS_POLICY__MAX_TX_PER_MINUTE", "100000")
        .env("LS_HTTP__MAX_TX_PER_MINUTE", "100000")
        .env_remove("LS_CHAIN")
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("start the server");
    let pid = server.id().unwrap();
    let url = format!("http://{addr}/mcp");
    http_session::wait_ready(&addr).await;
    let mut player = Session::open(&url).await;
    let mut id =
        player.tool("ls_new_game", json!({"weapon": "Wand"})).await["adventurer_id"].clone();
    play(&mut player, &mut id, 30).await;
    let rss_before = rss_kib(pid);
    let mut sessions = Vec::new();
    let mut streams = Vec::new();
    for _ in 0..followers {
        let s = Session::open(&url).await;
        streams.push(s.drain_notifications());
        sessions.push(s);
    }
    // Blocks of writes alone and followed in turn, so the machine's drift hits both alike; every
    // follower follows the leaderboard (every write changes it) and the player's adventurer.
    let (mut alone, mut followed) = (Vec::new(), Vec::new());
    let mut rss_after = 0;
    let rounds = writes.div_ceil(BLOCK);
    for _ in 0..rounds {
        alone.extend(play(&mut player, &mut id, BLOCK).await);
        let uris = [
            format!("ls://adventurer/{id}"),
            "ls://leaderboard".to_string(),
        ];
        for s in &mut sessions {
            for uri in &uris {
                s.request("resources/subscribe", json!({"uri": uri})).await;
            }
        }
        rss_after = rss_after.max(rss_kib(pid));
        followed.extend(play(&mut player, &mut id, BLOCK).await);
        for s in &mut sessions {
            for uri in &uris {
                s.request("resources/unsubscribe", json!({"uri": uri}))
                    .await;
            }
        }
    }
    alone.sort();
    followed.sort();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let _ = server.kill().await;
    let mut delivered = 0;
    for s in streams {
        delivered += s.await.unwrap_or(0);
    }

    println!(
        "live_cost: {} writes each, in blocks of {BLOCK} alone and followed in turn, sim saved world, serve --http (cargo bench --bench live_cost; BENCH_FOLLOWERS={followers})",
        alone.len()
    );
    println!("| followers | p50 ms | p90 ms |");
    println!("|---|---|---|");
    println!("| 0 | {:.2} | {:.2} |", pct(&alone, 0.5), pct(&alone, 0.9));
    println!(
        "| {followers} | {:.2} | {:.2} |",
        pct(&followed, 0.5),
        pct(&followed, 0.9)
    );
    println!(
        "p50 change: {:+.1} %",
        (pct(&followed, 0.5) / pct(&alone, 0.5) - 1.0) * 100.0
    );
    println!(
        "server RSS: {rss_before} KiB before the sessions, at most {rss_after} KiB with {followers} sessions following two things each: {:.1} KiB per subscription (its session included)",
        (rss_after as f64 - rss_before as f64) / (2 * followers.max(1)) as f64
    );
    println!(
        "notifications delivered to the followers: {delivered} ({:.1} per followed write)",
        delivered as f64 / followed.len() as f64
    );
}
