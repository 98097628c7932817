//! Conversions between the generated binding types (ABI layout) and the game layer's models.

use super::ChainError;
use super::bindings as abi;
use game::model;

fn item(i: abi::Item) -> model::Item {
    model::Item { id: i.id, xp: i.xp }
}

/// Copies the seven stats between the ABI's `Stats` and the model's (the same fields).
macro_rules! copy_stats {
    ($s:expr => $($to:ident)::+) => {
        $($to)::+ {
            strength: $s.strength,
            dexterity: $s.dexterity,
            vitality: $s.vitality,
            intelligence: $s.intelligence,
            wisdom: $s.wisdom,
            charisma: $s.charisma,
            luck: $s.luck,
        }
    };
}

fn stats(s: abi::Stats) -> model::Stats {
    copy_stats!(s => model::Stats)
}

/// The ABI `Stats` for a stat upgrade.
pub(crate) fn stats_to_abi(s: &model::Stats) -> abi::Stats {
    copy_stats!(s => abi::Stats)
}

/// An adventurer from its ABI form.
pub(crate) fn adventurer(a: abi::Adventurer) -> Result<model::Adventurer, ChainError> {
    let e = a.equipment;
    Ok(model::Adventurer {
        health: a.health,
        xp: a.xp,
        gold: a.gold,
        beast_health: a.beast_health,
        stat_upgrades_available: a.stat_upgrades_available,
        stats: stats(a.stats),
        equipment: model::Equipment {
            weapon: item(e.weapon),
            chest: item(e.chest),
            head: item(e.head),
            waist: item(e.waist),
            foot: item(e.foot),
            hand: item(e.hand),
            neck: item(e.neck),
            ring: item(e.ring),
        },
        item_specials_seed: a.item_specials_seed,
        action_count: a.action_count,
    })
}

fn bag(b: abi::Bag) -> model::Bag {
    model::Bag {
        items: [
            item(b.item_1),
            item(b.item_2),
            item(b.item_3),
            item(b.item_4),
            item(b.item_5),
            item(b.item_6),
            item(b.item_7),
            item(b.item_8),
            item(b.item_9),
            item(b.item_10),
            item(b.item_11),
            item(b.item_12),
            item(b.item_13),
            item(b.item_14),
            item(b.item_15),
        ],
        mutated: b.mutated,
    }
}

/// A full game state from its ABI form.
pub(crate) fn game_state(s: abi::GameState) -> Result<model::GameState, ChainError> {
    let b = s.beast;
    Ok(model::GameState {
        adventurer: adventurer(s.adventurer)?,
        bag: bag(s.bag),
        beast: model::BeastEvent {
            id: b.id,
            seed: b.seed,
            health: b.health,
            level: b.level,
            specials: model::SpecialPowers {
                special1: b.specials.special1,
                special2: b.specials.special2,
                special3: b.specials.special3,
            },
            is_collectable: b.is_collectable,
        },
        market: s.market,
    })
}

/// The `u64` the Dojo world's entrypoints take for an adventurer id; a larger id (a packed
/// Denshokan token of the second generation) names no adventurer of this world.
pub fn v1_id(id: game::AdventurerId) -> Result<u64, ChainError> {
    id.to_u64().ok_or(ChainError::NoSuchAdventurer(id))
}
