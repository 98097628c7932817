//! Combat formulas of `ls_0_0_9` (docs/game-rules.md#combat): damage of the adventurer, beasts and
//! obstacles (tiers, elements, strength, crits, name matches, rings and necklaces), damage
//! reductions, and the chances of crits and of avoiding threats over a uniformly random byte.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::catalogue::{self, ItemType, Slot, Tier};
use super::model::{Adventurer, BeastEvent, Item, SpecialPowers};
use super::rules;

/// Minimum damage of an adventurer's hit on a beast.
pub const ADVENTURER_MIN_DAMAGE: u16 = 4;
/// Minimum damage of a beast's hit on the adventurer.
pub const BEAST_MIN_DAMAGE: u16 = 2;
/// Armor slots a beast can hit, in the order of `location_rnd % 5`.
pub const ARMOR_SLOTS: [Slot; 5] = [Slot::Chest, Slot::Head, Slot::Waist, Slot::Foot, Slot::Hand];

/// Elemental effectiveness of a weapon type against an armor type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Effectiveness {
    /// −50% of base attack.
    Weak,
    /// Base attack.
    Fair,
    /// +50% of base attack.
    Strong,
}

/// The combat side of an item or beast: tier, type, level and specials (Cairo `CombatSpec`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CombatSpec {
    /// Tier (None for an empty slot).
    pub tier: Tier,
    /// Type (None for an empty slot).
    pub item_type: ItemType,
    /// Level: greatness for items, level for beasts.
    pub level: u16,
    /// Specials (name matches give bonus damage).
    pub specials: SpecialPowers,
}

impl CombatSpec {
    /// Spec of an equipped item; empty slot → tier/type None, level 0. Specials come from the
    /// adventurer's `item_specials_seed` (none while it is 0).
    pub fn of_item(item: Item, specials_seed: u16) -> Self {
        let Some(info) = catalogue::item(item.id) else {
            return Self::default();
        };
        let greatness = item.greatness();
        Self {
            tier: info.tier,
            item_type: info.item_type,
            level: greatness.into(),
            specials: if specials_seed == 0 {
                SpecialPowers::default()
            } else {
                rules::item_specials(item.id, greatness, specials_seed)
            },
        }
    }

    /// Spec of a beast from its id, level and specials.
    pub fn of_beast(beast: &BeastEvent) -> Self {
        Self {
            tier: rules::beast_tier(beast.id),
            item_type: rules::beast_type(beast.id),
            level: beast.level,
            specials: beast.specials,
        }
    }
}

/// Weapon-vs-armor effectiveness (docs/game-rules.md#type-effectiveness); non-combat weapon types
/// are Fair, and any weapon is Strong against no armor.
pub fn effectiveness(weapon: ItemType, armor: ItemType) -> Effectiveness {
    use Effectiveness::*;
    use ItemType as T;
    match (weapon, armor) {
        (T::MagicOrCloth | T::BladeOrHide | T::BludgeonOrMetal, T::None) => Strong,
        (T::MagicOrCloth, T::MagicOrCloth) => Fair,
        (T::MagicOrCloth, T::BladeOrHide) => Weak,
        (T::MagicOrCloth, T::BludgeonOrMetal) => Strong,
        (T::BladeOrHide, T::MagicOrCloth) => Strong,
        (T::BladeOrHide, T::BladeOrHide) => Fair,
        (T::BladeOrHide, T::BludgeonOrMetal) => Weak,
        (T::BludgeonOrMetal, T::MagicOrCloth) => Weak,
        (T::BludgeonOrMetal, T::BladeOrHide) => Strong,
        (T::BludgeonOrMetal, T::BludgeonOrMetal) => Fair,
        _ => Fair,
    }
}

/// Base attack adjusted by effectiveness: ±half of it (integer division).
pub fn elemental_adjusted_damage(base_attack: u16, weapon: ItemType, armor: ItemType) -> u16 {
    let e = base_attack / 2;
    match effectiveness(weapon, armor) {
        Effectiveness::Strong => base_attack.saturating_add(e),
        Effectiveness::Fair => base_attack,
        Effectiveness::Weak => base_attack - e,
    }
}

/// Strength bonus: +10% of the elemental damage per strength point.
pub fn strength_bonus(damage: u16, strength: u8) -> u16 {
    (u32::from(damage) * u32::from(strength) * 10 / 100).min(u16::MAX.into()) as u16
}

/// Name-prefix match bonus: 8× damage when both special2 are equal and non-zero.
pub fn special2_bonus(damage: u16, weapon_special2: u8, armor_special2: u8) -> u16 {
    if weapon_special2 != 0 && weapon_special2 == armor_special2 {
        damage.saturating_mul(8)
    } else {
        0
    }
}

