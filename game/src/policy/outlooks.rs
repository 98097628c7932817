//! The advisors' market and stat figures ([`crate::advice`]) with their outlooks remembered
//! across calls. An outlook is what the coming levels hold for one loadout; the market advice
//! needs about eighty of them and changes with every point of item xp, but an outlook depends on
//! an item's xp only through its greatness, so most of them are the same from one market to the
//! next. The formulas are `advice`'s, step for step, so every figure is bit for bit the one
//! `advice::market_values` and `stat_effects` give (a test holds them together).

use std::collections::HashMap;

use super::outlook::DamageTables;
use crate::advice::equip::{aged, imagine_equipped};
use crate::advice::market::{
    HORIZON_EXPLORES, ItemValue, LEVELS_AHEAD, PROJECTION_LEVELS, item_xp_gain,
};
use crate::advice::outlook::Outlook;
use crate::advice::stats::{Stat, StatEffect, with_point};
use crate::catalogue;
use crate::engine::EngineSettings;
use crate::model::{Adventurer, GameState};
use crate::rules;

/// Everything an outlook reads of an adventurer: each equipped item's id and greatness, the
/// specials seed, the stats and health (its xp is replaced by the level looked at).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Loadout {
    items: [(u8, u8); 8],
    specials_seed: u16,
    stats: [u8; 7],
    health: u16,
    level: u8,
}

impl Loadout {
    fn of(adv: &Adventurer, level: u8) -> Self {
        let s = adv.stats;
        Self {
            items: adv
                .equipment
                .slots()
                .map(|(_, item)| (item.id, item.greatness())),
            specials_seed: adv.item_specials_seed,
            stats: [
                s.strength,
                s.dexterity,
                s.vitality,
                s.intelligence,
                s.wisdom,
                s.charisma,
                s.luck,
            ],
            health: adv.health,
            level,
        }
    }
}

/// Outlooks already computed in one world, and the hits behind them. The rules are not part of
/// what is remembered: every call must pass the same settings.
#[derive(Debug, Clone, Default)]
pub struct OutlookMemo {
    outlooks: HashMap<Loadout, Outlook>,
    damage: DamageTables,
    computed: u64,
}

impl OutlookMemo {
    /// Outlooks computed so far (the rest were remembered).
    pub fn computed(&self) -> u64 {
        self.computed
    }

    /// `advice::outlook_cached`: the outlook for `adv` as if it were at `level`.
    pub fn at(&mut self, adv: &Adventurer, level: u8, settings: &EngineSettings) -> Outlook {
        let key = Loadout::of(adv, level);
        if let Some(o) = self.outlooks.get(&key) {
            return *o;
        }
        self.computed += 1;
        let o = self.damage.outlook(adv, level, settings);
        self.outlooks.insert(key, o);
        o
    }

    /// `advice::outlook_over`: the outlook averaged over `levels_ahead` levels from the current.
    pub fn over(
        &mut self,
        adv: &Adventurer,
        levels_ahead: u8,
        settings: &EngineSettings,
    ) -> Outlook {
        let start = adv.level().max(2);
        let n = levels_ahead.max(1);
        let mut sum = Outlook::default();
        for k in 0..n {
            let o = self.at(adv, start.saturating_add(k), settings);
            sum.damage_dealt += o.damage_dealt;
            sum.beast_hit += o.beast_hit;
            sum.hits_taken_per_fight += o.hits_taken_per_fight;
            sum.ambush_chance += o.ambush_chance;
            sum.ambush_damage += o.ambush_damage;
            sum.dodge_chance += o.dodge_chance;
            sum.obstacle_damage += o.obstacle_damage;
            sum.flee_chance += o.flee_chance;
            sum.health_per_explore += o.health_per_explore;
            sum.death_risk += o.death_risk;
        }
        let k = f64::from(n);
        Outlook {
            damage_dealt: sum.damage_dealt / k,
            beast_hit: sum.beast_hit / k,
            hits_taken_per_fight: sum.hits_taken_per_fight / k,
            ambush_chance: sum.ambush_chance / k,
            ambush_damage: sum.ambush_damage / k,
            dodge_chance: sum.dodge_chance / k,
            obstacle_damage: sum.obstacle_damage / k,
            flee_chance: sum.flee_chance / k,
            health_per_explore: sum.health_per_explore / k,
            death_risk: sum.death_risk / k,
        }
    }

    /// `advice::market::baseline`: the outlooks (now, and projected) that item values are
    /// measured against, for a state at full health.
    pub fn baseline(&mut self, state: &GameState, settings: &EngineSettings) -> (Outlook, Outlook) {
        let adv = &state.adventurer;
        let later_level = adv.level().max(2).saturating_add(PROJECTION_LEVELS);
        let gain = item_xp_gain(adv.level(), PROJECTION_LEVELS);
        (
            self.over(adv, LEVELS_AHEAD, settings),
            self.at(&aged(state, gain).adventurer, later_level, settings),
        )
    }

