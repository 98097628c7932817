//! Bit-packed storage forms of the adventurer and bag (docs/game-rules.md#packing), as found in the
//! Dojo models `AdventurerPacked` / `BagPacked` that Torii serves, so indexed reads decode without
//! RPC.

use starknet_types_core::felt::Felt;

use super::felt::DecodeError;
use super::model::{Adventurer, Bag, Equipment, Item, MAX_ITEM_ID, Stats};

/// A 256-bit little-endian bit field over a felt.
struct Bits([u8; 32]);

impl Bits {
    fn get(&self, start: usize, len: usize) -> u64 {
        let mut v = 0u64;
        for i in 0..len {
            let bit = start + i;
            if self.0[bit / 8] >> (bit % 8) & 1 == 1 {
                v |= 1 << i;
            }
        }
        v
    }

    fn set(&mut self, start: usize, len: usize, value: u64) {
        for i in 0..len {
            if value >> i & 1 == 1 {
                let bit = start + i;
                self.0[bit / 8] |= 1 << (bit % 8);
            }
        }
    }

    fn any_from(&self, start: usize) -> bool {
        (start..256).any(|b| self.0[b / 8] >> (b % 8) & 1 == 1)
    }
}

fn unpack_item(bits: &Bits, start: usize, field: &str) -> Result<Item, DecodeError> {
    let id = bits.get(start, 7) as u8;
    if id > MAX_ITEM_ID {
        return Err(DecodeError::Invalid {
            field: field.to_string(),
            reason: format!("packed item id {id} is above {MAX_ITEM_ID}"),
        });
    }
    Ok(Item {
        id,
        xp: bits.get(start + 7, 9) as u16,
    })
}

fn check_width(field: &str, value: u64, bits: usize) -> Result<(), DecodeError> {
    if value >> bits != 0 {
        return Err(DecodeError::OutOfRange {
            field: field.to_string(),
            position: 0,
            value: format!("{value:#x}"),
            max: (1u128 << bits) - 1,
        });
    }
    Ok(())
}

/// Unpacks `AdventurerPacked.packed`. Stats are the stored base stats (no item boosts) and luck is 0.
pub fn unpack_adventurer(packed: Felt) -> Result<Adventurer, DecodeError> {
    let b = Bits(packed.to_bytes_le());
    if b.any_from(238) {
        return Err(DecodeError::Invalid {
            field: "adventurer_packed".into(),
            reason: "bits above 238 are set".into(),
        });
    }
    let stat = |i: usize| b.get(48 + 5 * i, 5) as u8;
    let mut items = [Item::default(); 8];
    for (i, it) in items.iter_mut().enumerate() {
        *it = unpack_item(&b, 78 + 16 * i, "adventurer_packed.equipment")?;
    }
    Ok(Adventurer {
        health: b.get(0, 10) as u16,
        xp: b.get(10, 15) as u16,
        gold: b.get(25, 9) as u16,
        beast_health: b.get(34, 10) as u16,
        stat_upgrades_available: b.get(44, 4) as u8,
        stats: Stats {
            strength: stat(0),
            dexterity: stat(1),
            vitality: stat(2),
            intelligence: stat(3),
            wisdom: stat(4),
            charisma: stat(5),
            luck: 0,
        },
        equipment: Equipment::from_slots(items),
        item_specials_seed: b.get(206, 16) as u16,
        action_count: b.get(222, 16) as u16,
    })
}

/// Packs an adventurer like the contract does (luck dropped); errors where the contract's pack
/// asserts would fail (a field wider than its bit width).
pub fn pack_adventurer(a: &Adventurer) -> Result<Felt, DecodeError> {
    let mut b = Bits([0; 32]);
    let fields: [(&str, u64, usize, usize); 6] = [
        ("health", a.health.into(), 0, 10),
        ("xp", a.xp.into(), 10, 15),
        ("gold", a.gold.into(), 25, 9),
        ("beast_health", a.beast_health.into(), 34, 10),
        (
            "stat_upgrades_available",
            a.stat_upgrades_available.into(),
            44,
            4,
        ),
        ("item_specials_seed", a.item_specials_seed.into(), 206, 16),
    ];
    for (name, v, start, len) in fields {
        check_width(name, v, len)?;
        b.set(start, len, v);
    }
    b.set(222, 16, a.action_count.into());
    let s = &a.stats;
    for (i, v) in [
        s.strength,
        s.dexterity,
        s.vitality,
        s.intelligence,
        s.wisdom,
        s.charisma,
    ]
    .into_iter()
    .enumerate()
    {
        check_width("stats", v.into(), 5)?;
        b.set(48 + 5 * i, 5, v.into());
    }
    for (i, (_, it)) in a.equipment.slots().iter().enumerate() {
        check_width("equipment.id", it.id.into(), 7)?;
        check_width("equipment.xp", it.xp.into(), 9)?;
        b.set(78 + 16 * i, 7, it.id.into());
        b.set(78 + 16 * i + 7, 9, it.xp.into());
    }
    Ok(Felt::from_bytes_le(&b.0))
}

