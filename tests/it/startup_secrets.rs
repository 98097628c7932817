//! A key put in the wrong setting must not reach the start-up error that MCP hosts keep in their
//! logs: the real binary is started with a key (hex, zero-padded hex, decimal) in each setting
//! that takes a path, an address, a URL, a profile or a `--set`, and the key is looked for in
//! everything it printed. Key and password files that never end or never open (/dev/urandom, a
//! FIFO) are refused instead of hanging start-up.

use crate::common;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::BIN;

/// A throwaway key used only here.
const KEY: &str = "0x3c9a4d7b21e85f06ad4e9c1f7b20d35e8a61c47f09be2d3a5c8e71f40b6d92e";
/// How long start-up may take before it counts as hung (it normally fails in milliseconds).
const HANG: Duration = Duration::from_secs(20);

/// The key in the forms a person might paste it.
fn forms() -> Vec<String> {
    let digits = KEY.trim_start_matches("0x");
    let decimal = starknet::core::types::Felt::from_hex(KEY)
        .unwrap()
        .to_string();
    vec![
        KEY.to_string(),
        format!("0x{digits:0>64}"),
        decimal,
        format!(" {} ", KEY.to_uppercase()),
    ]
}

/// Runs the binary with a clean environment (plus `env`) and stdin closed, within [`HANG`].
fn run(home: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("LS_HOME", home)
        .env("RUST_LOG", "debug")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > HANG {
            child.kill().unwrap();
            panic!("start-up hung with {env:?} {args:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Every 12-character window of the key's digits, hex and decimal.
fn fragments() -> Vec<String> {
    let hex = KEY.trim_start_matches("0x").to_string();
    let dec = starknet::core::types::Felt::from_hex(KEY)
        .unwrap()
        .to_string();
    [hex, dec]
        .iter()
        .flat_map(|s| {
            (0..=s.len() - 12)
                .map(|i| s[i..i + 12].to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

fn assert_no_key(out: &Output, case: &str) {
    assert!(!out.status.success(), "{case}: start-up should fail");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
    .to_lowercase();
    for f in fragments() {
        assert!(
            !text.contains(&f),
            "{case}: the key ({f}) is in the output:\n{text}"
        );
    }
}

/// A case name, its environment and its arguments.
type Case<'a> = (String, Vec<(&'a str, &'a str)>, Vec<String>);

#[test]
fn a_key_in_the_wrong_setting_is_never_printed() {
    let home = tempfile::tempdir().unwrap();
    let keystore = home.path().join("keystore.json");
    std::fs::write(&keystore, "{}").unwrap();
    let keystore = keystore.to_str().unwrap();
    for key in forms() {
        let mistyped = [format!("{}0", key.trim()), format!("0x{}", key.trim())];
        let set_value = |setting: &str| format!("{setting}={key}");
        let cases: Vec<Case> = vec![
            (
                "LS_PRIVATE_KEY_FILE".into(),
                vec![("LS_PRIVATE_KEY_FILE", &key)],
                vec![],
            ),
            (
                "LS_KEYSTORE".into(),
                vec![("LS_KEYSTORE", &key), ("LS_KEYSTORE_PASSWORD", "pw")],
                vec![],
            ),
            (
                "LS_KEYSTORE_PASSWORD_FILE".into(),
                vec![
                    ("LS_KEYSTORE", keystore),
                    ("LS_KEYSTORE_PASSWORD_FILE", &key),
                ],
                vec![],
            ),
            (
                "LS_ACCOUNT_ADDRESS mistyped".into(),
                vec![("LS_ACCOUNT_ADDRESS", &mistyped[0])],
                vec![],
            ),
            (
                "LS_ACCOUNT_ADDRESS with a doubled 0x".into(),
                vec![("LS_ACCOUNT_ADDRESS", &mistyped[1])],
                vec![],
            ),
            ("LS_CHAIN".into(), vec![("LS_CHAIN", &key)], vec![]),
            (
                "--set without =".into(),
                vec![],
                vec!["--set".into(), key.clone()],
            ),
            (
                "--set as a key name".into(),
                vec![],
                vec!["--set".into(), format!("{}=1", key.trim())],
            ),
            (
                "--set tx.timeout_ms".into(),
                vec![],
                vec!["--set".into(), set_value("tx.timeout_ms")],
            ),
            (
                "--set wallet.private_key_file".into(),
                vec![],
                vec!["--set".into(), set_value("wallet.private_key_file")],
            ),
            (
                "--set wallet.account_address".into(),
                vec![],
                vec![
                    "--set".into(),
                    format!("wallet.account_address={}g", key.trim()),
                ],
            ),
            (
                "--rpc-url".into(),
                vec![],
                vec!["--rpc-url".into(), key.clone()],
            ),
            (
                "--set policy.max_fee_per_tx".into(),
                vec![],
                vec!["--set".into(), set_value("policy.max_fee_per_tx")],
            ),
            (
                "--set chain.contracts".into(),
                vec![],
                vec![
                    "--set".into(),
                    format!("chain.contracts.ls-game_systems={}z", key.trim()),
                ],
            ),
            (
                "--profile".into(),
                vec![],
                vec!["--profile".into(), key.clone()],
            ),
            (
                "--config-dir".into(),
                vec![("LS_PRIVATE_KEY_FILE", &key)],
                vec!["--config-dir".into(), key.clone()],
            ),
        ];
        for (case, env, args) in cases {
            let mut env = env;
            if !env.iter().any(|(k, _)| *k == "LS_CHAIN") {
                env.push(("LS_CHAIN", "devnet"));
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = run(home.path(), &env, &args);
            assert_no_key(&out, &format!("{case} ({key:?})"));
        }
    }
}

#[test]
fn a_path_setting_holding_a_key_says_where_keys_go() {
    let home = tempfile::tempdir().unwrap();
    let out = run(
        home.path(),
        &[("LS_CHAIN", "devnet"), ("LS_PRIVATE_KEY_FILE", KEY)],
        &[],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("LS_PRIVATE_KEY_FILE") && err.contains("no such file"),
        "{err}"
    );
    assert!(
        err.contains("looks like a key") && err.contains("LS_PRIVATE_KEY "),
        "{err}"
    );
}

#[test]
fn endless_or_blocking_key_files_are_refused() {
    let home = tempfile::tempdir().unwrap();
    let fifo = home.path().join("key.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success(), "mkfifo");
    let fifo = fifo.to_str().unwrap();
    let keystore = home.path().join("keystore.json");
    std::fs::write(&keystore, "{}").unwrap();
    let keystore = keystore.to_str().unwrap();
    for (file, why) in [(fifo, "FIFO"), ("/dev/urandom", "device")] {
        for (setting, mut env) in [
            ("LS_PRIVATE_KEY_FILE", vec![]),
            ("LS_KEYSTORE", vec![("LS_KEYSTORE_PASSWORD", "pw")]),
            ("LS_KEYSTORE_PASSWORD_FILE", vec![("LS_KEYSTORE", keystore)]),
        ] {
            env.push(("LS_CHAIN", "devnet"));
            env.push((setting, file));
            let out = run(home.path(), &env, &[]);
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(!out.status.success(), "{setting}={file}");
            assert!(
                err.contains(setting) && err.contains(why) && err.contains("not a regular file"),
                "{setting}={file}: {err}"
            );
        }
    }
}
