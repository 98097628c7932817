//! Signer GUIDs as the Controller account identifies signers, and the public dummy guardian key.

use starknet::core::types::Felt;
use starknet_crypto::{get_public_key, poseidon_hash};

/// `'Starknet Signer'`: the tag hashed with a Stark public key into its GUID
/// (controller-cairo `src/signer/signer_signature.cairo`).
pub const STARKNET_SIGNER_TAG: Felt = Felt::from_hex_unchecked("0x537461726b6e6574205369676e6572");

/// `'CARTRIDGE_GUARDIAN'`: the private key, public by design, controller-rs signs the guardian slot
/// with when the session has no guardian (controller-rs `account_sdk/src/constants.rs`). The
/// account checks that slot only when `guardian_key_guid != 0`, which is never the case here.
pub(crate) const DUMMY_GUARDIAN_KEY: Felt =
    Felt::from_hex_unchecked("0x4341525452494447455f475541524449414e");

/// The GUID of a Stark-key signer: `poseidon('Starknet Signer', public_key)`.
pub fn stark_signer_guid(public_key: Felt) -> Felt {
    poseidon_hash(STARKNET_SIGNER_TAG, public_key)
}

/// The public key of the dummy guardian.
pub(crate) fn dummy_guardian_public_key() -> Felt {
    get_public_key(&DUMMY_GUARDIAN_KEY)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn short(s: &str) -> Felt {
        Felt::from_bytes_be_slice(s.as_bytes())
    }

    #[test]
    fn tags_are_the_short_strings() {
        assert_eq!(STARKNET_SIGNER_TAG, short("Starknet Signer"));
        assert_eq!(DUMMY_GUARDIAN_KEY, short("CARTRIDGE_GUARDIAN"));
    }

    #[test]
    fn guid_depends_on_the_key() {
        assert_ne!(stark_signer_guid(Felt::ONE), stark_signer_guid(Felt::TWO));
    }
}
