//! Tests of `v2::events`: both envelopes, from felts written out by hand.

use super::*;
use crate::events::{AttackEvent, EVENT_EMITTED_SELECTOR, GAME_EVENT_SELECTOR, decode_game_event};
use crate::v2::tests::{ADVENTURER, felts};
use crate::{ItemType, Slot, Tier};
use serde_json::json;
use sha3::{Digest, Keccak256};

/// A packed Denshokan id above 2^250 (game_id 1 in its low bits), in hex and in decimal.
const ID_HEX: &str = "0x5a3c000000000d1e2f3a4b500000000000000000000000000000004c0000001";
const ID_DEC: &str = "2550885449773793693314988738528361105287565630537790646945450904749577601025";

fn id() -> Felt {
    Felt::from_hex(ID_HEX).unwrap()
}

/// The current envelope: `keys = [selector, id]`, `data = [variant, ...payload]`.
fn current(values: &[u64]) -> Option<GameCoreEvent> {
    decode_game_core_event(&[GAME_CORE_EVENT_SELECTOR, id()], &felts(values)).unwrap()
}

/// The earlier envelope: `keys = [selector]`, `data = [id, variant, ...payload]`.
fn earlier(values: &[u64]) -> Option<GameCoreEvent> {
    let mut data = vec![id()];
    data.extend(felts(values));
    decode_game_core_event(&[GAME_CORE_EVENT_SELECTOR], &data).unwrap()
}

/// Decodes in both envelopes, checks they agree, and returns the details.
fn both(values: &[u64]) -> GameEventDetails {
    let a = current(values).expect("a GameEvent");
    assert_eq!(earlier(values).as_ref(), Some(&a));
    assert_eq!(a.adventurer_id.to_string(), ID_DEC);
    a.details
}

#[test]
fn the_selector_is_starknet_keccak_of_the_event_name() {
    assert_eq!(
        format!("{GAME_CORE_EVENT_SELECTOR:#066x}"),
        "0x03e037e958ba3b5c1cc99ac16aaf9896423eebd03183c41fbb26548a12336e5f"
    );
    let mut bytes: [u8; 32] = Keccak256::digest(b"GameEvent").into();
    bytes[0] &= 0x03;
    assert_eq!(Felt::from_bytes_be(&bytes), GAME_CORE_EVENT_SELECTOR);
}

#[test]
fn an_id_above_two_to_the_250_comes_from_either_envelope() {
    let two_250 = AdventurerId::parse(&format!("0x4{}", "0".repeat(62))).unwrap();
    let a = current(&[16, 1]).unwrap();
    let b = earlier(&[16, 1]).unwrap();
    assert_eq!(a, b);
    assert!(a.adventurer_id > two_250);
    assert_eq!(a.adventurer_id, AdventurerId::parse(ID_DEC).unwrap());
    assert_eq!(a.details, GameEventDetails::Flee { success: true });
    assert_eq!(a.salts, None);
    let v = serde_json::to_value(&a).unwrap();
    assert_eq!(v["adventurer_id"], json!(ID_DEC));
    assert_eq!(v["details"], json!({"type": "flee", "success": true}));
    assert!(v.get("salts").is_none());
}

#[test]
fn other_events_are_not_game_core_events() {
    let data = felts(&[16, 1]);
    assert_eq!(decode_game_core_event(&[], &data).unwrap(), None);
    assert_eq!(
        decode_game_core_event(&[GAME_EVENT_SELECTOR, id()], &data).unwrap(),
        None
    );
    let v1_keys = [EVENT_EMITTED_SELECTOR, GAME_EVENT_SELECTOR, Felt::TWO];
    assert_eq!(decode_game_core_event(&v1_keys, &data).unwrap(), None);
    let wrong = GAME_CORE_EVENT_SELECTOR + Felt::ONE;
    assert_eq!(decode_game_core_event(&[wrong, id()], &data).unwrap(), None);
    let e =
        decode_game_core_event(&[GAME_CORE_EVENT_SELECTOR, id(), Felt::ONE], &data).unwrap_err();
    assert!(
        matches!(&e, DecodeError::Invalid { field, .. } if field == "keys"),
        "{e}"
    );
}

