//! The world as this process holds it in memory: games with their owner and version, the named
//! beasts collected. A world in memory holds every game; a saved world's cache holds only a
//! bounded set of recently used games (unfinished ones first, `LIVE_GAMES`, and a few finished
//! ones, `FINISHED_GAMES`), the others being read from the store on demand, so a long-running
//! process does not grow with the world. A saved world's cache follows its store
//! (`Cache::merge`), and an action is computed on it (`Cache::step`) then committed to the store,
//! which refuses it if the game or the collection moved on meanwhile (another process, or
//! another thread of this one).

use std::collections::BTreeMap;

use starknet::core::types::Felt;

use crate::StoreError;

use game::engine::{Action, BeastKey, Collection, EngineSettings, Game, Revert};
use game::events::GameEvent;
use game::model::GameState;

/// Unfinished games a saved world's cache keeps (as many adventurers as the MCP layer follows).
pub(super) const LIVE_GAMES: usize = 1024;
/// Finished games a saved world's cache keeps (recently read ones: a game just lost, a look back).
pub(super) const FINISHED_GAMES: usize = 64;

/// One game of the cache.
#[derive(Clone, Debug)]
pub(super) struct Entry {
    pub(super) owner: Felt,
    pub(super) game: Game,
    /// Bumped by every committed change of this game (1 at its mint).
    pub(super) version: u64,
}

/// What an action would do to one game, computed on the cache, not yet committed.
#[derive(Debug)]
pub(super) struct Step {
    pub(super) owner: Felt,
    /// The version of the game the action was computed on.
    pub(super) base_version: u64,
    /// How many beasts the collection held when computed (it only grows).
    pub(super) collection_len: u64,
    /// The game after the action.
    pub(super) game: Game,
    /// The events the engine emitted, as the contract emits them.
    pub(super) events: Vec<GameEvent>,
    /// Named beasts the action collected.
    pub(super) collected: Vec<BeastKey>,
}

/// What a store read back since a point (everything, when the generation is another).
#[derive(Debug, Default)]
pub(super) struct Changes {
    /// The store's generation (a fresh start makes a new one); a new one replaces the cache.
    pub(super) generation: u64,
    /// The store's change counter at the read.
    pub(super) seq: u64,
    /// Changed games the cache asked for, read whole.
    pub(super) games: Vec<(u64, Entry)>,
    /// Other changed games: id and version only (a cached older copy is dropped).
    pub(super) moved: Vec<(u64, u64)>,
    pub(super) collected: Vec<BeastKey>,
}

/// A cached game and when it was last used.
#[derive(Debug)]
struct Slot {
    entry: Entry,
    used: u64,
}

/// The world in memory (see the module doc).
#[derive(Debug)]
pub(super) struct Cache {
    settings: EngineSettings,
    games: BTreeMap<u64, Slot>,
    collection: Collection,
    /// Next id to mint in a world in memory (a saved world's store keeps its own).
    next_id: u64,
    /// How many unfinished and finished games to keep; `None` keeps all (a world in memory).
    limits: Option<(usize, usize)>,
    /// Counts uses, to find the least recently used game.
    clock: u64,
    /// The store's generation and change counter this cache holds everything up to.
    pub(super) generation: u64,
    pub(super) seq: u64,
}

/// Whether a game is over: started (an action counted), and the adventurer dead.
pub(super) fn finished(game: &Game) -> bool {
    game.adventurer.health == 0 && game.adventurer.action_count > 0
}

impl Cache {
    /// An empty world whose first minted game gets `first_id` (at least 1); it keeps every game.
    pub(super) fn new(settings: EngineSettings, first_id: u64) -> Self {
        Self {
            settings,
            games: BTreeMap::new(),
            collection: Collection::new(),
            next_id: first_id.max(1),
            limits: None,
            clock: 0,
            generation: 0,
            seq: 0,
        }
    }

    /// Keeps at most `live` unfinished and `finished` finished games, the least recently used
    /// dropped first: for a saved world, whose store holds them all.
    pub(super) fn bound(&mut self, live: usize, finished: usize) {
        self.limits = Some((live, finished));
        self.evict();
    }

    /// The cached game of a token, marked as used.
    pub(super) fn get(&mut self, id: u64) -> Option<Entry> {
        self.clock += 1;
        let clock = self.clock;
        self.games.get_mut(&id).map(|s| {
            s.used = clock;
            s.entry.clone()
        })
    }

    /// The cached game of a token (a world in memory has them all).
    pub(super) fn peek(&self, id: u64) -> Option<&Entry> {
        self.games.get(&id).map(|s| &s.entry)
    }

    /// Every cached game, in id order.
    pub(super) fn entries(&self) -> impl Iterator<Item = (u64, &Entry)> {
        self.games.iter().map(|(&id, s)| (id, &s.entry))
    }

    /// The ids of the cached games, in order.
    pub(super) fn ids(&self) -> Vec<u64> {
        self.games.keys().copied().collect()
    }

