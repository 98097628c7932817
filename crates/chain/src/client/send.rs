//! The write path of the chain client: estimate, sign from the computed hash, record, send,
//! then follow the transaction to its receipt and decode its game events.

use std::sync::Arc;
use std::time::SystemTime;

use starknet::accounts::Account;
use starknet::core::types::{Call, Felt, StarknetError};
use starknet::providers::{Provider, ProviderError};

use super::outcome::{SendFailure, Sent};
use super::submitter::Submitter;
use super::{TxReport, WriteOptions};
use crate::Progress;
use crate::TxStatus;
use crate::submit::wait_for_receipt;
use crate::wallet_account::account_error;
use crate::{BadAnswer, ChainError, RpcFailure};
use starknet::accounts::AccountError;

impl Submitter {
    /// Waits for a sent transaction at the requested confirmation level, records its status and
    /// (when the wallet pays) its fee against the budget, and reports its game events. The send
    /// is counted (at its fee bound) while the first receipt request is on its way.
    pub(super) async fn track(
        &self,
        hash: Felt,
        action: &str,
        opts: WriteOptions,
        sent: Sent,
    ) -> Result<TxReport, ChainError> {
        let sent_at = SystemTime::now();
        let bound = match sent {
            Sent::Paid { bound } => bound,
            Sent::Sponsored => 0,
        };
        // The first receipt request goes out first; then, while it is out, the send is reported
        // and counted against the budgets (memory, at once; the journal's rows on its writer
        // thread).
        let bookkeeping = async {
            opts.hooks.report(Progress::Submitted { tx_hash: hash });
            tracing::info!(tx_hash = %format!("{hash:#x}"), action, "transaction sent");
            self.ledger.set_status(hash, TxStatus::Sent);
            self.policy.record_sent(hash, bound, sent_at);
        };
        let (waited, ()) = tokio::join!(
            wait_for_receipt(
                &*self.reader.provider,
                hash,
                opts.confirm,
                opts.timeout,
                self.poll,
                &opts.hooks,
                self.subscriber.as_ref(),
            ),
            bookkeeping
        );
        let paid = matches!(sent, Sent::Paid { .. });
        match waited {
            Ok(receipt) => {
                self.ledger
                    .set_status(hash, receipt.receipt.finality_status().into());
                let report = self.reader.report(receipt)?;
                if paid {
                    self.policy.record_sent(hash, report.actual_fee, sent_at);
                }
                Ok(report)
            }
            Err(e) => {
                // The send stays counted at its fee bound until its receipt is known; after any
                // other failure the record keeps its last status (followed at the next start).
                let status = match &e {
                    ChainError::Revert { .. } => Some(TxStatus::Reverted),
                    ChainError::Timeout { last_status, .. }
                    | ChainError::Cancelled { last_status, .. } => Some(*last_status),
                    _ => None,
                };
                if let Some(status) = status {
                    self.ledger.set_status(hash, status);
                }
                Err(e)
            }
        }
    }

