//! The advisors' figures the planner decides on, computed straight from the game state and
//! rounded as the advice and the battle preview round them, so this policy and a player reading
//! those tools see the same numbers.

use super::fight::FightOdds;
use super::shopping::ItemValue;
use super::stats::StatOption;
use super::weapon::{AttackLater, TierLater, WeaponsLater};
use crate::advice::market::{
    WEAPON_PROJECTION_LEVELS, item_xp_gain, market_weapons, projected_attack,
};
use crate::advice::{self, OutlookMemo, equip::imagine_equipped};
use crate::catalogue;
use crate::engine::EngineSettings;
use crate::model::{Adventurer, GameState};
use crate::preview::battle_preview_with;

/// Most market items the market advice lists (the whole market).
pub const MARKET_ITEMS: usize = 25;
/// Most market weapon tiers the market advice lists in `weapons_later`.
pub const WEAPON_TIERS: usize = 5;

fn r1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn r3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn r4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// One market item's value as the market advice lists it (rounded).
pub fn item_value(v: &advice::ItemValue) -> ItemValue {
    ItemValue {
        id: v.id,
        name: v.name.clone(),
        price: v.price,
        value: r1(v.value),
        per_gold: r3(v.value_per_gold),
        risk_saved: r4(v.risk_saved),
    }
}

/// What the market advice says about one market: item values and weapons a few levels on.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MarketTable {
    /// Items of positive value, best value per gold first.
    pub values: Vec<ItemValue>,
    /// The equipped weapon and the market's that will outhit it, a few levels on.
    pub weapons: WeaponsLater,
}

/// The whole market advice for `state` (market open), every item valued.
pub fn market_table(
    state: &GameState,
    settings: &EngineSettings,
    memo: &mut OutlookMemo,
) -> MarketTable {
    MarketTable {
        values: advice::market_values(state, settings, memo)
            .iter()
            .filter(|v| v.value > 0.0)
            .take(MARKET_ITEMS)
            .map(item_value)
            .collect(),
        weapons: weapons_later(state),
    }
}

/// The equipped weapon's base attack a few levels on, and each market weapon's (id, price,
/// attack), bought at greatness 1: `advice::market::weapon_projections`' `attack_later`.
fn projections(state: &GameState) -> (Option<u16>, Vec<(u8, u16, u16)>) {
    let adv = &state.adventurer;
    let gain = item_xp_gain(adv.level(), WEAPON_PROJECTION_LEVELS);
    let weapon = adv.equipment.weapon;
    let equipped = (weapon.id != 0)
        .then(|| catalogue::item(weapon.id))
        .flatten()
        .map(|info| projected_attack(info.tier, weapon.xp, gain));
    let market = market_weapons(state)
        .into_iter()
        .filter_map(|(id, price)| {
            let tier = catalogue::item(id)?.tier;
            Some((id, price, projected_attack(tier, 0, gain)))
        })
        .collect();
    (equipped, market)
}

/// The market weapons that will outhit the equipped one a few levels on, by tier (greatest
/// attack first, then cheapest; equal attack and price grouped), at most [`WEAPON_TIERS`].
pub fn weapons_later(state: &GameState) -> WeaponsLater {
    let (equipped, mut market) = projections(state);
    let mine = equipped.unwrap_or(0);
    market.retain(|w| w.2 > mine);
    market.sort_by(|a, b| b.2.cmp(&a.2).then(a.1.cmp(&b.1)));
    let mut tiers: Vec<TierLater> = Vec::new();
    for &(id, price, attack) in &market {
        match tiers.last_mut() {
            Some(t) if t.attack == attack && t.price == price => t.ids.push(id),
            _ => tiers.push(TierLater {
                ids: vec![id],
                price,
                attack,
            }),
        }
    }
    tiers.truncate(WEAPON_TIERS);
    if tiers.is_empty() {
        return WeaponsLater::default();
    }
    WeaponsLater {
        yours: equipped.map(|attack| AttackLater { attack }),
        market: tiers,
    }
}

/// One more point in each stat below the cap, best value first (equals in stat order).
pub fn stat_options(
    adv: &Adventurer,
    settings: &EngineSettings,
    memo: &mut OutlookMemo,
) -> Vec<StatOption> {
    let (_, effects) = advice::stat_effects(adv, settings, memo);
    let mut out: Vec<StatOption> = effects
        .iter()
        .map(|e| StatOption {
            stat: e.stat,
            value: r1(e.value),
            death_risk: r3(e.outlook.death_risk),
        })
        .collect();
    out.sort_by(|a, b| b.value.total_cmp(&a.value));
    out
}

/// The win chance with one weapon against the current beast.
#[derive(Debug, Clone, PartialEq)]
pub struct WeaponWin {
    /// Weapon id.
    pub id: u8,
    /// Weapon name.
    pub name: String,
    /// The weapon equipped now.
    pub equipped: bool,
    /// Win probability attacking to the death (after the beast's free hit for a swap).
    pub win: f64,
}

/// The equipped weapon and each bagged one against the current beast (in battle).
pub fn weapon_wins(state: &GameState, settings: &EngineSettings) -> Vec<WeaponWin> {
    advice::weapon_options(state, settings)
        .into_iter()
        .map(|w| WeaponWin {
            id: w.id,
            name: w.name,
            equipped: w.equipped,
            win: r3(w.win_probability),
        })
        .collect()
}

/// The odds of the current fight, as the battle preview gives them (in battle).
pub fn fight_odds(state: &GameState, settings: &EngineSettings) -> FightOdds {
    let adv = &state.adventurer;
    let seen = imagine_equipped(state, &[]);
    let p = battle_preview_with(&seen.adventurer, &state.beast, adv.beast_health, settings);
    FightOdds {
        win: p.win_probability,
        flee_to_the_death: p.flee_to_the_death_probability,
    }
}
