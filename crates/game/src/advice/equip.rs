//! Imagining a different loadout without changing the game: the state with some items equipped
//! (bagged ones keep their xp, others start at greatness 1), boosts recomputed.

use crate::boosts;
use crate::catalogue::{self, Slot};
use crate::model::{GameState, Item};

/// The state with `items` equipped instead (a replaced item moves to the bag), boosts recomputed.
pub fn imagine_equipped(state: &GameState, items: &[u8]) -> GameState {
    let mut s = state.clone();
    let mut stored = boosts::unboosted(&s.adventurer, &s.bag);
    for &id in items {
        if stored.equipment.contains(id) {
            continue;
        }
        let slot = catalogue::item(id).map_or(Slot::None, |i| i.slot);
        let item = match s.bag.items.iter_mut().find(|i| i.id == id) {
            Some(bagged) => std::mem::take(bagged),
            None => Item { id, xp: 0 },
        };
        let old = stored.equipment.get(slot);
        if !old.is_empty()
            && let Some(free) = s.bag.items.iter_mut().find(|i| i.is_empty())
        {
            *free = old;
        }
        stored.equipment.set(slot, item);
    }
    s.adventurer = boosts::boosted(&stored, &s.bag);
    s
}

/// The state after its equipped items gain `item_xp` each (capped), boosts recomputed: a
/// projection of the loadout a few levels on.
pub fn aged(state: &GameState, item_xp: u16) -> GameState {
    let mut s = state.clone();
    let mut stored = boosts::unboosted(&s.adventurer, &s.bag);
    for (slot, item) in stored.equipment.slots() {
        if !item.is_empty() {
            let xp = item
                .xp
                .saturating_add(item_xp)
                .min(crate::rules::MAX_ITEM_XP);
            stored.equipment.set(slot, Item { id: item.id, xp });
        }
    }
    s.adventurer = boosts::boosted(&stored, &s.bag);
    s
}
