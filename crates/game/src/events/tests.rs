//! Tests of `events`.

use super::*;
use crate::model::tests::sample_state;
use serde_json::json;

fn felts(v: &[u64]) -> Vec<Felt> {
    v.iter().map(|&x| Felt::from(x)).collect()
}

fn keys() -> Vec<Felt> {
    vec![
        EVENT_EMITTED_SELECTOR,
        GAME_EVENT_SELECTOR,
        Felt::from(0x6f7cu64),
    ]
}

/// Wraps a hand-built `[variant, ...payload]` in the world event data layout.
fn data(adv: u64, action: u64, values: &[u64]) -> Vec<Felt> {
    let mut d = vec![1, adv, values.len() as u64 + 1, action];
    d.extend_from_slice(values);
    felts(&d)
}

fn decode(values: &[u64]) -> GameEventDetails {
    let e = decode_game_event(&keys(), &data(77, 5, values))
        .unwrap()
        .unwrap();
    assert_eq!((e.adventurer_id, e.action_count), (77.into(), 5));
    e.details
}

#[test]
fn selectors_are_the_documented_values() {
    assert_eq!(
        format!("{EVENT_EMITTED_SELECTOR:#x}"),
        "0x1c93f6e4703ae90f75338f29bffbe9c1662200cee981f49afeec26e892debcd"
    );
    assert_eq!(
        format!("{GAME_EVENT_SELECTOR:#x}"),
        "0x53f716bb3e8a7730e612809aa0416ce2cbf4aff462e4784d5f2f29d5e96605c"
    );
}

#[test]
fn other_events_are_ignored() {
    let d = data(1, 1, &[16, 1]);
    assert_eq!(decode_game_event(&[], &d).unwrap(), None);
    assert_eq!(
        decode_game_event(&[EVENT_EMITTED_SELECTOR], &d).unwrap(),
        None
    );
    assert_eq!(
        decode_game_event(&[EVENT_EMITTED_SELECTOR, Felt::ONE], &d).unwrap(),
        None
    );
    assert_eq!(
        decode_game_event(&[GAME_EVENT_SELECTOR, EVENT_EMITTED_SELECTOR], &d).unwrap(),
        None
    );
}

#[test]
fn decodes_adventurer_and_bag() {
    let s = sample_state();
    let mut v = vec![Felt::ZERO];
    s.adventurer.encode_felts(&mut v);
    let vals: Vec<u64> = v.iter().map(|f| u64::try_from(*f).unwrap()).collect();
    assert_eq!(decode(&vals), GameEventDetails::Adventurer(s.adventurer));
    let mut v = vec![Felt::ONE];
    s.bag.encode_felts(&mut v);
    let vals: Vec<u64> = v.iter().map(|f| u64::try_from(*f).unwrap()).collect();
    assert_eq!(decode(&vals), GameEventDetails::Bag(s.bag));
}

#[test]
fn decodes_beast() {
    let GameEventDetails::Beast(b) = decode(&[2, 29, 12345, 80, 20, 0, 18, 6, 1]) else {
        panic!("not a beast")
    };
    assert_eq!(
        (b.id, b.seed, b.health, b.level, b.is_collectable),
        (29, 12345, 80, 20, true)
    );
    assert_eq!(b.name, "Demon Grasp Dragon");
    assert_eq!((b.tier, b.beast_type), (Tier::T1, ItemType::BladeOrHide));
    let v = serde_json::to_value(GameEventDetails::Beast(b)).unwrap();
    assert_eq!(v["type"], "beast");
    assert_eq!(v["seed"], "12345");
    assert_eq!(v["tier"], "T1");
}

