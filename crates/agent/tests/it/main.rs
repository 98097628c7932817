//! The agent crate's integration tests, one binary (`cargo test -p loot-survivor-agent --test
//! it`): the built-in player over the MCP tools on the embedded sim chain, 100 whole games
//! (`sim_games`), and the planner on the engine making the moves it makes over the tools
//! (`planner_policy`).

// The binary links every dependency of the crate and names only those its tests use.
#![allow(unused_crate_dependencies)]

/// The crate under test by its layer's name, as the facade re-exports it: `agent::Agent`.
extern crate loot_survivor_agent as agent;

mod planner_policy;
mod sim_games;
