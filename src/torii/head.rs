//! How far Torii has indexed (best effort): its highest indexed block and that block's time, read
//! from Torii's `contracts` table and cached like leaderboard pages. When the table is not there
//! (other Torii versions) the answer is simply unknown, never an error.

use std::time::{SystemTime, UNIX_EPOCH};

use super::ToriiClient;
use super::values::u64_of;

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
    /// Torii's indexing position, or `None` when it cannot be read.
    pub async fn indexer_head(&self) -> Option<IndexerHead> {
        if let Some(c) = self.head_cache.fresh(&()) {
            return c.value;
        }
        let head = match self.sql(HEAD_SQL.trim()).await {
            Ok(rows) => rows.first().map(|r| IndexerHead {
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
