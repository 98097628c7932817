//! The Dojo world's calls: each action on the game systems, with the id as a u64.

use game::AdventurerId;
use starknet::core::types::{Call, Felt};

use super::GENERATION;
use crate::bindings::{ItemPurchase, game_systems};
use crate::{ChainError, convert};
use game::engine::Action;

/// A v1 game-systems call; `surrender` has no entrypoint there, and a batch is several calls.
pub(super) fn action_call(gs: Felt, id: AdventurerId, action: &Action) -> Result<Call, ChainError> {
    if let Action::Batch(parts) = action {
        return Err(ChainError::Invalid(crate::Unservable::Batch(
            game::engine::BatchError::Size(parts.len()),
        )));
    }
    if matches!(action, Action::Surrender) {
        return Err(ChainError::Unsupported {
            action: action.entrypoint(),
            generation: GENERATION,
        });
    }
    let id = convert::v1_id(id)?;
    Ok(match action {
        Action::StartGame { weapon } => game_systems::start_game(gs, &id, weapon),
        Action::Explore { till_beast } => game_systems::explore(gs, &id, till_beast),
        Action::Attack { to_the_death } => game_systems::attack(gs, &id, to_the_death),
        Action::Flee { to_the_death } => game_systems::flee(gs, &id, to_the_death),
        Action::Equip { items } => game_systems::equip(gs, &id, items),
        Action::Drop { items } => game_systems::drop(gs, &id, items),
        Action::BuyItems { potions, items } => {
            let items: Vec<_> = items
                .iter()
                .map(|p| ItemPurchase {
                    item_id: p.item_id,
                    equip: p.equip,
                })
                .collect();
            game_systems::buy_items(gs, &id, potions, &items)
        }
        Action::Upgrade { stats } => {
            game_systems::select_stat_upgrades(gs, &id, &convert::stats_to_abi(stats))
        }
        Action::Surrender | Action::Batch(_) => unreachable!("refused above"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_v1_world_refuses_surrender() {
        let e = action_call(Felt::ONE, 5.into(), &Action::Surrender).unwrap_err();
        assert_eq!(
            e.to_string(),
            "surrender is not an entrypoint of a v1 Dojo world"
        );
    }
}
