//! Tests of the saved world: durability, the earlier format's conversion, processes side by side
//! on one adventurer, fresh starts.

use super::tests::{next_move, opts, saved};
use super::*;
use game::engine::{Action, World};

fn play(sim: &SimChain, id: u64, actions: usize) {
    for _ in 0..actions {
        let adv = sim.game_state(id).unwrap().adventurer;
        if adv.health == 0 {
            return;
        }
        let _ = sim.apply(id, &next_move(&adv, false), &opts());
    }
}

#[test]
fn an_answered_write_is_in_a_store_opened_afterwards() {
    let dir = tempfile::tempdir().unwrap();
    let path = SimOptions::state_path(dir.path(), SimRandomness::Os);
    let sim = saved(&path, SimRandomness::Os, false);
    let (id, _) = sim.mint_game(&opts()).unwrap();
    let r = sim
        .apply(id, &Action::StartGame { weapon: 46 }, &opts())
        .unwrap();
    play(&sim, id, 5);
    let state = sim.game_state(id).unwrap();
    let seed = sim.stored_game(id).unwrap().unwrap().hidden_seed;
    // As if the process died here: nothing of `sim` is dropped or flushed.
    std::mem::forget(sim);
    let other = saved(&path, SimRandomness::Os, false);
    assert_eq!(other.game_state(id).unwrap(), state);
    assert_eq!(other.stored_game(id).unwrap().unwrap().hidden_seed, seed);
    assert!(seed.is_some());
    let found = other.lookup(r.tx_hash).unwrap();
    assert_eq!(found.record.unwrap().action, "start_game");
    let (events, pruned) = other.game_events(id).unwrap().unwrap();
    assert!(!pruned && events.len() >= r.events.len(), "{events:?}");
    assert_eq!(other.mint_game(&opts()).unwrap().0, id + 1);
}

/// A world of the earlier format: `world.json` as `State` serialized it (version, the engine's
/// `World`, the ledger's counters) and its JSON-lines history (the current form and the
/// earliest one).
fn old_world(dir: &Path) -> World {
    let mut world = World::new(EngineSettings::default(), 3);
    let seeds = SimRandomness::Master(5);
    for id in 3..6 {
        world.mint_hidden(sim_account(), seeds.hidden_seed(id).unwrap());
    }
    world
        .act(sim_account(), 3, &Action::StartGame { weapon: 46 })
        .unwrap();
    world
        .act(sim_account(), 4, &Action::StartGame { weapon: 12 })
        .unwrap();
    let _ = world.act(sim_account(), 4, &Action::Attack { to_the_death: true });
    let state = serde_json::json!({
        "version": 1,
        "world": world,
        "ledger": {"nonce": 7, "block": 7},
    });
    std::fs::write(dir.join("world.json"), state.to_string()).unwrap();
    let mut ledger = Ledger::default();
    let mint = ledger.commit(Some(3), "mint_game", Vec::new(), &opts());
    let lines = [
        serde_json::to_string(&mint).unwrap(),
        r#"{"hash":"0x5a","adventurer_id":4,"action":"explore","nonce":3,"block":3,"signed_at":1700000000,"status":"ACCEPTED_ON_L2","events":[]}"#.into(),
        "{\"cut short".into(),
    ];
    std::fs::write(dir.join("world.json.history.jsonl"), lines.join("\n")).unwrap();
    world
}

