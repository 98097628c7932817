//! Signing as a Cartridge Controller session key: a key the account's owner approved once,
//! limited by a merkle tree of allowed (contract, entrypoint) pairs and an expiry. Holds the
//! session struct and its hash, the policy tree and proofs, and the session signature layout;
//! `store` keeps one session per profile (the key encrypted at rest); `approval` holds the wire
//! formats of the keychain's approval. Nothing here sends transactions.

pub mod approval;
mod guid;
mod hash;
mod merkle;
mod policies;
mod signer;
mod store;
#[cfg(test)]
mod tests;
mod unlocked;

pub use guid::{STARKNET_SIGNER_TAG, stark_signer_guid};
pub use hash::{SESSION_TYPE, SNIP12_DOMAIN_TYPE, Session, session_domain_hash, session_message};
pub use policies::{ALLOWED_METHOD_TYPE, Policy, SessionPolicies};
pub use signer::{AUTHORIZATION_BY_REGISTERED, SESSION_TOKEN, SessionSigner};
pub use store::{
    ApprovedSession, KEY_FILE, PENDING_KEY_FILE, PENDING_RECORD_FILE, PendingSession, PolicyRecord,
    RECORD_FILE, RecordState, SessionRecord, SessionStore, SessionStoreError,
};
pub use unlocked::UnlockedStore;

use starknet::core::crypto::EcdsaSignError;
use starknet::core::types::Felt;

/// Why a session could not be built or a call could not be signed with it.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The call's (contract, entrypoint) pair is not in the session's policies (a refusal the
    /// tools report as `POLICY_DENIED`).
    #[error(
        "entrypoint {selector:#x} of contract {contract:#x} is not among the session's allowed calls"
    )]
    NotInPolicies {
        /// The contract called.
        contract: Felt,
        /// The entrypoint selector called.
        selector: Felt,
    },
    /// Sessions may not call the Controller account itself (`controller/no-multicall-to-self`).
    #[error("a session may not call its own account (entrypoint {selector:#x})")]
    CallToSelf {
        /// The entrypoint selector called on the account.
        selector: Felt,
    },
    /// A policy set needs at least one pair.
    #[error("a session needs at least one allowed call")]
    NoPolicies,
    /// An entrypoint name that is not a Cairo identifier.
    #[error("`{0}` is not a valid entrypoint name")]
    InvalidEntrypoint(String),
    /// The hash to sign is out of the signable range.
    #[error("signing failed: {0}")]
    Sign(EcdsaSignError),
}
