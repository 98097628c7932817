//! Layered settings: built-in `config/default.toml` and `config/<profile>.toml`, then an optional
//! on-disk config directory, then `LS_*` environment variables, then CLI overrides.
//!
//! The profile files are compiled into the binary so the server runs from any working directory
//! (MCP clients rarely start it in the repo); `--config-dir` or `LS_CONFIG_DIR` layers files on top.
//! Unknown keys and bad values are errors at start, never silently ignored.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use config::{Config, File, FileFormat};
use secrecy::SecretString;
use serde::Deserialize;
use starknet::core::types::Felt;
use url::Url;

/// Profiles known to the server, with their built-in settings.
pub const PROFILES: &[(&str, &str)] = &[
    ("sim", include_str!("../config/sim.toml")),
    ("devnet", include_str!("../config/devnet.toml")),
    ("katana", include_str!("../config/katana.toml")),
    ("sepolia", include_str!("../config/sepolia.toml")),
    ("mainnet", include_str!("../config/mainnet.toml")),
];

const DEFAULT_TOML: &str = include_str!("../config/default.toml");

/// Plain environment variables that map onto one settings key (besides the generic `LS_A__B` form).
const ENV_ALIASES: &[(&str, &str)] = &[
    ("STARKNET_RPC_URL", "chain.rpc_url"),
    ("LS_TORII_URL", "torii.url"),
    ("LS_ACCOUNT_ADDRESS", "wallet.account_address"),
    ("LS_PRIVATE_KEY_FILE", "wallet.private_key_file"),
    ("LS_KEYSTORE", "wallet.keystore"),
    ("LS_KEYSTORE_PASSWORD_FILE", "wallet.keystore_password_file"),
    ("LS_ALLOW_RAW_KEY", "wallet.allow_raw_key"),
    ("LS_MANIFEST", "chain.manifest"),
];

/// Why the settings could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The profile name is not one of [`PROFILES`] (held as shown: hidden if it looks like a key).
    #[error("unknown profile {0}; choose one of: sim, devnet, katana, sepolia, mainnet")]
    UnknownProfile(String),
    /// A source could not be read or a key is unknown or has the wrong type.
    #[error("invalid configuration: {0}")]
    Invalid(String),
}

impl From<config::ConfigError> for ConfigError {
    /// The config crate quotes offending values; anything key-shaped among them is hidden.
    fn from(e: config::ConfigError) -> Self {
        ConfigError::Invalid(crate::redact::redact(&e.to_string()))
    }
}

/// A profile name as an error may show it: quoted when short and plain, else hidden.
fn shown_profile(name: &str) -> String {
    let plain = name.len() <= 32 && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain && !crate::redact::looks_like_key(name) {
        format!("'{name}'")
    } else {
        "(value hidden: not a profile name)".into()
    }
}

/// All settings of one server run.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The chain profile in force (`devnet`, `katana`, `sepolia`, `mainnet`).
    pub profile: String,
    /// MCP server behaviour.
    pub server: ServerSettings,
    /// Node, contracts and network identity.
    pub chain: ChainSettings,
    /// The signing account.
    pub wallet: WalletSettings,
    /// Transaction submission and confirmation.
    pub tx: TxSettings,
    /// The Torii indexer.
    pub torii: ToriiSettings,
    /// What the wallet may sign (checked before every write).
    pub policy: crate::wallet::PolicySettings,
    /// The embedded practice chain (`sim` profile).
    #[serde(default)]
    pub sim: SimSettings,
    /// `serve --http`: tokens, origins, hosts and per-identity limits.
    #[serde(default)]
    pub http: crate::mcp::http::HttpSettings,
}

/// Which rules the embedded chain plays.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SimRules {
    /// Every `ls_0_0_9` rule.
    #[default]
    Full,
    /// The devnet practice world's simplifications (no specials, no jewelry bonuses).
    PracticeWorld,
}

