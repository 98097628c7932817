//! Small pure formulas and constants of the deployed `ls_0_0_9` rules (docs/game-rules.md): levels,
//! greatness, health, prices, luck, tiers/types by id, rewards and item specials.

use super::catalogue::{self, ItemType, Slot, Tier};
use super::model::{Bag, Equipment, SpecialPowers};

/// The four valid starting weapons: Wand, Book, Short Sword, Club.
pub const STARTING_WEAPONS: [u8; 4] = [12, 16, 46, 76];
/// Health of a fresh adventurer before the starter ambush.
pub const STARTING_HEALTH: u16 = 100;
/// Gold of a fresh adventurer.
pub const STARTING_GOLD: u16 = 40;
/// Health of the level-1 starter beast.
pub const STARTER_BEAST_HEALTH: u16 = 3;
/// Gold cap.
pub const MAX_GOLD: u16 = 511;
/// Adventurer xp cap.
pub const MAX_XP: u16 = 32_767;
/// Absolute health cap.
pub const MAX_HEALTH: u16 = 1023;
/// Cap on unspent stat points.
pub const MAX_STAT_UPGRADES: u8 = 15;
/// Cap on each stored stat.
pub const MAX_STAT_VALUE: u8 = 31;
/// Item xp cap.
pub const MAX_ITEM_XP: u16 = 400;
/// Greatness cap.
pub const MAX_GREATNESS: u8 = 20;
/// Health per vitality point (max health and instant heal on upgrade).
pub const VITALITY_HEALTH: u16 = 15;
/// Health restored per potion.
pub const POTION_HEALTH: u16 = 10;
/// Number of bag slots.
pub const BAG_SIZE: usize = 15;
/// Maximum number of items per `equip` call.
pub const MAX_EQUIP_ITEMS: usize = 8;
/// Beast level from which beasts carry name specials (and are collectable).
pub const BEAST_SPECIAL_NAME_LEVEL: u16 = 19;
/// Greatness from which an item gets its suffix (special1).
pub const SUFFIX_UNLOCK_GREATNESS: u8 = 15;
/// Greatness from which an item gets its name prefix/suffix (special2/3).
pub const PREFIX_UNLOCK_GREATNESS: u8 = 19;
/// Number of beasts / obstacles.
pub const MAX_BEAST_ID: u8 = 75;

/// Integer square root (floor), as the game's `u64` sqrt.
pub fn isqrt(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let n = u128::from(n);
    let mut x = (n as f64).sqrt() as u128;
    while x * x > n {
        x -= 1;
    }
    while (x + 1) * (x + 1) <= n {
        x += 1;
    }
    x as u64
}

/// Adventurer level: 1 at xp 0, else isqrt(xp) (docs/game-rules.md#levels-and-xp).
pub fn level_from_xp(xp: u16) -> u8 {
    if xp == 0 { 1 } else { isqrt(xp.into()) as u8 }
}

/// Item greatness: 1 at xp 0, else min(isqrt(xp), 20) (an empty slot also has greatness 1).
pub fn greatness(xp: u16) -> u8 {
    if xp == 0 {
        1
    } else {
        (isqrt(xp.into()) as u8).min(MAX_GREATNESS)
    }
}

/// Max health: min(100 + 15 × vitality, 1023).
pub fn max_health(vitality: u8) -> u16 {
    (STARTING_HEALTH + VITALITY_HEALTH * u16::from(vitality)).min(MAX_HEALTH)
}

/// Tier multiplier used for attack/armor/gold/xp: T1 5 … T5 1, None 0.
pub fn tier_multiplier(tier: Tier) -> u16 {
    match tier {
        Tier::None => 0,
        Tier::T1 => 5,
        Tier::T2 => 4,
        Tier::T3 => 3,
        Tier::T4 => 2,
        Tier::T5 => 1,
    }
}

/// Base market price by tier: T1 20, T2 16, T3 12, T4 8, T5 4 (None 0).
pub fn tier_price(tier: Tier) -> u16 {
    tier_multiplier(tier) * 4
}

/// Item price after charisma: max(tier price − charisma, 1).
pub fn item_price(tier: Tier, charisma: u8) -> u16 {
    tier_price(tier).saturating_sub(charisma.into()).max(1)
}

/// Potion price: max(level − 2 × charisma, 1).
pub fn potion_price(level: u8, charisma: u8) -> u16 {
    u16::from(level)
        .saturating_sub(2 * u16::from(charisma))
        .max(1)
}

