//! Property tests of the rules over many deterministic pseudo-random inputs: packing and felt
//! round-trips, caps, and monotonicity of levels, prices, damage and odds.

use super::catalogue::{ItemType, Slot, Tier};
use super::combat;
use super::model::{Adventurer, Bag, BeastEvent, Equipment, GameState, Item, Stats};
use super::testing::Rng;
use super::{pack, random, rules};

const CASES: u64 = 2000;

fn item(rng: &mut Rng) -> Item {
    Item {
        id: rng.below(102) as u8,
        xp: rng.below(512) as u16,
    }
}

fn stored_adventurer(rng: &mut Rng) -> Adventurer {
    let mut stat = || rng.below(32) as u8;
    let stats = Stats {
        strength: stat(),
        dexterity: stat(),
        vitality: stat(),
        intelligence: stat(),
        wisdom: stat(),
        charisma: stat(),
        luck: 0,
    };
    Adventurer {
        health: rng.below(1024) as u16,
        xp: rng.below(32_768) as u16,
        gold: rng.below(512) as u16,
        beast_health: rng.below(1024) as u16,
        stat_upgrades_available: rng.below(16) as u8,
        stats,
        equipment: Equipment {
            weapon: item(rng),
            chest: item(rng),
            head: item(rng),
            waist: item(rng),
            foot: item(rng),
            hand: item(rng),
            neck: item(rng),
            ring: item(rng),
        },
        item_specials_seed: rng.next() as u16,
        action_count: rng.next() as u16,
    }
}

#[test]
fn packing_round_trips() {
    let mut rng = Rng(1);
    for _ in 0..CASES {
        let a = stored_adventurer(&mut rng);
        let p = pack::pack_adventurer(&a).unwrap();
        assert_eq!(pack::unpack_adventurer(p).unwrap(), a);
        let mut bag = Bag::default();
        for it in bag.items.iter_mut() {
            *it = item(&mut rng);
        }
        let p = pack::pack_bag(&bag).unwrap();
        assert_eq!(pack::unpack_bag(p).unwrap(), bag);
    }
}

#[test]
fn packing_rejects_what_the_contract_rejects() {
    let mut rng = Rng(2);
    for _ in 0..CASES {
        let mut a = stored_adventurer(&mut rng);
        match rng.below(5) {
            0 => a.health = 1024 + rng.below(1000) as u16,
            1 => a.gold = 512 + rng.below(1000) as u16,
            2 => a.xp = 32_768 + rng.below(1000) as u16,
            3 => a.stats.charisma = 32 + rng.below(200) as u8,
            _ => a.stat_upgrades_available = 16 + rng.below(200) as u8,
        }
        assert!(pack::pack_adventurer(&a).is_err(), "{a:?}");
    }
}

#[test]
fn felt_encoding_round_trips() {
    let mut rng = Rng(3);
    for _ in 0..CASES / 4 {
        let mut bag = Bag::default();
        for it in bag.items.iter_mut() {
            *it = item(&mut rng);
        }
        let mut adventurer = stored_adventurer(&mut rng);
        adventurer.stats.luck = rng.next() as u8;
        let market_len = rng.below(26) as usize;
        let s = GameState {
            adventurer,
            bag,
            beast: BeastEvent {
                id: rng.below(76) as u8,
                seed: rng.next(),
                health: rng.next() as u16,
                level: rng.next() as u16,
                specials: Default::default(),
                is_collectable: rng.below(2) == 1,
            },
            market: (0..market_len).map(|_| 1 + rng.below(101) as u8).collect(),
        };
        assert_eq!(GameState::decode_felts(&s.to_felts()).unwrap(), s);
    }
}

#[test]
fn caps_hold() {
    let mut rng = Rng(4);
    for _ in 0..CASES {
        let v = rng.next() as u8;
        assert!(rules::max_health(v) <= rules::MAX_HEALTH);
        let xp = rng.next() as u16;
        assert!(rules::greatness(xp) <= rules::MAX_GREATNESS && rules::greatness(xp) >= 1);
        let tier = Tier::from_index(rng.below(6) as u8).unwrap();
        assert!(rules::item_price(tier, rng.next() as u8) >= 1);
        assert!(rules::potion_price(rng.next() as u8, rng.next() as u8) >= 1);
        let level = 1 + rng.below(255) as u8;
        let bl = random::random_level(level, rng.next() as u16);
        assert!(bl >= 1 && bl <= 3 * u16::from(level) + 80);
        let bh = random::beast_health(level, rng.next() as u16);
        assert!((1..=rules::MAX_HEALTH).contains(&bh));
        assert!(rules::xp_reward(tier, rng.next() as u16, level) >= 4);
        let (h, m) = (rng.below(1100) as u16, rules::max_health(rng.next() as u8));
        let n = rules::max_potions(h, m, rng.below(512) as u16, 1 + rng.below(50) as u16);
        if n > 0 {
            assert!(u32::from(h) + 10 * u32::from(n) < u32::from(m) + 10);
        }
        let market = random::market_items(rng.next(), rng.next(), 25);
        assert!(market.len() <= 25 && market.iter().all(|&i| (1..=101).contains(&i)));
        let reduction = combat::ability_damage_reduction(level, rng.next() as u8);
        assert!(reduction <= 100);
        assert!(combat::apply_damage_reduction(xp, rng.next() as u8) <= xp);
    }
}

