//! The on-chain `Session` struct and its SNIP-12 revision 1 hash, assembled by hand as the
//! Controller does (controller-cairo `src/session/session_hash.cairo`, controller-rs
//! `account_sdk/src/account/session/hash.rs`), and the message a session key signs.

use starknet::core::types::Felt;
use starknet::core::utils::starknet_keccak;
use starknet_crypto::{poseidon_hash, poseidon_hash_many};

/// The SNIP-12 revision 1 type string of the domain (shared with SNIP-9 outside executions).
pub const SNIP12_DOMAIN_TYPE: &str = "\"StarknetDomain\"(\"name\":\"shortstring\",\"version\":\"shortstring\",\"chainId\":\"shortstring\",\"revision\":\"shortstring\")";

/// The type string of `Session`. It names four fields, yet the account hashes five values (the
/// guardian GUID last), and so do we.
pub const SESSION_TYPE: &str = "\"Session\"(\"Expires At\":\"timestamp\",\"Allowed Methods\":\"merkletree\",\"Metadata\":\"string\",\"Session Key\":\"felt\")";

/// `'StarkNet Message'`, the SNIP-12 message prefix.
const STARKNET_MESSAGE: Felt = Felt::from_hex_unchecked("0x537461726b4e6574204d657373616765");
/// `'SessionAccount.session'`, the session domain name.
const SESSION_DOMAIN_NAME: Felt =
    Felt::from_hex_unchecked("0x53657373696f6e4163636f756e742e73657373696f6e");
/// `'1'`, the session domain version.
const SESSION_DOMAIN_VERSION: Felt = Felt::from_hex_unchecked("0x31");

/// A session as the Controller stores and checks it (controller-cairo
/// `src/session/interface.cairo`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Session {
    /// Unix seconds after which the account refuses the session.
    pub expires_at: u64,
    /// The merkle root of the allowed (contract, entrypoint) leaves.
    pub allowed_policies_root: Felt,
    /// Hash of the session metadata; zero for the sessions the keychain and controller-rs create.
    pub metadata_hash: Felt,
    /// GUID of the session key signer.
    pub session_key_guid: Felt,
    /// GUID of a guardian co-signer; zero (none) for the sessions the keychain registers.
    pub guardian_key_guid: Felt,
}

impl Session {
    /// The five fields in Cairo Serde order (`register_session`'s first argument, and the
    /// session fields of a session signature).
    pub fn to_felts(&self) -> [Felt; 5] {
        [
            Felt::from(self.expires_at),
            self.allowed_policies_root,
            self.metadata_hash,
            self.session_key_guid,
            self.guardian_key_guid,
        ]
    }

    /// The SNIP-12 struct hash.
    pub fn struct_hash(&self) -> Felt {
        let mut values = vec![starknet_keccak(SESSION_TYPE.as_bytes())];
        values.extend(self.to_felts());
        poseidon_hash_many(&values)
    }

    /// The session hash for `account` on `chain_id`, as `is_session_registered` takes it:
    /// `poseidon('StarkNet Message', domain, account, struct_hash)`.
    pub fn hash(&self, chain_id: Felt, account: Felt) -> Felt {
        poseidon_hash_many(&[
            STARKNET_MESSAGE,
            session_domain_hash(chain_id),
            account,
            self.struct_hash(),
        ])
    }
}

/// The domain hash of `{name: 'SessionAccount.session', version: '1', chain_id, revision: 1}`.
pub fn session_domain_hash(chain_id: Felt) -> Felt {
    poseidon_hash_many(&[
        starknet_keccak(SNIP12_DOMAIN_TYPE.as_bytes()),
        SESSION_DOMAIN_NAME,
        SESSION_DOMAIN_VERSION,
        chain_id,
        Felt::ONE,
    ])
}

/// What the session key (and the guardian slot) sign for a transaction or outside-execution
/// hash: `hades(hash, session_hash, 2)[0]` (controller-cairo `src/session/session.cairo`).
pub fn session_message(hash: Felt, session_hash: Felt) -> Felt {
    poseidon_hash(hash, session_hash)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn short(s: &str) -> Felt {
        Felt::from_bytes_be_slice(s.as_bytes())
    }

    #[test]
    fn constants_are_the_short_strings() {
        assert_eq!(STARKNET_MESSAGE, short("StarkNet Message"));
        assert_eq!(SESSION_DOMAIN_NAME, short("SessionAccount.session"));
        assert_eq!(SESSION_DOMAIN_VERSION, short("1"));
    }

    #[test]
    fn hash_binds_chain_account_and_every_field() {
        let s = Session {
            expires_at: 10,
            allowed_policies_root: Felt::from(2),
            metadata_hash: Felt::ZERO,
            session_key_guid: Felt::from(3),
            guardian_key_guid: Felt::ZERO,
        };
        let base = s.hash(Felt::ONE, Felt::TWO);
        assert_ne!(base, s.hash(Felt::TWO, Felt::TWO));
        assert_ne!(base, s.hash(Felt::ONE, Felt::ONE));
        let guardian = Session {
            guardian_key_guid: Felt::ONE,
            ..s
        };
        assert_ne!(base, guardian.hash(Felt::ONE, Felt::TWO));
    }
}
