//! The write half of the chain client: one pipeline for every write of one account, in stages —
//! plan (the calls, or how to build them once the nonce is known), policy (the server's and the
//! session's), sign, record (the journal, before the send), send (through the paymaster when it
//! sponsors the write, else from the account) and track (to the receipt) — under one lock that
//! covers planning on the sponsored route as on the paid one. The node, the paymaster and the
//! signer are seams: [`crate::node::NodeTransport`], [`Paymaster`] and
//! [`crate::wallet_account::AccountSigner`].

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::{Duration, SystemTime};

use starknet::accounts::ConnectedAccount;
use starknet::core::types::{Call, Felt};

use super::outcome::{SendFailure, Sent, Sponsorship};
use super::plan::Plan;
use super::reader::ChainReader;
use super::{TxReport, WalletAccount, WriteOptions};
use crate::ledger::TxLedger;
use crate::paymaster::Paymaster;
use crate::retry::read_with_retries;
use crate::subscribe::Subscriber;
use crate::{ChainError, RpcFailure};
use wallet::PolicyGuard;

/// Sends the writes of one account.
pub(crate) struct Submitter {
    /// Reads what planning and tracking need (the token, receipts).
    pub(crate) reader: ChainReader,
    pub(crate) account: WalletAccount,
    pub(super) poll: Duration,
    pub(super) fee_multiplier: f64,
    /// Held for the whole of a write; holds the next nonce once known.
    pub(super) write_lock: tokio::sync::Mutex<Option<Felt>>,
    pub(super) ledger: TxLedger,
    pub(super) policy: Arc<PolicyGuard>,
    /// Relays outside executions (VRF-bundled actions, a session's sponsored writes).
    pub(super) paymaster: Arc<dyn Paymaster>,
    /// Distinguishes outside-execution nonces made in the same nanosecond.
    pub(super) outside_counter: AtomicU64,
    /// Where sent transactions are followed by subscription (`None`: polling).
    pub(super) subscriber: Option<Subscriber>,
    /// Storage key of the game token's minted count, where its layout is known.
    pub(crate) token_count_key: Option<Felt>,
    /// This RPC has no Cartridge paymaster (it answered "method not found"): sessions send
    /// directly.
    pub(super) paymaster_absent: AtomicBool,
}

impl Submitter {
    pub(super) fn new(
        reader: ChainReader,
        account: WalletAccount,
        policy: Arc<PolicyGuard>,
        paymaster: Arc<dyn Paymaster>,
        poll: Duration,
        fee_multiplier: f64,
    ) -> Self {
        Self {
            reader,
            account,
            poll,
            fee_multiplier,
            write_lock: tokio::sync::Mutex::new(None),
            ledger: TxLedger::default(),
            policy,
            paymaster,
            outside_counter: AtomicU64::new(0),
            subscriber: None,
            token_count_key: None,
            paymaster_absent: AtomicBool::new(false),
        }
    }

    /// Refuses, before anything is signed, calls whose entrypoint differs from the bindings and
    /// calls the server's policy or the session's forbid.
    pub(super) fn may_sign(&self, calls: &[Call]) -> Result<(), ChainError> {
        self.reader.abi.current().check_calls(calls)?;
        self.policy.check_calls(calls).map_err(ChainError::Policy)?;
        self.account.signer().check_calls(calls)
    }

    /// Checks the calls planning made (a mint+start's predicted start) against the policies; a
    /// plan of known calls was checked before the lock.
    pub(crate) fn check_planned(&self, plan: &Plan, calls: &[Call]) -> Result<(), ChainError> {
        match plan {
            Plan::Calls(_) => Ok(()),
            Plan::MintAndStart { .. } => self.may_sign(calls),
        }
    }

    /// Simulates (fee estimate), signs, records, sends and waits; one write at a time for this
    /// account, with a local nonce that is re-read from the node after any nonce error.
    pub(crate) async fn execute(
        &self,
        calls: Vec<Call>,
        adventurer_id: Option<game::AdventurerId>,
        action: &str,
        opts: WriteOptions,
    ) -> Result<TxReport, ChainError> {
        self.execute_planned(Plan::Calls(calls), adventurer_id, action, opts)
            .await
    }

    /// [`Submitter::execute`] for calls that may depend on the chain at the nonce they are
    /// signed with. The account's write lock is taken before anything is planned and held until
    /// the receipt, on the sponsored route as on the paid one, so no other write of this account
    /// comes between a plan (a predicted token id) and its transaction. Each built set of calls
    /// is checked against the policies once, right before it is signed.
    pub(crate) async fn execute_planned(
        &self,
        plan: Plan,
        adventurer_id: Option<game::AdventurerId>,
        action: &str,
        opts: WriteOptions,
    ) -> Result<TxReport, ChainError> {
        self.reader.abi.checked().await;
        if let Plan::Calls(calls) = &plan {
            self.may_sign(calls)?;
        }
        self.account.signer().ready(&*self.reader.provider).await?;
        let mut next_nonce = self.write_lock.lock().await;
        self.policy
            .check_rate(SystemTime::now())
            .map_err(ChainError::Policy)?;
        let mut declined = match self
            .try_sponsored(&mut next_nonce, &plan, adventurer_id, action, &opts)
            .await?
        {
            Sponsorship::Sent(report) => return Ok(report),
            Sponsorship::Declined(built) => built,
        };
        let mut resynced = false;
        let ((hash, bound), nonce) = loop {
            let nonce = match *next_nonce {
                Some(n) => n,
                None => read_with_retries(|| self.account.get_nonce())
                    .await
                    .map_err(ChainError::from_provider)?,
            };
            let built = match declined.take() {
                Some((at, calls)) if at == nonce => Ok(calls),
                _ => match self.build(&plan, nonce).await {
                    Ok(calls) => {
                        self.check_planned(&plan, &calls)?;
                        Ok(calls)
                    }
                    Err(e) => Err(e),
                },
            };
            let sent = match built {
                Ok(calls) => {
                    self.sign_and_send(&calls, nonce, adventurer_id, action, &opts)
                        .await
                }
                Err(e) => Err(SendFailure::from_chain(e)),
            };
            match sent {
                Ok(sent) => break (sent, nonce),
                Err(SendFailure::Nonce) if !resynced => {
                    tracing::info!("nonce rejected; re-reading it from the node");
                    *next_nonce = None;
                    resynced = true;
                }
                Err(SendFailure::Nonce) => {
                    *next_nonce = None;
                    return Err(ChainError::Rpc(RpcFailure::NonceRejected));
                }
                Err(SendFailure::Other(e)) => {
                    *next_nonce = None;
                    return Err(self
                        .account
                        .signer()
                        .refused(&*self.reader.provider, e)
                        .await);
                }
            }
        };
        *next_nonce = Some(nonce + Felt::ONE);
        self.track(hash, action, opts, Sent::Paid { bound }).await
    }
}
