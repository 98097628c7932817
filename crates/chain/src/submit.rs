//! Waiting for a sent transaction: ask for its receipt, polling the status only while the receipt
//! is not there yet, until the requested confirmation level, a revert, or the deadline. A hash the
//! node does not know yet is retried.

use std::time::Duration;

use starknet::core::types::{
    ExecutionResult, Felt, StarknetError, TransactionFinalityStatus,
    TransactionReceiptWithBlockInfo, TransactionStatus,
};
use starknet::providers::{Provider, ProviderError};

use super::ChainError;
use super::Confirm;
use super::progress::{Hooks, Progress};
use super::revert::classify;
use super::subscribe::{Seen, Subscriber};

fn status_rank(s: &TransactionStatus) -> (u8, Option<&ExecutionResult>) {
    match s {
        TransactionStatus::Received | TransactionStatus::Candidate => (0, None),
        TransactionStatus::PreConfirmed(r) => (1, Some(r)),
        TransactionStatus::AcceptedOnL2(r) => (2, Some(r)),
        TransactionStatus::AcceptedOnL1(r) => (3, Some(r)),
    }
}

/// The execution result carried by a status, once the transaction has executed.
pub(crate) fn execution_of(s: &TransactionStatus) -> Option<&ExecutionResult> {
    status_rank(s).1
}

/// The rank of a receipt's finality, on the scale of [`Confirm`].
fn finality_rank(f: &TransactionFinalityStatus) -> u8 {
    match f {
        TransactionFinalityStatus::PreConfirmed => 1,
        TransactionFinalityStatus::AcceptedOnL2 => 2,
        TransactionFinalityStatus::AcceptedOnL1 => 3,
    }
}

/// Waits until `hash` is accepted on L2 (a revert is an error), polling every `poll` for at most
/// `timeout`, without a write's hooks or subscription: for a caller that only sends (the deployers).
pub async fn wait_until_accepted<P: Provider + Sync>(
    provider: &P,
    hash: Felt,
    timeout: Duration,
    poll: Duration,
) -> Result<(), ChainError> {
    let hooks = Hooks::default();
    wait_for_receipt(
        provider,
        hash,
        Confirm::Accepted,
        timeout,
        poll,
        &hooks,
        None,
    )
    .await
    .map(|_| ())
}

/// Follows `hash` until it reaches `confirm`; a revert is an error at every level.
///
/// With a `subscriber`, a receipt that is not there yet (or below the level asked for) is waited
/// for by subscription instead of status polling (see [`super::subscribe`]): the node pushes the
/// status and the receipt is read once it says the level is reached; polling takes over if the
/// subscription fails. In steady state on devnet the first receipt answers and nothing is
/// subscribed.
///
/// Receipt first: in steady state the transaction is executed by the time this asks (devnet and
/// katana put it in a block while answering the send; a sequencer's pre-confirmed block follows
/// within the poll interval), so one `getTransactionReceipt` answers the write. Only while the
/// node does not know the receipt yet is the cheaper `getTransactionStatus` polled, and the
/// receipt is asked again once the status says the transaction executed. A receipt below the
/// requested level (`finalized` on L2) is followed by status until the level is reached, then read
/// again for its final block. A hash the node does not know yet (a lagging, load-balanced node) and
/// transport errors are retried until the deadline.
pub(crate) async fn wait_for_receipt<P: Provider + Sync>(
    provider: &P,
    hash: Felt,
    confirm: Confirm,
    timeout: Duration,
    poll: Duration,
    hooks: &Hooks,
    subscriber: Option<&Subscriber>,
) -> Result<TransactionReceiptWithBlockInfo, ChainError> {
    let deadline = tokio::time::Instant::now() + timeout;
    let mut last_status = super::TxStatus::NotReceived;
    // L1 acceptance is polled: it comes hours later on a real chain, and its push is unverified.
    let mut subscriber = subscriber.filter(|_| confirm != Confirm::Finalized);
    let report = |name: super::TxStatus, last: &mut super::TxStatus| {
        if name != *last {
            hooks.report(Progress::Status {
                tx_hash: hash,
                status: name,
            });
            *last = name;
        }
    };
    let mut ask_receipt = true;
    let mut waiting = false;
    let mut announce_wait = || {
        if !std::mem::replace(&mut waiting, true) {
            hooks.report(Progress::Waiting);
        }
    };
    loop {
        if ask_receipt {
            match provider.get_transaction_receipt(hash).await {
                Ok(r) => {
                    let finality = r.receipt.finality_status();
                    report(finality.into(), &mut last_status);
                    if let ExecutionResult::Reverted { reason } = r.receipt.execution_result() {
                        return Err(ChainError::Revert {
                            revert: classify(reason),
                            tx_hash: Some(hash),
                        });
                    }
                    if finality_rank(finality) >= confirm.rank() {
                        return Ok(r);
                    }
                    ask_receipt = false;
                }
                Err(ProviderError::StarknetError(StarknetError::TransactionHashNotFound)) => {
                    ask_receipt = false;
                }
                Err(e) => tracing::debug!(
                    error = %base::redact::redact_urls(&e.to_string()),
                    "receipt read failed; retrying"
                ),
            }
        } else if let Some(sub) = subscriber.take() {
            announce_wait();
            tokio::select! {
                seen = sub.wait(hash, confirm, hooks) => match seen {
                    Some(Seen::Reached(status)) => {
                        last_status = status;
                        ask_receipt = true;
                        continue;
                    }
                    Some(Seen::Failed(e)) => return Err(e),
                    None => continue,
                },
                _ = tokio::time::sleep_until(deadline) => {}
                _ = hooks.cancelled() => {
                    return Err(ChainError::Cancelled { tx_hash: hash, last_status });
                }
            }
        } else {
            match provider.get_transaction_status(hash).await {
                Ok(status) => {
                    report((&status).into(), &mut last_status);
                    let (rank, result) = status_rank(&status);
                    if let Some(ExecutionResult::Reverted { reason }) = result {
                        return Err(ChainError::Revert {
                            revert: classify(reason),
                            tx_hash: Some(hash),
                        });
                    }
                    // Executed (for `pre_confirmed`) or at the level asked for: read the receipt.
                    ask_receipt = rank >= confirm.rank();
                    if ask_receipt {
                        continue;
                    }
                }
                Err(ProviderError::StarknetError(StarknetError::TransactionHashNotFound)) => {}
                Err(e) => tracing::debug!(
                    error = %base::redact::redact_urls(&e.to_string()),
                    "status poll failed; retrying"
                ),
            }
        }
        if tokio::time::Instant::now() >= deadline {
            return Err(ChainError::Timeout {
                tx_hash: hash,
                last_status,
            });
        }
        announce_wait();
        tokio::select! {
            _ = tokio::time::sleep(poll) => {}
            _ = hooks.cancelled() => {
                return Err(ChainError::Cancelled { tx_hash: hash, last_status });
            }
        }
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
