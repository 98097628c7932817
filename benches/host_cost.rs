//! What a host pays per game: a client that follows each compact result's `advice` line plays the
//! same hidden-seed dungeons on two variants of the server, "single-step" (today's advice: one
//! step a call) and "combined" (the advice names combined moves, one call per decision). Prints
//! JSON lines for `scripts/bench_host_cost.py`, which counts the tokens: first the run's knobs,
//! then per variant the tool definitions the client got (name, description and input schema of
//! each tool, what a host sends its model on every turn), each call
//! `{variant, game, tool, args, text, error}` (the request and the result's text content, what
//! the host hands the model) and each game `{variant, game, level, calls, txs, died, stopped}`
//! (`txs`: the transactions the game sent, counted by the sim chain).
//! `scripts/bench-host-cost.sh` runs both:
//!
//!     cargo bench --bench host_cost | python scripts/bench_host_cost.py
//!
//! (environment: `HOST_BENCH_GAMES`, default 40; `HOST_BENCH_SEED`, default 7919, a seed no
//! tuning has used).

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use loot_survivor_mcp::agent::Agent;
use loot_survivor_mcp::mcp::{LsServer, ServerOptions, tool_definition};
use serde_json::{Value, json};

#[path = "support/recorded_sim.rs"]
mod recorded_sim;
mod support;

use recorded_sim::RecordedSim;
use support::{env, options, sim};

/// The server variants, by name: whether the advice names combined moves.
const VARIANTS: [(&str, bool); 2] = [("single-step", false), ("combined", true)];

fn main() {
    let games = env("HOST_BENCH_GAMES", 40);
    let seed = env("HOST_BENCH_SEED", 7919);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut line = |v: Value| writeln!(out, "{v}").expect("stdout");
    line(json!({"games": games, "seed": seed}));

    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    rt.block_on(async {
        for (variant, combined) in VARIANTS {
            let chain = Arc::new(RecordedSim::new(sim(seed)));
            let opts = ServerOptions {
                chain: "sim".into(),
                strict: true,
                default_timeout: Duration::from_secs(5),
            };
            let server = LsServer::new(chain.clone(), opts).with_combined_moves(combined);
            let agent = Agent::connect(server).await.expect("connect");
            let definitions: Vec<String> = agent
                .tools()
                .iter()
                .map(|t| tool_definition(t).to_string())
                .collect();
            line(json!({"variant": variant, "tool_definitions": definitions}));
            for game in 0..games {
                let (opts, mut calls) = (options(game), Vec::new());
                let sent = chain.txs();
                let played = agent
                    .follow_advice_recorded(&opts.weapon, opts.max_actions, &mut |c| {
                        calls.push(json!({
                            "variant": variant, "game": game, "tool": c.tool,
                            "args": c.args, "text": c.text, "error": c.error,
                        }));
                    })
                    .await;
                let n = calls.len();
                let txs = chain.txs() - sent;
                calls.into_iter().for_each(&mut line);
                line(match played {
                    Ok(g) => json!({
                        "variant": variant, "game": game, "level": g.level, "calls": n,
                        "txs": txs, "died": g.died, "stopped": g.error,
                    }),
                    Err(e) => json!({
                        "variant": variant, "game": game, "level": 0, "calls": n,
                        "txs": txs, "died": false, "stopped": e.to_string(),
                    }),
                });
            }
            agent.close().await;
        }
    });
}
