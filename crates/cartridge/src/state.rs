//! Whether a Controller session can sign right now, read from the chain: the account's class (only
//! Controllers that speak outside execution v3 are served), whether the session is registered
//! and not revoked, and its expiry. Each problem is typed, with the step that fixes it.
//!
//! Class hashes: cartridge-gg/controller-rs `account_sdk/artifacts/metadata.json` @addbf831
//! (v1.0.4 and v1.0.5 speak outside execution v2, v1.0.6 to v1.0.9 speak v3). Views:
//! controller-cairo `src/session/interface.cairo` (`is_session_registered(session_hash,
//! guid_or_address)`, `is_session_revoked(session_hash)`).

use starknet::core::types::{BlockId, BlockTag, Felt, FunctionCall};
use starknet::macros::selector;
use starknet::providers::Provider;

use base::redact::Redacted;
use wallet::SessionSigner;

use crate::CartridgeError;
pub use crate::problem::SessionProblem;

/// A Controller class this server knows, by hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ControllerClass {
    /// The release (`v1.0.9`).
    pub version: &'static str,
    /// The class hash.
    pub class_hash: Felt,
    /// Whether it speaks outside execution v3 (v1.0.6 and later); older ones are refused.
    pub outside_v3: bool,
}

/// Every released Controller class (controller-rs `artifacts/metadata.json` @addbf831).
pub const CONTROLLER_CLASSES: [ControllerClass; 6] = [
    class(
        "v1.0.4",
        "0x24a9edbfa7082accfceabf6a92d7160086f346d622f28741bf1c651c412c9ab",
        false,
    ),
    class(
        "v1.0.5",
        "0x32e17891b6cc89e0c3595a3df7cee760b5993744dc8dfef2bd4d443e65c0f40",
        false,
    ),
    class(
        "v1.0.6",
        "0x59e4405accdf565112fe5bf9058b51ab0b0e63665d280b816f9fe4119554b77",
        true,
    ),
    class(
        "v1.0.7",
        "0x3e0a04bab386eaa51a41abe93d8035dccc96bd9d216d44201266fe0b8ea1115",
        true,
    ),
    class(
        "v1.0.8",
        "0x511dd75da368f5311134dee2356356ac4da1538d2ad18aa66d57c47e3757d59",
        true,
    ),
    class(
        "v1.0.9",
        "0x743c83c41ce99ad470aa308823f417b2141e02e04571f5c0004e743556e7faf",
        true,
    ),
];

const fn class(version: &'static str, hash: &str, outside_v3: bool) -> ControllerClass {
    ControllerClass {
        version,
        class_hash: Felt::from_hex_unchecked(hash),
        outside_v3,
    }
}

/// The known Controller class with this hash.
pub fn controller_class(class_hash: Felt) -> Option<ControllerClass> {
    CONTROLLER_CLASSES
        .iter()
        .copied()
        .find(|c| c.class_hash == class_hash)
}

/// What the chain says about a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionState {
    /// The account's class, when it is a known Controller.
    pub class: Option<ControllerClass>,
    /// The account's class hash.
    pub class_hash: Felt,
    /// `is_session_registered(session_hash, owner_guid)`.
    pub registered: bool,
    /// `is_session_revoked(session_hash)`.
    pub revoked: bool,
    /// The session's expiry (unix seconds).
    pub expires_at: u64,
}

impl SessionState {
    /// The first problem that stops the session from signing at `now` (unix seconds).
    pub fn problem(&self, now: u64) -> Option<SessionProblem> {
        match self.class {
            None => {
                return Some(SessionProblem::UnsupportedClass {
                    class_hash: self.class_hash,
                    what: "not a Cartridge Controller class this server knows".into(),
                });
            }
            Some(c) if !c.outside_v3 => {
                return Some(SessionProblem::UnsupportedClass {
                    class_hash: self.class_hash,
                    what: format!(
                        "Controller {}, which speaks outside execution v2 only (v1.0.6 or later \
                         is needed; the account upgrades when its owner next logs in)",
                        c.version
                    ),
                });
            }
            Some(_) => {}
        }
        if self.revoked {
            Some(SessionProblem::Revoked)
        } else if self.expires_at <= now {
            Some(SessionProblem::Expired {
                expires_at: self.expires_at,
            })
        } else if !self.registered {
            Some(SessionProblem::NotRegistered)
        } else {
            None
        }
    }
}

