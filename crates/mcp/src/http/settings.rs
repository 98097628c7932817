//! The `[http]` settings of `serve --http`: where the bearer tokens are, which browser origins
//! may call, which `Host` names are served, and the per-identity limits applied when a token
//! entry does not set its own.

use std::path::PathBuf;

use serde::Deserialize;

/// `[http]`: settings of the streamable HTTP transport (`serve --http ADDR`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HttpSettings {
    /// The token file (TOML, `[[token]]` entries holding SHA-256 hashes; `LS_HTTP__TOKENS_FILE`).
    /// A relative path resolves against the data directory.
    pub tokens_file: Option<PathBuf>,
    /// Browser origins allowed to call (`scheme://host[:port]`); a request with any other
    /// `Origin` header is refused with 403. Empty: every request carrying an `Origin` is refused
    /// (non-browser clients send none). In the environment: comma-separated.
    #[serde(deserialize_with = "list_or_commas")]
    pub allowed_origins: Vec<String>,
    /// `Host` header values served besides the loopback names (DNS-rebinding protection). Empty
    /// on a non-loopback address: any host (the bearer token is the protection then).
    #[serde(deserialize_with = "list_or_commas")]
    pub allowed_hosts: Vec<String>,
    /// Writes (transactions) one identity may send per minute, unless its token entry says.
    pub max_tx_per_minute: u32,
    /// Writes one identity may send per UTC day (counted in this run), unless its token entry
    /// says. With the account's `policy.max_fee_per_tx` this bounds what one identity can spend.
    pub max_tx_per_day: u32,
    /// Largest request body accepted, in bytes.
    pub max_request_bytes: usize,
}

impl Default for HttpSettings {
    fn default() -> Self {
        Self {
            tokens_file: None,
            allowed_origins: Vec::new(),
            allowed_hosts: Vec::new(),
            max_tx_per_minute: 120,
            max_tx_per_day: 20_000,
            max_request_bytes: 1 << 20,
        }
    }
}

/// A TOML list, or one comma-separated string (how `LS_HTTP__ALLOWED_ORIGINS` arrives).
fn list_or_commas<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        List(Vec<String>),
        Text(String),
    }
    Ok(match Raw::deserialize(d)? {
        Raw::List(v) => v,
        Raw::Text(s) => s
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(String::from)
            .collect(),
    })
}
