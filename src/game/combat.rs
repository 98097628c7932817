//! Combat formulas of `ls_0_0_9` (game.md §4.3) and a battle preview (damage both ways, crit,
//! flee and win odds) so `ls_battle_preview` can advise without touching the chain.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::catalogue::{self, ItemType, Slot, Tier};
use super::model::{Adventurer, BeastEvent, GameState, Item, SpecialPowers};
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

/// Weapon-vs-armor effectiveness (game.md §4.3); non-combat weapon types are Fair, and any weapon
/// is Strong against no armor.
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

/// `calculate_damage` of game.md §4.3 for a given crit outcome.
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
    let weapon = CombatSpec::of_item(adv.equipment.weapon, adv.item_specials_seed);
    let d = calculate_damage(
        &weapon,
        &CombatSpec::of_beast(beast),
        ADVENTURER_MIN_DAMAGE,
        adv.stats.strength,
        critical,
    );
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
    let item = adv.equipment.get(slot);
    let armor = CombatSpec::of_item(item, adv.item_specials_seed);
    let d = calculate_damage(
        &CombatSpec::of_beast(beast),
        &armor,
        BEAST_MIN_DAMAGE,
        0,
        critical,
    );
    let neck = adv.equipment.neck;
    let protects = matches!(
        (neck.id, armor.item_type),
        (3, ItemType::MagicOrCloth) | (1, ItemType::BladeOrHide) | (2, ItemType::BludgeonOrMetal)
    );
    if !protects {
        return d.total;
    }
    let base_armor = u32::from(rules::attack_hp(armor.tier, armor.level));
    let bonus = base_armor * 3 * u32::from(neck.greatness()) / 100;
    let total = u32::from(d.total);
    if total > bonus + u32::from(BEAST_MIN_DAMAGE) {
        (total - bonus) as u16
    } else {
        BEAST_MIN_DAMAGE
    }
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
fn slot_probability(index: usize) -> f64 {
    (0..=255u16)
        .filter(|r| usize::from(*r % 5) == index)
        .count() as f64
        / 256.0
}

/// Preview of a beast's hit on one armor slot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SlotHitPreview {
    /// Armor slot hit.
    pub slot: Slot,
    /// Damage without a crit.
    pub damage: u16,
    /// Damage with a crit.
    pub critical_damage: u16,
}

/// What fighting (or fleeing) the current beast looks like: deterministic damage numbers plus
/// probabilities, treating the contract's random bytes as uniform and independent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BattlePreview {
    /// Beast id.
    pub beast_id: u8,
    /// Beast name with specials.
    pub beast_name: String,
    /// Beast level.
    pub beast_level: u16,
    /// Beast's remaining health.
    pub beast_health: u16,
    /// Your weapon's effectiveness against the beast's armor type.
    pub effectiveness: Effectiveness,
    /// Your damage per hit without a crit.
    pub damage: u16,
    /// Your damage per hit with a crit.
    pub critical_damage: u16,
    /// Your crit probability per hit (from luck).
    pub critical_chance: f64,
    /// Hits needed without crits.
    pub hits_to_kill: u16,
    /// The beast's damage by armor slot.
    pub beast_damage: Vec<SlotHitPreview>,
    /// The beast's crit probability per hit (adventurer level %).
    pub beast_critical_chance: f64,
    /// Expected damage of one beast hit.
    pub beast_expected_damage: f64,
    /// Your health.
    pub health: u16,
    /// Probability of killing the beast before dying when attacking to the death.
    pub win_probability: f64,
    /// Probability of one flee attempt succeeding (None when fleeing is not allowed).
    pub flee_chance: Option<f64>,
    /// Probability of escaping alive when fleeing to the death (None when not allowed).
    pub flee_to_the_death_probability: Option<f64>,
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// Outcome distribution of one beast hit: (probability, damage).
fn beast_hit_distribution(adv: &Adventurer, beast: &BeastEvent) -> Vec<(f64, u16)> {
    let p_crit = critical_hit_probability(rules::critical_hit_chance(adv.level()));
    let mut out = Vec::with_capacity(10);
    for (i, slot) in ARMOR_SLOTS.iter().enumerate() {
        let ps = slot_probability(i);
        out.push((
            ps * (1.0 - p_crit),
            beast_attack_damage(adv, beast, *slot, false),
        ));
        out.push((ps * p_crit, beast_attack_damage(adv, beast, *slot, true)));
    }
    out.retain(|(p, _)| *p > 0.0);
    out
}

