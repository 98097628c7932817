//! Tests of `model`, and the sample state other modules' tests share.

use super::*;

pub(crate) use crate::sample::sample_state;

#[test]
fn game_state_layout_matches_section_3_4() {
    let s = sample_state();
    let felts = s.to_felts();
    assert_eq!(felts.len(), 30 + 31 + 8 + 1 + 6);
    // Spot-check positions given in docs/game-rules.md#encoding.
    assert_eq!(felts[0], Felt::from(120u16)); // health
    assert_eq!(felts[3], Felt::from(0u16)); // beast_health
    assert_eq!(felts[12], Felt::from(46u8)); // weapon id
    assert_eq!(felts[13], Felt::from(100u16)); // weapon xp
    assert_eq!(felts[29], Felt::from(9u16)); // action_count
    assert_eq!(felts[30], Felt::from(42u8)); // bag item_1 id
    assert_eq!(felts[60], Felt::ZERO); // bag.mutated
    assert_eq!(felts[61], Felt::from(29u8)); // beast id
    assert_eq!(felts[62], Felt::from(u64::MAX - 5)); // beast seed
    assert_eq!(felts[69], Felt::from(6u8)); // market length
    assert_eq!(GameState::decode_felts(&felts).unwrap(), s);
}

#[test]
fn decodes_hand_built_felts() {
    let mut f: Vec<u64> = vec![90, 0, 40, 3, 0, 0, 0, 0, 0, 0, 0, 2];
    f.extend([12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]); // equipment: wand
    f.extend([0, 1]); // seed, action_count
    f.extend([0; 30]); // empty bag
    f.push(0); // mutated
    f.extend([71, 7, 3, 1, 0, 0, 0, 0]); // starter troll
    f.extend([2, 5, 101]); // market
    let felts: Vec<Felt> = f.into_iter().map(Felt::from).collect();
    let s = GameState::decode_felts(&felts).unwrap();
    assert_eq!(s.adventurer.health, 90);
    assert_eq!(s.adventurer.gold, 40);
    assert_eq!(s.adventurer.beast_health, 3);
    assert_eq!(s.adventurer.stats.luck, 2);
    assert_eq!(s.adventurer.equipment.weapon, Item { id: 12, xp: 0 });
    assert_eq!(s.adventurer.action_count, 1);
    assert_eq!(s.beast.id, 71);
    assert_eq!(s.beast.health, 3);
    assert_eq!(s.market, vec![5, 101]);
    assert!(s.bag.iter().next().is_none());
}

#[test]
fn rejects_malformed_state() {
    let felts = sample_state().to_felts();
    // Short arrays at every cut point fail without panicking.
    for n in 0..felts.len() {
        assert!(GameState::decode_felts(&felts[..n]).is_err(), "cut at {n}");
    }
    // Trailing felt.
    let mut long = felts.clone();
    long.push(Felt::ONE);
    assert!(matches!(
        GameState::decode_felts(&long),
        Err(DecodeError::TrailingFelts { .. })
    ));
    // u16 overflow in health.
    let mut bad = felts.clone();
    bad[0] = Felt::from(70_000u32);
    let e = GameState::decode_felts(&bad).unwrap_err();
    assert!(e.to_string().contains("adventurer.health"), "{e}");
    // Item id above 101.
    let mut bad = felts.clone();
    bad[12] = Felt::from(102u8);
    let e = GameState::decode_felts(&bad).unwrap_err();
    assert!(
        e.to_string().contains("adventurer.equipment.weapon.id"),
        "{e}"
    );
    // bool not 0/1.
    let mut bad = felts.clone();
    bad[60] = Felt::from(2u8);
    assert!(
        GameState::decode_felts(&bad)
            .unwrap_err()
            .to_string()
            .contains("bag.mutated")
    );
    // Market length larger than the data.
    let mut bad = felts.clone();
    bad[69] = Felt::from(1000u32);
    assert!(GameState::decode_felts(&bad).is_err());
}

#[test]
fn seed_serializes_as_string_and_reads_both() {
    let b = sample_state().beast;
    let v = serde_json::to_value(b).unwrap();
    assert_eq!(v["seed"], serde_json::json!((u64::MAX - 5).to_string()));
    let back: BeastEvent = serde_json::from_value(v).unwrap();
    assert_eq!(back, b);
    let mut v = serde_json::to_value(b).unwrap();
    v["seed"] = serde_json::json!(7);
    assert_eq!(serde_json::from_value::<BeastEvent>(v).unwrap().seed, 7);
}

#[test]
fn helpers() {
    let s = sample_state();
    assert!(s.owns(46) && s.owns(42) && !s.owns(9) && !s.owns(0));
    assert_eq!(s.adventurer.level(), 5);
    assert_eq!(s.adventurer.max_health(), 130);
    assert!(!s.bag.is_full());
    let sp = s.beast.specials;
    assert_eq!(sp.name_prefix().as_deref(), Some("Demon Grasp"));
    assert_eq!(sp.full_name("Dragon"), "Demon Grasp Dragon");
    let sp2 = SpecialPowers {
        special1: 1,
        special2: 0,
        special3: 0,
    };
    assert_eq!(sp2.full_name("Katana"), "Katana of Power");
    assert_eq!(
        Stats {
            strength: 1,
            charisma: 2,
            luck: 9,
            ..Default::default()
        }
        .upgrade_points(),
        3
    );
}
