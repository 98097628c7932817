//! Dojo-format manifests: the addresses of the game's contracts by tag, read at start and written
//! by `devnet deploy`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;
use starknet::core::types::Felt;

use game::felt::parse_felt;

/// The contract tags the server needs, by suffix.
pub const REQUIRED_TAGS: &[&str] = &[
    "game_systems",
    "adventurer_systems",
    "game_token_systems",
    "settings_systems",
];

/// Why a manifest gives no addresses: each says which file or contract, and how to fix it.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ManifestError {
    /// The file cannot be read (on devnet: not deployed yet).
    #[error(
        "cannot read the manifest {}: {source}; deploy the practice world first \
         (`loot-survivor-mcp devnet up`)",
        path.display()
    )]
    Unreadable {
        /// The manifest's path.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: Arc<std::io::Error>,
    },
    /// The file is not JSON.
    #[error("manifest {} is not JSON: {source}", path.display())]
    NotJson {
        /// The manifest's path.
        path: PathBuf,
        /// The parse error.
        #[source]
        source: Arc<serde_json::Error>,
    },
    /// An address in it is not a felt.
    #[error("manifest {what}: {reason}")]
    BadAddress {
        /// Whose address (`world.address` or the contract's tag).
        what: String,
        /// Why it is not a felt.
        reason: String,
    },
    /// A contract the server needs has no address.
    #[error("no address for the {tag} contract")]
    NoAddress {
        /// The contract's tag suffix.
        tag: &'static str,
    },
}

/// Addresses of the game's contracts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameAddresses {
    /// The Dojo world (emitter of game events on Dojo deployments).
    pub world: Option<Felt>,
    /// `*-game_systems`.
    pub game_systems: Felt,
    /// `*-adventurer_systems`.
    pub adventurer_systems: Felt,
    /// `*-game_token_systems`.
    pub game_token_systems: Felt,
    /// `*-settings_systems`.
    pub settings_systems: Felt,
    /// The dungeon (Beast Mode's ticket booth) where games are bought, on profiles that name one.
    pub dungeon: Option<Felt>,
    /// The dungeon's ticket ERC20.
    pub ticket: Option<Felt>,
    /// The golden pass ERC721 the dungeon accepts.
    pub golden_pass: Option<Felt>,
}

impl GameAddresses {
    /// Builds the addresses from a tag-suffix map; every required tag must be present.
    pub fn from_map(map: &BTreeMap<String, Felt>) -> Result<Self, ManifestError> {
        let get = |tag: &'static str| {
            map.get(tag)
                .copied()
                .ok_or(ManifestError::NoAddress { tag })
        };
        Ok(Self {
            world: map.get("world").copied(),
            game_systems: get("game_systems")?,
            adventurer_systems: get("adventurer_systems")?,
            game_token_systems: get("game_token_systems")?,
            settings_systems: get("settings_systems")?,
            dungeon: map.get("dungeon").copied(),
            ticket: map.get("ticket").copied(),
            golden_pass: map.get("golden_pass").copied(),
        })
    }

    /// The addresses a new game's entry calls go to, minting with `settings_id`.
    pub fn entry_addresses(&self, settings_id: u32) -> super::entry::EntryAddresses {
        super::entry::EntryAddresses {
            game_token_systems: self.game_token_systems,
            settings_id,
            dungeon: self.dungeon,
            ticket: self.ticket,
            golden_pass: self.golden_pass,
        }
    }

    /// The (contract, selector) pairs the wallet may sign: the game actions and `mint_game`, and
    /// on profiles with a dungeon its `buy_game` and `claim_free_game` (the ticket's `approve` is
    /// a separate, bounded rule: [`GameAddresses::ticket_approve`]).
    pub fn signable_entrypoints(&self) -> Vec<(Felt, Felt)> {
        let mut pairs: Vec<(Felt, Felt)> = super::bindings::ENTRYPOINTS
            .iter()
            .filter(|e| e.official && (!e.view || e.name == "mint_game"))
            .filter_map(|e| {
                let address = match e.tag_suffix {
                    "game_systems" => self.game_systems,
                    "game_token_systems" => self.game_token_systems,
                    "adventurer_systems" => self.adventurer_systems,
                    "settings_systems" => self.settings_systems,
                    _ => return None,
                };
                Some((address, e.selector))
            })
            .collect();
        if let Some(dungeon) = self.dungeon {
            use super::bindings::dungeon::{BUY_GAME_SELECTOR, CLAIM_FREE_GAME_SELECTOR};
            pairs.extend([
                (dungeon, BUY_GAME_SELECTOR),
                (dungeon, CLAIM_FREE_GAME_SELECTOR),
            ]);
        }
        pairs
    }

    /// The one ticket approve the wallet may sign (exactly one ticket, to the dungeon), on
    /// profiles that name both the dungeon and its ticket.
    pub fn ticket_approve(&self) -> Option<wallet::TicketApprove> {
        Some(wallet::TicketApprove {
            ticket: self.ticket?,
            dungeon: self.dungeon?,
            amount: super::entry::ONE_TICKET,
        })
    }

    /// Every address allowed to emit game events for this deployment.
    pub fn event_emitters(&self) -> Vec<Felt> {
        let mut v = vec![self.game_systems];
        v.extend(self.world);
        v
    }
}