    /// `advice::market_values`: every unowned market item's value, best value per gold first.
    pub fn market_values(
        &mut self,
        state: &GameState,
        settings: &EngineSettings,
    ) -> Vec<ItemValue> {
        let state = &at_full_health(state);
        let base = self.baseline(state, settings);
        let mut out: Vec<ItemValue> = market_ids(state)
            .into_iter()
            .filter_map(|id| self.item_value(state, id, &base, settings))
            .collect();
        sort_by_value_per_gold(&mut out);
        out
    }

    /// `advice::market::item_value`: buying `id` and equipping it, against the baseline.
    pub fn item_value(
        &mut self,
        state: &GameState,
        id: u8,
        base: &(Outlook, Outlook),
        settings: &EngineSettings,
    ) -> Option<ItemValue> {
        let info = catalogue::item(id)?;
        let adv = &state.adventurer;
        let with = imagine_equipped(state, &[id]);
        let later_level = adv.level().max(2).saturating_add(PROJECTION_LEVELS);
        let gain = item_xp_gain(adv.level(), PROJECTION_LEVELS);
        let now = self.over(&with.adventurer, LEVELS_AHEAD, settings);
        let later = self.at(&aged(&with, gain).adventurer, later_level, settings);
        let saved_now = base.0.health_per_explore - now.health_per_explore;
        let saved_later = base.1.health_per_explore - later.health_per_explore;
        let value = HORIZON_EXPLORES * (saved_now + saved_later) / 2.0;
        let price = rules::item_price(info.tier, adv.stats.charisma);
        Some(ItemValue {
            id,
            name: info.name.to_string(),
            slot: info.slot,
            price,
            saved_now,
            saved_later,
            value,
            value_per_gold: value / f64::from(price.max(1)),
            risk_saved: HORIZON_EXPLORES * (base.0.death_risk - now.death_risk),
            damage_change: now.damage_dealt - base.0.damage_dealt,
            downgrade: saved_now < -1e-9 && saved_later < -1e-9,
        })
    }

    /// `advice::stat_effects`: one more point in each stat below the cap, and the outlook
    /// without; death risks at full health.
    pub fn stat_effects(
        &mut self,
        adv: &Adventurer,
        settings: &EngineSettings,
    ) -> (Outlook, Vec<StatEffect>) {
        let mut adv = *adv;
        adv.health = adv.max_health();
        let adv = &adv;
        let base = self.over(adv, LEVELS_AHEAD, settings);
        let price = rules::potion_price(adv.level(), adv.stats.charisma);
        let effects = Stat::ALL
            .into_iter()
            .filter(|s| s.get(&adv.stats) < rules::MAX_STAT_VALUE)
            .map(|stat| {
                let a = with_point(adv, stat);
                let o = self.over(&a, LEVELS_AHEAD, settings);
                let potion_price = rules::potion_price(a.level(), a.stats.charisma);
                let mut value = HORIZON_EXPLORES * (base.health_per_explore - o.health_per_explore);
                if stat == Stat::Vitality {
                    value += f64::from(rules::VITALITY_HEALTH);
                }
                if potion_price < price {
                    let needed = HORIZON_EXPLORES * base.health_per_explore;
                    let saved_gold =
                        needed / f64::from(rules::POTION_HEALTH) * f64::from(price - potion_price);
                    let bought =
                        saved_gold * f64::from(rules::POTION_HEALTH) / f64::from(potion_price);
                    value += bought.min(needed);
                }
                StatEffect {
                    stat,
                    outlook: o,
                    max_health: a.max_health(),
                    potion_price,
                    value,
                }
            })
            .collect();
        (base, effects)
    }
}

/// The state as the market advice values it: at full health (you heal before exploring).
pub fn at_full_health(state: &GameState) -> GameState {
    let mut state = state.clone();
    state.adventurer.health = state.adventurer.max_health();
    state
}

/// The market items the advice values, by id: each once, those not owned.
pub fn market_ids(state: &GameState) -> Vec<u8> {
    let mut ids = state.market.clone();
    ids.sort_unstable();
    ids.dedup();
    ids.retain(|&id| !state.owns(id));
    ids
}

/// The advice's order of item values: best value per gold first, equals by id (from ids in
/// increasing order).
pub fn sort_by_value_per_gold(values: &mut [ItemValue]) {
    values.sort_by(|a, b| b.value_per_gold.total_cmp(&a.value_per_gold));
}
