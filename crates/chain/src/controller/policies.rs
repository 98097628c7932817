//! The (contract, entrypoint) pairs a Controller session needs to play on a deployment: the same
//! game calls the wallet's policy guard allows, by name, plus the VRF provider's `request_random`
//! and the dungeon entry calls when the profile uses them. Also how a stored session is matched
//! against the deployment a server plays, and the names the keychain shows for each contract.
//!
//! v1 (the Dojo world) compared with Cartridge's Loot Survivor preset (cartridge-gg/presets
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
//! v2 (GameCore) asks for what Cartridge's Death Mountain preset lists for GameCore, GameToken
//! and the VRF provider (cartridge-gg/presets `configs/death-mountain/config.json` @e37b9338):
//! GameCore's `start_game`, `attack`, `flee`, `explore`, `buy_items`, `equip`, `drop_items`,
//! `select_stat_upgrades` and `surrender`, GameToken's `mint_game`, and `request_random` unless
//! the VRF source is `off`. The preset's dungeons are left out: v2's dungeon calldata is not known.
//!
//! The server asks only for what its tools call; a session approved from a preset is a different
//! policy tree (a different session hash) anyway.

use starknet::core::types::Felt;
use starknet::macros::selector;

use crate::bindings::entrypoint_name;
use crate::controller::state::SessionProblem;
use crate::generation::{Deployment, Generation};
use wallet::session::approval::ContractLabel;
use wallet::session::{SessionError, SessionPolicies};

