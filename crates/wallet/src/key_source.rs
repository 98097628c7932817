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
use super::WalletSettings;
use super::keystore::{KeystoreError, decrypt_keystore};
use base::redact::{looks_like_key, shown_path};

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
    /// A key, keystore or password file could not be used. The message names the setting and
    /// the problem; the configured value appears only when it looks like a path.
    #[error("{setting}: {problem}{shown}{hint}")]
    File {
        /// The setting that named the file (`LS_PRIVATE_KEY_FILE (wallet.private_key_file)`).
        setting: &'static str,
        /// What is wrong with it ("no such file", "is a FIFO, not a regular file", …).
        problem: String,
        /// The path as shown ("; path: '…'"), or a note that it is hidden.
        shown: String,
        /// Where a key goes, when the value looks like one.
        hint: &'static str,
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
        /// The keystore path as shown (hidden when it could be a secret).
        path: String,
    },
    /// The Controller session key's password is not configured.
    #[error(
        "the Controller session key is encrypted with a password: set LS_KEYSTORE_PASSWORD or \
         wallet.keystore_password_file (LS_KEYSTORE_PASSWORD_FILE)"
    )]
    SessionPassword,
    /// The keystore could not be decrypted (wrong password, unsupported format, …).
    #[error("cannot use the keystore {path}: {reason}")]
    Keystore {
        /// The keystore path as shown (hidden when it could be a secret).
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
    wallet: &WalletSettings,
    mainnet: bool,
    env: &HashMap<String, String>,
) -> Result<SecretSigner, KeyError> {
    load_key(wallet, mainnet, env).map(|k| k.signer)
}

/// Like [`load_signer`], and also says which source supplied the key.
///
/// Non-secret settings come from `wallet` (`LS_KEYSTORE`, `LS_KEYSTORE_PASSWORD_FILE`,
/// `LS_PRIVATE_KEY_FILE` and `LS_ALLOW_RAW_KEY` reach it as aliases); the secrets
/// `LS_PRIVATE_KEY` and `LS_KEYSTORE_PASSWORD` are read from `env` only. `mainnet`: the profile
/// targets Starknet mainnet, where a raw key needs `allow_raw_key`. Decrypting a keystore runs
/// its KDF (up to about a second): call this at start.
pub fn load_key(
    w: &WalletSettings,
    mainnet: bool,
    env: &HashMap<String, String>,
) -> Result<LoadedKey, KeyError> {
    if let Some(path) = &w.keystore {
        let password = keystore_password(w, env, path)?;
        let json = read_secret_file(SETTING_KEYSTORE, path, MAX_KEYSTORE_BYTES)?;
        let signer =
            decrypt_keystore(&json, password.as_bytes()).map_err(|reason| KeyError::Keystore {
                path: shown_setting_path(path),
                reason,
            })?;
        return Ok(LoadedKey {
            signer,
            source: KeySource::Keystore,
        });
    }
    let raw_allowed = w.allow_raw_key || !mainnet;
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
        let text = read_secret_file(SETTING_KEY_FILE, path, MAX_KEY_FILE_BYTES)?;
        return Ok(LoadedKey {
            signer: parse(text.trim().to_string(), "the key file")?,
            source: KeySource::KeyFile,
        });
    }
    // An empty setting names no key (it clears a profile's development key).
    if let Some(key) = w
        .dev_private_key
        .as_ref()
        .filter(|k| !k.expose_secret().trim().is_empty())
    {
        return Ok(LoadedKey {
            signer: parse(key.expose_secret().trim().to_string(), "the profile")?,
            source: KeySource::ProfileDevKey,
        });
    }
    Err(KeyError::Missing)
}

