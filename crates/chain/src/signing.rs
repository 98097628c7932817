//! Why the account could not sign, with the signer's own error kept as the source.

use std::sync::Arc;

use starknet::core::crypto::EcdsaSignError;

/// A signer's failure (a refusal of the policy or a session's rules is not one: those are
/// `ChainError::Policy` and `ChainError::Session`).
#[derive(Debug, Clone, thiserror::Error)]
pub enum SigningError {
    /// The owner key's ECDSA signature failed.
    #[error("{0}")]
    Key(#[source] Arc<EcdsaSignError>),
    /// A Controller session's signer failed.
    #[error("{0}")]
    Session(#[source] Arc<wallet::session::SessionError>),
    /// An account signing through starknet-rs failed (its error as the account gave it).
    #[error("{0}")]
    Account(#[source] Arc<dyn std::error::Error + Send + Sync>),
}
