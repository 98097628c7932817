//! Whether the advice line carries the planner's play: on the same hidden-seed dungeons, the
//! planner plays each game on the engine as `play` does, and a client that reads only the compact
//! results' text and follows only their `advice` line plays it through MCP. Prints both levels'
//! median, p10 and p90, how many games ended the same, and the paired difference with its standard
//! error. A benchmark, not a test:
//!
//!     cargo bench --bench advice
//!
//! (environment: `ADVICE_BENCH_GAMES`, default 1000; `ADVICE_BENCH_SEED`, default 2026).

use std::time::Instant;

use loot_survivor_mcp::agent::direct::play_on_sim;
use loot_survivor_mcp::agent::report::Spread;
use loot_survivor_mcp::agent::{Agent, Params};
use loot_survivor_mcp::mcp::LsServer;

const MAX_ACTIONS: u32 = 3000;

mod support;

use support::{env, options, sim, weapon};

fn spread(levels: &[f64]) -> String {
    let s = Spread::of(levels);
    format!("median {}, p10 {}, p90 {}", s.median, s.p10, s.p90)
}

fn main() {
    let games = env("ADVICE_BENCH_GAMES", 1000);
    let seed = env("ADVICE_BENCH_SEED", 2026);
    println!("ADVICE_BENCH_GAMES={games} ADVICE_BENCH_SEED={seed} cargo bench --bench advice");

    let world = sim(seed);
    let clock = Instant::now();
    let planner: Vec<f64> = (0..games)
        .map(|i| {
            let g =
                play_on_sim(&world, &options(i), Params::default(), &mut |_| {}).expect("a game");
            f64::from(g.level)
        })
        .collect();
    let planner_wall = clock.elapsed();

    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let (followed, follow_wall) = rt.block_on(async {
        let agent = Agent::connect(LsServer::on_sim(sim(seed), true))
            .await
            .expect("connect");
        let clock = Instant::now();
        let mut levels = Vec::new();
        let mut calls = Vec::new();
        for i in 0..games {
            let g = agent
                .follow_advice(weapon(i), MAX_ACTIONS)
                .await
                .expect("a followed game");
            assert!(
                g.error.is_none(),
                "game {i} stopped on an error: {:?}",
                g.error
            );
            levels.push(g.level as f64);
            calls.push(f64::from(g.actions));
        }
        let wall = clock.elapsed();
        agent.close().await;
        println!("calls per followed game: {}", spread(&calls));
        (levels, wall)
    });

    let diffs: Vec<f64> = followed.iter().zip(&planner).map(|(f, p)| f - p).collect();
    let n = diffs.len() as f64;
    let mean = diffs.iter().sum::<f64>() / n;
    let sd = (diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
    let same = diffs.iter().filter(|d| **d == 0.0).count();
    println!(
        "planner on the engine: level {} ({:.1} s)",
        spread(&planner),
        planner_wall.as_secs_f64()
    );
    println!(
        "client following only the advice line, over MCP from compact text: level {} ({:.1} s)",
        spread(&followed),
        follow_wall.as_secs_f64()
    );
    println!(
        "paired over {games} dungeons: same level in {same}, difference (advice - planner) mean {mean:+.3}, standard error {:.3}",
        sd / n.sqrt()
    );
}
