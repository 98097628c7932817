//! Bearer tokens of `serve --http`: each names an agent identity, what it may use (profile,
//! account), the adventurers it is granted and its own limits.
//!
//! Tokens are kept as the SHA-256 hex of the token, never the token: a leaked token file or
//! environment does not let anyone call the server. A plain SHA-256 (rather than a password
//! hash such as argon2) because these are random secrets of 128 bits or more made by
//! `loot-survivor-mcp token`, not passwords a person chose: guessing one from its hash is as hard
//! as guessing the token, and checking a request stays a microsecond. A presented token is hashed
//! and compared with every stored hash in constant time (`subtle`), without stopping at a match,
//! so the answer time says nothing about which bytes matched.

use std::path::Path;

use serde::Deserialize;
use sha2::{Digest, Sha256};
use subtle::{Choice, ConstantTimeEq};

/// Largest token file read (it holds hashes, not secrets, but is parsed on start).
const MAX_FILE_BYTES: u64 = 1 << 20;

/// The environment variable with `identity=sha256hex` pairs, comma-separated.
pub const TOKENS_ENV: &str = "LS_HTTP_TOKENS";

/// One agent identity, as a token entry describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// The name that owns adventurers and appears in logs (never the token).
    pub name: String,
    /// Adventurers this identity may act on besides those it creates.
    pub granted: Vec<game::AdventurerId>,
    /// Writes per minute (the `[http]` default unless the entry sets it).
    pub max_tx_per_minute: u32,
    /// Writes per UTC day (the `[http]` default unless the entry sets it).
    pub max_tx_per_day: u32,
    /// Fees per UTC day in the fee token's smallest unit (wei/fri); no budget of its own when
    /// absent (the account's budgets still hold).
    pub max_fee_per_day: Option<u128>,
}

impl Identity {
    /// The one identity of a loopback server without tokens: every local client is it.
    pub fn local(limits: &super::HttpSettings) -> Self {
        Self {
            name: "local".into(),
            granted: Vec::new(),
            max_tx_per_minute: limits.max_tx_per_minute,
            max_tx_per_day: limits.max_tx_per_day,
            max_fee_per_day: None,
        }
    }
}

/// What went wrong reading the tokens (never shows a token or a hash).
#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    /// The token file cannot be read.
    #[error("http.tokens_file: cannot read it: {0}")]
    Read(String),
    /// The token file is not valid.
    #[error("http.tokens_file: {0}")]
    Invalid(String),
    /// `LS_HTTP_TOKENS` is not valid.
    #[error("{TOKENS_ENV}: {0}")]
    Env(String),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TokenFile {
    #[serde(default)]
    token: Vec<Entry>,
}

/// One `[[token]]` entry of the token file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    identity: String,
    sha256: String,
    /// The profile this token may be used on (any when absent).
    profile: Option<String>,
    /// The account address this token may use (any when absent).
    account: Option<String>,
    #[serde(default)]
    adventurers: Vec<game::AdventurerId>,
    max_tx_per_minute: Option<u32>,
    max_tx_per_day: Option<u32>,
    /// Daily fee budget, a decimal string in the fee token's smallest unit.
    max_fee_per_day: Option<String>,
}

/// The tokens this server accepts, as hashes.
#[derive(Debug, Default)]
pub struct TokenTable {
    entries: Vec<([u8; 32], Identity)>,
}

/// Where the server runs, to keep only the tokens meant for it.
#[derive(Debug, Clone)]
pub struct ServedBy<'a> {
    /// The profile served.
    pub profile: &'a str,
    /// The account signing (0x hex), when there is one.
    pub account: Option<starknet::core::types::Felt>,
}

