//! The embedded practice chain (`sim` profile): an in-process world run by the game engine, with
//! no network and no key. Every action is applied at once, as one "transaction" with a
//! well-formed but fake hash, its own block, no fee, and the engine's game events encoded exactly
//! as the world contract emits them (and decoded back, like a real receipt). Each new game draws a
//! hidden seed, as the VRF does on mainnet, so advisors can only give odds (`seeds`); a
//! deterministic world plays `poseidon(xp, adventurer_id)`, as on chains without VRF. The world
//! lives in memory (`cache`), or in a SQLite store shared by every server process (`store`,
//! which converts the JSON files of earlier versions: `convert`) with only its recently used
//! games in memory, and answers the indexer's questions (every game, an adventurer's events)
//! from its own history (`ledger`).
//!
//! A write computes the action on the cache under the world's mutex (the engine step only), then
//! commits it to the store outside that mutex; the commit refuses a step computed on a game or a
//! collection that moved on meanwhile (another process, another thread), and the write is
//! computed again on the newer state. Only then is the cache updated and the result rendered.

mod cache;
mod convert;
mod ledger;
mod seeds;
mod store;
mod world;
mod write;

pub use ledger::REMEMBERED_TXS;
pub use seeds::{SeedError, SimRandomness};
pub use store::StoreError;

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use starknet::core::types::{Event, Felt};
use starknet::core::utils::cairo_short_string_to_felt;

use cache::{Cache, Entry};
use chain::{ChainError, TxLookup};
use game::engine::{EngineSettings, Game};
use game::events::{GameEvent, encode_game_event};
use game::model::{Adventurer, GameState};
use ledger::Ledger;
use store::{Store, WorldRow};

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

struct Inner {
    cache: Cache,
    /// The transactions of a world in memory (a saved world keeps them in its store).
    ledger: Ledger,
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
    /// The store (a SQLite file; a `.json` path names the earlier format's file, and the store
    /// goes beside it as `.sqlite3`); `None` keeps the world in memory.
    pub state_file: Option<PathBuf>,
    /// Discard the saved world and start over.
    pub fresh: bool,
}

