//! Cartridge VRF bundling (docs/vrf.md, docs/game-rules.md#randomness): which actions consume
//! randomness, and the `request_random(caller = game_systems, Source::Salt(salt))` call that must
//! come first in their multicall, with the salt computed from the state the action starts from.

use game::AdventurerId;
use starknet::core::types::{Call, Felt};

use crate::generation::VrfSource;
use game::engine::Action;
use game::model::Adventurer;
use game::random::{battle_salt, explore_salt};
use wallet::{CARTRIDGE_VRF_PROVIDER, REQUEST_RANDOM_SELECTOR};

/// `Source::Salt` in the VRF provider's `Source` enum (`Nonce(ContractAddress)` is 0).
const SOURCE_SALT: Felt = Felt::ONE;

/// The salt the contract will pass to `consume_random` for `action` taken from `adventurer`
/// (the state *before* the transaction), or `None` when the action consumes no randomness:
/// * explore: `poseidon(xp, adventurer_id)`;
/// * attack, flee, and equip while in battle: `poseidon(xp, adventurer_id, action_count + 1)`;
/// * start (default settings), equip out of battle, drop, buy, stat upgrades: none.
pub fn salt_for(
    adventurer_id: AdventurerId,
    adventurer: &Adventurer,
    action: &Action,
) -> Option<Felt> {
    if !draws_randomness(action, adventurer) {
        return None;
    }
    Some(match action {
        Action::Explore { .. } => explore_salt(adventurer_id, adventurer.xp),
        _ => battle_salt(adventurer_id, adventurer.xp, adventurer.action_count),
    })
}

/// Whether `action` taken from `before` draws a seed, in either generation: explore, attack,
/// flee, and an equip in battle (start, an equip out of battle, drop, buy, upgrade and
/// surrender draw none).
pub fn draws_randomness(action: &Action, before: &Adventurer) -> bool {
    match action {
        Action::Explore { .. } | Action::Attack { .. } | Action::Flee { .. } => true,
        Action::Equip { .. } => before.beast_health > 0,
        Action::StartGame { .. }
        | Action::Drop { .. }
        | Action::BuyItems { .. }
        | Action::Upgrade { .. }
        | Action::Surrender => false,
        Action::Batch(parts) => parts.iter().any(|p| draws_randomness(p, before)),
    }
}

/// Whether a v2 action needs the pre-action state under `source` (unset: the same as `nonce`):
/// a salt recipe reads it for every action that may draw; otherwise only an equip, to know
/// whether it is in battle.
pub fn v2_needs_state(source: Option<VrfSource>, action: &Action) -> bool {
    match source {
        Some(VrfSource::Off) => false,
        Some(VrfSource::Salt(_)) => may_need_randomness(action),
        Some(VrfSource::Nonce) | None => action
            .parts()
            .iter()
            .any(|p| matches!(p, Action::Equip { .. })),
    }
}

/// Whether an action may consume randomness at all (so its pre-action state must be read).
pub fn may_need_randomness(action: &Action) -> bool {
    action.parts().iter().any(|p| {
        matches!(
            p,
            Action::Explore { .. }
                | Action::Attack { .. }
                | Action::Flee { .. }
                | Action::Equip { .. }
        )
    })
}

/// The VRF call: `request_random(game_systems, Source::Salt(salt))` on the Cartridge provider.
pub fn request_random(game_systems: Felt, salt: Felt) -> Call {
    Call {
        to: CARTRIDGE_VRF_PROVIDER,
        selector: REQUEST_RANDOM_SELECTOR,
        calldata: vec![game_systems, SOURCE_SALT, salt],
    }
}

