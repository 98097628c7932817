//! The outlook's figures from hit tables kept across calls: a hit depends only on the one item it
//! involves (the weapon with the ring and strength, or the armor in the slot hit with the
//! necklace), so the hits of one item at one level are worked out once and reused by every
//! loadout that holds it.

use std::collections::HashMap;

use super::outlook::{
    HitsCache, Outlook, P_BEAST, P_OBSTACLE, beast, expected_hits, flee_hits, healths, kinds,
    levels,
};
use crate::catalogue::Slot;
use crate::combat::{self, ARMOR_SLOTS};
use crate::engine::{EngineSettings, StatsMode};
use crate::model::{Adventurer, Item};
use crate::rules;

/// An item as a hit sees it: id and greatness.
type Held = (u8, u8);

fn held(item: Item) -> Held {
    (item.id, item.greatness())
}

/// What the adventurer's hits depend on, at one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct AttackKey {
    weapon: Held,
    ring: Held,
    specials_seed: u16,
    strength: u8,
    luck: u8,
    level: u8,
}

/// What the hits on one armor slot depend on, at one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct ArmorKey {
    slot: Slot,
    armor: Held,
    neck: Held,
    specials_seed: u16,
    level: u8,
}

/// The adventurer's hit on each beast met (kind by kind, level by level): normal, critical, and
/// the expected hits to kill it.
type AttackTable = Vec<(u16, u16, f64)>;

/// A beast's and an obstacle's hit on one slot, for each beast or obstacle met (kind by kind,
/// level by level): `[normal, critical]`, each (beast hit, obstacle hit).
type ArmorTable = Vec<[(u16, u16); 2]>;

/// The hit tables of one world, by item and level (every call must pass the same settings).
#[derive(Debug, Clone, Default)]
pub(super) struct DamageTables {
    attacks: HashMap<AttackKey, AttackTable>,
    armor: HashMap<ArmorKey, ArmorTable>,
    hits: HitsCache,
}

impl DamageTables {
    fn attack_key(a: &Adventurer, level: u8) -> AttackKey {
        AttackKey {
            weapon: held(a.equipment.weapon),
            ring: held(a.equipment.ring),
            specials_seed: a.item_specials_seed,
            strength: a.stats.strength,
            luck: a.stats.luck,
            level,
        }
    }

    fn armor_key(a: &Adventurer, slot: Slot, level: u8) -> ArmorKey {
        ArmorKey {
            slot,
            armor: held(a.equipment.get(slot)),
            neck: held(a.equipment.neck),
            specials_seed: a.item_specials_seed,
            level,
        }
    }

    /// Works out the adventurer's hits at `level` unless known.
    fn fill_attack(&mut self, a: &Adventurer, level: u8, jewelry: bool, adv_crit: f64) {
        let hits = &mut self.hits;
        self.attacks
            .entry(Self::attack_key(a, level))
            .or_insert_with(|| {
                let health_range = healths(level);
                let mut out = Vec::new();
                for id in kinds() {
                    for lvl in levels(level) {
                        let b = beast(id, lvl);
                        let d0 = combat::adventurer_hit(a, &b, false, jewelry);
                        let d1 = combat::adventurer_hit(a, &b, true, jewelry);
                        let h = *hits
                            .entry((
                                d0,
                                d1,
                                adv_crit.to_bits(),
                                *health_range.start(),
                                *health_range.end(),
                            ))
                            .or_insert_with(|| expected_hits(&health_range, d0, d1, adv_crit));
                        out.push((d0, d1, h));
                    }
                }
                out
            });
    }

    /// Works out the hits on `slot` at `level` unless known.
    fn fill_armor(&mut self, a: &Adventurer, slot: Slot, level: u8, jewelry: bool) {
        self.armor
            .entry(Self::armor_key(a, slot, level))
            .or_insert_with(|| {
                let mut out = Vec::new();
                for id in kinds() {
                    for lvl in levels(level) {
                        let b = beast(id, lvl);
                        out.push([false, true].map(|crit| {
                            (
                                combat::beast_hit(a, &b, slot, crit, jewelry),
                                combat::obstacle_hit(a, id, lvl, slot, crit, jewelry),
                            )
                        }));
                    }
                }
                out
            });
    }

