//! The indexer tools' work, one file per job: the leaderboard, an owner's games (with the chain
//! as fallback when Torii is down) and an adventurer's event history, each read from the server's
//! one `GameIndex` and presented the same whichever answered; `common` holds what they share (the
//! index, page limits, cursors, the error mapping, row summaries). The tool definitions live in
//! `torii_tools.rs`.

mod adventurers;
mod common;
mod events;
mod leaderboard;

pub(crate) use common::*;
pub use common::{DEFAULT_LIMIT, MAX_LIMIT};
