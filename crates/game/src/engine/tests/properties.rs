//! Properties of randomly played games: caps, packing round-trips, monotonic progress, what the
//! predictions say against what happens, and the full rules' specials and collectables.

use super::*;

/// Plays random (mostly legal) actions and returns the visited states.
fn random_game(seed: u64, settings: EngineSettings) -> Vec<GameState> {
    let mut rng = Rng(seed);
    let mut w = World::new(settings, seed % 1000 + 1);
    let id = w.mint(OWNER);
    let weapon = rules::STARTING_WEAPONS[rng.below(4) as usize];
    w.act(OWNER, id, &Action::StartGame { weapon }).unwrap();
    let mut states = vec![w.state(id)];
    // What a server knows without reading: each state derived from the previous derived one.
    let mut known = w.state(id);
    for _ in 0..600 {
        let s = w.state(id);
        let a = &s.adventurer;
        let action = match phase::phase(a) {
            phase::Phase::Dead | phase::Phase::NotStarted => break,
            phase::Phase::InBattle => match rng.below(4) {
                0 => Action::Flee {
                    to_the_death: rng.below(2) == 0,
                },
                1 if s.bag.iter().next().is_some() => Action::Equip {
                    items: vec![s.bag.iter().next().unwrap().id],
                },
                _ => Action::Attack {
                    to_the_death: rng.below(3) == 0,
                },
            },
            phase::Phase::StatUpgrade => {
                let mut st = Stats::default();
                for _ in 0..a.stat_upgrades_available {
                    match rng.below(6) {
                        0 => st.strength += 1,
                        1 => st.dexterity += 1,
                        2 => st.vitality += 1,
                        3 => st.intelligence += 1,
                        4 => st.wisdom += 1,
                        _ => st.charisma += 1,
                    }
                }
                Action::Upgrade { stats: st }
            }
            phase::Phase::Exploring => match rng.below(6) {
                0 if !s.market.is_empty() => Action::BuyItems {
                    potions: rng.below(3) as u8,
                    items: vec![ItemPurchase {
                        item_id: s.market[rng.below(s.market.len() as u64) as usize],
                        equip: rng.below(2) == 0,
                    }],
                },
                1 if s.bag.iter().next().is_some() => Action::Drop {
                    items: vec![s.bag.iter().next().unwrap().id],
                },
                _ => Action::Explore {
                    till_beast: rng.below(2) == 0,
                },
            },
        };
        match w.act(OWNER, id, &action) {
            Ok(events) => {
                let last = events.last().expect("every action emits");
                assert_eq!(
                    last.details,
                    GameEventDetails::Adventurer(w.state(id).adventurer),
                    "the last event is the new adventurer"
                );
                let derived = crate::after::state_after_events(Some(&known), &events, &action)
                    .expect("the events and the state before determine the state after");
                assert_eq!(
                    crate::view::adventurer_view(crate::AdventurerId::from(id), &derived),
                    crate::view::adventurer_view(crate::AdventurerId::from(id), &w.state(id)),
                    "the state from the events of {action:?} is what a read shows"
                );
                known = derived;
            }
            Err(_) => assert_eq!(w.state(id), s, "{action:?} reverted but changed the game"),
        }
        states.push(w.state(id));
    }
    states
}

#[test]
fn random_games_respect_caps_and_pack() {
    for seed in 0..40u64 {
        let settings = if seed % 4 == 3 {
            EngineSettings {
                stats_mode: StatsMode::Reduction,
                ..EngineSettings::default()
            }
        } else {
            EngineSettings::default()
        };
        for s in random_game(seed, settings) {
            let a = &s.adventurer;
            assert!(a.gold <= rules::MAX_GOLD);
            assert!(a.xp <= rules::MAX_XP);
            assert!(a.health <= a.max_health(), "{a:?}");
            assert!(a.stat_upgrades_available <= rules::MAX_STAT_UPGRADES);
            let stored = crate::boosts::unboosted(a, &s.bag);
            for v in [
                stored.stats.strength,
                stored.stats.dexterity,
                stored.stats.vitality,
                stored.stats.intelligence,
                stored.stats.wisdom,
                stored.stats.charisma,
            ] {
                assert!(v <= rules::MAX_STAT_VALUE);
            }
            for (_, it) in a.equipment.slots() {
                assert!(it.xp <= rules::MAX_ITEM_XP);
            }
            let packed = pack::pack_adventurer(&stored).expect("packs");
            assert_eq!(pack::unpack_adventurer(packed).unwrap(), stored);
            let bag = pack::pack_bag(&s.bag).expect("bag packs");
            assert_eq!(pack::unpack_bag(bag).unwrap(), s.bag);
            let game = Game::from_state(&s);
            assert_eq!(game.adventurer, stored);
        }
    }
}

#[test]
fn xp_and_level_never_decrease_in_play() {
    for seed in 100..110u64 {
        let states = random_game(seed, EngineSettings::default());
        for pair in states.windows(2) {
            let (a, b) = (&pair[0].adventurer, &pair[1].adventurer);
            assert!(b.xp >= a.xp && b.level() >= a.level());
            for ((_, x), (_, y)) in a.equipment.slots().iter().zip(b.equipment.slots()) {
                if x.id == y.id {
                    assert!(y.xp >= x.xp, "item xp only grows");
                }
            }
        }
    }
}

#[test]
fn practice_rules_never_unlock_specials() {
    for seed in 200..215u64 {
        for s in random_game(seed, EngineSettings::practice_world()) {
            assert_eq!(s.adventurer.item_specials_seed, 0);
            assert!(!s.beast.is_collectable);
        }
    }
}

