//! `[deployment]`: which generation a profile plays and, for v2, its contracts and VRF source
//! (docs/generations.md). A v1 profile keeps its addresses in `chain.manifest` / `chain.contracts`.

use std::path::PathBuf;

use chain::generation::IndexSource;
use chain::{Deployment, V2Contracts, VrfSource};
use deploy::v2::V2Deployment;
use game::felt::parse_felt;
use secrecy::SecretString;
use serde::Deserialize;
use starknet::core::types::Felt;

use super::{ConfigError, Settings};

/// The generation a profile names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GenerationSetting {
    /// The Dojo world (the default): addresses from `chain.manifest` / `chain.contracts`.
    #[default]
    V1,
    /// GameCore, GameToken, Denshokan and the VRF provider: the keys below, or `deployment_file`.
    V2,
}

/// A profile's deployment.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DeploymentSettings {
    /// `v1` (default) or `v2` (also `LS_GENERATION`).
    pub generation: GenerationSetting,
    /// v2: the deployment file `devnet deploy --generation v2` writes (relative paths resolve
    /// against the data directory; empty: none); the keys below override what it says.
    pub deployment_file: Option<PathBuf>,
    /// v2: GameCore's address.
    pub game_core: Option<String>,
    /// v2: GameToken's address.
    pub game_token: Option<String>,
    /// v2: Denshokan's address.
    pub denshokan: Option<String>,
    /// v2: the VRF provider's address.
    pub vrf_provider: Option<String>,
    /// v2: a dungeon's address (not used yet).
    pub dungeon: Option<String>,
    /// v2: the minter whose games count (not used yet).
    pub minter: Option<String>,
    /// v2: `off`, `nonce`, `salt:adventurer_state` or `salt:v1`; unset: unknown (actions that draw
    /// randomness are refused before signing).
    pub vrf_source: Option<String>,
    /// v2: the contract that consumes the randomness (the VRF request's `caller`); unset: the
    /// deployment file's, else GameCore.
    pub vrf_consumer: Option<String>,
    /// v2: the game settings `vrf_source` holds for; a game of other settings is refused an
    /// action that draws randomness. Unset: the deployment file's, else every game's.
    pub vrf_settings: Option<u32>,
    /// v2: the last block whose GameCore events took the earlier envelope (the id in `data[0]`);
    /// games minted by then have those events read too. Unset: only the current envelope is read.
    pub legacy_envelope_until_block: Option<u64>,
    /// v2: the Denshokan API the leaderboard and an owner's games are read from (also
    /// `LS_DENSHOKAN_URL`); unset: none (the mainnet profile names Provable's, which indexes
    /// mainnet only).
    pub indexer_url: Option<url::Url>,
    /// v2: the key sent to that API as `X-API-Key` (also `LS_DENSHOKAN_API_KEY`); unset: none.
    pub indexer_api_key: Option<SecretString>,
    /// The date (`YYYY-MM-DD`) the deployment was archived: new games are refused before signing.
    pub archived: Option<String>,
    /// The public record of the archival, quoted in the refusal.
    pub archived_source: Option<String>,
    /// The profile that plays the live game instead, named in the refusal.
    pub successor_profile: Option<String>,
    /// Enter new games on an archived deployment anyway (also `LS_ALLOW_ARCHIVED_ENTRY`).
    pub allow_archived_entry: bool,
}

impl DeploymentSettings {
    /// Checks the keys' values (addresses, the VRF source) without reading any file.
    pub(super) fn validate(&self) -> Result<(), ConfigError> {
        for (key, value) in self.addresses() {
            if let Some(v) = value {
                address(key, v)?;
            }
        }
        if let Some(s) = &self.vrf_source {
            source(s)?;
        }
        if let Some(d) = &self.archived
            && !is_iso_date(d)
        {
            return Err(ConfigError::Invalid(format!(
                "deployment.archived: '{}' is not a date such as 2026-05-11",
                d.escape_debug()
            )));
        }
        if let Some(p) = &self.successor_profile
            && !super::PROFILES.iter().any(|(name, _)| name == p)
        {
            return Err(ConfigError::Invalid(format!(
                "deployment.successor_profile: {} is not a profile",
                super::shown_profile(p)
            )));
        }
        Ok(())
    }

