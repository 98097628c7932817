//! Where the key comes from, in this order: an encrypted keystore (`LS_KEYSTORE` / `wallet.keystore`,
//! password from `LS_KEYSTORE_PASSWORD` or `wallet.keystore_password_file`), a raw key in
//! `LS_PRIVATE_KEY`, a raw key file (`wallet.private_key_file` / `LS_PRIVATE_KEY_FILE`), or a public
//! devnet key in the profile. A raw key on mainnet needs `wallet.allow_raw_key = true`
//! (`LS_ALLOW_RAW_KEY=1`). Errors never contain key material or the password.

use std::collections::HashMap;
use std::path::Path;

use schemars::JsonSchema;
use secrecy::ExposeSecret;
use serde::Serialize;
use starknet_types_core::felt::secret_felt::SecretFelt;
use zeroize::Zeroizing;

use super::SecretSigner;
use super::keystore::{KeystoreError, read_keystore};
use crate::config::Settings;

/// Environment variable holding a raw private key (hex).
pub const ENV_PRIVATE_KEY: &str = "LS_PRIVATE_KEY";
/// Environment variable holding the keystore password.
pub const ENV_KEYSTORE_PASSWORD: &str = "LS_KEYSTORE_PASSWORD";

/// Why no signer could be built.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// No key source is configured.
    #[error(
        "no signing key: set LS_KEYSTORE (with LS_KEYSTORE_PASSWORD), LS_PRIVATE_KEY or \
         LS_PRIVATE_KEY_FILE (or use a devnet profile)"
    )]
    Missing,
    /// A key or password file could not be read.
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
    /// A keystore is configured but no password is.
    #[error(
        "the keystore {path} needs a password: set LS_KEYSTORE_PASSWORD or \
         wallet.keystore_password_file (LS_KEYSTORE_PASSWORD_FILE)"
    )]
    KeystorePassword {
        /// The keystore path (not secret).
        path: String,
    },
    /// The keystore could not be read or decrypted (wrong password, unsupported format, …).
    #[error("cannot use the keystore {path}: {reason}")]
    Keystore {
        /// The keystore path (not secret).
        path: String,
        /// What went wrong (kept out of the error chain so it prints once).
        reason: KeystoreError,
    },
    /// A raw key was offered on mainnet without the opt-in.
    #[error(
        "refusing the raw private key from {source_name} on mainnet: use an encrypted keystore \
         (LS_KEYSTORE or wallet.keystore, with LS_KEYSTORE_PASSWORD or \
         wallet.keystore_password_file), or opt in with wallet.allow_raw_key = true \
         (LS_ALLOW_RAW_KEY=1)"
    )]
    RawKeyOnMainnet {
        /// Which raw source was offered.
        source_name: &'static str,
    },
}

/// Where the signing key came from (reported by `ls_wallet`; never the key itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum KeySource {
    /// An encrypted JSON keystore.
    Keystore,
    /// The `LS_PRIVATE_KEY` environment variable.
    EnvRawKey,
    /// A raw key file (`wallet.private_key_file`).
    KeyFile,
    /// The public development key of a local devnet profile.
    ProfileDevKey,
}

/// A signer and where its key came from.
#[derive(Debug)]
pub struct LoadedKey {
    /// The signer (its `Debug` shows only the public key).
    pub signer: SecretSigner,
    /// The source that supplied the key.
    pub source: KeySource,
}

/// Builds the signer from the first configured source (see the module docs for the order).
pub fn load_signer(
    settings: &Settings,
    env: &HashMap<String, String>,
) -> Result<SecretSigner, KeyError> {
    load_key(settings, env).map(|k| k.signer)
}