/// Name-suffix match bonus: 2× damage when both special3 are equal and non-zero.
pub fn special3_bonus(damage: u16, weapon_special3: u8, armor_special3: u8) -> u16 {
    if weapon_special3 != 0 && weapon_special3 == armor_special3 {
        damage.saturating_mul(2)
    } else {
        0
    }
}

/// Critical-hit bonus: the full damage again on a crit (see [`rules::is_critical_hit`]).
pub fn critical_hit_bonus(damage: u16, chance: u8, rnd: u8) -> u16 {
    if rules::is_critical_hit(chance, rnd) {
        damage
    } else {
        0
    }
}

/// Probability that a uniformly random byte gives a crit at `chance` (0..=100+).
pub fn critical_hit_probability(chance: u8) -> f64 {
    (0..=255u8)
        .filter(|&r| rules::is_critical_hit(chance, r))
        .count() as f64
        / 256.0
}

/// The parts of one hit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Damage {
    /// Final damage after armor and minimum.
    pub total: u16,
    /// Crit bonus included in `total` (0 if not a crit).
    pub critical_hit_bonus: u16,
    /// Name-match bonus included in `total`.
    pub special_bonus: u16,
}

/// `calculate_damage` (docs/game-rules.md#combat) for a given crit outcome.
pub fn calculate_damage(
    weapon: &CombatSpec,
    armor: &CombatSpec,
    minimum: u16,
    strength: u8,
    critical: bool,
) -> Damage {
    let base_attack = u32::from(rules::attack_hp(weapon.tier, weapon.level));
    let base_armor = u32::from(rules::attack_hp(armor.tier, armor.level));
    let elemental = u32::from(elemental_adjusted_damage(
        base_attack.min(u16::MAX.into()) as u16,
        weapon.item_type,
        armor.item_type,
    ));
    let strength = u32::from(strength_bonus(elemental as u16, strength));
    let crit = if critical { elemental } else { 0 };
    let special = u32::from(special2_bonus(
        elemental as u16,
        weapon.specials.special2,
        armor.specials.special2,
    )) + u32::from(special3_bonus(
        elemental as u16,
        weapon.specials.special3,
        armor.specials.special3,
    ));
    let total_attack = elemental + strength + crit + special;
    let minimum = u32::from(minimum);
    let total = if total_attack > base_armor + minimum {
        total_attack - base_armor
    } else {
        minimum
    };
    let clamp = |v: u32| v.min(u16::MAX.into()) as u16;
    Damage {
        total: clamp(total),
        critical_hit_bonus: clamp(crit),
        special_bonus: clamp(special),
    }
}

/// Damage of the adventurer's hit on a beast, including Platinum (name match) and Titanium (crit)
/// ring bonuses of 3% × ring greatness.
pub fn adventurer_attack_damage(adv: &Adventurer, beast: &BeastEvent, critical: bool) -> u16 {
    adventurer_hit(adv, beast, critical, true)
}

/// [`adventurer_attack_damage`] with the ring bonuses switched on or off (`jewelry`), for rule
/// sets without jewelry effects such as the devnet practice world.
pub fn adventurer_hit(adv: &Adventurer, beast: &BeastEvent, critical: bool, jewelry: bool) -> u16 {
    let weapon = CombatSpec::of_item(adv.equipment.weapon, adv.item_specials_seed);
    let d = calculate_damage(
        &weapon,
        &CombatSpec::of_beast(beast),
        ADVENTURER_MIN_DAMAGE,
        adv.stats.strength,
        critical,
    );
    if !jewelry {
        return d.total;
    }
    let ring = adv.equipment.ring;
    let ring_pct = 3 * u32::from(ring.greatness());
    let bonus = match ring.id {
        6 => u32::from(d.special_bonus) * ring_pct / 100,
        7 => u32::from(d.critical_hit_bonus) * ring_pct / 100,
        _ => 0,
    };
    (u32::from(d.total) + bonus).min(u16::MAX.into()) as u16
}

/// Damage of a beast's hit on the armor in `slot` (before any ambush reduction), including the
/// matching necklace's armor bonus (Amulet/Cloth, Pendant/Hide, Necklace/Metal).
pub fn beast_attack_damage(
    adv: &Adventurer,
    beast: &BeastEvent,
    slot: Slot,
    critical: bool,
) -> u16 {
    beast_hit(adv, beast, slot, critical, true)
}