/// Probability of killing a beast with `beast_hp` left before dying from `adv_hp`, alternating
/// adventurer hit then beast hit (exact over the given distributions).
fn win_probability(
    beast_hp: u16,
    adv_hp: u16,
    adv_hits: &[(f64, u16)],
    beast_hits: &[(f64, u16)],
) -> f64 {
    if beast_hp == 0 {
        return 1.0;
    }
    if adv_hp == 0 {
        return 0.0;
    }
    let (bh, ah) = (usize::from(beast_hp), usize::from(adv_hp));
    // f[b][a]: win probability with b beast hp and a adventurer hp left (both ≥ 1).
    let mut f = vec![0.0f64; (bh + 1) * (ah + 1)];
    let idx = |b: usize, a: usize| b * (ah + 1) + a;
    for b in 1..=bh {
        for a in 1..=ah {
            let mut p = 0.0;
            for &(pa, da) in adv_hits {
                let da = usize::from(da.max(1));
                if da >= b {
                    p += pa;
                    continue;
                }
                for &(pb, db) in beast_hits {
                    let db = usize::from(db.max(1));
                    if db < a {
                        p += pa * pb * f[idx(b - da, a - db)];
                    }
                }
            }
            f[idx(b, a)] = p;
        }
    }
    f[idx(bh, ah)]
}

/// Probability of escaping alive when fleeing to the death with `adv_hp` health.
fn flee_probability(adv_hp: u16, p_flee: f64, beast_hits: &[(f64, u16)]) -> f64 {
    let ah = usize::from(adv_hp);
    let mut g = vec![0.0f64; ah + 1];
    for a in 1..=ah {
        let mut p = p_flee;
        for &(pb, db) in beast_hits {
            let db = usize::from(db.max(1));
            if db < a {
                p += (1.0 - p_flee) * pb * g[a - db];
            }
        }
        g[a] = p;
    }
    g[ah]
}

/// Previews a fight between the adventurer and `beast` with `beast_health` left.
pub fn battle_preview_against(
    adv: &Adventurer,
    beast: &BeastEvent,
    beast_health: u16,
) -> BattlePreview {
    let level = adv.level();
    let weapon = CombatSpec::of_item(adv.equipment.weapon, adv.item_specials_seed);
    let beast_spec = CombatSpec::of_beast(beast);
    let damage = adventurer_attack_damage(adv, beast, false);
    let critical_damage = adventurer_attack_damage(adv, beast, true);
    let p_crit = critical_hit_probability(adv.stats.luck);
    let beast_hits = beast_hit_distribution(adv, beast);
    let beast_damage: Vec<SlotHitPreview> = ARMOR_SLOTS
        .iter()
        .map(|&slot| SlotHitPreview {
            slot,
            damage: beast_attack_damage(adv, beast, slot, false),
            critical_damage: beast_attack_damage(adv, beast, slot, true),
        })
        .collect();
    let expected: f64 = beast_hits.iter().map(|(p, d)| p * f64::from(*d)).sum();
    let adv_hits = [(1.0 - p_crit, damage), (p_crit, critical_damage)];
    let can_flee = level > 1 && adv.stats.dexterity > 0;
    let p_flee = avoid_threat_probability(level, adv.stats.dexterity);
    let base = catalogue::beast(beast.id).map_or_else(
        || format!("Unknown beast #{}", beast.id),
        |b| b.name.to_string(),
    );
    BattlePreview {
        beast_id: beast.id,
        beast_name: beast.specials.full_name(&base),
        beast_level: beast.level,
        beast_health,
        effectiveness: effectiveness(weapon.item_type, beast_spec.item_type),
        damage,
        critical_damage,
        critical_chance: round4(p_crit),
        hits_to_kill: beast_health.div_ceil(damage.max(1)),
        beast_damage,
        beast_critical_chance: round4(critical_hit_probability(rules::critical_hit_chance(level))),
        beast_expected_damage: round4(expected),
        health: adv.health,
        win_probability: round4(win_probability(
            beast_health,
            adv.health,
            &adv_hits,
            &beast_hits,
        )),
        flee_chance: can_flee.then(|| round4(p_flee)),
        flee_to_the_death_probability: can_flee
            .then(|| round4(flee_probability(adv.health, p_flee, &beast_hits))),
    }
}