/// Settings of the embedded practice chain (`sim` profile).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SimSettings {
    /// Id of the first adventurer minted.
    pub first_adventurer_id: u64,
    /// Percent taken off ambush and obstacle damage (0–100).
    pub base_damage_reduction: u8,
    /// Market size (0–31).
    pub market_size: u8,
    /// `dodge` or `reduction`.
    pub stats_mode: crate::game::engine::StatsMode,
    /// `full` or `practice_world`.
    pub rules: SimRules,
    /// True: today's public `poseidon(xp, adventurer_id)` dungeon, and advisors give exact
    /// outcomes (tests, reproducible runs). False (default): each game draws a hidden seed.
    pub deterministic: bool,
    /// Master seed each game's hidden seed derives from (reproducible, still hidden); unset =
    /// drawn from the operating system per game.
    pub seed: Option<u64>,
    /// Keep the world in a state file under the data directory (default true), so one-shot
    /// clients can continue a game; false keeps it in memory for this process only.
    pub persist: bool,
    /// Start over: discard the saved world when the server starts (also the `--fresh` flag).
    pub fresh: bool,
}

impl Default for SimSettings {
    fn default() -> Self {
        Self {
            first_adventurer_id: 1,
            base_damage_reduction: 25,
            market_size: 25,
            stats_mode: crate::game::engine::StatsMode::Dodge,
            rules: SimRules::Full,
            deterministic: false,
            seed: None,
            persist: true,
            fresh: false,
        }
    }
}

impl SimSettings {
    /// The engine settings of the embedded world.
    pub fn engine_settings(&self) -> crate::game::engine::EngineSettings {
        use crate::game::engine::{EngineSettings, Ruleset};
        EngineSettings {
            base_damage_reduction: self.base_damage_reduction,
            market_size: self.market_size,
            stats_mode: self.stats_mode,
            rules: match self.rules {
                SimRules::Full => Ruleset::FULL,
                SimRules::PracticeWorld => Ruleset::PRACTICE_WORLD,
            },
            ..EngineSettings::default()
        }
    }

    /// Where the world's games draw their randomness from.
    pub fn randomness(&self) -> crate::chain::sim::SimRandomness {
        crate::chain::sim::SimRandomness::from_settings(self.deterministic, self.seed)
    }

    fn validate(&self) -> Result<(), ConfigError> {
        if self.first_adventurer_id == 0 {
            return Err(ConfigError::Invalid(
                "sim.first_adventurer_id must be at least 1".into(),
            ));
        }
        if self.base_damage_reduction > 100 || self.market_size > 31 {
            return Err(ConfigError::Invalid(
                "sim.base_damage_reduction must be 0-100 and sim.market_size 0-31".into(),
            ));
        }
        Ok(())
    }
}

/// MCP server behaviour.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerSettings {
    /// Reject tool arguments with keys the tool does not define.
    pub strict: bool,
    /// On SIGTERM/SIGINT, how long writes in flight may take to reach their answer.
    #[serde(default = "default_shutdown_grace_ms")]
    pub shutdown_grace_ms: u64,
    /// Result detail when a call does not pass `detail`: `compact` (default) or `full`.
    #[serde(default)]
    pub detail: crate::game::compact::Detail,
}

fn default_shutdown_grace_ms() -> u64 {
    30_000
}

