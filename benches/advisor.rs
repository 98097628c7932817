//! Latency of the advisor tools, `ls_lookup` and `ls_battle_preview`: the pure computation, and
//! the whole MCP round trip (an in-process rmcp client calling the server on the sim chain).
//! Prints mean, p50 and p99 per case. A benchmark, not a test: `cargo bench --bench advisor`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use loot_survivor_mcp::agent::Agent;
use loot_survivor_mcp::game::engine::{Action, EngineSettings, World};
use loot_survivor_mcp::game::model::{GameState, Stats};
use loot_survivor_mcp::mcp::{LookupArgs, LsServer, ServerOptions, lookup_result, preview_result};
use loot_survivor_mcp::sim::SimChain;
use serde_json::{Value, json};
use starknet_types_core::felt::Felt;

const ROUNDS: usize = 2000;
const RPC_ROUNDS: usize = 500;

fn report(name: &str, mut samples: Vec<Duration>) {
    samples.sort();
    let mean = samples.iter().sum::<Duration>() / samples.len() as u32;
    let at = |p: f64| samples[((samples.len() - 1) as f64 * p).round() as usize];
    println!(
        "{name:<46} mean {:>8.1} µs  p50 {:>8.1} µs  p99 {:>8.1} µs",
        mean.as_secs_f64() * 1e6,
        at(0.5).as_secs_f64() * 1e6,
        at(0.99).as_secs_f64() * 1e6
    );
}

fn time<T>(rounds: usize, mut f: impl FnMut() -> T) -> Vec<Duration> {
    (0..rounds)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(f());
            t.elapsed()
        })
        .collect()
}

/// A game played until the adventurer faces a beast at roughly `target_level`, with every
/// stat point in vitality.
fn battle_at(target_level: u8) -> (u64, GameState) {
    let owner = Felt::ONE;
    for first in 1.. {
        let mut w = World::new(EngineSettings::default(), first);
        let id = w.mint(owner);
        w.act(owner, id, &Action::StartGame { weapon: 46 }).unwrap();
        for _ in 0..400 {
            let s = w.state(id);
            let a = s.adventurer;
            if a.health == 0 {
                break;
            }
            if a.beast_health > 0 && a.level() >= target_level {
                return (id, s);
            }
            let action = if a.beast_health > 0 {
                Action::Flee { to_the_death: true }
            } else if a.stat_upgrades_available > 0 {
                Action::Upgrade {
                    stats: Stats {
                        vitality: a.stat_upgrades_available,
                        ..Stats::default()
                    },
                }
            } else {
                Action::Explore { till_beast: false }
            };
            let action = if a.level() == 1 {
                Action::Attack { to_the_death: true }
            } else {
                action
            };
            if w.act(owner, id, &action).is_err() {
                w.act(
                    owner,
                    id,
                    &Action::Attack {
                        to_the_death: false,
                    },
                )
                .unwrap();
            }
        }
    }
    unreachable!()
}

fn lookup_args(v: Value) -> LookupArgs {
    serde_json::from_value(v).unwrap()
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    println!("pure computation ({ROUNDS} rounds each)");
    let lookups = [
        ("lookup: exact name", json!({"query": "katana"})),
        ("lookup: wildcard", json!({"query": "*leather*"})),
        (
            "lookup: slug with specials",
            json!({"query": "demon-grasp-dragon"}),
        ),
        ("lookup: miss with suggestions", json!({"query": "katanna"})),
        (
            "lookup: filters only, limit 200",
            json!({"tier": 1, "limit": 200}),
        ),
    ];
    for (name, args) in &lookups {
        let a = lookup_args(args.clone());
        report(name, time(ROUNDS, || lookup_result("sim", &a).unwrap()));
    }
    let settings = EngineSettings::default();
    let fights = [3u8, 8, 15];
    let mut states = Vec::new();
    for level in fights {
        let (id, s) = battle_at(level);
        let name = format!(
            "preview: level {}, beast {} hp, you {} hp",
            s.adventurer.level(),
            s.adventurer.beast_health,
            s.adventurer.health
        );
        report(
            &name,
            time(ROUNDS, || {
                preview_result("sim", id.into(), &s, Some(settings), &[], None).unwrap()
            }),
        );
        states.push((id, s));
    }

    println!("MCP round trip on the sim chain ({RPC_ROUNDS} calls each)");
    let sim = SimChain::new(settings, 1);
    let server = LsServer::new(
        Arc::new(sim),
        ServerOptions {
            chain: "sim".into(),
            strict: false,
            default_timeout: Duration::from_secs(5),
        },
    );
    let agent = Agent::connect(server).await.unwrap();
    let started = agent
        .call("ls_new_game", json!({"weapon": "Club"}))
        .await
        .unwrap();
    let id = started["adventurer_id"].as_u64().unwrap();
    for (name, args) in &lookups {
        let mut samples = Vec::with_capacity(RPC_ROUNDS);
        for _ in 0..RPC_ROUNDS {
            let t = Instant::now();
            agent.call("ls_lookup", args.clone()).await.unwrap();
            samples.push(t.elapsed());
        }
        report(&format!("ls_lookup {}", &name[8..]), samples);
    }
    let mut samples = Vec::with_capacity(RPC_ROUNDS);
    for _ in 0..RPC_ROUNDS {
        let t = Instant::now();
        agent
            .call("ls_battle_preview", json!({"adventurer_id": id}))
            .await
            .unwrap();
        samples.push(t.elapsed());
    }
    report("ls_battle_preview (starter beast, exact)", samples);
    let mut samples = Vec::with_capacity(RPC_ROUNDS);
    for _ in 0..RPC_ROUNDS {
        let t = Instant::now();
        agent
            .call(
                "ls_battle_preview",
                json!({"adventurer_id": id, "equip": ["Katana"],
                       "beast": {"beast": "Dragon", "level": 30, "health": 300}}),
            )
            .await
            .unwrap();
        samples.push(t.elapsed());
    }
    report("ls_battle_preview (hypothetical L30 dragon)", samples);
    agent.close().await;
}
