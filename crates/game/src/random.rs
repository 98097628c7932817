//! The game's randomness pipeline and the pure generators driven by it
//! (docs/game-rules.md#randomness, #beasts, #obstacles, #discoveries, #market): VRF salts, seed
//! splitting, beasts, obstacles, discoveries, starting stats and the market. Used to build VRF
//! `request_random` salts and by a practice (no-VRF) engine.

use starknet_crypto::poseidon_hash_many;
use starknet_types_core::felt::Felt;

use super::catalogue::{self, ItemType};
use super::events::{Discovery, ItemRef};
use super::id::AdventurerId;
use super::model::{BeastEvent, SpecialPowers, Stats};
use super::rules;

/// Salt for out-of-battle randomness (explore, start with custom settings):
/// `poseidon([xp, adventurer_id])`.
pub fn explore_salt(adventurer_id: AdventurerId, xp: u16) -> Felt {
    poseidon_hash_many(&[Felt::from(xp), adventurer_id.felt()])
}

/// Salt for in-battle randomness (attack, flee, equip in battle):
/// `poseidon([xp, adventurer_id, action_count + 1])`, with `action_count` read *before* the
/// transaction (the contract increments it first; u16 wrap-around included).
pub fn battle_salt(adventurer_id: AdventurerId, xp: u16, action_count_before: u16) -> Felt {
    poseidon_hash_many(&[
        Felt::from(xp),
        adventurer_id.felt(),
        Felt::from(action_count_before.wrapping_add(1)),
    ])
}

/// Splits a felt into two u64 seeds: low 128 bits → (high 64, low 64).
pub fn felt_to_two_u64(f: Felt) -> (u64, u64) {
    let b = f.to_bytes_be();
    let a = u64::from_be_bytes(b[16..24].try_into().expect("8 bytes"));
    let c = u64::from_be_bytes(b[24..32].try_into().expect("8 bytes"));
    (a, c)
}

/// The seed the contract derives without VRF (practice worlds, non-mainnet chains):
/// `poseidon([xp, adventurer_id])` (or `poseidon([xp, game_seed])` with a fixed game seed).
pub fn local_seed(xp: u16, adventurer_id_or_game_seed: impl Into<Felt>) -> Felt {
    poseidon_hash_many(&[Felt::from(xp), adventurer_id_or_game_seed.into()])
}

/// The eight values of `get_randomness(xp, seed)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Randomness {
    /// r1_32: beast/obstacle id seed.
    pub r1_u32: u32,
    /// r2_32 (unused by explore).
    pub r2_u32: u32,
    /// r1_16: beast health / item-specials rnd.
    pub r1_u16: u16,
    /// r2_16: beast/obstacle level rnd.
    pub r2_u16: u16,
    /// r1_8: special2 / location / discovery type.
    pub r1_u8: u8,
    /// r2_8: special3 / crit / discovery amount.
    pub r2_u8: u8,
    /// r3_8: ambush / dodge / loot item.
    pub r3_u8: u8,
    /// r4_8: explore outcome (`% 3`).
    pub r4_u8: u8,
}

/// `get_randomness(xp, seed)`: poseidon([xp, seed]) split into 2×u32, 2×u16, 4×u8.
pub fn get_randomness(xp: u16, seed: u64) -> Randomness {
    let (a, b) = felt_to_two_u64(poseidon_hash_many(&[Felt::from(xp), Felt::from(seed)]));
    let r3_32 = (b >> 32) as u32;
    let r4_32 = (b & 0xffff_ffff) as u32;
    let r3_16 = (r4_32 >> 16) as u16;
    let r4_16 = (r4_32 & 0xffff) as u16;
    Randomness {
        r1_u32: (a >> 32) as u32,
        r2_u32: (a & 0xffff_ffff) as u32,
        r1_u16: (r3_32 >> 16) as u16,
        r2_u16: (r3_32 & 0xffff) as u16,
        r1_u8: (r3_16 >> 8) as u8,
        r2_u8: (r3_16 & 0xff) as u8,
        r3_u8: (r4_16 >> 8) as u8,
        r4_u8: (r4_16 & 0xff) as u8,
    }
}

/// `get_battle_randomness(xp, action_count, seed)`: the big-endian bytes of
/// `poseidon([xp, seed, action_count]) mod 2^32`.
pub fn get_battle_randomness(xp: u16, action_count: u16, seed: u64) -> [u8; 4] {
    let h = poseidon_hash_many(&[Felt::from(xp), Felt::from(seed), Felt::from(action_count)]);
    let b = h.to_bytes_be();
    [b[28], b[29], b[30], b[31]]
}

