//! The embedded practice chain (`sim` profile): an in-process world run by the game engine, with
//! no network and no key. Every action is applied at once, as one "transaction" with a
//! well-formed but fake hash, its own block, no fee, and the engine's game events encoded exactly
//! as the world contract emits them (and decoded back, like a real receipt). Each new game draws a
//! hidden seed, as the VRF does on mainnet, so advisors can only give odds (`seeds`); a
//! deterministic world plays `poseidon(xp, adventurer_id)`, as on chains without VRF. The world
//! lives in memory or in a state file shared by every server process (`store`), and answers the
//! indexer's questions (every game, an adventurer's events) from its own history (`ledger`).

mod ledger;
mod seeds;
mod store;

pub use ledger::REMEMBERED_TXS;
pub use seeds::{SeedError, SimRandomness};
pub use store::StoreError;

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use starknet::core::types::{Event, Felt};
use starknet::core::utils::cairo_short_string_to_felt;

use super::revert::classify;
use super::{ChainError, GameAction, TxLookup, TxReport, WriteOptions, action_name};
use crate::game::engine::{Action, EngineSettings, World};
use crate::game::events::{GameEvent, encode_game_event};
use crate::game::model::{Adventurer, GameState, ItemPurchase};
use ledger::{Ledger, SimTx};
use store::{Stamp, StateFile};

/// Version of the state file's layout.
const STATE_VERSION: u32 = 1;

fn short(s: &str) -> Felt {
    cairo_short_string_to_felt(s).expect("short ASCII constant")
}

/// The sim account (the only player of the embedded chain): the short string `sim_player`.
pub fn sim_account() -> Felt {
    short("sim_player")
}

/// The address the sim's game events come from: the short string `sim_game_systems`.
pub fn sim_game_systems() -> Felt {
    short("sim_game_systems")
}

/// The game events as the sim world contract emits them (raw keys and data, like a receipt's).
pub fn raw_events(events: &[GameEvent]) -> Vec<Event> {
    events
        .iter()
        .map(|e| {
            let (keys, data) = encode_game_event(e, sim_game_systems());
            Event {
                from_address: sim_game_systems(),
                keys,
                data,
            }
        })
        .collect()
}

/// Converts a chain action into the engine's.
pub fn engine_action(action: &GameAction) -> Action {
    match action {
        GameAction::StartGame { weapon } => Action::StartGame { weapon: *weapon },
        GameAction::Explore { till_beast } => Action::Explore {
            till_beast: *till_beast,
        },
        GameAction::Attack { to_the_death } => Action::Attack {
            to_the_death: *to_the_death,
        },
        GameAction::Flee { to_the_death } => Action::Flee {
            to_the_death: *to_the_death,
        },
        GameAction::Equip { items } => Action::Equip {
            items: items.clone(),
        },
        GameAction::Drop { items } => Action::Drop {
            items: items.clone(),
        },
        GameAction::BuyItems { potions, items } => Action::BuyItems {
            potions: *potions,
            items: items
                .iter()
                .map(|&(item_id, equip)| ItemPurchase { item_id, equip })
                .collect(),
        },
        GameAction::Upgrade { stats } => Action::Upgrade { stats: *stats },
    }
}

/// Everything the world is: what the state file holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct State {
    version: u32,
    world: World,
    ledger: Ledger,
}

impl State {
    fn new(settings: EngineSettings, first_adventurer_id: u64) -> Self {
        Self {
            version: STATE_VERSION,
            world: World::new(settings, first_adventurer_id),
            ledger: Ledger::default(),
        }
    }
}

struct Inner {
    state: State,
    /// The version of the state file `state` was read from or saved as.
    stamp: Option<Stamp>,
}

/// How to open a sim world.
#[derive(Clone, Debug)]
pub struct SimOptions {
    /// The world's rules.
    pub settings: EngineSettings,
    /// Id of the first adventurer minted in a new world.
    pub first_adventurer_id: u64,
    /// Where each game's randomness comes from.
    pub randomness: SimRandomness,
    /// The state file; `None` keeps the world in memory.
    pub state_file: Option<PathBuf>,
    /// Discard the saved world and start over.
    pub fresh: bool,
}

