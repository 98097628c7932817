//! Signing as a registered Controller session key: checks every call against the policies, then
//! lays out the session signature the account's `__validate__` and `execute_from_outside_v3`
//! read (controller-cairo `src/session/session.cairo`, controller-rs
//! `account_sdk/src/account/session/account.rs` and `signers/session.rs`).

use starknet::core::types::{Call, Felt};
use starknet::signers::Signer;

use super::SessionError;
use super::guid::{DUMMY_GUARDIAN_KEY, dummy_guardian_public_key, stark_signer_guid};
use super::hash::{Session, session_message};
use super::policies::SessionPolicies;
use crate::SecretSigner;

/// `'session-token'`: the first felt of a session signature.
pub const SESSION_TOKEN: Felt = Felt::from_hex_unchecked("0x73657373696f6e2d746f6b656e");

/// `'authorization-by-registered'`: the authorization of a session the owner registered on chain
/// with `register_session`, followed by the owner's GUID.
pub const AUTHORIZATION_BY_REGISTERED: Felt =
    Felt::from_hex_unchecked("0x617574686f72697a6174696f6e2d62792d72656769737465726564");

/// The `SignerSignature::Starknet` variant index.
const STARKNET_SIGNER_VARIANT: Felt = Felt::ZERO;

/// A session key bound to one Controller account, one chain and one registered session.
#[derive(Debug)]
pub struct SessionSigner {
    key: SecretSigner,
    address: Felt,
    chain_id: Felt,
    owner_guid: Felt,
    policies: SessionPolicies,
    session: Session,
    session_hash: Felt,
}

impl SessionSigner {
    /// A signer for a session the owner (GUID `owner_guid`) registered on `address`, limited to
    /// `policies` until `expires_at` (unix seconds), with no metadata and no guardian.
    pub fn new_as_registered(
        key: SecretSigner,
        address: Felt,
        owner_guid: Felt,
        chain_id: Felt,
        policies: SessionPolicies,
        expires_at: u64,
    ) -> Self {
        let session = Session {
            expires_at,
            allowed_policies_root: policies.root(),
            metadata_hash: Felt::ZERO,
            session_key_guid: stark_signer_guid(key.public_key()),
            guardian_key_guid: Felt::ZERO,
        };
        let session_hash = session.hash(chain_id, address);
        Self {
            key,
            address,
            chain_id,
            owner_guid,
            policies,
            session,
            session_hash,
        }
    }

    /// The Controller account.
    pub fn address(&self) -> Felt {
        self.address
    }

    /// The chain the session was registered on.
    pub fn chain_id(&self) -> Felt {
        self.chain_id
    }

    /// The GUID of the owner who registered the session.
    pub fn owner_guid(&self) -> Felt {
        self.owner_guid
    }

    /// The session struct (as `register_session` takes it).
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The session hash (as `is_session_registered` takes it).
    pub fn session_hash(&self) -> Felt {
        self.session_hash
    }

    /// The policies, in leaf order.
    pub fn policies(&self) -> &SessionPolicies {
        &self.policies
    }

    /// The session key's public key.
    pub fn public_key(&self) -> Felt {
        self.key.public_key()
    }

    /// One merkle proof per call, in call order; refuses a call to the account itself and any
    /// call no policy allows, before anything is signed.
    pub fn proofs(&self, calls: &[Call]) -> Result<Vec<Vec<Felt>>, SessionError> {
        calls
            .iter()
            .map(|call| {
                if call.to == self.address {
                    return Err(SessionError::CallToSelf {
                        selector: call.selector,
                    });
                }
                self.policies
                    .proof(call.to, call.selector)
                    .ok_or(SessionError::NotInPolicies {
                        contract: call.to,
                        selector: call.selector,
                    })
            })
            .collect()
    }

    /// The full session signature of `calls` for `hash` (a transaction hash for `__execute__`,
    /// or an outside-execution message hash for `execute_from_outside_v3`).
    pub async fn sign(&self, hash: Felt, calls: &[Call]) -> Result<Vec<Felt>, SessionError> {
        let proofs = self.proofs(calls)?;
        let message = session_message(hash, self.session_hash);
        let session_sig = self
            .key
            .sign_hash(&message)
            .await
            .map_err(SessionError::Sign)?;
        let guardian_sig = starknet::core::crypto::ecdsa_sign(&DUMMY_GUARDIAN_KEY, &message)
            .map_err(SessionError::Sign)?;

        let mut out = vec![SESSION_TOKEN];
        out.extend(self.session.to_felts());
        out.push(Felt::ONE); // cache_authorization
        out.extend([Felt::TWO, AUTHORIZATION_BY_REGISTERED, self.owner_guid]);
        out.extend([
            STARKNET_SIGNER_VARIANT,
            self.key.public_key(),
            session_sig.r,
            session_sig.s,
        ]);
        out.extend([
            STARKNET_SIGNER_VARIANT,
            dummy_guardian_public_key(),
            guardian_sig.r,
            guardian_sig.s,
        ]);
        out.push(Felt::from(proofs.len()));
        for proof in proofs {
            out.push(Felt::from(proof.len()));
            out.extend(proof);
        }
        Ok(out)
    }
}
