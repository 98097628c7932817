//! Rollouts for the lookahead: a copy of a game played forward on the pure engine by the planner
//! itself, to a horizon. A copy made from a public state gets a sampled hidden seed (never the
//! game's own); the ceiling's copies are the stored game, hidden seed included.

use starknet_types_core::felt::Felt;

use crate::engine::{Action, Collection, EngineSettings, Game, Revert};
use crate::model::GameState;
use crate::view::{AdventurerView, adventurer_view};

/// A game being played forward: the engine's game, the adventurer id it plays as, and the
/// market's items while its seed is unknown (a copy of a public state, until the next level).
#[derive(Debug, Clone)]
pub struct Replica {
    game: Game,
    id: u64,
    market: Option<Vec<u8>>,
}

impl Replica {
    /// A copy of `state` (what `get_game_state` returns) whose randomness is `hidden`, a seed
    /// the caller sampled: the copy knows only what the state shows.
    pub fn of_state(state: &GameState, id: u64, hidden: Felt) -> Self {
        Self {
            game: Game {
                hidden_seed: Some(hidden),
                ..Game::from_state(state)
            },
            id,
            market: Some(state.market.clone()),
        }
    }

    /// The stored game itself, its true hidden seed and market seed included (research only:
    /// the ceiling agent).
    pub fn exact(game: Game, id: u64) -> Self {
        Self {
            game,
            id,
            market: None,
        }
    }

    /// The copy's `get_game_state`.
    pub fn state(&self, settings: &EngineSettings) -> GameState {
        let mut state = self.game.state(self.id, settings, &Collection::new());
        if let Some(m) = &self.market {
            state.market = m.clone();
        }
        state
    }

    /// Plays `action`; a level-up replaces the known market with the engine's own.
    pub fn apply(&mut self, action: &Action, settings: &EngineSettings) -> Result<(), Revert> {
        let level = self.game.adventurer.level();
        self.game.apply_in(
            self.id,
            action,
            self.market.as_deref(),
            settings,
            &Collection::new(),
        )?;
        if self.game.adventurer.level() > level {
            self.market = None;
        }
        Ok(())
    }

    /// The adventurer's xp.
    pub fn xp(&self) -> u16 {
        self.game.adventurer.xp
    }

    /// Whether the adventurer is dead.
    pub fn dead(&self) -> bool {
        !self.game.adventurer.is_alive()
    }

    /// The adventurer's level.
    pub fn level(&self) -> u8 {
        self.game.adventurer.level()
    }
}

/// How far one rollout plays.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Horizon {
    /// Levels above the start level at which the rollout stops.
    pub levels: u8,
    /// Most actions a rollout plays.
    pub steps: u32,
    /// Xp a death costs in the score (the game it ends is worth more than the xp it had).
    pub death_cost: f64,
}

/// Plays `first` then the moves of `decide` (the planner) on `copy` to the horizon; the score
/// is the xp reached, less the death cost if the adventurer died. A refused move ends it.
pub fn rollout(
    mut copy: Replica,
    first: &Action,
    decide: &mut dyn FnMut(&GameState, &AdventurerView) -> Action,
    settings: &EngineSettings,
    horizon: &Horizon,
) -> f64 {
    let stop = copy.level().saturating_add(horizon.levels);
    let mut next = Some(first.clone());
    let mut steps = 0;
    while let Some(action) = next.take() {
        if copy.apply(&action, settings).is_err() {
            break;
        }
        steps += 1;
        if copy.dead() || copy.level() >= stop || steps >= horizon.steps {
            break;
        }
        let state = copy.state(settings);
        next = Some(decide(&state, &adventurer_view(copy.id.into(), &state)));
    }
    f64::from(copy.xp()) - if copy.dead() { horizon.death_cost } else { 0.0 }
}

/// The hidden seeds sampled for a state: the `k`-th is a hash of the public state and `k`, so the
/// same state always draws the same seeds. The state is hashed once, for all its seeds.
#[derive(Debug, Clone, Copy)]
pub struct SeedSampler(u64);

impl SeedSampler {
    /// The sampler of `state`'s seeds.
    pub fn of(state: &GameState) -> Self {
        Self(serde_json::to_vec(state).map_or(0, |b| fnv1a(&b)))
    }

    /// The `k`-th seed.
    pub fn seed(self, k: u32) -> Felt {
        Felt::from(splitmix64(
            self.0 ^ u64::from(k).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        ))
    }
}

/// FNV-1a over bytes.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// One step of SplitMix64: a well-mixed 64-bit value.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
