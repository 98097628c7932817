//! Keys loaded from the layered settings: which source wins, the mainnet opt-in, keystores and
//! their passwords, file checks, and that no error or `Debug` shows a key.

use super::Settings;
use starknet::core::types::Felt;
use std::collections::HashMap;
use std::path::Path;
use wallet::keystore_testing::{TestKdf, encrypt};
use wallet::*;

/// Throwaway keys used only by these tests.
const RAW_KEY: &str = "0x1234";
const STORE_KEY: &str = "0x7e57ab1e5ecc0de";

fn settings_with(profile: &str, env: &[(&str, &str)]) -> Settings {
    super::tests::load(Some(profile), env).unwrap()
}

fn settings(profile: &str) -> Settings {
    settings_with(profile, &[])
}

/// The key the settings give, with `env` as the environment.
fn key_of(s: &Settings, env: &HashMap<String, String>) -> Result<LoadedKey, KeyError> {
    load_key(&s.wallet, s.is_mainnet(), env)
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
    let k = key_of(&settings("devnet"), &env(&[(ENV_PRIVATE_KEY, RAW_KEY)])).unwrap();
    assert_eq!(k.signer.public_key(), public(RAW_KEY));
    assert_eq!(k.source, KeySource::EnvRawKey);
}

#[test]
fn devnet_profile_key_is_used_without_env() {
    let k = key_of(&settings("devnet"), &HashMap::new()).unwrap();
    assert_eq!(k.source, KeySource::ProfileDevKey);
}

#[test]
fn mainnet_without_key_is_missing() {
    let e = key_of(&settings("mainnet"), &HashMap::new()).unwrap_err();
    assert!(matches!(e, KeyError::Missing));
    assert!(e.to_string().contains("LS_KEYSTORE"), "{e}");
}

#[test]
fn malformed_key_error_does_not_echo_the_key() {
    let e = key_of(
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
    let k = key_of(&s, &HashMap::new()).unwrap();
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
    let k = key_of(&s, &e).unwrap();
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
    let k = key_of(&s, &HashMap::new()).unwrap();
    assert_eq!(k.signer.public_key(), public(STORE_KEY));
}

#[test]
fn keystore_without_password_says_how_to_give_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = settings("mainnet");
    s.wallet.keystore = Some(keystore(dir.path(), "pw"));
    let e = key_of(&s, &HashMap::new()).unwrap_err();
    assert!(matches!(e, KeyError::KeystorePassword { .. }), "{e}");
    assert!(e.to_string().contains("LS_KEYSTORE_PASSWORD"), "{e}");
}

#[test]
fn wrong_keystore_password_is_clear_and_does_not_leak() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = settings("mainnet");
    s.wallet.keystore = Some(keystore(dir.path(), "right-pw"));
    let e = key_of(&s, &env(&[(ENV_KEYSTORE_PASSWORD, "guess-pw-42")])).unwrap_err();
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
    let e = key_of(&s, &env(&[(ENV_KEYSTORE_PASSWORD, "pw")])).unwrap_err();
    assert!(
        e.to_string().contains("/nonexistent/ls-keystore.json"),
        "{e}"
    );
}

#[test]
fn raw_env_key_on_mainnet_needs_the_opt_in() {
    let e = key_of(&settings("mainnet"), &env(&[(ENV_PRIVATE_KEY, RAW_KEY)])).unwrap_err();
    assert!(matches!(e, KeyError::RawKeyOnMainnet { .. }), "{e}");
    let msg = e.to_string();
    assert!(msg.contains("wallet.allow_raw_key") && msg.contains("LS_ALLOW_RAW_KEY=1"));
    assert!(!msg.contains("1234"), "{msg}");

    let opted_in = settings_with("mainnet", &[("LS_ALLOW_RAW_KEY", "1")]);
    assert!(opted_in.wallet.allow_raw_key);
    let k = key_of(&opted_in, &env(&[(ENV_PRIVATE_KEY, RAW_KEY)])).unwrap();
    assert_eq!(k.signer.public_key(), public(RAW_KEY));
}

#[test]
fn raw_key_file_on_mainnet_needs_the_opt_in() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("key");
    std::fs::write(&path, "0x1234\n").unwrap();
    let mut s = settings("mainnet");
    s.wallet.private_key_file = Some(path);
    let e = key_of(&s, &HashMap::new()).unwrap_err();
    assert!(matches!(e, KeyError::RawKeyOnMainnet { .. }), "{e}");
    s.wallet.allow_raw_key = true;
    assert!(key_of(&s, &HashMap::new()).is_ok());
}

#[test]
fn a_profile_pointed_at_the_mainnet_chain_id_counts_as_mainnet() {
    let s = settings_with("sepolia", &[("LS_CHAIN__CHAIN_ID", "SN_MAIN")]);
    let e = key_of(&s, &env(&[(ENV_PRIVATE_KEY, RAW_KEY)])).unwrap_err();
    assert!(matches!(e, KeyError::RawKeyOnMainnet { .. }), "{e}");
}

#[test]
fn raw_keys_need_no_opt_in_off_mainnet() {
    for profile in ["sepolia", "devnet", "katana"] {
        assert!(
            key_of(&settings(profile), &env(&[(ENV_PRIVATE_KEY, RAW_KEY)])).is_ok(),
            "{profile}"
        );
    }
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
        let e = key_of(&s, &env(&extra.into_iter().collect::<Vec<_>>())).unwrap_err();
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
    let e = key_of(&s, &HashMap::new()).unwrap_err().to_string();
    assert!(e.contains("no such file") && !e.contains("horse"), "{e}");
}

#[test]
fn debug_of_settings_and_loaded_key_shows_no_key() {
    let s = settings("devnet");
    let dbg = format!("{s:?}");
    assert!(!dbg.contains("71d7bb07"), "{dbg}");
    let k = key_of(&s, &HashMap::new()).unwrap();
    let dbg = format!("{k:?}");
    assert!(!dbg.contains("71d7bb07"), "{dbg}");
}

#[test]
fn wallet_kind_defaults_to_key_and_reads_ls_wallet_kind() {
    use wallet::WalletKind;
    assert_eq!(settings("devnet").wallet.kind, WalletKind::Key);
    let s = settings_with("sepolia", &[("LS_WALLET_KIND", "session")]);
    assert_eq!(s.wallet.kind, WalletKind::Session);
    let s = settings_with("devnet", &[("LS_WALLET__KIND", "session")]);
    assert_eq!(s.wallet.kind, WalletKind::Session);
    let e = super::tests::load(Some("devnet"), &[("LS_WALLET_KIND", "passkey")]).unwrap_err();
    assert!(e.to_string().contains("passkey"), "{e}");
    let e = super::tests::load(Some("sim"), &[("LS_WALLET_KIND", "session")]).unwrap_err();
    assert!(e.to_string().contains("sim profile"), "{e}");
}
