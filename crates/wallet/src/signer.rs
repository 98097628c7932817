//! A Starknet signer over a zeroizing secret key whose `Debug` shows only the public key.

use starknet::core::crypto::{EcdsaSignError, Signature, ecdsa_sign};
use starknet::core::types::Felt;
use starknet::signers::{Infallible, Signer, SignerInteractivityContext, VerifyingKey};
use starknet_types_core::felt::secret_felt::SecretFelt;

/// Signs transaction hashes with a key held in a [`SecretFelt`] (zeroized on drop, never printed).
pub struct SecretSigner {
    key: SecretFelt,
    public_key: Felt,
}

impl SecretSigner {
    /// Takes ownership of the key; the caller's copy is zeroized.
    pub fn new(key: SecretFelt) -> Self {
        let public_key = starknet_crypto::get_public_key(&key.inner_value());
        Self { key, public_key }
    }

    /// The public key matching the secret key.
    pub fn public_key(&self) -> Felt {
        self.public_key
    }
}

impl std::fmt::Debug for SecretSigner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SecretSigner")
            .field("public_key", &format_args!("{:#x}", self.public_key))
            .finish_non_exhaustive()
    }
}

#[async_trait::async_trait]
impl Signer for SecretSigner {
    type GetPublicKeyError = Infallible;
    type SignError = EcdsaSignError;

    async fn get_public_key(&self) -> Result<VerifyingKey, Self::GetPublicKeyError> {
        Ok(VerifyingKey::from_scalar(self.public_key))
    }

    async fn sign_hash(&self, hash: &Felt) -> Result<Signature, Self::SignError> {
        let key = self.key.inner_value();
        ecdsa_sign(&key, hash).map(Into::into)
    }

    fn is_interactive(&self, _context: SignerInteractivityContext<'_>) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signer() -> SecretSigner {
        let mut key = Felt::from_hex("0x71d7bb07b9a64f6f78ac4c816aff4da9").unwrap();
        SecretSigner::new(SecretFelt::from_felt(&mut key))
    }

    #[test]
    fn debug_shows_public_key_only() {
        let s = signer();
        let dbg = format!("{s:?}");
        assert!(!dbg.contains("71d7bb07"), "{dbg}");
        assert!(dbg.contains(&format!("{:#x}", s.public_key())), "{dbg}");
    }

    #[test]
    fn public_key_matches_devnet_account_zero() {
        // starknet-devnet --seed 0 prints this public key for its first predeployed account.
        assert_eq!(
            signer().public_key(),
            Felt::from_hex("0x39d9e6ce352ad4530a0ef5d5a18fd3303c3606a7fa6ac5b620020ad681cc33b")
                .unwrap()
        );
    }

    #[tokio::test]
    async fn signatures_verify_against_the_public_key() {
        let s = signer();
        let hash = Felt::from(12345u32);
        let sig = s.sign_hash(&hash).await.unwrap();
        assert!(starknet_crypto::verify(&s.public_key(), &hash, &sig.r, &sig.s).unwrap());
    }
}
