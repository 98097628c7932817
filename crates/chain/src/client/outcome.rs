//! What the write pipeline's routes answer: who pays for a sent transaction, why a send did not
//! happen, what the sponsored route did.

use starknet::core::types::{Call, Felt};

use super::TxReport;
use crate::ChainError;
use crate::revert::NodeRefusal;

/// Who pays for a sent transaction.
#[derive(Debug, Clone, Copy)]
pub(super) enum Sent {
    /// The wallet, at most `bound` (counted against the budget until the receipt gives the fee).
    Paid { bound: u128 },
    /// The Cartridge paymaster (an outside execution): counted for the rate limit only.
    Sponsored,
}

/// Why a send did not happen.
pub(super) enum SendFailure {
    /// The nonce was stale: re-read it and try again.
    Nonce,
    /// Anything else.
    Other(ChainError),
}

impl SendFailure {
    /// A stale nonce, whether the send refused it or the simulation before it did (another client
    /// of the same account moved it on), as decoded from the node's answer; else the error itself.
    pub(super) fn from_chain(e: ChainError) -> Self {
        if e.node_refusal() == Some(NodeRefusal::StaleNonce) {
            SendFailure::Nonce
        } else {
            SendFailure::Other(e)
        }
    }
}

/// What the sponsored route did with a write.
pub(super) enum Sponsorship {
    /// The paymaster relayed it.
    Sent(TxReport),
    /// The account sends it; with the calls already built (and checked) at the account nonce
    /// they were planned for, when planning read the chain.
    Declined(Option<(Felt, Vec<Call>)>),
}
