//! Weapon upgrades. The starting weapons are tier 5 (attack = greatness), so by the middle levels
//! every fight is hopeless: each beast must be fled, for 1 xp and no gold. A higher-tier weapon
//! bought early gains greatness as the adventurer gains xp and soon hits several times harder.
//! This piece picks the market weapon with the greatest projected attack a few levels on, from
//! what the adventurer view shows (tiers, item xp, prices): public facts, no outcome.

use crate::game::catalogue::{Slot, Tier};
use crate::game::rules;
use crate::game::view::AdventurerView;

/// Item xp an equipped item gains while the adventurer goes from `level` to `level + ahead`
/// (kills give items twice the adventurer's xp, obstacles once: about one and a half times).
pub fn item_xp_gain(level: u8, ahead: u8) -> u32 {
    let from = u32::from(level).pow(2);
    let to = u32::from(level.saturating_add(ahead)).pow(2);
    (to - from) * 3 / 2
}

/// Base attack (tier multiplier × greatness) of a weapon of `tier` holding `item_xp` now, after
/// `gain` more item xp.
pub fn projected_attack(tier: Tier, item_xp: u16, gain: u32) -> u16 {
    let xp = (u32::from(item_xp) + gain).min(u32::from(rules::MAX_ITEM_XP)) as u16;
    rules::tier_multiplier(tier) * u16::from(rules::greatness(xp))
}

/// The market weapon to buy (id, name, price): the affordable one with the greatest projected
/// attack `ahead` levels on, if that beats the equipped weapon's by the factor `gain`.
pub fn upgrade(
    view: &AdventurerView,
    budget: u16,
    ahead: u8,
    gain: f64,
) -> Option<(u8, String, u16)> {
    let g = item_xp_gain(view.level, ahead);
    let current = view
        .equipment
        .iter()
        .find(|e| e.slot == Slot::Weapon)
        .map_or(0, |w| projected_attack(w.tier, w.xp, g));
    let free_bag = view.bag.len() < 15;
    view.market
        .iter()
        .filter(|m| m.slot == Slot::Weapon && !m.owned && m.price <= budget && free_bag)
        .map(|m| (m, projected_attack(m.tier, 0, g)))
        .filter(|(_, attack)| f64::from(*attack) >= gain * f64::from(current.max(1)))
        .max_by_key(|(m, attack)| (*attack, std::cmp::Reverse(m.price)))
        .map(|(m, _)| (m.id, m.name.clone(), m.price))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::view::adventurer_view;

    fn view(market: Vec<u8>, weapon_xp: u16, gold: u16) -> AdventurerView {
        let mut s = crate::game::model::GameState {
            adventurer: crate::game::engine::new_adventurer(12),
            ..Default::default()
        };
        s.adventurer.xp = 9;
        s.adventurer.health = 100;
        s.adventurer.gold = gold;
        s.adventurer.beast_health = 0;
        s.adventurer.equipment.weapon.xp = weapon_xp;
        s.market = market;
        adventurer_view(1, &s)
    }

    #[test]
    fn projects_greatness_from_the_coming_xp() {
        assert_eq!(item_xp_gain(3, 3), 40);
        assert_eq!(projected_attack(Tier::T5, 9, 0), 3);
        assert_eq!(projected_attack(Tier::T1, 0, 40), 30);
        assert_eq!(
            projected_attack(Tier::T1, 0, 10_000),
            100,
            "greatness caps at 20"
        );
    }

    #[test]
    fn buys_the_strongest_affordable_weapon_that_clearly_beats_the_wand() {
        // Katana (T1, 42), Scimitar (T3, 44), Long Sword (T4, 45), a helm (86).
        let v = view(vec![44, 42, 45, 86], 16, 40);
        assert_eq!(upgrade(&v, 40, 3, 1.5).map(|u| u.0), Some(42));
        assert_eq!(
            upgrade(&v, 19, 3, 1.5).map(|u| u.0),
            Some(44),
            "Katana too dear"
        );
        assert_eq!(upgrade(&v, 40, 3, 10.0), None, "not enough better");
        assert_eq!(upgrade(&view(vec![86], 16, 40), 40, 3, 1.5), None);
    }
}
