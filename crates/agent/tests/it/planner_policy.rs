//! The planner played on the engine directly (the pure policy, `game::policy`) makes the very
//! moves the planner over the MCP tools makes: the same dungeons (hidden seeds from one master
//! seed, the four starting weapons in turn) are played both ways side by side, on two identical
//! sim worlds, and every game must tell the same story line for line (each decision's reason and
//! each event), end the same way, and leave the same game and the same event history on the
//! chain.
//!
//! `PLANNER_IDENTITY_GAMES` sets the games per seed (default 4, one per weapon: the tool path is
//! slow in a debug build; `PLANNER_IDENTITY_GAMES=40 cargo test --release -p loot-survivor-agent
//! --test it planner_policy` plays 40 per seed).

use std::sync::Arc;
use std::time::Duration;

use agent::{Agent, AgentOptions, GameSummary, Params, Strategy};
use game::engine::EngineSettings;
use mcp::{LsServer, ServerOptions};
use sim::{SimChain, SimRandomness};

const WEAPONS: [&str; 4] = ["Wand", "Book", "Short Sword", "Club"];

fn games() -> u64 {
    std::env::var("PLANNER_IDENTITY_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(4)
}

/// An in-memory sim world whose games draw hidden seeds from `seed`, and an agent on it.
async fn world(seed: u64) -> (Arc<SimChain>, Agent) {
    let sim = Arc::new(SimChain::with_randomness(
        EngineSettings::default(),
        1,
        SimRandomness::Master(seed),
    ));
    let server = LsServer::new(
        sim.clone(),
        ServerOptions {
            chain: "sim".into(),
            strict: true,
            default_timeout: Duration::from_secs(5),
        },
    );
    (sim, Agent::connect(server).await.expect("connect"))
}

/// What a game's summary says, but the timings.
fn outcome(s: &GameSummary) -> String {
    format!(
        "adventurer {} level {} xp {} gold {} actions {} {:?} {:?} {:?} decisions {}",
        s.adventurer_id,
        s.level,
        s.xp,
        s.gold,
        s.actions,
        s.ending,
        s.cause,
        s.killed_by,
        s.decision_us.len()
    )
}

/// Plays `games` games of `strategy` both ways on the dungeons of `seed` and compares them.
async fn both_ways(seed: u64, strategy: Strategy, games: u64) -> u64 {
    let (old_sim, old) = world(seed).await;
    let (new_sim, new) = world(seed).await;
    let mut actions = 0;
    for i in 0..games {
        let opts = AgentOptions {
            weapon: WEAPONS[(i % 4) as usize].into(),
            max_actions: 3000,
            strategy: strategy.clone(),
        };
        let (mut told_old, mut told_new) = (Vec::new(), Vec::new());
        let was = old
            .play_over_mcp(&opts, &mut |l| told_old.push(l))
            .await
            .unwrap_or_else(|e| panic!("seed {seed} game {i} over MCP: {e}"));
        let is = new
            .play(Some(&new_sim), &opts, &mut |l| told_new.push(l))
            .await
            .unwrap_or_else(|e| panic!("seed {seed} game {i} on the engine: {e}"));
        let game = format!(
            "seed {seed}, game {i} ({}, {})",
            opts.weapon,
            strategy.name()
        );
        assert!(told_old.len() > 3, "{game}: a story was told");
        for (n, (a, b)) in told_old.iter().zip(&told_new).enumerate() {
            assert_eq!(a, b, "{game}: line {n} differs");
        }
        assert_eq!(told_old.len(), told_new.len(), "{game}: story length");
        assert_eq!(outcome(&was), outcome(&is), "{game}");
        let id = was.adventurer_id;
        assert_eq!(
            old_sim.game_state(id.to_u64().unwrap()).unwrap(),
            new_sim.game_state(id.to_u64().unwrap()).unwrap(),
            "{game}: final state"
        );
        let history = |sim: &SimChain| {
            sim.game_events(id.to_u64().unwrap())
                .unwrap()
                .expect("minted")
        };
        assert_eq!(history(&old_sim), history(&new_sim), "{game}: events");
        actions += u64::from(was.actions);
    }
    old.close().await;
    new.close().await;
    actions
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_planner_on_the_engine_plays_the_planner_over_mcp_move_for_move() {
    let games = games();
    let runs = [
        (2026, Strategy::Planner(Params::default()), games),
        (7, Strategy::Planner(Params::default()), games),
        (11, Strategy::Previous, games.min(4)),
    ];
    let played: u64 = runs.iter().map(|r| r.2).sum();
    let tasks: Vec<_> = runs
        .into_iter()
        .map(|(seed, strategy, n)| tokio::spawn(both_ways(seed, strategy, n)))
        .collect();
    let mut actions = 0;
    for t in tasks {
        actions += t.await.expect("a run");
    }
    assert!(actions > 20 * played, "{actions} actions compared");
    println!("{actions} actions identical over {played} games");
}