/// Unpacks `BagPacked.packed` (15 items of 16 bits; `mutated` is false).
pub fn unpack_bag(packed: Felt) -> Result<Bag, DecodeError> {
    let b = Bits(packed.to_bytes_le());
    if b.any_from(240) {
        return Err(DecodeError::Invalid {
            field: "bag_packed".into(),
            reason: "bits above 240 are set".into(),
        });
    }
    let mut bag = Bag::default();
    for (i, it) in bag.items.iter_mut().enumerate() {
        *it = unpack_item(&b, 16 * i, &format!("bag_packed.item_{}", i + 1))?;
    }
    Ok(bag)
}

/// Packs a bag like the contract does.
pub fn pack_bag(bag: &Bag) -> Result<Felt, DecodeError> {
    let mut b = Bits([0; 32]);
    for (i, it) in bag.items.iter().enumerate() {
        check_width("bag.id", it.id.into(), 7)?;
        check_width("bag.xp", it.xp.into(), 9)?;
        b.set(16 * i, 7, it.id.into());
        b.set(16 * i + 7, 9, it.xp.into());
    }
    Ok(Felt::from_bytes_le(&b.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tests::sample_state;

    #[test]
    fn adventurer_roundtrip_and_layout() {
        let mut a = sample_state().adventurer;
        a.stats.luck = 0;
        a.item_specials_seed = 0xBEEF;
        a.action_count = 0xFFFF;
        let p = pack_adventurer(&a).unwrap();
        assert_eq!(unpack_adventurer(p).unwrap(), a);
        // Hand-computed: health 5, xp 4 → 5 | 4 << 10.
        let small = Adventurer {
            health: 5,
            xp: 4,
            ..Default::default()
        };
        assert_eq!(pack_adventurer(&small).unwrap(), Felt::from(5u64 | 4 << 10));
        // Weapon Wand (12) with 3 xp at bit 78.
        let w = Adventurer {
            equipment: Equipment {
                weapon: Item { id: 12, xp: 3 },
                ..Default::default()
            },
            ..Default::default()
        };
        let expected = Felt::from(12u128 << 78 | 3u128 << 85);
        assert_eq!(pack_adventurer(&w).unwrap(), expected);
        assert_eq!(
            unpack_adventurer(expected).unwrap().equipment.weapon,
            Item { id: 12, xp: 3 }
        );
    }

    #[test]
    fn luck_is_not_packed_and_overflows_fail() {
        let mut a = sample_state().adventurer;
        a.stats.luck = 9;
        assert_eq!(
            unpack_adventurer(pack_adventurer(&a).unwrap())
                .unwrap()
                .stats
                .luck,
            0
        );
        a.health = 1024;
        assert!(pack_adventurer(&a).is_err());
        a.health = 10;
        a.stats.strength = 32;
        assert!(pack_adventurer(&a).is_err());
    }

    #[test]
    fn bag_roundtrip_and_rejections() {
        let bag = sample_state().bag;
        let p = pack_bag(&bag).unwrap();
        assert_eq!(unpack_bag(p).unwrap(), bag);
        assert_eq!(pack_bag(&Bag::default()).unwrap(), Felt::ZERO);
        // Item id 127 (above 101) in slot 1.
        assert!(unpack_bag(Felt::from(127u8)).is_err());
        // Bits above the 15 items.
        assert!(unpack_bag(Felt::from(1u128 << 120) * Felt::from(1u128 << 125)).is_err());
        assert!(unpack_adventurer(Felt::MAX).is_err());
    }
}