/// [`beast_attack_damage`] with the necklace bonus switched on or off (`jewelry`).
pub fn beast_hit(
    adv: &Adventurer,
    beast: &BeastEvent,
    slot: Slot,
    critical: bool,
    jewelry: bool,
) -> u16 {
    let armor = CombatSpec::of_item(adv.equipment.get(slot), adv.item_specials_seed);
    let d = calculate_damage(
        &CombatSpec::of_beast(beast),
        &armor,
        BEAST_MIN_DAMAGE,
        0,
        critical,
    );
    if !jewelry {
        return d.total;
    }
    necklace_protection(adv, &armor, d.total, BEAST_MIN_DAMAGE)
}

/// Minimum damage of an obstacle.
pub const OBSTACLE_MIN_DAMAGE: u16 = 4;

/// Damage of an obstacle (id, level) on the armor in `slot`, before the damage reductions: the
/// armor counts without specials, minimum 4, and the matching necklace protects (floor 4).
pub fn obstacle_hit(
    adv: &Adventurer,
    obstacle_id: u8,
    obstacle_level: u16,
    slot: Slot,
    critical: bool,
    jewelry: bool,
) -> u16 {
    let obstacle = CombatSpec {
        tier: rules::obstacle_tier(obstacle_id),
        item_type: rules::obstacle_type(obstacle_id),
        level: obstacle_level,
        specials: SpecialPowers::default(),
    };
    let armor = CombatSpec::of_item(adv.equipment.get(slot), 0);
    let d = calculate_damage(&obstacle, &armor, OBSTACLE_MIN_DAMAGE, 0, critical);
    if !jewelry {
        return d.total;
    }
    necklace_protection(adv, &armor, d.total, OBSTACLE_MIN_DAMAGE)
}

/// The necklace armor bonus: Amulet protects Cloth, Pendant Hide, Necklace Metal, by
/// `base_armor × 3 × greatness / 100`, never below `floor`.
fn necklace_protection(adv: &Adventurer, armor: &CombatSpec, damage: u16, floor: u16) -> u16 {
    let neck = adv.equipment.neck;
    let protects = matches!(
        (neck.id, armor.item_type),
        (3, ItemType::MagicOrCloth) | (1, ItemType::BladeOrHide) | (2, ItemType::BludgeonOrMetal)
    );
    if !protects {
        return damage;
    }
    let base_armor = u32::from(rules::attack_hp(armor.tier, armor.level));
    let bonus = base_armor * 3 * u32::from(neck.greatness()) / 100;
    let total = u32::from(damage);
    if total > bonus + u32::from(floor) {
        (total - bonus) as u16
    } else {
        floor
    }
}

/// `apply_damage_reduction`: `damage × (100 − percent) / 100` (percent capped at 100).
pub fn apply_damage_reduction(damage: u16, percent: u8) -> u16 {
    (u32::from(damage) * (100 - u32::from(percent.min(100))) / 100) as u16
}

/// `ability_based_damage_reduction(level, stat)`: a smoothstep of `stat / level` from 0 to 100
/// percent, used by the `Reduction` stats mode.
pub fn ability_damage_reduction(level: u8, stat: u8) -> u8 {
    const S: u64 = 1_000_000;
    let level = u64::from(level.max(1));
    let r = (S * u64::from(stat) / level).min(S);
    let r2 = r * r / S;
    let r3 = r2 * r / S;
    (100 * (3 * r2 - 2 * r3) / S) as u8
}

/// `ability_based_avoid_threat`: stat ≥ level, or stat > level × rnd / 255.
pub fn avoids_threat(level: u8, stat: u8, rnd: u8) -> bool {
    stat >= level || u16::from(stat) > u16::from(level) * u16::from(rnd) / 255
}

/// Probability of [`avoids_threat`] over a uniformly random byte (flee with dexterity, dodge
/// obstacles with intelligence, avoid ambushes with wisdom).
pub fn avoid_threat_probability(level: u8, stat: u8) -> f64 {
    (0..=255u8)
        .filter(|&r| avoids_threat(level, stat, r))
        .count() as f64
        / 256.0
}