#[test]
fn a_world_of_the_json_format_is_converted_once_and_plays_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut world = old_world(dir.path());
    let path = SimOptions::state_path(dir.path(), SimRandomness::Master(5));
    let sim = saved(&path, SimRandomness::Master(5), false);
    assert!(!dir.path().join("world.json").exists());
    assert!(dir.path().join("world.json.converted").is_file());
    assert!(
        dir.path()
            .join("world.json.history.jsonl.converted")
            .is_file()
    );
    let ids: Vec<u64> = sim
        .games()
        .unwrap()
        .iter()
        .map(|g| g.adventurer_id)
        .collect();
    assert_eq!(ids, [3, 4, 5]);
    for id in 3..6 {
        assert_eq!(sim.game_state(id).unwrap(), world.state(id), "game {id}");
        assert_eq!(
            sim.stored_game(id).unwrap().as_ref(),
            world.game(id),
            "game {id} and its hidden seed"
        );
    }
    assert_eq!(
        sim.lookup(Felt::from(0x5au32)).unwrap().status,
        chain::TxStatus::AcceptedOnL2
    );
    assert_eq!(sim.game_events(3).unwrap(), Some((Vec::new(), false)));
    assert!(sim.game_events(4).unwrap().unwrap().1, "pruned");
    // The same action gives the same events as on the old world: the seeds came over.
    let attack = Action::Attack {
        to_the_death: false,
    };
    let r = sim.apply(3, &attack, &opts()).unwrap();
    let expected = world.act(sim_account(), 3, &attack).unwrap();
    assert_eq!(
        r.events.iter().map(|e| &e.details).collect::<Vec<_>>(),
        ledger::for_agent(&expected)
            .iter()
            .map(|e| &e.details)
            .collect::<Vec<_>>()
    );
    assert_eq!(r.block_number, Some(8), "the counters came over");
    assert_eq!(sim.mint_game(&opts()).unwrap().0, 6);
    // Read once: a second open does not convert again.
    std::fs::rename(
        dir.path().join("world.json.converted"),
        dir.path().join("world.json"),
    )
    .unwrap();
    let again = saved(&path, SimRandomness::Master(5), false);
    assert_eq!(again.games().unwrap().len(), 4);
    assert_eq!(again.game_state(3).unwrap(), sim.game_state(3).unwrap());
}

#[test]
fn two_processes_playing_one_adventurer_lose_no_action() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("world.sqlite3");
    let first = saved(&path, SimRandomness::Master(2), false);
    let (id, _) = first.mint_game(&opts()).unwrap();
    first
        .apply(id, &Action::StartGame { weapon: 46 }, &opts())
        .unwrap();
    let players: Vec<_> = (0..2)
        .map(|_| {
            let path = path.clone();
            std::thread::spawn(move || {
                let sim = saved(&path, SimRandomness::Master(2), false);
                let mut landed = 0;
                for _ in 0..15 {
                    let adv = sim.game_state(id).unwrap().adventurer;
                    let action = if adv.health == 0 {
                        break;
                    } else if adv.beast_health > 0 {
                        Action::Attack {
                            to_the_death: false,
                        }
                    } else {
                        Action::Explore { till_beast: false }
                    };
                    landed += usize::from(sim.apply(id, &action, &opts()).is_ok());
                }
                landed
            })
        })
        .collect();
    let landed: usize = players.into_iter().map(|p| p.join().unwrap()).sum();
    let (events, _) = first.game_events(id).unwrap().unwrap();
    let mut actions: Vec<u16> = events.iter().map(|e| e.action_count).collect();
    actions.dedup();
    // The start, then every action that answered, each once and on the state before it.
    assert_eq!(actions.len(), landed + 1, "{actions:?}");
    assert!(actions.windows(2).all(|w| w[0] < w[1]), "{actions:?}");
    let store = first.store.as_ref().unwrap();
    assert_eq!(store.version_of(id).unwrap(), Some(landed as u64 + 2));
}

#[test]
fn fresh_starts_over_even_from_an_unreadable_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("world.sqlite3");
    std::fs::write(&path, "not a database, and long enough to be read as one").unwrap();
    let e = SimChain::open(SimOptions {
        settings: EngineSettings::default(),
        first_adventurer_id: 1,
        randomness: SimRandomness::Os,
        state_file: Some(path.clone()),
        fresh: false,
    })
    .unwrap_err();
    assert!(e.to_string().contains("--fresh"), "{e}");
    let sim = saved(&path, SimRandomness::Os, true);
    assert!(sim.games().unwrap().is_empty());
    let (id, _) = sim.mint_game(&opts()).unwrap();
    assert_eq!(id, 1);
    let again = saved(&path, SimRandomness::Os, true);
    assert!(again.games().unwrap().is_empty());
    assert_eq!(
        sim.owner_of(1).unwrap(),
        None,
        "the other process starts over too"
    );
    assert_eq!(sim.mint_game(&opts()).unwrap().0, 1, "ids start over");
}

