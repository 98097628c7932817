//! The wallet's settings, as the profile and the environment give them: where the key comes from.

use std::path::PathBuf;

use secrecy::SecretString;
use serde::Deserialize;

/// How the server signs: with a key of its own, or as a session key of the player's Controller.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WalletKind {
    /// The account's own key (keystore, raw key, or a devnet key).
    #[default]
    Key,
    /// A Cartridge Controller session approved with `loot-survivor-mcp session new`: the key and
    /// the account come from the profile's session store; the key settings are not used (the
    /// keystore password settings unlock the session key).
    Session,
}

/// The signing account. Keys are never stored here except public development keys.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WalletSettings {
    /// `key` (default) or `session` (`LS_WALLET_KIND`).
    #[serde(default)]
    pub kind: WalletKind,
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
