//! The indexer tools' work, one file per job: the leaderboard, an owner's games (Torii with the
//! chain as fallback) and an adventurer's event history; `common` holds what they share (page
//! limits, cursors, the error mapping, row summaries). The tool definitions live in
//! `torii_tools.rs`, the sim chain's own answers in `sim_index.rs`.

mod adventurers;
mod common;
mod events;
mod leaderboard;

pub(crate) use common::*;
pub use common::{DEFAULT_LIMIT, MAX_LIMIT};
