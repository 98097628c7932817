//! Decrypts (and, for session keys this server generates, encrypts) an encrypted JSON keystore, the "Web3 Secret Storage" v3 format that starkli and
//! starknet-rs write: a scrypt or PBKDF2-HMAC-SHA256 key derivation, AES-128-CTR, and a MAC
//! `keccak256(derived_key[16..32] ++ ciphertext)` that tells a wrong password from a right one.
//!
//! The password, the derived key and the plaintext live in zeroizing buffers; errors name the
//! problem (wrong password, unsupported KDF, …) but never contain key material or the password.
//! Decryption is CPU-bound by design (the KDF), so call it at start, not on a hot path.

use std::path::Path;

use aes::Aes128;
use ctr::cipher::{KeyIvInit, StreamCipher};
use hmac::Hmac;
use serde::Deserialize;
use sha2::Sha256;
use sha3::{Digest, Keccak256};
use starknet_types_core::felt::secret_felt::SecretFelt;
use zeroize::Zeroizing;

use super::SecretSigner;

/// Largest keystore file accepted (real ones are well under 1 KiB).
const MAX_FILE_BYTES: u64 = 64 * 1024;
/// Most scrypt memory accepted (`128 · r · n` bytes): 1 GiB, four times geth's "standard" setting.
const MAX_SCRYPT_MEMORY: u64 = 1 << 30;
/// Most scrypt work accepted (`128 · r · n · p`).
const MAX_SCRYPT_WORK: u64 = 1 << 32;
/// Most PBKDF2 iterations accepted (geth uses 262 144).
const MAX_PBKDF2_ROUNDS: u32 = 10_000_000;
/// The Stark field prime `2^251 + 17·2^192 + 1`, big-endian; a private key must be below it.
const FIELD_PRIME_BE: [u8; 32] = {
    let mut p = [0u8; 32];
    p[0] = 0x08;
    p[7] = 0x11;
    p[31] = 0x01;
    p
};

/// Why a keystore could not be decrypted. Never holds the password or key material.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeystoreError {
    /// The file could not be read.
    #[error("cannot read the keystore: {0}")]
    Io(String),
    /// The file is larger than any keystore.
    #[error("the keystore file is too large to be a keystore")]
    TooLarge,
    /// The JSON does not have the keystore shape.
    #[error("the keystore is not valid keystore JSON: {0}")]
    Json(String),
    /// Only version 3 exists in the wild.
    #[error("unsupported keystore version {0} (only version 3 is supported)")]
    Version(u64),
    /// The key derivation function is neither `scrypt` nor `pbkdf2`.
    #[error("unsupported keystore KDF '{0}' (supported: scrypt, pbkdf2)")]
    Kdf(String),
    /// The PBKDF2 pseudo-random function is not `hmac-sha256`.
    #[error("unsupported keystore PBKDF2 prf '{0}' (supported: hmac-sha256)")]
    Prf(String),
    /// The cipher is not `aes-128-ctr`.
    #[error("unsupported keystore cipher '{0}' (supported: aes-128-ctr)")]
    Cipher(String),
    /// KDF parameters that are invalid or too costly to run.
    #[error("invalid keystore KDF parameters: {0}")]
    Params(String),
    /// A hex field is malformed or has the wrong length.
    #[error("invalid keystore field '{field}': {reason}")]
    Field {
        /// The JSON field name.
        field: &'static str,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The MAC does not match: the password is wrong (or the file was altered).
    #[error("wrong keystore password (the MAC does not match; or the keystore file is corrupted)")]
    WrongPassword,
    /// The decrypted key is zero or not below the Stark field prime.
    #[error(
        "the keystore does not hold a Starknet private key (zero, or not below the field prime)"
    )]
    KeyOutOfRange,
    /// The system gave no randomness for a salt, IV or key.
    #[error("no randomness from the system: {0}")]
    Random(String),
}

/// The cost of the scrypt derivation a new keystore uses (`n = 2^log_n`, `r = 8`, `p = 1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScryptCost {
    /// `log2(n)`.
    pub log_n: u8,
}

impl ScryptCost {
    /// `n = 2^15` (32 MiB, a fraction of a second optimized): between eth-keystore's default
    /// (`2^13`, which starkli uses) and geth's "standard" (`2^18`).
    pub const DEFAULT: ScryptCost = ScryptCost { log_n: 15 };
}

