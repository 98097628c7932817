//! Tests of `sim`.

use super::*;
use chain::{Confirm, Hooks, WriteOptions};
use game::engine::Action;
use game::events::GameEventDetails;
use std::time::Duration;

pub(super) fn opts() -> WriteOptions {
    WriteOptions {
        confirm: Confirm::Accepted,
        timeout: Duration::from_secs(1),
        hooks: Hooks::default(),
    }
}

#[test]
fn plays_and_reports_like_a_chain() {
    let sim = SimChain::new(EngineSettings::default(), 7);
    let (id, mint) = sim.mint_game(&opts()).unwrap();
    assert_eq!(id, 7);
    assert_eq!(sim.owner_of(7).unwrap(), Some(sim_account()));
    assert_eq!(sim.owner_of(8).unwrap(), None);
    let r = sim
        .apply(id, &Action::StartGame { weapon: 46 }, &opts())
        .unwrap();
    assert_ne!(r.tx_hash, mint.tx_hash);
    assert_eq!(r.status, chain::TxStatus::AcceptedOnL2);
    assert_eq!(r.block_number, Some(2));
    assert_eq!(r.events.len(), r.raw_events.len());
    assert!(matches!(r.events[0].details, GameEventDetails::Beast(_)));
    assert_eq!(sim.game_state(id).unwrap().adventurer.health, 90);
    let e = sim
        .apply(id, &Action::Explore { till_beast: false }, &opts())
        .unwrap_err();
    let ChainError::Revert { revert, tx_hash } = e else {
        panic!("{e:?}")
    };
    assert_eq!((revert.code(), tx_hash), ("IN_BATTLE", None));
    let before = sim.game_state(id).unwrap();
    let e = sim.apply(id, &Action::Surrender, &opts()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "surrender is not an entrypoint of a v1 Dojo world"
    );
    assert_eq!(sim.game_state(id).unwrap(), before);
    let found = sim.lookup(r.tx_hash).unwrap();
    assert_eq!(found.status, chain::TxStatus::AcceptedOnL2);
    assert_eq!(found.record.unwrap().action, "start_game");
    assert_eq!(
        sim.lookup(Felt::ONE).unwrap().status,
        chain::TxStatus::NotReceived
    );
}

/// The tests' fixed policy: every point in vitality, attack a beast (to the death when asked),
/// else explore one step (till a beast when `to_the_death`).
pub(super) fn next_move(adv: &game::model::Adventurer, to_the_death: bool) -> Action {
    if adv.stat_upgrades_available > 0 {
        Action::Upgrade {
            stats: game::model::Stats {
                vitality: adv.stat_upgrades_available,
                ..Default::default()
            },
        }
    } else if adv.beast_health > 0 {
        Action::Attack { to_the_death }
    } else {
        Action::Explore {
            till_beast: to_the_death,
        }
    }
}

/// Plays the same choices on adventurer 1 of a fresh world: start, the starter beast, all
/// points in vitality, then explore/attack until 40 actions or death. Returns every event.
fn same_choices(randomness: SimRandomness) -> Vec<GameEventDetails> {
    let sim = SimChain::with_randomness(EngineSettings::default(), 1, randomness);
    let (id, _) = sim.mint_game(&opts()).unwrap();
    let mut events = Vec::new();
    let mut act = |a: Action| {
        if let Ok(r) = sim.apply(id, &a, &opts()) {
            events.extend(r.events.into_iter().map(|e| e.details));
        }
    };
    act(Action::StartGame { weapon: 46 });
    for _ in 0..40 {
        let adv = sim.game_state(id).unwrap().adventurer;
        if adv.health == 0 {
            break;
        }
        act(next_move(&adv, false));
    }
    events
}

#[test]
fn hidden_seeds_make_each_fresh_world_a_new_dungeon() {
    let det = same_choices(SimRandomness::Deterministic);
    assert!(det.len() > 10, "the game went somewhere: {}", det.len());
    assert_eq!(det, same_choices(SimRandomness::Deterministic));
    let (a, b) = (
        same_choices(SimRandomness::Os),
        same_choices(SimRandomness::Os),
    );
    assert_ne!(a, b, "two OS-seeded games with the same id and choices");
    assert_ne!(a, det);
    let m = same_choices(SimRandomness::Master(9));
    assert_eq!(
        m,
        same_choices(SimRandomness::Master(9)),
        "a master seed replays"
    );
    assert_ne!(m, same_choices(SimRandomness::Master(10)));
    assert_ne!(m, det);
}

pub(super) fn saved(path: &Path, randomness: SimRandomness, fresh: bool) -> SimChain {
    SimChain::open(SimOptions {
        settings: EngineSettings::default(),
        first_adventurer_id: 1,
        randomness,
        state_file: Some(path.to_path_buf()),
        fresh,
    })
    .unwrap()
}

#[test]
fn saved_worlds_are_shared_between_processes_and_start_over_when_fresh() {
    let dir = tempfile::tempdir().unwrap();
    let path = SimOptions::state_path(dir.path(), SimRandomness::Os);
    assert!(path.ends_with("world.sqlite3"));
    let a = saved(&path, SimRandomness::Os, false);
    let (id, _) = a.mint_game(&opts()).unwrap();
    let start = a
        .apply(id, &Action::StartGame { weapon: 12 }, &opts())
        .unwrap();
    // A second "process" sees the game, plays on, and the first sees that.
    let b = saved(&path, SimRandomness::Os, false);
    assert_eq!(b.game_state(id).unwrap(), a.game_state(id).unwrap());
    assert_eq!(
        b.lookup(start.tx_hash).unwrap().status,
        chain::TxStatus::AcceptedOnL2
    );
    b.apply(
        id,
        &Action::Attack {
            to_the_death: false,
        },
        &opts(),
    )
    .unwrap();
    assert_eq!(a.game_state(id).unwrap().adventurer.xp, 4);
    let (id2, _) = a.mint_game(&opts()).unwrap();
    assert_eq!(id2, id + 1, "ids never collide across processes");
    let (events, pruned) = b.game_events(id).unwrap().unwrap();
    assert!(!pruned && events.len() >= 4, "{events:?}");
    assert!(b.game_events(99).unwrap().is_none());
    assert_eq!(a.games().unwrap().len(), 2);
    // Starting over.
    let c = saved(&path, SimRandomness::Os, true);
    assert!(c.games().unwrap().is_empty());
    assert_eq!(a.owner_of(id).unwrap(), None, "others see the fresh world");
    // Another rule set is refused with the way out.
    let e = SimChain::open(SimOptions {
        settings: EngineSettings::practice_world(),
        first_adventurer_id: 1,
        randomness: SimRandomness::Os,
        state_file: Some(path.clone()),
        fresh: false,
    })
    .unwrap_err();
    assert!(e.to_string().contains("--fresh"), "{e}");
}

#[test]
fn parallel_writers_never_lose_an_action() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("world.sqlite3");
    let writers: Vec<_> = (0..3)
        .map(|_| {
            let path = path.clone();
            std::thread::spawn(move || {
                let sim = saved(&path, SimRandomness::Master(1), false);
                (0..5)
                    .map(|_| sim.mint_game(&opts()).unwrap().0)
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut ids: Vec<u64> = writers
        .into_iter()
        .flat_map(|w| w.join().unwrap())
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, (1..=15).collect::<Vec<_>>());
    let sim = saved(&path, SimRandomness::Master(1), false);
    assert_eq!(sim.games().unwrap().len(), 15);
}
