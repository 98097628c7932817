//! What a check can fail with, apart from what it reports: the node's client, a read through the
//! chain layer, and what it read that does not decode.

use chain::ChainError;

/// Why a check could not run to its report.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The HTTP client for the node could not be built.
    #[error("the HTTP client for the node could not be built: {0}")]
    HttpClient(#[source] reqwest::Error),
    /// A read through the chain layer failed (the node, its answer).
    #[error(transparent)]
    Chain(#[from] ChainError),
    /// A storage variable's name that has no storage address.
    #[error("storage variable {name:?}: {source}")]
    StorageVar {
        /// The name.
        name: String,
        /// Why it has none.
        #[source]
        source: starknet::core::utils::NonAsciiNameError,
    },
    /// A GameCore `GameEvent` on chain that does not decode.
    #[error("a GameCore GameEvent does not decode: {0}")]
    GameEvent(#[source] game::DecodeError),
    /// The deployment's VRF rule is fixed by its generation: nothing to read.
    #[error("this deployment's VRF rule is not read from the chain: {0}")]
    FixedVrfRule(&'static str),
}
