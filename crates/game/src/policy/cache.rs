//! One game's advice kept between decisions. The market advice is what a market is worth as it
//! was first seen (as an agent asking for advice once per market sees it): it is kept for as long
//! as the market lasts (same level, equipped items, weapon xp and charisma), and valued item by
//! item, only for the items a decision could buy. A purchase only ever takes items its budget
//! covers, in the advice's order, so the items it cannot afford never change it; each item's
//! value depends on that first state alone, so valuing it later gives the same figure.

use std::collections::BTreeMap;

use super::shopping::ItemValue;
use super::stats::StatOption;
use super::tables::{self, MARKET_ITEMS};
use super::weapon::WeaponsLater;
use crate::advice::market::{
    at_full_health, baseline, item_value, market_ids, sort_by_value_per_gold,
};
use crate::advice::{self, Outlook, OutlookMemo};
use crate::catalogue::{self, Slot};
use crate::engine::EngineSettings;
use crate::model::{Adventurer, GameState};
use crate::rules;
use crate::view::AdventurerView;

/// What makes one market's advice: level, equipped ids, the weapon's xp and charisma.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarketKey {
    level: u8,
    equipped: Vec<u8>,
    weapon_xp: u16,
    charisma: u8,
}

impl MarketKey {
    /// The key of the market `view` shows.
    pub fn of(view: &AdventurerView) -> Self {
        Self {
            level: view.level,
            equipped: view.equipment.iter().map(|e| e.id).collect(),
            weapon_xp: view
                .equipment
                .iter()
                .find(|e| e.slot == Slot::Weapon)
                .map_or(0, |w| w.xp),
            charisma: view.stats.charisma,
        }
    }
}

/// One market as first seen: the state (at full health, as the advice values it), its weapons
/// a few levels on, and the items valued so far (`None`: not in the catalogue).
#[derive(Debug, Clone)]
struct Market {
    key: MarketKey,
    seen: GameState,
    weapons: WeaponsLater,
    base: Option<(Outlook, Outlook)>,
    values: BTreeMap<u8, Option<advice::ItemValue>>,
}

/// One game's advice: the current market's and every outlook computed so far.
#[derive(Debug, Clone, Default)]
pub struct AdviceCache {
    market: Option<Market>,
    valued: u32,
    memo: OutlookMemo,
}

impl AdviceCache {
    /// Notes the market `view` shows: a market not seen before is remembered as it is now.
    pub fn see(&mut self, state: &GameState, view: &AdventurerView) {
        let key = MarketKey::of(view);
        if self.market.as_ref().is_none_or(|m| m.key != key) {
            self.market = Some(Market {
                key,
                seen: at_full_health(state),
                weapons: tables::weapons_later(state),
                base: None,
                values: BTreeMap::new(),
            });
        }
    }

    /// The weapons of the market last seen, a few levels on (none before any market was seen).
    pub fn weapons(&self) -> WeaponsLater {
        self.market
            .as_ref()
            .map(|m| m.weapons.clone())
            .unwrap_or_default()
    }

    /// The advice's item values (rounded, best value per gold first) of the market last seen,
    /// restricted to the items priced within `budget`: the market advice's list, less the items
    /// the budget cannot buy.
    pub fn values_within(&mut self, budget: u16, settings: &EngineSettings) -> Vec<ItemValue> {
        let Some(m) = self.market.as_mut() else {
            return Vec::new();
        };
        let ids = market_ids(&m.seen);
        let charisma = m.seen.adventurer.stats.charisma;
        let price = |id: u8| catalogue::item(id).map(|i| rules::item_price(i.tier, charisma));
        // The advice lists at most MARKET_ITEMS items: beyond that, which it keeps depends on
        // every value.
        let every = ids.len() > MARKET_ITEMS;
        for &id in &ids {
            if m.values.contains_key(&id) || !(every || price(id).is_some_and(|p| p <= budget)) {
                continue;
            }
            let base = match m.base {
                Some(b) => b,
                None => *m.base.insert(baseline(&m.seen, settings, &mut self.memo)),
            };
            self.valued += 1;
            let v = item_value(&m.seen, id, &base, settings, &mut self.memo);
            m.values.insert(id, v);
        }
        let mut known: Vec<advice::ItemValue> = ids
            .iter()
            .filter_map(|id| m.values.get(id).cloned().flatten())
            .collect();
        sort_by_value_per_gold(&mut known);
        known
            .iter()
            .filter(|v| v.value > 0.0)
            .take(MARKET_ITEMS)
            .filter(|v| v.price <= budget)
            .map(tables::item_value)
            .collect()
    }

    /// The stat advice for `adv`.
    pub fn stat_options(&mut self, adv: &Adventurer, settings: &EngineSettings) -> Vec<StatOption> {
        tables::stat_options(adv, settings, &mut self.memo)
    }

    /// How many market items were valued.
    pub fn valued(&self) -> u32 {
        self.valued
    }
}
