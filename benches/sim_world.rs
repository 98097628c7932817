//! What the saved sim world costs: one action on an in-memory world vs on the saved store (read
//! what others wrote, commit) as the history fills up to its cap, the store's size, and the cold
//! start of one server process over a full store (spawn, MCP handshake, one read, exit), as
//! a one-shot client such as the MCP Inspector CLI pays on every call. A benchmark, not a test:
//! `cargo bench --bench sim_world` (or `--profile dev` to reuse the debug build).

use std::io::Write as _;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use loot_survivor_mcp::chain::{Confirm, Hooks, WriteOptions};
use loot_survivor_mcp::game::engine::Action;
use loot_survivor_mcp::game::engine::EngineSettings;
use loot_survivor_mcp::game::model::Stats;
use loot_survivor_mcp::sim::{REMEMBERED_TXS, SimChain, SimOptions, SimRandomness};

const BIN: &str = env!("CARGO_BIN_EXE_loot-survivor-mcp");

fn opts() -> WriteOptions {
    WriteOptions {
        confirm: Confirm::Accepted,
        timeout: Duration::from_secs(1),
        hooks: Hooks::default(),
    }
}

/// Plays until `txs` transactions exist: games of attack / vitality / explore until death.
/// Returns the time of each action.
fn play(sim: &SimChain, txs: usize) -> Vec<Duration> {
    let mut times = Vec::new();
    let mut done = 0;
    while done < txs {
        let (id, _) = sim.mint_game(&opts()).unwrap();
        let _ = sim.apply(id, &Action::StartGame { weapon: 76 }, &opts());
        done += 2;
        while done < txs {
            let adv = sim.game_state(id).unwrap().adventurer;
            if adv.health == 0 {
                break;
            }
            let action = if adv.stat_upgrades_available > 0 {
                Action::Upgrade {
                    stats: Stats {
                        vitality: adv.stat_upgrades_available,
                        ..Stats::default()
                    },
                }
            } else if adv.beast_health > 0 {
                Action::Attack { to_the_death: true }
            } else {
                Action::Explore { till_beast: true }
            };
            let t = Instant::now();
            let r = sim.apply(id, &action, &opts());
            times.push(t.elapsed());
            done += 1;
            if r.is_err() {
                break;
            }
        }
    }
    times
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn summary(name: &str, mut t: Vec<Duration>) {
    t.sort();
    let mean = t.iter().sum::<Duration>() / t.len().max(1) as u32;
    let p90 = t[(t.len() - 1) * 9 / 10];
    println!(
        "{name:<44} mean {:>7.2} ms  p50 {:>7.2} ms  p90 {:>7.2} ms  ({} actions)",
        ms(mean),
        ms(t[t.len() / 2]),
        ms(p90),
        t.len()
    );
}

fn main() {
    let settings = EngineSettings::default();
    let memory = SimChain::with_randomness(settings, 1, SimRandomness::Master(1));
    summary("action, in memory", play(&memory, 1000));

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sim").join("world.sqlite3");
    let saved = SimChain::open(SimOptions {
        settings,
        first_adventurer_id: 1,
        randomness: SimRandomness::Master(1),
        state_file: Some(path.clone()),
        fresh: false,
    })
    .unwrap();
    let mut filled = 0;
    for upto in [500, 2000, REMEMBERED_TXS] {
        let t = play(&saved, upto - filled);
        filled = upto;
        let size = |p: &std::path::Path| std::fs::metadata(p).map_or(0, |m| m.len()) as f64 / 1e6;
        let wal = dir.path().join("sim").join("world.sqlite3-wal");
        summary(&format!("action, saved, history up to {upto} txs"), t);
        println!(
            "{:<44} store {:.2} MB, its log {:.2} MB",
            "  files",
            size(&path),
            size(&wal)
        );
    }

    // Cold start of one server process over that full store.
    let handshake = concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ls_get_adventurer","arguments":{"adventurer_id":1}}}"#,
        "\n"
    );
    let starts: Vec<Duration> = (0..10)
        .map(|_| {
            let t = Instant::now();
            let mut child = Command::new(BIN)
                .env("LS_HOME", dir.path())
                .env("LS_SIM__SEED", "1")
                .env("RUST_LOG", "warn")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("spawn the server");
            child
                .stdin
                .take()
                .unwrap()
                .write_all(handshake.as_bytes())
                .unwrap();
            let out = child.wait_with_output().unwrap();
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(text.contains(r#""id":2"#), "no answer: {text}");
            t.elapsed()
        })
        .collect();
    summary("process: start, handshake, 1 read, exit", starts);
}