#[test]
fn monotone_in_xp_charisma_and_level() {
    for xp in 0..u16::MAX {
        assert!(rules::level_from_xp(xp + 1) >= rules::level_from_xp(xp));
        assert!(rules::greatness(xp + 1) >= rules::greatness(xp));
    }
    for tier in [Tier::T1, Tier::T2, Tier::T3, Tier::T4, Tier::T5] {
        for cha in 0..255u8 {
            assert!(rules::item_price(tier, cha + 1) <= rules::item_price(tier, cha));
        }
        for lvl in 1..255u8 {
            for beast_level in [1u16, 10, 50, 200] {
                assert!(
                    rules::xp_reward(tier, beast_level, lvl + 1)
                        <= rules::xp_reward(tier, beast_level, lvl)
                );
                assert!(
                    rules::xp_reward(tier, beast_level + 1, lvl)
                        >= rules::xp_reward(tier, beast_level, lvl)
                );
            }
        }
    }
    for lvl in 1..255u8 {
        for cha in 0..100u8 {
            assert!(rules::potion_price(lvl, cha + 1) <= rules::potion_price(lvl, cha));
            assert!(rules::potion_price(lvl + 1, cha) >= rules::potion_price(lvl, cha));
        }
        for stat in 0..255u8 {
            assert!(
                combat::avoid_threat_probability(lvl, stat + 1)
                    >= combat::avoid_threat_probability(lvl, stat)
            );
            assert!(
                combat::ability_damage_reduction(lvl, stat + 1)
                    >= combat::ability_damage_reduction(lvl, stat)
            );
        }
    }
    for v in 0..255u8 {
        assert!(rules::max_health(v + 1) >= rules::max_health(v));
        assert!(combat::critical_hit_probability(v + 1) >= combat::critical_hit_probability(v));
    }
}

#[test]
fn damage_is_monotone_in_greatness_strength_and_armor() {
    let mut rng = Rng(5);
    for _ in 0..CASES / 4 {
        let weapon_id = 9 + rng.below(8) as u8;
        let beast = BeastEvent {
            id: 1 + rng.below(75) as u8,
            level: 1 + rng.below(60) as u16,
            ..Default::default()
        };
        let mut adv = Adventurer {
            health: 100,
            ..Default::default()
        };
        let crit = rng.below(2) == 1;
        let mut last = 0;
        for xp in (0..=400u16).step_by(13) {
            adv.equipment.weapon = Item { id: weapon_id, xp };
            let d = combat::adventurer_attack_damage(&adv, &beast, crit);
            assert!(d >= last && d >= combat::ADVENTURER_MIN_DAMAGE);
            last = d;
        }
        let mut last = 0;
        for strength in 0..40u8 {
            adv.stats.strength = strength;
            let d = combat::adventurer_attack_damage(&adv, &beast, crit);
            assert!(d >= last);
            last = d;
        }
        let armor_id = 17 + 5 * rng.below(17) as u8;
        if matches!(
            crate::catalogue::item(armor_id).map(|i| i.slot),
            Some(Slot::Weapon)
        ) {
            continue;
        }
        let slot = crate::catalogue::item(armor_id).unwrap().slot;
        let mut last = u16::MAX;
        for xp in (1..=400u16).step_by(17) {
            adv.equipment.set(slot, Item { id: armor_id, xp });
            let d = combat::beast_attack_damage(&adv, &beast, slot, crit);
            assert!(d <= last && d >= combat::BEAST_MIN_DAMAGE);
            last = d;
        }
        let obstacle = 1 + rng.below(75) as u8;
        assert!(
            combat::obstacle_hit(&adv, obstacle, beast.level, slot, crit, true)
                >= combat::OBSTACLE_MIN_DAMAGE
        );
    }
}

#[test]
fn effectiveness_is_a_cycle() {
    use ItemType::*;
    let types = [MagicOrCloth, BladeOrHide, BludgeonOrMetal];
    for (i, w) in types.iter().enumerate() {
        for (j, a) in types.iter().enumerate() {
            let e = combat::effectiveness(*w, *a);
            let expected = match (j + 3 - i) % 3 {
                0 => combat::Effectiveness::Fair,
                1 => combat::Effectiveness::Weak,
                _ => combat::Effectiveness::Strong,
            };
            assert_eq!(e, expected, "{w:?} vs {a:?}");
        }
    }
}