/// The pairs, unsorted (the session sorts them). v1: game calls, `request_random` on Cartridge's
/// provider when `vrf`, the dungeon's `buy_game` and `claim_free_game` and the ticket's `approve`
/// when the profile names both. v2: GameCore's actions and the mint, `request_random` on the
/// deployment's provider when `vrf`.
pub fn session_policy_pairs(deployment: &Deployment, vrf: bool) -> Vec<(Felt, &'static str)> {
    let game = deployment.game();
    let mut pairs: Vec<(Felt, &'static str)> = game
        .signable_entrypoints()
        .into_iter()
        .filter_map(|(contract, selector)| Some((contract, entrypoint_name(selector)?)))
        .collect();
    pairs.extend(game.session_extra_pairs(vrf));
    pairs
}

/// The session policies for a deployment (see [`session_policy_pairs`]).
pub fn session_policies(
    deployment: &Deployment,
    vrf: bool,
) -> Result<SessionPolicies, SessionError> {
    SessionPolicies::new(session_policy_pairs(deployment, vrf))
}

/// Whether a session on `deployment` asks for `request_random`: v1 follows the profile's
/// `chain.vrf`; v2 asks unless its VRF source is `off` (an unset source may be set later, and a
/// session approved without the request could not follow it).
pub fn deployment_uses_vrf(deployment: &Deployment, v1_chain_vrf: bool) -> bool {
    deployment.game().session_uses_vrf(v1_chain_vrf)
}

/// The labels of the deployment's contracts for the approval, each naming the generation and
/// the game contract, so the owner sees which deployment the session is for.
pub fn contract_labels(deployment: &Deployment) -> Vec<ContractLabel> {
    let about = describe(deployment);
    deployment
        .game()
        .contract_names()
        .into_iter()
        .map(|(contract, name)| ContractLabel {
            contract,
            name: name.to_owned(),
            description: format!("Loot Survivor 2 / Death Mountain: {about}"),
        })
        .collect()
}

/// The deployment as the player reads it: "the v1 world's contracts (game systems 0x…)" or
/// "the v2 contracts (GameCore 0x…)".
pub fn describe(deployment: &Deployment) -> String {
    deployment
        .generation()
        .describe_game(deployment.game_address())
}

/// The game contract a session's policies play on, and its generation: the contract allowed
/// `explore`, v2 when it is also allowed GameCore's `surrender` or `drop_items`.
pub fn session_game(policies: &SessionPolicies) -> Option<(Generation, Felt)> {
    let game = policies
        .policies()
        .iter()
        .find(|p| p.entrypoint == "explore")?
        .contract;
    let generation = Generation::of_session(&|s| policies.proof(game, s).is_some());
    Some((generation, game))
}

/// `Some(OtherDeployment)` when a session's policies do not cover `deployment`'s game contract:
/// a session approved for another generation's contracts, or another deployment.
pub fn deployment_mismatch(
    deployment: &Deployment,
    policies: &SessionPolicies,
) -> Option<SessionProblem> {
    if policies
        .proof(deployment.game_address(), selector!("explore"))
        .is_some()
    {
        return None;
    }
    let approved_for = match session_game(policies) {
        Some((generation, game)) => generation.describe_game(game),
        None => "other contracts (none of them a game's explore)".to_owned(),
    };
    Some(SessionProblem::OtherDeployment {
        approved_for,
        serving: describe(deployment),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameAddresses;
    use crate::generation::VrfSource;
    use starknet::core::utils::get_selector_from_name;

    fn addrs() -> GameAddresses {
        GameAddresses::numbered()
    }

    fn v1(a: &GameAddresses) -> Deployment {
        Deployment::V1(a.clone())
    }

    fn v2(vrf_source: Option<VrfSource>) -> Deployment {
        Deployment::V2(crate::V2Contracts::numbered(vrf_source))
    }

    /// Game Core's methods in Cartridge's presets, the same nine in both: Loot Survivor's
    /// (cartridge-gg/presets `configs/loot-survivor/config.json` @03b66215) and Death Mountain's
    /// (`configs/death-mountain/config.json` @e37b9338), written out.
    const PRESET_GAME_CORE: [&str; 9] = [
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
        let pairs = session_policy_pairs(&v1(&a), false);
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
        let with_vrf = session_policy_pairs(&v1(&addrs()), true);
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
        let pairs = session_policy_pairs(&v1(&a), true);
        assert_eq!(names(&pairs, dungeon), ["buy_game", "claim_free_game"]);
        assert_eq!(names(&pairs, ticket), ["approve"]);
        let policies = session_policies(&v1(&a), true).unwrap();
        assert_eq!(policies.policies().len(), 13);
        // A dungeon without its ticket: entry calls, no approve.
        let no_ticket = GameAddresses { ticket: None, ..a };
        assert!(names(&session_policy_pairs(&v1(&no_ticket), false), ticket).is_empty());
    }

    /// v1 against the Loot Survivor preset's Game Core and Game Token methods: what differs is
    /// the table in the module docs.
    #[test]
    fn differences_with_the_published_preset() {
        let preset_core = PRESET_GAME_CORE;
        let ours = names(&session_policy_pairs(&v1(&addrs()), false), Felt::ONE);
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
            names(&session_policy_pairs(&v1(&addrs()), false), Felt::THREE),
            ["mint_game"]
        );
    }

    /// A v2 session asks for exactly the Death Mountain preset's GameCore methods and GameToken's
    /// `mint_game`, plus the deployment's VRF provider unless its source is off.
    #[test]
    fn a_v2_session_asks_for_the_death_mountain_presets_calls() {
        let mut preset_core = PRESET_GAME_CORE;
        preset_core.sort();
        for (source, vrf) in [
            (Some(VrfSource::Off), false),
            (Some(VrfSource::Nonce), true),
            (None, true),
        ] {
            let d = v2(source);
            assert_eq!(deployment_uses_vrf(&d, false), vrf);
            let pairs = session_policy_pairs(&d, deployment_uses_vrf(&d, false));
            assert_eq!(names(&pairs, Felt::from(0x6a_u8)), preset_core);
            assert_eq!(names(&pairs, Felt::from(0x70_u8)), ["mint_game"]);
            let want: &[&str] = if vrf { &["request_random"] } else { &[] };
            assert_eq!(names(&pairs, Felt::from(0xf0_u8)), want);
            assert!(names(&pairs, wallet::CARTRIDGE_VRF_PROVIDER).is_empty());
            assert_eq!(pairs.len(), 10 + usize::from(vrf));
        }
    }

    #[test]
    fn a_session_of_the_other_generation_is_named_as_such() {
        let a = addrs();
        let v1_session = session_policies(&v1(&a), true).unwrap();
        let v2_session = session_policies(&v2(Some(VrfSource::Nonce)), true).unwrap();
        assert_eq!(session_game(&v1_session), Some((Generation::V1, Felt::ONE)));
        assert_eq!(
            session_game(&v2_session),
            Some((Generation::V2, Felt::from(0x6a_u8)))
        );
        assert_eq!(deployment_mismatch(&v1(&a), &v1_session), None);
        assert_eq!(deployment_mismatch(&v2(None), &v2_session), None);
        let problem = deployment_mismatch(&v2(None), &v1_session).expect("a mismatch");
        assert_eq!(problem.code(), "other_deployment");
        assert_eq!(
            problem.to_string(),
            "this Controller session was approved for the v1 world's contracts (game systems \
             0x1); this server plays the v2 contracts (GameCore 0x6a)"
        );
        let back = deployment_mismatch(&v1(&a), &v2_session).expect("a mismatch");
        assert!(
            back.to_string()
                .contains("approved for the v2 contracts (GameCore 0x6a)"),
            "{back}"
        );
        // Another v2 deployment (another GameCore) is a mismatch too.
        let other = Deployment::V2(crate::V2Contracts {
            game_core: Felt::from(0x6b_u8),
            ..crate::V2Contracts::numbered(None)
        });
        assert!(deployment_mismatch(&other, &v2_session).is_some());
    }

    #[test]
    fn labels_name_the_generation_and_the_game() {
        let labels = contract_labels(&v2(None));
        assert_eq!(labels[0].contract, Felt::from(0x6a_u8));
        assert_eq!(labels[0].name, "Game Core (v2)");
        assert!(
            labels
                .iter()
                .all(|l| l.description.contains("v2 contracts (GameCore 0x6a)"))
        );
        let v1_labels = contract_labels(&v1(&addrs()));
        assert!(
            v1_labels[0].description.contains("v1 world"),
            "{v1_labels:?}"
        );
    }
}
