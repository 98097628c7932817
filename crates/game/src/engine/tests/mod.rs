//! Engine tests: the integration and revert vectors (docs/game-rules.md#test-vectors) and event
//! order; `properties`: randomly played games (caps, packing round-trips, all-or-nothing actions).

use starknet_types_core::felt::Felt;

use super::*;
use crate::events::{GameEventDetails, decode_game_event, encode_game_event};
use crate::model::{GameState, Item, ItemPurchase, Stats};
use crate::testing::Rng;
use crate::{catalogue, pack, phase, rules};

const OWNER: Felt = Felt::from_hex_unchecked("0x123");

fn started(weapon: u8) -> (World, u64) {
    let mut w = World::new(EngineSettings::default(), 1);
    let id = w.mint(OWNER);
    w.act(OWNER, id, &Action::StartGame { weapon }).unwrap();
    (w, id)
}

fn revert(w: &mut World, id: u64, a: Action) -> &'static str {
    let before = w.state(id);
    let r = w.act(OWNER, id, &a).unwrap_err().reason();
    assert_eq!(w.state(id), before, "a revert changes nothing ({r})");
    r
}

fn kinds(events: &[crate::events::GameEvent]) -> Vec<&'static str> {
    events.iter().map(|e| e.details.kind()).collect()
}

#[test]
fn new_adventurer_vector() {
    let a = new_adventurer(12);
    assert_eq!((a.health, a.gold, a.xp, a.beast_health), (100, 40, 0, 3));
    assert_eq!(a.equipment.weapon.id, 12);
}

#[test]
fn start_game_vector() {
    let (w, id) = started(12);
    let a = w.state(id).adventurer;
    assert_eq!((a.xp, a.health, a.gold, a.beast_health), (0, 90, 40, 3));
    assert_eq!(a.equipment.weapon, Item { id: 12, xp: 0 });
    assert_eq!(a.action_count, 1);
    assert_eq!(a.stats.luck, 2, "empty neck and ring");
    let beast = w.state(id).beast;
    assert_eq!(
        (beast.id, beast.health, beast.level, beast.seed),
        (71, 3, 1, id)
    );
}

#[test]
fn first_attack_vector() {
    let (mut w, id) = started(12);
    let ev = w
        .act(
            OWNER,
            id,
            &Action::Attack {
                to_the_death: false,
            },
        )
        .unwrap();
    assert_eq!(
        kinds(&ev),
        [
            "attack",
            "defeated_beast",
            "level_up",
            "market_items",
            "adventurer"
        ]
    );
    assert!(
        ev.iter()
            .all(|e| e.action_count == 2 && e.adventurer_id == id)
    );
    let a = w.state(id).adventurer;
    assert_eq!(a.beast_health, 0);
    assert_eq!(a.level(), 2);
    assert_eq!(a.stat_upgrades_available, 1);
    assert_eq!(a.equipment.weapon.xp, 8);
    assert_eq!(a.stats.upgrade_points(), 12, "starting stats revealed");
    assert_eq!(a.health, 90 + 15 * u16::from(a.stats.vitality));
    assert_eq!(a.gold, 40, "T5 level 1: 1 * 1 / 2 = 0 gold");
    let GameEventDetails::MarketItems { items } = &ev[3].details else {
        panic!()
    };
    assert_eq!(
        items.iter().map(|i| i.id).collect::<Vec<_>>(),
        w.state(id).market
    );
}

