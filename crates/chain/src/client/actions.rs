//! The contract call each game action becomes.

use game::AdventurerId;
use starknet::core::types::Call;

use super::ChainClient;
use crate::bindings::{ItemPurchase, game_systems};
use crate::{ChainError, convert};
use game::engine::Action;

impl ChainClient {
    /// The contract call for an action (built with the generated bindings).
    pub fn action_call(&self, id: AdventurerId, action: &Action) -> Result<Call, ChainError> {
        let gs = self.addresses().game_systems;
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
        })
    }
}