impl SimOptions {
    /// The state file in the profile folder `dir`: deterministic and hidden-seed worlds never
    /// share one (an advisor must never predict a hidden-seed game as if it were public).
    pub fn state_path(dir: &Path, randomness: SimRandomness) -> PathBuf {
        dir.join(if randomness.is_deterministic() {
            "world-deterministic.json"
        } else {
            "world.json"
        })
    }
}

/// One game of the world, as the chain's own index lists it.
#[derive(Clone, Debug)]
pub struct SimGame {
    /// Adventurer (game token) id.
    pub adventurer_id: u64,
    /// Token owner.
    pub owner: Felt,
    /// The stored adventurer (base stats).
    pub adventurer: Adventurer,
}

/// The in-process chain behind the `sim` profile.
pub struct SimChain {
    inner: Mutex<Inner>,
    randomness: SimRandomness,
    settings: EngineSettings,
    first_adventurer_id: u64,
    store: Option<StateFile>,
}

impl std::fmt::Debug for SimChain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SimChain").finish_non_exhaustive()
    }
}

fn store_error(e: StoreError) -> ChainError {
    match e {
        StoreError::Corrupt { .. } => ChainError::Config(e.to_string()),
        _ => ChainError::Rpc(e.to_string()),
    }
}

impl SimChain {
    /// A fresh deterministic in-memory world with these rules; the first adventurer minted gets
    /// `first_adventurer_id`.
    pub fn new(settings: EngineSettings, first_adventurer_id: u64) -> Self {
        Self::with_randomness(settings, first_adventurer_id, SimRandomness::Deterministic)
    }

    /// A fresh in-memory world whose games draw their randomness from `randomness`.
    pub fn with_randomness(
        settings: EngineSettings,
        first_adventurer_id: u64,
        randomness: SimRandomness,
    ) -> Self {
        Self {
            inner: Mutex::new(Inner {
                state: State::new(settings, first_adventurer_id),
                stamp: None,
            }),
            randomness,
            settings,
            first_adventurer_id,
            store: None,
        }
    }

    /// Opens a world: in memory, or the saved one in `state_file` (created on the first write;
    /// discarded first when `fresh`). A saved world made with other rules is refused.
    pub fn open(opts: SimOptions) -> Result<Self, ChainError> {
        let mut sim =
            Self::with_randomness(opts.settings, opts.first_adventurer_id, opts.randomness);
        let Some(path) = opts.state_file else {
            return Ok(sim);
        };
        let store = StateFile::new(path);
        let inner = sim.inner.get_mut().unwrap_or_else(|p| p.into_inner());
        if opts.fresh {
            let _lock = store.lock().map_err(store_error)?;
            store.clear_history().map_err(store_error)?;
            inner.stamp = Some(store.write(&inner.state).map_err(store_error)?);
        } else if let Some((state, stamp)) = store.read::<State>().map_err(store_error)? {
            check_saved(&store, &state, &opts.settings)?;
            *inner = Inner {
                state,
                stamp: Some(stamp),
            };
        }
        sim.store = Some(store);
        Ok(sim)
    }

    /// The state file, when the world is saved.
    pub fn state_file(&self) -> Option<&Path> {
        self.store.as_ref().map(StateFile::path)
    }

    /// The world's rules.
    pub fn settings(&self) -> EngineSettings {
        self.settings
    }

    /// Where the world's games draw their randomness from.
    pub fn randomness(&self) -> SimRandomness {
        self.randomness
    }

