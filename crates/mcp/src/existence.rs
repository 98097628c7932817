//! Whether an adventurer exists. The game answers an all-zero adventurer for any id, minted or
//! not, so a state that looks untouched (no health, no xp, no action) is checked against the game
//! token's owner: no owner, no adventurer. Every tool that reads or acts on an id asks here.

use super::errors::{from_chain, missing_adventurer};
use super::server::LsServer;
use crate::error::ToolError;
use chain::ChainError;
use game::AdventurerId;
use game::model::GameState;

impl LsServer {
    /// Whether adventurer `id`, whose state is `state`, was minted (an owner lookup only for a
    /// state that looks untouched).
    pub(super) async fn minted(
        &self,
        id: AdventurerId,
        state: &GameState,
    ) -> Result<bool, ChainError> {
        let adv = &state.adventurer;
        if adv.health != 0 || adv.xp != 0 || adv.action_count != 0 {
            return Ok(true);
        }
        Ok(self.backend.owner(id).await?.is_some())
    }

    /// `NOT_FOUND` unless adventurer `id` was minted; a failed lookup maps as chain errors do.
    pub(super) async fn ensure_minted(
        &self,
        id: AdventurerId,
        state: &GameState,
    ) -> Result<(), ToolError> {
        match self.minted(id, state).await.map_err(from_chain)? {
            true => Ok(()),
            false => Err(missing_adventurer(id)),
        }
    }
}
