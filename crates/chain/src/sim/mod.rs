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

use super::revert;
use super::{ChainError, TxLookup, TxReport, WriteOptions};
use game::engine::{Action, EngineSettings, Game, World};
use game::events::{GameEvent, encode_game_event};
use game::model::{Adventurer, GameState};
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
    ChainError::Sim {
        corrupt: matches!(e, StoreError::Corrupt { .. }),
        source: std::sync::Arc::new(e),
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

    /// The stored game of a token, its hidden seed included: for the research ceiling agent
    /// only, never for the tools nor the advice.
    pub fn stored_game(&self, adventurer_id: u64) -> Result<Option<Game>, ChainError> {
        self.read(|s| s.world.game(adventurer_id).cloned())
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
            let report =
                state
                    .ledger
                    .commit(Some(id), "mint_game", Vec::new(), vec![transfer], opts);
            Ok((id, report))
        })
    }

    /// Applies an action; a refused action is a simulation-time revert (no transaction).
    pub fn apply(
        &self,
        adventurer_id: u64,
        action: &Action,
        opts: &WriteOptions,
    ) -> Result<TxReport, ChainError> {
        self.write(|state| {
            let events = state
                .world
                .act(sim_account(), adventurer_id, action)
                .map_err(|r| ChainError::Revert {
                    revert: revert::Revert::from_engine(r),
                    tx_hash: None,
                })?;
            Ok(state.ledger.commit(
                Some(adventurer_id),
                action.entrypoint(),
                events,
                Vec::new(),
                opts,
            ))
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
mod tests;
