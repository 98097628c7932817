//! loot-survivor-mcp: an MCP server through which an AI agent plays Loot Survivor 2 (Death Mountain)
//! on Starknet with its own signing wallet.
//!
//! The facade over the layers, each a crate of its own under `crates/` (lowest first): `game`
//! (pure rules, engine, planner) < `base` (redaction, data directory, devnet process) < `wallet`
//! (keys, signer, policy) < `journal` (the transaction journal) and `cartridge` (outside
//! executions, the paymaster) < `chain` (Starknet I/O, re-exporting both) < `sim` (the embedded
//! practice chain) and `deploy` (the practice deployers, for `devnet deploy` and the tests) <
//! `indexer` (`GameIndex`: Torii, and the sim chain's own index; the Denshokan API client) < `mcp`
//! (the tool surface, with `error`) < `agent` (the built-in player) < `cli` (settings and
//! commands). A crate names only the layers below it in its manifest, so the compiler holds the
//! order; this crate re-exports each under the path the tests, benches and docs use.

pub use agent;
pub use base::{devnet, home, redact, terminal_note};
pub use chain;
pub use check;
pub use cli::config;
pub use deploy;
pub use game;
pub use indexer::denshokan;
pub use indexer::torii;
pub use mcp;
pub use mcp::error;
pub use sim;
pub use wallet;