/// Node, contracts and network identity.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChainSettings {
    /// JSON-RPC endpoint of the node.
    pub rpc_url: Url,
    /// Chain id the node must report (short string such as `SN_SEPOLIA`, or hex).
    pub chain_id: String,
    /// RPC spec versions accepted from the node (prefix match, e.g. `0.9` or `0.10`).
    pub spec_versions: Vec<String>,
    /// Dojo manifest with the deployed addresses (relative paths resolve against the data directory).
    pub manifest: Option<PathBuf>,
    /// Contract addresses by tag suffix, used when no manifest is given (and overriding it).
    #[serde(default)]
    pub contracts: HashMap<String, String>,
    /// Game settings id passed to `mint_game`.
    pub settings_id: u32,
    /// Whether randomness-consuming actions need Cartridge VRF (mainnet and Sepolia).
    pub vrf: bool,
    /// Per-request timeout for reads, in milliseconds.
    pub request_timeout_ms: u64,
    /// Universal Deployer Contract that `devnet deploy` deploys through (the new Cairo 1 UDC on
    /// starknet-devnet and public networks; katana predeploys the legacy one).
    pub udc: String,
    /// Compiled-class-hash function the node expects in a declare: `blake2s` (Starknet >= 0.14.1,
    /// starknet-devnet 0.10.1) or `poseidon` (older Starknet versions, katana 1.7 and 1.8).
    pub casm_hash: crate::chain::deploy_target::CasmHash,
    /// Fee tokens whose balances `ls_wallet` reports, by lowercase symbol (`strk`, `eth`); an
    /// empty address leaves a token out. STRK is listed first, then the others by symbol.
    #[serde(default)]
    pub fee_tokens: HashMap<String, String>,
    /// The game token's storage variable holding how many tokens were minted (ids run from 1):
    /// when set, `ls_new_game` reads it (one `getStorageAt`) to know the id its mint will get,
    /// instead of simulating the mint. Empty where the token's storage layout is not known.
    #[serde(default)]
    pub token_count_storage: String,
}

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

/// Transaction submission and confirmation.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TxSettings {
    /// How long a write waits for its receipt, in milliseconds.
    pub timeout_ms: u64,
    /// Receipt polling interval, in milliseconds.
    pub poll_interval_ms: u64,
    /// Safety factor applied to the estimated gas amounts and prices.
    pub fee_multiplier: f64,
    /// How sent transactions are followed: `auto` (subscription where a `ws://` endpoint is
    /// known, else polling), `subscribe` or `poll`.
    #[serde(default)]
    pub follow: crate::chain::Follow,
    /// The node's WebSocket endpoint (`ws://…`); derived as `/ws` for a loopback RPC URL.
    #[serde(default)]
    pub ws_url: Option<Url>,
}

/// The Torii indexer.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToriiSettings {
    /// Base URL (GraphQL at `/graphql`, SQL at `/sql`).
    pub url: Option<Url>,
    /// Dojo namespace of the game's models (e.g. `ls_0_0_9`); derived from the manifest when unset.
    pub namespace: Option<String>,
    /// Namespace of the game-token (Denshokan) models that carry scores, owners and player names.
    pub token_namespace: String,
    /// Per-request timeout, in milliseconds.
    pub request_timeout_ms: u64,
    /// Retries after a transient failure (connection error, timeout, HTTP 5xx/429).
    pub retries: u32,
    /// How long a leaderboard page is served from memory, in milliseconds.
    pub cache_ttl_ms: u64,
}

/// Where settings come from, besides the built-in profiles.
#[derive(Debug, Default, Clone)]
pub struct LoadOptions {
    /// Profile chosen on the command line (wins over `LS_CHAIN`).
    pub profile: Option<String>,
    /// Directory with `default.toml` / `<profile>.toml` layered over the built-in ones.
    pub config_dir: Option<PathBuf>,
    /// The process environment (or a test's).
    pub env: HashMap<String, String>,
    /// `key=value` overrides from the command line; they win over everything.
    pub overrides: Vec<(String, String)>,
}

impl LoadOptions {
    /// Options from the real process environment.
    pub fn from_process_env() -> Self {
        Self {
            env: std::env::vars().collect(),
            ..Self::default()
        }
    }
}