    /// The outlook for `adv` (boosted stats, as in the game state) as if it were at `level`.
    pub(super) fn outlook(
        &mut self,
        adv: &Adventurer,
        level: u8,
        settings: &EngineSettings,
    ) -> Outlook {
        let jewelry = settings.rules.jewelry_bonuses;
        let reduction = settings.base_damage_reduction;
        let mut a = *adv;
        a.xp = u16::from(level).pow(2).max(1);
        let p_beast_crit = combat::critical_hit_probability(rules::critical_hit_chance(level));
        let beast_crit = [1.0 - p_beast_crit, p_beast_crit];
        let adv_crit = combat::critical_hit_probability(a.stats.luck);
        let n_levels = levels(level).count() as f64;
        let per_kind = 1.0 / 15.0 / n_levels;
        let slot_p: [f64; 5] = std::array::from_fn(combat::slot_probability);
        let (wis_cut, int_cut) = match settings.stats_mode {
            StatsMode::Dodge => (0, 0),
            StatsMode::Reduction => (
                combat::ability_damage_reduction(level, a.stats.wisdom),
                combat::ability_damage_reduction(level, a.stats.intelligence),
            ),
        };
        let (ambush_chance, dodge_chance) = match settings.stats_mode {
            StatsMode::Dodge => (
                1.0 - combat::avoid_threat_probability(level, a.stats.wisdom),
                combat::avoid_threat_probability(level, a.stats.intelligence),
            ),
            StatsMode::Reduction => (1.0, 0.0),
        };
        let health = a.health.max(1);
        let mut o = Outlook {
            ambush_chance,
            dodge_chance,
            flee_chance: if a.stats.dexterity == 0 {
                0.0
            } else {
                combat::avoid_threat_probability(level, a.stats.dexterity)
            },
            ..Outlook::default()
        };
        let (mut ambush_kills, mut obstacle_kills, mut fight_loss) = (0.0, 0.0, 0.0);
        let flee_cost = flee_hits(if a.level() > 1 { o.flee_chance } else { 0.0 });
        self.fill_attack(&a, level, jewelry, adv_crit);
        for slot in ARMOR_SLOTS {
            self.fill_armor(&a, slot, level, jewelry);
        }
        let attacks = &self.attacks[&Self::attack_key(&a, level)];
        let armor = ARMOR_SLOTS.map(|slot| &self.armor[&Self::armor_key(&a, slot, level)]);
        for (k, &(d0, d1, hits)) in attacks.iter().enumerate() {
            o.damage_dealt +=
                per_kind * ((1.0 - adv_crit) * f64::from(d0) + adv_crit * f64::from(d1));
            let mut hit = 0.0;
            for (s, table) in armor.iter().enumerate() {
                let ps = slot_p[s];
                for (c, &pc) in beast_crit.iter().enumerate() {
                    let p = per_kind * ps * pc;
                    let (d, od) = table[k][c];
                    hit += ps * pc * f64::from(d);
                    let amb = combat::apply_damage_reduction(
                        combat::apply_damage_reduction(d, reduction),
                        wis_cut,
                    );
                    o.ambush_damage += p * f64::from(amb);
                    if amb >= health {
                        ambush_kills += p;
                    }
                    let od = combat::apply_damage_reduction(
                        combat::apply_damage_reduction(od, reduction),
                        int_cut,
                    );
                    o.obstacle_damage += p * f64::from(od);
                    if od >= health {
                        obstacle_kills += p;
                    }
                }
            }
            o.beast_hit += per_kind * hit;
            let taken = (hits - 1.0).max(0.0).min(flee_cost);
            o.hits_taken_per_fight += per_kind * taken;
            fight_loss += per_kind * taken * hit;
        }
        o.health_per_explore = P_BEAST * (o.ambush_chance * o.ambush_damage + fight_loss)
            + P_OBSTACLE * (1.0 - o.dodge_chance) * o.obstacle_damage;
        o.death_risk = P_BEAST * o.ambush_chance * ambush_kills
            + P_OBSTACLE * (1.0 - o.dodge_chance) * obstacle_kills;
        o
    }
}
