use starknet_types_core::felt::Felt;

use super::ceiling::{self, Ceiling};
use super::lookahead::{Budget, Candidate, Looks, candidates, search};
use super::rollout::{Horizon, Replica, SeedSampler};
use super::*;
use crate::engine::{Collection, Game, World, new_adventurer};
use crate::model::Item;
use crate::view::adventurer_view;

/// A small budget for tests (debug builds are slow).
fn small() -> Budget {
    Budget {
        min_rollouts: 2,
        max_rollouts: 4,
        horizon: Horizon {
            levels: 1,
            steps: 60,
            death_cost: 100.0,
        },
        ..Budget::default()
    }
}

/// A game in `world` played by the planner until `stop` says so (or death, or 300 moves).
fn play_until(
    world: &mut World,
    hidden: u64,
    stop: impl Fn(&AdventurerView) -> bool,
) -> (u64, GameState, AdventurerView) {
    let owner = Felt::from(7u8);
    let id = world.mint_hidden(owner, Some(Felt::from(hidden)));
    world
        .act(owner, id, &Action::StartGame { weapon: 46 })
        .expect("start");
    let mut policy = Policy::new(Params::default(), *world.settings());
    for _ in 0..300 {
        let state = world.state(id);
        let view = adventurer_view(crate::AdventurerId::from(id), &state);
        if view.phase == Phase::Dead || stop(&view) {
            return (id, state, view);
        }
        let d = policy.decide(&state, &view);
        world.act(owner, id, &d.action).expect("a legal move");
    }
    panic!("no such state in 300 moves");
}

/// A battle at level 3 against the beast of `seed` with `beast_health` left.
fn battle(beast_health: u16) -> GameState {
    let mut adventurer = new_adventurer(46);
    adventurer.xp = 9;
    adventurer.health = 100;
    adventurer.beast_health = beast_health;
    adventurer.equipment.weapon = Item { id: 46, xp: 9 };
    let game = Game {
        adventurer,
        beast_seed: 12_345,
        ..Game::default()
    };
    game.state(3, &EngineSettings::default(), &Collection::new())
}

#[test]
fn a_copy_of_a_state_reads_back_as_that_state_market_included() {
    let mut world = World::new(EngineSettings::default(), 1);
    let (id, state, view) = play_until(&mut world, 41, |v| {
        v.level >= 3 && v.phase == Phase::Exploring
    });
    assert!(!state.market.is_empty());
    let copy = Replica::of_state(&state, id, SeedSampler::of(&state).seed(0));
    assert_eq!(copy.state(world.settings()), state);
    // The copy buys from the state's market although it does not know the market's seed.
    let item = view
        .market
        .iter()
        .find(|m| m.price <= view.gold)
        .map(|m| m.id);
    if let Some(item_id) = item {
        let mut c = copy.clone();
        let buy = Action::BuyItems {
            potions: 0,
            items: vec![crate::model::ItemPurchase {
                item_id,
                equip: false,
            }],
        };
        c.apply(&buy, world.settings()).expect("the state's market");
    }
}

#[test]
fn sampled_seeds_depend_on_the_public_state_and_the_index_only() {
    let s = battle(5);
    assert_eq!(
        SeedSampler::of(&s).seed(3),
        SeedSampler::of(&s.clone()).seed(3)
    );
    assert_ne!(SeedSampler::of(&s).seed(3), SeedSampler::of(&s).seed(4));
    assert_ne!(
        SeedSampler::of(&s).seed(3),
        SeedSampler::of(&battle(6)).seed(3)
    );
}

#[test]
fn the_decision_is_the_same_whatever_the_hidden_seed() {
    // The same stored game under another hidden seed reads as the same public state, and the
    // lookahead, given only that state, makes the same move.
    let settings = EngineSettings::default();
    let mut world = World::new(settings, 1);
    let (id, state, view) = play_until(&mut world, 77, |v| v.phase == Phase::StatUpgrade);
    let other = Game {
        hidden_seed: Some(Felt::from(999u64)),
        ..world.game(id).cloned().expect("minted")
    };
    let other_state = other.state(id, &settings, world.collection());
    assert_eq!(other_state, state);
    let mut a = Lookahead::new(Params::default(), settings, small());
    let mut b = Lookahead::new(Params::default(), settings, small());
    let da = a.decide(&state, &view);
    let db = b.decide(
        &other_state,
        &adventurer_view(crate::AdventurerId::from(id), &other_state),
    );
    assert_eq!(da, db, "the same public state, the same move");
    assert!(a.rollouts() > 0, "a level-up is looked ahead");
    assert!(matches!(da.action, Action::Upgrade { .. }));
}

#[test]
fn search_picks_the_clearly_better_move_even_when_the_planner_chose_the_other() {
    // One action ahead: attacking a beast with one health left kills it (xp), fleeing gains none.
    let state = battle(1);
    let settings = EngineSettings::default();
    let flee = Candidate {
        action: Action::Flee {
            to_the_death: false,
        },
        save: false,
    };
    let attack = Candidate {
        action: Action::Attack {
            to_the_death: false,
        },
        save: false,
    };
    let budget = Budget {
        horizon: Horizon {
            levels: 10,
            steps: 1,
            death_cost: 100.0,
        },
        ..small()
    };
    let mut scout = Policy::new(Params::default(), settings);
    let choice = search(
        &[flee, attack],
        |k| Replica::of_state(&state, 3, SeedSampler::of(&state).seed(k)),
        &mut scout,
        &settings,
        &budget,
    );
    assert_eq!(choice.index, 1, "{choice:?}");
    assert!(choice.means[1] > choice.means[0]);
    assert_eq!(
        choice.rollouts,
        2 * budget.min_rollouts,
        "clearly apart after the least rollouts"
    );
}

