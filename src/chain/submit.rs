//! Waiting for a sent transaction: poll its status, then its receipt, until the requested
//! confirmation level, a revert, or the deadline. A hash the node does not know yet is retried.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use starknet::core::types::{
    ExecutionResult, Felt, StarknetError, TransactionFinalityStatus,
    TransactionReceiptWithBlockInfo, TransactionStatus,
};
use starknet::providers::{Provider, ProviderError};

use super::ChainError;
use super::revert::classify;

/// How far a write must get before the tool answers.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Confirm {
    /// Executed in the sequencer's pre-confirmed block.
    PreConfirmed,
    /// `ACCEPTED_ON_L2` (the default).
    #[default]
    Accepted,
    /// `ACCEPTED_ON_L1`.
    Finalized,
}

impl Confirm {
    fn rank(self) -> u8 {
        match self {
            Confirm::PreConfirmed => 1,
            Confirm::Accepted => 2,
            Confirm::Finalized => 3,
        }
    }
}

fn status_rank(s: &TransactionStatus) -> (u8, Option<&ExecutionResult>) {
    match s {
        TransactionStatus::Received | TransactionStatus::Candidate => (0, None),
        TransactionStatus::PreConfirmed(r) => (1, Some(r)),
        TransactionStatus::AcceptedOnL2(r) => (2, Some(r)),
        TransactionStatus::AcceptedOnL1(r) => (3, Some(r)),
    }
}

/// A short name for a status, as reported to agents.
pub fn status_name(s: &TransactionStatus) -> &'static str {
    match s {
        TransactionStatus::Received => "RECEIVED",
        TransactionStatus::Candidate => "CANDIDATE",
        TransactionStatus::PreConfirmed(_) => "PRE_CONFIRMED",
        TransactionStatus::AcceptedOnL2(_) => "ACCEPTED_ON_L2",
        TransactionStatus::AcceptedOnL1(_) => "ACCEPTED_ON_L1",
    }
}

/// The finality of a receipt, as reported to agents.
pub fn finality_name(f: &TransactionFinalityStatus) -> &'static str {
    match f {
        TransactionFinalityStatus::PreConfirmed => "PRE_CONFIRMED",
        TransactionFinalityStatus::AcceptedOnL2 => "ACCEPTED_ON_L2",
        TransactionFinalityStatus::AcceptedOnL1 => "ACCEPTED_ON_L1",
    }
}

/// Polls until `hash` reaches `confirm`; a revert is an error at every level.
pub async fn wait_for_receipt<P: Provider + Sync>(
    provider: &P,
    hash: Felt,
    confirm: Confirm,
    timeout: Duration,
    poll: Duration,
) -> Result<TransactionReceiptWithBlockInfo, ChainError> {
    let deadline = tokio::time::Instant::now() + timeout;
    let mut last_status = "NOT_RECEIVED";
    loop {
        match provider.get_transaction_status(hash).await {
            Ok(status) => {
                last_status = status_name(&status);
                let (rank, result) = status_rank(&status);
                if let Some(ExecutionResult::Reverted { reason }) = result {
                    return Err(ChainError::Revert {
                        revert: classify(reason),
                        tx_hash: Some(hash),
                    });
                }
                if rank >= confirm.rank() {
                    match provider.get_transaction_receipt(hash).await {
                        Ok(r) => return Ok(r),
                        Err(ProviderError::StarknetError(
                            StarknetError::TransactionHashNotFound,
                        )) => {}
                        Err(e) => tracing::debug!(error = %e, "receipt not readable yet"),
                    }
                }
            }
            Err(ProviderError::StarknetError(StarknetError::TransactionHashNotFound)) => {}
            Err(e) => tracing::debug!(error = %e, "status poll failed; retrying"),
        }
        if tokio::time::Instant::now() >= deadline {
            return Err(ChainError::Timeout {
                tx_hash: hash,
                last_status: last_status.to_string(),
            });
        }
        tokio::time::sleep(poll).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn confirmation_levels_are_ordered() {
        assert!(Confirm::PreConfirmed.rank() < Confirm::Accepted.rank());
        assert!(Confirm::Accepted.rank() < Confirm::Finalized.rank());
        assert_eq!(Confirm::default(), Confirm::Accepted);
    }

    #[test]
    fn confirm_parses_from_snake_case() {
        let c: Confirm = serde_json::from_str("\"pre_confirmed\"").unwrap();
        assert_eq!(c, Confirm::PreConfirmed);
        assert!(serde_json::from_str::<Confirm>("\"soon\"").is_err());
    }
}
