//! Errors of the chain layer, classified so the MCP edge can map them once to the tool taxonomy.

use starknet::core::types::{ContractExecutionError, Felt, StarknetError};
use starknet::providers::ProviderError;

use super::revert::{Revert, classify};

/// What went wrong talking to the chain.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ChainError {
    /// Settings or manifest problems found at start.
    #[error("{0}")]
    Config(String),
    /// The node could not be reached or answered with an error unrelated to the game.
    #[error("RPC error: {0}")]
    Rpc(String),
    /// The node is not the network the profile expects.
    #[error("{0}")]
    WrongNetwork(String),
    /// The game refused the action, at simulation (`tx_hash` None, no fee) or on chain.
    #[error("the game reverted the action: {}", revert.reason)]
    Revert {
        /// The decoded reason and code.
        revert: Revert,
        /// The transaction hash when the revert happened on chain.
        tx_hash: Option<Felt>,
    },
    /// The transaction was sent but did not reach the requested status in time.
    #[error("transaction {tx_hash:#x} not confirmed in time (last status: {last_status})")]
    Timeout {
        /// The sent transaction.
        tx_hash: Felt,
        /// The last status the node reported.
        last_status: super::TxStatus,
    },
    /// The caller cancelled the wait; the transaction was sent and may still land.
    #[error(
        "stopped waiting for transaction {tx_hash:#x} (last status: {last_status}); it may still land"
    )]
    Cancelled {
        /// The sent transaction.
        tx_hash: Felt,
        /// The last status the node reported.
        last_status: super::TxStatus,
    },
    /// A response could not be decoded.
    #[error("cannot decode the node's answer: {0}")]
    Decode(String),
    /// The wallet policy refused to sign.
    #[error("{0}")]
    Policy(wallet::PolicyDenied),
    /// The wallet failed to sign.
    #[error("signing failed: {0}")]
    Signing(String),
    /// The Controller session cannot sign (expired, revoked, not registered, old class);
    /// nothing was signed. `renew` is the command that makes a new one.
    #[error("{problem}")]
    Session {
        /// What is wrong with the session.
        problem: super::session_state::SessionProblem,
        /// The command the player runs to approve a new session.
        renew: String,
    },
    /// The Cartridge paymaster has no sponsor for these calls (its errors -32003, -32004); they
    /// may be sent directly from the account instead.
    #[error("the paymaster does not sponsor these calls: {0}")]
    Unsponsored(String),
    /// The RPC has no Cartridge paymaster (`cartridge_addExecuteOutsideTransaction` is not a
    /// method there): outside executions cannot be sent through it.
    #[error(
        "this RPC has no Cartridge paymaster ({0}); outside executions (VRF actions) need a \
         Cartridge RPC as chain.rpc_url"
    )]
    NoPaymaster(String),
    /// The request cannot be served with this profile's contracts (e.g. a dungeon entry on a
    /// profile without a dungeon); nothing was signed.
    #[error("{0}")]
    Invalid(String),
}

impl ChainError {
    /// Classifies a provider error: contract failures become reverts, the rest RPC errors.
    pub fn from_provider(e: &ProviderError) -> Self {
        match e {
            ProviderError::StarknetError(StarknetError::TransactionExecutionError(data)) => {
                Self::revert(&execution_text(&data.execution_error))
            }
            ProviderError::StarknetError(StarknetError::ContractError(data)) => {
                Self::revert(&execution_text(&data.revert_error))
            }
            ProviderError::StarknetError(StarknetError::ContractNotFound) => Self::Config(
                "a game contract is not deployed at the configured address: check the profile's \
                 manifest or chain.contracts (on devnet, run `loot-survivor-mcp devnet up`)"
                    .into(),
            ),
            other => {
                let text = base::redact::redact_urls(&other.to_string());
                let revert = classify(&text);
                if revert.code != "UNKNOWN_REVERT" {
                    Self::Revert {
                        revert,
                        tx_hash: None,
                    }
                } else {
                    Self::Rpc(text)
                }
            }
        }
    }

    fn revert(text: &str) -> Self {
        Self::Revert {
            revert: classify(text),
            tx_hash: None,
        }
    }
}

/// The innermost message of a nested contract execution error.
fn execution_text(e: &ContractExecutionError) -> String {
    match e {
        ContractExecutionError::Message(m) => m.clone(),
        ContractExecutionError::Nested(inner) => execution_text(&inner.error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_execution_errors_yield_the_inner_reason() {
        let inner = ContractExecutionError::Message(
            "(0x4e6f7420696e20626174746c65 ('Not in battle'))".into(),
        );
        assert!(execution_text(&inner).contains("Not in battle"));
    }
}