#[test]
fn decodes_discoveries() {
    assert_eq!(
        decode(&[3, 0, 7, 1]),
        GameEventDetails::Discovery {
            discovery: Discovery::Gold { amount: 7 },
            xp_reward: 1
        }
    );
    assert_eq!(
        decode(&[3, 1, 12, 1]),
        GameEventDetails::Discovery {
            discovery: Discovery::Health { amount: 12 },
            xp_reward: 1
        }
    );
    let d = decode(&[3, 2, 42, 1]);
    let v = serde_json::to_value(&d).unwrap();
    assert_eq!(
        v,
        json!({"type": "discovery", "discovery": {"kind": "loot", "item": {"id": 42, "name": "Katana"}}, "xp_reward": 1})
    );
}

#[test]
fn decodes_obstacle() {
    let GameEventDetails::Obstacle(o) = decode(&[4, 22, 0, 9, 3, 1, 4]) else {
        panic!()
    };
    assert_eq!(o.name, "Curse");
    assert_eq!(
        (o.tier, o.obstacle_type),
        (Tier::T5, ItemType::MagicOrCloth)
    );
    assert!(!o.dodged && o.critical_hit);
    assert_eq!((o.damage, o.location, o.xp_reward), (9, Slot::Head, 4));
    let v = serde_json::to_value(GameEventDetails::Obstacle(o)).unwrap();
    assert_eq!(v["type"], "obstacle");
    assert_eq!(v["location"], "Head");
    assert!(v.get("avoided_damage").is_none(), "only on a dodge");
}

#[test]
fn a_dodged_obstacle_reports_no_damage_taken() {
    let GameEventDetails::Obstacle(o) = decode(&[4, 22, 1, 9, 3, 0, 4]) else {
        panic!()
    };
    assert!(o.dodged);
    assert_eq!((o.damage, o.avoided_damage), (0, 9));
    let v = serde_json::to_value(GameEventDetails::Obstacle(o.clone())).unwrap();
    assert_eq!(
        (v["damage"].as_u64(), v["avoided_damage"].as_u64()),
        (Some(0), Some(9))
    );
    let mut felts = Vec::new();
    encode_details(&GameEventDetails::Obstacle(o), &mut felts);
    assert_eq!(
        felts[3],
        Felt::from(9u8),
        "encodes back the contract's value"
    );
}

#[test]
fn decodes_battle_outcomes() {
    assert_eq!(
        decode(&[5, 71, 0, 4]),
        GameEventDetails::DefeatedBeast {
            beast_id: 71,
            beast_name: "Troll".into(),
            gold_reward: 0,
            xp_reward: 4
        }
    );
    assert_eq!(
        decode(&[6, 46, 1]),
        GameEventDetails::FledBeast {
            beast_id: 46,
            beast_name: "Bear".into(),
            xp_reward: 1
        }
    );
    assert_eq!(
        decode(&[5, 0, 0, 4]),
        GameEventDetails::DefeatedBeast {
            beast_id: 0,
            beast_name: "Unknown beast #0".into(),
            gold_reward: 0,
            xp_reward: 4
        }
    );
    assert_eq!(
        decode(&[6, 76, 1]),
        GameEventDetails::FledBeast {
            beast_id: 76,
            beast_name: "Unknown beast #76".into(),
            xp_reward: 1
        }
    );
    assert_eq!(decode(&[16, 1]), GameEventDetails::Flee { success: true });
    assert_eq!(decode(&[16, 0]), GameEventDetails::Flee { success: false });
    let hit = AttackEvent {
        damage: 14,
        location: Slot::Chest,
        critical_hit: false,
    };
    assert_eq!(decode(&[13, 14, 2, 0]), GameEventDetails::Ambush(hit));
    assert_eq!(decode(&[14, 14, 2, 0]), GameEventDetails::Attack(hit));
    assert_eq!(decode(&[15, 14, 2, 0]), GameEventDetails::BeastAttack(hit));
    let v = serde_json::to_value(decode(&[15, 14, 2, 1])).unwrap();
    assert_eq!(
        v,
        json!({"type": "beast_attack", "damage": 14, "location": "Chest", "critical_hit": true})
    );
}

