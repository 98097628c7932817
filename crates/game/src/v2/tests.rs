//! Tests of `v2`: the adventurer and `load_assets` layouts from felts written out by hand.

use super::*;
use crate::model::{Item, Stats};

/// A v2 adventurer, field by field, in the order of GameCore's struct.
pub(crate) const ADVENTURER: [u64; 31] = [
    120,
    400,
    37,
    0,
    2, // health, xp, gold, beast_health, stat_upgrades_available
    5,
    3,
    4,
    1,
    2,
    6,
    9, // strength, dexterity, vitality, intelligence, wisdom, charisma, luck
    46,
    100,
    51,
    4,
    0,
    0,
    0,
    0, // weapon, chest, head, waist
    0,
    0,
    0,
    0,
    1,
    225,
    8,
    16, // foot, hand, neck, ring
    48879,
    4_000_000_000,
    65535, // item_specials_salt, beast_salt, level_salt
];

pub(crate) fn felts(v: &[u64]) -> Vec<Felt> {
    v.iter().map(|&x| Felt::from(x)).collect()
}

#[test]
fn the_hand_written_adventurer_decodes_field_by_field() {
    let (a, salts) = adventurer_from_felts(&felts(&ADVENTURER)).unwrap();
    assert_eq!((a.health, a.xp, a.gold, a.beast_health), (120, 400, 37, 0));
    assert_eq!(a.stat_upgrades_available, 2);
    let stats = Stats {
        strength: 5,
        dexterity: 3,
        vitality: 4,
        intelligence: 1,
        wisdom: 2,
        charisma: 6,
        luck: 9,
    };
    assert_eq!(a.stats, stats);
    let e = a.equipment;
    assert_eq!(e.weapon, Item { id: 46, xp: 100 });
    assert_eq!(e.chest, Item { id: 51, xp: 4 });
    assert!(e.head.is_empty() && e.waist.is_empty() && e.foot.is_empty() && e.hand.is_empty());
    assert_eq!(e.neck, Item { id: 1, xp: 225 });
    assert_eq!(e.ring, Item { id: 8, xp: 16 });
    assert_eq!((a.item_specials_seed, a.action_count), (0, 0));
    assert_eq!(
        salts,
        Salts {
            item_specials_salt: 0xBEEF,
            beast_salt: 4_000_000_000,
            level_salt: 0xFFFF,
        }
    );
    assert_eq!(a.level(), 20);
    assert_eq!(a.max_health(), 160);
}

#[test]
fn each_field_is_range_checked_and_named() {
    let bad = |at: usize, value: u64| {
        let mut v = ADVENTURER;
        v[at] = value;
        adventurer_from_felts(&felts(&v)).unwrap_err()
    };
    let e = bad(5, 256);
    assert!(
        matches!(&e, DecodeError::OutOfRange { field, position: 5, max: 255, .. } if field == "adventurer.stats.strength"),
        "{e}"
    );
    let e = bad(0, 65_536);
    assert!(e.to_string().contains("adventurer.health"), "{e}");
    let e = bad(12, 102);
    assert!(
        e.to_string().contains("adventurer.equipment.weapon.id"),
        "{e}"
    );
    let e = bad(29, 4_294_967_296);
    assert!(
        matches!(&e, DecodeError::OutOfRange { field, max: 4_294_967_295, .. } if field == "adventurer.beast_salt"),
        "{e}"
    );
    let e = bad(30, 65_536);
    assert!(e.to_string().contains("adventurer.level_salt"), "{e}");
    let mut huge = felts(&ADVENTURER);
    huge[28] = Felt::MAX;
    assert!(adventurer_from_felts(&huge).is_err());
}

#[test]
fn a_short_or_long_adventurer_is_an_error_not_a_panic() {
    let all = felts(&ADVENTURER);
    for n in 0..ADVENTURER_FELTS {
        assert!(adventurer_from_felts(&all[..n]).is_err(), "cut at {n}");
    }
    let e = adventurer_from_felts(&all[..30]).unwrap_err();
    assert!(
        matches!(&e, DecodeError::UnexpectedEnd { field, position: 30, len: 30 } if field == "adventurer.level_salt"),
        "{e}"
    );
    let mut long = all.clone();
    long.push(Felt::ZERO);
    assert_eq!(
        adventurer_from_felts(&long),
        Err(DecodeError::TrailingFelts {
            position: 31,
            extra: 1
        })
    );
}

#[test]
fn load_assets_is_the_adventurer_then_the_bag() {
    let mut v = ADVENTURER.to_vec();
    v.extend([42, 9, 17, 0]); // item_1 (id, xp), item_2
    v.extend([0; 26]); // item_3 … item_15
    v.push(1); // mutated
    assert_eq!(v.len(), 62);
    let assets = Assets::from_felts(&felts(&v)).unwrap();
    assert_eq!(assets.adventurer.gold, 37);
    assert_eq!(assets.salts.beast_salt, 4_000_000_000);
    assert_eq!(assets.bag.items[0], Item { id: 42, xp: 9 });
    assert_eq!(assets.bag.items[1], Item { id: 17, xp: 0 });
    assert_eq!(assets.bag.iter().count(), 2);
    assert!(assets.bag.mutated);
    assert_eq!(assets.to_felts(), felts(&v));

    let mut bad = v.clone();
    bad[61] = 2;
    let e = Assets::from_felts(&felts(&bad)).unwrap_err();
    assert!(e.to_string().contains("bag.mutated"), "{e}");
    let mut bad = v.clone();
    bad[33] = 300;
    let e = Assets::from_felts(&felts(&bad)).unwrap_err();
    assert!(e.to_string().contains("bag.item_2.id"), "{e}");
    assert!(Assets::from_felts(&felts(&v[..61])).is_err());
    let mut long = v.clone();
    long.push(0);
    assert!(matches!(
        Assets::from_felts(&felts(&long)),
        Err(DecodeError::TrailingFelts { position: 62, .. })
    ));
}

#[test]
fn a_v1_state_read_as_v2_does_not_pass() {
    let v1 = crate::sample::sample_state();
    let mut out = Vec::new();
    v1.adventurer.encode_felts(&mut out);
    v1.bag.encode_felts(&mut out);
    assert_eq!(out.len(), 61);
    assert!(Assets::from_felts(&out).is_err());
}

#[test]
fn the_v1_adventurer_round_trips_through_the_v2_encoder() {
    let mut a = crate::sample::sample_state().adventurer;
    a.item_specials_seed = 0;
    a.action_count = 0;
    let salts = Salts {
        item_specials_salt: 7,
        beast_salt: 70_000,
        level_salt: 3,
    };
    let mut out = Vec::new();
    encode_adventurer(&a, &salts, &mut out);
    assert_eq!(out.len(), ADVENTURER_FELTS);
    assert_eq!(out[29], Felt::from(70_000u32));
    assert_eq!(adventurer_from_felts(&out).unwrap(), (a, salts));
}
