//! Torii options from the layered settings: the profile's URL (or `LS_TORII_URL`), the game's
//! namespace (setting, else the manifest, else `ls_0_0_9`), timeouts, retries and cache TTL.

use std::time::Duration;

use super::Settings;
use chain::manifest::GameAddresses;
use game::felt::parse_felt;
use indexer::torii::ToriiOptions;
use indexer::torii::namespace::{DEFAULT_NAMESPACE, namespace_from_manifest};

impl Settings {
    /// The Dojo world's namespace: `torii.namespace`, else the manifest's, else `ls_0_0_9`.
    pub fn world_namespace(&self) -> Result<String, String> {
        Ok(match &self.torii.namespace {
            Some(ns) => ns.clone(),
            None => match self.manifest_path() {
                Some(p) => namespace_from_manifest(&p)?,
                None => None,
            }
            .unwrap_or_else(|| DEFAULT_NAMESPACE.to_string()),
        })
    }

    /// Options for this run, or `None` when no Torii URL is configured: the game's
    /// `game_token_systems` contract and world from `addresses`, and the dungeon from the
    /// profile's `chain.contracts.dungeon` when it names one (an official deployment; a practice
    /// dungeon deployed on devnet stays out, so its leaderboard keeps ranking every game).
    pub fn torii_options(&self, addresses: &GameAddresses) -> Result<Option<ToriiOptions>, String> {
        let settings = self;
        let t = &settings.torii;
        let Some(url) = t.url.clone() else {
            return Ok(None);
        };
        let namespace = settings.world_namespace()?;
        let dungeon = settings
            .chain
            .contracts
            .get("dungeon")
            .map(|d| parse_felt(d).map_err(|e| format!("chain.contracts.dungeon: {e}")))
            .transpose()?;
        Ok(Some(ToriiOptions {
            url,
            namespace,
            token_namespace: t.token_namespace.clone(),
            game_address: addresses.game_token_systems,
            world_address: addresses.world,
            dungeon,
            request_timeout: Duration::from_millis(t.request_timeout_ms),
            retries: t.retries,
            cache_ttl: Duration::from_millis(t.cache_ttl_ms),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use starknet_types_core::felt::Felt;

    fn addresses() -> GameAddresses {
        GameAddresses {
            world: Some(Felt::TWO),
            game_systems: Felt::ONE,
            adventurer_systems: Felt::ONE,
            game_token_systems: Felt::ONE,
            settings_systems: Felt::ONE,
            dungeon: None,
            ticket: None,
            golden_pass: None,
        }
    }

    fn settings(env: &[(&str, &str)]) -> Settings {
        crate::config::tests::load(Some("devnet"), env).unwrap()
    }

    #[test]
    fn no_url_means_no_torii() {
        assert!(settings(&[]).torii_options(&addresses()).unwrap().is_none());
    }

    #[test]
    fn env_url_and_manifest_namespace() {
        let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/../../abi/practice_world.json");
        let s = settings(&[
            ("LS_TORII_URL", "http://127.0.0.1:9/torii"),
            ("LS_MANIFEST", manifest),
            ("LS_TORII__REQUEST_TIMEOUT_MS", "1234"),
        ]);
        let o = s.torii_options(&addresses()).unwrap().unwrap();
        assert_eq!(o.url.as_str(), "http://127.0.0.1:9/torii");
        assert_eq!(o.namespace, "ls_0_0_9");
        assert_eq!(o.token_namespace, "relayer_0_0_1");
        assert_eq!(o.request_timeout, Duration::from_millis(1234));
        assert_eq!(o.retries, 2);
        assert_eq!(o.cache_ttl, Duration::from_millis(10_000));
    }

    #[test]
    fn explicit_namespace_wins() {
        let s = settings(&[
            ("LS_TORII_URL", "http://127.0.0.1:9"),
            ("LS_TORII__NAMESPACE", "ls_0_0_6"),
        ]);
        let o = s.torii_options(&addresses()).unwrap().unwrap();
        assert_eq!(o.namespace, "ls_0_0_6");
    }

    #[test]
    fn the_archived_mainnet_world_keeps_its_torii_and_the_live_one_has_none() {
        let live = crate::config::tests::load(Some("mainnet"), &[]).unwrap();
        assert!(live.torii_options(&addresses()).unwrap().is_none());
        let s = crate::config::tests::load(Some("mainnet-v1"), &[]).unwrap();
        let o = s.torii_options(&addresses()).unwrap().unwrap();
        assert!(o.url.as_str().contains("torii"));
        assert_eq!(o.namespace, DEFAULT_NAMESPACE);
        assert_eq!(o.world_address, Some(Felt::TWO));
        assert_eq!(
            o.dungeon,
            Some(
                Felt::from_hex(
                    "0x00a67ef20b61a9846e1c82b411175e6ab167ea9f8632bd6c2091823c3629ec42"
                )
                .unwrap()
            ),
            "mainnet-v1 names the Beast Mode dungeon"
        );
    }
}
