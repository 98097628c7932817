//! The indexer tools: `ls_get_leaderboard`, `ls_list_adventurers` and `ls_get_game_events`, over
//! Torii, with the chain as the fallback where one exists (adventurer ids this server already
//! knows). Failures become `INDEXER_ERROR` only when no fallback can answer. On a chain that
//! indexes itself (the embedded sim chain) and no Torii, they answer from it (`sim_index`). This
//! file defines the tools; the work is in `indexer/`, one file per tool.

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
use crate::torii::{KnownIds, ToriiClient};

/// The indexer side of the server: the Torii client (when configured), the wallet address, and the
/// adventurer ids this server has played or seen listed.
#[derive(Clone, Default)]
pub struct Indexer {
    pub(super) torii: Option<Arc<ToriiClient>>,
    pub(super) wallet: Option<Felt>,
    /// Ids this server acted on: checked against the chain even when Torii answers.
    pub(super) played: Arc<KnownIds>,
    /// Ids Torii listed before: read from the chain only when Torii is down.
    pub(super) listed: Arc<KnownIds>,
}

impl Indexer {
    /// Remembers an adventurer id this server acted on, for the chain fallback.
    pub fn remember(&self, id: u64) {
        self.played.remember([id]);
    }

    /// Every known id below `before`, newest first.
    pub(super) fn known_newest_first(&self, before: Option<u64>) -> Vec<u64> {
        let mut all: Vec<u64> = self.played.newest_first(before);
        all.extend(self.listed.newest_first(before));
        all.sort_unstable_by(|a, b| b.cmp(a));
        all.dedup();
        all
    }
}

impl LsServer {
    /// Uses this Torii client for the indexer tools.
    pub fn with_torii(mut self, torii: Arc<ToriiClient>) -> Self {
        self.indexer.torii = Some(torii);
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
        description = "The leaderboard from the Torii indexer: games ranked by score (the adventurer's xp), each with rank, adventurer_id, player_name, score, level, health, owner and game_over. Pages of `limit` rows (default 50, capped at 200); pass `next_cursor` back as `cursor` for the next page. Filters: live_only (games not over), mine (this wallet's games), scope: \"dungeon\" ranks only games minted by the profile's dungeon, as the official leaderboard does (the default where the profile names a dungeon, e.g. mainnet), \"all\" every game token of the game. Pages are cached for a few seconds; `indexer` says how fresh the data is.",
        annotations(title = "Leaderboard", read_only_hint = true, open_world_hint = true)
    )]
    async fn ls_get_leaderboard(
        &self,
        Parameters(args): Parameters<Args<LeaderboardArgs>>,
    ) -> Result<Json<LeaderboardResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        let limit = page_limit(a.limit)?;
        match self.own_index() {
            Some(sim) => self.sim_leaderboard(sim, &a, limit),
            None => self.torii_leaderboard(&a, limit).await,
        }
        .map(Json)
    }

    #[tool(
        description = "List an owner's Loot Survivor games (default: this wallet's), newest first, each with phase (not_started, in_battle, stat_upgrade, exploring, dead), level, xp, health and whether the game is over. Reads the Torii indexer; when Torii is down or behind, games this server already knows are read from the chain instead (`source` says which). Pages of `limit` (default 50, cap 200) with `next_cursor`.",
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
        description = "An adventurer's game-event history from the Torii indexer, in chain order, decoded into the same event shapes the write tools return (beast, attack, beast_attack, discovery, obstacle, level_up, market_items, adventurer, …). Pages of `limit` events (default 50, cap 200); pass `next_cursor` back as `cursor` for later events. `lag` is set when Torii has not indexed the latest actions yet.",
        annotations(title = "Game events", read_only_hint = true, open_world_hint = true)
    )]
    async fn ls_get_game_events(
        &self,
        Parameters(args): Parameters<Args<GameEventsArgs>>,
    ) -> Result<Json<GameEventsResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        let limit = page_limit(a.limit)?;
        match self.own_index() {
            Some(sim) => self.sim_game_events(sim, &a, limit),
            None => self.torii_game_events(&a, limit).await,
        }
        .map(Json)
    }
}
