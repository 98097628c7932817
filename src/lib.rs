//! loot-survivor-mcp: an MCP server through which an AI agent plays Loot Survivor 2 (Death Mountain)
//! on Starknet with its own signing wallet.
//!
//! Layers, lowest first (one folder each; `tests/layers.rs` keeps them apart): `game` (pure rules
//! and decoding) < `wallet` (signer, policy) < `chain` (Starknet I/O) < `torii` (indexer) < `mcp`
//! (tool surface, with `error`) < `agent` (the built-in player) < `config` (settings composing each
//! layer's options); `redact`, `home`, `devnet` and `terminal_note` are base utilities. `game` is a
//! crate of its own (`game/`, `loot_survivor_game`), re-exported here under its layer's name so
//! that `crate::game::…` reads as before; the build forbids it any higher layer.

pub mod agent;
pub mod chain;
pub mod config;
pub mod devnet;
pub mod error;
pub mod home;
pub mod mcp;
pub mod redact;
pub mod terminal_note;
pub mod torii;
pub mod wallet;

pub use loot_survivor_game as game;
