//! What a model reads per game, compact vs full: the built-in agent plays each game on the sim
//! chain (deciding from full results, as it must); a recording backend notes every action it
//! takes; the same actions are then replayed through MCP on two fresh, identical sim worlds, one
//! asking for `detail: "compact"` and one for `"full"`. The sim is deterministic for a given
//! adventurer id, so both replays are the very same game. Prints one JSON line per result
//! (`{"game", "detail", "tool", "text"}`, the text content a host hands the model) and, first, the
//! size of `tools/list` and each tool's definition (name, description, input schema) as JSON. `scripts/bench-tokens.sh` runs it and counts tokens.
//! With `TOKENS_TOOLS_LIST=FILE` it also writes the whole `tools/list` JSON to FILE, so two builds'
//! outputs can be compared byte for byte. With `TOKENS_ADVICE_COST=1` it also replays each game's
//! compact results without the advice line and prints to stderr what a result costs with it and
//! without it (the time of the call, over MCP in memory).
//!
//!     cargo bench --bench tokens -- GAMES

use std::io::{self, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use loot_survivor_mcp::agent::{Agent, AgentOptions, tool_call};
use loot_survivor_mcp::game::engine::Action;
use loot_survivor_mcp::game::engine::EngineSettings;
use loot_survivor_mcp::mcp::{LsServer, ServerOptions, tool_definition};
use loot_survivor_mcp::sim::SimChain;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{RoleClient, RunningService};
use serde_json::{Value, json};

#[path = "support/recorded_sim.rs"]
mod recorded_sim;

use recorded_sim::RecordedSim;

/// The server as served by default (`server.strict = true`: its input schemas say unknown keys
/// are refused).
fn options() -> ServerOptions {
    ServerOptions {
        chain: "sim".into(),
        strict: true,
        default_timeout: Duration::from_secs(5),
    }
}

async fn client(server: LsServer) -> RunningService<RoleClient, ()> {
    let (client_io, server_io) = tokio::io::duplex(1 << 22);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    ().serve(client_io).await.expect("initialize")
}

/// Replays `actions` on a fresh world asking for `detail`, the advice line on or off; returns the
/// time each call took, in order.
async fn replay(
    first_id: u64,
    actions: &[Action],
    (detail, advice): (&str, bool),
    game: u64,
    out: &mut impl Write,
) -> Vec<Duration> {
    let c = client(
        LsServer::new(
            Arc::new(SimChain::new(EngineSettings::default(), first_id)),
            options(),
        )
        .with_advice(advice),
    )
    .await;
    let mut spent = Vec::with_capacity(actions.len());
    for action in actions {
        let (tool, args) = tool_call(first_id.into(), action);
        let mut args = args;
        args["detail"] = json!(detail);
        let Value::Object(map) = args else {
            unreachable!()
        };
        let clock = Instant::now();
        let r = c
            .call_tool(CallToolRequestParams::new(tool).with_arguments(map))
            .await
            .expect("call");
        spent.push(clock.elapsed());
        assert_eq!(
            r.is_error,
            Some(false),
            "{tool} replay failed: {:?}",
            r.content
        );
        let text: String = r
            .content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.clone()))
            .collect();
        let line = json!({"game": game, "detail": detail, "tool": tool, "text": text});
        writeln!(out, "{line}").expect("stdout");
    }
    let _ = c.cancel().await;
    spent
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let games: u64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(200);
    let cost = std::env::var("TOKENS_ADVICE_COST").is_ok_and(|v| v == "1");
    // Each compact result's time with the advice line and without it, the same call of the same game.
    let mut advice_cost: Vec<(Duration, Duration)> = Vec::new();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());

    let lister = client(LsServer::new(
        Arc::new(SimChain::new(EngineSettings::default(), 1)),
        options(),
    ))
    .await;
    let tools = lister.list_all_tools().await.expect("tools/list");
    let list = serde_json::to_string(&json!({ "tools": tools })).unwrap();
    if let Ok(file) = std::env::var("TOKENS_TOOLS_LIST") {
        std::fs::write(file, &list).expect("the tools/list file");
    }
    let size = list.len();
    writeln!(out, "{}", json!({"tools_list_bytes": size})).unwrap();
    for t in &tools {
        let definition = tool_definition(t).to_string();
        writeln!(
            out,
            "{}",
            json!({"tool_definition": t.name, "json": definition})
        )
        .unwrap();
    }
    let _ = lister.cancel().await;

    for game in 0..games {
        let first_id = 1 + game;
        let recorder = Arc::new(RecordedSim::new(SimChain::new(
            EngineSettings::default(),
            first_id,
        )));
        let agent = Agent::connect(LsServer::new(recorder.clone(), options()))
            .await
            .expect("agent");
        let summary = agent
            .play(None, &AgentOptions::default(), &mut |_| {})
            .await
            .expect("the agent plays");
        agent.close().await;
        let actions = recorder.actions();
        writeln!(
            out,
            "{}",
            json!({"game": game, "level": summary.level, "actions": actions.len()})
        )
        .unwrap();
        let with = replay(first_id, &actions, ("compact", true), game, &mut out).await;
        replay(first_id, &actions, ("full", true), game, &mut out).await;
        if cost {
            let without = replay(
                first_id,
                &actions,
                ("compact", false),
                game,
                &mut io::sink(),
            )
            .await;
            advice_cost.extend(with.into_iter().zip(without));
        }
        out.flush().unwrap();
    }
    if cost && !advice_cost.is_empty() {
        eprintln!("{}", advice_cost_line(&advice_cost));
    }
}

/// What the advice line costs per compact result: the median and p90 of the calls with it and
/// without it, and the median of the paired differences (the same call of the same game), in ms.
fn advice_cost_line(pairs: &[(Duration, Duration)]) -> String {
    let ms = |d: &Duration| d.as_secs_f64() * 1000.0;
    let quantile = |mut v: Vec<f64>, q: f64| {
        v.sort_by(f64::total_cmp);
        v[((v.len() - 1) as f64 * q).round() as usize]
    };
    let with: Vec<f64> = pairs.iter().map(|(w, _)| ms(w)).collect();
    let without: Vec<f64> = pairs.iter().map(|(_, o)| ms(o)).collect();
    let diff: Vec<f64> = pairs.iter().map(|(w, o)| ms(w) - ms(o)).collect();
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    format!(
        "compact results: {}; with advice p50 {:.3} ms, p90 {:.3} ms, mean {:.3} ms; without p50 {:.3} ms, p90 {:.3} ms, mean {:.3} ms; advice costs p50 {:+.3} ms (paired), mean {:+.3} ms",
        pairs.len(),
        quantile(with.clone(), 0.5),
        quantile(with.clone(), 0.9),
        mean(&with),
        quantile(without.clone(), 0.5),
        quantile(without.clone(), 0.9),
        mean(&without),
        quantile(diff.clone(), 0.5),
        mean(&diff),
    )
}
