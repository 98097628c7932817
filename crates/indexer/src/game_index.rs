//! One interface over every index of the game's history: the reads the indexer tools need (the
//! leaderboard, an owner's games, an adventurer's events), answered by Torii or by a chain that
//! keeps its own index (the embedded sim chain, in `sim_index`) or by the Denshokan API (the
//! second generation, in `denshokan::index`), so the tools call one and present its answer the
//! same way. Torii and the sim page by rank and id; Denshokan pages by offset (`*_at`).

use game::AdventurerId;
use starknet_types_core::felt::Felt;

use crate::denshokan::DenshokanError;
use crate::torii::{
    EventsFrom, EventsPage, IndexerHead, LeaderboardFetch, LeaderboardQuery, OwnedGamesPage,
    ToriiClient, ToriiError,
};
use chain::ChainError;

/// Why an index could not answer.
#[derive(Debug, Clone, thiserror::Error)]
pub enum IndexError {
    /// Torii failed or is not configured.
    #[error(transparent)]
    Torii(#[from] ToriiError),
    /// The chain keeping its own index failed to read it.
    #[error(transparent)]
    Chain(#[from] ChainError),
    /// The Denshokan API failed.
    #[error(transparent)]
    Denshokan(#[from] DenshokanError),
    /// The adventurer was never minted (said by an index that knows every token).
    #[error("adventurer {0} does not exist")]
    NoSuchAdventurer(AdventurerId),
    /// This index does not answer this read (Denshokan holds no event history), or not from
    /// this cursor (one another index issued).
    #[error("the {index} index does not serve {what}")]
    NotServed {
        /// The index's name.
        index: &'static str,
        /// What it was asked for.
        what: &'static str,
    },
}

impl IndexError {
    /// The service that failed, as a warning names it (`Torii is failing`).
    pub fn service(&self) -> &'static str {
        match self {
            Self::Denshokan(_) => "the Denshokan API",
            Self::Chain(_) => "the chain",
            Self::Torii(_) => "Torii",
            Self::NoSuchAdventurer(_) | Self::NotServed { .. } => "the index",
        }
    }
}

/// An adventurer's event history from a source beside an index that holds none (the second
/// generation's `GameCore` events on the chain, which the chain layer reads); the Denshokan index
/// answers `game_events` from it.
#[async_trait::async_trait]
pub trait GameEventsSource: Send + Sync {
    /// A page of an adventurer's events in chain order, starting at `from`.
    async fn game_events(
        &self,
        adventurer_id: AdventurerId,
        from: EventsFrom,
        limit: u32,
    ) -> Result<EventsPage, IndexError>;
}

/// The game's history as an index answers it, a page at a time.
#[async_trait::async_trait]
pub trait GameIndex: Send + Sync {
    /// The index's name, as results report where they came from (`torii`, `sim`).
    fn name(&self) -> &'static str;
    /// Whether the index follows the chain from outside and may be behind it (Torii): readers then
    /// compare its answers with the chain. A chain's own index is the chain and never behind.
    fn follows_chain(&self) -> bool {
        true
    }
    /// The dungeon whose games the `dungeon` leaderboard scope ranks, when the index knows one.
    fn dungeon(&self) -> Option<Felt> {
        None
    }
    /// The profile key that names that dungeon for this index.
    fn dungeon_setting(&self) -> &'static str {
        "chain.contracts.dungeon"
    }
    /// How far the index has read the chain, when it says.
    async fn head(&self) -> Option<IndexerHead> {
        None
    }
    /// Whether the index pages by offset (Denshokan): its pages say `next_offset`, later pages
    /// are read with [`leaderboard_at`](Self::leaderboard_at) and
    /// [`owner_games_at`](Self::owner_games_at), and its owner's games come in its own order.
    fn pages_by_offset(&self) -> bool {
        false
    }
    /// The index's own stream of changes, when it pushes them (the Denshokan API's WebSocket).
    fn change_stream(&self) -> Option<std::sync::Arc<dyn crate::ChangeStream>> {
        None
    }
    /// A page of the games ranked by score (xp), ties by id.
    async fn leaderboard(&self, q: &LeaderboardQuery) -> Result<LeaderboardFetch, IndexError>;
    /// The leaderboard page `offset` rows into the filtered rows (a `next_offset` this index gave);
    /// an index paging by rank alone reads `q.after_rank`.
    async fn leaderboard_at(
        &self,
        q: &LeaderboardQuery,
        offset: u64,
    ) -> Result<LeaderboardFetch, IndexError> {
        let _ = offset;
        self.leaderboard(q).await
    }
    /// A page of an owner's games, newest (highest id) first, below `before` when given, each
    /// with its adventurer where the index holds it.
    async fn owner_games(
        &self,
        owner: Felt,
        before: Option<AdventurerId>,
        limit: u32,
    ) -> Result<OwnedGamesPage, IndexError>;
    /// A page of an owner's games `offset` rows into the index's own order (a `next_offset` it
    /// gave); an index paging by id does not serve it.
    async fn owner_games_at(
        &self,
        owner: Felt,
        offset: u64,
        limit: u32,
    ) -> Result<OwnedGamesPage, IndexError> {
        let _ = (owner, offset, limit);
        Err(IndexError::NotServed {
            index: self.name(),
            what: "an owner's games by offset",
        })
    }
    /// A page of an adventurer's events in chain order, starting at `from`.
    async fn game_events(
        &self,
        adventurer_id: AdventurerId,
        from: EventsFrom,
        limit: u32,
    ) -> Result<EventsPage, IndexError>;
}

#[async_trait::async_trait]
impl GameIndex for ToriiClient {
    fn name(&self) -> &'static str {
        "torii"
    }

    fn dungeon(&self) -> Option<Felt> {
        self.dungeon
    }

    async fn head(&self) -> Option<IndexerHead> {
        self.indexer_head().await
    }

    async fn leaderboard(&self, q: &LeaderboardQuery) -> Result<LeaderboardFetch, IndexError> {
        Ok(ToriiClient::leaderboard(self, q).await?.into())
    }

    /// The owner's games from the token models, each with its packed adventurer (a failed
    /// lookup of those is a warning: the games are still listed).
    async fn owner_games(
        &self,
        owner: Felt,
        before: Option<AdventurerId>,
        limit: u32,
    ) -> Result<OwnedGamesPage, IndexError> {
        let before = match before {
            Some(b) => Some(b.to_u64().ok_or(IndexError::NoSuchAdventurer(b))?),
            None => None,
        };
        let mut page = ToriiClient::owner_games(self, owner, before, limit).await?;
        let ids: Vec<u64> = page
            .games
            .iter()
            .filter_map(|g| g.adventurer_id.to_u64())
            .collect();
        match self.packed_adventurers(&ids).await {
            Ok(packed) => {
                for g in &mut page.games {
                    g.adventurer = g
                        .adventurer_id
                        .to_u64()
                        .and_then(|id| packed.by_id.get(&id).copied());
                }
                page.warnings.extend(packed.warnings);
            }
            Err(e) => page
                .warnings
                .push(format!("adventurer states unavailable: {e}")),
        }
        Ok(page)
    }

    async fn game_events(
        &self,
        adventurer_id: AdventurerId,
        from: EventsFrom,
        limit: u32,
    ) -> Result<EventsPage, IndexError> {
        Ok(ToriiClient::game_events(self, adventurer_id, from, limit).await?)
    }
}
