//! What the game benchmarks share: their environment knobs and the dungeons they play (hidden
//! seeds from one master seed, as `play --seed` draws them, the four starting weapons in turn).

use loot_survivor_mcp::agent::{AgentOptions, Params, Strategy};
use loot_survivor_mcp::game::engine::EngineSettings;
use loot_survivor_mcp::sim::{SimChain, SimRandomness};

/// A number from the environment, or `default`.
pub fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A world whose games have hidden seeds drawn from `seed`, as `play --seed` makes it.
pub fn sim(seed: u64) -> SimChain {
    SimChain::with_randomness(EngineSettings::default(), 1, SimRandomness::Master(seed))
}

/// The starting weapon of game `i`: the four in turn.
pub fn weapon(i: u64) -> &'static str {
    ["Wand", "Book", "Short Sword", "Club"][(i % 4) as usize]
}

/// Game `i`'s options: the planner with the weapon of game `i`.
pub fn options(i: u64) -> AgentOptions {
    AgentOptions {
        weapon: weapon(i).into(),
        max_actions: 3000,
        strategy: Strategy::Planner(Params::default()),
    }
}
