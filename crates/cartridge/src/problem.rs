//! Why a Controller session cannot sign.

use starknet::core::types::Felt;

/// Why a session cannot sign; each names the fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionProblem {
    /// The session's expiry has passed.
    #[error("the Controller session expired at {expires_at} (unix seconds)")]
    Expired {
        /// When it expired.
        expires_at: u64,
    },
    /// The owner revoked it (`revoke_session`, or from the Cartridge keychain).
    #[error("the Controller session was revoked by the account's owner")]
    Revoked,
    /// The account does not know this session (never approved, approved for other policies, or
    /// approved on another chain).
    #[error("the Controller account does not know this session (not registered)")]
    NotRegistered,
    /// The account is not a Controller class this server can sign for.
    #[error("the account's class {class_hash:#x} is {what}")]
    UnsupportedClass {
        /// The account's class hash.
        class_hash: Felt,
        /// What that class is ("Controller v1.0.5, which speaks outside execution v2 only", …).
        what: String,
    },
    /// No session is stored for this profile.
    #[error("no Controller session is stored for this profile")]
    Missing,
    /// The session was approved for another generation's contracts, or another deployment.
    #[error("this Controller session was approved for {approved_for}; this server plays {serving}")]
    OtherDeployment {
        /// What its policies name ("the v1 world's contracts (game systems 0x…)").
        approved_for: String,
        /// What this server plays ("the v2 contracts (GameCore 0x…)").
        serving: String,
    },
}

impl SessionProblem {
    /// A short stable name (`expired`, `revoked`, `not_registered`, `unsupported_class`,
    /// `missing`, `other_deployment`).
    pub fn code(&self) -> &'static str {
        match self {
            SessionProblem::Expired { .. } => "expired",
            SessionProblem::Revoked => "revoked",
            SessionProblem::NotRegistered => "not_registered",
            SessionProblem::UnsupportedClass { .. } => "unsupported_class",
            SessionProblem::Missing => "missing",
            SessionProblem::OtherDeployment { .. } => "other_deployment",
        }
    }
}
