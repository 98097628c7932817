//! Whether a market item is an upgrade or a downgrade for its slot, so an agent does not buy a
//! weaker weapon because it is cheap, and the purchase to suggest: one the gold covers.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::catalogue::{self, Slot};
use super::model::GameState;
use super::phase::AffordableItem;
use super::rules;
use super::view::{ItemEffect, item_effect};

/// How a bought and equipped item (greatness 1) compares with what the slot holds now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Stronger than the item in the slot (weapons and armor: power; jewelry: luck).
    Upgrade,
    /// Weaker than the item in the slot.
    Downgrade,
    /// As strong as the item in the slot.
    Same,
    /// The slot is empty: anything fills it.
    EmptySlot,
}

impl Verdict {
    /// Judges an item's effect: power for weapons and armor, the luck change for jewelry.
    pub fn of(slot: Slot, effect: &ItemEffect) -> Self {
        if effect.replaces.is_none() {
            return Self::EmptySlot;
        }
        let gain = if matches!(slot, Slot::Neck | Slot::Ring) {
            i32::from(effect.luck_change)
        } else {
            i32::from(effect.power) - i32::from(effect.current_power)
        };
        match gain {
            g if g > 0 => Self::Upgrade,
            g if g < 0 => Self::Downgrade,
            _ => Self::Same,
        }
    }
}

/// The verdict on buying `id` for this adventurer.
pub fn verdict(state: &GameState, id: u8) -> Verdict {
    let slot = catalogue::item(id).map_or(Slot::None, |i| i.slot);
    Verdict::of(slot, &item_effect(state, id))
}

/// The hint's priority for filling an empty slot (above any power or luck gain).
const EMPTY_SLOT_GAIN: i32 = 1000;

/// A purchase the gold covers, items and potions together: upgrades and empty slots first (the
/// biggest gain per slot, one item per slot, no more replaced items than free bag slots), then
/// potions with what is left; below half health the potions come first. Each item is equipped.
pub fn purchase_plan(state: &GameState, items: &[AffordableItem]) -> PurchasePlan {
    let adv = &state.adventurer;
    let price = rules::potion_price(adv.level(), adv.stats.charisma);
    let potions_for = |gold: u16| rules::max_potions(adv.health, adv.max_health(), gold, price);
    let mut gold = adv.gold;
    let mut potions = 0;
    if adv.health < adv.max_health() / 2 {
        potions = potions_for(gold);
        gold -= u16::from(potions) * price;
    }
    // Equipping over an item moves it to the bag, which reverts when the bag is full.
    let mut free_bag = state.bag.items.iter().filter(|i| i.is_empty()).count();
    let mut candidates: Vec<(i32, &AffordableItem, Slot)> = items
        .iter()
        .filter_map(|i| {
            let slot = catalogue::item(i.id)?.slot;
            let effect = item_effect(state, i.id);
            let gain = match Verdict::of(slot, &effect) {
                Verdict::EmptySlot => EMPTY_SLOT_GAIN,
                Verdict::Upgrade if matches!(slot, Slot::Neck | Slot::Ring) => {
                    i32::from(effect.luck_change)
                }
                Verdict::Upgrade => i32::from(effect.power) - i32::from(effect.current_power),
                _ => return None,
            };
            Some((gain, i, slot))
        })
        .collect();
    candidates.sort_by_key(|(gain, i, _)| (-gain, i.price, i.id));
    let mut slots = Vec::new();
    let mut picks = Vec::new();
    for (gain, item, slot) in candidates {
        let replaces = gain != EMPTY_SLOT_GAIN;
        if item.price <= gold && !slots.contains(&slot) && (!replaces || free_bag > 0) {
            free_bag -= usize::from(replaces);
            gold -= item.price;
            slots.push(slot);
            picks.push(item.id);
        }
    }
    if potions == 0 {
        potions = potions_for(gold);
    }
    PurchasePlan {
        items: picks,
        potions,
    }
}

/// A purchase: the items to buy and equip, by id, and the potions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PurchasePlan {
    /// Item ids, each bought and equipped.
    pub items: Vec<u8>,
    /// Potions.
    pub potions: u8,
}