impl TokenTable {
    /// Reads the token file (if any) and `LS_HTTP_TOKENS` (if set), keeping the entries whose
    /// profile and account match `served`; the others are dropped with a warning naming the
    /// identity.
    pub fn load(
        file: Option<&Path>,
        env: Option<&str>,
        served: &ServedBy<'_>,
        limits: &super::HttpSettings,
    ) -> Result<Self, TokenError> {
        let mut entries = Vec::new();
        if let Some(path) = file {
            let meta = std::fs::metadata(path).map_err(|e| TokenError::Read(e.to_string()))?;
            if !meta.is_file() || meta.len() > MAX_FILE_BYTES {
                return Err(TokenError::Read(format!(
                    "not a regular file of at most {MAX_FILE_BYTES} bytes"
                )));
            }
            let text =
                std::fs::read_to_string(path).map_err(|e| TokenError::Read(e.to_string()))?;
            let parsed: TokenFile = toml_from_str(&text)?;
            entries.extend(parsed.token);
        }
        if let Some(env) = env.filter(|e| !e.trim().is_empty()) {
            for pair in env.split(',') {
                let (identity, sha256) = pair.trim().split_once('=').ok_or_else(|| {
                    TokenError::Env("expected identity=sha256hex pairs separated by commas".into())
                })?;
                entries.push(Entry {
                    identity: identity.trim().into(),
                    sha256: sha256.trim().into(),
                    profile: None,
                    account: None,
                    adventurers: Vec::new(),
                    max_tx_per_minute: None,
                    max_tx_per_day: None,
                    max_fee_per_day: None,
                });
            }
        }
        let mut table = Self::default();
        for (i, e) in entries.into_iter().enumerate() {
            let hash = parse_hash(&e.sha256)
                .ok_or_else(|| TokenError::Invalid(format!("token #{}: sha256 must be 64 hex digits (the SHA-256 of the token, not the token)", i + 1)))?;
            if !valid_identity(&e.identity) {
                return Err(TokenError::Invalid(format!(
                    "token #{}: identity must be 1 to 64 letters, digits, '-', '_' or '.'",
                    i + 1
                )));
            }
            if let Some(p) = &e.profile
                && p != served.profile
            {
                tracing::warn!(identity = %e.identity, "token skipped: it is for another profile");
                continue;
            }
            if let Some(a) = &e.account {
                let want = game::felt::parse_felt(a).map_err(|_| {
                    TokenError::Invalid(format!("token #{}: account is not an address", i + 1))
                })?;
                if served.account != Some(want) {
                    tracing::warn!(identity = %e.identity, "token skipped: it is for another account");
                    continue;
                }
            }
            let max_fee_per_day = match &e.max_fee_per_day {
                Some(text) => Some(text.trim().parse::<u128>().map_err(|_| {
                    TokenError::Invalid(format!(
                        "token #{}: max_fee_per_day must be a decimal string in the fee token's smallest unit (wei/fri)",
                        i + 1
                    ))
                })?),
                None => None,
            };
            table.entries.push((
                hash,
                Identity {
                    name: e.identity,
                    granted: e.adventurers,
                    max_tx_per_minute: e.max_tx_per_minute.unwrap_or(limits.max_tx_per_minute),
                    max_tx_per_day: e.max_tx_per_day.unwrap_or(limits.max_tx_per_day),
                    max_fee_per_day,
                },
            ));
        }
        Ok(table)
    }

    /// A table of the given `(token, identity)` pairs (tests, and the `token` command's check).
    pub fn from_tokens(tokens: &[(&str, Identity)]) -> Self {
        Self {
            entries: tokens
                .iter()
                .map(|(t, id)| (hash_token(t), id.clone()))
                .collect(),
        }
    }

    /// Whether no token is configured (authentication is off).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How many tokens are accepted.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The identity of `token`, comparing its hash with every entry in constant time.
    pub fn identify(&self, token: &str) -> Option<&Identity> {
        let presented = hash_token(token);
        let mut found: Option<&Identity> = None;
        for (hash, identity) in &self.entries {
            let matched: Choice = hash.ct_eq(&presented);
            if bool::from(matched) && found.is_none() {
                found = Some(identity);
            }
        }
        found
    }
}