/// Previews the current fight; `None` when the adventurer is not in battle.
pub fn battle_preview(state: &GameState) -> Option<BattlePreview> {
    let adv = &state.adventurer;
    (adv.health > 0 && adv.beast_health > 0)
        .then(|| battle_preview_against(adv, &state.beast, adv.beast_health))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::model::tests::sample_state;
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
    fn starter_beast_dies_in_one_hit() {
        // Wand (T5, G1) vs Troll (T5 brute, level 1): base 1, Magic vs Metal strong → 1, min 4 ≥ 3.
        let adv = Adventurer {
            health: 90,
            beast_health: 3,
            equipment: crate::game::model::Equipment {
                weapon: Item { id: 12, xp: 0 },
                ..Default::default()
            },
            ..Default::default()
        };
        let troll = BeastEvent {
            id: 71,
            health: 3,
            level: 1,
            ..Default::default()
        };
        assert_eq!(adventurer_attack_damage(&adv, &troll, false), 4);
        let p = battle_preview_against(&adv, &troll, 3);
        assert_eq!(p.win_probability, 1.0);
        assert_eq!(p.hits_to_kill, 1);
        assert_eq!(p.flee_chance, Option::None, "level 1 cannot flee");
        assert_eq!(p.effectiveness, Effectiveness::Strong);
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

    #[test]
    fn preview_of_a_hard_fight() {
        let mut s = sample_state();
        s.adventurer.beast_health = 40;
        let p = battle_preview(&s).unwrap();
        assert_eq!(p.beast_name, "Demon Grasp Dragon");
        assert_eq!(p.damage, 4);
        assert_eq!(p.hits_to_kill, 10);
        assert_eq!(p.beast_damage.len(), 5);
        // 120 health vs ≥97 per hit: cannot survive 9 counter-attacks.
        assert_eq!(p.win_probability, 0.0);
        let f = p.flee_chance.unwrap();
        assert!(f > 0.0 && f < 1.0);
        let ftd = p.flee_to_the_death_probability.unwrap();
        assert!(ftd >= f && ftd < 1.0, "{ftd} vs {f}");
        s.adventurer.beast_health = 0;
        assert!(battle_preview(&s).is_none());
    }

    #[test]
    fn win_probability_is_exact_on_small_cases() {
        // Adventurer always deals 5, beast always deals 3: beast 10 hp dies on hit 2, adventurer
        // takes one hit → wins with 4 hp, loses with 3.
        assert_eq!(win_probability(10, 4, &[(1.0, 5)], &[(1.0, 3)]), 1.0);
        assert_eq!(win_probability(10, 3, &[(1.0, 5)], &[(1.0, 3)]), 0.0);
        // Coin-flip crit: 50% one-shot.
        let w = win_probability(10, 3, &[(0.5, 5), (0.5, 10)], &[(1.0, 3)]);
        assert!((w - 0.5).abs() < 1e-12);
        // Flee: 50% per attempt, beast deals 3, 7 hp → 3 attempts survive 2 failures.
        let g = flee_probability(7, 0.5, &[(1.0, 3)]);
        assert!((g - 0.875).abs() < 1e-12, "{g}");
    }
}
