//! Weapon swaps in battle: the fight against the current beast with each bagged weapon, counting
//! the free hit the beast gets when you equip in battle.

use super::equip::imagine_equipped;
use crate::catalogue::{self, Slot};
use crate::combat::Effectiveness;
use crate::engine::EngineSettings;
use crate::model::GameState;
use crate::preview::battle_preview_with;

/// The fight with one weapon.
#[derive(Clone, Debug, PartialEq)]
pub struct WeaponOption {
    /// Weapon id (the equipped one first).
    pub id: u8,
    /// Weapon name.
    pub name: String,
    /// True for the weapon equipped now.
    pub equipped: bool,
    /// Effectiveness against the beast.
    pub effectiveness: Effectiveness,
    /// Damage per hit without a crit.
    pub damage: u16,
    /// Probability of winning when attacking to the death (after the beast's free hit for a
    /// swap).
    pub win_probability: f64,
}

/// The equipped weapon and each bagged weapon against the current beast; empty out of battle.
pub fn weapon_options(state: &GameState, settings: &EngineSettings) -> Vec<WeaponOption> {
    let adv = &state.adventurer;
    if !adv.in_battle() || adv.health == 0 {
        return Vec::new();
    }
    let beast = state.beast;
    let mut ids: Vec<(u8, bool)> = Vec::new();
    if !adv.equipment.weapon.is_empty() {
        ids.push((adv.equipment.weapon.id, true));
    }
    ids.extend(
        state
            .bag
            .iter()
            .filter(|i| catalogue::item(i.id).is_some_and(|c| c.slot == Slot::Weapon))
            .map(|i| (i.id, false)),
    );
    ids.into_iter()
        .map(|(id, equipped)| {
            let s = if equipped {
                state.clone()
            } else {
                imagine_equipped(state, &[id])
            };
            let p = battle_preview_with(&s.adventurer, &beast, adv.beast_health, settings);
            let win = if equipped {
                p.win_probability
            } else {
                free_hit_then_win(&s, settings)
            };
            WeaponOption {
                id,
                name: catalogue::item_name(id),
                equipped,
                effectiveness: p.effectiveness,
                damage: p.damage,
                win_probability: win,
            }
        })
        .collect()
}

/// Win probability after the beast's free hit (each outcome of the hit weighted).
fn free_hit_then_win(state: &GameState, settings: &EngineSettings) -> f64 {
    let adv = &state.adventurer;
    let p = battle_preview_with(adv, &state.beast, adv.beast_health, settings);
    let crit = p.beast_critical_chance;
    let mut win = 0.0;
    for (i, hit) in p.beast_damage.iter().enumerate() {
        let ps = crate::combat::slot_probability(i);
        for (pc, d) in [(1.0 - crit, hit.damage), (crit, hit.critical_damage)] {
            if pc <= 0.0 || d >= adv.health {
                continue;
            }
            let mut a = *adv;
            a.health -= d;
            let w =
                battle_preview_with(&a, &state.beast, adv.beast_health, settings).win_probability;
            win += ps * pc * w;
        }
    }
    win
}
