//! The world as this process holds it in memory: every game with its owner and version, the named
//! beasts collected. A world in memory is only this; a saved world's cache follows its store
//! (`Cache::merge`), and an action is computed on it (`Cache::step`) then committed to the store,
//! which refuses it if the game or the collection moved on meanwhile (another process, or
//! another thread of this one).

use std::collections::BTreeMap;

use starknet::core::types::Felt;

use game::engine::{Action, BeastKey, Collection, EngineSettings, Game, Revert};
use game::events::GameEvent;
use game::model::GameState;

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

/// Games and collection of a store read back (all of them, or those changed since a point).
#[derive(Debug, Default)]
pub(super) struct Changes {
    /// The store's generation (a fresh start makes a new one); a new one replaces the cache.
    pub(super) generation: u64,
    /// The store's change counter at the read.
    pub(super) seq: u64,
    pub(super) games: Vec<(u64, Entry)>,
    pub(super) collected: Vec<BeastKey>,
}

/// The world in memory (see the module doc).
#[derive(Debug)]
pub(super) struct Cache {
    settings: EngineSettings,
    games: BTreeMap<u64, Entry>,
    collection: Collection,
    /// Next id to mint in a world in memory (a saved world's store keeps its own).
    next_id: u64,
    /// The store's generation and change counter this cache holds everything up to.
    pub(super) generation: u64,
    pub(super) seq: u64,
}

impl Cache {
    /// An empty world whose first minted game gets `first_id` (at least 1).
    pub(super) fn new(settings: EngineSettings, first_id: u64) -> Self {
        Self {
            settings,
            games: BTreeMap::new(),
            collection: Collection::new(),
            next_id: first_id.max(1),
            generation: 0,
            seq: 0,
        }
    }

    /// The game of a token.
    pub(super) fn entry(&self, id: u64) -> Option<&Entry> {
        self.games.get(&id)
    }

    /// Every game, in id order.
    pub(super) fn entries(&self) -> impl Iterator<Item = (u64, &Entry)> {
        self.games.iter().map(|(&id, e)| (id, e))
    }

    /// `get_game_state(id)` (an unminted id reads as an empty game, as on chain).
    pub(super) fn state(&self, id: u64) -> GameState {
        let empty = Game::default();
        let game = self.games.get(&id).map_or(&empty, |e| &e.game);
        game.state(id, &self.settings, &self.collection)
    }

    /// Computes `action` sent by `caller` on game `id` without changing the cache; only the
    /// token's owner may act ('Not token owner').
    pub(super) fn step(&self, caller: Felt, id: u64, action: &Action) -> Result<Step, Revert> {
        let entry = self
            .games
            .get(&id)
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
                    adventurer_id: id,
                    action_count: outcome.action_count,
                    details,
                })
                .collect(),
            collected: outcome.collected,
        })
    }

    /// Takes in a committed change of game `id` made in the store's `generation`, unless the
    /// cache already holds a newer one (or follows another generation: a refresh brings it).
    pub(super) fn put(&mut self, generation: u64, id: u64, entry: Entry, collected: &[BeastKey]) {
        if generation != self.generation {
            return;
        }
        self.collection.extend(collected.iter().copied());
        if self
            .games
            .get(&id)
            .is_none_or(|e| e.version < entry.version)
        {
            self.games.insert(id, entry);
        }
    }

    /// Takes in what was read from the store: a new generation replaces the cache (`put` skips
    /// changes of a generation the cache does not follow yet, so none of the new one is lost),
    /// the same one adds to it, each game keeping its newest version.
    pub(super) fn merge(&mut self, changes: Changes) {
        if changes.generation != self.generation {
            self.games.clear();
            self.collection.clear();
            self.generation = changes.generation;
            self.seq = 0;
        }
        for (id, entry) in changes.games {
            if self
                .games
                .get(&id)
                .is_none_or(|e| e.version < entry.version)
            {
                self.games.insert(id, entry);
            }
        }
        self.collection.extend(changes.collected);
        self.seq = self.seq.max(changes.seq);
    }

    /// The id the next mint of a world in memory gets.
    pub(super) fn next_id(&self) -> u64 {
        let mut id = self.next_id;
        while self.games.contains_key(&id) {
            id += 1;
        }
        id
    }

    /// Adds a game to a world in memory (a mint, or a copy) as token `id` (from `next_id`).
    pub(super) fn mint(&mut self, id: u64, entry: Entry) {
        self.next_id = id + 1;
        self.games.insert(id, entry);
    }
}