#[test]
fn the_adventurer_event_carries_the_v2_layout_and_its_salts() {
    let mut values = vec![0];
    values.extend(ADVENTURER);
    let a = current(&values).unwrap();
    assert_eq!(earlier(&values).as_ref(), Some(&a));
    let GameEventDetails::Adventurer(adv) = a.details else {
        panic!("not an adventurer: {:?}", a.details)
    };
    assert_eq!((adv.health, adv.xp, adv.gold), (120, 400, 37));
    assert_eq!(adv.stats.luck, 9);
    assert_eq!(adv.equipment.ring.id, 8);
    assert_eq!(adv.action_count, 0);
    let salts = a.salts.unwrap();
    assert_eq!(
        (salts.item_specials_salt, salts.beast_salt),
        (0xBEEF, 4_000_000_000)
    );
    values.pop();
    let e = decode_game_core_event(&[GAME_CORE_EVENT_SELECTOR, id()], &felts(&values)).unwrap_err();
    assert!(
        e.to_string().contains("details.adventurer.level_salt"),
        "{e}"
    );
}

#[test]
fn the_beast_event_has_no_seed_and_no_collectable_flag() {
    let GameEventDetails::Beast(b) = both(&[2, 29, 80, 20, 0, 18, 6]) else {
        panic!("not a beast")
    };
    assert_eq!((b.id, b.health, b.level, b.seed), (29, 80, 20, 0));
    assert!(!b.is_collectable);
    assert_eq!(b.name, "Demon Grasp Dragon");
    assert_eq!((b.tier, b.beast_type), (Tier::T1, ItemType::BladeOrHide));
    let v1_layout = felts(&[2, 29, 12345, 80, 20, 0, 18, 6, 1]);
    let e = decode_game_core_event(&[GAME_CORE_EVENT_SELECTOR, id()], &v1_layout).unwrap_err();
    assert!(matches!(
        e,
        DecodeError::OutOfRange { .. } | DecodeError::TrailingFelts { .. }
    ));
}

#[test]
fn the_shared_variants_decode_as_v1_does() {
    let v1 = |values: &[u64]| {
        let mut data = vec![1, 77, values.len() as u64 + 1, 5];
        data.extend_from_slice(values);
        let keys = [EVENT_EMITTED_SELECTOR, GAME_EVENT_SELECTOR, Felt::ONE];
        decode_game_event(&keys, &felts(&data))
            .unwrap()
            .unwrap()
            .details
    };
    let cases: [&[u64]; 6] = [
        &[14, 9, 1, 1],
        &[4, 3, 1, 12, 2, 0, 4],
        &[8, 2, 1, 46, 1],
        &[12, 3, 5, 5, 101],
        &[5, 29, 11, 14],
        &[3, 2, 46, 3],
    ];
    for values in cases {
        assert_eq!(both(values), v1(values), "{values:?}");
    }
    assert_eq!(
        both(&[14, 9, 1, 1]),
        GameEventDetails::Attack(AttackEvent {
            damage: 9,
            location: Slot::Weapon,
            critical_hit: true
        })
    );
}

#[test]
fn collectable_stats_decode_with_a_felt_id() {
    let mut data = vec![Felt::from(19u8), id()];
    data.extend(felts(&[29, 18, 6, 3, 1_767_225_600]));
    let e = decode_game_core_event(&[GAME_CORE_EVENT_SELECTOR, Felt::from(7u8)], &data)
        .unwrap()
        .unwrap();
    assert_eq!(e.adventurer_id, AdventurerId::from(7));
    let GameEventDetails::CollectableStats(c) = &e.details else {
        panic!("not collectable stats")
    };
    assert_eq!(c.collectable_id, id());
    assert_eq!((c.beast_id, c.prefix, c.suffix), (29, 18, 6));
    assert_eq!(
        (c.adventurers_killed, c.last_kill_timestamp),
        (3, 1_767_225_600)
    );
    assert_eq!(c.beast_name, "Dragon");
    let v = serde_json::to_value(&e.details).unwrap();
    assert_eq!(v["type"], "collectable_stats");
    assert_eq!(v["collectable_id"], json!(format!("{:#x}", id())));
    assert_eq!(
        serde_json::from_value::<GameEventDetails>(v).unwrap(),
        e.details
    );
    data.pop();
    assert!(decode_game_core_event(&[GAME_CORE_EVENT_SELECTOR, Felt::ONE], &data).is_err());
    let mut data = vec![Felt::from(19u8), id()];
    data.extend(felts(&[0, 18, 6, 3, 1_767_225_600]));
    let e = decode_game_core_event(&[GAME_CORE_EVENT_SELECTOR, Felt::from(7u8)], &data)
        .unwrap()
        .unwrap();
    let GameEventDetails::CollectableStats(c) = &e.details else {
        panic!("not collectable stats")
    };
    assert_eq!(
        c.beast_name, "Unknown beast #0",
        "a plain name, without specials"
    );
}