/// Like [`load_signer`], and also says which source supplied the key.
///
/// Non-secret settings come from `settings` (`LS_KEYSTORE`, `LS_KEYSTORE_PASSWORD_FILE`,
/// `LS_PRIVATE_KEY_FILE` and `LS_ALLOW_RAW_KEY` reach it as aliases); the secrets
/// `LS_PRIVATE_KEY` and `LS_KEYSTORE_PASSWORD` are read from `env` only. Decrypting a keystore runs
/// its KDF (up to about a second): call this at start.
pub fn load_key(settings: &Settings, env: &HashMap<String, String>) -> Result<LoadedKey, KeyError> {
    let w = &settings.wallet;
    if let Some(path) = &w.keystore {
        let path = crate::config::resolve_home(path);
        let password = keystore_password(settings, env, &path)?;
        let signer =
            read_keystore(&path, password.as_bytes()).map_err(|reason| KeyError::Keystore {
                path: path.display().to_string(),
                reason,
            })?;
        return Ok(LoadedKey {
            signer,
            source: KeySource::Keystore,
        });
    }
    let raw_allowed = w.allow_raw_key || !is_mainnet(settings);
    if let Some(raw) = env.get(ENV_PRIVATE_KEY) {
        if !raw_allowed {
            return Err(KeyError::RawKeyOnMainnet {
                source_name: ENV_PRIVATE_KEY,
            });
        }
        return Ok(LoadedKey {
            signer: parse(raw.trim().to_string(), ENV_PRIVATE_KEY)?,
            source: KeySource::EnvRawKey,
        });
    }
    if let Some(path) = &w.private_key_file {
        if !raw_allowed {
            return Err(KeyError::RawKeyOnMainnet {
                source_name: "wallet.private_key_file",
            });
        }
        let path = crate::config::resolve_home(path);
        let text = read_secret_file(&path)?;
        return Ok(LoadedKey {
            signer: parse(text.trim().to_string(), "the key file")?,
            source: KeySource::KeyFile,
        });
    }
    if let Some(key) = &w.dev_private_key {
        return Ok(LoadedKey {
            signer: parse(key.expose_secret().trim().to_string(), "the profile")?,
            source: KeySource::ProfileDevKey,
        });
    }
    Err(KeyError::Missing)
}

/// Whether the profile targets Starknet mainnet (by name or by its expected chain id).
fn is_mainnet(settings: &Settings) -> bool {
    settings.profile == "mainnet"
        || settings
            .expected_chain_id()
            .is_ok_and(|id| id == starknet::core::chain_id::MAINNET)
}

/// The keystore password: `LS_KEYSTORE_PASSWORD`, else the password file without its line end.
fn keystore_password(
    settings: &Settings,
    env: &HashMap<String, String>,
    keystore: &Path,
) -> Result<Zeroizing<String>, KeyError> {
    if let Some(pw) = env.get(ENV_KEYSTORE_PASSWORD) {
        return Ok(Zeroizing::new(pw.clone()));
    }
    let Some(file) = &settings.wallet.keystore_password_file else {
        return Err(KeyError::KeystorePassword {
            path: keystore.display().to_string(),
        });
    };
    let text = read_secret_file(&crate::config::resolve_home(file))?;
    Ok(Zeroizing::new(
        text.trim_end_matches(['\r', '\n']).to_string(),
    ))
}

