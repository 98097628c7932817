//! How far Torii has indexed the game (best effort): the head block and its time from the game
//! world's own row of Torii's `contracts` table, cached like leaderboard pages. Torii keeps a row
//! per indexed contract (worlds and ERC tokens, each with its own head), so the maximum over all
//! rows says nothing about the world. When the row or the table is not there the answer is simply
//! unknown, never an error.

use std::time::{SystemTime, UNIX_EPOCH};

use super::ToriiClient;
use super::client::sql_template;
use super::values::{num_key, pad_felt, u64_of};

const HEAD_SQL: &str = include_str!("queries/indexer_head.sql");

/// Torii's indexing position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexerHead {
    /// Highest block indexed.
    pub block: Option<u64>,
    /// Unix time (seconds) of that block.
    pub timestamp: Option<u64>,
}

impl IndexerHead {
    /// Seconds between the last indexed block and now.
    pub fn lag_seconds(&self) -> Option<u64> {
        let now = SystemTime::now().duration_since(UNIX_EPOCH).ok()?.as_secs();
        self.timestamp.map(|t| now.saturating_sub(t))
    }
}

impl ToriiClient {
    /// Torii's indexing position for the game's world, or `None` when it cannot be read (or,
    /// with no world address configured, when Torii indexes several worlds).
    pub async fn indexer_head(&self) -> Option<IndexerHead> {
        if let Some(c) = self.head_cache.fresh(&()) {
            return c.value;
        }
        let world = self
            .world_address
            .map(|w| format!("AND {} = '{}'", num_key("contract_address"), pad_felt(w)))
            .unwrap_or_default();
        let query = sql_template(HEAD_SQL).replace("__WORLD__", &world);
        let head = match self.sql(&query).await {
            Ok(rows) => rows
                .first()
                .filter(|r| {
                    self.world_address.is_some() || r.get("worlds").and_then(u64_of) == Some(1)
                })
                .map(|r| IndexerHead {
                    block: r.get("head").and_then(u64_of),
                    timestamp: r.get("last_block_timestamp").and_then(u64_of),
                }),
            Err(e) => {
                tracing::debug!(error = %e, "Torii indexing head unavailable");
                None
            }
        };
        let head = head.filter(|h| h.block.is_some() || h.timestamp.is_some());
        self.head_cache.put((), head);
        head
    }
}