#[test]
fn decodes_progression_and_market_events() {
    assert_eq!(
        decode(&[7, 1, 0, 2, 0, 0, 0, 0]),
        GameEventDetails::StatUpgrade {
            stats: Stats {
                strength: 1,
                vitality: 2,
                ..Default::default()
            }
        }
    );
    assert_eq!(decode(&[11, 3]), GameEventDetails::LevelUp { level: 3 });
    assert_eq!(
        decode(&[8, 2, 2, 42, 1, 8, 0]),
        GameEventDetails::BuyItems {
            potions: 2,
            items_purchased: vec![
                PurchasedItem {
                    item_id: 42,
                    name: "Katana".into(),
                    equip: true
                },
                PurchasedItem {
                    item_id: 8,
                    name: "Gold Ring".into(),
                    equip: false
                },
            ]
        }
    );
    assert_eq!(
        decode(&[9, 1, 46]),
        GameEventDetails::Equip {
            items: vec![ItemRef::new(46)]
        }
    );
    assert_eq!(decode(&[10, 0]), GameEventDetails::Drop { items: vec![] });
    let GameEventDetails::MarketItems { items } = decode(&[12, 3, 1, 1, 101]) else {
        panic!()
    };
    assert_eq!(
        items.iter().map(|i| i.id).collect::<Vec<_>>(),
        vec![1, 101],
        "the contract's repeated item is listed once"
    );
    assert_eq!(items[1].name, "Heavy Gloves");
}

#[test]
fn rejects_malformed_events() {
    let k = keys();
    // Unknown variant.
    assert!(matches!(
        decode_game_event(&k, &data(1, 1, &[17])),
        Err(DecodeError::UnknownVariant { .. })
    ));
    // Short payload.
    assert!(decode_game_event(&k, &data(1, 1, &[14, 3])).is_err());
    // Trailing payload.
    assert!(decode_game_event(&k, &data(1, 1, &[16, 1, 0])).is_err());
    // Bad bool / slot / item id / discovery type.
    assert!(decode_game_event(&k, &data(1, 1, &[16, 2])).is_err());
    assert!(decode_game_event(&k, &data(1, 1, &[14, 3, 9, 0])).is_err());
    assert!(decode_game_event(&k, &data(1, 1, &[9, 1, 102])).is_err());
    assert!(decode_game_event(&k, &data(1, 1, &[3, 3, 1, 1])).is_err());
    // keys_len must be 1; values_len must match.
    let mut d = data(1, 1, &[16, 1]);
    d[0] = Felt::TWO;
    assert!(decode_game_event(&k, &d).is_err());
    let mut d = data(1, 1, &[16, 1]);
    d[2] = Felt::from(9u8);
    assert!(decode_game_event(&k, &d).is_err());
    // Empty / truncated headers.
    assert!(decode_game_event(&k, &[]).is_err());
    assert!(decode_game_event(&k, &felts(&[1, 5])).is_err());
    // Huge array length doesn't allocate or panic.
    assert!(decode_game_event(&k, &data(1, 1, &[12, u32::MAX as u64])).is_err());
    // action_count above u16.
    assert!(decode_game_event(&k, &data(1, 70_000, &[16, 1])).is_err());
}

