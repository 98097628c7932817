//! The game backend behind the tools: read state, mint, act. The real chain implements it, and so
//! does the embedded practice chain (`sim`).

use game::AdventurerId;
use starknet::core::types::Felt;

use chain::WriteOptions;
use chain::entry::Entry;
use chain::{ChainClient, ChainError, Change, MintedGame, TxLookup, TxReport, WalletReport};
use game::engine::{Action, EngineSettings};
use game::model::{Adventurer, GameState};
use indexer::GameIndex;
use sim::SimChain;

/// What the tools need from a chain.
#[async_trait::async_trait]
pub trait GameBackend: Send + Sync {
    /// The full game state of an adventurer.
    async fn state(&self, adventurer_id: AdventurerId) -> Result<GameState, ChainError>;
    /// The owner of an adventurer token, `None` if it was never minted.
    async fn owner(&self, adventurer_id: AdventurerId) -> Result<Option<Felt>, ChainError>;
    /// Mints a new game token to the wallet; returns its id and the transaction.
    async fn mint(
        &self,
        player_name: Option<Felt>,
        opts: WriteOptions,
    ) -> Result<(AdventurerId, TxReport), ChainError>;
    /// Performs one game action and waits for it; `before` is the adventurer's state before it,
    /// when the caller holds it (see [`GameBackend::needs_state_to_act`]).
    async fn act(
        &self,
        adventurer_id: AdventurerId,
        action: &Action,
        before: Option<&Adventurer>,
        opts: WriteOptions,
    ) -> Result<TxReport, ChainError>;
    /// Whether acting needs the adventurer's state before the action (a VRF salt): the caller
    /// then hands over the state it holds instead of the backend reading it again.
    fn needs_state_to_act(&self, _action: &Action) -> bool {
        false
    }
    /// Mints a game token to the wallet and starts it with `weapon` in one transaction, where
    /// the chain offers it; `None`: mint and start separately.
    async fn mint_and_start(
        &self,
        _player_name: Option<Felt>,
        _weapon: u8,
        _opts: WriteOptions,
    ) -> Option<Result<MintedGame, ChainError>> {
        None
    }
    /// Whether [`GameBackend::mint_and_start`] sends one transaction (else the mint and the start
    /// are two): what per-identity transaction limits count for a new game.
    fn mints_and_starts_at_once(&self) -> bool {
        false
    }
    /// Whether state reads are in-process (the embedded chain, which other processes may also
    /// write through its file): writes then read the state back instead of deriving it from
    /// their events and the state this server last knew.
    fn reads_are_local(&self) -> bool {
        false
    }
    /// Whether this is the embedded `sim` chain, whose transaction hashes are made up (compact
    /// results leave them out).
    fn simulated(&self) -> bool {
        false
    }
    /// Refuses `ls_new_game` before its mint when the policy has no room for both transactions.
    async fn check_new_game(&self) -> Result<(), ChainError> {
        Ok(())
    }
    /// Refuses, before anything is signed, an entry this chain cannot serve: every entry but
    /// `mint` needs a dungeon, which only profiles naming one have.
    fn check_entry(&self, entry: Entry) -> Result<(), ChainError> {
        match entry {
            Entry::Mint => Ok(()),
            _ => Err(ChainError::Invalid(chain::Unservable::NoDungeon {
                entry: entry.name(),
            })),
        }
    }
    /// Enters a new game for the wallet (a mint, or a purchase at the dungeon); returns its id
    /// and the transaction.
    async fn enter(
        &self,
        entry: Entry,
        player_name: Option<Felt>,
        opts: WriteOptions,
    ) -> Result<(AdventurerId, TxReport), ChainError> {
        self.check_entry(entry)?;
        self.mint(player_name, opts).await
    }
    /// Status, receipt and game events of a transaction (and this server's record of it).
    async fn tx(&self, tx_hash: Felt) -> Result<TxLookup, ChainError>;

    /// Which world this is (a chain and its deployment, or a sim world's start): what records kept
    /// beside it are bound to.
    async fn world(&self) -> Result<String, ChainError>;
    /// The signing wallet's address, balances and policy; `None` on chains without a wallet.
    async fn wallet(&self) -> Result<Option<WalletReport>, ChainError> {
        Ok(None)
    }
    /// The rules of a world whose randomness is deterministic and known to the server (the
    /// embedded `sim` chain), so advisors can predict exact outcomes; `None` for other chains.
    fn deterministic_rules(&self) -> Option<EngineSettings> {
        None
    }
    /// The chain's own index of every game and event, on a chain that keeps one (the embedded
    /// sim chain): the indexer tools answer from it when no Torii is configured.
    fn game_index(&self) -> Option<&dyn GameIndex> {
        None
    }
    /// Whether followers are told of this server's own writes from
    /// [`GameBackend::changed_since`] alone (the sim world's feed); else each write tells them
    /// itself, and the feed's changes of an already told transaction are dropped.
    fn has_change_feed(&self) -> bool {
        false
    }
    /// The adventurers any writer changed after `cursor`, with the cursor to ask from next
    /// (`cursor` `None`: only where to start); `None` where this backend has no such feed.
    async fn changed_since(
        &self,
        _cursor: Option<u64>,
    ) -> Result<Option<(u64, Vec<Change>)>, ChainError> {
        Ok(None)
    }
    /// Stops the change feed while nothing is followed (the node is no longer asked).
    async fn stop_changes(&self) {}
}