#[test]
fn the_budget_caps_the_rollouts_and_equal_moves_keep_the_planners() {
    let state = battle(40);
    let settings = EngineSettings::default();
    let same = Candidate {
        action: Action::Attack {
            to_the_death: false,
        },
        save: false,
    };
    let budget = small();
    let mut scout = Policy::new(Params::default(), settings);
    let choice = search(
        &[same.clone(), same.clone(), same],
        |k| Replica::of_state(&state, 3, SeedSampler::of(&state).seed(k)),
        &mut scout,
        &settings,
        &budget,
    );
    assert_eq!(choice.index, 0, "no move beats the planner's");
    assert_eq!(choice.rollouts, 3 * budget.max_rollouts);
}

#[test]
fn level_ups_offer_every_stat_and_sure_fights_offer_nothing() {
    let settings = EngineSettings::default();
    let mut world = World::new(settings, 1);
    let (_, state, view) = play_until(&mut world, 5, |v| v.phase == Phase::StatUpgrade);
    let mut policy = Policy::new(Params::default(), settings);
    let base = policy.decide(&state, &view);
    let c = candidates(&state, &view, &base, &settings, &Budget::default());
    assert_eq!(c[0].action, base.action, "the planner's move first");
    assert_eq!(c.len(), 6, "one per stat, the planner's among them");
    let no_stats = Budget {
        looks: Looks {
            stats: false,
            ..Looks::ALL
        },
        ..Budget::default()
    };
    assert!(
        candidates(&state, &view, &base, &settings, &no_stats).is_empty(),
        "level-ups left to the planner"
    );
    let sure = battle(1);
    let sure_view = adventurer_view(crate::AdventurerId::from(3), &sure);
    let attack = policy.decide(&sure, &sure_view);
    assert!(candidates(&sure, &sure_view, &attack, &settings, &Budget::default()).is_empty());
}

#[test]
fn an_exact_copy_plays_as_the_world_does() {
    let settings = EngineSettings::default();
    let mut world = World::new(settings, 1);
    let (id, state, _) = play_until(&mut world, 9, |v| {
        v.level >= 2 && v.phase == Phase::Exploring
    });
    let game = world.game(id).cloned().expect("minted");
    let mut copy = Replica::exact(game, id);
    assert_eq!(copy.state(&settings), state);
    let explore = Action::Explore { till_beast: true };
    copy.apply(&explore, &settings).expect("explore");
    world
        .act(Felt::from(7u8), id, &explore)
        .expect("explore on the world");
    assert_eq!(copy.state(&settings), world.state(id));
    // The ceiling decides from the stored game; its move is legal there.
    let mut ceiling = Ceiling::new(
        Params::default(),
        settings,
        settings,
        Budget {
            horizon: Horizon {
                levels: 1,
                steps: 40,
                death_cost: 0.0,
            },
            ..ceiling::EXACT
        },
    );
    let state = world.state(id);
    let view = adventurer_view(crate::AdventurerId::from(id), &state);
    let game = world.game(id).cloned().expect("minted");
    let d = ceiling.decide(&game, id, &state, &view);
    world.act(Felt::from(7u8), id, &d.action).expect("legal");
}

#[test]
fn budget_figures_are_set_by_name() {
    let mut b = Budget::default();
    b.set("look_max", "40").unwrap();
    b.set("look_levels", "3").unwrap();
    assert_eq!((b.max_rollouts, b.horizon.levels), (40, 3));
    b.set("look_battle", "0").unwrap();
    assert!(!b.looks.battle && b.looks.stats && b.looks.gold);
    let mut exact = ceiling::EXACT;
    ceiling::set(&mut exact, "ceil_gold", "0").unwrap();
    assert!(exact.looks.battle && exact.looks.stats && !exact.looks.gold);
    assert_eq!(
        ceiling::set(&mut exact, "ceil_x", "0"),
        Err(ParamError::Unknown("ceil_x".into()))
    );
    assert_eq!(
        b.set("look_x", "1"),
        Err(ParamError::Unknown("look_x".into()))
    );
}

#[test]
fn whole_games_with_the_lookahead_make_only_legal_moves() {
    let settings = EngineSettings::default();
    let mut world = World::new(settings, 1);
    let owner = Felt::from(7u8);
    let id = world.mint_hidden(owner, Some(Felt::from(31u64)));
    world
        .act(owner, id, &Action::StartGame { weapon: 12 })
        .expect("start");
    let mut look = Lookahead::new(Params::default(), settings, small());
    for _ in 0..80 {
        let state = world.state(id);
        let view = adventurer_view(crate::AdventurerId::from(id), &state);
        if view.phase == Phase::Dead {
            break;
        }
        let d = look.decide(&state, &view);
        world.act(owner, id, &d.action).expect("a legal move");
    }
    assert!(look.rollouts() > 0);
}