    fn addresses(&self) -> [(&'static str, Option<&String>); 7] {
        [
            ("game_core", self.game_core.as_ref()),
            ("game_token", self.game_token.as_ref()),
            ("denshokan", self.denshokan.as_ref()),
            ("vrf_provider", self.vrf_provider.as_ref()),
            ("dungeon", self.dungeon.as_ref()),
            ("minter", self.minter.as_ref()),
            ("vrf_consumer", self.vrf_consumer.as_ref()),
        ]
    }

    /// The v2 contracts: the deployment file's (when named), overridden key by key.
    pub(super) fn v2_contracts(&self) -> Result<V2Contracts, ConfigError> {
        // An empty path names no file (it clears a profile's default one).
        let named = self
            .deployment_file
            .as_ref()
            .filter(|p| !p.as_os_str().is_empty());
        let file = match named {
            Some(p) => {
                let path = base::home::resolve(p);
                let d = V2Deployment::load(&path).map_err(|e| {
                    ConfigError::Invalid(format!(
                        "deployment.deployment_file: {e}; deploy it with `loot-survivor-mcp \
                         devnet deploy --generation v2`"
                    ))
                })?;
                Some(V2Contracts::from(&d))
            }
            None => None,
        };
        let get = |key: &'static str, value: Option<&String>, from_file: Option<Felt>| match value {
            Some(v) => address(key, v),
            None => from_file.ok_or_else(|| {
                ConfigError::Invalid(format!(
                    "deployment.{key} is needed for generation = \"v2\" (or a deployment_file)"
                ))
            }),
        };
        let optional = |key, value: Option<&String>| value.map(|v| address(key, v)).transpose();
        Ok(V2Contracts {
            game_core: get(
                "game_core",
                self.game_core.as_ref(),
                file.as_ref().map(|f| f.game_core),
            )?,
            game_token: get(
                "game_token",
                self.game_token.as_ref(),
                file.as_ref().map(|f| f.game_token),
            )?,
            denshokan: get(
                "denshokan",
                self.denshokan.as_ref(),
                file.as_ref().map(|f| f.denshokan),
            )?,
            vrf_provider: get(
                "vrf_provider",
                self.vrf_provider.as_ref(),
                file.as_ref().map(|f| f.vrf_provider),
            )?,
            dungeon: optional("dungeon", self.dungeon.as_ref())?,
            minter: optional("minter", self.minter.as_ref())?,
            vrf_source: match &self.vrf_source {
                Some(s) => Some(source(s)?),
                None => file.as_ref().and_then(|f| f.vrf_source),
            },
            vrf_consumer: match optional("vrf_consumer", self.vrf_consumer.as_ref())? {
                Some(c) => Some(c),
                None => file.as_ref().and_then(|f| f.vrf_consumer),
            },
            vrf_settings: self
                .vrf_settings
                .or(file.as_ref().and_then(|f| f.vrf_settings)),
            legacy_envelope_until: self.legacy_envelope_until_block,
        })
    }
}

/// `YYYY-MM-DD` with a month 01–12 and a day 01–31.
fn is_iso_date(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    let number = |p: &str, len: usize| {
        (p.len() == len && p.bytes().all(|b| b.is_ascii_digit())).then(|| p.parse::<u32>().ok())
    };
    match parts.as_slice() {
        [y, m, d] => {
            number(y, 4).is_some()
                && number(m, 2)
                    .flatten()
                    .is_some_and(|m| (1..=12).contains(&m))
                && number(d, 2)
                    .flatten()
                    .is_some_and(|d| (1..=31).contains(&d))
        }
        _ => false,
    }
}

