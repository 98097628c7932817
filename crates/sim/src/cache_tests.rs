//! Tests of the bounded cache of a saved world: games dropped from memory are read back from the
//! store unchanged, another process's writes are seen whether a game is cached or not, and a
//! stale read never replaces what a later change brought.

use super::cache::{Cache, Changes, Entry, finished};
use super::tests::{next_move, opts, saved};
use super::*;
use game::engine::Action;

/// Plays game `id` (minted) to its end: start, then vitality / attack / explore.
fn play_to_death(sim: &SimChain, id: u64) {
    sim.apply(id, &Action::StartGame { weapon: 46 }, &opts())
        .unwrap();
    for _ in 0..2_000 {
        let adv = sim.game_state(id).unwrap().adventurer;
        if adv.health == 0 {
            return;
        }
        sim.apply(id, &next_move(&adv, true), &opts()).unwrap();
    }
    panic!("game {id} did not end");
}

/// How many finished and unfinished games the cache holds.
fn held(sim: &SimChain) -> (usize, usize) {
    let inner = sim.lock();
    let done = inner
        .cache
        .entries()
        .filter(|(_, e)| finished(&e.game))
        .count();
    (done, inner.cache.entries().count() - done)
}

#[test]
fn finished_games_leave_memory_and_still_read_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("world.sqlite3");
    let sim = saved(&path, SimRandomness::Master(5), false);
    sim.lock().cache.bound(2, 1);
    let mut ids = Vec::new();
    for _ in 0..5 {
        let (id, _) = sim.mint_game(&opts()).unwrap();
        play_to_death(&sim, id);
        ids.push(id);
    }
    let (idle, _) = sim.mint_game(&opts()).unwrap();
    assert_eq!(held(&sim), (1, 1), "one finished game and the new one");
    let other = saved(&path, SimRandomness::Master(5), false);
    for &id in &ids {
        let state = sim.game_state(id).unwrap();
        assert_eq!(state.adventurer.health, 0);
        assert!(state.adventurer.xp > 0, "game {id} was played");
        assert_eq!(state, other.game_state(id).unwrap());
        assert_eq!(sim.owner_of(id).unwrap(), Some(sim_account()));
        assert!(sim.stored_game(id).unwrap().unwrap().hidden_seed.is_some());
        assert!(held(&sim).0 <= 1, "reading one back keeps the bound");
    }
    let listed = sim.games().unwrap();
    assert_eq!(
        listed.iter().map(|g| g.adventurer_id).collect::<Vec<_>>(),
        [ids.clone(), vec![idle]].concat()
    );
    for g in &listed {
        let stored = other.stored_game(g.adventurer_id).unwrap().unwrap();
        assert_eq!(g.adventurer, stored.adventurer, "the stored adventurer");
    }
    // A finished game read back still refuses an action as the chain does (dead).
    let e = sim
        .apply(ids[0], &Action::Explore { till_beast: false }, &opts())
        .unwrap_err();
    assert!(matches!(e, ChainError::Revert { .. }), "{e:?}");
    assert_eq!(sim.game_state(9_999).unwrap().adventurer.action_count, 0);
}

#[test]
fn another_process_writes_are_seen_on_cached_and_dropped_games() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("world.sqlite3");
    let a = saved(&path, SimRandomness::Master(8), false);
    a.lock().cache.bound(1, 0);
    let (first, _) = a.mint_game(&opts()).unwrap();
    let (second, _) = a.mint_game(&opts()).unwrap();
    assert!(
        a.lock().cache.peek(first).is_none(),
        "the older live game left"
    );
    let b = saved(&path, SimRandomness::Master(8), false);
    for id in [first, second] {
        b.apply(id, &Action::StartGame { weapon: 46 }, &opts())
            .unwrap();
        let seen = a.game_state(id).unwrap();
        assert_eq!(seen.adventurer.action_count, 1, "game {id}");
        assert_eq!(seen, b.game_state(id).unwrap());
    }
    // `a` plays on where `b` left, and `b` sees it.
    a.apply(
        second,
        &Action::Attack {
            to_the_death: false,
        },
        &opts(),
    )
    .unwrap();
    assert_eq!(b.game_state(second).unwrap(), a.game_state(second).unwrap());
    assert_eq!(b.game_state(second).unwrap().adventurer.action_count, 2);
}

#[test]
fn a_read_older_than_a_merged_change_is_not_cached() {
    let mut cache = Cache::new(EngineSettings::default(), 1);
    cache.bound(4, 4);
    let entry = |version| Entry {
        version,
        ..Entry::new(sim_account(), game::engine::Game::default())
    };
    cache.merge(Changes {
        generation: 1,
        seq: 10,
        ..Changes::default()
    });
    cache.put(1, 9, 7, entry(3), &[]);
    assert!(cache.peek(7).is_none(), "read at 9, the cache follows 10");
    cache.put(1, 10, 7, entry(3), &[]);
    assert_eq!(cache.peek(7).map(|e| e.version), Some(3));
    cache.merge(Changes {
        generation: 1,
        seq: 12,
        moved: vec![(7, 4)],
        ..Changes::default()
    });
    assert!(
        cache.peek(7).is_none(),
        "a newer version elsewhere drops it"
    );
    cache.put(1, 12, 7, entry(5), &[]);
    cache.put(1, 12, 7, entry(4), &[]);
    assert_eq!(cache.peek(7).map(|e| e.version), Some(5), "never older");
    cache.put(2, 20, 8, entry(1), &[]);
    assert!(cache.peek(8).is_none(), "another generation");
}
