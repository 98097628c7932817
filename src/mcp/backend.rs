//! The game backend behind the tools: read state, mint, act. The real chain implements it; the
//! embedded practice chain will too.

use starknet::core::types::Felt;

use crate::chain::WriteOptions;
use crate::chain::{ChainClient, ChainError, GameAction, TxReport};
use crate::game::model::GameState;

/// What the tools need from a chain.
#[async_trait::async_trait]
pub trait GameBackend: Send + Sync {
    /// The full game state of an adventurer.
    async fn state(&self, adventurer_id: u64) -> Result<GameState, ChainError>;
    /// Mints a new game token to the wallet; returns its id and the transaction.
    async fn mint(
        &self,
        player_name: Option<Felt>,
        opts: WriteOptions,
    ) -> Result<(u64, TxReport), ChainError>;
    /// Performs one game action and waits for it.
    async fn act(
        &self,
        adventurer_id: u64,
        action: &GameAction,
        opts: WriteOptions,
    ) -> Result<TxReport, ChainError>;
}

#[async_trait::async_trait]
impl GameBackend for ChainClient {
    async fn state(&self, adventurer_id: u64) -> Result<GameState, ChainError> {
        self.game_state(adventurer_id).await
    }

    async fn mint(
        &self,
        player_name: Option<Felt>,
        opts: WriteOptions,
    ) -> Result<(u64, TxReport), ChainError> {
        self.mint_game(player_name, opts).await
    }

    async fn act(
        &self,
        adventurer_id: u64,
        action: &GameAction,
        opts: WriteOptions,
    ) -> Result<TxReport, ChainError> {
        ChainClient::act(self, adventurer_id, action, opts).await
    }
}