    /// The player's account address.
    pub fn account_address(&self) -> Felt {
        sim_account()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Rereads the state file if another process changed it since it was read.
    fn refresh(&self, inner: &mut Inner) -> Result<(), ChainError> {
        let Some(store) = &self.store else {
            return Ok(());
        };
        let now = store.stamp().map_err(store_error)?;
        if now == inner.stamp {
            return Ok(());
        }
        match store.read::<State>().map_err(store_error)? {
            Some((state, stamp)) => {
                check_saved(store, &state, &self.settings)?;
                *inner = Inner {
                    state,
                    stamp: Some(stamp),
                };
            }
            None => {
                // The file was removed: start over, as `--fresh` would.
                *inner = Inner {
                    state: State::new(self.settings, self.first_adventurer_id),
                    stamp: None,
                };
            }
        }
        Ok(())
    }

    /// Reads the current world.
    fn read<T>(&self, f: impl FnOnce(&State) -> T) -> Result<T, ChainError> {
        let mut inner = self.lock();
        self.refresh(&mut inner)?;
        Ok(f(&inner.state))
    }

    /// Changes the world: under the file lock, on the latest saved state, saved before the
    /// result is returned. A failed change leaves the world as it was.
    fn write<T>(
        &self,
        f: impl FnOnce(&mut State) -> Result<T, ChainError>,
    ) -> Result<T, ChainError> {
        let mut inner = self.lock();
        let Some(store) = &self.store else {
            return f(&mut inner.state);
        };
        let _lock = store.lock().map_err(store_error)?;
        self.refresh(&mut inner)?;
        let out = f(&mut inner.state)?;
        let new = inner.state.ledger.take_new();
        match store
            .append_history(&new, REMEMBERED_TXS)
            .and_then(|()| store.write(&inner.state))
        {
            Ok(stamp) => {
                inner.stamp = Some(stamp);
                Ok(out)
            }
            Err(e) => {
                // Forget the unsaved change: the next refresh rereads the file.
                inner.stamp = None;
                inner.state = State::new(self.settings, self.first_adventurer_id);
                Err(store_error(e))
            }
        }
    }

    /// Answers from the transaction history: the saved one, or the one in memory.
    fn history<T>(&self, f: impl FnOnce(&Ledger) -> T) -> Result<T, ChainError> {
        match &self.store {
            Some(store) => {
                let txs: Vec<SimTx> = store.read_history().map_err(store_error)?;
                Ok(f(&Ledger::of_history(txs)))
            }
            None => Ok(f(&self.lock().state.ledger)),
        }
    }

    /// The game state, as `get_game_state` would return it.
    pub fn game_state(&self, adventurer_id: u64) -> Result<GameState, ChainError> {
        self.read(|s| s.world.state(adventurer_id))
    }

    /// The owner of a token, `None` if never minted.
    pub fn owner_of(&self, adventurer_id: u64) -> Result<Option<Felt>, ChainError> {
        self.read(|s| s.world.owner(adventurer_id))
    }

    /// Every game of the world, in id order.
    pub fn games(&self) -> Result<Vec<SimGame>, ChainError> {
        self.read(|s| {
            s.world
                .tokens()
                .filter_map(|(id, owner)| {
                    s.world.game(id).map(|g| SimGame {
                        adventurer_id: id,
                        owner,
                        adventurer: g.adventurer,
                    })
                })
                .collect()
        })
    }

    /// An adventurer's game events in chain order and whether older ones were pruned from the
    /// history; `None` when the token was never minted.
    pub fn game_events(
        &self,
        adventurer_id: u64,
    ) -> Result<Option<(Vec<GameEvent>, bool)>, ChainError> {
        if self.owner_of(adventurer_id)?.is_none() {
            return Ok(None);
        }
        self.history(|l| Some(l.events_of(adventurer_id)))
    }

    /// Mints an adventurer token to the sim account; its game draws a hidden seed unless the
    /// world is deterministic.
    pub fn mint_game(&self, opts: &WriteOptions) -> Result<(u64, TxReport), ChainError> {
        self.write(|state| {
            let next = state.world.next_id();
            let hidden = self
                .randomness
                .hidden_seed(next)
                .map_err(|e| ChainError::Rpc(e.to_string()))?;
            let id = state.world.mint_hidden(sim_account(), hidden);
            let transfer = Event {
                from_address: sim_game_systems(),
                keys: vec![
                    starknet::macros::selector!("Transfer"),
                    Felt::ZERO,
                    sim_account(),
                    Felt::from(id),
                    Felt::ZERO,
                ],
                data: vec![],
            };
            let report = state
                .ledger
                .commit(Some(id), "mint_game", vec![transfer], opts);
            Ok((id, report))
        })
    }

    /// Applies an action; a refused action is a simulation-time revert (no transaction).
    pub fn apply(
        &self,
        adventurer_id: u64,
        action: &GameAction,
        opts: &WriteOptions,
    ) -> Result<TxReport, ChainError> {
        self.write(|state| {
            let events = state
                .world
                .act(sim_account(), adventurer_id, &engine_action(action))
                .map_err(|r| ChainError::Revert {
                    revert: classify(&format!("('{}')", r.0)),
                    tx_hash: None,
                })?;
            let raw = raw_events(&events);
            Ok(state
                .ledger
                .commit(Some(adventurer_id), action_name(action), raw, opts))
        })
    }

    /// What is known about a transaction of this world.
    pub fn lookup(&self, tx_hash: Felt) -> Result<TxLookup, ChainError> {
        self.history(|l| l.lookup(tx_hash))
    }
}

/// Refuses a saved world of another layout or other rules than the settings ask for.
fn check_saved(
    store: &StateFile,
    state: &State,
    settings: &EngineSettings,
) -> Result<(), ChainError> {
    if state.version != STATE_VERSION {
        return Err(ChainError::Config(format!(
            "the sim world at {} has layout version {} (this server reads {STATE_VERSION}); start over with `serve --fresh` (or sim.fresh = true)",
            store.path().display(),
            state.version
        )));
    }
    if state.world.settings() != settings {
        return Err(ChainError::Config(format!(
            "the sim world at {} was made with other [sim] rules than the settings now ask for; start over with `serve --fresh` (or sim.fresh = true), or restore the old rules",
            store.path().display()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain::Hooks;
    use crate::chain::submit::Confirm;
    use crate::game::events::GameEventDetails;
    use std::time::Duration;

    fn opts() -> WriteOptions {
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
            .apply(id, &GameAction::StartGame { weapon: 46 }, &opts())
            .unwrap();
        assert_ne!(r.tx_hash, mint.tx_hash);
        assert_eq!(r.status, "ACCEPTED_ON_L2");
        assert_eq!(r.block_number, Some(2));
        assert_eq!(r.events.len(), r.raw_events.len());
        assert!(matches!(r.events[0].details, GameEventDetails::Beast(_)));
        assert_eq!(sim.game_state(id).unwrap().adventurer.health, 90);
        let e = sim
            .apply(id, &GameAction::Explore { till_beast: false }, &opts())
            .unwrap_err();
        let ChainError::Revert { revert, tx_hash } = e else {
            panic!("{e:?}")
        };
        assert_eq!((revert.code, tx_hash), ("IN_BATTLE", None));
        let found = sim.lookup(r.tx_hash).unwrap();
        assert_eq!(found.status, "ACCEPTED_ON_L2");
        assert_eq!(found.record.unwrap().action, "start_game");
        assert_eq!(sim.lookup(Felt::ONE).unwrap().status, "NOT_RECEIVED");
    }

    /// Plays the same choices on adventurer 1 of a fresh world: start, the starter beast, all
    /// points in vitality, then explore/attack until 40 actions or death. Returns every event.
    fn same_choices(randomness: SimRandomness) -> Vec<GameEventDetails> {
        let sim = SimChain::with_randomness(EngineSettings::default(), 1, randomness);
        let (id, _) = sim.mint_game(&opts()).unwrap();
        let mut events = Vec::new();
        let mut act = |a: GameAction| {
            if let Ok(r) = sim.apply(id, &a, &opts()) {
                events.extend(r.events.into_iter().map(|e| e.details));
            }
        };
        act(GameAction::StartGame { weapon: 46 });
        for _ in 0..40 {
            let adv = sim.game_state(id).unwrap().adventurer;
            if adv.health == 0 {
                break;
            }
            act(if adv.stat_upgrades_available > 0 {
                GameAction::Upgrade {
                    stats: crate::game::model::Stats {
                        vitality: adv.stat_upgrades_available,
                        ..Default::default()
                    },
                }
            } else if adv.beast_health > 0 {
                GameAction::Attack {
                    to_the_death: false,
                }
            } else {
                GameAction::Explore { till_beast: false }
            });
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

    fn saved(path: &Path, randomness: SimRandomness, fresh: bool) -> SimChain {
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
        assert!(path.ends_with("world.json"));
        let a = saved(&path, SimRandomness::Os, false);
        let (id, _) = a.mint_game(&opts()).unwrap();
        let start = a
            .apply(id, &GameAction::StartGame { weapon: 12 }, &opts())
            .unwrap();
        // A second "process" sees the game, plays on, and the first sees that.
        let b = saved(&path, SimRandomness::Os, false);
        assert_eq!(b.game_state(id).unwrap(), a.game_state(id).unwrap());
        assert_eq!(b.lookup(start.tx_hash).unwrap().status, "ACCEPTED_ON_L2");
        b.apply(
            id,
            &GameAction::Attack {
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
        let path = dir.path().join("world.json");
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
}
