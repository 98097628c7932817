//! What each market item is worth to this adventurer: the health it saves per explore step
//! against the coming levels (now at greatness 1, and two levels on when both it and the item it
//! replaces have gained item xp), over a horizon of explore steps, per gold; and the best set of
//! buys for the gold (one per slot, greatest value per gold first); and each market weapon's
//! projected attack a few levels on, when a higher tier has gained greatness from the xp to come.

use super::equip::{aged, imagine_equipped};
use super::outlook::{Outlook, OutlookMemo};
use crate::catalogue::{self, Slot, Tier};
use crate::engine::EngineSettings;
use crate::model::GameState;
use crate::rules;

/// Explore steps a purchase is valued over (about two levels of play).
pub const HORIZON_EXPLORES: f64 = 20.0;
/// Levels the "now" outlook averages over (this one and the next).
pub const LEVELS_AHEAD: u8 = 2;
/// Levels ahead of the projected outlook.
pub const PROJECTION_LEVELS: u8 = 2;

/// Levels ahead at which weapons are compared: a higher-tier weapon bought at greatness 1 soon
/// outhits a lower tier that has a head start.
pub const WEAPON_PROJECTION_LEVELS: u8 = 3;

/// One weapon's projection [`WEAPON_PROJECTION_LEVELS`] levels on, after the item xp to come.
#[derive(Clone, Debug, PartialEq)]
pub struct WeaponProjection {
    /// Item id.
    pub id: u8,
    /// Item name.
    pub name: String,
    /// Price after charisma (0 for the equipped weapon).
    pub price: u16,
    /// Base attack then: tier multiplier × greatness.
    pub attack_later: u16,
    /// Expected damage per hit then, on the beasts of that level (strength, crits and
    /// strong/weak matchups averaged in).
    pub damage_later: f64,
}

/// One market item's value for this adventurer.
#[derive(Clone, Debug, PartialEq)]
pub struct ItemValue {
    /// Item id.
    pub id: u8,
    /// Item name.
    pub name: String,
    /// Slot.
    pub slot: Slot,
    /// Price after charisma.
    pub price: u16,
    /// Health saved per explore step now (negative: it makes things worse).
    pub saved_now: f64,
    /// Health saved per explore step two levels on, both items having gained item xp.
    pub saved_later: f64,
    /// Health saved over [`HORIZON_EXPLORES`] steps (mean of now and later).
    pub value: f64,
    /// `value / price`.
    pub value_per_gold: f64,
    /// Deaths avoided over [`HORIZON_EXPLORES`] steps at full health (the drop in the chance
    /// that a step kills, times the steps).
    pub risk_saved: f64,
    /// Expected damage per hit with it, minus without (weapons; 0 for armor).
    pub damage_change: f64,
    /// True when it is worse than what the slot holds, now and later.
    pub downgrade: bool,
}

/// The chosen purchases.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BestBuys {
    /// Item ids to buy (and equip), best value per gold first.
    pub items: Vec<u8>,
    /// Their total price.
    pub cost: u16,
    /// Their summed value (health over the horizon).
    pub value: f64,
}

/// Item xp an equipped item gains over `levels` levels from `level` (beast kills give twice the
/// adventurer's xp, obstacles once: about one and a half times).
pub fn item_xp_gain(level: u8, levels: u8) -> u16 {
    let from = u32::from(level).pow(2);
    let to = u32::from(level.saturating_add(levels)).pow(2);
    ((to - from) * 3 / 2).min(u32::from(rules::MAX_ITEM_XP)) as u16
}

/// Base attack (tier multiplier × greatness) of a weapon of `tier` holding `item_xp`, after
/// `gain` more item xp.
pub fn projected_attack(tier: Tier, item_xp: u16, gain: u16) -> u16 {
    let xp = item_xp.saturating_add(gain).min(rules::MAX_ITEM_XP);
    rules::tier_multiplier(tier) * u16::from(rules::greatness(xp))
}

/// Every unowned market weapon, by id (each once, in increasing order), with its price.
pub fn market_weapons(state: &GameState) -> Vec<(u8, u16)> {
    let charisma = state.adventurer.stats.charisma;
    market_ids(state)
        .into_iter()
        .filter_map(|id| catalogue::item(id).map(|i| (id, i)))
        .filter(|(_, i)| i.slot == Slot::Weapon)
        .map(|(id, i)| (id, rules::item_price(i.tier, charisma)))
        .collect()
}

