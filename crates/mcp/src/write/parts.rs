//! A batch checked part by part before anything is built or signed: its parts run in order on a
//! copy of the state the server knows (the engine needs no randomness for the checks a part must
//! pass), so a refusal names the part the game would refuse, and nothing is sent.

use game::AdventurerId;
use game::engine::{Action, EngineSettings};
use game::model::GameState;
use game::policy::rollout::Replica;
use starknet::core::types::Felt;

use super::super::errors::from_chain;
use crate::error::ToolError;
use chain::ChainError;
use chain::revert::Revert;

/// Refuses a batch one of whose parts the game would refuse from `state`, naming it.
pub(super) fn check_parts(
    id: AdventurerId,
    action: &Action,
    state: &GameState,
    settings: &EngineSettings,
) -> Result<(), ToolError> {
    let Action::Batch(parts) = action else {
        return Ok(());
    };
    let mut copy = Replica::of_state(state, id.low_u64(), Felt::ZERO);
    for (i, part) in parts.iter().enumerate() {
        if let Err(refusal) = copy.apply(part, settings) {
            let e = from_chain(ChainError::Revert {
                revert: Revert::from_engine(refusal),
                tx_hash: None,
            });
            let message = format!(
                "part {} of {} ({}) would be refused, so nothing was sent: {}",
                i + 1,
                parts.len(),
                part.entrypoint(),
                e.message
            );
            return Err(ToolError { message, ..e }
                .with_detail("part", i + 1)
                .with_detail("entrypoint", part.entrypoint()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::model::{ItemPurchase, Stats};

    #[test]
    fn the_refused_part_is_named() {
        let mut s = GameState::default();
        s.adventurer.health = 50;
        s.adventurer.xp = 20;
        s.adventurer.gold = 5;
        s.adventurer.equipment.weapon.id = 12;
        s.adventurer.stat_upgrades_available = 1;
        s.market = vec![1, 2, 3];
        let upgrade = Action::Upgrade {
            stats: Stats {
                vitality: 1,
                ..Stats::default()
            },
        };
        let buy = Action::BuyItems {
            potions: 0,
            items: vec![ItemPurchase {
                item_id: 99,
                equip: true,
            }],
        };
        let batch = Action::Batch(vec![
            upgrade.clone(),
            buy,
            Action::Explore { till_beast: false },
        ]);
        let settings = EngineSettings::default();
        let e = check_parts(7.into(), &batch, &s, &settings).unwrap_err();
        assert_eq!(e.details["part"], 2);
        assert_eq!(e.details["entrypoint"], "buy_items");
        assert_eq!(e.details["reason_code"], "ITEM_NOT_IN_MARKET");
        assert!(
            e.message
                .starts_with("part 2 of 3 (buy_items) would be refused, so nothing was sent"),
            "{}",
            e.message
        );
        let fine = Action::Batch(vec![upgrade, Action::Explore { till_beast: false }]);
        assert!(check_parts(7.into(), &fine, &s, &settings).is_ok());
    }
}