/// The keystore password: `LS_KEYSTORE_PASSWORD`, else the password file without its line end.
fn keystore_password(
    wallet: &WalletSettings,
    env: &HashMap<String, String>,
    keystore: &Path,
) -> Result<Zeroizing<String>, KeyError> {
    if let Some(pw) = env.get(ENV_KEYSTORE_PASSWORD) {
        return Ok(Zeroizing::new(pw.clone()));
    }
    let Some(file) = &wallet.keystore_password_file else {
        return Err(KeyError::KeystorePassword {
            path: shown_setting_path(keystore),
        });
    };
    let text = read_secret_file(SETTING_PASSWORD_FILE, file, MAX_PASSWORD_FILE_BYTES)?;
    Ok(Zeroizing::new(
        text.trim_end_matches(['\r', '\n']).to_string(),
    ))
}

/// The password of the Controller session key: the keystore's sources (`LS_KEYSTORE_PASSWORD`,
/// else `wallet.keystore_password_file` without its line end).
pub fn session_password(
    wallet: &WalletSettings,
    env: &HashMap<String, String>,
) -> Result<Zeroizing<String>, KeyError> {
    if let Some(pw) = env.get(ENV_KEYSTORE_PASSWORD) {
        return Ok(Zeroizing::new(pw.clone()));
    }
    let Some(file) = &wallet.keystore_password_file else {
        return Err(KeyError::SessionPassword);
    };
    let text = read_secret_file(SETTING_PASSWORD_FILE, file, MAX_PASSWORD_FILE_BYTES)?;
    Ok(Zeroizing::new(
        text.trim_end_matches(['\r', '\n']).to_string(),
    ))
}

/// The settings that name secret files, as errors spell them.
const SETTING_KEY_FILE: &str = "LS_PRIVATE_KEY_FILE (wallet.private_key_file)";
const SETTING_KEYSTORE: &str = "LS_KEYSTORE (wallet.keystore)";
const SETTING_PASSWORD_FILE: &str = "LS_KEYSTORE_PASSWORD_FILE (wallet.keystore_password_file)";
/// Largest raw key file (one hex key and a line end, with room for comments or padding).
pub(crate) const MAX_KEY_FILE_BYTES: u64 = 1024;
/// Largest keystore password file.
pub(crate) const MAX_PASSWORD_FILE_BYTES: u64 = 4096;
/// Largest keystore file (a JSON keystore is about 1 KB).
pub(crate) const MAX_KEYSTORE_BYTES: u64 = 64 * 1024;
/// Said when a setting that takes a path holds something shaped like a key.
const KEY_HINT: &str = "; the value looks like a key, not a path: a raw key goes in LS_PRIVATE_KEY \
     (better: an encrypted keystore in LS_KEYSTORE), a key file's path in LS_PRIVATE_KEY_FILE";

/// A configured path (resolved against the home when relative) as an error may show it: only
/// when the configured value looks like a path and nothing like a key.
fn shown_setting_path(configured: &Path) -> String {
    let raw = configured.to_string_lossy();
    let shown = shown_path(&raw);
    if shown.starts_with('\'') {
        shown_path(&base::home::resolve(configured).to_string_lossy())
    } else {
        shown
    }
}

/// Reads a file holding a secret (the configured path, resolved against the home when relative)
/// into a zeroizing string; errors name the setting, never a value that could be the secret.
fn read_secret_file(
    setting: &'static str,
    configured: &Path,
    max: u64,
) -> Result<Zeroizing<String>, KeyError> {
    let key_like = looks_like_key(&configured.to_string_lossy());
    let fail = |problem: String| KeyError::File {
        setting,
        problem,
        shown: if key_like {
            String::new()
        } else {
            format!("; path: {}", shown_setting_path(configured))
        },
        hint: if key_like { KEY_HINT } else { "" },
    };
    let path = base::home::resolve(configured);
    let bytes = read_regular_file(&path, max).map_err(fail)?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|_| fail("is not UTF-8 text".into()))?
        .to_string();
    Ok(Zeroizing::new(text))
}

