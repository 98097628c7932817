//! The wallet's settings, as the profile and the environment give them: where the key comes from.

use std::path::PathBuf;

use secrecy::SecretString;
use serde::Deserialize;

/// The signing account. Keys are never stored here except public development keys.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WalletSettings {
    /// Account contract address (hex).
    pub account_address: Option<String>,
    /// File holding the private key (hex), read at start.
    pub private_key_file: Option<PathBuf>,
    /// A key written in the profile itself: only allowed for the public dev keys of local devnets.
    pub dev_private_key: Option<SecretString>,
    /// Encrypted JSON keystore (Web3 Secret Storage v3, as starkli writes); wins over raw keys.
    pub keystore: Option<PathBuf>,
    /// File holding the keystore password (its line end is dropped); `LS_KEYSTORE_PASSWORD` wins.
    pub keystore_password_file: Option<PathBuf>,
    /// Allow a raw key (`LS_PRIVATE_KEY` or `private_key_file`) on mainnet.
    #[serde(default)]
    pub allow_raw_key: bool,
}
