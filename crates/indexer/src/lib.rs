//! The indexer clients of loot-survivor-mcp: what a chain node cannot answer (leaderboards, an
//! owner's games, an adventurer's event history). Today: Torii, the Dojo world's indexer.

pub mod torii;