#[test]
fn randomness_and_collectable_keep_their_felts() {
    let GameEventDetails::Randomness(p) = both(&[17, 5, 0, 4_000_000_000_000]) else {
        panic!("not randomness")
    };
    assert_eq!(p.felts, felts(&[5, 0, 4_000_000_000_000]));
    let GameEventDetails::Collectable(p) = both(&[18]) else {
        panic!("not collectable")
    };
    assert!(p.felts.is_empty());
    let d = both(&[17, 255, 16]);
    let v = serde_json::to_value(&d).unwrap();
    assert_eq!(v, json!({"type": "randomness", "felts": ["0xff", "0x10"]}));
    assert_eq!(serde_json::from_value::<GameEventDetails>(v).unwrap(), d);
}

#[test]
fn bad_payloads_are_errors_with_the_field_named() {
    let err = |values: &[u64]| {
        decode_game_core_event(&[GAME_CORE_EVENT_SELECTOR, id()], &felts(values)).unwrap_err()
    };
    let e = err(&[14, 9, 1]);
    assert!(
        matches!(&e, DecodeError::UnexpectedEnd { field, position: 3, .. } if field == "details.critical_hit"),
        "{e}"
    );
    let e = err(&[11, 256]);
    assert!(
        matches!(&e, DecodeError::OutOfRange { field, max: 255, .. } if field == "details.level"),
        "{e}"
    );
    let e = err(&[20, 1]);
    assert!(matches!(e, DecodeError::UnknownVariant { .. }), "{e}");
    let e = err(&[16, 1, 0]);
    assert_eq!(
        e,
        DecodeError::TrailingFelts {
            position: 2,
            extra: 1
        }
    );
    assert!(err(&[]).to_string().contains("details.variant"));
    let e = decode_game_core_event(&[GAME_CORE_EVENT_SELECTOR], &[]).unwrap_err();
    assert!(
        matches!(&e, DecodeError::UnexpectedEnd { field, .. } if field == "adventurer_id"),
        "{e}"
    );
}

#[test]
fn a_receipt_keeps_only_game_core_events_in_order() {
    let k1 = [GAME_CORE_EVENT_SELECTOR, id()];
    let k2 = [GAME_EVENT_SELECTOR];
    let k3 = [GAME_CORE_EVENT_SELECTOR];
    let d1 = felts(&[11, 3]);
    let d2 = felts(&[1, 2, 3]);
    let mut d3 = vec![Felt::from(9u8)];
    d3.extend(felts(&[16, 0]));
    let events = [(&k1[..], &d1[..]), (&k2[..], &d2[..]), (&k3[..], &d3[..])];
    let decoded = decode_game_core_events(events).unwrap();
    assert_eq!(decoded.len(), 2);
    assert_eq!(decoded[0].details, GameEventDetails::LevelUp { level: 3 });
    assert_eq!(decoded[1].adventurer_id, AdventurerId::from(9));
    assert_eq!(
        decoded[1].details,
        GameEventDetails::Flee { success: false }
    );
    let bad = felts(&[11]);
    assert!(decode_game_core_events([(&k1[..], &bad[..])]).is_err());
}

#[test]
fn a_v2_state_feeds_the_phase_view_and_preview_unchanged() {
    let mut adventurer = ADVENTURER;
    adventurer[3] = 50; // beast_health: in battle
    adventurer[4] = 0; // no stat points waiting
    let mut load_assets = adventurer.to_vec();
    load_assets.extend([0; 31]);
    let assets = crate::v2::Assets::from_felts(&felts(&load_assets)).unwrap();
    let GameEventDetails::Beast(beast) = both(&[2, 29, 80, 20, 0, 18, 6]) else {
        panic!("not a beast")
    };
    let state = crate::GameState {
        adventurer: assets.adventurer,
        bag: assets.bag,
        beast: beast.to_beast_event(),
        market: Vec::new(),
    };
    assert_eq!(crate::phase(&state.adventurer), crate::Phase::InBattle);
    let preview = crate::battle_preview(&state).expect("a preview in battle");
    assert_eq!((preview.beast_id, preview.beast_health), (29, 50));
    let view = crate::adventurer_view(1.into(), &state);
    assert_eq!((view.level, view.health), (20, 120));
}