#[test]
fn encode_roundtrips_every_variant() {
    let s = sample_state();
    let hit = AttackEvent {
        damage: 3,
        location: Slot::Foot,
        critical_hit: true,
    };
    let all = vec![
        GameEventDetails::Adventurer(s.adventurer),
        GameEventDetails::Bag(s.bag),
        GameEventDetails::Beast(s.beast.into()),
        GameEventDetails::Discovery {
            discovery: Discovery::Loot {
                item: ItemRef::new(9),
            },
            xp_reward: 1,
        },
        decode(&[4, 51, 1, 20, 6, 0, 5]),
        decode(&[5, 29, 50, 40]),
        decode(&[6, 1, 1]),
        GameEventDetails::StatUpgrade {
            stats: s.adventurer.stats,
        },
        decode(&[8, 0, 1, 101, 1]),
        decode(&[9, 2, 42, 8]),
        decode(&[10, 1, 46]),
        GameEventDetails::LevelUp { level: 9 },
        decode(&[12, 2, 5, 6]),
        GameEventDetails::Ambush(hit),
        GameEventDetails::Attack(hit),
        GameEventDetails::BeastAttack(hit),
        GameEventDetails::Flee { success: false },
    ];
    assert_eq!(all.len(), 17);
    for (i, details) in all.into_iter().enumerate() {
        let e = GameEvent {
            adventurer_id: u64::MAX.into(),
            action_count: 65535,
            details,
        };
        let (k, d) = encode_game_event(&e, Felt::ONE);
        assert_eq!(u64::try_from(d[4]).unwrap(), i as u64, "variant index");
        assert_eq!(decode_game_event(&k, &d).unwrap().as_ref(), Some(&e));
        // JSON round trip too, with the snake_case tag.
        let v = serde_json::to_value(&e).unwrap();
        assert_eq!(v["details"]["type"], e.details.kind());
        assert_eq!(serde_json::from_value::<GameEvent>(v).unwrap(), e);
    }
}

#[test]
fn json_schema_lists_every_variant() {
    let schema = serde_json::to_string(&schemars::schema_for!(GameEvent)).unwrap();
    for kind in [
        "adventurer",
        "bag",
        "beast",
        "discovery",
        "obstacle",
        "defeated_beast",
        "fled_beast",
        "stat_upgrade",
        "buy_items",
        "equip",
        "drop",
        "level_up",
        "market_items",
        "ambush",
        "attack",
        "beast_attack",
        "flee",
    ] {
        assert!(
            schema.contains(&format!("\"{kind}\"")),
            "{kind} missing from schema"
        );
    }
}

#[test]
fn decode_many_skips_foreign_events() {
    let (k1, d1) = encode_game_event(
        &GameEvent {
            adventurer_id: 3.into(),
            action_count: 2,
            details: GameEventDetails::LevelUp { level: 2 },
        },
        Felt::ONE,
    );
    let foreign_k = [Felt::from(0x99u8)];
    let foreign_d = [Felt::ONE];
    let evs = decode_game_events([(&foreign_k[..], &foreign_d[..]), (&k1[..], &d1[..])]).unwrap();
    assert_eq!(evs.len(), 1);
    assert_eq!(evs[0].details.kind(), "level_up");
}

#[test]
fn v2_only_variants_are_not_v1_events_but_encode_as_game_core_emits_them() {
    let e = decode_game_event(&keys(), &data(1, 1, &[17, 5])).unwrap_err();
    assert!(matches!(e, DecodeError::UnknownVariant { .. }), "{e}");
    let stats = GameEventDetails::CollectableStats(CollectableStats {
        collectable_id: Felt::from(0xabcu16),
        beast_id: 29,
        beast_name: "Dragon".into(),
        prefix: 18,
        suffix: 6,
        adventurers_killed: 3,
        last_kill_timestamp: 1_767_225_600,
    });
    let raw = GameEventDetails::Randomness(UnknownPayload {
        felts: felts(&[5, 6]),
    });
    let mut out = Vec::new();
    encode_details(&stats, &mut out);
    encode_details(&raw, &mut out);
    assert_eq!(
        out,
        felts(&[19, 0xabc, 29, 18, 6, 3, 1_767_225_600, 17, 5, 6])
    );
    assert_eq!(
        (stats.kind(), raw.kind()),
        ("collectable_stats", "randomness")
    );
    let collectable = GameEventDetails::Collectable(UnknownPayload::default());
    assert_eq!(
        serde_json::to_value(&collectable).unwrap()["type"],
        collectable.kind()
    );
}