/// The SHA-256 of a token, as stored.
pub(super) fn hash_token(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// The SHA-256 hex of a token, as written in a token file.
pub fn hash_hex(token: &str) -> String {
    hash_token(token)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn parse_hash(hex: &str) -> Option<[u8; 32]> {
    let hex = hex.trim();
    if hex.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

fn valid_identity(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

fn toml_from_str(text: &str) -> Result<TokenFile, TokenError> {
    use config::{Config, File, FileFormat};
    Config::builder()
        .add_source(File::from_str(text, FileFormat::Toml))
        .build()
        .and_then(|c| c.try_deserialize())
        .map_err(|e| TokenError::Invalid(base::redact::redact(&e.to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> super::super::HttpSettings {
        super::super::HttpSettings::default()
    }

    fn served() -> ServedBy<'static> {
        ServedBy {
            profile: "sim",
            account: Some(starknet::core::types::Felt::from(5u8)),
        }
    }

    #[test]
    fn a_token_file_gives_identities_by_hash() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens.toml");
        std::fs::write(
            &path,
            format!(
                "[[token]]\nidentity = \"alice\"\nsha256 = \"{}\"\nadventurers = [7]\nmax_tx_per_minute = 3\nmax_fee_per_day = \"340282366920938463463374607431768211455\"\n\
                 [[token]]\nidentity = \"bob\"\nsha256 = \"{}\"\nprofile = \"devnet\"\n\
                 [[token]]\nidentity = \"carol\"\nsha256 = \"{}\"\naccount = \"0x5\"\n",
                hash_hex("tok-a"),
                hash_hex("tok-b"),
                hash_hex("tok-c")
            ),
        )
        .unwrap();
        let t = TokenTable::load(Some(&path), None, &served(), &limits()).unwrap();
        assert_eq!(t.len(), 2, "bob's token is for devnet");
        let alice = t.identify("tok-a").unwrap();
        assert_eq!(alice.name, "alice");
        assert_eq!(alice.granted, vec![7]);
        assert_eq!(alice.max_tx_per_minute, 3);
        assert_eq!(alice.max_fee_per_day, Some(u128::MAX));
        assert_eq!(t.identify("tok-c").unwrap().max_fee_per_day, None);
        assert_eq!(t.identify("tok-c").unwrap().name, "carol");
        assert!(t.identify("tok-b").is_none());
        assert!(t.identify("tok-a ").is_none());
        assert!(t.identify("").is_none());
    }

    #[test]
    fn the_environment_holds_hashes_too() {
        let env = format!("ann={}, ben={}", hash_hex("x1"), hash_hex("x2"));
        let t = TokenTable::load(None, Some(&env), &served(), &limits()).unwrap();
        assert_eq!(t.identify("x2").unwrap().name, "ben");
        assert!(TokenTable::load(None, Some("ann=abc"), &served(), &limits()).is_err());
        assert!(TokenTable::load(None, Some("nohash"), &served(), &limits()).is_err());
    }

    #[test]
    fn errors_never_show_a_token() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens.toml");
        let secret = "s3cr3t-token-value-that-must-not-leak";
        std::fs::write(
            &path,
            format!("[[token]]\nidentity = \"alice\"\nsha256 = \"{secret}\"\n"),
        )
        .unwrap();
        let e = TokenTable::load(Some(&path), None, &served(), &limits()).unwrap_err();
        assert!(!e.to_string().contains(secret), "{e}");
        assert!(e.to_string().contains("64 hex digits"), "{e}");
    }

    #[test]
    fn a_fee_budget_is_a_decimal_string() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens.toml");
        std::fs::write(
            &path,
            format!(
                "[[token]]\nidentity = \"alice\"\nsha256 = \"{}\"\nmax_fee_per_day = \"1 STRK\"\n",
                hash_hex("tok-a")
            ),
        )
        .unwrap();
        let e = TokenTable::load(Some(&path), None, &served(), &limits()).unwrap_err();
        assert!(e.to_string().contains("max_fee_per_day"), "{e}");
    }

    #[test]
    fn a_directory_is_not_a_token_file() {
        let dir = tempfile::tempdir().unwrap();
        assert!(TokenTable::load(Some(dir.path()), None, &served(), &limits()).is_err());
    }
}
