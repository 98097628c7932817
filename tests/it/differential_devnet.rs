//! Differential test: the devnet practice world (`contracts/practice_world.cairo`, played through
//! the real server binary) against the game engine with the practice world's rules, action by
//! action. After every action both must emit the same game events and reach the same state (the
//! whole `ls_get_adventurer` view: stats, equipment, bag, beast, market, legal actions), and a
//! refused action must be refused by both for the same reason.

use crate::common;

use loot_survivor_mcp::game::engine::{Action, EngineSettings, World};
use loot_survivor_mcp::game::events::GameEvent;
use loot_survivor_mcp::game::model::{ItemPurchase, Stats};
use loot_survivor_mcp::game::phase::Phase;
use loot_survivor_mcp::game::view::{AdventurerView, adventurer_view};
use serde_json::{Value, json};
use starknet_types_core::felt::Felt;

/// The engine's stand-in for the devnet account (only its identity matters).
const OWNER: Felt = Felt::ONE;
/// Games to play, two per starting weapon.
const WEAPONS: [&str; 8] = [
    "Short Sword",
    "Wand",
    "Club",
    "Book",
    "Club",
    "Short Sword",
    "Book",
    "Wand",
];
/// Upper bound on actions per game.
const MAX_ACTIONS: u32 = 150;

struct Move {
    tool: &'static str,
    args: Value,
    action: Action,
}

fn mv(tool: &'static str, args: Value, action: Action) -> Move {
    Move { tool, args, action }
}

/// Spreads stat points round-robin from a step-dependent stat (each stays within 31).
fn upgrade(id: u64, view: &AdventurerView, step: u32) -> Move {
    let s = view.stats;
    let mut now = [
        s.strength,
        s.dexterity,
        s.vitality,
        s.intelligence,
        s.wisdom,
        s.charisma,
    ];
    let mut add = [0u8; 6];
    let mut i = step as usize;
    for _ in 0..view.stat_upgrades_available {
        while now[i % 6] >= 31 {
            i += 1;
        }
        now[i % 6] += 1;
        add[i % 6] += 1;
        i += 1;
    }
    let stats = Stats {
        strength: add[0],
        dexterity: add[1],
        vitality: add[2],
        intelligence: add[3],
        wisdom: add[4],
        charisma: add[5],
        luck: 0,
    };
    mv(
        "ls_upgrade",
        json!({"adventurer_id": id, "strength": add[0], "dexterity": add[1], "vitality": add[2],
               "intelligence": add[3], "wisdom": add[4], "charisma": add[5]}),
        Action::Upgrade { stats },
    )
}

/// A deterministic policy that visits every action, including some the game refuses.
fn choose(id: u64, view: &AdventurerView, step: u32) -> Move {
    let bag_item = view.bag.first().map(|i| i.id);
    let attack = |ttd: bool| {
        mv(
            "ls_attack",
            json!({"adventurer_id": id, "to_the_death": ttd}),
            Action::Attack { to_the_death: ttd },
        )
    };
    let explore = |till: bool| {
        mv(
            "ls_explore",
            json!({"adventurer_id": id, "till_beast": till}),
            Action::Explore { till_beast: till },
        )
    };
    match view.phase {
        Phase::InBattle if view.level <= 1 => attack(false),
        Phase::InBattle => match step % 9 {
            0 | 5 => mv(
                "ls_flee",
                json!({"adventurer_id": id, "to_the_death": step.is_multiple_of(2)}),
                Action::Flee {
                    to_the_death: step.is_multiple_of(2),
                },
            ),
            3 => match bag_item {
                Some(item) => mv(
                    "ls_equip",
                    json!({"adventurer_id": id, "items": [item]}),
                    Action::Equip { items: vec![item] },
                ),
                None => attack(false),
            },
            4 => explore(false),
            7 => attack(true),
            _ => attack(false),
        },
        Phase::StatUpgrade => upgrade(id, view, step),
        _ => match step % 8 {
            0 | 4 => {
                let item = view.market.iter().find(|m| !m.owned && m.affordable);
                let potions = view.max_potions.min(2);
                let equip = step.is_multiple_of(16);
                match item {
                    Some(m) => mv(
                        "ls_buy_item",
                        json!({"adventurer_id": id, "items": [{"item": m.id, "equip": equip}], "potions": potions}),
                        Action::BuyItems {
                            potions,
                            items: vec![ItemPurchase {
                                item_id: m.id,
                                equip,
                            }],
                        },
                    ),
                    None if potions > 0 => mv(
                        "ls_buy_item",
                        json!({"adventurer_id": id, "potions": potions}),
                        Action::BuyItems {
                            potions,
                            items: vec![],
                        },
                    ),
                    None => explore(false),
                }
            }
            1 => match bag_item {
                Some(item) => mv(
                    "ls_equip",
                    json!({"adventurer_id": id, "items": [item]}),
                    Action::Equip { items: vec![item] },
                ),
                None => explore(true),
            },
            2 if view.bag.len() > 3 => {
                let item = view.bag[view.bag.len() - 1].id;
                mv(
                    "ls_drop",
                    json!({"adventurer_id": id, "items": [item]}),
                    Action::Drop { items: vec![item] },
                )
            }
            3 => attack(false),
            5 => explore(true),
            _ => explore(false),
        },
    }
}

