//! What goes wrong building an outside execution, relaying it, or reading a session's state.

use std::sync::Arc;

use base::redact::Redacted;
use starknet::providers::ProviderError;

use crate::revert::{NodeRefusal, Revert};

/// A failure of this crate, typed so the chain layer classifies it once (a revert or a refusal
/// is the chain's own, whoever read it; the paymaster's own failures stay whole).
#[derive(Debug, Clone, thiserror::Error)]
pub enum CartridgeError {
    /// The Cartridge RPC could not be reached, or its answer not read.
    #[error("RPC error: Cartridge RPC: {0}")]
    Http(#[source] Redacted<reqwest::Error>),
    /// The paymaster failed for a reason unrelated to the game (a rate limit, the time window,
    /// an outage, a body that is not JSON).
    #[error("RPC error: {0}")]
    Rpc(String),
    /// The node answered a session's read with an error (kept whole: the chain layer classifies
    /// it as it does every provider error).
    #[error("RPC error: {0}")]
    Provider(#[source] Redacted<ProviderError>),
    /// The paymaster's answer is not a JSON-RPC result or error.
    #[error("cannot decode the node's answer: {0}")]
    Decode(String),
    /// The paymaster's answer is not the JSON expected.
    #[error("cannot decode the node's answer: {context}: {source}")]
    DecodeJson {
        /// Which part of the answer.
        context: String,
        /// The parse error.
        #[source]
        source: Arc<serde_json::Error>,
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
    /// The paymaster refused the outside execution as something it does not take (not a
    /// Cartridge RPC, an account without SNIP-9): a settings matter.
    #[error("{0}")]
    Config(String),
    /// The paymaster ran the calls and the game refused them (decoded like a node's revert).
    #[error("the game reverted the action: {}", .0.reason)]
    Revert(Revert),
    /// The paymaster or the account refused the execution before running it (a session, a
    /// nonce).
    #[error("RPC error: {message}")]
    Refused {
        /// What was refused.
        refusal: NodeRefusal,
        /// The answer's words (URLs redacted).
        message: String,
    },
    /// The system gave no randomness for a v3 nonce.
    #[error("signing failed: no randomness for the nonce: {0}")]
    Randomness(#[source] getrandom::Error),
}

impl CartridgeError {
    /// A part of the answer that is not the JSON expected.
    pub fn decode_json(context: impl Into<String>, source: serde_json::Error) -> Self {
        Self::DecodeJson {
            context: context.into(),
            source: Arc::new(source),
        }
    }

    /// Whether the paymaster or the node could not be reached or did not answer as one.
    pub fn is_unreachable(&self) -> bool {
        match self {
            Self::Provider(p) => !matches!(p.inner(), ProviderError::StarknetError(_)),
            Self::Rpc(_) | Self::Http(_) => true,
            _ => false,
        }
    }
}
