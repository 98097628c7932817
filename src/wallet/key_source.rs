//! Where the key comes from: `LS_PRIVATE_KEY` (environment), `wallet.private_key_file` /
//! `LS_PRIVATE_KEY_FILE`, or a public devnet key in the profile. Errors never contain key material.

use std::collections::HashMap;

use secrecy::ExposeSecret;
use starknet_types_core::felt::secret_felt::SecretFelt;

use super::SecretSigner;
use crate::config::Settings;

/// Why no signer could be built.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// No key source is configured.
    #[error("no signing key: set LS_PRIVATE_KEY or LS_PRIVATE_KEY_FILE (or use a devnet profile)")]
    Missing,
    /// The key file could not be read.
    #[error("cannot read the key file {path}: {reason}")]
    File {
        /// The file path (not secret).
        path: String,
        /// The I/O error kind.
        reason: String,
    },
    /// The key is not a hex felt.
    #[error("the private key from {source_name} is not a 0x-hex felt")]
    Malformed {
        /// Which source held the malformed key.
        source_name: &'static str,
    },
}

/// Builds the signer from the first configured source: environment, file, then profile dev key.
pub fn load_signer(
    settings: &Settings,
    env: &HashMap<String, String>,
) -> Result<SecretSigner, KeyError> {
    if let Some(raw) = env.get("LS_PRIVATE_KEY") {
        return parse(raw.trim().to_string(), "LS_PRIVATE_KEY");
    }
    if let Some(path) = &settings.wallet.private_key_file {
        let path = crate::config::resolve_home(path);
        let text = std::fs::read_to_string(&path).map_err(|e| KeyError::File {
            path: path.display().to_string(),
            reason: e.kind().to_string(),
        })?;
        let mut text = zeroize::Zeroizing::new(text);
        let trimmed = text.trim().to_string();
        zeroize::Zeroize::zeroize(&mut *text);
        return parse(trimmed, "the key file");
    }
    if let Some(key) = &settings.wallet.dev_private_key {
        return parse(key.expose_secret().trim().to_string(), "the profile");
    }
    Err(KeyError::Missing)
}

fn parse(mut hex: String, source_name: &'static str) -> Result<SecretSigner, KeyError> {
    let valid = hex.strip_prefix("0x").is_some_and(|h| {
        !h.is_empty() && h.len() <= 64 && h.chars().all(|c| c.is_ascii_hexdigit())
    });
    if !valid {
        zeroize::Zeroize::zeroize(&mut hex);
        return Err(KeyError::Malformed { source_name });
    }
    SecretFelt::from_hex_string(&mut hex)
        .map(SecretSigner::new)
        .map_err(|_| KeyError::Malformed { source_name })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::LoadOptions;

    fn settings(profile: &str) -> Settings {
        Settings::load(&LoadOptions {
            profile: Some(profile.into()),
            ..LoadOptions::default()
        })
        .unwrap()
    }

    #[test]
    fn env_key_wins_over_profile_key() {
        let env = HashMap::from([("LS_PRIVATE_KEY".to_string(), "0x1234".to_string())]);
        let s = load_signer(&settings("devnet"), &env).unwrap();
        assert_eq!(
            s.public_key(),
            starknet_crypto::get_public_key(&0x1234u32.into())
        );
    }

    #[test]
    fn devnet_profile_key_is_used_without_env() {
        assert!(load_signer(&settings("devnet"), &HashMap::new()).is_ok());
    }

    #[test]
    fn mainnet_without_key_is_missing() {
        let e = load_signer(&settings("mainnet"), &HashMap::new()).unwrap_err();
        assert!(matches!(e, KeyError::Missing));
    }

    #[test]
    fn malformed_key_error_does_not_echo_the_key() {
        let env = HashMap::from([("LS_PRIVATE_KEY".to_string(), "0xnothexsecret".to_string())]);
        let e = load_signer(&settings("devnet"), &env).unwrap_err();
        assert!(!e.to_string().contains("nothexsecret"), "{e}");
    }

    #[test]
    fn key_file_is_read_and_trimmed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("key");
        std::fs::write(&path, "0x1234\n").unwrap();
        let mut s = settings("mainnet");
        s.wallet.private_key_file = Some(path);
        let signer = load_signer(&s, &HashMap::new()).unwrap();
        assert_eq!(
            signer.public_key(),
            starknet_crypto::get_public_key(&0x1234u32.into())
        );
    }
}
