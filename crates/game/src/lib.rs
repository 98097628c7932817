//! Pure game layer for Death Mountain / Loot Survivor 2 (`ls_0_0_9`): data models and their felt
//! encodings, event decoding, rules, catalogue, phase, the adventurer view and the planner; `v2`
//! decodes mainnet's second generation (GameCore) into the same types.
//! No I/O, no async: everything here is deterministic and unit-tested (rules: docs/game-rules.md).
//!
//! The lowest layer of loot-survivor-mcp, as a crate of its own: its only dependencies are
//! external crates (field elements, Poseidon, serde, JSON schemas), so the build itself forbids it
//! any higher layer (wallet, chain, Torii, MCP). The server re-exports it as
//! `loot_survivor_mcp::game`; anyone building on Death Mountain can use it alone.

pub mod advice;
pub mod after;
mod beast_display;
pub mod boosts;
pub mod catalogue;
pub mod combat;
pub mod engine;
pub mod events;
pub mod felt;
pub mod id;
pub mod lookup;
pub mod model;
pub mod moves;
pub mod pack;
pub mod phase;
pub mod policy;
pub mod preview;
#[cfg(test)]
mod properties;
pub mod random;
pub mod rules;
#[cfg(any(test, feature = "testing"))]
pub mod sample;
#[cfg(test)]
mod testing;
pub mod token_fields;
pub mod v2;
pub mod verdict;
pub mod view;

pub use catalogue::{BeastInfo, ItemInfo, ItemType, ObstacleInfo, Slot, Tier};
pub use events::{
    EVENT_EMITTED_SELECTOR, GAME_EVENT_SELECTOR, GameEvent, GameEventDetails, decode_game_event,
    decode_game_events,
};
pub use felt::{DecodeError, FeltReader};
pub use id::{AdventurerId, IdError};
pub use model::{
    Adventurer, Bag, BeastEvent, Equipment, GameState, Item, ItemPurchase, SpecialPowers, Stats,
};
pub use phase::{Phase, phase};
pub use preview::{BattlePreview, battle_preview};
pub use view::{AdventurerView, adventurer_view};
