//! GameCore's calls: each action with the whole felt252 token id, and GameToken's mint.

use game::AdventurerId;
use starknet::core::types::{Call, Felt};

use super::V2Contracts;
use crate::bindings::v2::{self as b2, game_core, game_token};
use game::engine::Action;

/// A GameCore call: the adventurer id is the whole felt252 token id (a batch is several calls,
/// refused before this).
pub(super) fn action_call(core: Felt, id: AdventurerId, action: &Action) -> Call {
    let id = id.felt();
    match action {
        Action::StartGame { weapon } => game_core::start_game(core, &id, weapon),
        Action::Explore { till_beast } => game_core::explore(core, &id, till_beast),
        Action::Attack { to_the_death } => game_core::attack(core, &id, to_the_death),
        Action::Flee { to_the_death } => game_core::flee(core, &id, to_the_death),
        Action::Equip { items } => game_core::equip(core, &id, items),
        Action::Drop { items } => game_core::drop_items(core, &id, items),
        Action::BuyItems { potions, items } => {
            let items: Vec<_> = items
                .iter()
                .map(|p| b2::ItemPurchase {
                    item_id: p.item_id,
                    equip: p.equip,
                })
                .collect();
            game_core::buy_items(core, &id, potions, &items)
        }
        Action::Upgrade { stats: s } => {
            let stats = b2::Stats {
                strength: s.strength,
                dexterity: s.dexterity,
                vitality: s.vitality,
                intelligence: s.intelligence,
                wisdom: s.wisdom,
                charisma: s.charisma,
                luck: s.luck,
            };
            game_core::select_stat_upgrades(core, &id, &stats)
        }
        Action::Surrender => game_core::surrender(core, &id),
        Action::Batch(_) => unreachable!("a batch is refused by V2Contracts::action_call"),
    }
}

/// GameToken's `mint_game` to `to` (IMinigame's 14 arguments): the player's name, the settings
/// id, and nothing else (no delays, objective, context, renderer; not soulbound, no paymaster).
pub(super) fn mint_call(c: &V2Contracts, settings_id: u32, name: Option<Felt>, to: Felt) -> Call {
    game_token::mint_game(
        c.game_token,
        &name,
        &Some(settings_id),
        &None,
        &None,
        &None,
        &None,
        &None,
        &None,
        &None,
        &to,
        &false,
        &false,
        &0,
        &0,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gamecore_calls_carry_the_whole_felt_id() {
        let id = AdventurerId::from(Felt::from_hex_unchecked(
            "0x4000000000000000000000000000000000000000000000000000000000001",
        ));
        let c = action_call(Felt::from(0x6a_u8), id, &Action::Drop { items: vec![3, 4] });
        assert_eq!(c.selector, starknet::macros::selector!("drop_items"));
        assert_eq!(
            c.calldata,
            vec![id.felt(), Felt::TWO, Felt::THREE, Felt::from(4u8)]
        );
        let s = action_call(Felt::from(0x6a_u8), id, &Action::Surrender);
        assert_eq!(
            (s.selector, s.calldata),
            (starknet::macros::selector!("surrender"), vec![id.felt()])
        );
    }

    #[test]
    fn the_v2_mint_names_the_player_and_the_settings_only() {
        let c = V2Contracts::numbered(None);
        let call = mint_call(&c, 0, Some(Felt::from(0xabc_u16)), Felt::from(0xacc_u16));
        assert_eq!(call.to, Felt::from(0x70_u8));
        // Some(name), Some(0), seven Nones, to, false, false, 0, 0 (Option::Some is variant 0).
        let mut want = vec![Felt::ZERO, Felt::from(0xabc_u16), Felt::ZERO, Felt::ZERO];
        want.extend([Felt::ONE; 7]);
        want.extend([
            Felt::from(0xacc_u16),
            Felt::ZERO,
            Felt::ZERO,
            Felt::ZERO,
            Felt::ZERO,
        ]);
        assert_eq!(call.calldata, want);
    }
}
