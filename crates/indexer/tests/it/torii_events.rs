//! The Torii client's event history against the local Torii stand-in (tests/it/torii_support):
//! every kind of event decoded into the write tools' shapes across pages under every Torii
//! version, other models under the same key kept apart, and more than 255 events of one receipt
//! in chain order.

use crate::torii_support::fixtures::{GAME, VERSIONS, client, every_kind_of_event};
use crate::torii_support::{FakeTorii, ToriiVersion, data};
use game::catalogue::Slot;
use game::events::{AttackEvent, GameEvent, GameEventDetails};
use indexer::torii::EventsFrom;
use serde_json::json;
use starknet_types_core::felt::Felt;

#[tokio::test]
async fn event_history_decodes_into_the_write_tools_shapes_across_pages() {
    for version in VERSIONS {
        event_history_of(version).await;
    }
}

async fn event_history_of(version: ToriiVersion) {
    let fake = FakeTorii::start_version(Felt::from(GAME), version).await;
    let id = 0x1ef;
    let actions = every_kind_of_event(id);
    for a in &actions {
        fake.add_events(a);
    }
    // Noise the history query must skip: another adventurer's events, a row of another model
    // keyed the same way (shaped like a GameEvent), and a GameEvent row that cannot be decoded.
    fake.add_events(&every_kind_of_event(id + 1)[0]);
    let mut foreign = data::event_data(&every_kind_of_event(id)[1][0]);
    foreign["action_count"] = json!(3);
    fake.add_model_event(
        "AdventurerNote",
        id,
        foreign,
        (999, Felt::from(0xfeedu32), 0),
    );
    fake.add_raw_event(
        id,
        json!({"adventurer_id": id.to_string(), "action_count": 8,
            "details": {"attack": {"damage": 1, "location": {"Elbow": []}, "critical_hit": false}}}),
        0,
    );
    // As the write tools decode them: the market's repeated Pendant listed once.
    let expected: Vec<GameEvent> = actions
        .concat()
        .into_iter()
        .map(|mut e| {
            e.details = e.details.for_agent();
            e
        })
        .collect();
    // Pages smaller than one action's events split actions; the cursor keeps the place.
    for limit in [1, 3, 7, 200] {
        let c = client(&fake);
        let mut got = Vec::new();
        let mut warnings = Vec::new();
        let mut from = EventsFrom::default();
        for page in 0.. {
            assert!(page < 100, "pagination does not end");
            let p = c.game_events(id.into(), from, limit).await.unwrap();
            assert_eq!(p.total, Some(expected.len() as u64 + 1));
            assert_eq!(p.last_action_count, Some(8));
            got.extend(p.events);
            warnings.extend(p.warnings);
            match p.next {
                Some(n) => from = n,
                None => break,
            }
        }
        assert_eq!(got, expected, "{version:?} limit {limit}");
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("Elbow"), "{warnings:?}");
    }
    let empty = client(&fake)
        .game_events(game::AdventurerId::from(42u64), EventsFrom::default(), 10)
        .await
        .unwrap();
    assert!(empty.events.is_empty() && empty.next.is_none() && empty.last_action_count.is_none());
}

#[tokio::test]
async fn events_of_another_model_under_the_same_key_are_kept_apart() {
    // Defect: the history was filtered by key only, so another single-key model's rows (here
    // shaped exactly like GameEvents) were returned as the adventurer's events.
    for version in VERSIONS {
        let fake = FakeTorii::start_version(Felt::from(GAME), version).await;
        let id = 0x2a;
        let actions = every_kind_of_event(id);
        fake.add_events(&actions[0]);
        for (i, e) in actions[1].iter().enumerate() {
            fake.add_model_event(
                "AdventurerNote",
                id,
                data::event_data(e),
                (500, Felt::from(0xbeefu32), i as u64),
            );
        }
        let p = client(&fake)
            .game_events(id.into(), EventsFrom::default(), 200)
            .await
            .unwrap();
        let want: Vec<GameEvent> = actions[0]
            .iter()
            .cloned()
            .map(|mut e| {
                e.details = e.details.for_agent();
                e
            })
            .collect();
        assert_eq!(p.events, want, "{version:?}");
        assert_eq!(p.total, Some(actions[0].len() as u64), "{version:?}");
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    }
}

#[tokio::test]
async fn events_past_index_255_of_one_receipt_stay_in_chain_order() {
    // Defect: `event_id` ends with the receipt index as `{:#04x}`, so as text "0x100" sorted
    // before "0x11": past 255 events the order inside one transaction broke.
    let fake = FakeTorii::start(Felt::from(GAME)).await;
    let id = 0x77;
    let events: Vec<GameEvent> = (0..300u16)
        .map(|i| GameEvent {
            adventurer_id: id.into(),
            action_count: 1,
            details: GameEventDetails::Attack(AttackEvent {
                damage: i,
                location: Slot::Chest,
                critical_hit: false,
            }),
        })
        .collect();
    fake.add_events_at(&events, 2);
    let c = client(&fake);
    let mut got = Vec::new();
    let mut from = EventsFrom::default();
    for _ in 0..10 {
        let p = c.game_events(id.into(), from, 120).await.unwrap();
        got.extend(p.events);
        match p.next {
            Some(n) => from = n,
            None => break,
        }
    }
    let damages: Vec<u16> = got
        .iter()
        .map(|e| match &e.details {
            GameEventDetails::Attack(a) => a.damage,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(damages, (0..300).collect::<Vec<_>>());
}