impl SimOptions {
    /// The store in the profile folder `dir`: deterministic and hidden-seed worlds never share
    /// one (an advisor must never predict a hidden-seed game as if it were public).
    pub fn state_path(dir: &Path, randomness: SimRandomness) -> PathBuf {
        dir.join(if randomness.is_deterministic() {
            "world-deterministic.sqlite3"
        } else {
            "world.sqlite3"
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
    store: Option<Store>,
}

impl std::fmt::Debug for SimChain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SimChain").finish_non_exhaustive()
    }
}

/// The largest adventurer id the sim mints: ids are kept as SQLite's signed 64-bit integers.
pub const MAX_ADVENTURER_ID: u64 = i64::MAX as u64;

/// The store's errors reach the tools as the chain's: a file that is not a world, or not one of
/// this layout or these rules, is `corrupt` (a settings matter: start over with `serve --fresh`),
/// the rest a retryable RPC error.
impl From<StoreError> for ChainError {
    fn from(e: StoreError) -> Self {
        ChainError::Store {
            corrupt: matches!(
                e,
                StoreError::Corrupt { .. }
                    | StoreError::OtherLayout { .. }
                    | StoreError::OtherRules { .. }
            ),
            source: std::sync::Arc::new(e),
        }
    }
}

/// A hidden seed the operating system could not give (the sim's stand-in for the VRF) reaches the
/// tools as a retryable RPC error, as a VRF outage would.
impl From<SeedError> for ChainError {
    fn from(e: SeedError) -> Self {
        ChainError::Store {
            corrupt: false,
            source: std::sync::Arc::new(e),
        }
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
                cache: Cache::new(settings, first_adventurer_id),
                ledger: Ledger::default(),
            }),
            randomness,
            settings,
            store: None,
        }
    }

    /// Opens a world: in memory, or the saved one in `state_file` (created if missing, from the
    /// earlier JSON format's files beside it if there are any; emptied first when `fresh`). A
    /// saved world made with other rules is refused.
    pub fn open(opts: SimOptions) -> Result<Self, ChainError> {
        let mut sim =
            Self::with_randomness(opts.settings, opts.first_adventurer_id, opts.randomness);
        let Some(path) = opts.state_file else {
            return Ok(sim);
        };
        let path = if path.extension().is_some_and(|e| e == "json") {
            path.with_extension("sqlite3")
        } else {
            path
        };
        let (store, row) = Store::open(path, opts.settings, opts.first_adventurer_id, opts.fresh)?;
        check_saved(&store, &row, &opts.settings)?;
        sim.store = Some(store);
        sim.lock()
            .cache
            .bound(cache::LIVE_GAMES, cache::FINISHED_GAMES);
        sim.refresh(true)?;
        Ok(sim)
    }

    /// The world's change counter and the ids of the games any process changed after `since`
    /// (`None`: just the counter, to start from); a world in memory has no other writer: `(0, [])`.
    pub fn changed_since(&self, since: Option<u64>) -> Result<(u64, Vec<u64>), ChainError> {
        let Some(store) = &self.store else {
            return Ok((0, Vec::new()));
        };
        let (seq, ids) = store.changed_ids(since.unwrap_or(i64::MAX as u64))?;
        Ok((seq, ids))
    }

    /// The store's file, when the world is saved.
    pub fn state_file(&self) -> Option<&Path> {
        self.store.as_ref().map(Store::path)
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

    /// Brings in what other processes (and other threads' commits) wrote since the last look:
    /// the store is read outside the world's mutex, which is held only to merge.
    fn refresh(&self, force: bool) -> Result<(), ChainError> {
        let Some(store) = &self.store else {
            return Ok(());
        };
        let (generation, seq, wanted) = {
            let inner = self.lock();
            (inner.cache.generation, inner.cache.seq, inner.cache.ids())
        };
        if let Some(changes) = store.changes(generation, seq, force, &wanted)? {
            self.lock().cache.merge(changes);
        }
        Ok(())
    }

    /// The current game of a token (`None` if never minted): the cache's, else the store's (then
    /// cached).
    fn entry(&self, adventurer_id: u64) -> Result<Option<Entry>, ChainError> {
        self.refresh(false)?;
        self.load(adventurer_id)
    }

    /// The game of a token as the cache holds it, else as the store does (then cached), with no
    /// refresh first.
    fn load(&self, adventurer_id: u64) -> Result<Option<Entry>, ChainError> {
        if let Some(entry) = self.lock().cache.get(adventurer_id) {
            return Ok(Some(entry));
        }
        let Some(store) = &self.store else {
            return Ok(None);
        };
        let Some((generation, seq, entry)) = store.game(adventurer_id)? else {
            return Ok(None);
        };
        self.lock()
            .cache
            .put(generation, seq, adventurer_id, entry.clone(), &[]);
        Ok(Some(entry))
    }

    /// The game state, as `get_game_state` would return it.
    pub fn game_state(&self, adventurer_id: u64) -> Result<GameState, ChainError> {
        let entry = self.entry(adventurer_id)?;
        Ok(self.lock().cache.state(adventurer_id, entry.as_ref()))
    }

    /// The stored game of a token, its hidden seed included: for the research ceiling agent
    /// only, never for the tools nor the advice.
    pub fn stored_game(&self, adventurer_id: u64) -> Result<Option<Game>, ChainError> {
        Ok(self.entry(adventurer_id)?.map(|e| e.game))
    }

    /// The owner of a token, `None` if never minted.
    pub fn owner_of(&self, adventurer_id: u64) -> Result<Option<Felt>, ChainError> {
        Ok(self.entry(adventurer_id)?.map(|e| e.owner))
    }

    /// Every game of the world, in id order, read from the store (a world in memory copies its
    /// own). O(games): the leaderboard and the adventurer list read it, no write does.
    pub fn games(&self) -> Result<Vec<SimGame>, ChainError> {
        let Some(store) = &self.store else {
            return Ok(self
                .lock()
                .cache
                .entries()
                .map(|(id, e)| SimGame {
                    adventurer_id: id,
                    owner: e.owner,
                    adventurer: e.game.adventurer,
                })
                .collect());
        };
        Ok(store
            .games()?
            .into_iter()
            .map(|(adventurer_id, owner, adventurer)| SimGame {
                adventurer_id,
                owner,
                adventurer,
            })
            .collect())
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
        Ok(Some(match &self.store {
            Some(store) => {
                Ledger::of_history(store.txs_of(adventurer_id)?).events_of(adventurer_id)
            }
            None => self.lock().ledger.events_of(adventurer_id),
        }))
    }

    /// What is known about a transaction of this world.
    pub fn lookup(&self, tx_hash: Felt) -> Result<TxLookup, ChainError> {
        Ok(match &self.store {
            Some(store) => Ledger::of_history(store.tx(tx_hash)?).lookup(tx_hash),
            None => self.lock().ledger.lookup(tx_hash),
        })
    }
}

/// Refuses a saved world of another layout or other rules than the settings ask for.
fn check_saved(store: &Store, row: &WorldRow, settings: &EngineSettings) -> Result<(), StoreError> {
    if row.layout != store::LAYOUT {
        return Err(StoreError::OtherLayout {
            path: store.path().to_path_buf(),
            layout: row.layout,
            reads: store::LAYOUT,
        });
    }
    if &row.settings != settings {
        return Err(StoreError::OtherRules {
            path: store.path().to_path_buf(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod cache_tests;
#[cfg(test)]
mod store_tests;
#[cfg(test)]
mod tests;