/// The multicall for an action: the VRF call first when the action consumes randomness, then the
/// game call. Returns the calls and whether the VRF call was prepended.
pub fn bundle(
    game_systems: Felt,
    adventurer_id: AdventurerId,
    adventurer: &Adventurer,
    action: &Action,
    action_call: Call,
) -> (Vec<Call>, bool) {
    match salt_for(adventurer_id, adventurer, action) {
        Some(salt) => (vec![request_random(game_systems, salt), action_call], true),
        None => (vec![action_call], false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::model::{ItemPurchase, Stats};
    use serde_json::Value;

    const GS: Felt = Felt::from_hex_unchecked(
        "0x6f7c4350d6d5ee926b3ac4fa0c9c351055456e75c92227468d84232fc493a9c",
    );

    fn fixture() -> Value {
        serde_json::from_str(include_str!(
            "../../../tests/fixtures/outside_execution.json"
        ))
        .unwrap()
    }

    fn adventurer(xp: u16, action_count: u16, beast_health: u16) -> Adventurer {
        Adventurer {
            health: 50,
            xp,
            beast_health,
            action_count,
            ..Adventurer::default()
        }
    }

    #[test]
    fn salts_match_starknet_js_poseidon() {
        let f = fixture();
        let mut n = 0;
        for s in f["salts"].as_array().unwrap() {
            let id: u64 = s["adventurer_id"].as_str().unwrap().parse().unwrap();
            let xp = s["xp"].as_u64().unwrap() as u16;
            let want = Felt::from_hex(s["hash"].as_str().unwrap()).unwrap();
            let got = match s["kind"].as_str().unwrap() {
                "explore" => salt_for(
                    id.into(),
                    &adventurer(xp, 3, 0),
                    &Action::Explore { till_beast: false },
                ),
                _ => {
                    let ac = s["action_count_before"].as_u64().unwrap() as u16;
                    salt_for(
                        id.into(),
                        &adventurer(xp, ac, 10),
                        &Action::Attack {
                            to_the_death: false,
                        },
                    )
                }
            };
            assert_eq!(got, Some(want), "{s}");
            n += 1;
        }
        assert_eq!(n, 7);
    }

    #[test]
    fn flee_and_battle_equip_use_the_battle_salt() {
        let a = adventurer(17, 7, 10);
        let want = battle_salt(9001.into(), 17, 7);
        assert_eq!(
            salt_for(9001.into(), &a, &Action::Flee { to_the_death: true }),
            Some(want)
        );
        assert_eq!(
            salt_for(9001.into(), &a, &Action::Equip { items: vec![3] }),
            Some(want)
        );
    }

    #[test]
    fn actions_without_randomness_get_no_vrf_call() {
        let out = adventurer(17, 7, 0);
        for action in [
            Action::Equip { items: vec![3] },
            Action::StartGame { weapon: 12 },
            Action::Drop { items: vec![3] },
            Action::BuyItems {
                potions: 1,
                items: vec![ItemPurchase {
                    item_id: 5,
                    equip: true,
                }],
            },
            Action::Upgrade {
                stats: Stats::default(),
            },
        ] {
            assert_eq!(salt_for(1.into(), &out, &action), None, "{action:?}");
        }
        let game = Call {
            to: GS,
            selector: Felt::ONE,
            calldata: vec![],
        };
        let (calls, vrf) = bundle(
            GS,
            1.into(),
            &out,
            &Action::Drop { items: vec![1] },
            game.clone(),
        );
        assert!(!vrf);
        assert_eq!(calls, vec![game]);
    }

    #[test]
    fn the_vrf_call_comes_first_with_the_game_as_caller() {
        let a = adventurer(5, 2, 0);
        let game = Call {
            to: GS,
            selector: Felt::TWO,
            calldata: vec![Felt::from(42)],
        };
        let (calls, vrf) = bundle(
            GS,
            42.into(),
            &a,
            &Action::Explore { till_beast: true },
            game.clone(),
        );
        assert!(vrf);
        assert_eq!(calls.len(), 2);
        assert_eq!(calls[0].to, CARTRIDGE_VRF_PROVIDER);
        assert_eq!(
            calls[0].selector,
            starknet::macros::selector!("request_random")
        );
        assert_eq!(
            calls[0].calldata,
            vec![GS, Felt::ONE, explore_salt(42.into(), 5)]
        );
        assert_eq!(calls[1], game);
    }
}