/// What an explore step meets (`explore_rnd % 3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExploreOutcome {
    /// A beast.
    Beast,
    /// An obstacle.
    Obstacle,
    /// A discovery.
    Discovery,
}

/// Explore outcome from the last random byte.
pub fn explore_outcome(explore_rnd: u8) -> ExploreOutcome {
    match explore_rnd % 3 {
        0 => ExploreOutcome::Beast,
        1 => ExploreOutcome::Obstacle,
        _ => ExploreOutcome::Discovery,
    }
}

/// Beast or obstacle level: `1 + level_rnd % (3 × level)` plus 10/20/40/80 from adventurer level
/// 20/30/40/50.
pub fn random_level(adventurer_level: u8, level_rnd: u16) -> u16 {
    let lvl = u16::from(adventurer_level.max(1));
    let bonus = match adventurer_level {
        50.. => 80,
        40..=49 => 40,
        30..=39 => 20,
        20..=29 => 10,
        _ => 0,
    };
    1 + level_rnd % (3 * lvl) + bonus
}

/// Beast starting health: `min(1 + health_rnd % (20 × level) + 10/100/200/400/500, 1023)`.
pub fn beast_health(adventurer_level: u8, health_rnd: u16) -> u16 {
    let lvl = u32::from(adventurer_level.max(1));
    let bonus = match adventurer_level {
        50.. => 500,
        40..=49 => 400,
        30..=39 => 200,
        20..=29 => 100,
        _ => 10,
    };
    (1 + u32::from(health_rnd) % (20 * lvl) + bonus).min(rules::MAX_HEALTH.into()) as u16
}

/// The starter beast for a weapon type: Magic → Troll (71), Blade → Fairy (21), Bludgeon → Bear (46);
/// 0 without a weapon (an adventurer that has not started).
pub fn starter_beast_id(weapon_type: ItemType) -> u8 {
    match weapon_type {
        ItemType::MagicOrCloth => 71,
        ItemType::BladeOrHide => 21,
        ItemType::BludgeonOrMetal => 46,
        _ => 0,
    }
}

/// `get_beast`: the starter beast at level 1, otherwise a random beast (id, level, health,
/// specials from level 19). `seed` is returned as the event seed.
pub fn generate_beast(
    adventurer_level: u8,
    weapon_type: ItemType,
    r: &Randomness,
    seed: u64,
) -> BeastEvent {
    if adventurer_level <= 1 {
        return BeastEvent {
            id: starter_beast_id(weapon_type),
            seed,
            health: rules::STARTER_BEAST_HEALTH,
            level: 1,
            specials: SpecialPowers::default(),
            is_collectable: false,
        };
    }
    let level = random_level(adventurer_level, r.r2_u16);
    let specials = if level >= rules::BEAST_SPECIAL_NAME_LEVEL {
        SpecialPowers {
            special1: 0,
            special2: 1 + r.r1_u8 % 69,
            special3: 1 + r.r2_u8 % 18,
        }
    } else {
        SpecialPowers::default()
    };
    BeastEvent {
        id: (r.r1_u32 % 75 + 1) as u8,
        seed,
        health: beast_health(adventurer_level, r.r1_u16),
        level,
        specials,
        is_collectable: level >= rules::BEAST_SPECIAL_NAME_LEVEL,
    }
}

/// Obstacle id from the id seed: `seed % 75 + 1`.
pub fn obstacle_id(seed: u32) -> u8 {
    (seed % 75 + 1) as u8
}

/// `pct(r) = (r × 100 + 127) / 255`: a byte as a rounded percentage.
fn pct(r: u8) -> u16 {
    (u16::from(r) * 100 + 127) / 255
}

/// `get_discovery`: gold (45%), health (45%) or loot (10%, tier by a second roll, item from the
/// tier list of docs/game-rules.md#discoveries).
pub fn discovery(
    adventurer_level: u8,
    type_rnd: u8,
    amount_rnd1: u8,
    amount_rnd2: u8,
) -> Discovery {
    let lvl = adventurer_level.max(1);
    let t = pct(type_rnd);
    if t < 45 {
        Discovery::Gold {
            amount: u16::from(amount_rnd1 % lvl) + 1,
        }
    } else if t < 90 {
        Discovery::Health {
            amount: (u16::from(amount_rnd1 % lvl) + 1) * 2,
        }
    } else {
        let list: &[u8] = match pct(amount_rnd1) {
            0..=49 => &catalogue::LOOT_T5,
            50..=79 => &catalogue::LOOT_T4,
            80..=91 => &catalogue::LOOT_T3,
            92..=97 => &catalogue::LOOT_T2,
            _ => &catalogue::LOOT_T1,
        };
        Discovery::Loot {
            item: ItemRef::new(list[usize::from(amount_rnd2) % list.len()]),
        }
    }
}

