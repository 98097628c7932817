//! The game actions the wallet signs and the contract calls they become.

use starknet::core::types::Call;

use super::ChainClient;
use crate::chain::bindings::{ItemPurchase, game_systems};
use crate::chain::convert;
use crate::game::model::Stats;

/// A game action the wallet can sign, as the contract receives it.
#[derive(Debug, Clone, PartialEq)]
pub enum GameAction {
    /// `start_game(id, weapon)`.
    StartGame {
        /// Starting weapon item id.
        weapon: u8,
    },
    /// `explore(id, till_beast)`.
    Explore {
        /// Keep exploring until a beast appears.
        till_beast: bool,
    },
    /// `attack(id, to_the_death)`.
    Attack {
        /// Keep attacking until one side dies.
        to_the_death: bool,
    },
    /// `flee(id, to_the_death)`.
    Flee {
        /// Keep trying until fled or dead.
        to_the_death: bool,
    },
    /// `equip(id, items)`.
    Equip {
        /// Item ids from the bag.
        items: Vec<u8>,
    },
    /// `drop(id, items)`.
    Drop {
        /// Item ids equipped or in the bag.
        items: Vec<u8>,
    },
    /// `buy_items(id, potions, items)`.
    BuyItems {
        /// Potions to buy.
        potions: u8,
        /// (item id, equip now) pairs.
        items: Vec<(u8, bool)>,
    },
    /// `select_stat_upgrades(id, stats)`.
    Upgrade {
        /// Points per stat (luck must be 0).
        stats: Stats,
    },
}

impl ChainClient {
    /// The contract call for an action (built with the generated bindings).
    pub fn action_call(&self, id: u64, action: &GameAction) -> Call {
        let gs = self.addresses.game_systems;
        match action {
            GameAction::StartGame { weapon } => game_systems::start_game(gs, &id, weapon),
            GameAction::Explore { till_beast } => game_systems::explore(gs, &id, till_beast),
            GameAction::Attack { to_the_death } => game_systems::attack(gs, &id, to_the_death),
            GameAction::Flee { to_the_death } => game_systems::flee(gs, &id, to_the_death),
            GameAction::Equip { items } => game_systems::equip(gs, &id, items),
            GameAction::Drop { items } => game_systems::drop(gs, &id, items),
            GameAction::BuyItems { potions, items } => {
                let items: Vec<_> = items
                    .iter()
                    .map(|&(item_id, equip)| ItemPurchase { item_id, equip })
                    .collect();
                game_systems::buy_items(gs, &id, potions, &items)
            }
            GameAction::Upgrade { stats } => {
                game_systems::select_stat_upgrades(gs, &id, &convert::stats_to_abi(stats))
            }
        }
    }
}

/// The entrypoint name of an action, for the ledger and logs.
pub fn action_name(action: &GameAction) -> &'static str {
    match action {
        GameAction::StartGame { .. } => "start_game",
        GameAction::Explore { .. } => "explore",
        GameAction::Attack { .. } => "attack",
        GameAction::Flee { .. } => "flee",
        GameAction::Equip { .. } => "equip",
        GameAction::Drop { .. } => "drop",
        GameAction::BuyItems { .. } => "buy_items",
        GameAction::Upgrade { .. } => "select_stat_upgrades",
    }
}