/// Reads a Dojo manifest (`world` + `contracts[]` with `tag` and `address`) into a tag-suffix map.
pub fn read_manifest(path: &Path) -> Result<BTreeMap<String, Felt>, ManifestError> {
    let text = std::fs::read_to_string(path).map_err(|e| ManifestError::Unreadable {
        path: path.to_path_buf(),
        source: Arc::new(e),
    })?;
    let v: Value = serde_json::from_str(&text).map_err(|e| ManifestError::NotJson {
        path: path.to_path_buf(),
        source: Arc::new(e),
    })?;
    let mut out = BTreeMap::new();
    if let Some(addr) = v["world"]["address"].as_str() {
        out.insert("world".to_string(), felt(addr, "world.address")?);
    }
    for c in v["contracts"].as_array().into_iter().flatten() {
        let (Some(tag), Some(addr)) = (c["tag"].as_str(), c["address"].as_str()) else {
            continue;
        };
        let suffix = tag.rsplit_once('-').map_or(tag, |(_, s)| s);
        out.insert(suffix.to_string(), felt(addr, tag)?);
    }
    Ok(out)
}

fn felt(s: &str, what: &str) -> Result<Felt, ManifestError> {
    parse_felt(s).map_err(|reason| ManifestError::BadAddress {
        what: what.to_string(),
        reason,
    })
}

#[cfg(test)]
impl GameAddresses {
    /// Systems at addresses 1 (game) to 4 (settings), no world and no dungeon: for unit tests.
    pub(crate) fn numbered() -> Self {
        GameAddresses {
            world: None,
            game_systems: Felt::ONE,
            adventurer_systems: Felt::TWO,
            game_token_systems: Felt::THREE,
            settings_systems: Felt::from(4u8),
            dungeon: None,
            ticket: None,
            golden_pass: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_addresses_by_tag_suffix() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.json");
        let contracts: Vec<Value> = REQUIRED_TAGS
            .iter()
            .enumerate()
            .map(|(i, t)| serde_json::json!({"tag": format!("ls_0_0_9-{t}"), "address": format!("0x{:x}", i + 1)}))
            .collect();
        std::fs::write(
            &path,
            serde_json::json!({"world": {"address": "0x99"}, "contracts": contracts}).to_string(),
        )
        .unwrap();
        let map = read_manifest(&path).unwrap();
        let a = GameAddresses::from_map(&map).unwrap();
        assert_eq!(a.world, Some(Felt::from(0x99u32)));
        assert_eq!(a.game_systems, Felt::ONE);
        assert_eq!(a.settings_systems, Felt::from(4u8));
    }

    #[test]
    fn only_game_actions_and_mint_are_signable() {
        let a = GameAddresses::numbered();
        let pairs = a.signable_entrypoints();
        let sel = |n: &str| starknet::core::utils::get_selector_from_name(n).unwrap();
        for n in [
            "start_game",
            "explore",
            "attack",
            "flee",
            "equip",
            "drop",
            "buy_items",
            "select_stat_upgrades",
        ] {
            assert!(pairs.contains(&(Felt::ONE, sel(n))), "{n}");
        }
        assert!(pairs.contains(&(Felt::THREE, sel("mint_game"))));
        assert!(!pairs.iter().any(|(_, s)| *s == sel("get_game_state")));
        assert!(
            !pairs
                .iter()
                .any(|(c, _)| *c == Felt::TWO || *c == Felt::from(4u8))
        );
        assert_eq!(pairs.len(), 9);
        assert!(a.ticket_approve().is_none());

        let with_dungeon = GameAddresses {
            dungeon: Some(Felt::from(5u8)),
            ticket: Some(Felt::from(6u8)),
            ..a
        };
        let pairs = with_dungeon.signable_entrypoints();
        assert_eq!(pairs.len(), 11);
        assert!(pairs.contains(&(Felt::from(5u8), sel("buy_game"))));
        assert!(pairs.contains(&(Felt::from(5u8), sel("claim_free_game"))));
        assert!(!pairs.iter().any(|(c, _)| *c == Felt::from(6u8)));
        let rule = with_dungeon.ticket_approve().unwrap();
        assert_eq!(
            (rule.ticket, rule.dungeon),
            (Felt::from(6u8), Felt::from(5u8))
        );
    }

    #[test]
    fn missing_manifest_says_how_to_deploy() {
        let e = read_manifest(Path::new("/nonexistent/m.json")).unwrap_err();
        assert!(e.to_string().contains("devnet up"), "{e}");
    }

    #[test]
    fn missing_tag_is_an_error() {
        let map = BTreeMap::from([("game_systems".to_string(), Felt::ONE)]);
        let e = GameAddresses::from_map(&map).unwrap_err();
        assert!(e.to_string().contains("adventurer_systems"), "{e}");
    }
}