/// Encrypts a 32-byte big-endian private key into v3 keystore JSON: scrypt with a random 32-byte
/// salt, AES-128-CTR with a random IV, the keccak MAC, a random v4 UUID as `id` (the layout
/// starkli and eth-keystore read). The derived key is zeroized; the result holds no plaintext.
pub fn encrypt_keystore(
    key: &[u8; 32],
    password: &[u8],
    cost: ScryptCost,
) -> Result<String, KeystoreError> {
    let random =
        |buf: &mut [u8]| getrandom::fill(buf).map_err(|e| KeystoreError::Random(e.to_string()));
    let mut salt = vec![0u8; 32];
    random(&mut salt)?;
    let mut iv = [0u8; 16];
    random(&mut iv)?;
    let mut id = [0u8; 16];
    random(&mut id)?;
    let kdf = Kdf::Scrypt {
        log_n: cost.log_n,
        r: 8,
        p: 1,
        salt: salt.clone(),
        dklen: 32,
    };
    let dk = kdf.derive(password)?;
    let mut ciphertext = Zeroizing::new(key.to_vec());
    apply_aes_ctr(&dk, &iv, &mut ciphertext);
    let mac = keystore_mac(&dk, &ciphertext);
    Ok(keystore_json(
        serde_json::json!({"dklen": 32, "n": 1u64 << cost.log_n, "r": 8, "p": 1, "salt": hex(&salt)}),
        "scrypt",
        &iv,
        &ciphertext,
        &mac,
        &uuid_v4(id),
    ))
}

/// The v3 JSON document around an encrypted key.
fn keystore_json(
    kdfparams: serde_json::Value,
    kdf: &str,
    iv: &[u8; 16],
    ciphertext: &[u8],
    mac: &[u8; 32],
    id: &str,
) -> String {
    serde_json::json!({
        "crypto": {
            "cipher": "aes-128-ctr",
            "cipherparams": {"iv": hex(iv)},
            "ciphertext": hex(ciphertext),
            "kdf": kdf,
            "kdfparams": kdfparams,
            "mac": hex(mac),
        },
        "id": id,
        "version": 3,
    })
    .to_string()
}

/// Formats 16 random bytes as a version-4 UUID.
fn uuid_v4(mut b: [u8; 16]) -> String {
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h = hex(&b);
    format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    )
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Reads and decrypts the keystore at `path`. The password is used as raw bytes (UTF-8 text as is).
pub fn read_keystore(path: &Path, password: &[u8]) -> Result<SecretSigner, KeystoreError> {
    let len = std::fs::metadata(path)
        .map_err(|e| KeystoreError::Io(e.kind().to_string()))?
        .len();
    if len > MAX_FILE_BYTES {
        return Err(KeystoreError::TooLarge);
    }
    let bytes =
        super::key_source::read_regular_file(path, MAX_FILE_BYTES).map_err(KeystoreError::Io)?;
    let json = std::str::from_utf8(&bytes).map_err(|_| KeystoreError::Io("not UTF-8".into()))?;
    decrypt_keystore(json, password)
}

/// Decrypts a v3 keystore given as JSON text into a signer.
pub fn decrypt_keystore(json: &str, password: &[u8]) -> Result<SecretSigner, KeystoreError> {
    let file: KeystoreJson =
        serde_json::from_str(json).map_err(|e| KeystoreError::Json(e.to_string()))?;
    if file.version != 3 {
        return Err(KeystoreError::Version(file.version));
    }
    let c = file.crypto;
    if !c.cipher.eq_ignore_ascii_case("aes-128-ctr") {
        return Err(KeystoreError::Cipher(c.cipher));
    }
    let kdf = Kdf::parse(&c.kdf, c.kdfparams)?;
    let iv = hex_field("cipherparams.iv", &c.cipherparams.iv)?;
    let iv: [u8; 16] = iv.try_into().map_err(|_| KeystoreError::Field {
        field: "cipherparams.iv",
        reason: "must be 16 bytes",
    })?;
    let ciphertext = hex_field("ciphertext", &c.ciphertext)?;
    if ciphertext.is_empty() || ciphertext.len() > 32 {
        return Err(KeystoreError::Field {
            field: "ciphertext",
            reason: "must be 1 to 32 bytes",
        });
    }
    let mac: [u8; 32] = hex_field("mac", &c.mac)?
        .try_into()
        .map_err(|_| KeystoreError::Field {
            field: "mac",
            reason: "must be 32 bytes",
        })?;

    let dk = kdf.derive(password)?;
    if !constant_time_eq(&keystore_mac(&dk, &ciphertext), &mac) {
        return Err(KeystoreError::WrongPassword);
    }
    let mut plain = Zeroizing::new(ciphertext);
    apply_aes_ctr(&dk, &iv, &mut plain);
    signer_from_bytes(&plain)
}