#[test]
fn revert_vectors() {
    let (mut w, id) = started(12);
    assert_eq!(
        revert(&mut w, id, Action::Explore { till_beast: false }),
        "Action not allowed in battle"
    );
    assert_eq!(
        revert(
            &mut w,
            id,
            Action::Flee {
                to_the_death: false
            }
        ),
        "Cant flee starter beast"
    );
    assert_eq!(
        revert(&mut w, id, Action::StartGame { weapon: 12 }),
        "Adventurer already started"
    );
    w.act(
        OWNER,
        id,
        &Action::Attack {
            to_the_death: false,
        },
    )
    .unwrap();
    assert_eq!(
        revert(
            &mut w,
            id,
            Action::Attack {
                to_the_death: false
            }
        ),
        "Not in battle"
    );
    assert_eq!(
        revert(
            &mut w,
            id,
            Action::Flee {
                to_the_death: false
            }
        ),
        "Not in battle"
    );
    assert_eq!(
        revert(&mut w, id, Action::Explore { till_beast: false }),
        "Stat upgrade available"
    );
    assert_eq!(
        revert(
            &mut w,
            id,
            Action::BuyItems {
                potions: 1,
                items: vec![]
            }
        ),
        "Market is closed"
    );
    assert_eq!(
        revert(
            &mut w,
            id,
            Action::Upgrade {
                stats: Stats {
                    strength: 2,
                    ..Stats::default()
                }
            }
        ),
        "insufficient stat upgrades"
    );
    assert_eq!(
        revert(
            &mut w,
            id,
            Action::Upgrade {
                stats: Stats {
                    luck: 1,
                    strength: 1,
                    ..Stats::default()
                }
            }
        ),
        "Luck must be zero"
    );
    w.act(
        OWNER,
        id,
        &Action::Upgrade {
            stats: Stats {
                charisma: 1,
                ..Stats::default()
            },
        },
    )
    .unwrap();
    assert_eq!(
        revert(
            &mut w,
            id,
            Action::Upgrade {
                stats: Stats::default()
            }
        ),
        "Market is closed"
    );
    let market = w.state(id).market;
    let buy = |id: u8| ItemPurchase {
        item_id: id,
        equip: false,
    };
    assert_eq!(
        revert(
            &mut w,
            id,
            Action::BuyItems {
                potions: 0,
                items: vec![buy(255)]
            }
        ),
        "Market item does not exist"
    );
    let cheap = *market
        .iter()
        .min_by_key(|&&m| rules::tier_price(catalogue::item(m).unwrap().tier))
        .unwrap();
    assert_eq!(
        revert(
            &mut w,
            id,
            Action::BuyItems {
                potions: 0,
                items: vec![buy(cheap), buy(cheap)]
            }
        ),
        "Item already owned"
    );
    assert_eq!(
        revert(&mut w, id, Action::Equip { items: vec![cheap] }),
        "Item not in bag"
    );
    assert_eq!(
        revert(&mut w, id, Action::Equip { items: vec![1; 9] }),
        "Too many items"
    );
    assert_eq!(
        revert(&mut w, id, Action::Equip { items: vec![] }),
        "Must provide item ids"
    );
    assert_eq!(
        revert(
            &mut w,
            id,
            Action::BuyItems {
                potions: 30,
                items: vec![]
            }
        ),
        "Health already full"
    );
    assert_eq!(
        revert(&mut w, id, Action::Drop { items: vec![99] }),
        "Item not owned by adventurer"
    );
    assert_eq!(
        w.act(Felt::ONE, id, &Action::Explore { till_beast: false })
            .unwrap_err()
            .reason(),
        "Not token owner"
    );
    assert_eq!(
        revert(&mut w, 1, Action::StartGame { weapon: 13 }),
        "Adventurer already started"
    );
    let id2 = w.mint(OWNER);
    assert_eq!(
        revert(&mut w, id2, Action::StartGame { weapon: 13 }),
        "Invalid starting weapon"
    );
}

#[test]
fn events_round_trip_through_felts() {
    let (mut w, id) = started(46);
    let mut all = w
        .act(OWNER, id, &Action::Attack { to_the_death: true })
        .unwrap();
    w.act(
        OWNER,
        id,
        &Action::Upgrade {
            stats: Stats {
                vitality: 1,
                ..Stats::default()
            },
        },
    )
    .unwrap();
    all.extend(
        w.act(OWNER, id, &Action::Explore { till_beast: true })
            .unwrap(),
    );
    for e in &all {
        let (keys, data) = encode_game_event(e, Felt::from(7u8));
        let mut for_agent = e.clone();
        for_agent.details = for_agent.details.for_agent();
        assert_eq!(decode_game_event(&keys, &data).unwrap(), Some(for_agent));
    }
}

mod properties;

#[test]
fn surrender_ends_a_living_game_with_the_adventurer_event() {
    let (mut w, id) = started(12);
    assert_eq!(Action::Surrender.entrypoint(), "surrender");
    let ev = w.act(OWNER, id, &Action::Surrender).unwrap();
    assert_eq!(kinds(&ev), ["adventurer"]);
    let GameEventDetails::Adventurer(a) = &ev[0].details else {
        panic!("{ev:?}")
    };
    assert_eq!((a.health, a.xp, a.gold), (0, 0, 40));
    assert_eq!(w.state(id).adventurer.health, 0);
    assert_eq!(revert(&mut w, id, Action::Surrender), "Adventurer is dead");
}
