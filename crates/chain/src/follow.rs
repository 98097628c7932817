//! Keeping the journal true to the chain: a lookup updates the record's status and the fee the
//! policy counts, the transactions left pending by an earlier run are followed at start, and
//! a new game, where mint and start are two transactions, checks room for both before the first
//! is signed.

use std::time::{Duration, SystemTime};

use starknet::core::types::Felt;

use super::ChainError;
use super::client::{ChainClient, TxLookup};
use super::{Execution, TxStatus};

/// How long a transaction the node never reports is waited for before it is marked `DROPPED`.
const DROP_AFTER: Duration = Duration::from_secs(120);

impl ChainClient {
    /// [`ChainClient::get_tx`], with the journal's record following the node's answer: its
    /// status, and (for a transaction the wallet paid) the fee counted against the budgets.
    pub async fn lookup_tx(&self, hash: Felt) -> Result<TxLookup, ChainError> {
        let mut found = self.get_tx(hash).await?;
        let Some(record) = &found.record else {
            return Ok(found);
        };
        let status = match (found.execution, found.status) {
            (_, TxStatus::NotReceived) => return Ok(found),
            (Some(Execution::Reverted), _) => TxStatus::Reverted,
            (_, s) => s,
        };
        self.ledger().set_status(hash, status);
        let signed = SystemTime::UNIX_EPOCH + Duration::from_secs(record.signed_at);
        let bound: u128 = record.max_fee.parse().unwrap_or(0);
        let fee = match &found.report {
            Some(r) if bound > 0 => r.actual_fee,
            _ => bound,
        };
        self.policy().record_sent(hash, fee, signed);
        found.record = self.ledger().get(hash);
        Ok(found)
    }

    /// Follows every transaction the journal holds without a final status (left by a run that
    /// stopped before its receipt) until it settles; one the node never reports within
    /// [`DROP_AFTER`] is marked `DROPPED`. Returns how many were followed.
    pub async fn follow_pending(&self) -> usize {
        let pending = self.ledger().journal().unsettled();
        let deadline = tokio::time::Instant::now() + DROP_AFTER;
        for record in &pending {
            let hash = record.tx_hash;
            tracing::info!(tx_hash = %format!("{hash:#x}"), action = %record.action, status = %record.last_status, "following a transaction left pending by an earlier run");
            loop {
                let settled = match self.lookup_tx(hash).await {
                    Ok(found) => found.record.is_some_and(|r| r.last_status.is_settled()),
                    Err(e) => {
                        tracing::warn!(tx_hash = %format!("{hash:#x}"), "following: {e}");
                        false
                    }
                };
                if settled {
                    break;
                }
                if tokio::time::Instant::now() >= deadline {
                    if self
                        .get_tx(hash)
                        .await
                        .is_ok_and(|f| f.status == TxStatus::NotReceived)
                    {
                        // Never executed: it cost nothing (it still counted against the rate).
                        self.ledger().set_status(hash, TxStatus::Dropped);
                        self.policy().record_sent(hash, 0, SystemTime::now());
                    }
                    break;
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            if let Some(r) = self.ledger().get(hash) {
                tracing::info!(tx_hash = %format!("{:#x}", r.tx_hash), status = %r.last_status, "followed");
            }
        }
        pending.len()
    }

    /// Before a new game mints: the rate window must have room for the mint and the start,
    /// and the budgets for both fee bounds (estimated as twice the largest recent bound, or the
    /// per-transaction cap before any transaction), so no mint is paid for a refused start.
    pub fn check_new_game(&self) -> Result<(), ChainError> {
        let each = self
            .ledger()
            .journal()
            .recent_max_bound()
            .unwrap_or_else(|| self.policy().max_fee_per_tx());
        self.policy()
            .check_batch(2, each.saturating_mul(2), SystemTime::now())
            .map_err(ChainError::Policy)
    }
}
