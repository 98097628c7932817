//! One server process over a long run: the real binary over MCP stdio, on a fresh sim world,
//! plays `BENCH_GAMES` games (10,000) one after another with a fixed policy (a new game with a
//! wand, then points to vitality, attack a beast to the death, else explore till a beast, until
//! death), and prints its resident memory (`VmRSS` of /proc/<pid>/status) after the handshake and
//! every `BENCH_EVERY` games (1,000), with the calls made and the time taken. The target: the end
//! within 1.2× of the value at the first mark. A benchmark, not a test: `cargo bench --bench
//! long_run` (`LS_BIN=<path>` to run another build of the server, e.g. an older one).

#[path = "../tests/it/common/mcp.rs"]
#[allow(dead_code)]
mod mcp;

use std::time::Instant;

use rmcp::service::{RoleClient, RunningService};
use serde_json::json;

/// A run size from the environment, else its default.
fn size(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The resident memory of a process, in MB.
fn rss_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .expect("VmRSS");
    kb / 1024.0
}

/// Plays one game to its end (the phase in each result says what to do); returns the
/// calls made.
async fn play(s: &RunningService<RoleClient, ()>) -> usize {
    let mut out = mcp::ok(s, "ls_new_game", mcp::full(json!({"weapon": "wand"}))).await;
    let id = out["adventurer_id"].as_u64().expect("an id");
    let mut calls = 1;
    loop {
        let phase = out["adventurer"]["phase"].as_str();
        let (tool, args) = match phase.or(out["state"]["phase"].as_str()) {
            Some("dead") => return calls,
            Some("in_battle") => (
                "ls_attack",
                json!({"adventurer_id": id, "to_the_death": true}),
            ),
            Some("stat_upgrade") => (
                "ls_upgrade",
                json!({"adventurer_id": id,
                       "vitality": out["adventurer"]["stat_upgrades_available"]}),
            ),
            Some("exploring") => (
                "ls_explore",
                json!({"adventurer_id": id, "till_beast": true}),
            ),
            other => panic!("adventurer {id}: phase {other:?}: {out}"),
        };
        out = mcp::ok(s, tool, mcp::full(args)).await;
        calls += 1;
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let games = size("BENCH_GAMES", 10_000);
    let every = size("BENCH_EVERY", 1_000).max(1);
    let bin = std::env::var("LS_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_loot-survivor-mcp").to_string());
    // On the disk the target folder is on (/tmp may be in memory, where a sync costs nothing).
    let home = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("a data directory");
    let (server, pid) = mcp::sim_server(&bin, home.path(), &[], &[]).await;
    println!(
        "Long run: {bin} over stdio, fresh sim world in {}, {games} games, one client",
        home.path().display()
    );
    println!(
        "{:>7} {:>9} {:>9} {:>10}",
        "games", "RSS MB", "calls", "elapsed s"
    );
    let t = Instant::now();
    let start_rss = rss_mb(pid);
    println!("{:>7} {start_rss:>9.1} {:>9} {:>10.1}", 0, 0, 0.0);
    let (mut calls, mut marks) = (0, Vec::new());
    for n in 1..=games {
        calls += play(&server).await;
        if n % every == 0 || n == games {
            let rss = rss_mb(pid);
            marks.push(rss);
            println!(
                "{n:>7} {rss:>9.1} {calls:>9} {:>10.1}",
                t.elapsed().as_secs_f64()
            );
        }
    }
    if let (Some(first), Some(last)) = (marks.first(), marks.last()) {
        println!(
            "End over the first mark: {:.2}× (target ≤ 1.2×); {:.0} calls/s",
            last / first,
            calls as f64 / t.elapsed().as_secs_f64()
        );
    }
    server.cancel().await.ok();
}