/// Reads a whole regular file of at most `max` bytes into a zeroizing buffer. Anything else (a
/// directory, a FIFO, a device such as /dev/urandom, a socket) is refused from its metadata before
/// it is opened, and the open itself does not block (`O_NONBLOCK`), so start-up never hangs on a
/// file that never ends or never opens. Errors describe the problem, never the contents.
pub(super) fn read_regular_file(path: &Path, max: u64) -> Result<Zeroizing<Vec<u8>>, String> {
    use std::io::Read as _;
    let meta = std::fs::metadata(path).map_err(io_problem)?;
    if !meta.is_file() {
        return Err(not_regular(&meta));
    }
    if meta.len() > max {
        return Err(format!("is larger than {max} bytes"));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(io_problem)?;
    let meta = file.metadata().map_err(io_problem)?;
    if !meta.is_file() {
        return Err(not_regular(&meta));
    }
    let mut buf = Zeroizing::new(Vec::with_capacity(max as usize + 1));
    file.take(max + 1)
        .read_to_end(&mut buf)
        .map_err(io_problem)?;
    if buf.len() as u64 > max {
        return Err(format!("is larger than {max} bytes"));
    }
    Ok(buf)
}

fn io_problem(e: std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        kind => format!("cannot be read ({kind})"),
    }
}

fn not_regular(meta: &std::fs::Metadata) -> String {
    let ty = meta.file_type();
    let what = if ty.is_dir() {
        "a directory"
    } else {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt as _;
            if ty.is_fifo() {
                "a FIFO (named pipe)"
            } else if ty.is_char_device() || ty.is_block_device() {
                "a device (such as /dev/urandom)"
            } else if ty.is_socket() {
                "a socket"
            } else {
                "not a plain file"
            }
        }
        #[cfg(not(unix))]
        {
            "not a plain file"
        }
    };
    format!("is {what}, not a regular file")
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

    #[test]
    fn the_session_password_comes_from_the_keystore_password_settings() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("pw");
        std::fs::write(&file, "from-file\n").unwrap();
        let none: WalletSettings = serde_json::from_value(serde_json::json!({})).unwrap();
        let with_file: WalletSettings =
            serde_json::from_value(serde_json::json!({"keystore_password_file": file})).unwrap();
        let env = HashMap::from([(ENV_KEYSTORE_PASSWORD.to_string(), "from-env".to_string())]);
        let e = session_password(&none, &HashMap::new()).unwrap_err();
        assert!(matches!(e, KeyError::SessionPassword));
        assert!(e.to_string().contains("LS_KEYSTORE_PASSWORD"), "{e}");
        assert_eq!(*session_password(&none, &env).unwrap(), "from-env");
        assert_eq!(*session_password(&with_file, &env).unwrap(), "from-env");
        assert_eq!(
            *session_password(&with_file, &HashMap::new()).unwrap(),
            "from-file"
        );
    }

    #[test]
    fn only_small_regular_files_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: `c` is a valid NUL-terminated path for the duration of the call.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = read_regular_file(&fifo, MAX_KEY_FILE_BYTES).unwrap_err();
        assert!(e.contains("FIFO"), "{e}");
        let e = read_regular_file(Path::new("/dev/urandom"), MAX_KEY_FILE_BYTES).unwrap_err();
        assert!(e.contains("device"), "{e}");
        let e = read_regular_file(dir.path(), MAX_KEY_FILE_BYTES).unwrap_err();
        assert!(e.contains("directory"), "{e}");
        let big = dir.path().join("big");
        std::fs::write(&big, vec![b'0'; MAX_KEY_FILE_BYTES as usize + 1]).unwrap();
        let e = read_regular_file(&big, MAX_KEY_FILE_BYTES).unwrap_err();
        assert!(e.contains("larger than 1024 bytes"), "{e}");
        let ok = dir.path().join("ok");
        std::fs::write(&ok, "0x1234\n").unwrap();
        assert_eq!(
            &*read_regular_file(&ok, MAX_KEY_FILE_BYTES).unwrap(),
            b"0x1234\n"
        );
    }
}
