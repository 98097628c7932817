//! The indexer tools: `ls_get_leaderboard`, `ls_list_adventurers` and `ls_get_game_events`, read
//! from one [`GameIndex`](indexer::GameIndex): the one configured (Torii, or the Denshokan API on
//! the second generation), else the chain's own (the embedded sim chain's). Over Torii the chain is the fallback where one exists (adventurer ids
//! this server already knows); failures become `INDEXER_ERROR` only when no fallback can answer.
//! This file defines the tools; the work is in `indexer/`, one file per tool.

use game::AdventurerId;
use std::sync::Arc;

use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::{tool, tool_router};
use starknet::core::types::Felt;

use super::args::Args;
use super::indexer::page_limit;
pub use super::indexer::{DEFAULT_LIMIT, MAX_LIMIT};
pub use super::indexer_types::*;
use super::server::LsServer;
use crate::error::ToolError;
use indexer::GameIndex;
use indexer::torii::{KnownIds, ToriiClient};

/// The indexer side of the server: the index configured (Torii or Denshokan), the wallet
/// address, and the adventurer ids this server has played or seen listed.
#[derive(Clone, Default)]
pub(crate) struct Indexer {
    pub(super) index: Option<Arc<dyn GameIndex>>,
    pub(super) wallet: Option<Felt>,
    /// Ids this server acted on: checked against the chain even when Torii answers.
    pub(super) played: Arc<KnownIds>,
    /// Ids Torii listed before: read from the chain only when Torii is down.
    pub(super) listed: Arc<KnownIds>,
}

impl Indexer {
    /// Remembers an adventurer id this server acted on, for the chain fallback.
    pub(crate) fn remember(&self, id: AdventurerId) {
        self.played.remember([id]);
    }

    /// Every known id below `before`, newest first.
    pub(super) fn known_newest_first(&self, before: Option<AdventurerId>) -> Vec<AdventurerId> {
        let mut all: Vec<AdventurerId> = self.played.newest_first(before);
        all.extend(self.listed.newest_first(before));
        all.sort_unstable_by(|a, b| b.cmp(a));
        all.dedup();
        all
    }
}

impl LsServer {
    /// Uses this Torii client for the indexer tools.
    pub fn with_torii(self, torii: Arc<ToriiClient>) -> Self {
        self.with_index(torii)
    }

    /// Uses this index for the indexer tools (the Denshokan API's on the second generation).
    pub fn with_index(mut self, index: Arc<dyn GameIndex>) -> Self {
        self.indexer.index = Some(index);
        self
    }

    /// The wallet address that `mine` and the default owner refer to.
    pub fn with_wallet(mut self, address: Felt) -> Self {
        self.indexer.wallet = Some(address);
        self
    }
}

#[tool_router(router = torii_tool_router, vis = "pub(crate)")]
impl LsServer {
    #[tool(
        description = "Games ranked by score (xp), from Torii or the Denshokan API, in pages.",
        annotations(title = "Leaderboard", read_only_hint = true, open_world_hint = true)
    )]
    async fn ls_get_leaderboard(
        &self,
        Parameters(args): Parameters<Args<LeaderboardArgs>>,
    ) -> Result<Json<LeaderboardResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        let limit = page_limit(a.limit)?;
        self.leaderboard_page(&a, limit).await.map(Json)
    }

    #[tool(
        description = "An owner's games, newest first, in pages: from Torii or the Denshokan API, else the chain's games this server knows.",
        annotations(
            title = "List adventurers",
            read_only_hint = true,
            open_world_hint = true
        )
    )]
    async fn ls_list_adventurers(
        &self,
        Parameters(args): Parameters<Args<ListAdventurersArgs>>,
    ) -> Result<Json<AdventurerListResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        let limit = page_limit(a.limit)?;
        self.list_adventurers(&a, limit).await.map(Json)
    }

    #[tool(
        description = "An adventurer's game events in chain order, in pages: from Torii, or from the chain.",
        annotations(title = "Game events", read_only_hint = true, open_world_hint = true)
    )]
    async fn ls_get_game_events(
        &self,
        Parameters(args): Parameters<Args<GameEventsArgs>>,
    ) -> Result<Json<GameEventsResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        let limit = page_limit(a.limit)?;
        self.game_events_page(&a, limit).await.map(Json)
    }
}
