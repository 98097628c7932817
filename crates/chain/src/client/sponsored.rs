//! Writes the Cartridge paymaster sends (SNIP-9 outside executions, submitted with
//! `cartridge_addExecuteOutsideTransaction`): VRF-bundled actions, and for Controller sessions
//! every write the paymaster sponsors.

use std::sync::atomic::Ordering::Relaxed;
use std::time::SystemTime;

use starknet::accounts::{Account, ConnectedAccount};
use starknet::core::types::{Call, Felt};

use tokio::sync::MutexGuard;

use super::outcome::{Sent, Sponsorship};
use super::plan::Plan;
use super::submitter::Submitter;
use super::{OUTSIDE_EXECUTION_VALIDITY, TxReport, WriteOptions};
use crate::CartridgeError;
use crate::ChainError;
use crate::controller::outside_v3::OutsideExecutionV3;
use crate::outside::{ANY_CALLER, OutsideExecution};
use crate::paymaster::OutsideRequest;
use crate::retry::read_with_retries;
use crate::signing::SigningError;
use crate::wallet_account::AccountSigner;
use std::sync::Arc;

impl Submitter {
    /// Signs the calls as an outside execution (any caller, valid for
    /// [`OUTSIDE_EXECUTION_VALIDITY`]) and submits it to the paymaster;
    /// then tracks the paymaster's transaction like any other write. An owner key signs SNIP-9
    /// v2; a Controller session signs v3, the only version current Controllers speak. The wallet
    /// pays no fee, so none is counted against the budget.
    pub(super) async fn execute_outside(
        &self,
        calls: Vec<Call>,
        adventurer_id: Option<game::AdventurerId>,
        action: &str,
        opts: WriteOptions,
    ) -> Result<TxReport, ChainError> {
        self.reader.abi.checked().await;
        self.may_sign(&calls)?;
        self.account.signer().ready(&*self.reader.provider).await?;
        let mut held = self.write_lock.lock().await;
        self.policy
            .check_rate(SystemTime::now())
            .map_err(ChainError::Policy)?;
        self.send_outside(&mut held, calls, adventurer_id, action, opts)
            .await
    }

    /// The signing and sending half of [`Submitter::execute_outside`], for a caller that holds
    /// the account's write lock (`_held`) and has checked `calls` against the policies.
    async fn send_outside(
        &self,
        _held: &mut MutexGuard<'_, Option<Felt>>,
        calls: Vec<Call>,
        adventurer_id: Option<game::AdventurerId>,
        action: &str,
        opts: WriteOptions,
    ) -> Result<TxReport, ChainError> {
        let now = SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        let execute_before = now.as_secs() + OUTSIDE_EXECUTION_VALIDITY.as_secs();
        let account = self.account.address();
        let (hash, nonce) = match self.account.signer() {
            AccountSigner::Watch => return Err(ChainError::NoSigner),
            AccountSigner::Key(key) => {
                let counter = self.outside_counter.fetch_add(1, Relaxed);
                let nonce = starknet_crypto::poseidon_hash_many(&[
                    account,
                    Felt::from(now.as_nanos()),
                    Felt::from(counter),
                ]);
                let execution = OutsideExecution {
                    caller: ANY_CALLER,
                    nonce,
                    execute_after: 0,
                    execute_before,
                    calls,
                };
                let signed = execution
                    .sign(&**key, account, self.reader.chain_id())
                    .await
                    .map_err(|e| ChainError::Signing(SigningError::Key(Arc::new(e))))?;
                tracing::info!(
                    outside_hash = %format!("{:#x}", signed.hash),
                    action,
                    "submitting outside execution to the Cartridge paymaster"
                );
                (
                    self.paymaster.submit(OutsideRequest::V2(&signed)).await?,
                    nonce,
                )
            }
            AccountSigner::Session(_) => {
                let execution = OutsideExecutionV3::new_any_caller(calls, execute_before)?;
                let message = execution.message_hash(self.reader.chain_id(), account);
                let signature = self
                    .account
                    .signer()
                    .sign(message, &execution.calls)
                    .await?;
                tracing::info!(
                    outside_hash = %format!("{message:#x}"),
                    action,
                    "submitting a session's outside execution (v3) to the Cartridge paymaster"
                );
                let sent = self
                    .paymaster
                    .submit(OutsideRequest::V3 {
                        account,
                        execution: &execution,
                        signature: &signature,
                    })
                    .await;
                match sent {
                    Ok(hash) => (hash, execution.nonce.0),
                    Err(e) => {
                        return Err(self
                            .account
                            .signer()
                            .refused(&*self.reader.provider, e.into())
                            .await);
                    }
                }
            }
        };
        if let Err(e) = self.ledger.record(hash, adventurer_id, action, nonce, 0) {
            tracing::error!(tx_hash = %format!("{hash:#x}"), "sent but not journaled: {e}");
        }
        self.track(hash, action, opts, Sent::Sponsored).await
    }

    /// For a Controller session, sends the plan through the paymaster when it sponsors it. When it
    /// does not (no sponsor, or no paymaster at this RPC), or for an owner key, the caller sends
    /// it from the account, reusing the calls built here at the account nonce they name. Runs
    /// under the account's write lock (`held`), so a predicted token id stays this write's.
    pub(super) async fn try_sponsored(
        &self,
        held: &mut MutexGuard<'_, Option<Felt>>,
        plan: &Plan,
        adventurer_id: Option<game::AdventurerId>,
        action: &str,
        opts: &WriteOptions,
    ) -> Result<Sponsorship, ChainError> {
        if self.account.signer().session().is_none() || self.paymaster_absent.load(Relaxed) {
            return Ok(Sponsorship::Declined(None));
        }
        let nonce = match plan {
            Plan::Calls(_) => None,
            Plan::MintAndStart { .. } => Some(
                read_with_retries(|| self.account.get_nonce())
                    .await
                    .map_err(ChainError::from_provider)?,
            ),
        };
        let calls = self.build(plan, nonce.unwrap_or(Felt::ZERO)).await?;
        self.check_planned(plan, &calls)?;
        let declined = |calls| Sponsorship::Declined(nonce.map(|n| (n, calls)));
        match self
            .send_outside(held, calls.clone(), adventurer_id, action, opts.clone())
            .await
        {
            Ok(report) => Ok(Sponsorship::Sent(report)),
            Err(ChainError::Cartridge(CartridgeError::NoPaymaster(reason))) => {
                self.paymaster_absent.store(true, Relaxed);
                tracing::info!(
                    "this RPC has no Cartridge paymaster ({reason}); the account sends the \
                     session's writes itself"
                );
                Ok(declined(calls))
            }
            Err(ChainError::Cartridge(CartridgeError::Unsponsored(reason))) => {
                tracing::info!(
                    action,
                    "the paymaster does not sponsor this write ({reason}); the account sends it"
                );
                Ok(declined(calls))
            }
            Err(e) => Err(e),
        }
    }
}