/// `generate_starting_stats(seed)`: 12 points, each `(seed, r) = divmod(seed, 6)` →
/// str/dex/vit/int/wis/cha.
pub fn starting_stats(seed: u64) -> Stats {
    let mut s = Stats::default();
    let mut seed = seed;
    for _ in 0..12 {
        let r = seed % 6;
        seed /= 6;
        match r {
            0 => s.strength += 1,
            1 => s.dexterity += 1,
            2 => s.vitality += 1,
            3 => s.intelligence += 1,
            4 => s.wisdom += 1,
            _ => s.charisma += 1,
        }
    }
    s
}

/// The deployed market list: bytes of `poseidon([adventurer_id, market_seed])` (least significant
/// first, at most 31), keeping `b % 101 + 1` for each byte `b < 202`, up to `market_size` items.
/// May contain duplicates and be shorter than `market_size`.
pub fn market_items(adventurer_id: impl Into<Felt>, market_seed: u64, market_size: u8) -> Vec<u8> {
    let h = poseidon_hash_many(&[adventurer_id.into(), Felt::from(market_seed)]);
    let bytes = h.to_bytes_le();
    let mut out = Vec::new();
    for &b in bytes.iter().take(31) {
        if out.len() >= usize::from(market_size) {
            break;
        }
        if b < 202 {
            out.push(b % 101 + 1);
        }
    }
    out
}

