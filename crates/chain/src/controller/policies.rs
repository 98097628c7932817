//! The (contract, entrypoint) pairs a Controller session needs to play on a deployment: the same
//! game calls the wallet's policy guard allows ([`GameAddresses::signable_entrypoints`]), by name,
//! plus the VRF provider's `request_random` and the dungeon entry calls when the profile uses them.
//!
//! Compared with Cartridge's published Loot Survivor preset (cartridge-gg/presets
//! `configs/loot-survivor/config.json` @03b66215, SN_MAIN):
//!
//! | entrypoint | here | preset |
//! |---|---|---|
//! | `start_game`, `explore`, `attack`, `flee`, `equip`, `buy_items`, `select_stat_upgrades` | yes | yes ("Game Core") |
//! | `drop` | yes | no (the preset names `drop_items`) |
//! | `mint_game` | yes | yes ("Game Token") |
//! | VRF `request_random` | when VRF is on | yes |
//! | dungeon `buy_game` | with a dungeon | yes (several dungeons) |
//! | dungeon `claim_free_game`, ticket `approve` | with a dungeon and ticket | no |
//! | `surrender`, `drop_items`, claims, tournaments, Game Core v2, `messages` | no | yes |
//!
//! The server asks only for what its tools call; a session approved from the preset would not
//! cover `drop` and is a different policy tree (a different session hash) anyway.

use starknet::core::types::Felt;

use crate::GameAddresses;
use crate::bindings::entrypoint_name;
use wallet::session::{SessionError, SessionPolicies};

/// The pairs, unsorted (the session sorts them): game calls, then `request_random` when `vrf`,
/// then the dungeon's `buy_game` and `claim_free_game`, and the ticket's `approve` when the
/// profile names both the dungeon and its ticket.
pub fn session_policy_pairs(addrs: &GameAddresses, vrf: bool) -> Vec<(Felt, &'static str)> {
    let mut pairs: Vec<(Felt, &'static str)> = addrs
        .signable_entrypoints()
        .into_iter()
        .filter_map(|(contract, selector)| Some((contract, entrypoint_name(selector)?)))
        .collect();
    if vrf {
        pairs.push((wallet::CARTRIDGE_VRF_PROVIDER, "request_random"));
    }
    if let Some(rule) = addrs.ticket_approve() {
        pairs.push((rule.ticket, "approve"));
    }
    pairs
}

/// The session policies for a deployment (see [`session_policy_pairs`]).
pub fn session_policies(addrs: &GameAddresses, vrf: bool) -> Result<SessionPolicies, SessionError> {
    SessionPolicies::new(session_policy_pairs(addrs, vrf))
}

#[cfg(test)]
mod tests {
    use super::*;
    use starknet::core::utils::get_selector_from_name;

    fn addrs() -> GameAddresses {
        GameAddresses::numbered()
    }

    fn names(pairs: &[(Felt, &str)], contract: Felt) -> Vec<String> {
        let mut v: Vec<String> = pairs
            .iter()
            .filter(|(c, _)| *c == contract)
            .map(|(_, n)| n.to_string())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn every_signable_call_is_named_once() {
        let a = addrs();
        let pairs = session_policy_pairs(&a, false);
        assert_eq!(pairs.len(), a.signable_entrypoints().len());
        for (contract, name) in &pairs {
            let sel = get_selector_from_name(name).unwrap();
            assert!(
                a.signable_entrypoints().contains(&(*contract, sel)),
                "{name}"
            );
        }
        assert_eq!(
            names(&pairs, Felt::ONE),
            [
                "attack",
                "buy_items",
                "drop",
                "equip",
                "explore",
                "flee",
                "select_stat_upgrades",
                "start_game"
            ]
        );
        assert_eq!(names(&pairs, Felt::THREE), ["mint_game"]);
        assert!(names(&pairs, Felt::TWO).is_empty());
        assert!(names(&pairs, wallet::CARTRIDGE_VRF_PROVIDER).is_empty());
    }

    #[test]
    fn vrf_and_dungeon_add_their_calls() {
        let with_vrf = session_policy_pairs(&addrs(), true);
        assert_eq!(
            names(&with_vrf, wallet::CARTRIDGE_VRF_PROVIDER),
            ["request_random"]
        );
        let dungeon = Felt::from(5u8);
        let ticket = Felt::from(6u8);
        let a = GameAddresses {
            dungeon: Some(dungeon),
            ticket: Some(ticket),
            ..addrs()
        };
        let pairs = session_policy_pairs(&a, true);
        assert_eq!(names(&pairs, dungeon), ["buy_game", "claim_free_game"]);
        assert_eq!(names(&pairs, ticket), ["approve"]);
        let policies = session_policies(&a, true).unwrap();
        assert_eq!(policies.policies().len(), 13);
        // A dungeon without its ticket: entry calls, no approve.
        let no_ticket = GameAddresses { ticket: None, ..a };
        assert!(names(&session_policy_pairs(&no_ticket, false), ticket).is_empty());
    }

    /// The preset's Game Core and Game Token methods (cartridge-gg/presets
    /// `configs/loot-survivor/config.json` @03b66215), written out: what differs is the table in
    /// the module docs.
    #[test]
    fn differences_with_the_published_preset() {
        let preset_core = [
            "start_game",
            "attack",
            "flee",
            "explore",
            "buy_items",
            "equip",
            "drop_items",
            "select_stat_upgrades",
            "surrender",
        ];
        let ours = names(&session_policy_pairs(&addrs(), false), Felt::ONE);
        let only_ours: Vec<&String> = ours
            .iter()
            .filter(|n| !preset_core.contains(&n.as_str()))
            .collect();
        let only_preset: Vec<&&str> = preset_core
            .iter()
            .filter(|n| !ours.iter().any(|o| o == *n))
            .collect();
        assert_eq!(only_ours, ["drop"]);
        assert_eq!(only_preset, [&"drop_items", &"surrender"]);
        assert_eq!(
            names(&session_policy_pairs(&addrs(), false), Felt::THREE),
            ["mint_game"]
        );
    }
}