/// Most potions the game accepts and the gold pays for: `health + 10n < max_health + 10` and
/// `n × price ≤ gold` (capped at 255, the u8 argument).
pub fn max_potions(health: u16, max_health: u16, gold: u16, price: u16) -> u8 {
    let room =
        (u32::from(max_health) + u32::from(POTION_HEALTH)).saturating_sub(u32::from(health) + 1);
    let by_health = room / u32::from(POTION_HEALTH);
    let by_gold = u32::from(gold) / u32::from(price.max(1));
    by_health.min(by_gold).min(255) as u8
}

/// Luck (crit chance) from jewelry: greatness of equipped neck and ring (empty counts 1 each), the
/// ring's greatness again for a Silver Ring, plus the greatness of each jewel in the bag.
pub fn luck(equipment: &Equipment, bag: &Bag) -> u8 {
    let mut luck = u16::from(equipment.neck.greatness()) + u16::from(equipment.ring.greatness());
    if equipment.ring.id == 4 {
        luck += u16::from(equipment.ring.greatness());
    }
    for it in bag.iter() {
        if catalogue::item(it.id).is_some_and(|i| matches!(i.slot, Slot::Neck | Slot::Ring)) {
            luck += u16::from(it.greatness());
        }
    }
    luck.min(255) as u8
}

/// Beast tier by id: in each block of 25, ids 1–5 T1 … 21–25 T5; ids outside 1..=75 are T5 as in
/// the game.
pub fn beast_tier(id: u8) -> Tier {
    if id == 0 || id > MAX_BEAST_ID {
        return Tier::T5;
    }
    match (id - 1) % 25 / 5 {
        0 => Tier::T1,
        1 => Tier::T2,
        2 => Tier::T3,
        3 => Tier::T4,
        _ => Tier::T5,
    }
}

/// Beast type by id: 1–25 Magic, 26–50 Blade (hunter), 51–75 Bludgeon (brute), else None.
pub fn beast_type(id: u8) -> ItemType {
    match id {
        1..=25 => ItemType::MagicOrCloth,
        26..=50 => ItemType::BladeOrHide,
        51..=75 => ItemType::BludgeonOrMetal,
        _ => ItemType::None,
    }
}

/// Obstacle tier by id (same pattern as beasts).
pub fn obstacle_tier(id: u8) -> Tier {
    beast_tier(id)
}

/// Obstacle type by id: id < 26 Magic, < 51 Blade, else Bludgeon.
pub fn obstacle_type(id: u8) -> ItemType {
    if id < 26 {
        ItemType::MagicOrCloth
    } else if id < 51 {
        ItemType::BladeOrHide
    } else {
        ItemType::BludgeonOrMetal
    }
}

/// Attack (or armor) hit points of a combatant: level × tier multiplier.
pub fn attack_hp(tier: Tier, level: u16) -> u16 {
    level.saturating_mul(tier_multiplier(tier))
}

/// Gold for killing a beast (before the Gold Ring bonus): tier multiplier × level / 2.
pub fn gold_reward(tier: Tier, level: u16) -> u16 {
    tier_multiplier(tier) * level / 2
}

/// Base xp reward of a beast/obstacle: (MULT × level / 2) × (100 − min(2 × adv_level, 95)) / 100,
/// then at least 4 (docs/game-rules.md#levels-and-xp).
pub fn xp_reward(tier: Tier, level: u16, adventurer_level: u8) -> u16 {
    let base = u32::from(tier_multiplier(tier)) * u32::from(level) / 2;
    let decay = 100 - (2 * u32::from(adventurer_level)).min(95);
    ((base * decay / 100) as u16).max(4)
}

/// Critical-hit chance capped at 100.
pub fn critical_hit_chance(value: u8) -> u8 {
    value.min(100)
}

/// The deployed crit test: chance ≥ 100, or chance × 255 / 100 > rnd.
pub fn is_critical_hit(chance: u8, rnd: u8) -> bool {
    chance >= 100 || u16::from(chance) * 255 / 100 > u16::from(rnd)
}

/// Number of items in each slot, used to derive specials.
fn slot_len(slot: Slot) -> u32 {
    match slot {
        Slot::Weapon => 18,
        Slot::Chest | Slot::Head | Slot::Waist | Slot::Foot | Slot::Hand => 15,
        Slot::Neck => 3,
        Slot::Ring => 5,
        Slot::None => 0,
    }
}