/// Reads a file holding a secret into a zeroizing string; errors name the path only.
fn read_secret_file(path: &Path) -> Result<Zeroizing<String>, KeyError> {
    std::fs::read_to_string(path)
        .map(Zeroizing::new)
        .map_err(|e| KeyError::File {
            path: path.display().to_string(),
            reason: e.kind().to_string(),
        })
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
    use crate::wallet::keystore::testing::{TestKdf, encrypt};
    use starknet::core::types::Felt;

    /// Throwaway keys used only by these tests.
    const RAW_KEY: &str = "0x1234";
    const STORE_KEY: &str = "0x7e57ab1e5ecc0de";

    fn settings_with(profile: &str, env: &[(&str, &str)]) -> Settings {
        Settings::load(&LoadOptions {
            profile: Some(profile.into()),
            env: env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..LoadOptions::default()
        })
        .unwrap()
    }

    fn settings(profile: &str) -> Settings {
        settings_with(profile, &[])
    }

    fn env(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn public(hex: &str) -> Felt {
        starknet_crypto::get_public_key(&Felt::from_hex(hex).unwrap())
    }

    /// Writes a keystore of [`STORE_KEY`] encrypted with `password`.
    fn keystore(dir: &Path, password: &str) -> std::path::PathBuf {
        let path = dir.join("keystore.json");
        let key = Felt::from_hex(STORE_KEY).unwrap().to_bytes_be();
        std::fs::write(
            &path,
            encrypt(&key, password.as_bytes(), TestKdf::Scrypt(4)),
        )
        .unwrap();
        path
    }

    #[test]
    fn env_key_wins_over_profile_key() {
        let k = load_key(&settings("devnet"), &env(&[(ENV_PRIVATE_KEY, RAW_KEY)])).unwrap();
        assert_eq!(k.signer.public_key(), public(RAW_KEY));
        assert_eq!(k.source, KeySource::EnvRawKey);
    }

    #[test]
    fn devnet_profile_key_is_used_without_env() {
        let k = load_key(&settings("devnet"), &HashMap::new()).unwrap();
        assert_eq!(k.source, KeySource::ProfileDevKey);
    }

    #[test]
    fn mainnet_without_key_is_missing() {
        let e = load_signer(&settings("mainnet"), &HashMap::new()).unwrap_err();
        assert!(matches!(e, KeyError::Missing));
        assert!(e.to_string().contains("LS_KEYSTORE"), "{e}");
    }

    #[test]
    fn malformed_key_error_does_not_echo_the_key() {
        let e = load_signer(
            &settings("devnet"),
            &env(&[(ENV_PRIVATE_KEY, "0xnothexsecret")]),
        )
        .unwrap_err();
        assert!(!e.to_string().contains("nothexsecret"), "{e}");
        assert!(!format!("{e:?}").contains("nothexsecret"), "{e:?}");
    }

    #[test]
    fn key_file_is_read_and_trimmed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("key");
        std::fs::write(&path, "0x1234\n").unwrap();
        let mut s = settings("sepolia");
        s.wallet.private_key_file = Some(path);
        let k = load_key(&s, &HashMap::new()).unwrap();
        assert_eq!(k.signer.public_key(), public(RAW_KEY));
        assert_eq!(k.source, KeySource::KeyFile);
    }

    #[test]
    fn keystore_with_env_password_comes_first() {
        let dir = tempfile::tempdir().unwrap();
        let path = keystore(dir.path(), "s3cret-pw");
        let s = settings_with("devnet", &[("LS_KEYSTORE", path.to_str().unwrap())]);
        let e = env(&[
            (ENV_KEYSTORE_PASSWORD, "s3cret-pw"),
            (ENV_PRIVATE_KEY, RAW_KEY),
        ]);
        let k = load_key(&s, &e).unwrap();
        assert_eq!(k.signer.public_key(), public(STORE_KEY));
        assert_eq!(k.source, KeySource::Keystore);
    }

    #[test]
    fn keystore_password_file_loses_its_line_end_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = keystore(dir.path(), " pass phrase ");
        let pw = dir.path().join("pw");
        std::fs::write(&pw, " pass phrase \r\n").unwrap();
        let s = settings_with(
            "mainnet",
            &[
                ("LS_KEYSTORE", path.to_str().unwrap()),
                ("LS_KEYSTORE_PASSWORD_FILE", pw.to_str().unwrap()),
            ],
        );
        let k = load_key(&s, &HashMap::new()).unwrap();
        assert_eq!(k.signer.public_key(), public(STORE_KEY));
    }

    #[test]
    fn keystore_without_password_says_how_to_give_one() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = settings("mainnet");
        s.wallet.keystore = Some(keystore(dir.path(), "pw"));
        let e = load_signer(&s, &HashMap::new()).unwrap_err();
        assert!(matches!(e, KeyError::KeystorePassword { .. }), "{e}");
        assert!(e.to_string().contains("LS_KEYSTORE_PASSWORD"), "{e}");
    }

    #[test]
    fn wrong_keystore_password_is_clear_and_does_not_leak() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = settings("mainnet");
        s.wallet.keystore = Some(keystore(dir.path(), "right-pw"));
        let e = load_signer(&s, &env(&[(ENV_KEYSTORE_PASSWORD, "guess-pw-42")])).unwrap_err();
        assert!(
            matches!(
                e,
                KeyError::Keystore {
                    reason: KeystoreError::WrongPassword,
                    ..
                }
            ),
            "{e}"
        );
        for text in [e.to_string(), format!("{e:?}")] {
            assert!(text.contains("wrong keystore password") || text.contains("WrongPassword"));
            assert!(
                !text.contains("guess-pw") && !text.contains("right-pw"),
                "{text}"
            );
        }
    }

    #[test]
    fn missing_keystore_file_names_the_path() {
        let mut s = settings("sepolia");
        s.wallet.keystore = Some("/nonexistent/ls-keystore.json".into());
        let e = load_signer(&s, &env(&[(ENV_KEYSTORE_PASSWORD, "pw")])).unwrap_err();
        assert!(
            e.to_string().contains("/nonexistent/ls-keystore.json"),
            "{e}"
        );
    }

    #[test]
    fn raw_env_key_on_mainnet_needs_the_opt_in() {
        let e = load_signer(&settings("mainnet"), &env(&[(ENV_PRIVATE_KEY, RAW_KEY)])).unwrap_err();
        assert!(matches!(e, KeyError::RawKeyOnMainnet { .. }), "{e}");
        let msg = e.to_string();
        assert!(msg.contains("wallet.allow_raw_key") && msg.contains("LS_ALLOW_RAW_KEY=1"));
        assert!(!msg.contains("1234"), "{msg}");

        let opted_in = settings_with("mainnet", &[("LS_ALLOW_RAW_KEY", "1")]);
        assert!(opted_in.wallet.allow_raw_key);
        let k = load_key(&opted_in, &env(&[(ENV_PRIVATE_KEY, RAW_KEY)])).unwrap();
        assert_eq!(k.signer.public_key(), public(RAW_KEY));
    }

    #[test]
    fn raw_key_file_on_mainnet_needs_the_opt_in() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("key");
        std::fs::write(&path, "0x1234\n").unwrap();
        let mut s = settings("mainnet");
        s.wallet.private_key_file = Some(path);
        let e = load_signer(&s, &HashMap::new()).unwrap_err();
        assert!(matches!(e, KeyError::RawKeyOnMainnet { .. }), "{e}");
        s.wallet.allow_raw_key = true;
        assert!(load_signer(&s, &HashMap::new()).is_ok());
    }

    #[test]
    fn a_profile_pointed_at_the_mainnet_chain_id_counts_as_mainnet() {
        let s = settings_with("sepolia", &[("LS_CHAIN__CHAIN_ID", "SN_MAIN")]);
        let e = load_signer(&s, &env(&[(ENV_PRIVATE_KEY, RAW_KEY)])).unwrap_err();
        assert!(matches!(e, KeyError::RawKeyOnMainnet { .. }), "{e}");
    }

    #[test]
    fn raw_keys_need_no_opt_in_off_mainnet() {
        for profile in ["sepolia", "devnet", "katana"] {
            assert!(
                load_signer(&settings(profile), &env(&[(ENV_PRIVATE_KEY, RAW_KEY)])).is_ok(),
                "{profile}"
            );
        }
    }

    #[test]
    fn debug_of_settings_and_loaded_key_shows_no_key() {
        let s = settings("devnet");
        let dbg = format!("{s:?}");
        assert!(!dbg.contains("71d7bb07"), "{dbg}");
        let k = load_key(&s, &HashMap::new()).unwrap();
        let dbg = format!("{k:?}");
        assert!(!dbg.contains("71d7bb07"), "{dbg}");
    }
}
