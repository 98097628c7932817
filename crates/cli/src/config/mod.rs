//! Layered settings: built-in `config/default.toml` and `config/<profile>.toml`, then an optional
//! on-disk config directory, then what a live check settled (`<data>/settled/<profile>.toml`),
//! then `LS_*` environment variables, then CLI overrides.
//!
//! The profile files are compiled into the binary so the server runs from any working directory
//! (MCP clients rarely start it in the repo); `--config-dir` or `LS_CONFIG_DIR` layers files on top.
//! Unknown keys and bad values are errors at start, never silently ignored.

use std::collections::HashMap;
use std::path::PathBuf;

use config::{Config, File, FileFormat};
use game::felt::parse_felt;
use secrecy::ExposeSecret as _;
use serde::Deserialize;
use starknet::core::types::Felt;
use url::Url;

/// Profiles known to the server, with their built-in settings.
pub const PROFILES: &[(&str, &str)] = &[
    ("sim", include_str!("../../../../config/sim.toml")),
    ("devnet", include_str!("../../../../config/devnet.toml")),
    ("katana", include_str!("../../../../config/katana.toml")),
    ("sepolia", include_str!("../../../../config/sepolia.toml")),
    ("mainnet", include_str!("../../../../config/mainnet.toml")),
    (
        "mainnet-v1",
        include_str!("../../../../config/mainnet-v1.toml"),
    ),
];

const DEFAULT_TOML: &str = include_str!("../../../../config/default.toml");

/// Plain environment variables that map onto one settings key (besides the generic `LS_A__B` form).
const ENV_ALIASES: &[(&str, &str)] = &[
    ("STARKNET_RPC_URL", "chain.rpc_url"),
    ("LS_TORII_URL", "torii.url"),
    ("LS_ACCOUNT_ADDRESS", "wallet.account_address"),
    ("LS_PRIVATE_KEY_FILE", "wallet.private_key_file"),
    ("LS_KEYSTORE", "wallet.keystore"),
    ("LS_KEYSTORE_PASSWORD_FILE", "wallet.keystore_password_file"),
    ("LS_ALLOW_RAW_KEY", "wallet.allow_raw_key"),
    ("LS_WALLET_KIND", "wallet.kind"),
    ("LS_MANIFEST", "chain.manifest"),
    ("LS_GENERATION", "deployment.generation"),
    ("LS_DENSHOKAN_URL", "deployment.indexer_url"),
    ("LS_DENSHOKAN_API_KEY", "deployment.indexer_api_key"),
    ("LS_ALLOW_ARCHIVED_ENTRY", "deployment.allow_archived_entry"),
];

/// Why the settings could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The profile name is not one of [`PROFILES`] (held as shown: hidden if it looks like a key).
    #[error(
        "unknown profile {0}; choose one of: sim, devnet, katana, sepolia, mainnet, mainnet-v1"
    )]
    UnknownProfile(String),
    /// A source could not be read or a key is unknown or has the wrong type.
    #[error("invalid configuration: {0}")]
    Invalid(String),
}

impl From<config::ConfigError> for ConfigError {
    /// The config crate quotes offending values; anything key-shaped among them is hidden.
    fn from(e: config::ConfigError) -> Self {
        ConfigError::Invalid(base::redact::redact(&e.to_string()))
    }
}

/// A profile name as an error may show it: quoted when short and plain, else hidden.
fn shown_profile(name: &str) -> String {
    let plain = name.len() <= 32
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if plain && !base::redact::looks_like_key(name) {
        format!("'{name}'")
    } else {
        "(value hidden: not a profile name)".into()
    }
}

