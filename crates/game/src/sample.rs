//! A realistic mid-game state for tests, this crate's and (feature `testing`) higher layers'.

use crate::model::{Adventurer, Bag, BeastEvent, Equipment, GameState, Item, SpecialPowers, Stats};

/// A realistic mid-game state: exploring at level 5, a market open, a beast last met.
pub fn sample_state() -> GameState {
    let mut bag = Bag::default();
    bag.items[0] = Item { id: 42, xp: 0 };
    bag.items[1] = Item { id: 8, xp: 4 };
    GameState {
        adventurer: Adventurer {
            health: 120,
            xp: 30,
            gold: 55,
            beast_health: 0,
            stat_upgrades_available: 0,
            stats: Stats {
                strength: 3,
                dexterity: 2,
                vitality: 2,
                intelligence: 1,
                wisdom: 2,
                charisma: 2,
                luck: 4,
            },
            equipment: Equipment {
                weapon: Item { id: 46, xp: 100 },
                chest: Item { id: 51, xp: 9 },
                ..Default::default()
            },
            item_specials_seed: 0,
            action_count: 9,
        },
        bag,
        beast: BeastEvent {
            id: 29,
            seed: u64::MAX - 5,
            health: 40,
            level: 20,
            specials: SpecialPowers {
                special1: 0,
                special2: 18,
                special3: 6,
            },
            is_collectable: true,
        },
        market: vec![42, 9, 9, 101, 4, 20],
    }
}