impl PurchasePlan {
    /// What this purchase costs the adventurer of `state`, in gold.
    pub fn cost(&self, state: &GameState) -> u32 {
        let adv = &state.adventurer;
        let items: u32 = self
            .items
            .iter()
            .filter_map(|&id| catalogue::item(id))
            .map(|i| u32::from(rules::item_price(i.tier, adv.stats.charisma)))
            .sum();
        items
            + u32::from(self.potions)
                * u32::from(rules::potion_price(adv.level(), adv.stats.charisma))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Item;
    use crate::model::tests::sample_state;
    use crate::phase;
    use crate::testing::Rng;

    #[test]
    fn weapons_and_armor_are_judged_by_power() {
        let s = sample_state(); // Short Sword G10 (power 10), Leather Armor equipped
        assert_eq!(
            verdict(&s, 9),
            Verdict::Downgrade,
            "Ghost Wand T1 G1: 5 < 10"
        );
        let mut weak = s.clone();
        weak.adventurer.equipment.weapon = Item { id: 46, xp: 1 }; // T5 G1: 1
        assert_eq!(verdict(&weak, 9), Verdict::Upgrade);
        weak.adventurer.equipment.weapon = Item { id: 9, xp: 1 };
        assert_eq!(verdict(&weak, 9), Verdict::Same);
    }

    #[test]
    fn verdicts_serialize_in_snake_case() {
        assert_eq!(serde_json::json!(Verdict::EmptySlot), "empty_slot");
        assert_eq!(serde_json::json!(Verdict::Downgrade), "downgrade");
    }

    #[test]
    fn empty_slots_and_jewelry() {
        let s = sample_state();
        // Silver Ring: the ring slot is empty in the sample.
        assert_eq!(verdict(&s, 4), Verdict::EmptySlot);
        let mut ringed = s.clone();
        ringed.adventurer.equipment.ring = Item { id: 4, xp: 400 }; // Silver Ring G20
        // A G1 Bronze Ring instead of a G20 Silver Ring (which counts twice) loses luck.
        assert_eq!(verdict(&ringed, 5), Verdict::Downgrade, "Bronze Ring G1");
        ringed.adventurer.equipment.ring = Item { id: 5, xp: 1 }; // Bronze Ring G1
        assert_eq!(verdict(&ringed, 4), Verdict::Upgrade, "silver counts twice");
    }

    #[test]
    fn the_hint_never_costs_more_than_the_gold() {
        let mut rng = Rng(9);
        for case in 0..2000 {
            let mut s = sample_state();
            s.adventurer.gold = rng.below(300) as u16;
            s.adventurer.stats.charisma = rng.below(8) as u8;
            s.adventurer.health = 1 + rng.below(u64::from(s.adventurer.max_health())) as u16;
            s.market = (0..rng.below(26))
                .map(|_| 1 + rng.below(101) as u8)
                .collect();
            for (i, slot) in s.bag.items.iter_mut().enumerate().skip(2) {
                *slot = if case % 7 == 0 || rng.below(3) == 0 {
                    Item {
                        id: 60 + i as u8,
                        xp: 1,
                    }
                } else {
                    Item::default()
                };
            }
            let items = phase::affordable_items(&s);
            let plan = purchase_plan(&s, &items);
            let cost = plan.cost(&s);
            assert!(
                cost <= u32::from(s.adventurer.gold),
                "case {case}: plan {plan:?} costs {cost} > {} gold",
                s.adventurer.gold
            );
            let mut slots = Vec::new();
            let mut replaced = 0;
            for &id in &plan.items {
                assert!(s.market.contains(&id) && !s.owns(id), "case {case}: {id}");
                let v = verdict(&s, id);
                assert!(
                    matches!(v, Verdict::Upgrade | Verdict::EmptySlot),
                    "case {case}: {id}"
                );
                replaced += usize::from(v == Verdict::Upgrade);
                let slot = catalogue::item(id).unwrap().slot;
                assert!(
                    !slots.contains(&slot),
                    "case {case}: two items for {slot:?}"
                );
                slots.push(slot);
            }
            let free = s.bag.items.iter().filter(|i| i.is_empty()).count();
            assert!(
                replaced <= free,
                "case {case}: {replaced} replaced, {free} free"
            );
        }
    }
}
