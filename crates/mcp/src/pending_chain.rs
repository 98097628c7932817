//! The backend of a server whose node could not be reached at start: it serves anyway, tries to
//! connect again at each call that needs the chain, and until one succeeds answers why it cannot.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use game::AdventurerId;
use game::engine::Action;
use game::model::{Adventurer, GameState};
use indexer::torii::{EventsFrom, EventsPage};
use indexer::{GameEventsSource, IndexError};
use starknet::core::types::Felt;
use tokio::sync::OnceCell;

use crate::backend::GameBackend;
use chain::entry::Entry;
use chain::{
    ChainClient, ChainError, Change, MintedGame, TxLookup, TxReport, WalletReport, WriteOptions,
};

/// A connection attempt: the chain client, set up as the server uses it.
pub type Connect = Box<
    dyn Fn() -> Pin<Box<dyn Future<Output = Result<Arc<ChainClient>, ChainError>> + Send>>
        + Send
        + Sync,
>;

/// A chain not reached yet: each call that needs it connects first (once one succeeds, every call
/// goes to that client); while the node stays unreachable, calls answer
/// [`ChainError::Unreachable`].
pub struct PendingChain {
    rpc: String,
    unchecked: String,
    connect: Connect,
    client: OnceCell<Arc<ChainClient>>,
}

impl PendingChain {
    /// A chain at `rpc` (host and port) whose connection checks `unchecked`, reached by `connect`.
    pub fn new(rpc: String, unchecked: String, connect: Connect) -> Self {
        Self {
            rpc,
            unchecked,
            connect,
            client: OnceCell::new(),
        }
    }

    /// The error a call gets while the node is unreachable, with the latest reason.
    pub fn unreachable(&self, reason: &ChainError) -> ChainError {
        ChainError::Unreachable {
            rpc: self.rpc.clone(),
            reason: reason.to_string(),
            unchecked: self.unchecked.clone(),
        }
    }

    /// The connected client, connecting now if no attempt has succeeded yet.
    async fn client(&self) -> Result<&Arc<ChainClient>, ChainError> {
        self.client
            .get_or_try_init(|| async {
                let client = (self.connect)().await.map_err(|e| {
                    if e.is_unreachable() {
                        self.unreachable(&e)
                    } else {
                        e
                    }
                })?;
                tracing::info!(rpc = %self.rpc, "connected to the node after start");
                Ok(client)
            })
            .await
    }
}

#[async_trait::async_trait]
impl GameBackend for PendingChain {
    async fn state(&self, adventurer_id: AdventurerId) -> Result<GameState, ChainError> {
        self.client().await?.state(adventurer_id).await
    }

    async fn owner(&self, adventurer_id: AdventurerId) -> Result<Option<Felt>, ChainError> {
        self.client().await?.owner(adventurer_id).await
    }

    async fn world(&self) -> Result<String, ChainError> {
        Ok(self.client().await?.world_identity())
    }

    async fn mint(
        &self,
        player_name: Option<Felt>,
        opts: WriteOptions,
    ) -> Result<(AdventurerId, TxReport), ChainError> {
        GameBackend::mint(&**self.client().await?, player_name, opts).await
    }

    async fn act(
        &self,
        adventurer_id: AdventurerId,
        action: &Action,
        before: Option<&Adventurer>,
        opts: WriteOptions,
    ) -> Result<TxReport, ChainError> {
        GameBackend::act(&**self.client().await?, adventurer_id, action, before, opts).await
    }

    fn needs_state_to_act(&self, action: &Action) -> bool {
        self.client
            .get()
            .is_some_and(|c| GameBackend::needs_state_to_act(&**c, action))
    }

    async fn mint_and_start(
        &self,
        player_name: Option<Felt>,
        weapon: u8,
        opts: WriteOptions,
    ) -> Option<Result<MintedGame, ChainError>> {
        match self.client().await {
            Ok(c) => GameBackend::mint_and_start(&**c, player_name, weapon, opts).await,
            Err(e) => Some(Err(e)),
        }
    }

    /// Before a connection, counted as two transactions (the conservative side of a limit).
    fn mints_and_starts_at_once(&self) -> bool {
        self.client
            .get()
            .is_some_and(|c| GameBackend::mints_and_starts_at_once(&**c))
    }

    async fn check_new_game(&self) -> Result<(), ChainError> {
        GameBackend::check_new_game(&**self.client().await?).await
    }

    /// Before a connection this cannot know the deployment: the entry is checked again by the
    /// client when it is sent ([`ChainClient::enter_game`], `mint_and_start`).
    fn check_entry(&self, entry: Entry) -> Result<(), ChainError> {
        match self.client.get() {
            Some(c) => c.check_entry(entry),
            None => Ok(()),
        }
    }

    async fn enter(
        &self,
        entry: Entry,
        player_name: Option<Felt>,
        opts: WriteOptions,
    ) -> Result<(AdventurerId, TxReport), ChainError> {
        GameBackend::enter(&**self.client().await?, entry, player_name, opts).await
    }

    async fn tx(&self, tx_hash: Felt) -> Result<TxLookup, ChainError> {
        GameBackend::tx(&**self.client().await?, tx_hash).await
    }

    async fn wallet(&self) -> Result<Option<WalletReport>, ChainError> {
        GameBackend::wallet(&**self.client().await?).await
    }

    /// Before a connection the feed waits (no attempt per poll): it starts once a call connects.
    async fn changed_since(
        &self,
        cursor: Option<u64>,
    ) -> Result<Option<(u64, Vec<Change>)>, ChainError> {
        match self.client.get() {
            Some(c) => GameBackend::changed_since(&**c, cursor).await,
            None => Ok(Some((cursor.unwrap_or(0), Vec::new()))),
        }
    }

    async fn stop_changes(&self) {
        if let Some(c) = self.client.get() {
            GameBackend::stop_changes(&**c).await;
        }
    }
}

#[async_trait::async_trait]
impl GameEventsSource for PendingChain {
    async fn game_events(
        &self,
        adventurer_id: AdventurerId,
        from: EventsFrom,
        limit: u32,
    ) -> Result<EventsPage, IndexError> {
        let client = self.client().await?;
        client.game_events(adventurer_id, from, limit).await
    }
}
