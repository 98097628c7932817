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
use super::keystore::{KeystoreError, decrypt_keystore};
use crate::config::Settings;
use crate::redact::{looks_like_key, shown_path};

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
        let password = keystore_password(settings, env, path)?;
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
        let text = read_secret_file(SETTING_KEY_FILE, path, MAX_KEY_FILE_BYTES)?;
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
            path: shown_setting_path(keystore),
        });
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
pub const MAX_KEY_FILE_BYTES: u64 = 1024;
/// Largest keystore password file.
pub const MAX_PASSWORD_FILE_BYTES: u64 = 4096;
/// Largest keystore file (a JSON keystore is about 1 KB).
pub const MAX_KEYSTORE_BYTES: u64 = 64 * 1024;
/// Said when a setting that takes a path holds something shaped like a key.
const KEY_HINT: &str = "; the value looks like a key, not a path: a raw key goes in LS_PRIVATE_KEY \
     (better: an encrypted keystore in LS_KEYSTORE), a key file's path in LS_PRIVATE_KEY_FILE";

/// A configured path (resolved against the home when relative) as an error may show it: only
/// when the configured value looks like a path and nothing like a key.
fn shown_setting_path(configured: &Path) -> String {
    let raw = configured.to_string_lossy();
    let shown = shown_path(&raw);
    if shown.starts_with('\'') {
        shown_path(&crate::config::resolve_home(configured).to_string_lossy())
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
    let path = crate::config::resolve_home(configured);
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

    #[test]
    fn a_key_in_a_path_setting_is_named_not_echoed() {
        let key = "0x3c9a4d7b21e85f06ad4e9c1f7b20d35e8a61c47f09be2d3a5c8e71f40b6d92e";
        for (var, extra) in [
            ("LS_PRIVATE_KEY_FILE", None),
            ("LS_KEYSTORE", Some((ENV_KEYSTORE_PASSWORD, "pw"))),
            ("LS_KEYSTORE_PASSWORD_FILE", None),
        ] {
            let mut vars = vec![(var, key)];
            if var == "LS_KEYSTORE_PASSWORD_FILE" {
                vars.push(("LS_KEYSTORE", "/nonexistent/keystore.json"));
            }
            let s = settings_with("devnet", &vars);
            let e = load_key(&s, &env(&extra.into_iter().collect::<Vec<_>>())).unwrap_err();
            let text = format!("{e} {e:?}");
            assert!(text.contains(var), "{text}");
            assert!(text.contains("looks like a key"), "{text}");
            assert!(!text.contains("3c9a4d7b21e85f06"), "{text}");
        }
        let s = settings_with(
            "devnet",
            &[
                ("LS_KEYSTORE", "/nonexistent/keystore.json"),
                ("LS_KEYSTORE_PASSWORD_FILE", "correct horse battery"),
            ],
        );
        let e = load_key(&s, &HashMap::new()).unwrap_err().to_string();
        assert!(e.contains("no such file") && !e.contains("horse"), "{e}");
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