fn address(key: &str, value: &str) -> Result<Felt, ConfigError> {
    parse_felt(value).map_err(|e| ConfigError::Invalid(format!("deployment.{key}: {e}")))
}

fn source(value: &str) -> Result<VrfSource, ConfigError> {
    value
        .parse()
        .map_err(|e| ConfigError::Invalid(format!("deployment.vrf_source: {e}")))
}

impl Settings {
    /// On a v2 deployment, the indexer tools' index: the Denshokan API of the profile's
    /// `deployment.indexer_url` (none unset) for the leaderboard and an owner's games, and
    /// `events` (the chain's GameCore events) for a history; `None` on v1 (Torii, when
    /// configured).
    pub fn v2_index(
        &self,
        deployment: &Deployment,
        events: std::sync::Arc<dyn indexer::GameEventsSource>,
    ) -> anyhow::Result<Option<indexer::denshokan::DenshokanIndex>> {
        use indexer::denshokan::DenshokanIndex;
        let IndexSource::Denshokan { minter } = deployment.game().index_source() else {
            return Ok(None);
        };
        let game_id = game::token_fields::DEATH_MOUNTAIN_GAME_ID;
        let index = match self.denshokan_client()? {
            Some(client) => DenshokanIndex::new(std::sync::Arc::new(client), game_id, minter),
            None => DenshokanIndex::without_api(game_id, minter),
        };
        Ok(Some(index.with_events(events)))
    }

    /// A client of the profile's Denshokan API (`deployment.indexer_url`, with
    /// `deployment.indexer_api_key`), or `None` when the profile names none.
    pub fn denshokan_client(&self) -> anyhow::Result<Option<indexer::denshokan::DenshokanClient>> {
        use indexer::denshokan::{DenshokanClient, DenshokanOptions};
        let Some(url) = &self.deployment.indexer_url else {
            return Ok(None);
        };
        let opts = DenshokanOptions {
            url: url.clone(),
            api_key: self.deployment.indexer_api_key.clone(),
            ..DenshokanOptions::default()
        };
        DenshokanClient::new(opts)
            .map(Some)
            .map_err(|e| anyhow::anyhow!("{e}"))
    }

    /// The profile's deployment: v1's addresses from the manifest and `chain.contracts`, or the
    /// v2 contracts of `[deployment]`.
    pub fn deployment(&self) -> anyhow::Result<Deployment> {
        Ok(match self.deployment.generation {
            GenerationSetting::V1 => Deployment::V1(crate::session::game_addresses(self)?),
            GenerationSetting::V2 => Deployment::V2(self.deployment.v2_contracts()?),
        })
    }

    /// The profile's archive mark (`deployment.archived`), naming the deployment: "the Dojo world
    /// <namespace>" on v1, GameCore's address on v2; `None` for a live deployment.
    pub fn archive(&self) -> Option<chain::Archive> {
        let d = &self.deployment;
        let date = d.archived.clone()?;
        let what = match d.generation {
            GenerationSetting::V1 => match self.world_namespace() {
                Ok(ns) => format!("the Dojo world {ns}"),
                Err(_) => "this Dojo world".into(),
            },
            GenerationSetting::V2 => match &d.game_core {
                Some(a) => format!("the v2 deployment of GameCore {a}"),
                None => "this v2 deployment".into(),
            },
        };
        Some(chain::Archive {
            what,
            date,
            source: d.archived_source.clone(),
            successor: d.successor_profile.clone(),
            allow_entry: d.allow_archived_entry,
        })
    }