#[test]
fn specials_unlock_with_greatness_in_full_rules() {
    // A weapon one kill away from greatness 15: the kill sets the item-specials seed.
    let (mut w, id) = started(46);
    w.act(
        OWNER,
        id,
        &Action::Attack {
            to_the_death: false,
        },
    )
    .unwrap();
    let mut game = w.game(id).unwrap().clone();
    game.adventurer.stat_upgrades_available = 0;
    game.adventurer.equipment.weapon.xp = 224;
    game.adventurer.xp = 400;
    game.adventurer.health = 500;
    game.adventurer.stats.vitality = 20;
    game.adventurer.beast_health = 1;
    game.beast_seed = 5;
    let settings = EngineSettings::default();
    let out = game
        .apply(
            id,
            &Action::Attack {
                to_the_death: false,
            },
            &settings,
            &Collection::new(),
        )
        .unwrap();
    assert_eq!(out.events[1].kind(), "defeated_beast");
    assert!(game.adventurer.equipment.weapon.greatness() >= 15);
    let level_rnd = crate::random::get_randomness(400, 5).r2_u16;
    assert_eq!(game.adventurer.item_specials_seed, level_rnd);
    assert_ne!(game.adventurer.item_specials_seed, 0);
}

#[test]
fn predictions_are_what_happens() {
    let (mut w, id) = started(76);
    let before = w.state(id);
    let p = predict(
        id,
        &before,
        &Action::Attack { to_the_death: true },
        w.settings(),
    )
    .unwrap();
    w.act(OWNER, id, &Action::Attack { to_the_death: true })
        .unwrap();
    let after = w.state(id).adventurer;
    assert_eq!(p.end, PredictedEnd::BeastKilled);
    assert_eq!(
        (p.health_after, p.level_after),
        (after.health, after.level())
    );
    assert_eq!(p.xp_gained, after.xp);
    assert_eq!(
        predict(
            id,
            &w.state(id),
            &Action::Attack {
                to_the_death: false
            },
            w.settings()
        )
        .unwrap_err()
        .reason(),
        "Not in battle"
    );
    // Deeper in a game, every prediction of attack and flee matches the real outcome.
    for seed in 300..320u64 {
        let mut world = World::new(EngineSettings::default(), seed);
        let id = world.mint(OWNER);
        world
            .act(OWNER, id, &Action::StartGame { weapon: 12 })
            .unwrap();
        for step in 0..200u32 {
            let s = world.state(id);
            let a = s.adventurer;
            let action = match phase::phase(&a) {
                phase::Phase::Dead => break,
                phase::Phase::InBattle if step % 3 == 0 => Action::Flee {
                    to_the_death: step % 2 == 0,
                },
                phase::Phase::InBattle => Action::Attack {
                    to_the_death: step % 2 == 0,
                },
                phase::Phase::StatUpgrade => Action::Upgrade {
                    stats: Stats {
                        dexterity: a.stat_upgrades_available,
                        ..Stats::default()
                    },
                },
                _ => Action::Explore { till_beast: true },
            };
            let predicted = predict(id, &s, &action, world.settings());
            match world.act(OWNER, id, &action) {
                Ok(_) => {
                    let p = predicted.expect("the prediction accepts what the world accepts");
                    let real = world.state(id).adventurer;
                    assert_eq!(
                        (p.health_after, p.beast_health_after, p.xp_gained),
                        (real.health, real.beast_health, real.xp - a.xp),
                        "{action:?}"
                    );
                }
                Err(r) => assert_eq!(predicted.unwrap_err(), r),
            }
        }
    }
}

#[test]
fn gold_ring_and_collectables_in_full_rules() {
    let (mut w, id) = started(46);
    w.act(
        OWNER,
        id,
        &Action::Attack {
            to_the_death: false,
        },
    )
    .unwrap();
    let mut game = w.game(id).unwrap().clone();
    game.adventurer.stat_upgrades_available = 0;
    game.adventurer.xp = 400;
    game.adventurer.health = 1000;
    game.adventurer.equipment.weapon = Item { id: 42, xp: 400 };
    game.adventurer.equipment.ring = Item { id: 8, xp: 400 };
    // Find a beast seed giving a level-19+ (collectable) beast at level 20.
    let settings = EngineSettings::default();
    let seed = (1..5000u64)
        .find(|&s| {
            game.beast_seed = s;
            game.beast(&settings, &Collection::new()).level >= 19
        })
        .unwrap();
    game.beast_seed = seed;
    let beast = game.beast(&settings, &Collection::new());
    assert!(beast.is_collectable);
    game.adventurer.beast_health = 1;
    let before = game.clone();
    let out = game
        .apply(
            id,
            &Action::Attack {
                to_the_death: false,
            },
            &settings,
            &Collection::new(),
        )
        .unwrap();
    let GameEventDetails::DefeatedBeast {
        gold_reward,
        beast_name,
        ..
    } = &out.events[1]
    else {
        panic!("{:?}", out.events)
    };
    let plain = crate::catalogue::beast(beast.id).unwrap().name;
    assert_eq!(beast_name, plain, "the catalogue's name, without specials");
    let base = rules::gold_reward(rules::beast_tier(beast.id), beast.level);
    assert_eq!(*gold_reward, base + base * 60 / 100, "Gold Ring G20: +60%");
    assert_eq!(out.collected.len(), 1);
    let mut collection = Collection::new();
    collection.extend(out.collected);
    assert!(
        !before.beast(&settings, &collection).is_collectable,
        "collected once"
    );
    let practice = EngineSettings::practice_world();
    assert!(!before.beast(&practice, &Collection::new()).is_collectable);
}