/// All settings of one server run.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The chain profile in force (`sim`, `devnet`, `katana`, `sepolia`, `mainnet`, `mainnet-v1`).
    pub profile: String,
    /// MCP server behaviour.
    pub server: ServerSettings,
    /// Node, contracts and network identity.
    pub chain: ChainSettings,
    /// Which generation the profile plays, and a v2 deployment's contracts and VRF source.
    #[serde(default)]
    pub deployment: DeploymentSettings,
    /// The signing account.
    pub wallet: wallet::WalletSettings,
    /// Transaction submission and confirmation.
    pub tx: TxSettings,
    /// The Torii indexer.
    pub torii: ToriiSettings,
    /// What the wallet may sign (checked before every write).
    pub policy: wallet::PolicySettings,
    /// The embedded practice chain (`sim` profile).
    #[serde(default)]
    pub sim: SimSettings,
    /// `serve --http`: tokens, origins, hosts and per-identity limits.
    #[serde(default)]
    pub http: mcp::http::HttpSettings,
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
    pub stats_mode: game::engine::StatsMode,
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
            stats_mode: game::engine::StatsMode::Dodge,
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
    pub fn engine_settings(&self) -> game::engine::EngineSettings {
        use game::engine::{EngineSettings, Ruleset};
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
    pub fn randomness(&self) -> sim::SimRandomness {
        sim::SimRandomness::from_settings(self.deterministic, self.seed)
    }

    fn validate(&self) -> Result<(), ConfigError> {
        if !(1..=sim::MAX_ADVENTURER_ID).contains(&self.first_adventurer_id) {
            return Err(ConfigError::Invalid(format!(
                "sim.first_adventurer_id must be between 1 and {} (the sim keeps ids as \
                     64-bit signed integers)",
                sim::MAX_ADVENTURER_ID
            )));
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
    pub detail: mcp::Detail,
    /// Whether compact results carry the built-in planner's move (`advice`); off to evaluate a
    /// model's own play.
    #[serde(default = "default_advice")]
    pub advice: bool,
    /// Whether the advice names combined moves, one call per decision (else single steps).
    #[serde(default = "default_advice")]
    pub combined_moves: bool,
}

fn default_advice() -> bool {
    true
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
    pub casm_hash: deploy::target::CasmHash,
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
    pub follow: chain::Follow,
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
        let mut overrides = env_overrides(&opts.env);
        overrides.extend(opts.overrides.iter().cloned());
        for (key, value) in &overrides {
            b = b.set_override(key.as_str(), value.as_str())?;
        }
        b = b.set_override("profile", profile.as_str())?;
        let mut settings: Settings = b.build()?.try_deserialize()?;
        settled::apply(&mut settings, &opts.env, &overrides);
        // An empty account names none (it clears a profile's, as for a read-only server).
        if settings
            .wallet
            .account_address
            .as_deref()
            .is_some_and(|a| a.trim().is_empty())
        {
            settings.wallet.account_address = None;
        }
        settings.validate().map_err(|e| match e {
            ConfigError::Invalid(m) => ConfigError::Invalid(base::redact::redact(&m)),
            other => other,
        })?;
        for url in [
            Some(&settings.chain.rpc_url),
            settings.tx.ws_url.as_ref(),
            settings.torii.url.as_ref(),
            settings.deployment.indexer_url.as_ref(),
        ]
        .into_iter()
        .flatten()
        {
            base::redact::register_url_credentials(url);
        }
        if let Some(key) = &settings.deployment.indexer_api_key {
            base::redact::register_credential(key.expose_secret());
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
        if self.wallet.kind == wallet::WalletKind::Session && self.is_sim() {
            return Err(ConfigError::Invalid(
                "wallet.kind = \"session\" needs a chain; the sim profile has none".into(),
            ));
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
        self.deployment.validate()?;
        if self.is_sim() && self.deployment.generation == GenerationSetting::V2 {
            return Err(ConfigError::Invalid(
                "the sim profile plays the first generation only (deployment.generation = \"v1\")"
                    .into(),
            ));
        }
        if !self.is_sim()
            && self.deployment.generation == GenerationSetting::V1
            && self.chain.manifest.is_none()
            && self.chain.contracts.is_empty()
        {
            return Err(ConfigError::Invalid(
                "set chain.manifest or chain.contracts for this profile".into(),
            ));
        }
        Ok(())
    }

    /// Whether the profile targets Starknet mainnet (by name or by its expected chain id).
    pub fn is_mainnet(&self) -> bool {
        matches!(self.profile.as_str(), "mainnet" | "mainnet-v1")
            || self
                .expected_chain_id()
                .is_ok_and(|id| id == starknet::core::chain_id::MAINNET)
    }

    /// The wallet's guard for these settings: `[policy]`, with VRF following `chain.vrf` unless
    /// set, allowing the calls in `allowed` (contract, entrypoint).
    pub fn policy_guard(
        &self,
        allowed: impl IntoIterator<Item = (Felt, Felt)>,
    ) -> wallet::PolicyGuard {
        let vrf = self.policy.vrf_enabled(self.chain.vrf);
        wallet::PolicyGuard::new(&self.policy, vrf, allowed)
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
        self.chain.manifest.as_ref().map(|p| base::home::resolve(p))
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
    pub fn deploy_target(&self) -> Result<deploy::target::DeployTarget, ConfigError> {
        Ok(deploy::target::DeployTarget {
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

mod deployment;
mod settled;
mod torii_options;

pub use deployment::{DeploymentSettings, GenerationSetting};
pub use settled::{settle_vrf_source, settled_path};

#[cfg(test)]
mod key_tests;
#[cfg(test)]
pub(crate) mod tests;
