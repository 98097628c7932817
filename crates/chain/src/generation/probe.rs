//! Which generation a contract speaks, from what it exposes: a class's entrypoints (the ABI
//! check's probe) or a Controller session's allowed entrypoints.

use starknet::core::types::Felt;
use starknet::macros::selector;

use super::Generation;

impl Generation {
    /// The generation a game address's class speaks, by the entrypoints it `has`: v2's GameCore
    /// has `load_assets`; a v1 Dojo system has `dojo_name` or `world_dispatcher` (the practice
    /// world, which is no Dojo system, `get_game_state`).
    pub fn of_class(has: &dyn Fn(&str) -> bool) -> Option<Generation> {
        if has("load_assets") {
            Some(Generation::V2)
        } else if has("dojo_name") || has("world_dispatcher") || has("get_game_state") {
            Some(Generation::V1)
        } else {
            None
        }
    }

    /// The generation of a session's game contract: v2 when the session allows it one of
    /// GameCore's own entrypoints (`surrender`, `drop_items`), else v1.
    pub fn of_session(allows: &dyn Fn(Felt) -> bool) -> Generation {
        if [selector!("surrender"), selector!("drop_items")]
            .into_iter()
            .any(allows)
        {
            Generation::V2
        } else {
            Generation::V1
        }
    }
}