impl Settings {
    /// Loads and validates the settings.
    pub fn load(opts: &LoadOptions) -> Result<Self, ConfigError> {
        let profile = opts
            .profile
            .clone()
            .or_else(|| opts.env.get("LS_CHAIN").cloned())
            .unwrap_or_else(|| default_profile().to_string());
        let builtin = PROFILES
            .iter()
            .find(|(name, _)| *name == profile)
            .ok_or_else(|| ConfigError::UnknownProfile(shown_profile(&profile)))?
            .1;

        let mut b = Config::builder()
            .add_source(File::from_str(DEFAULT_TOML, FileFormat::Toml))
            .add_source(File::from_str(builtin, FileFormat::Toml));
        if let Some(dir) = opts
            .config_dir
            .clone()
            .or_else(|| opts.env.get("LS_CONFIG_DIR").map(PathBuf::from))
        {
            b = b
                .add_source(File::from(dir.join("default.toml")).required(false))
                .add_source(File::from(dir.join(format!("{profile}.toml"))).required(false));
        }
        for (key, value) in env_overrides(&opts.env) {
            b = b.set_override(key, value)?;
        }
        for (key, value) in &opts.overrides {
            b = b.set_override(key.as_str(), value.as_str())?;
        }
        b = b.set_override("profile", profile.as_str())?;
        let settings: Settings = b.build()?.try_deserialize()?;
        settings.validate().map_err(|e| match e {
            ConfigError::Invalid(m) => ConfigError::Invalid(crate::redact::redact(&m)),
            other => other,
        })?;
        for url in [
            Some(&settings.chain.rpc_url),
            settings.tx.ws_url.as_ref(),
            settings.torii.url.as_ref(),
        ]
        .into_iter()
        .flatten()
        {
            crate::redact::register_url_credentials(url);
        }
        Ok(settings)
    }

    fn validate(&self) -> Result<(), ConfigError> {
        if let Some(addr) = &self.wallet.account_address {
            parse_felt(addr)
                .map_err(|e| ConfigError::Invalid(format!("wallet.account_address: {e}")))?;
        }
        for (tag, addr) in &self.chain.contracts {
            parse_felt(addr)
                .map_err(|e| ConfigError::Invalid(format!("chain.contracts.{tag}: {e}")))?;
        }
        parse_felt(&self.chain.udc).map_err(|e| ConfigError::Invalid(format!("chain.udc: {e}")))?;
        self.fee_tokens()?;
        if self.wallet.dev_private_key.is_some() && !self.is_local_devnet() {
            return Err(ConfigError::Invalid(format!(
                "wallet.dev_private_key is only allowed on local devnet profiles, not '{}'",
                self.profile
            )));
        }
        self.policy.validate().map_err(ConfigError::Invalid)?;
        if self.tx.timeout_ms == 0 || self.tx.poll_interval_ms == 0 {
            return Err(ConfigError::Invalid(
                "tx.timeout_ms and tx.poll_interval_ms must be positive".into(),
            ));
        }
        if !(1.0..=10.0).contains(&self.tx.fee_multiplier) {
            return Err(ConfigError::Invalid(
                "tx.fee_multiplier must be between 1.0 and 10.0".into(),
            ));
        }
        if self.torii.request_timeout_ms == 0 {
            return Err(ConfigError::Invalid(
                "torii.request_timeout_ms must be positive".into(),
            ));
        }
        self.sim.validate()?;
        if !self.is_sim() && self.chain.manifest.is_none() && self.chain.contracts.is_empty() {
            return Err(ConfigError::Invalid(
                "set chain.manifest or chain.contracts for this profile".into(),
            ));
        }
        Ok(())
    }

    /// Whether the profile is the embedded practice chain (no RPC, no key, no manifest).
    pub fn is_sim(&self) -> bool {
        self.profile == "sim"
    }

    /// Whether the profile targets a local development node.
    pub fn is_local_devnet(&self) -> bool {
        matches!(self.profile.as_str(), "devnet" | "katana")
    }

    /// The manifest path, resolved against the data directory when relative.
    pub fn manifest_path(&self) -> Option<PathBuf> {
        self.chain.manifest.as_ref().map(|p| resolve_home(p))
    }

    /// The expected chain id as a felt.
    pub fn expected_chain_id(&self) -> Result<Felt, ConfigError> {
        parse_chain_id(&self.chain.chain_id)
    }