    /// `get_game_state(id)` of `entry`, the game of token `id` (an unminted id, `None`, reads
    /// as an empty game, as on chain).
    pub(super) fn state(&self, id: u64, entry: Option<&Entry>) -> GameState {
        let empty = Game::default();
        let game = entry.map_or(&empty, |e| &e.game);
        game.state(id, &self.settings, &self.collection)
    }

    /// Computes `action` sent by `caller` on `entry`, the game of token `id`, with this cache's
    /// rules and collection, changing nothing; only the token's owner may act ('Not token owner').
    pub(super) fn step(
        &self,
        caller: Felt,
        id: u64,
        entry: Option<&Entry>,
        action: &Action,
    ) -> Result<Step, Revert> {
        let entry = entry
            .filter(|e| e.owner == caller)
            .ok_or(Revert::NotOwner)?;
        let mut game = entry.game.clone();
        let outcome = game.apply(id, action, &self.settings, &self.collection)?;
        Ok(Step {
            owner: entry.owner,
            base_version: entry.version,
            collection_len: self.collection.len() as u64,
            game,
            events: outcome
                .events
                .into_iter()
                .map(|details| GameEvent {
                    adventurer_id: id.into(),
                    action_count: outcome.action_count,
                    details,
                })
                .collect(),
            collected: outcome.collected,
        })
    }

    /// Takes in game `id` as the store's `generation` held it at change counter `seq` (a commit
    /// of this process, or a read), unless the cache holds a newer one or follows another
    /// generation (a refresh brings it). A game not cached is only added when no later change
    /// was merged already (`seq` not behind the cache's): one that was could be newer than it.
    pub(super) fn put(
        &mut self,
        generation: u64,
        seq: u64,
        id: u64,
        entry: Entry,
        collected: &[BeastKey],
    ) {
        if generation != self.generation {
            return;
        }
        self.collection.extend(collected.iter().copied());
        self.clock += 1;
        match self.games.get_mut(&id) {
            Some(slot) => {
                if slot.entry.version < entry.version {
                    slot.entry = entry;
                }
                slot.used = self.clock;
            }
            None if self.limits.is_none() || seq >= self.seq => {
                let used = self.clock;
                self.games.insert(id, Slot { entry, used });
            }
            None => {}
        }
        self.evict();
    }

    /// Takes in what was read from the store: a new generation empties the cache (`put` skips
    /// changes of a generation the cache does not follow yet, so none of the new one is lost);
    /// the same one updates the cached games (each keeping its newest version) and drops a
    /// cached game that moved on but was not read whole.
    pub(super) fn merge(&mut self, changes: Changes) {
        if changes.generation != self.generation {
            self.games.clear();
            self.collection.clear();
            self.generation = changes.generation;
            self.seq = 0;
        }
        for (id, entry) in changes.games {
            match self.games.get_mut(&id) {
                Some(slot) if slot.entry.version < entry.version => slot.entry = entry,
                Some(_) => {}
                None if self.limits.is_none() => {
                    self.games.insert(id, Slot { entry, used: 0 });
                }
                None => {}
            }
        }
        for (id, version) in changes.moved {
            if self
                .games
                .get(&id)
                .is_some_and(|s| s.entry.version < version)
            {
                self.games.remove(&id);
            }
        }
        self.collection.extend(changes.collected);
        self.seq = self.seq.max(changes.seq);
        self.evict();
    }

    /// Drops the least recently used games past the limits, finished ones and unfinished ones
    /// counted apart.
    fn evict(&mut self) {
        let Some((live, done)) = self.limits else {
            return;
        };
        for (over, limit) in [(true, done), (false, live)] {
            loop {
                let kind = self
                    .games
                    .iter()
                    .filter(|(_, s)| finished(&s.entry.game) == over);
                if kind.clone().count() <= limit {
                    break;
                }
                let oldest = kind.min_by_key(|(_, s)| s.used).map(|(&id, _)| id);
                if let Some(id) = oldest {
                    self.games.remove(&id);
                }
            }
        }
    }

    /// The id the next mint of a world in memory gets, or [`StoreError::IdsExhausted`] past
    /// [`crate::MAX_ADVENTURER_ID`] (bounded by the games held).
    pub(super) fn next_id(&self) -> Result<u64, StoreError> {
        let mut id = self.next_id;
        while self.games.contains_key(&id) {
            id += 1;
        }
        if id > crate::MAX_ADVENTURER_ID {
            return Err(StoreError::IdsExhausted);
        }
        Ok(id)
    }

    /// Adds a game to a world in memory (a mint, or a copy) as token `id` (from `next_id`).
    pub(super) fn mint(&mut self, id: u64, entry: Entry) {
        self.next_id = id + 1;
        self.clock += 1;
        let used = self.clock;
        self.games.insert(id, Slot { entry, used });
    }
}