/// The public facts of a session the chain is asked about (no key needed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionRef {
    /// The Controller account.
    pub address: Felt,
    /// The session hash (as `is_session_registered` takes it).
    pub session_hash: Felt,
    /// The GUID of the owner who registered it.
    pub owner_guid: Felt,
    /// The session's expiry (unix seconds).
    pub expires_at: u64,
}

impl SessionRef {
    /// The facts of a signer's session.
    pub fn of(session: &SessionSigner) -> Self {
        Self {
            address: session.address(),
            session_hash: session.session_hash(),
            owner_guid: session.owner_guid(),
            expires_at: session.session().expires_at,
        }
    }
}

/// Reads the session's state from the chain (pre-confirmed block).
pub async fn read_session_state<P: Provider + Sync>(
    provider: &P,
    session: &SessionSigner,
) -> Result<SessionState, CartridgeError> {
    read_session_ref_state(provider, &SessionRef::of(session)).await
}

/// [`read_session_state`] from the session's public facts (for a status without the password).
pub async fn read_session_ref_state<P: Provider + Sync>(
    provider: &P,
    session: &SessionRef,
) -> Result<SessionState, CartridgeError> {
    let block = BlockId::Tag(BlockTag::PreConfirmed);
    let account = session.address;
    let class_hash = provider
        .get_class_hash_at(block, account)
        .await
        .map_err(provider_error)?;
    let class = controller_class(class_hash);
    let (registered, revoked) = if class.is_some_and(|c| c.outside_v3) {
        let view = |selector, calldata| FunctionCall {
            contract_address: account,
            entry_point_selector: selector,
            calldata,
        };
        let registered = provider
            .call(
                view(
                    selector!("is_session_registered"),
                    vec![session.session_hash, session.owner_guid],
                ),
                block,
            )
            .await
            .map_err(provider_error)?;
        let revoked = provider
            .call(
                view(selector!("is_session_revoked"), vec![session.session_hash]),
                block,
            )
            .await
            .map_err(provider_error)?;
        (is_true(&registered), is_true(&revoked))
    } else {
        (false, false)
    };
    Ok(SessionState {
        class,
        class_hash,
        registered,
        revoked,
        expires_at: session.expires_at,
    })
}

fn provider_error(e: starknet::providers::ProviderError) -> CartridgeError {
    CartridgeError::Provider(Redacted::new(e))
}

fn is_true(felts: &[Felt]) -> bool {
    felts.first() == Some(&Felt::ONE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(version: &str) -> SessionState {
        let class = CONTROLLER_CLASSES
            .iter()
            .copied()
            .find(|c| c.version == version);
        SessionState {
            class,
            class_hash: class.map_or(Felt::from(9), |c| c.class_hash),
            registered: true,
            revoked: false,
            expires_at: 1_000,
        }
    }

    #[test]
    fn a_registered_live_session_on_a_v3_controller_has_no_problem() {
        assert_eq!(state("v1.0.9").problem(999), None);
        assert_eq!(state("v1.0.6").problem(999), None);
    }

    #[test]
    fn old_and_unknown_classes_are_refused_by_hash() {
        for v in ["v1.0.4", "v1.0.5"] {
            let p = state(v).problem(0).unwrap();
            assert!(
                matches!(&p, SessionProblem::UnsupportedClass { what, .. } if what.contains(v) && what.contains("v2")),
                "{p}"
            );
        }
        assert!(matches!(
            state("none").problem(0),
            Some(SessionProblem::UnsupportedClass { .. })
        ));
    }

    #[test]
    fn revoked_wins_over_expired_and_expired_over_unregistered() {
        let mut s = state("v1.0.9");
        s.registered = false;
        assert_eq!(s.problem(10), Some(SessionProblem::NotRegistered));
        assert_eq!(
            s.problem(1_000),
            Some(SessionProblem::Expired { expires_at: 1_000 })
        );
        s.revoked = true;
        assert_eq!(s.problem(1_000), Some(SessionProblem::Revoked));
    }
}