/// Item specials from id, greatness and the adventurer's `item_specials_seed`
/// (docs/game-rules.md#item-specials): none below greatness 15, the suffix from 15, and the name
/// prefix/suffix too from 19.
pub fn item_specials(id: u8, greatness: u8, seed: u16) -> SpecialPowers {
    let Some(info) = catalogue::item(id) else {
        return SpecialPowers::default();
    };
    if greatness < SUFFIX_UNLOCK_GREATNESS {
        return SpecialPowers::default();
    }
    let entropy = seed
        .checked_add(id.into())
        .unwrap_or(seed.wrapping_sub(id.into()));
    let rnd = u32::from(entropy) % 101;
    let s = rnd * slot_len(info.slot) + u32::from(info.slot_index);
    let special1 = (s % 16 + 1) as u8;
    if greatness < PREFIX_UNLOCK_GREATNESS {
        return SpecialPowers {
            special1,
            special2: 0,
            special3: 0,
        };
    }
    SpecialPowers {
        special1,
        special2: (s % 69 + 1) as u8,
        special3: (s % 18 + 1) as u8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Item;

    #[test]
    fn level_vectors() {
        let v: &[(u16, u8)] = &[
            (0, 1),
            (1, 1),
            (2, 1),
            (3, 1),
            (4, 2),
            (8, 2),
            (9, 3),
            (15, 3),
            (16, 4),
            (24, 4),
            (25, 5),
            (35, 5),
            (36, 6),
            (48, 6),
            (49, 7),
            (63, 7),
            (64, 8),
            (80, 8),
            (81, 9),
            (99, 9),
            (100, 10),
            (120, 10),
            (121, 11),
            (143, 11),
            (144, 12),
            (167, 12),
            (192, 13),
            (219, 14),
            (247, 15),
            (276, 16),
            (306, 17),
            (337, 18),
            (369, 19),
            (400, 20),
            (440, 20),
            (441, 21),
            (65535, 255),
        ];
        for &(xp, lvl) in v {
            assert_eq!(level_from_xp(xp), lvl, "xp {xp}");
        }
        assert_eq!(level_from_xp(MAX_XP), 181);
    }

    #[test]
    fn isqrt_exact_around_squares() {
        for n in 0u64..5000 {
            let r = isqrt(n);
            assert!(r * r <= n && (r + 1) * (r + 1) > n, "{n}");
        }
        assert_eq!(
            isqrt(u64::from(u32::MAX) * u64::from(u32::MAX)),
            u64::from(u32::MAX)
        );
    }

    #[test]
    fn greatness_vectors() {
        for (xp, g) in [
            (0, 1),
            (1, 1),
            (4, 2),
            (9, 3),
            (16, 4),
            (100, 10),
            (225, 15),
            (361, 19),
            (400, 20),
            (65535, 20),
        ] {
            assert_eq!(greatness(xp), g, "xp {xp}");
        }
    }

    #[test]
    fn health_vectors() {
        assert_eq!(max_health(0), 100);
        assert_eq!(max_health(1), 115);
        assert_eq!(max_health(255), 1023);
    }

    #[test]
    fn hp_and_price_vectors() {
        for (tier, m) in [
            (Tier::T5, 1),
            (Tier::T4, 2),
            (Tier::T3, 3),
            (Tier::T2, 4),
            (Tier::T1, 5),
        ] {
            assert_eq!(attack_hp(tier, 0), 0);
            assert_eq!(attack_hp(tier, 1), m);
            assert_eq!(attack_hp(tier, 2), 2 * m);
            assert_eq!(attack_hp(tier, 20), 20 * m);
        }
        assert_eq!(
            [Tier::T1, Tier::T2, Tier::T3, Tier::T4, Tier::T5].map(tier_price),
            [20, 16, 12, 8, 4]
        );
        assert_eq!(item_price(Tier::T1, 3), 17);
        assert_eq!(item_price(Tier::T5, 10), 1);
        assert_eq!(potion_price(10, 2), 6);
        assert_eq!(potion_price(2, 5), 1);
        assert_eq!(potion_price(1, 0), 1);
    }

    #[test]
    fn potion_limits() {
        // health + 10n < max + 10: at 95/100 only 1 potion; at 100/100 none.
        assert_eq!(max_potions(95, 100, 100, 1), 1);
        assert_eq!(max_potions(100, 100, 100, 1), 0);
        assert_eq!(max_potions(50, 100, 100, 1), 5);
        assert_eq!(max_potions(50, 100, 7, 2), 3); // gold-limited
        assert_eq!(max_potions(0, 1023, 511, 1), 103);
    }

    #[test]
    fn tier_type_vectors() {
        assert_eq!(beast_tier(1), Tier::T1); // Warlock
        assert_eq!(beast_tier(60), Tier::T2); // Juggernaut
        assert_eq!(beast_tier(40), Tier::T3); // Pegasus
        assert_eq!(beast_tier(16), Tier::T4); // Goblin
        assert_eq!(beast_tier(46), Tier::T5); // Bear
        assert_eq!(beast_tier(76), Tier::T5);
        assert_eq!(beast_tier(255), Tier::T5);
        assert_eq!(beast_type(1), ItemType::MagicOrCloth);
        assert_eq!(beast_type(60), ItemType::BludgeonOrMetal);
        assert_eq!(beast_type(40), ItemType::BladeOrHide);
        assert_eq!(beast_type(16), ItemType::MagicOrCloth);
        assert_eq!(beast_type(46), ItemType::BladeOrHide);
        assert_eq!(beast_type(76), ItemType::None);
        assert_eq!(beast_type(255), ItemType::None);
        for (id, t) in [
            (1, Tier::T1),
            (22, Tier::T5),
            (16, Tier::T4),
            (51, Tier::T1),
            (56, Tier::T2),
            (26, Tier::T1),
            (31, Tier::T2),
            (36, Tier::T3),
            (41, Tier::T4),
            (47, Tier::T5),
        ] {
            assert_eq!(obstacle_tier(id), t, "obstacle {id}");
        }
        assert_eq!(obstacle_type(25), ItemType::MagicOrCloth);
        assert_eq!(obstacle_type(26), ItemType::BladeOrHide);
        assert_eq!(obstacle_type(51), ItemType::BludgeonOrMetal);
    }

    #[test]
    fn reward_and_crit_vectors() {
        for (lvl, g) in [(1, 2), (10, 25), (15, 37), (20, 50)] {
            assert_eq!(gold_reward(Tier::T1, lvl), g);
        }
        assert_eq!(critical_hit_chance(10), 10);
        assert_eq!(critical_hit_chance(105), 100);
        assert_eq!(critical_hit_chance(255), 100);
        for (c, r, e) in [
            (0, 0, false),
            (1, 0, true),
            (1, 2, false),
            (255, 0, true),
            (255, 255, true),
            (100, 255, true),
        ] {
            assert_eq!(is_critical_hit(c, r), e, "({c},{r})");
        }
        // Level-1 starter: T5 level 1 → max(0, 4) = 4 xp.
        assert_eq!(xp_reward(Tier::T5, 1, 1), 4);
        // T1 level 20 beast at adventurer level 10: (5*20/2)=50 * 80/100 = 40.
        assert_eq!(xp_reward(Tier::T1, 20, 10), 40);
        // Decay floors at 5%.
        assert_eq!(xp_reward(Tier::T1, 200, 100), 25);
    }

    #[test]
    fn luck_from_jewelry() {
        let mut eq = Equipment::default();
        let mut bag = Bag::default();
        assert_eq!(luck(&eq, &bag), 2, "empty neck and ring count 1 each");
        eq.ring = Item { id: 4, xp: 16 }; // Silver Ring G4 counts twice
        assert_eq!(luck(&eq, &bag), 1 + 4 + 4);
        bag.items[3] = Item { id: 1, xp: 9 }; // Pendant G3 in bag
        bag.items[4] = Item { id: 46, xp: 400 }; // not jewelry
        assert_eq!(luck(&eq, &bag), 1 + 4 + 4 + 3);
    }

    #[test]
    fn specials_unlock_by_greatness() {
        assert_eq!(item_specials(42, 14, 1234), SpecialPowers::default());
        let s15 = item_specials(42, 15, 1234);
        assert!(s15.special1 >= 1 && s15.special1 <= 16);
        assert_eq!((s15.special2, s15.special3), (0, 0));
        let s19 = item_specials(42, 19, 1234);
        assert_eq!(s19.special1, s15.special1);
        // Katana: slot Weapon (18), slot_index 5; entropy 1276 % 101 = 64; s = 64*18+5 = 1157.
        assert_eq!(
            s19,
            SpecialPowers {
                special1: (1157 % 16 + 1) as u8,
                special2: (1157 % 69 + 1) as u8,
                special3: (1157 % 18 + 1) as u8
            }
        );
        // Overflowing entropy falls back to seed - id.
        let so = item_specials(42, 20, u16::MAX);
        let s = (u32::from(u16::MAX - 42) % 101) * 18 + 5;
        assert_eq!(so.special1, (s % 16 + 1) as u8);
        assert_eq!(item_specials(0, 20, 5), SpecialPowers::default());
    }
}
