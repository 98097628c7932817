//! Writes and reads on devnet, measured against what they cannot beat. A benchmark, not a test:
//! run `scripts/bench-writes.sh` (release build).
//!
//! Writes: whole games played by one scripted policy (explore, attack, flee, buy, equip, drop,
//! upgrade, new game) through our server (the real binary over MCP stdio) and through a plain
//! starknet-rs client making the same game calls (fee estimate, send, receipt polling), each
//! once straight to devnet and once through the counting proxy: p50/p95 latency per write tool,
//! and JSON-RPC requests per confirmed write per method (mean over the games). Decisions are made
//! from a direct, untimed `get_game_state` read, so both sides play by the same rule. Each run
//! plays in its own copy of the practice world (same class, another salt) whose randomness
//! depends only on the adventurer id and xp, so the four runs mint the same ids and play the very
//! same games, write for write: the node does the same work for each, and the difference is the
//! client's.
//!
//! Following: on a devnet closing a block every second, our writes with `tx.follow = subscribe`
//! (WebSocket push) and `poll` (status polling), latency and requests per write.
//!
//! Reads: `ls_get_adventurer` and `ls_battle_preview` through the server next to replaying the
//! very requests the tool sent (captured at the proxy) raw to devnet, plus the MCP round trip of
//! a `ping` to the same server (the floor of any tool): ratio = tool / (raw replay + floor).

#[path = "../../tests/it/common/mod.rs"]
mod common;

mod plain;
mod policy;
mod reads;
mod runs;
mod samples;
mod worlds;

use std::collections::BTreeMap;

use reads::{follow_modes, reads};
use runs::writes;
use samples::{ms, percentile};

/// A run size from the environment, else its default.
fn size(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let games: usize = size("BENCH_GAMES", 8);
    let world = common::world().await;
    let direct = world.devnet.url.clone();
    let (proxy_url, faults) = common::proxy::start(direct.clone()).await;

    let runs = writes(&world, &proxy_url, &faults, games).await;

    println!(
        "Writes on starknet-devnet 0.10.1 (one block per transaction), {games} games per run; \
         the first receipt request finds every transaction in its block, so neither side polls \
         or subscribes (ws subscriptions counted: {})",
        faults.count("ws")
    );
    let same = runs.iter().all(|(_, _, s)| s.order == runs[0].2.order);
    println!(
        "Each run in its own copy of the world: the four played the same {} writes in the same order: {}",
        runs[0].2.order.len(),
        if same { "yes" } else { "NO" }
    );
    println!(
        "{:<14} {:<12} {:<7} {:>5} {:>9} {:>9} {:>10} {:>11}",
        "tool", "client", "via", "n", "p50 ms", "p95 ms", "req/write", "own p50 ms"
    );
    let tools: Vec<&str> = {
        let mut t: Vec<&str> = runs
            .iter()
            .flat_map(|(_, _, s)| s.latency.keys().copied())
            .collect();
        t.sort();
        t.dedup();
        t
    };
    let mut ratios = Vec::new();
    for tool in &tools {
        let mut p50 = BTreeMap::new();
        for (who, via, s) in &runs {
            let Some(l) = s.latency.get(tool) else {
                continue;
            };
            let req = s.requests.get(tool).map_or(String::from("-"), |r| {
                format!("{:.2}", r.iter().sum::<usize>() as f64 / r.len() as f64)
            });
            let own = s.own.get(tool).map_or(String::from("-"), |o| {
                format!("{:.2}", ms(percentile(o, 0.5)))
            });
            println!(
                "{:<14} {:<12} {:<7} {:>5} {:>9.1} {:>9.1} {:>10} {:>11}",
                tool,
                who,
                via,
                l.len(),
                ms(percentile(l, 0.5)),
                ms(percentile(l, 0.95)),
                req,
                own
            );
            p50.insert((*who, *via), ms(percentile(l, 0.5)));
        }
        for via in ["direct", "proxy"] {
            if let (Some(o), Some(p)) = (p50.get(&("ours", via)), p50.get(&("starknet-rs", via))) {
                ratios.push(format!("{tool} {via} {:.2}", o / p));
            }
        }
    }
    println!("write p50 ours / starknet-rs: {}", ratios.join(", "));
    let node_of = |who: &str| {
        runs.iter()
            .find(|(w, via, _)| *w == who && *via == "proxy")
            .map(|(_, _, s)| &s.node)
    };
    if let (Some(ours), Some(plain)) = (node_of("ours"), node_of("starknet-rs")) {
        let per_method: Vec<String> = ours
            .iter()
            .filter_map(|(method, o)| {
                let p = plain.get(method)?;
                Some(format!(
                    "{method} {:.2} / {:.2}",
                    ms(percentile(o, 0.5)),
                    ms(percentile(p, 0.5))
                ))
            })
            .collect();
        println!(
            "node time per request of the game actions, p50 ms, ours / starknet-rs (via proxy): {}",
            per_method.join(", ")
        );
    }

    let rounds: usize = size("BENCH_READS", 300);
    let follow_writes: usize = size("BENCH_FOLLOW_WRITES", 30);
    println!(
        "Following pending transactions: ours on devnet with 1 s blocks, {follow_writes} writes per mode, through the proxy"
    );
    for (follow, p50, p95, http, ws) in follow_modes(follow_writes).await {
        println!(
            "tx.follow = {follow:<9} p50 {:>7.1} ms  p95 {:>7.1} ms  HTTP requests/write {http:.2}  subscriptions/write {ws:.2}",
            ms(p50),
            ms(p95)
        );
    }
    println!(
        "Reads, p50 of {rounds}: the tool through the server, its captured requests replayed raw, an MCP ping (floor)"
    );
    for r in reads(&world, rounds).await {
        println!(
            "{:<34} tool {:>6.2} ms  raw {:>6.2} ms  ping {:>6.2} ms  ratio {:.2}  (via proxy: {:>6.2} ms, own {:>5.2} ms)",
            r.tool,
            r.through,
            r.raw,
            r.floor,
            r.through / (r.raw + r.floor),
            r.proxied,
            r.own
        );
    }
}
