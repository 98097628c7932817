//! The read tools against their requests replayed raw, and transaction following by mode.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::model::{ClientRequest, PingRequest};
use serde_json::json;
use starknet::providers::jsonrpc::{HttpTransport, JsonRpcClient};

use crate::common;
use crate::policy::Rpc;
use crate::policy::{Plan, decide, game_state};
use crate::samples::{ms, node_times, percentile, requests};
use crate::worlds::world_address;

/// p50s of one read tool (ms).
pub(crate) struct ReadRow {
    pub(crate) tool: String,
    /// Through a server talking to devnet directly.
    pub(crate) through: f64,
    /// Its captured requests replayed raw.
    pub(crate) raw: f64,
    /// An MCP ping to the same server.
    pub(crate) floor: f64,
    /// Through a second server behind the counting proxy.
    pub(crate) proxied: f64,
    /// That, less the node's answers (the server's and client's own time).
    pub(crate) own: f64,
}

/// p50 of a read tool through the server, of replaying its requests raw, and of a ping. The
/// requests are captured once through the counting proxy; the timed server talks to devnet
/// directly, as the raw replay does, and the three are timed in turn in every round.
pub(crate) async fn reads(world: &common::World, rounds: usize) -> Vec<ReadRow> {
    let (proxy_url, faults) = common::proxy::start(world.devnet.url.clone()).await;
    let capture = world
        .client_at(&proxy_url, (), &[("RUST_LOG", "warn")])
        .await;
    let started = capture
        .ok(
            "ls_new_game",
            json!({"weapon": "Wand", "detail": "compact"}),
        )
        .await;
    let id = started["adventurer_id"].as_u64().unwrap();
    let tools = [
        (
            "ls_get_adventurer",
            json!({"adventurer_id": id, "detail": "compact"}),
        ),
        ("ls_battle_preview", json!({"adventurer_id": id})),
    ];
    let mut captured = Vec::new();
    for (tool, args) in &tools {
        let from = faults.bodies.lock().unwrap().len();
        capture.ok(tool, args.clone()).await;
        captured.push(faults.bodies.lock().unwrap()[from..].to_vec());
    }
    let client = world.client_with((), &[("RUST_LOG", "warn")]).await;
    let http = reqwest::Client::builder()
        .tcp_nodelay(true)
        .build()
        .unwrap();
    let mut rows = Vec::new();
    for ((tool, args), bodies) in tools.iter().zip(&captured) {
        client.ok(tool, args.clone()).await;
        let (mut through, mut raw, mut floor) = (Vec::new(), Vec::new(), Vec::new());
        let (mut proxied, mut own) = (Vec::new(), Vec::new());
        capture.ok(tool, args.clone()).await;
        for _ in 0..rounds {
            let t = Instant::now();
            client.ok(tool, args.clone()).await;
            through.push(t.elapsed());
            let t = Instant::now();
            for body in bodies {
                let r = http
                    .post(world.devnet.url.clone())
                    .header("content-type", "application/json")
                    .body(body.clone())
                    .send()
                    .await
                    .unwrap();
                r.bytes().await.unwrap();
            }
            raw.push(t.elapsed());
            let t = Instant::now();
            client
                .service
                .send_request(ClientRequest::PingRequest(PingRequest::default()))
                .await
                .expect("ping");
            floor.push(t.elapsed());
            let timed = faults.timings.lock().unwrap().len();
            let t = Instant::now();
            capture.ok(tool, args.clone()).await;
            let took = t.elapsed();
            let node: Duration = node_times(&faults, timed).iter().map(|(_, d)| *d).sum();
            proxied.push(took);
            own.push(took.saturating_sub(node));
        }
        rows.push(ReadRow {
            tool: format!("{tool} ({} requests)", bodies.len()),
            through: ms(percentile(&through, 0.5)),
            raw: ms(percentile(&raw, 0.5)),
            floor: ms(percentile(&floor, 0.5)),
            proxied: ms(percentile(&proxied, 0.5)),
            own: ms(percentile(&own, 0.5)),
        });
    }
    client.shutdown().await;
    capture.shutdown().await;
    rows
}

/// On devnet closing a block every second: our writes with `tx.follow` = subscribe and = poll
/// (100 ms), through the proxy: p50/p95 latency and requests per write (`ws` = one subscription).
pub(crate) async fn follow_modes(writes: usize) -> Vec<(String, Duration, Duration, f64, f64)> {
    let world = common::world_with(&["--block-generation-on", "1"]).await;
    let direct: Rpc = Arc::new(JsonRpcClient::new(HttpTransport::new(
        world.devnet.url.clone(),
    )));
    let game = world_address(&world);
    let (proxy_url, faults) = common::proxy::start(world.devnet.url.clone()).await;
    let mut rows = Vec::new();
    for follow in ["subscribe", "poll"] {
        let client = world
            .client_at(
                &proxy_url,
                (),
                &[("RUST_LOG", "warn"), ("LS_TX__FOLLOW", follow)],
            )
            .await;
        let mut latency = Vec::new();
        let (mut http, mut ws) = (0usize, 0usize);
        let mut id = None;
        let mut plan = Plan::default();
        while latency.len() < writes {
            let current = match id {
                Some(id) => id,
                None => {
                    let started = client
                        .ok(
                            "ls_new_game",
                            json!({"weapon": "Wand", "detail": "compact"}),
                        )
                        .await;
                    plan = Plan::default();
                    *id.insert(started["adventurer_id"].as_u64().unwrap())
                }
            };
            let state = game_state(&direct, game, current).await;
            let Some(act) = decide(&state, &mut plan) else {
                id = None;
                continue;
            };
            let from = requests(&faults);
            let t = Instant::now();
            client.ok(act.tool(), act.args(current)).await;
            latency.push(t.elapsed());
            for (m, _) in &faults.seen.lock().unwrap()[from..] {
                if m == "ws" {
                    ws += 1;
                } else {
                    http += 1;
                }
            }
        }
        client.shutdown().await;
        rows.push((
            follow.to_string(),
            percentile(&latency, 0.5),
            percentile(&latency, 0.95),
            http as f64 / writes as f64,
            ws as f64 / writes as f64,
        ));
    }
    rows
}