#[test]
fn imported_games_are_new_tokens_in_one_transaction() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("world.sqlite3");
    let sim = saved(&path, SimRandomness::Os, false);
    let (id, _) = sim.mint_game(&opts()).unwrap();
    sim.apply(id, &Action::StartGame { weapon: 46 }, &opts())
        .unwrap();
    let game = sim.stored_game(id).unwrap().unwrap();
    let ids = sim.import_games(vec![game.clone(); 3]).unwrap();
    assert_eq!(ids, [2, 3, 4]);
    let other = saved(&path, SimRandomness::Os, false);
    assert_eq!(other.stored_game(4).unwrap(), Some(game));
    assert_eq!(other.mint_game(&opts()).unwrap().0, 5);
    let memory = SimChain::new(EngineSettings::default(), 9);
    assert_eq!(memory.import_games([Game::default()]).unwrap(), [9]);
}

#[test]
fn a_step_computed_on_a_stale_game_is_refused_then_computed_again() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("world.sqlite3");
    let a = saved(&path, SimRandomness::Master(3), false);
    let (id, _) = a.mint_game(&opts()).unwrap();
    let start = Action::StartGame { weapon: 46 };
    let game = a.entry(id).unwrap();
    let stale = a
        .lock()
        .cache
        .step(sim_account(), id, game.as_ref(), &start)
        .unwrap();
    let b = saved(&path, SimRandomness::Master(3), false);
    b.apply(id, &start, &opts()).unwrap();
    let store = a.store.as_ref().unwrap();
    assert!(
        a.commit_step(store, id, &start, &stale, &opts())
            .unwrap()
            .is_none(),
        "the game moved on in another process"
    );
    // `apply` reads the other process's write first: the game has started, so it is refused.
    let e = a.apply(id, &start, &opts()).unwrap_err();
    assert!(matches!(e, ChainError::Revert { .. }), "{e:?}");
    let attack = Action::Attack {
        to_the_death: false,
    };
    a.apply(id, &attack, &opts()).unwrap();
    assert_eq!(store.version_of(id).unwrap(), Some(3));
    assert_eq!(b.game_state(id).unwrap(), a.game_state(id).unwrap());
}

#[test]
fn ids_end_at_the_largest_the_store_keeps_with_an_error_not_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    let first = MAX_ADVENTURER_ID - 1;
    let stored = SimChain::open(SimOptions {
        first_adventurer_id: first,
        state_file: Some(dir.path().join("world.sqlite3")),
        ..opts_for_ids()
    })
    .unwrap();
    let memory = SimChain::new(EngineSettings::default(), first);
    for sim in [&stored, &memory] {
        assert_eq!(sim.mint_game(&opts()).unwrap().0, first);
        assert_eq!(sim.mint_game(&opts()).unwrap().0, MAX_ADVENTURER_ID);
        let e = sim.mint_game(&opts()).unwrap_err();
        assert!(e.to_string().contains("no adventurer id left"), "{e}");
    }
}

/// Options of a deterministic world with default rules.
fn opts_for_ids() -> SimOptions {
    SimOptions {
        settings: EngineSettings::default(),
        first_adventurer_id: 1,
        randomness: SimRandomness::Deterministic,
        state_file: None,
        fresh: false,
    }
}

#[test]
fn the_change_feed_names_what_another_process_changed_since_the_cursor() {
    let dir = tempfile::tempdir().unwrap();
    let path = SimOptions::state_path(dir.path(), SimRandomness::Os);
    let watcher = saved(&path, SimRandomness::Os, false);
    let writer = saved(&path, SimRandomness::Os, false);
    let (id, _) = writer.mint_game(&opts()).unwrap();
    let (start, none) = watcher.changed_since(None).unwrap();
    assert!(none.is_empty(), "a first ask only says where to start");
    assert_eq!(watcher.changed_since(Some(start)).unwrap(), (start, vec![]));
    writer
        .apply(id, &Action::StartGame { weapon: 46 }, &opts())
        .unwrap();
    let (next, changed) = watcher.changed_since(Some(start)).unwrap();
    assert_eq!(changed, [id]);
    assert!(next > start);
    assert_eq!(watcher.changed_since(Some(next)).unwrap(), (next, vec![]));
    // A world in memory has no other writer.
    let memory = SimChain::new(EngineSettings::practice_world(), 1);
    assert_eq!(memory.changed_since(None).unwrap(), (0, vec![]));
}