    /// The fee tokens `ls_wallet` reports, as (upper-case symbol, address): STRK first, then the
    /// others by symbol; tokens with an empty address are left out.
    pub fn fee_tokens(&self) -> Result<Vec<(String, Felt)>, ConfigError> {
        let mut tokens = Vec::new();
        for (symbol, addr) in &self.chain.fee_tokens {
            if addr.trim().is_empty() {
                continue;
            }
            let felt = parse_felt(addr)
                .map_err(|e| ConfigError::Invalid(format!("chain.fee_tokens.{symbol}: {e}")))?;
            tokens.push((symbol.to_uppercase(), felt));
        }
        tokens.sort_by(|a, b| (a.0 != "STRK", &a.0).cmp(&(b.0 != "STRK", &b.0)));
        Ok(tokens)
    }

    /// Where `devnet deploy` sends the practice world: the profile's UDC and hash function.
    pub fn deploy_target(&self) -> Result<crate::chain::deploy_target::DeployTarget, ConfigError> {
        Ok(crate::chain::deploy_target::DeployTarget {
            udc: parse_felt(&self.chain.udc)
                .map_err(|e| ConfigError::Invalid(format!("chain.udc: {e}")))?,
            casm_hash: self.chain.casm_hash,
        })
    }
}

/// The profile used when none is chosen.
pub fn default_profile() -> &'static str {
    "sim"
}

/// Resolves a relative path (a manifest, a key file) against the data directory
/// ([`crate::home::data_dir`]: `LS_HOME`, else the platform's), never the build directory, so a
/// copied or installed binary finds the same files.
pub fn resolve_home(p: &Path) -> PathBuf {
    if p.is_absolute() {
        return p.to_path_buf();
    }
    crate::home::data_dir().join(p)
}

/// Parses a hex (`0x…`) or decimal felt.
pub fn parse_felt(s: &str) -> Result<Felt, String> {
    let s = s.trim();
    let parsed = if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        if hex.is_empty() || hex.len() > 64 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(format!(
                "not a hex felt (0x and 1 to 64 hex digits; got {} characters)",
                s.chars().count()
            ));
        }
        Felt::from_hex(s)
    } else {
        if s.is_empty() || !s.chars().all(|c| c.is_ascii_digit()) {
            return Err("not a felt (use 0x-hex or decimal)".into());
        }
        Felt::from_dec_str(s)
    };
    parsed.map_err(|_| "out of the felt range".to_string())
}

/// Parses a chain id given as a short string (`SN_MAIN`) or hex.
pub fn parse_chain_id(s: &str) -> Result<Felt, ConfigError> {
    if s.starts_with("0x") {
        return parse_felt(s).map_err(ConfigError::Invalid);
    }
    starknet::core::utils::cairo_short_string_to_felt(s)
        .map_err(|_| ConfigError::Invalid(format!("chain id '{s}' is not a short string")))
}