#[async_trait::async_trait]
impl GameBackend for SimChain {
    async fn state(&self, adventurer_id: AdventurerId) -> Result<GameState, ChainError> {
        self.game_state(chain::v1_id(adventurer_id)?)
    }

    async fn owner(&self, adventurer_id: AdventurerId) -> Result<Option<Felt>, ChainError> {
        self.owner_of(chain::v1_id(adventurer_id)?)
    }

    async fn mint(
        &self,
        _player_name: Option<Felt>,
        opts: WriteOptions,
    ) -> Result<(AdventurerId, TxReport), ChainError> {
        self.mint_game(&opts)
            .map(|(id, report)| (id.into(), report))
    }

    async fn act(
        &self,
        adventurer_id: AdventurerId,
        action: &Action,
        _before: Option<&Adventurer>,
        opts: WriteOptions,
    ) -> Result<TxReport, ChainError> {
        self.apply(chain::v1_id(adventurer_id)?, action, &opts)
    }

    async fn world(&self) -> Result<String, ChainError> {
        self.world_identity()
    }

    async fn tx(&self, tx_hash: Felt) -> Result<TxLookup, ChainError> {
        self.lookup(tx_hash)
    }

    fn reads_are_local(&self) -> bool {
        true
    }

    fn simulated(&self) -> bool {
        true
    }

    fn deterministic_rules(&self) -> Option<EngineSettings> {
        self.randomness()
            .is_deterministic()
            .then(|| self.settings())
    }

    fn game_index(&self) -> Option<&dyn GameIndex> {
        Some(self)
    }

    fn has_change_feed(&self) -> bool {
        self.state_file().is_some()
    }

    async fn changed_since(
        &self,
        cursor: Option<u64>,
    ) -> Result<Option<(u64, Vec<Change>)>, ChainError> {
        if !self.has_change_feed() {
            return Ok(None);
        }
        let (next, ids) = SimChain::changed_since(self, cursor)?;
        let changes = ids.into_iter().map(|id| Change {
            adventurer_id: AdventurerId::from(id),
            tx_hash: None,
        });
        Ok(Some((next, changes.collect())))
    }
}

#[async_trait::async_trait]
impl GameBackend for ChainClient {
    async fn state(&self, adventurer_id: AdventurerId) -> Result<GameState, ChainError> {
        self.game_state(adventurer_id).await
    }

    async fn owner(&self, adventurer_id: AdventurerId) -> Result<Option<Felt>, ChainError> {
        self.owner_of(adventurer_id).await
    }

    async fn mint(
        &self,
        player_name: Option<Felt>,
        opts: WriteOptions,
    ) -> Result<(AdventurerId, TxReport), ChainError> {
        self.mint_game(player_name, opts).await
    }

    async fn act(
        &self,
        adventurer_id: AdventurerId,
        action: &Action,
        before: Option<&Adventurer>,
        opts: WriteOptions,
    ) -> Result<TxReport, ChainError> {
        ChainClient::act(self, adventurer_id, action, before, opts).await
    }

    fn needs_state_to_act(&self, action: &Action) -> bool {
        ChainClient::needs_state_to_act(self, action)
    }

    async fn check_new_game(&self) -> Result<(), ChainError> {
        ChainClient::check_new_game(self)
    }

    fn check_entry(&self, entry: Entry) -> Result<(), ChainError> {
        ChainClient::check_entry(self, entry)
    }

    async fn enter(
        &self,
        entry: Entry,
        player_name: Option<Felt>,
        opts: WriteOptions,
    ) -> Result<(AdventurerId, TxReport), ChainError> {
        self.enter_game(entry, player_name, opts).await
    }

    async fn mint_and_start(
        &self,
        player_name: Option<Felt>,
        weapon: u8,
        opts: WriteOptions,
    ) -> Option<Result<MintedGame, ChainError>> {
        if !GameBackend::mints_and_starts_at_once(self) {
            return None;
        }
        Some(ChainClient::mint_and_start(self, player_name, weapon, opts).await)
    }

    /// One multicall where the generation predicts the id; else the tool's two-transaction path
    /// (room for both checked before the mint, a failed start naming the minted id and hash).
    fn mints_and_starts_at_once(&self) -> bool {
        self.deployment().game().new_game_plan() == chain::generation::NewGamePlan::OneMulticall
    }

    async fn world(&self) -> Result<String, ChainError> {
        Ok(self.world_identity())
    }

    async fn tx(&self, tx_hash: Felt) -> Result<TxLookup, ChainError> {
        self.lookup_tx(tx_hash).await
    }

    async fn wallet(&self) -> Result<Option<WalletReport>, ChainError> {
        self.wallet_report().await.map(Some)
    }

    async fn changed_since(
        &self,
        cursor: Option<u64>,
    ) -> Result<Option<(u64, Vec<Change>)>, ChainError> {
        self.changes_since(cursor).await.map(Some)
    }

    async fn stop_changes(&self) {
        ChainClient::stop_changes(self).await;
    }
}
