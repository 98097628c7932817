//! Tests of `keystore`.

use super::testing::{TestKdf, encrypt};
use super::*;
use starknet::core::types::Felt;

/// A throwaway key used only by these tests.
const KEY_HEX: &str = "0x5eed0fa11ce0ba5eba11c0ffee1234567890abcdef";

fn key_bytes() -> [u8; 32] {
    Felt::from_hex(KEY_HEX).unwrap().to_bytes_be()
}

fn expected_public() -> Felt {
    starknet_crypto::get_public_key(&Felt::from_hex(KEY_HEX).unwrap())
}

fn edit(json: &str, f: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut v: serde_json::Value = serde_json::from_str(json).unwrap();
    f(&mut v);
    v.to_string()
}

#[test]
fn scrypt_keystore_roundtrips() {
    let json = encrypt(&key_bytes(), b"correct horse", TestKdf::Scrypt(4));
    let s = decrypt_keystore(&json, b"correct horse").unwrap();
    assert_eq!(s.public_key(), expected_public());
}

#[test]
fn pbkdf2_keystore_roundtrips() {
    let json = encrypt(&key_bytes(), b"pw", TestKdf::Pbkdf2(1000));
    let s = decrypt_keystore(&json, b"pw").unwrap();
    assert_eq!(s.public_key(), expected_public());
}

#[test]
fn reads_a_keystore_written_by_starknet_rs_like_starkli() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("starkli.json");
    let key = starknet::signers::SigningKey::from_secret_scalar(Felt::from_hex(KEY_HEX).unwrap());
    key.save_as_keystore(&path, "starkli-pw").unwrap();
    let s = read_keystore(&path, b"starkli-pw").unwrap();
    assert_eq!(s.public_key(), expected_public());
}

#[test]
fn our_keystores_are_readable_by_eth_keystore() {
    let dir = tempfile::tempdir().unwrap();
    for (name, kdf) in [
        ("s.json", TestKdf::Scrypt(5)),
        ("p.json", TestKdf::Pbkdf2(2000)),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, encrypt(&key_bytes(), b"x", kdf)).unwrap();
        let plain = eth_keystore::decrypt_key(&path, "x").unwrap();
        assert_eq!(plain, key_bytes().to_vec(), "{name}");
    }
}

#[test]
fn wrong_password_is_a_clear_error_without_the_password() {
    let json = encrypt(&key_bytes(), b"right", TestKdf::Scrypt(4));
    let e = decrypt_keystore(&json, b"hunter2-wrong").unwrap_err();
    assert_eq!(e, KeystoreError::WrongPassword);
    let msg = e.to_string();
    assert!(msg.contains("wrong keystore password"), "{msg}");
    assert!(!msg.contains("hunter2"), "{msg}");
}

#[test]
fn tampered_ciphertext_fails_the_mac() {
    let json = encrypt(&key_bytes(), b"pw", TestKdf::Pbkdf2(10));
    let json = edit(&json, |v| {
        let ct = v["crypto"]["ciphertext"].as_str().unwrap();
        let flipped = format!("{}{}", if &ct[..1] == "0" { "1" } else { "0" }, &ct[1..]);
        v["crypto"]["ciphertext"] = flipped.into();
    });
    assert_eq!(
        decrypt_keystore(&json, b"pw").unwrap_err(),
        KeystoreError::WrongPassword
    );
}

#[test]
fn accepts_capitalised_crypto_and_0x_hex() {
    let json = encrypt(&key_bytes(), b"pw", TestKdf::Pbkdf2(10));
    let json = edit(&json, |v| {
        let mut c = v["crypto"].take();
        let mac = format!("0x{}", c["mac"].as_str().unwrap());
        c["mac"] = mac.into();
        let o = v.as_object_mut().unwrap();
        o.remove("crypto");
        o.insert("Crypto".into(), c);
    });
    assert!(decrypt_keystore(&json, b"pw").is_ok());
}

#[test]
fn unsupported_formats_are_named() {
    let base = encrypt(&key_bytes(), b"pw", TestKdf::Pbkdf2(10));
    type Edit = Box<dyn FnOnce(&mut serde_json::Value)>;
    let cases: Vec<(Edit, &str)> = vec![
        (Box::new(|v| v["version"] = 1.into()), "version 1"),
        (Box::new(|v| v["crypto"]["kdf"] = "argon2".into()), "argon2"),
        (
            Box::new(|v| v["crypto"]["cipher"] = "aes-256-gcm".into()),
            "aes-256-gcm",
        ),
        (
            Box::new(|v| v["crypto"]["kdfparams"]["prf"] = "hmac-sha512".into()),
            "hmac-sha512",
        ),
        (
            Box::new(|v| v["crypto"]["cipherparams"]["iv"] = "abcd".into()),
            "cipherparams.iv",
        ),
        (
            Box::new(|v| v["crypto"]["mac"] = "zz".into()),
            "'mac': not hex",
        ),
        (
            Box::new(|v| v["crypto"]["ciphertext"] = "abc".into()),
            "odd number",
        ),
        (
            Box::new(|v| v["crypto"]["kdfparams"]["dklen"] = 16.into()),
            "dklen",
        ),
        (
            Box::new(|v| v["crypto"]["kdfparams"]["c"] = 0.into()),
            "pbkdf2 c",
        ),
        (
            Box::new(|v| {
                v["crypto"].as_object_mut().unwrap().remove("mac");
            }),
            "missing field `mac`",
        ),
    ];
    for (f, want) in cases {
        let e = decrypt_keystore(&edit(&base, f), b"pw").unwrap_err();
        assert!(e.to_string().contains(want), "want '{want}' in: {e}");
    }
    let e = decrypt_keystore("not json", b"pw").unwrap_err();
    assert!(matches!(e, KeystoreError::Json(_)), "{e}");
}

