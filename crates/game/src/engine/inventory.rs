//! Items: `equip`, `drop` and `buy_items` (market and potions), and the bag operations they share
//! (docs/game-rules.md#actions, #items, #market, #potions).

use super::turn::Turn;
use super::{Revert, ensure};
use crate::catalogue::{self, Slot};
use crate::events::{GameEventDetails, ItemRef, PurchasedItem};
use crate::model::{Bag, Item, ItemPurchase, MAX_ITEM_ID};
use crate::random;
use crate::rules;

/// Puts an item in the first free bag slot ('Bag is full' if none).
pub(super) fn bag_add(bag: &mut Bag, item: Item) -> Result<(), Revert> {
    let free = bag.items.iter_mut().find(|i| i.is_empty());
    let slot = free.ok_or(Revert::BagFull)?;
    *slot = item;
    Ok(())
}

/// Takes an item out of the bag ('Item not in bag' if absent), leaving its slot free.
fn bag_remove(bag: &mut Bag, id: u8) -> Result<Item, Revert> {
    let slot = bag
        .items
        .iter_mut()
        .find(|i| id != 0 && i.id == id)
        .ok_or(Revert::ItemNotInBag)?;
    Ok(std::mem::take(slot))
}

fn slot_of(id: u8) -> Slot {
    catalogue::item(id).map_or(Slot::None, |i| i.slot)
}

impl Turn<'_> {
    /// Equips an item; the one it replaces goes to the bag. Returns whether one was replaced.
    fn equip_item(&mut self, item: Item) -> Result<bool, Revert> {
        let slot = slot_of(item.id);
        let current = self.adv.equipment.get(slot);
        if !current.is_empty() {
            bag_add(&mut self.bag, current)?;
        }
        self.adv.equipment.set(slot, item);
        Ok(!current.is_empty())
    }

    /// `equip(items)`: 1 to 8 items from the bag; in battle the beast strikes first (battle
    /// counter 0).
    pub(super) fn equip(&mut self, items: &[u8]) -> Result<(), Revert> {
        ensure(self.adv.is_alive(), Revert::AdventurerDead)?;
        ensure(!items.is_empty(), Revert::NoItems)?;
        ensure(items.len() <= rules::MAX_EQUIP_ITEMS, Revert::TooManyItems)?;
        for &id in items {
            ensure(self.bag.contains(id), Revert::ItemNotInBag)?;
        }
        let start_level = self.level();
        let (seed, market_seed) = self.action_seeds();
        if self.adv.in_battle() {
            let (beast, _) = self.beast();
            let [_, _, crit_rnd, location_rnd] =
                random::get_battle_randomness(self.adv.xp, 0, seed);
            self.beast_strikes(&beast, crit_rnd, location_rnd);
        }
        for &id in items {
            let item = bag_remove(&mut self.bag, id)?;
            self.equip_item(item)?;
        }
        self.emit(GameEventDetails::Equip {
            items: items.iter().map(|&id| ItemRef::new(id)).collect(),
        });
        let bag = self.bag;
        self.emit(GameEventDetails::Bag(bag));
        self.finish(start_level, market_seed);
        Ok(())
    }

    /// `drop(items)`: equipped or bagged items, out of battle and after level 1. Their boosts go
    /// with them, so health is capped at the new max.
    pub(super) fn drop_items(&mut self, items: &[u8]) -> Result<(), Revert> {
        ensure(self.adv.is_alive(), Revert::AdventurerDead)?;
        ensure(!self.adv.in_battle(), Revert::InBattle)?;
        ensure(!items.is_empty(), Revert::NoItems)?;
        let level = self.level();
        ensure(level > 1, Revert::CantDropStarter)?;
        let mut bag_changed = false;
        for &id in items {
            let slot = slot_of(id);
            if id != 0 && self.adv.equipment.get(slot).id == id {
                self.adv.equipment.set(slot, Item::default());
            } else {
                ensure(self.bag.contains(id), Revert::ItemNotOwned)?;
                bag_remove(&mut self.bag, id)?;
                bag_changed = true;
            }
        }
        let max = self.max_health();
        self.adv.health = self.adv.health.min(max);
        self.emit(GameEventDetails::Drop {
            items: items.iter().map(|&id| ItemRef::new(id)).collect(),
        });
        if bag_changed {
            let bag = self.bag;
            self.emit(GameEventDetails::Bag(bag));
        }
        self.finish(level, 0);
        Ok(())
    }

    /// `buy_items(potions, items)`: items first (each in the market, not owned, affordable after
    /// charisma), then potions (`health + 10n < max_health + 10`).
    pub(super) fn buy(&mut self, potions: u8, items: &[ItemPurchase]) -> Result<(), Revert> {
        let market = self.market(self.market_seed);
        self.buy_in(&market, potions, items)
    }

    /// `buy_items` against a given market list (a copy rebuilt from a state knows the market's
    /// items but not its seed).
    pub(super) fn buy_in(
        &mut self,
        market: &[u8],
        potions: u8,
        items: &[ItemPurchase],
    ) -> Result<(), Revert> {
        ensure(self.adv.is_alive(), Revert::AdventurerDead)?;
        ensure(!self.adv.in_battle(), Revert::InBattle)?;
        ensure(self.adv.stat_upgrades_available == 0, Revert::MarketClosed)?;
        let level = self.level();
        let mut bag_changed = false;
        for p in items {
            let id = p.item_id;
            ensure(market.contains(&id), Revert::ItemNotInMarket)?;
            ensure(
                !self.adv.equipment.contains(id) && !self.bag.contains(id),
                Revert::ItemOwned,
            )?;
            ensure(id != 0 && id <= MAX_ITEM_ID, Revert::InvalidItemId)?;
            let tier = catalogue::item(id).map_or(catalogue::Tier::None, |i| i.tier);
            let price = rules::item_price(tier, self.boosted().stats.charisma);
            ensure(self.adv.gold >= price, Revert::NotEnoughGold)?;
            self.adv.gold -= price;
            let item = Item { id, xp: 0 };
            if p.equip {
                bag_changed |= self.equip_item(item)?;
            } else {
                bag_add(&mut self.bag, item)?;
                bag_changed = true;
            }
        }
        if potions != 0 {
            let price = rules::potion_price(level, self.boosted().stats.charisma);
            let cost = u32::from(price) * u32::from(potions);
            ensure(u32::from(self.adv.gold) >= cost, Revert::NotEnoughGold)?;
            let healing = u32::from(rules::POTION_HEALTH) * u32::from(potions);
            let limit = u32::from(self.max_health()) + u32::from(rules::POTION_HEALTH);
            ensure(
                u32::from(self.adv.health) + healing < limit,
                Revert::HealthFull,
            )?;
            self.adv.gold -= cost as u16;
            self.heal(healing as u16);
        }
        if bag_changed {
            let bag = self.bag;
            self.emit(GameEventDetails::Bag(bag));
        }
        self.emit(GameEventDetails::BuyItems {
            potions,
            items_purchased: items
                .iter()
                .map(|p| PurchasedItem {
                    item_id: p.item_id,
                    name: catalogue::item_name(p.item_id),
                    equip: p.equip,
                })
                .collect(),
        });
        self.finish(level, 0);
        Ok(())
    }
}
