//! loot-survivor-mcp: an MCP server through which an AI agent plays Loot Survivor 2 (Death Mountain)
//! on Starknet with its own signing wallet.
//!
//! Layers (one folder each): `mcp` (tool surface) → `game` (pure rules and decoding), `chain`
//! (Starknet I/O), `wallet` (signer, policy) and `torii` (indexer); `config` and `error` are shared.

pub mod agent;
pub mod chain;
pub mod config;
pub mod devnet;
pub mod error;
pub mod game;
pub mod home;
pub mod mcp;
pub mod redact;
pub mod terminal_note;
pub mod torii;
pub mod wallet;
