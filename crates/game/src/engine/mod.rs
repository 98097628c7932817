//! The action engine: a pure port of the `ls_0_0_9` game systems (docs/game-rules.md) that plays
//! every action on an in-memory game exactly as the contract would without VRF, emitting the same
//! events in the same order. The embedded `sim` chain runs on it, and the battle preview uses it
//! to predict outcomes on worlds with deterministic randomness.

mod battle;
mod encounters;
mod game;
mod inventory;
mod predict;
mod progress;
mod refusal;
mod settings;
mod turn;
mod world;

pub use game::{Game, Outcome, new_adventurer};
pub use predict::{PredictedEnd, Prediction, predict};
pub use refusal::Revert;
pub use settings::{EngineSettings, Ruleset, StatsMode};
pub use world::{BeastKey, Collection, World};

use super::model::{ItemPurchase, Stats};

/// A player action, as the game systems receive it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// `start_game(id, weapon)`.
    StartGame {
        /// Starting weapon id (12, 16, 46 or 76).
        weapon: u8,
    },
    /// `explore(id, till_beast)`.
    Explore {
        /// Keep exploring until a beast, a level-up or death.
        till_beast: bool,
    },
    /// `attack(id, to_the_death)`.
    Attack {
        /// Repeat until one side dies.
        to_the_death: bool,
    },
    /// `flee(id, to_the_death)`.
    Flee {
        /// Repeat until fled or dead.
        to_the_death: bool,
    },
    /// `equip(id, items)`.
    Equip {
        /// Item ids from the bag.
        items: Vec<u8>,
    },
    /// `drop(id, items)`.
    Drop {
        /// Item ids equipped or bagged.
        items: Vec<u8>,
    },
    /// `buy_items(id, potions, items)`.
    BuyItems {
        /// Potions to buy.
        potions: u8,
        /// Items to buy, in order.
        items: Vec<ItemPurchase>,
    },
    /// `select_stat_upgrades(id, stats)`.
    Upgrade {
        /// Points per stat.
        stats: Stats,
    },
    /// `surrender(id)`: ends a living game (the second generation's GameCore only).
    Surrender,
    /// Several actions in one transaction (one multicall), in order: what a player decides at
    /// once, such as a level-up's stat points, purchases and next explore step. Only the last
    /// part may draw randomness; no part is a batch itself ([`Action::batch`] checks both).
    Batch(Vec<Action>),
}

impl Action {
    /// The game-systems entrypoint this action calls (also its name in the journal and logs).
    pub fn entrypoint(&self) -> &'static str {
        match self {
            Self::StartGame { .. } => "start_game",
            Self::Explore { .. } => "explore",
            Self::Attack { .. } => "attack",
            Self::Flee { .. } => "flee",
            Self::Equip { .. } => "equip",
            Self::Drop { .. } => "drop",
            Self::BuyItems { .. } => "buy_items",
            Self::Upgrade { .. } => "select_stat_upgrades",
            Self::Surrender => "surrender",
            Self::Batch(_) => "multicall",
        }
    }

    /// The actions one transaction carries: a batch's parts, else the action itself.
    pub fn parts(&self) -> &[Action] {
        match self {
            Self::Batch(parts) => parts,
            one => std::slice::from_ref(one),
        }
    }

    /// One action for `parts`: the part itself when there is one, else a batch. Refused: no
    /// parts, more than [`MAX_BATCH`], a nested batch, a start, or a part before the last that
    /// may draw randomness (explore, attack, flee).
    pub fn batch(parts: Vec<Action>) -> Result<Action, BatchError> {
        if parts.is_empty() || parts.len() > MAX_BATCH {
            return Err(BatchError::Size(parts.len()));
        }
        for (i, part) in parts.iter().enumerate() {
            let draws = matches!(
                part,
                Self::Explore { .. } | Self::Attack { .. } | Self::Flee { .. }
            );
            let nested = matches!(part, Self::Batch(_) | Self::StartGame { .. });
            if nested || (draws && i + 1 < parts.len()) {
                return Err(BatchError::Part {
                    index: i,
                    entrypoint: part.entrypoint(),
                });
            }
        }
        let mut parts = parts;
        Ok(if parts.len() == 1 {
            parts.remove(0)
        } else {
            Self::Batch(parts)
        })
    }
}

/// Most actions one transaction carries.
pub const MAX_BATCH: usize = 4;

/// Why [`Action::batch`] refused its parts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BatchError {
    /// Too few or too many parts.
    #[error("a transaction carries 1 to {MAX_BATCH} actions, not {0}")]
    Size(usize),
    /// A part that cannot go there.
    #[error(
        "part {index} ({entrypoint}) cannot be batched there: only the last part may explore, attack or flee, and starts and batches are not parts"
    )]
    Part {
        /// The part's position, from 0.
        index: usize,
        /// Its entrypoint.
        entrypoint: &'static str,
    },
}

/// Fails with `refusal` unless `ok`.
fn ensure(ok: bool, refusal: Revert) -> Result<(), Revert> {
    if ok { Ok(()) } else { Err(refusal) }
}

#[cfg(test)]
mod tests;