#[test]
fn costly_or_invalid_scrypt_parameters_are_refused_before_deriving() {
    let base = encrypt(&key_bytes(), b"pw", TestKdf::Scrypt(4));
    for (n, r, p, want) in [
        (1u64 << 40, 8u32, 1u32, "MiB"),
        (1000, 8, 1, "power of two"),
        (1 << 10, 0, 1, "degenerate"),
        (1 << 20, 8, 64, "too slow"),
    ] {
        let json = edit(&base, |v| {
            let k = &mut v["crypto"]["kdfparams"];
            k["n"] = n.into();
            k["r"] = r.into();
            k["p"] = p.into();
        });
        let e = decrypt_keystore(&json, b"pw").unwrap_err();
        assert!(e.to_string().contains(want), "want '{want}' in: {e}");
    }
}

#[test]
fn a_plaintext_outside_the_field_is_refused() {
    let e = decrypt_keystore(&encrypt(&[0xff; 32], b"pw", TestKdf::Pbkdf2(10)), b"pw").unwrap_err();
    assert_eq!(e, KeystoreError::KeyOutOfRange);
    assert!(!e.to_string().contains("ff"), "{e}");
    let e = decrypt_keystore(&encrypt(&[0; 32], b"pw", TestKdf::Pbkdf2(10)), b"pw").unwrap_err();
    assert_eq!(e, KeystoreError::KeyOutOfRange);
}

#[test]
fn a_missing_or_huge_file_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let e = read_keystore(&dir.path().join("absent.json"), b"pw").unwrap_err();
    assert!(matches!(e, KeystoreError::Io(_)), "{e}");
    let big = dir.path().join("big.json");
    std::fs::write(&big, vec![b' '; (MAX_FILE_BYTES + 1) as usize]).unwrap();
    assert_eq!(
        read_keystore(&big, b"pw").unwrap_err(),
        KeystoreError::TooLarge
    );
}

#[test]
fn signer_debug_does_not_show_the_decrypted_key() {
    let json = encrypt(&key_bytes(), b"pw", TestKdf::Pbkdf2(10));
    let s = decrypt_keystore(&json, b"pw").unwrap();
    let dbg = format!("{s:?}");
    assert!(!dbg.contains("5eed0fa11ce"), "{dbg}");
}

/// A cheap scrypt cost for tests (the format is the same at every cost).
const TEST_COST: ScryptCost = ScryptCost { log_n: 4 };

#[test]
fn encrypted_keystore_roundtrips_and_is_random_each_time() {
    let a = encrypt_keystore(&key_bytes(), b"pw", TEST_COST).unwrap();
    let b = encrypt_keystore(&key_bytes(), b"pw", TEST_COST).unwrap();
    assert_eq!(
        decrypt_keystore(&a, b"pw").unwrap().public_key(),
        expected_public()
    );
    let (va, vb): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(&a).unwrap(),
        serde_json::from_str(&b).unwrap(),
    );
    for field in ["/crypto/kdfparams/salt", "/crypto/cipherparams/iv", "/id"] {
        assert_ne!(
            va.pointer(field),
            vb.pointer(field),
            "{field} must be random"
        );
    }
    assert_eq!(va["crypto"]["kdf"], "scrypt");
    assert_eq!(va["crypto"]["kdfparams"]["n"], 16);
    assert_eq!(
        va["crypto"]["kdfparams"]["salt"].as_str().unwrap().len(),
        64
    );
    let id = va["id"].as_str().unwrap();
    assert_eq!(&id[14..15], "4", "{id} is a v4 UUID");
    assert_eq!(
        decrypt_keystore(&a, b"other").unwrap_err(),
        KeystoreError::WrongPassword
    );
}

#[test]
fn encrypted_keystore_holds_no_plaintext() {
    let json = encrypt_keystore(&key_bytes(), b"pw", TEST_COST).unwrap();
    let plain: String = key_bytes().iter().map(|b| format!("{b:02x}")).collect();
    assert!(!json.contains(plain.trim_start_matches('0')), "{json}");
    assert!(!json.contains("5eed0fa11ce"), "{json}");
}

#[test]
fn encrypted_keystore_is_readable_by_eth_keystore_and_starknet_rs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("session.json");
    std::fs::write(
        &path,
        encrypt_keystore(&key_bytes(), b"s3cret", TEST_COST).unwrap(),
    )
    .unwrap();
    assert_eq!(
        eth_keystore::decrypt_key(&path, "s3cret").unwrap(),
        key_bytes().to_vec()
    );
    let key = starknet::signers::SigningKey::from_keystore(&path, "s3cret").unwrap();
    assert_eq!(key.verifying_key().scalar(), expected_public());
}