fn env_overrides(env: &HashMap<String, String>) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = ENV_ALIASES
        .iter()
        .filter_map(|(var, key)| env.get(*var).map(|v| (key.to_string(), v.clone())))
        .collect();
    let mut generic: Vec<(String, String)> = env
        .iter()
        .filter_map(|(k, v)| {
            let rest = k.strip_prefix("LS_")?;
            rest.contains("__")
                .then(|| (rest.to_lowercase().replace("__", "."), v.clone()))
        })
        .collect();
    generic.sort();
    out.extend(generic);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(profile: Option<&str>, env: &[(&str, &str)]) -> Result<Settings, ConfigError> {
        Settings::load(&LoadOptions {
            profile: profile.map(String::from),
            env: env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..LoadOptions::default()
        })
    }

    #[test]
    fn devnet_profile_loads_without_edits() {
        let s = load(Some("devnet"), &[]).unwrap();
        assert_eq!(s.profile, "devnet");
        assert_eq!(s.chain.rpc_url.as_str(), "http://127.0.0.1:5050/");
        assert!(s.wallet.account_address.is_some());
        assert!(s.manifest_path().unwrap().ends_with("devnet/manifest.json"));
    }

    #[test]
    fn sim_is_the_default_and_needs_no_key_manifest_or_rpc() {
        let s = load(None, &[]).unwrap();
        assert_eq!(s.profile, "sim");
        assert!(s.is_sim());
        assert!(s.chain.manifest.is_none() && s.chain.contracts.is_empty());
        assert!(s.wallet.account_address.is_none());
        let e = s.sim.engine_settings();
        assert_eq!((e.base_damage_reduction, e.market_size), (25, 25));
        assert_eq!(e.rules, crate::game::engine::Ruleset::FULL);
        let p = load(
            Some("sim"),
            &[
                ("LS_SIM__RULES", "practice_world"),
                ("LS_SIM__FIRST_ADVENTURER_ID", "500"),
            ],
        )
        .unwrap();
        assert_eq!(p.sim.first_adventurer_id, 500);
        assert_eq!(
            p.sim.engine_settings().rules,
            crate::game::engine::Ruleset::PRACTICE_WORLD
        );
        let bad = load(Some("sim"), &[("LS_SIM__MARKET_SIZE", "40")]).unwrap_err();
        assert!(bad.to_string().contains("market_size"), "{bad}");
        let bad = load(Some("sim"), &[("LS_SIM__SEEDS", "4")]).unwrap_err();
        assert!(bad.to_string().contains("seeds"), "{bad}");
        assert_eq!(
            s.sim.randomness(),
            crate::chain::sim::SimRandomness::Os,
            "hidden by default"
        );
        assert!(s.sim.persist && !s.sim.fresh);
        let d = load(
            Some("sim"),
            &[("LS_SIM__DETERMINISTIC", "true"), ("LS_SIM__SEED", "42")],
        )
        .unwrap();
        assert_eq!(
            d.sim.randomness(),
            crate::chain::sim::SimRandomness::Deterministic
        );
        let m = load(Some("sim"), &[("LS_SIM__SEED", "42")]).unwrap();
        assert_eq!(
            m.sim.randomness(),
            crate::chain::sim::SimRandomness::Master(42)
        );
    }

    #[test]
    fn every_profile_loads() {
        for (name, _) in PROFILES {
            let s = load(Some(name), &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(s.profile, *name);
        }
    }

    #[test]
    fn mainnet_has_reference_addresses_and_vrf() {
        let s = load(Some("mainnet"), &[]).unwrap();
        assert!(s.chain.vrf);
        assert_eq!(
            parse_felt(&s.chain.contracts["game_systems"]).unwrap(),
            Felt::from_hex("0x6f7c4350d6d5ee926b3ac4fa0c9c351055456e75c92227468d84232fc493a9c")
                .unwrap()
        );
        assert_eq!(
            s.expected_chain_id().unwrap(),
            starknet::core::chain_id::MAINNET
        );
    }

    #[test]
    fn katana_deploys_through_the_legacy_udc_with_poseidon_hashes() {
        use crate::chain::deploy_target::{CasmHash, LEGACY_UDC, NEW_UDC};
        let k = load(Some("katana"), &[]).unwrap();
        let t = k.deploy_target().unwrap();
        assert_eq!((t.udc, t.casm_hash), (LEGACY_UDC, CasmHash::Poseidon));
        let d = load(Some("devnet"), &[]).unwrap().deploy_target().unwrap();
        assert_eq!((d.udc, d.casm_hash), (NEW_UDC, CasmHash::Blake2s));
        let o = load(Some("katana"), &[("LS_CHAIN__CASM_HASH", "blake2s")]).unwrap();
        assert_eq!(o.deploy_target().unwrap().casm_hash, CasmHash::Blake2s);
        let e = load(Some("katana"), &[("LS_CHAIN__CASM_HASH", "sha256")]).unwrap_err();
        assert!(e.to_string().contains("sha256"), "{e}");
        let e = load(Some("katana"), &[("LS_CHAIN__UDC", "0xnope")]).unwrap_err();
        assert!(e.to_string().contains("chain.udc"), "{e}");
    }

    #[test]
    fn fee_tokens_list_strk_first_and_drop_empty_ones() {
        let strk =
            Felt::from_hex("0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d")
                .unwrap();
        let k = load(Some("katana"), &[]).unwrap();
        let symbols: Vec<String> = k.fee_tokens().unwrap().into_iter().map(|t| t.0).collect();
        assert_eq!(symbols, ["STRK", "ETH"]);
        let rollup = load(
            Some("katana"),
            &[
                ("LS_CHAIN__FEE_TOKENS__ETH", ""),
                ("LS_CHAIN__FEE_TOKENS__LORDS", "0x124"),
            ],
        )
        .unwrap();
        assert_eq!(
            rollup.fee_tokens().unwrap(),
            vec![
                ("STRK".into(), strk),
                ("LORDS".into(), Felt::from(0x124u32))
            ]
        );
        let e = load(Some("katana"), &[("LS_CHAIN__FEE_TOKENS__ETH", "eth")]).unwrap_err();
        assert!(e.to_string().contains("chain.fee_tokens.eth"), "{e}");
    }

    #[test]
    fn ls_chain_selects_the_profile_and_cli_wins() {
        assert_eq!(
            load(None, &[("LS_CHAIN", "katana")]).unwrap().profile,
            "katana"
        );
        assert_eq!(
            load(Some("devnet"), &[("LS_CHAIN", "katana")])
                .unwrap()
                .profile,
            "devnet"
        );
    }

    #[test]
    fn unknown_profile_is_an_error() {
        let e = load(Some("moonnet"), &[]).unwrap_err();
        assert!(matches!(e, ConfigError::UnknownProfile(_)), "{e}");
    }

    #[test]
    fn env_overrides_nested_keys_and_aliases() {
        let s = load(
            Some("devnet"),
            &[
                ("LS_TX__TIMEOUT_MS", "5000"),
                ("STARKNET_RPC_URL", "http://127.0.0.1:6000"),
                ("LS_SERVER__STRICT", "true"),
            ],
        )
        .unwrap();
        assert_eq!(s.tx.timeout_ms, 5000);
        assert_eq!(s.chain.rpc_url.port(), Some(6000));
        assert!(s.server.strict);
    }

    #[test]
    fn unknown_keys_are_rejected() {
        let e = load(Some("devnet"), &[("LS_TX__TIMEOUT_SECONDS", "5")]).unwrap_err();
        assert!(e.to_string().contains("timeout_seconds"), "{e}");
    }

    #[test]
    fn bad_values_are_rejected() {
        let e = load(Some("devnet"), &[("LS_TX__TIMEOUT_MS", "soon")]).unwrap_err();
        assert!(e.to_string().contains("timeout_ms"), "{e}");
        let e = load(Some("devnet"), &[("STARKNET_RPC_URL", "not a url")]).unwrap_err();
        assert!(e.to_string().contains("rpc_url"), "{e}");
        let e = load(Some("devnet"), &[("LS_ACCOUNT_ADDRESS", "0xZZ")]).unwrap_err();
        assert!(e.to_string().contains("account_address"), "{e}");
    }

    #[test]
    fn dev_keys_are_refused_on_public_networks() {
        let e = load(Some("sepolia"), &[("LS_WALLET__DEV_PRIVATE_KEY", "0x1234")]).unwrap_err();
        assert!(e.to_string().contains("dev_private_key"), "{e}");
        assert!(!e.to_string().contains("0x1234"), "the key leaked: {e}");
    }

    #[test]
    fn felts_parse_strictly() {
        assert_eq!(parse_felt("0x10").unwrap(), Felt::from(16u8));
        assert_eq!(parse_felt("16").unwrap(), Felt::from(16u8));
        assert!(parse_felt("").is_err());
        assert!(parse_felt("0x").is_err());
        assert!(parse_felt("-1").is_err());
        assert!(parse_felt(&format!("0x{}", "f".repeat(64))).is_err());
    }
}
