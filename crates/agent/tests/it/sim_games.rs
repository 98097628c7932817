//! 100 games on the embedded `sim` chain, played by the built-in agent through the MCP tool layer
//! (in-process rmcp client and server): every game ends in death or at the action cap, no tool
//! call ever fails, and the level distribution is printed (`cargo test -p loot-survivor-agent
//! --test it sim_games -- --nocapture`).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use agent::{Agent, AgentOptions, DeathCause, Ending, GameSummary};
use game::engine::EngineSettings;
use mcp::{LsServer, ServerOptions};
use sim::SimChain;

const GAMES: u64 = 100;
const WORKERS: u64 = 2;
const WEAPONS: [&str; 4] = ["Wand", "Book", "Short Sword", "Club"];

fn server(sim: Arc<SimChain>) -> LsServer {
    LsServer::new(
        sim,
        ServerOptions {
            chain: "sim".into(),
            strict: true,
            default_timeout: Duration::from_secs(5),
        },
    )
}

/// Plays `count` games with adventurer ids from `first_id` on one sim world.
async fn worker(first_id: u64, count: u64) -> Vec<(String, GameSummary)> {
    let sim = Arc::new(SimChain::new(EngineSettings::default(), first_id));
    let agent = Agent::connect(server(sim.clone())).await.expect("connect");
    let mut out = Vec::new();
    for i in 0..count {
        let weapon = WEAPONS[((first_id + i) % 4) as usize];
        let opts = AgentOptions {
            weapon: weapon.into(),
            max_actions: 1500,
            ..AgentOptions::default()
        };
        let summary = agent
            .play(Some(&sim), &opts, &mut |_| {})
            .await
            .unwrap_or_else(|e| panic!("game {} ({weapon}) failed: {e}", first_id + i));
        assert_eq!(summary.adventurer_id, first_id + i, "ids are sequential");
        out.push((weapon.to_string(), summary));
    }
    agent.close().await;
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hundred_games_end_in_death_or_cap() {
    let started = Instant::now();
    let per = GAMES / WORKERS;
    let tasks: Vec<_> = (0..WORKERS)
        .map(|w| tokio::spawn(worker(1 + w * per, per)))
        .collect();
    let mut games = Vec::new();
    for t in tasks {
        games.extend(t.await.expect("worker"));
    }
    let elapsed = started.elapsed();
    assert_eq!(games.len() as u64, GAMES);

    let mut by_level: BTreeMap<u8, u32> = BTreeMap::new();
    let mut by_weapon: BTreeMap<&str, (u32, u32)> = BTreeMap::new();
    let mut causes: BTreeMap<String, u32> = BTreeMap::new();
    let (mut died, mut capped, mut actions) = (0, 0, 0u64);
    for (weapon, g) in &games {
        *by_level.entry(g.level).or_default() += 1;
        let w = by_weapon.entry(weapon.as_str()).or_default();
        w.0 += 1;
        w.1 += u32::from(g.level);
        actions += u64::from(g.actions);
        match g.ending {
            Ending::Died => {
                died += 1;
                let cause = g.killed_by.clone().expect("a death has a cause");
                let kind = g.cause.expect("a death has a kind");
                let expected = if cause.starts_with("ambushed") {
                    DeathCause::Ambush
                } else if cause.starts_with("hit by the obstacle") {
                    DeathCause::Obstacle
                } else {
                    DeathCause::Beast
                };
                assert_eq!(kind, expected, "{cause}");
                *causes.entry(format!("{kind:?}")).or_default() += 1;
            }
            Ending::ActionCap => capped += 1,
        }
        assert!(g.level >= 1 && g.xp > 0, "{g:?}");
    }
    assert_eq!(died + capped, GAMES);
    let mean = games.iter().map(|(_, g)| f64::from(g.level)).sum::<f64>() / GAMES as f64;
    println!(
        "{GAMES} sim games in {:.1}s ({actions} game actions): {died} died, {capped} reached the cap; mean level {mean:.1}",
        elapsed.as_secs_f64()
    );
    println!("level distribution (level: games):");
    for (level, n) in &by_level {
        println!("  {level:>3}: {:<3} {}", n, "#".repeat(*n as usize));
    }
    for (weapon, (n, total)) in &by_weapon {
        println!(
            "  {weapon:<12} mean level {:.1}",
            f64::from(*total) / f64::from(*n)
        );
    }
    println!("causes of death: {causes:?}");
    assert!(
        mean >= 5.0,
        "the agent should clear the early game on average (mean level {mean:.1})"
    );
}