/// The equipped weapon's projection and every unowned market weapon's, [`WEAPON_PROJECTION_LEVELS`]
/// levels on (each bought weapon starting at greatness 1).
pub fn weapon_projections(
    state: &GameState,
    settings: &EngineSettings,
    memo: &mut OutlookMemo,
) -> (Option<WeaponProjection>, Vec<WeaponProjection>) {
    let adv = &state.adventurer;
    let gain = item_xp_gain(adv.level(), WEAPON_PROJECTION_LEVELS);
    let later_level = adv.level().max(2).saturating_add(WEAPON_PROJECTION_LEVELS);
    let mut project = |s: &GameState, id: u8, price: u16| {
        let info = catalogue::item(id)?;
        let held = s.adventurer.equipment.weapon.xp;
        let aged = aged(s, gain);
        Some(WeaponProjection {
            id,
            name: info.name.to_string(),
            price,
            attack_later: projected_attack(info.tier, held, gain),
            damage_later: memo
                .at(&aged.adventurer, later_level, settings)
                .damage_dealt,
        })
    };
    let equipped = adv.equipment.weapon.id;
    let current = (equipped != 0)
        .then(|| project(state, equipped, 0))
        .flatten();
    let market = market_weapons(state)
        .into_iter()
        .filter_map(|(id, price)| project(&imagine_equipped(state, &[id]), id, price))
        .collect();
    (current, market)
}

/// The baseline outlooks (now over [`LEVELS_AHEAD`], and projected) of a state.
pub fn baseline(
    state: &GameState,
    settings: &EngineSettings,
    memo: &mut OutlookMemo,
) -> (Outlook, Outlook) {
    let adv = &state.adventurer;
    let later_level = adv.level().max(2).saturating_add(PROJECTION_LEVELS);
    let gain = item_xp_gain(adv.level(), PROJECTION_LEVELS);
    (
        memo.over(adv, LEVELS_AHEAD, settings),
        memo.at(&aged(state, gain).adventurer, later_level, settings),
    )
}

/// The value of buying `id` and equipping it, against the baseline outlooks.
pub fn item_value(
    state: &GameState,
    id: u8,
    base: &(Outlook, Outlook),
    settings: &EngineSettings,
    memo: &mut OutlookMemo,
) -> Option<ItemValue> {
    let info = catalogue::item(id)?;
    let adv = &state.adventurer;
    let with = imagine_equipped(state, &[id]);
    let later_level = adv.level().max(2).saturating_add(PROJECTION_LEVELS);
    let gain = item_xp_gain(adv.level(), PROJECTION_LEVELS);
    let now = memo.over(&with.adventurer, LEVELS_AHEAD, settings);
    let later = memo.at(&aged(&with, gain).adventurer, later_level, settings);
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

/// The state as items are valued: at full health (you heal before exploring).
pub fn at_full_health(state: &GameState) -> GameState {
    let mut state = state.clone();
    state.adventurer.health = state.adventurer.max_health();
    state
}

/// The market items valued, by id: each once, in increasing order, those not owned.
pub fn market_ids(state: &GameState) -> Vec<u8> {
    let mut ids = state.market.clone();
    ids.sort_unstable();
    ids.dedup();
    ids.retain(|&id| !state.owns(id));
    ids
}

/// Item values in the advice's order: best value per gold first, equals by id (from ids in
/// increasing order).
pub fn sort_by_value_per_gold(values: &mut [ItemValue]) {
    values.sort_by(|a, b| b.value_per_gold.total_cmp(&a.value_per_gold));
}

/// The value of every market item the adventurer does not own, best value per gold first.
/// Death risks are at full health (you heal before exploring).
pub fn market_values(
    state: &GameState,
    settings: &EngineSettings,
    memo: &mut OutlookMemo,
) -> Vec<ItemValue> {
    let state = &at_full_health(state);
    let base = baseline(state, settings, memo);
    let mut out: Vec<ItemValue> = market_ids(state)
        .into_iter()
        .filter_map(|id| item_value(state, id, &base, settings, memo))
        .collect();
    sort_by_value_per_gold(&mut out);
    out
}

/// The best buys for `budget` gold: positive-value items, greatest value per gold first, one per
/// slot, each replacement needing a free bag slot.
pub fn best_buys(state: &GameState, values: &[ItemValue], budget: u16) -> BestBuys {
    let mut free_bag = state.bag.items.iter().filter(|i| i.is_empty()).count();
    let mut left = budget;
    let mut out = BestBuys::default();
    let mut slots: Vec<Slot> = Vec::new();
    for v in values.iter().filter(|v| v.value > 0.0) {
        if v.price > left || slots.contains(&v.slot) {
            continue;
        }
        let replaces = !state.adventurer.equipment.get(v.slot).is_empty();
        if replaces {
            if free_bag == 0 {
                continue;
            }
            free_bag -= 1;
        }
        left -= v.price;
        slots.push(v.slot);
        out.items.push(v.id);
        out.cost += v.price;
        out.value += v.value;
    }
    out
}