/// The `crypto` object of a keystore (`Crypto` in some older writers).
#[derive(Deserialize)]
struct KeystoreJson {
    #[serde(alias = "Crypto")]
    crypto: CryptoJson,
    version: u64,
}

#[derive(Deserialize)]
struct CryptoJson {
    cipher: String,
    cipherparams: CipherParamsJson,
    ciphertext: String,
    kdf: String,
    kdfparams: serde_json::Value,
    mac: String,
}

#[derive(Deserialize)]
struct CipherParamsJson {
    iv: String,
}

#[derive(Deserialize)]
struct ScryptJson {
    dklen: u32,
    n: u64,
    r: u32,
    p: u32,
    salt: String,
}

#[derive(Deserialize)]
struct Pbkdf2Json {
    dklen: u32,
    c: u32,
    prf: String,
    salt: String,
}

/// A validated key derivation.
pub(super) enum Kdf {
    /// scrypt with `n = 2^log_n`.
    Scrypt {
        log_n: u8,
        r: u32,
        p: u32,
        salt: Vec<u8>,
        dklen: usize,
    },
    /// PBKDF2-HMAC-SHA256.
    Pbkdf2 {
        rounds: u32,
        salt: Vec<u8>,
        dklen: usize,
    },
}

impl Kdf {
    fn parse(name: &str, params: serde_json::Value) -> Result<Self, KeystoreError> {
        let bad = |e: serde_json::Error| KeystoreError::Json(format!("kdfparams: {e}"));
        match name.to_ascii_lowercase().as_str() {
            "scrypt" => {
                let s: ScryptJson = serde_json::from_value(params).map_err(bad)?;
                if !s.n.is_power_of_two() || s.n < 2 {
                    return Err(KeystoreError::Params(
                        "scrypt n must be a power of two".into(),
                    ));
                }
                let log_n = s.n.trailing_zeros() as u8;
                let memory = 128u64.saturating_mul(s.r.into()).saturating_mul(s.n);
                if s.r == 0 || s.p == 0 || memory > MAX_SCRYPT_MEMORY {
                    return Err(KeystoreError::Params(format!(
                        "scrypt n={} r={} needs more than {} MiB or is degenerate",
                        s.n,
                        s.r,
                        MAX_SCRYPT_MEMORY >> 20
                    )));
                }
                if memory.saturating_mul(s.p.into()) > MAX_SCRYPT_WORK {
                    return Err(KeystoreError::Params(format!(
                        "scrypt p={} makes the derivation too slow",
                        s.p
                    )));
                }
                scrypt::Params::new(log_n, s.r, s.p)
                    .map_err(|_| KeystoreError::Params("scrypt parameters rejected".into()))?;
                Ok(Kdf::Scrypt {
                    log_n,
                    r: s.r,
                    p: s.p,
                    salt: salt(&s.salt)?,
                    dklen: dklen(s.dklen)?,
                })
            }
            "pbkdf2" => {
                let s: Pbkdf2Json = serde_json::from_value(params).map_err(bad)?;
                if !s.prf.eq_ignore_ascii_case("hmac-sha256") {
                    return Err(KeystoreError::Prf(s.prf));
                }
                if s.c == 0 || s.c > MAX_PBKDF2_ROUNDS {
                    return Err(KeystoreError::Params(format!(
                        "pbkdf2 c must be between 1 and {MAX_PBKDF2_ROUNDS}"
                    )));
                }
                Ok(Kdf::Pbkdf2 {
                    rounds: s.c,
                    salt: salt(&s.salt)?,
                    dklen: dklen(s.dklen)?,
                })
            }
            _ => Err(KeystoreError::Kdf(name.to_string())),
        }
    }

    /// Derives the key from the password (the slow step).
    pub(super) fn derive(&self, password: &[u8]) -> Result<Zeroizing<Vec<u8>>, KeystoreError> {
        match self {
            Kdf::Scrypt {
                log_n,
                r,
                p,
                salt,
                dklen,
            } => {
                let mut dk = Zeroizing::new(vec![0u8; *dklen]);
                let params = scrypt::Params::new(*log_n, *r, *p)
                    .map_err(|_| KeystoreError::Params("scrypt parameters rejected".into()))?;
                scrypt::scrypt(password, salt, &params, &mut dk)
                    .map_err(|_| KeystoreError::Params("scrypt output length rejected".into()))?;
                Ok(dk)
            }
            Kdf::Pbkdf2 {
                rounds,
                salt,
                dklen,
            } => {
                let mut dk = Zeroizing::new(vec![0u8; *dklen]);
                pbkdf2::pbkdf2::<Hmac<Sha256>>(password, salt, *rounds, &mut dk);
                Ok(dk)
            }
        }
    }
}

