//! Where the adventurer is in the game loop and what the market allows now (preconditions in
//! docs/game-rules.md#actions); the tool surface turns them into the tools it would accept.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::catalogue;
use super::model::{Adventurer, GameState};
use super::rules;

/// The adventurer's phase in the game loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Token minted but `start_game` not called (health 0, xp 0, no weapon).
    NotStarted,
    /// Fighting a beast (`beast_health > 0`).
    InBattle,
    /// Stat points must be spent before exploring or shopping.
    StatUpgrade,
    /// Free to explore, shop, equip and drop.
    Exploring,
    /// Health reached 0: game over.
    Dead,
}

/// Classifies an adventurer: not started (health 0, xp 0), dead (health 0), in battle, stat upgrade,
/// else exploring.
pub fn phase(adv: &Adventurer) -> Phase {
    if adv.health == 0 {
        // A started game holds its weapon: one ended at xp 0 (a surrender) is dead.
        if adv.xp == 0 && adv.equipment.weapon.id == 0 {
            Phase::NotStarted
        } else {
            Phase::Dead
        }
    } else if adv.beast_health > 0 {
        Phase::InBattle
    } else if adv.stat_upgrades_available > 0 {
        Phase::StatUpgrade
    } else {
        Phase::Exploring
    }
}

/// True when the market accepts purchases: alive, not in battle, no stat points pending.
pub fn market_open(adv: &Adventurer) -> bool {
    phase(adv) == Phase::Exploring
}

/// A market item the adventurer can buy now (not owned, affordable), with its price.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AffordableItem {
    /// Item id.
    pub id: u8,
    /// Item name.
    pub name: String,
    /// Price after charisma.
    pub price: u16,
}

/// Market items (deduplicated, by id) that are not already owned and that the gold pays for.
pub fn affordable_items(state: &GameState) -> Vec<AffordableItem> {
    let adv = &state.adventurer;
    let mut ids = state.market.clone();
    ids.sort_unstable();
    ids.dedup();
    ids.into_iter()
        .filter(|&id| !state.owns(id))
        .filter_map(|id| {
            let info = catalogue::item(id)?;
            let price = rules::item_price(info.tier, adv.stats.charisma);
            (price <= adv.gold).then(|| AffordableItem {
                id,
                name: info.name.to_string(),
                price,
            })
        })
        .collect()
}

/// How many potions can be bought now (health limit and gold).
pub fn affordable_potions(adv: &Adventurer) -> u8 {
    let price = rules::potion_price(adv.level(), adv.stats.charisma);
    rules::max_potions(adv.health, adv.max_health(), adv.gold, price)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Adventurer;

    #[test]
    fn phases() {
        let mut a = Adventurer::default();
        assert_eq!(phase(&a), Phase::NotStarted);
        a.equipment.weapon.id = 12;
        assert_eq!(phase(&a), Phase::Dead, "surrendered before any xp");
        a.xp = 5;
        assert_eq!(phase(&a), Phase::Dead);
        a.health = 10;
        a.beast_health = 3;
        a.stat_upgrades_available = 1;
        assert_eq!(phase(&a), Phase::InBattle, "battle wins over stat points");
        a.beast_health = 0;
        assert_eq!(phase(&a), Phase::StatUpgrade);
        a.stat_upgrades_available = 0;
        assert_eq!(phase(&a), Phase::Exploring);
        assert_eq!(
            serde_json::to_value(Phase::NotStarted).unwrap(),
            "not_started"
        );
        assert_eq!(
            serde_json::to_value(Phase::StatUpgrade).unwrap(),
            "stat_upgrade"
        );
        assert_eq!(serde_json::to_value(Phase::InBattle).unwrap(), "in_battle");
    }
}
