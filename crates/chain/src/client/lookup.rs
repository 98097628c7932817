//! What the chain client looks up for the agent: a transaction's status, receipt and events with
//! what this server recorded of it, and the wallet's balances and spending.

use serde::Serialize;
use starknet::core::types::{ExecutionResult, Felt, StarknetError};
use starknet::providers::{Provider, ProviderError};

use super::{ChainClient, TxReport};
use crate::ChainError;
use crate::bindings::erc20;
use crate::identity::short_string;
use crate::ledger::TxRecord;
use crate::retry::read_with_retries;
use crate::submit::execution_of;
use crate::{Execution, TxStatus};

impl ChainClient {
    /// Status, receipt and game events of a transaction, plus what this server recorded of it.
    pub async fn get_tx(&self, hash: Felt) -> Result<TxLookup, ChainError> {
        let record = self.ledger().get(hash);
        let status = read_with_retries(|| self.provider.get_transaction_status(hash)).await;
        let status = match status {
            Ok(s) => s,
            Err(ProviderError::StarknetError(StarknetError::TransactionHashNotFound)) => {
                return Ok(TxLookup {
                    record,
                    status: TxStatus::NotReceived,
                    execution: None,
                    revert_reason: None,
                    report: None,
                });
            }
            Err(e) => return Err(ChainError::from_provider(e)),
        };
        let (execution, revert_reason) = match execution_of(&status) {
            Some(ExecutionResult::Succeeded) => (Some(Execution::Succeeded), None),
            Some(ExecutionResult::Reverted { reason }) => (
                Some(Execution::Reverted),
                Some(crate::revert::classify(reason).reason),
            ),
            None => (None, None),
        };
        let report = match execution {
            Some(_) => {
                let receipt = read_with_retries(|| self.provider.get_transaction_receipt(hash))
                    .await
                    .map_err(ChainError::from_provider)?;
                Some(self.report(receipt)?)
            }
            None => None,
        };
        Ok(TxLookup {
            record,
            status: (&status).into(),
            execution,
            revert_reason,
            report,
        })
    }

    /// The account's balance of an ERC20 token (STRK, ETH), in its smallest unit.
    pub async fn balance_of(&self, token: Felt) -> Result<u128, ChainError> {
        let call = erc20::balance_of(token, &self.account_address());
        let v = self
            .view("balance_of", call, erc20::decode_balance_of)
            .await?;
        Ok(if v.high() == 0 { v.low() } else { u128::MAX })
    }

    /// Address, chain, fee-token balances, policy and spending of the wallet.
    /// A server without a signer has no wallet to report ([`ChainError::NoSigner`]).
    pub async fn wallet_report(&self) -> Result<WalletReport, ChainError> {
        if matches!(
            self.submitter.account.signer(),
            crate::wallet_account::AccountSigner::Watch
        ) {
            return Err(ChainError::NoSigner);
        }
        let mut balances = Vec::new();
        for (symbol, token) in &self.fee_tokens {
            let amount = self.balance_of(*token).await?;
            balances.push(TokenBalance {
                token: symbol.clone(),
                address: token.to_fixed_hex_string(),
                amount: amount.to_string(),
                formatted: wallet::format_strk(amount),
            });
        }
        Ok(WalletReport {
            account_address: format!("{:#x}", self.account_address()),
            chain_id: short_string(self.chain_id()),
            balances,
            policy: self.policy().snapshot(),
            transactions_signed: self.ledger().len(),
            session: match self.submitter.account.signer().session() {
                Some(slot) => Some(slot.report(&*self.provider).await?),
                None => None,
            },
        })
    }
}

/// One fee-token balance.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct TokenBalance {
    /// Token symbol.
    pub token: String,
    /// Token contract address.
    pub address: String,
    /// Balance in the smallest unit (FRI, wei), as a decimal string.
    pub amount: String,
    /// Balance in whole tokens (18 decimals).
    pub formatted: String,
}

/// What the wallet report says about the signing account.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct WalletReport {
    /// The account contract address.
    pub account_address: String,
    /// The node's chain id (short string when printable).
    pub chain_id: String,
    /// Fee-token balances.
    pub balances: Vec<TokenBalance>,
    /// The policy in force and what this server run spent.
    pub policy: wallet::PolicySnapshot,
    /// Transactions signed by this account (every run in the journal).
    pub transactions_signed: usize,
    /// The Controller session the server signs with (session wallets only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<crate::controller::slot::SessionReport>,
}

/// What a transaction lookup found.
#[derive(Debug, Clone)]
pub struct TxLookup {
    /// What this server recorded when it signed the transaction (None: not sent by this run).
    pub record: Option<TxRecord>,
    /// `NOT_RECEIVED`, `RECEIVED`, `PRE_CONFIRMED`, `ACCEPTED_ON_L2`, `ACCEPTED_ON_L1`.
    pub status: TxStatus,
    /// How it ended, once executed.
    pub execution: Option<Execution>,
    /// The game's reason when reverted.
    pub revert_reason: Option<String>,
    /// Receipt details and decoded game events once executed.
    pub report: Option<TxReport>,
}