fn salt(hex: &str) -> Result<Vec<u8>, KeystoreError> {
    let s = hex_field("kdfparams.salt", hex)?;
    if s.is_empty() || s.len() > 1024 {
        return Err(KeystoreError::Field {
            field: "kdfparams.salt",
            reason: "must be 1 to 1024 bytes",
        });
    }
    Ok(s)
}

fn dklen(n: u32) -> Result<usize, KeystoreError> {
    if !(32..=64).contains(&n) {
        return Err(KeystoreError::Params(
            "dklen must be between 32 and 64".into(),
        ));
    }
    Ok(n as usize)
}

/// `keccak256(derived_key[16..32] ++ ciphertext)`.
pub(super) fn keystore_mac(dk: &[u8], ciphertext: &[u8]) -> [u8; 32] {
    let mut h = Keccak256::new();
    h.update(&dk[16..32]);
    h.update(ciphertext);
    h.finalize().into()
}

/// AES-128-CTR with the first 16 derived bytes as key (encrypts and decrypts alike).
pub(super) fn apply_aes_ctr(dk: &[u8], iv: &[u8; 16], buf: &mut [u8]) {
    let mut cipher = ctr::Ctr128BE::<Aes128>::new(dk[..16].into(), iv.into());
    cipher.apply_keystream(buf);
}

fn signer_from_bytes(plain: &[u8]) -> Result<SecretSigner, KeystoreError> {
    let mut be = Zeroizing::new([0u8; 32]);
    be[32 - plain.len()..].copy_from_slice(plain);
    if be.iter().all(|&b| b == 0) || *be >= FIELD_PRIME_BE {
        return Err(KeystoreError::KeyOutOfRange);
    }
    Ok(SecretSigner::new(SecretFelt::from_bytes_be(&mut be)))
}

fn constant_time_eq(a: &[u8; 32], b: &[u8; 32]) -> bool {
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Decodes hex with or without `0x`.
fn hex_field(field: &'static str, s: &str) -> Result<Vec<u8>, KeystoreError> {
    let s = s.strip_prefix("0x").unwrap_or(s);
    if !s.len().is_multiple_of(2) {
        return Err(KeystoreError::Field {
            field,
            reason: "odd number of hex digits",
        });
    }
    s.as_bytes()
        .chunks(2)
        .map(|pair| {
            let hi = (pair[0] as char).to_digit(16);
            let lo = (pair[1] as char).to_digit(16);
            match (hi, lo) {
                (Some(h), Some(l)) => Ok((h * 16 + l) as u8),
                _ => Err(KeystoreError::Field {
                    field,
                    reason: "not hex",
                }),
            }
        })
        .collect()
}

/// A keystore writer for tests only (deterministic salt and IV, small KDF costs).
#[cfg(any(test, feature = "testing"))]
pub mod testing {
    use super::*;

    /// The KDF a test keystore uses.
    pub enum TestKdf {
        /// scrypt with `n = 2^log_n`, r = 8, p = 1.
        Scrypt(u8),
        /// PBKDF2-HMAC-SHA256 with this many rounds.
        Pbkdf2(u32),
    }

    /// Encrypts a 32-byte big-endian key into v3 keystore JSON.
    pub fn encrypt(key: &[u8; 32], password: &[u8], kdf: TestKdf) -> String {
        let salt: Vec<u8> = (0u8..32).collect();
        let iv: [u8; 16] = [7u8; 16];
        let (kdf_impl, kdf_json) = match kdf {
            TestKdf::Scrypt(log_n) => (
                Kdf::Scrypt {
                    log_n,
                    r: 8,
                    p: 1,
                    salt: salt.clone(),
                    dklen: 32,
                },
                serde_json::json!({"dklen": 32, "n": 1u64 << log_n, "r": 8, "p": 1, "salt": hex(&salt)}),
            ),
            TestKdf::Pbkdf2(c) => (
                Kdf::Pbkdf2 {
                    rounds: c,
                    salt: salt.clone(),
                    dklen: 32,
                },
                serde_json::json!({"dklen": 32, "c": c, "prf": "hmac-sha256", "salt": hex(&salt)}),
            ),
        };
        let dk = kdf_impl.derive(password).unwrap();
        let mut ct = key.to_vec();
        apply_aes_ctr(&dk, &iv, &mut ct);
        let mac = keystore_mac(&dk, &ct);
        let name = match kdf_json.get("c") {
            Some(_) => "pbkdf2",
            None => "scrypt",
        };
        keystore_json(
            kdf_json,
            name,
            &iv,
            &ct,
            &mac,
            "00000000-0000-4000-8000-000000000000",
        )
    }
}

#[cfg(test)]
mod tests;
