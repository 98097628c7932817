//! The backend of a server whose node could not be reached at start: it serves the tool list, the
//! rules and the advisors, and every call that needs the chain answers why it cannot.

use game::AdventurerId;
use game::engine::Action;
use game::model::{Adventurer, GameState};
use starknet::core::types::Felt;

use crate::backend::GameBackend;
use chain::entry::Entry;
use chain::{ChainError, TxLookup, TxReport, WalletReport, WriteOptions};

/// A chain that was not reached: its one answer is [`ChainError::Unreachable`].
#[derive(Debug, Clone)]
pub struct UnreachableChain {
    error: ChainError,
}

impl UnreachableChain {
    /// The chain at `rpc` (host and port) that failed with `reason`, leaving `unchecked` unchecked.
    pub fn new(rpc: String, reason: String, unchecked: String) -> Self {
        Self {
            error: ChainError::Unreachable {
                rpc,
                reason,
                unchecked,
            },
        }
    }

    /// The answer every chain call gets.
    pub fn error(&self) -> ChainError {
        self.error.clone()
    }
}

#[async_trait::async_trait]
impl GameBackend for UnreachableChain {
    async fn state(&self, _adventurer_id: AdventurerId) -> Result<GameState, ChainError> {
        Err(self.error())
    }

    async fn owner(&self, _adventurer_id: AdventurerId) -> Result<Option<Felt>, ChainError> {
        Err(self.error())
    }

    async fn mint(
        &self,
        _player_name: Option<Felt>,
        _opts: WriteOptions,
    ) -> Result<(AdventurerId, TxReport), ChainError> {
        Err(self.error())
    }

    async fn act(
        &self,
        _adventurer_id: AdventurerId,
        _action: &Action,
        _before: Option<&Adventurer>,
        _opts: WriteOptions,
    ) -> Result<TxReport, ChainError> {
        Err(self.error())
    }

    fn check_entry(&self, _entry: Entry) -> Result<(), ChainError> {
        Err(self.error())
    }

    async fn tx(&self, _tx_hash: Felt) -> Result<TxLookup, ChainError> {
        Err(self.error())
    }

    async fn wallet(&self) -> Result<Option<WalletReport>, ChainError> {
        Err(self.error())
    }
}