fn view_of(result: &Value) -> AdventurerView {
    serde_json::from_value(result["adventurer"].clone()).expect("adventurer view")
}

/// The engine's raw events as the server decodes them for an agent (dodges, market repeats).
fn for_agent(events: Vec<GameEvent>) -> Vec<GameEvent> {
    events
        .into_iter()
        .map(|mut e| {
            e.details = e.details.for_agent();
            e
        })
        .collect()
}

fn events_of(result: &Value) -> Vec<GameEvent> {
    serde_json::from_value(result["events"].clone()).expect("events")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn practice_world_and_engine_agree_action_by_action() {
    let world = common::world().await;
    let client = world.client(&[]).await;
    let mut engine = World::new(EngineSettings::practice_world(), 1);
    let (mut compared, mut reverts, mut events_compared) = (0u32, 0u32, 0usize);
    let mut kinds = std::collections::BTreeSet::new();

    for weapon in WEAPONS {
        let started = client.ok("ls_new_game", json!({"weapon": weapon})).await;
        let id = started["adventurer_id"].as_u64().unwrap();
        assert!(engine.mint_id(id, OWNER), "fresh id {id}");
        let weapon_id = view_of(&started).equipment[0].id;
        let ev = engine
            .act(OWNER, id, &Action::StartGame { weapon: weapon_id })
            .unwrap();
        assert_eq!(
            events_of(&started),
            for_agent(ev),
            "start_game events ({weapon})"
        );
        assert_eq!(
            view_of(&started),
            adventurer_view(id.into(), &engine.state(id)),
            "state after start_game"
        );
        compared += 1;

        let mut view = view_of(&started);
        for step in 0..MAX_ACTIONS {
            if view.phase == Phase::Dead {
                break;
            }
            let m = choose(id, &view, step);
            let on_chain = client.call(m.tool, m.args.clone()).await;
            let in_engine = engine.act(OWNER, id, &m.action);
            compared += 1;
            match in_engine {
                Ok(ev) => {
                    let ev = for_agent(ev);
                    assert!(
                        !on_chain.is_error,
                        "{} {}: the engine accepted, devnet refused: {}",
                        m.tool, m.args, on_chain.text
                    );
                    let s = on_chain.structured.expect("structured result");
                    assert_eq!(events_of(&s), ev, "events of {} {}", m.tool, m.args);
                    events_compared += ev.len();
                    kinds.extend(ev.iter().map(|e| e.details.kind()));
                    view = view_of(&s);
                    assert_eq!(
                        view,
                        adventurer_view(id.into(), &engine.state(id)),
                        "state after {} {}",
                        m.tool,
                        m.args
                    );
                }
                Err(revert) => {
                    reverts += 1;
                    assert!(
                        on_chain.is_error,
                        "{} {}: devnet accepted, the engine refused with '{revert}'",
                        m.tool, m.args
                    );
                    assert_eq!(
                        on_chain.json["error"]["details"]["reason"],
                        revert.reason(),
                        "revert reason of {} {}",
                        m.tool,
                        m.args
                    );
                    let fresh = client
                        .ok("ls_get_adventurer", json!({"adventurer_id": id}))
                        .await;
                    assert_eq!(
                        view_of(&fresh),
                        adventurer_view(id.into(), &engine.state(id))
                    );
                }
            }
        }
    }
    println!(
        "devnet practice world vs engine: {compared} actions compared ({reverts} refused by both), \
         {events_compared} events identical; event kinds seen: {kinds:?}"
    );
    assert!(compared >= 150, "compared only {compared} actions");
    for k in [
        "beast",
        "attack",
        "beast_attack",
        "defeated_beast",
        "level_up",
        "market_items",
        "stat_upgrade",
        "adventurer",
    ] {
        assert!(kinds.contains(k), "no {k} event was compared");
    }
    client.shutdown().await;
}