/// Probability that a beast hit lands on each of [`ARMOR_SLOTS`] (`rnd % 5` over a byte).
pub fn slot_probability(index: usize) -> f64 {
    (0..=255u16)
        .filter(|r| usize::from(*r % 5) == index)
        .count() as f64
        / 256.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tests::sample_state;
    use ItemType::*;

    #[test]
    fn effectiveness_vectors() {
        assert_eq!(
            effectiveness(MagicOrCloth, BludgeonOrMetal),
            Effectiveness::Strong
        );
        assert_eq!(
            effectiveness(MagicOrCloth, MagicOrCloth),
            Effectiveness::Fair
        );
        assert_eq!(
            effectiveness(MagicOrCloth, BladeOrHide),
            Effectiveness::Weak
        );
        assert_eq!(
            effectiveness(BladeOrHide, MagicOrCloth),
            Effectiveness::Strong
        );
        assert_eq!(effectiveness(BladeOrHide, BladeOrHide), Effectiveness::Fair);
        assert_eq!(
            effectiveness(BladeOrHide, BludgeonOrMetal),
            Effectiveness::Weak
        );
        assert_eq!(
            effectiveness(BludgeonOrMetal, BladeOrHide),
            Effectiveness::Strong
        );
        assert_eq!(
            effectiveness(BludgeonOrMetal, BludgeonOrMetal),
            Effectiveness::Fair
        );
        assert_eq!(
            effectiveness(BludgeonOrMetal, MagicOrCloth),
            Effectiveness::Weak
        );
        assert_eq!(
            effectiveness(BladeOrHide, ItemType::None),
            Effectiveness::Strong
        );
        assert_eq!(effectiveness(Ring, BladeOrHide), Effectiveness::Fair);
        assert_eq!(
            elemental_adjusted_damage(100, MagicOrCloth, BludgeonOrMetal),
            150
        );
        assert_eq!(
            elemental_adjusted_damage(100, MagicOrCloth, MagicOrCloth),
            100
        );
        assert_eq!(
            elemental_adjusted_damage(100, MagicOrCloth, BladeOrHide),
            50
        );
    }

    #[test]
    fn bonus_vectors() {
        assert_eq!(special2_bonus(100, 0, 0), 0);
        assert_eq!(special2_bonus(100, 0, 1), 0);
        assert_eq!(special2_bonus(100, 1, 1), 800);
        assert_eq!(special3_bonus(100, 0, 0), 0);
        assert_eq!(special3_bonus(100, 0, 1), 0);
        assert_eq!(special3_bonus(100, 1, 1), 200);
        for (s, b) in [(0, 0), (1, 10), (2, 20), (31, 310)] {
            assert_eq!(strength_bonus(100, s), b);
        }
        assert_eq!(strength_bonus(150, 55), 825);
        for (c, r, b) in [(0, 0, 0), (100, 0, 100), (1, 0, 100), (1, 2, 0), (1, 99, 0)] {
            assert_eq!(critical_hit_bonus(100, c, r), b, "({c},{r})");
        }
    }

    #[test]
    fn probabilities() {
        assert_eq!(critical_hit_probability(0), 0.0);
        assert_eq!(critical_hit_probability(100), 1.0);
        // chance 10 → 255*10/100 = 25 → rnd 0..=24 → 25/256.
        assert_eq!(critical_hit_probability(10), 25.0 / 256.0);
        assert_eq!(avoid_threat_probability(5, 5), 1.0);
        assert_eq!(avoid_threat_probability(5, 0), 0.0);
        let p = avoid_threat_probability(10, 5);
        assert!(p > 0.45 && p < 0.55, "{p}");
        assert!((0..5).map(slot_probability).sum::<f64>() - 1.0 < 1e-12);
    }

    #[test]
    fn damage_against_real_gear() {
        let s = sample_state();
        let adv = &s.adventurer;
        let dragon = s.beast; // T1 blade level 20, specials 18/6
        // Short Sword G10 T5: base 10, Blade vs Hide fair → 10; str 3 → +3; armor 20*5=100 → min 4.
        assert_eq!(adventurer_attack_damage(adv, &dragon, false), 4);
        // Dragon vs Leather Armor (T5 hide G3): base 100 fair → 100; armor 3 → 97; crit → 197.
        assert_eq!(beast_attack_damage(adv, &dragon, Slot::Chest, false), 97);
        assert_eq!(beast_attack_damage(adv, &dragon, Slot::Chest, true), 197);
        // Empty head: Strong → 150.
        assert_eq!(beast_attack_damage(adv, &dragon, Slot::Head, false), 150);
    }

    #[test]
    fn necklace_reduces_matching_armor_damage() {
        let mut s = sample_state();
        s.adventurer.equipment.chest = Item { id: 50, xp: 400 }; // Hard Leather Armor T4 hide G20: armor 40
        // Dragon T1 L20 blade vs hide: 100 fair − 40 = 60.
        assert_eq!(
            beast_attack_damage(&s.adventurer, &s.beast, Slot::Chest, false),
            60
        );
        s.adventurer.equipment.neck = Item { id: 1, xp: 400 }; // Pendant G20: 60% of 40 = 24
        assert_eq!(
            beast_attack_damage(&s.adventurer, &s.beast, Slot::Chest, false),
            36
        );
        s.adventurer.equipment.neck = Item { id: 3, xp: 400 }; // Amulet protects cloth only
        assert_eq!(
            beast_attack_damage(&s.adventurer, &s.beast, Slot::Chest, false),
            60
        );
    }

    #[test]
    fn reductions_and_obstacles() {
        assert_eq!(apply_damage_reduction(100, 25), 75);
        assert_eq!(apply_damage_reduction(7, 25), 5);
        assert_eq!(apply_damage_reduction(7, 200), 0, "capped at 100%");
        assert_eq!(ability_damage_reduction(10, 0), 0);
        assert_eq!(ability_damage_reduction(10, 10), 100);
        assert_eq!(ability_damage_reduction(10, 20), 100);
        assert_eq!(ability_damage_reduction(10, 5), 50, "smoothstep(0.5) = 0.5");
        assert_eq!(
            ability_damage_reduction(4, 1),
            15,
            "3(1/16) − 2(1/64) = 0.15625"
        );
        let mut adv = Adventurer::default();
        // Pendulum Blades (T1 blade) level 10 on an empty chest: 50 × 1.5 = 75.
        assert_eq!(obstacle_hit(&adv, 26, 10, Slot::Chest, false, true), 75);
        assert_eq!(obstacle_hit(&adv, 26, 10, Slot::Chest, true, true), 150);
        // Hard Leather Armor G20 (armor 40) with a G20 Pendant (60% of 40 = 24): 50 − 40 − 24 → floor 4.
        adv.equipment.chest = Item { id: 50, xp: 400 };
        assert_eq!(obstacle_hit(&adv, 26, 10, Slot::Chest, false, false), 10);
        adv.equipment.neck = Item { id: 1, xp: 400 };
        assert_eq!(obstacle_hit(&adv, 26, 10, Slot::Chest, false, true), 4);
        assert_eq!(obstacle_hit(&adv, 26, 10, Slot::Chest, false, false), 10);
        // Tiny obstacles deal the minimum of 4.
        assert_eq!(obstacle_hit(&adv, 50, 1, Slot::Chest, false, true), 4);
    }

    #[test]
    fn name_matches_multiply_and_platinum_adds() {
        let mut adv = Adventurer {
            item_specials_seed: 1234,
            ..Default::default()
        };
        adv.equipment.weapon = Item { id: 42, xp: 400 }; // Katana G20 with all specials
        let sp = rules::item_specials(42, 20, 1234);
        let beast = BeastEvent {
            id: 50, // Rat T5 blade
            level: 1,
            specials: SpecialPowers {
                special1: 0,
                special2: sp.special2,
                special3: sp.special3,
            },
            ..Default::default()
        };
        // Katana G20: 100 fair vs hide; prefix ×8 (800) and suffix ×2 (200); armor 1.
        let d = adventurer_attack_damage(&adv, &beast, false);
        assert_eq!(d, 100 + 800 + 200 - 1);
        adv.equipment.ring = Item { id: 6, xp: 400 }; // Platinum G20: +60% of 1000
        assert_eq!(adventurer_attack_damage(&adv, &beast, false), d + 600);
        assert_eq!(
            adventurer_hit(&adv, &beast, false, false),
            d,
            "no jewelry rules"
        );
    }

    #[test]
    fn rings_add_bonus() {
        let mut s = sample_state();
        s.beast = BeastEvent {
            id: 50,
            level: 1,
            ..Default::default()
        }; // Rat: T5 blade level 1, armor 1
        s.adventurer.equipment.weapon = Item { id: 42, xp: 400 }; // Katana T1 G20: 100 fair vs hide
        let base = adventurer_attack_damage(&s.adventurer, &s.beast, false);
        let base_crit = adventurer_attack_damage(&s.adventurer, &s.beast, true);
        // 100 + 30 (str 3) − 1 armor = 129; crit adds 100.
        assert_eq!((base, base_crit), (129, 229));
        s.adventurer.equipment.ring = Item { id: 7, xp: 400 }; // Titanium G20: +60% of crit bonus
        assert_eq!(
            adventurer_attack_damage(&s.adventurer, &s.beast, true),
            base_crit + 60
        );
        assert_eq!(
            adventurer_attack_damage(&s.adventurer, &s.beast, false),
            base
        );
        s.adventurer.equipment.ring = Item { id: 6, xp: 400 }; // Platinum: no name match → nothing
        assert_eq!(
            adventurer_attack_damage(&s.adventurer, &s.beast, true),
            base_crit
        );
    }
}