    /// The wallet's guard for a deployment signed for by `account`: v1's game entrypoints, the
    /// dungeon's and its ticket approve, VRF following `chain.vrf`; v2's GameCore actions and
    /// the mint, with exactly the VRF request its source asks for (none when off or unset).
    pub fn deployment_policy_guard(
        &self,
        deployment: &Deployment,
        account: Felt,
    ) -> wallet::PolicyGuard {
        deployment
            .game()
            .policy_guard(&self.policy, self.chain.vrf, account)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::load;
    use super::*;

    #[test]
    fn mainnet_plays_v2_and_every_other_built_in_profile_v1() {
        for p in ["sim", "devnet", "katana", "sepolia", "mainnet-v1"] {
            let s = load(Some(p), &[]).unwrap();
            assert_eq!(s.deployment.generation, GenerationSetting::V1, "{p}");
        }
        let s = load(Some("mainnet"), &[]).unwrap();
        assert_eq!(s.deployment.generation, GenerationSetting::V2);
        assert!(s.chain.contracts.is_empty() && s.torii.url.is_none());
        assert_eq!(
            s.deployment.indexer_url,
            Some(indexer::denshokan::DEFAULT_BASE_URL.parse().unwrap())
        );
        assert_eq!(s.archive(), None, "the live game is not archived");
    }

    #[test]
    fn the_indexer_api_key_is_read_kept_out_of_debug_and_registered_for_hiding() {
        use secrecy::ExposeSecret as _;
        let key = "dk_live_9fQ2mZ7wLx";
        let s = load(Some("mainnet"), &[("LS_DENSHOKAN_API_KEY", key)]).unwrap();
        let kept = s.deployment.indexer_api_key.as_ref().unwrap();
        assert_eq!(kept.expose_secret(), key);
        assert!(!format!("{s:?}").contains(key));
        let shown = base::redact::hide_credentials(&format!("Invalid API key {key}")).into_owned();
        assert_eq!(shown, "Invalid API key <hidden>");
        assert!(s.denshokan_client().unwrap().is_some());
        let devnet = load(Some("devnet"), &[("LS_GENERATION", "v2")]).unwrap();
        assert!(devnet.deployment.indexer_url.is_none());
        assert!(
            devnet.denshokan_client().unwrap().is_none(),
            "no default API off mainnet"
        );
    }

    #[test]
    fn mainnet_names_the_v2_contracts_with_its_vrf_source_unset() {
        let s = load(Some("mainnet"), &[]).unwrap();
        let Deployment::V2(c) = s.deployment().unwrap() else {
            panic!("not v2")
        };
        let hex = |f: Felt| format!("{f:#066x}");
        assert_eq!(
            [
                hex(c.game_core),
                hex(c.game_token),
                hex(c.denshokan),
                hex(c.vrf_provider)
            ],
            [
                "0x023f86f5b4702f6ba114b82fb73448c58aad8f37a28b508b80bf129ee1edc405",
                "0x04de0351ceab4ecd50be6ee09329b0dcb3b96a9da88cc158f453823a389722fa",
                "0x00263cc540dac11334470a64759e03952ee2f84a290e99ba8cbc391245cd0bf9",
                "0x051fea4450da9d6aee758bdeba88b2f665bcbf549d2c61421aa724e9ac0ced8f",
            ]
        );
        assert_eq!((c.vrf_source, c.dungeon, c.minter), (None, None, None));
        let guard = s.deployment_policy_guard(&Deployment::V2(c), Felt::ONE);
        assert!(!guard.snapshot().vrf_allowed);
    }

    #[test]
    fn mainnet_v1_is_archived_with_its_date_source_and_successor() {
        let s = load(Some("mainnet-v1"), &[]).unwrap();
        assert!(s.is_mainnet());
        let a = s.archive().expect("archived");
        assert_eq!(a.what, "the Dojo world ls_0_0_9");
        assert_eq!(a.date, "2026-05-11");
        assert_eq!(a.successor.as_deref(), Some("mainnet"));
        assert!(a.source.as_deref().is_some_and(|s| s.contains("a9a07a8")));
        let e = a.check_entry("ticket").unwrap_err().to_string();
        assert!(
            e.starts_with("the Dojo world ls_0_0_9 was archived on 2026-05-11 ("),
            "{e}"
        );
        assert!(
            e.contains("play the live game with --profile mainnet"),
            "{e}"
        );
        let allowed = load(Some("mainnet-v1"), &[("LS_ALLOW_ARCHIVED_ENTRY", "1")]).unwrap();
        assert_eq!(allowed.archive().unwrap().check_entry("ticket"), Ok(()));
    }

    #[test]
    fn archive_keys_are_checked_at_load() {
        let e = load(Some("devnet"), &[("LS_DEPLOYMENT__ARCHIVED", "May 2026")]).unwrap_err();
        assert!(e.to_string().contains("deployment.archived"), "{e}");
        let e = load(Some("devnet"), &[("LS_DEPLOYMENT__ARCHIVED", "2026-13-01")]).unwrap_err();
        assert!(e.to_string().contains("2026-13-01"), "{e}");
        let e = load(
            Some("devnet"),
            &[("LS_DEPLOYMENT__SUCCESSOR_PROFILE", "moonnet")],
        )
        .unwrap_err();
        assert!(e.to_string().contains("'moonnet' is not a profile"), "{e}");
        let s = load(
            Some("sepolia"),
            &[("LS_DEPLOYMENT__ARCHIVED", "2026-05-11")],
        )
        .unwrap();
        let a = s.archive().unwrap();
        assert_eq!((a.date.as_str(), a.successor), ("2026-05-11", None));
    }

    #[test]
    fn a_v2_profile_names_every_missing_address_and_a_bad_source() {
        let mut s = load(Some("devnet"), &[("LS_GENERATION", "v2")]).unwrap();
        s.deployment.deployment_file = None;
        let e = s.deployment().unwrap_err().to_string();
        assert_eq!(
            e,
            "invalid configuration: deployment.game_core is needed for generation = \"v2\" (or a deployment_file)"
        );
        let e = load(Some("devnet"), &[("LS_DEPLOYMENT__VRF_SOURCE", "salt")]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid configuration: deployment.vrf_source: unknown VRF source \"salt\": off, nonce, salt:adventurer_state or salt:v1"
        );
    }

    #[test]
    fn ls_generation_plays_the_devnet_v2_file_with_its_vrf_mode() {
        let dir = std::env::temp_dir().join(format!("ls-v2-profile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("v2.json");
        std::fs::write(
            &file,
            r#"{"game": "0x6a", "token": "0x70", "denshokan": "0xde", "vrf": "0xf0", "vrf_mode": "nonce"}"#,
        )
        .unwrap();
        let path = file.display().to_string();
        let s = load(
            Some("devnet"),
            &[
                ("LS_GENERATION", "v2"),
                ("LS_DEPLOYMENT__DEPLOYMENT_FILE", path.as_str()),
            ],
        )
        .unwrap();
        let Deployment::V2(c) = s.deployment().unwrap() else {
            panic!("not v2")
        };
        assert_eq!(
            (c.game_core, c.game_token, c.denshokan, c.vrf_provider),
            (
                Felt::from(0x6a_u8),
                Felt::from(0x70_u8),
                Felt::from(0xde_u8),
                Felt::from(0xf0_u8)
            )
        );
        assert_eq!(c.vrf_source, Some(VrfSource::Nonce));
        let account = Felt::from(0xacc_u16);
        let guard = s.deployment_policy_guard(&Deployment::V2(c), account);
        let request = starknet::core::types::Call {
            to: Felt::from(0xf0_u8),
            selector: wallet::REQUEST_RANDOM_SELECTOR,
            calldata: vec![Felt::from(0x6a_u8), Felt::ZERO, account],
        };
        let explore = starknet::core::types::Call {
            to: Felt::from(0x6a_u8),
            selector: starknet::macros::selector!("explore"),
            calldata: vec![],
        };
        guard.check_calls(&[request, explore]).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