    /// Estimates (a revert here costs nothing), signs with pinned gas bounds, records the hash
    /// and sends. After an uncertain send the hash is looked up before anything else happens.
    pub(super) async fn sign_and_send(
        &self,
        calls: &[Call],
        nonce: Felt,
        adventurer_id: Option<game::AdventurerId>,
        action: &str,
        opts: &WriteOptions,
    ) -> Result<(Felt, u128), SendFailure> {
        let exec = self.account.execute_v3(calls.to_vec()).nonce(nonce).tip(0);
        let fee = exec
            .estimate_fee()
            .await
            .map_err(|e| SendFailure::from_chain(account_error(e)))?;
        opts.hooks.report(Progress::Simulated {
            fee: fee.overall_fee,
        });
        let m = self.fee_multiplier;
        let scale_u64 = |v: u64| ((v as f64) * m).ceil() as u64;
        let scale_u128 = |v: u128| ((v as f64) * m).ceil() as u128;
        let exec = exec
            .l1_gas(scale_u64(fee.l1_gas_consumed).max(1))
            .l1_gas_price(scale_u128(fee.l1_gas_price))
            .l2_gas(scale_u64(fee.l2_gas_consumed))
            .l2_gas_price(scale_u128(fee.l2_gas_price))
            .l1_data_gas(scale_u64(fee.l1_data_gas_consumed))
            .l1_data_gas_price(scale_u128(fee.l1_data_gas_price));
        let max_fee = u128::from(scale_u64(fee.l1_gas_consumed).max(1))
            * scale_u128(fee.l1_gas_price)
            + u128::from(scale_u64(fee.l2_gas_consumed)) * scale_u128(fee.l2_gas_price)
            + u128::from(scale_u64(fee.l1_data_gas_consumed)) * scale_u128(fee.l1_data_gas_price);
        self.policy
            .check_fee(max_fee)
            .map_err(|d| SendFailure::Other(ChainError::Policy(d)))?;
        let prepared = exec.prepared().map_err(|e| {
            SendFailure::Other(ChainError::Rpc(RpcFailure::Incomplete(Arc::new(e))))
        })?;
        let hash = prepared.transaction_hash(false);
        // The record is committed on a blocking thread while the transaction is signed (its sync
        // to the disk follows on the journal's writer thread): both must be done before the send,
        // and neither needs the other.
        let ledger = self.ledger.clone();
        let name = action.to_string();
        let record = tokio::task::spawn_blocking(move || {
            ledger.record(hash, adventurer_id, &name, nonce, max_fee)
        });
        // Signed here from the hash just computed (the account would compute it again).
        let request = match prepared.get_invoke_request(false, true).await {
            Ok(mut request) => match self.account.signer().sign(hash, calls).await {
                Ok(signature) => {
                    request.signature = signature;
                    Ok(request)
                }
                Err(e) => Err(e),
            },
            Err(e) => Err(account_error(AccountError::Signing(e))),
        };
        match record.await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Err(SendFailure::Other(e.into())),
            Err(e) => {
                return Err(SendFailure::Other(ChainError::Unrecorded(Arc::new(e))));
            }
        }
        let request = match request {
            Ok(request) => request,
            Err(e) => {
                self.ledger.set_status(hash, TxStatus::SendFailed);
                return Err(SendFailure::Other(e));
            }
        };
        self.send_signed(request, hash)
            .await
            .map(|hash| (hash, max_fee))
    }

    /// Sends a signed transaction; after an uncertain failure, asks the node whether it has it.
    async fn send_signed(
        &self,
        request: starknet::core::types::BroadcastedInvokeTransactionV3,
        hash: Felt,
    ) -> Result<Felt, SendFailure> {
        match self.reader.provider.add_invoke_transaction(request).await {
            Ok(r) if r.transaction_hash == hash => Ok(hash),
            Ok(r) => Err(SendFailure::Other(ChainError::Decode(
                BadAnswer::OtherHash {
                    reported: r.transaction_hash,
                    sent: hash,
                },
            ))),
            Err(ProviderError::StarknetError(StarknetError::DuplicateTx)) => Ok(hash),
            Err(e) => {
                let failure = SendFailure::from_chain(ChainError::from_provider(e));
                if let SendFailure::Other(ChainError::Provider(_) | ChainError::Rpc(_)) = &failure
                    && self.node_knows(hash).await
                {
                    tracing::info!(tx_hash = %format!("{hash:#x}"), "send looked failed but the node has it");
                    return Ok(hash);
                }
                self.ledger.set_status(hash, TxStatus::SendFailed);
                Err(failure)
            }
        }
    }

    /// Whether the node knows a transaction (looked up a few times, for lagging nodes).
    async fn node_knows(&self, hash: Felt) -> bool {
        for attempt in 0..3 {
            match self.reader.provider.get_transaction_status(hash).await {
                Ok(_) => return true,
                Err(ProviderError::StarknetError(StarknetError::TransactionHashNotFound)) => {}
                Err(_) => {}
            }
            tokio::time::sleep(crate::retry::backoff(attempt)).await;
        }
        false
    }
}
