//! A whole in-memory world: adventurer tokens and their owners, every game, and the named beasts
//! already collected. The embedded `sim` chain is a `World` behind a lock.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use starknet_types_core::felt::Felt;

use super::game::Game;
use super::settings::EngineSettings;
use super::{Action, Revert};
use crate::events::GameEvent;
use crate::model::GameState;

/// A named beast: (beast id, special2, special3).
pub type BeastKey = (u8, u8, u8);

/// The named beasts already killed in a world (each can be collected once).
pub type Collection = BTreeSet<BeastKey>;

#[derive(Clone, Debug, Serialize, Deserialize)]
struct Token {
    owner: Felt,
    game: Game,
}

/// Tokens, games and collectables of one world (serializable, so a chain can keep it on disk).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct World {
    settings: EngineSettings,
    next_id: u64,
    tokens: BTreeMap<u64, Token>,
    collection: Collection,
}

impl World {
    /// An empty world whose first minted adventurer gets `first_id` (at least 1).
    pub fn new(settings: EngineSettings, first_id: u64) -> Self {
        Self {
            settings,
            next_id: first_id.max(1),
            tokens: BTreeMap::new(),
            collection: Collection::new(),
        }
    }

    /// The world's settings.
    pub fn settings(&self) -> &EngineSettings {
        &self.settings
    }

    /// Mints the next adventurer token to `owner`; returns its id. Its game plays the public
    /// `poseidon(xp, id)` dungeon.
    pub fn mint(&mut self, owner: Felt) -> u64 {
        self.mint_hidden(owner, None)
    }

    /// The id the next `mint` will get.
    pub fn next_id(&self) -> u64 {
        let mut id = self.next_id;
        while self.tokens.contains_key(&id) {
            id += 1;
        }
        id
    }

    /// Mints the next adventurer token (`next_id`) to `owner` with its game's hidden seed
    /// (`None` = the public dungeon); returns the id.
    pub fn mint_hidden(&mut self, owner: Felt, hidden_seed: Option<Felt>) -> u64 {
        let id = self.next_id();
        self.next_id = id + 1;
        self.tokens.insert(
            id,
            Token {
                owner,
                game: Game {
                    hidden_seed,
                    ..Game::default()
                },
            },
        );
        id
    }

    /// Every minted token id with its owner, in id order.
    pub fn tokens(&self) -> impl Iterator<Item = (u64, Felt)> + '_ {
        self.tokens.iter().map(|(&id, t)| (id, t.owner))
    }

    /// Mints a token with a chosen id (e.g. to mirror another world); false if it exists.
    pub fn mint_id(&mut self, id: u64, owner: Felt) -> bool {
        if self.tokens.contains_key(&id) {
            return false;
        }
        self.tokens.insert(
            id,
            Token {
                owner,
                game: Game::default(),
            },
        );
        true
    }

    /// The owner of a token, `None` if never minted.
    pub fn owner(&self, id: u64) -> Option<Felt> {
        self.tokens.get(&id).map(|t| t.owner)
    }

    /// The stored game of a token.
    pub fn game(&self, id: u64) -> Option<&Game> {
        self.tokens.get(&id).map(|t| &t.game)
    }

    /// The named beasts collected so far.
    pub fn collection(&self) -> &Collection {
        &self.collection
    }

    /// `get_game_state(id)` (an unminted id reads as an empty game, as on chain).
    pub fn state(&self, id: u64) -> GameState {
        let empty = Game::default();
        let game = self.tokens.get(&id).map_or(&empty, |t| &t.game);
        game.state(id, &self.settings, &self.collection)
    }

    /// Applies an action sent by `caller`; only the token's owner may act ('Not token owner').
    pub fn act(
        &mut self,
        caller: Felt,
        id: u64,
        action: &Action,
    ) -> Result<Vec<GameEvent>, Revert> {
        let token = self
            .tokens
            .get_mut(&id)
            .filter(|t| t.owner == caller)
            .ok_or(Revert::NotOwner)?;
        let outcome = token
            .game
            .apply(id, action, &self.settings, &self.collection)?;
        self.collection.extend(outcome.collected);
        Ok(outcome
            .events
            .into_iter()
            .map(|details| GameEvent {
                adventurer_id: id.into(),
                action_count: outcome.action_count,
                details,
            })
            .collect())
    }
}