/// The legacy market list (Provable-Games commit `b0735d10`, not the deployed one): all 101 items
/// when `market_size >= 101`, else `market_size` distinct items `((seed / 100 + (1 + seed % 100) × i)
/// % 101) + 1` (distinct because 101 is prime).
pub fn legacy_market_items(seed: u64, market_size: u8) -> Vec<u8> {
    if market_size >= 101 {
        return (1..=101).collect();
    }
    let market_seed = u128::from(seed / 100);
    let offset = u128::from(1 + seed % 100);
    (0..u128::from(market_size))
        .map(|i| ((market_seed + offset * i) % 101 + 1) as u8)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::Tier;

    #[test]
    fn legacy_market() {
        assert_eq!(legacy_market_items(0, 101), (1..=101).collect::<Vec<u8>>());
        assert_eq!(legacy_market_items(7, 255).len(), 101);
        // seed 1234: market seed 12, offset 35 → 13, 48, 83, 17, …
        assert_eq!(legacy_market_items(1234, 4), vec![13, 48, 83, 17]);
        for seed in [0u64, 1, 99, 100, 12_345, u64::MAX] {
            let m = legacy_market_items(seed, 100);
            let mut u = m.clone();
            u.sort_unstable();
            u.dedup();
            assert_eq!(u.len(), 100, "distinct for seed {seed}");
            assert!(m.iter().all(|&i| (1..=101).contains(&i)));
        }
        assert!(legacy_market_items(5, 0).is_empty());
    }

    #[test]
    fn splits_low_128_bits() {
        let f = Felt::from((7u128 << 64) | 9) + Felt::from(1u128 << 127) * Felt::TWO; // bit 128 set too
        assert_eq!(felt_to_two_u64(f), (7, 9));
        assert_eq!(felt_to_two_u64(Felt::from(u128::MAX)), (u64::MAX, u64::MAX));
    }

    #[test]
    fn randomness_is_the_documented_split() {
        let r = get_randomness(10, 12345);
        let (a, b) = felt_to_two_u64(poseidon_hash_many(&[
            Felt::from(10u16),
            Felt::from(12345u64),
        ]));
        assert_eq!(u64::from(r.r1_u32) << 32 | u64::from(r.r2_u32), a);
        let r4_32 = b as u32;
        assert_eq!(
            (u32::from(r.r1_u16) << 16) | u32::from(r.r2_u16),
            (b >> 32) as u32
        );
        assert_eq!(
            u32::from(r.r1_u8) << 24
                | u32::from(r.r2_u8) << 16
                | u32::from(r.r3_u8) << 8
                | u32::from(r.r4_u8),
            r4_32
        );
        assert_ne!(get_randomness(11, 12345), r, "xp feeds the hash");
        let br = get_battle_randomness(10, 3, 12345);
        let h = poseidon_hash_many(&[Felt::from(10u16), Felt::from(12345u64), Felt::from(3u16)]);
        assert_eq!(
            u32::from_be_bytes(br),
            (felt_to_two_u64(h).1 & 0xffff_ffff) as u32
        );
    }

    #[test]
    fn salts() {
        assert_eq!(
            explore_salt(5.into(), 0),
            poseidon_hash_many(&[Felt::ZERO, Felt::from(5u8)])
        );
        assert_eq!(
            battle_salt(5.into(), 4, 1),
            poseidon_hash_many(&[Felt::from(4u8), Felt::from(5u8), Felt::TWO])
        );
        assert_eq!(
            battle_salt(5.into(), 4, u16::MAX),
            poseidon_hash_many(&[Felt::from(4u8), Felt::from(5u8), Felt::ZERO])
        );
        assert_eq!(local_seed(0, 5), explore_salt(5.into(), 0));
    }

    #[test]
    fn beasts() {
        let r = Randomness {
            r1_u32: 28,
            r1_u16: 500,
            r2_u16: 1000,
            r1_u8: 17,
            r2_u8: 5,
            ..Default::default()
        };
        let starter = generate_beast(1, ItemType::MagicOrCloth, &r, 9);
        assert_eq!((starter.id, starter.health, starter.level), (71, 3, 1));
        assert_eq!(generate_beast(1, ItemType::BladeOrHide, &r, 9).id, 21);
        assert_eq!(generate_beast(1, ItemType::BludgeonOrMetal, &r, 9).id, 46);
        let b = generate_beast(10, ItemType::BladeOrHide, &r, 9);
        assert_eq!(b.id, 29); // Dragon
        assert_eq!(b.level, 1 + 1000 % 30); // 11
        assert_eq!(b.health, 1 + 500 % 200 + 10);
        assert_eq!(
            b.specials,
            SpecialPowers::default(),
            "level 11 has no specials"
        );
        let b = generate_beast(25, ItemType::BladeOrHide, &r, 9);
        assert_eq!(b.level, 1 + 1000 % 75 + 10);
        assert_eq!(
            b.specials,
            SpecialPowers {
                special1: 0,
                special2: 18,
                special3: 6
            }
        );
        assert!(b.is_collectable);
        assert_eq!(
            beast_health(60, u16::MAX),
            1023,
            "capped (1 + 735 + 500 > 1023)"
        );
        assert_eq!(beast_health(20, 7), 1 + 7 + 100);
        assert_eq!(random_level(50, 0), 81);
    }

    #[test]
    fn discoveries() {
        assert_eq!(discovery(5, 0, 7, 0), Discovery::Gold { amount: 3 });
        assert_eq!(discovery(5, 200, 7, 0), Discovery::Health { amount: 6 });
        // type 250 → 98% → loot; amount 0 → T5 list, index 0 → Book.
        assert_eq!(
            discovery(5, 250, 0, 0),
            Discovery::Loot {
                item: ItemRef::new(16)
            }
        );
        // amount 255 → 100% → T1, index 1 → Grimoire.
        let Discovery::Loot { item } = discovery(5, 250, 255, 1) else {
            panic!()
        };
        assert_eq!(
            (item.id, catalogue::item(item.id).unwrap().tier),
            (13, Tier::T1)
        );
        // Boundaries of pct: 114 → 45 (health), 113 → 44 (gold).
        assert!(matches!(discovery(3, 113, 0, 0), Discovery::Gold { .. }));
        assert!(matches!(discovery(3, 114, 0, 0), Discovery::Health { .. }));
    }

    #[test]
    fn stats_and_market() {
        let s = starting_stats(0);
        assert_eq!(s.strength, 12);
        let s = starting_stats(u64::MAX);
        assert_eq!(s.upgrade_points(), 12);
        assert_eq!(s.luck, 0);
        // 1 + 2*6 + 3*36: first three draws are dex, vit, int.
        let s = starting_stats(1 + 2 * 6 + 3 * 36);
        assert_eq!(
            (s.dexterity, s.vitality, s.intelligence, s.strength),
            (1, 1, 1, 9)
        );
        let m = market_items(42, 777, 25);
        assert!(m.len() <= 25 && !m.is_empty());
        assert!(m.iter().all(|&id| (1..=101).contains(&id)));
        assert_eq!(market_items(42, 777, 25), m, "deterministic");
        assert_eq!(market_items(42, 777, 5), m[..5.min(m.len())].to_vec());
        assert!(market_items(42, 777, 0).is_empty());
        assert_eq!(explore_outcome(3), ExploreOutcome::Beast);
        assert_eq!(explore_outcome(4), ExploreOutcome::Obstacle);
        assert_eq!(explore_outcome(5), ExploreOutcome::Discovery);
        assert_eq!(obstacle_id(75), 1);
    }
}
