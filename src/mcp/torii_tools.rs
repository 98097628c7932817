//! The indexer tools: `ls_get_leaderboard`, `ls_list_adventurers` and `ls_get_game_events`, over
//! Torii, with the chain as the fallback where one exists (adventurer ids this server already
//! knows). Failures become `INDEXER_ERROR` only when no fallback can answer. On a chain that
//! indexes itself (the embedded sim chain) and no Torii, they answer from it (`sim_index`).

use std::collections::BTreeMap;
use std::sync::Arc;

use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::{tool, tool_router};
use starknet::core::types::Felt;

use super::args::Args;
use super::errors::from_chain;
pub use super::indexer_types::*;
use super::server::LsServer;
use crate::config::parse_felt;
use crate::error::{ErrorCode, SCHEMA_VERSION, ToolError};
use crate::game::model::Adventurer;
use crate::game::phase::{Phase, phase};
use crate::game::rules::level_from_xp;
use crate::torii::values::{address_string, pad_felt};
use crate::torii::{
    EventsFrom, KnownIds, LeaderboardQuery, OwnedGame, PageCursor, ToriiClient, ToriiError,
};

/// Rows per page when the agent does not say.
pub const DEFAULT_LIMIT: u32 = 50;
/// Most rows per page; larger requests are capped.
pub const MAX_LIMIT: u32 = 200;
/// Most known ids examined on the chain for one fallback page.
const MAX_CHAIN_SCAN: usize = 400;

/// The indexer side of the server: the Torii client (when configured), the wallet address, and the
/// adventurer ids this server has played or seen listed.
#[derive(Clone, Default)]
pub struct Indexer {
    torii: Option<Arc<ToriiClient>>,
    wallet: Option<Felt>,
    /// Ids this server acted on: checked against the chain even when Torii answers.
    played: Arc<KnownIds>,
    /// Ids Torii listed before: read from the chain only when Torii is down.
    listed: Arc<KnownIds>,
}

impl Indexer {
    /// Remembers an adventurer id this server acted on, for the chain fallback.
    pub fn remember(&self, id: u64) {
        self.played.remember([id]);
    }

    /// Every known id below `before`, newest first.
    fn known_newest_first(&self, before: Option<u64>) -> Vec<u64> {
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
        description = "The leaderboard from the Torii indexer: games ranked by score (the adventurer's xp), each with rank, adventurer_id, player_name, score, level, health, owner and game_over. Pages of `limit` rows (default 50, capped at 200); pass `next_cursor` back as `cursor` for the next page. Filters: live_only (games not over), mine (this wallet's games). Pages are cached for a few seconds; `indexer` says how fresh the data is.",
        annotations(title = "Leaderboard", read_only_hint = true, open_world_hint = true)
    )]
    async fn ls_get_leaderboard(
        &self,
        Parameters(args): Parameters<Args<LeaderboardArgs>>,
    ) -> Result<Json<LeaderboardResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        let limit = page_limit(a.limit)?;
        if let Some(sim) = self.own_index() {
            return self.sim_leaderboard(sim, &a, limit).map(Json);
        }
        let (after_rank, live_only, owner) = match a.cursor.as_deref().map(decode_cursor) {
            Some(Ok(PageCursor::Leaderboard { rank, live, owner })) => {
                let owner = owner
                    .map(|o| parse_felt(&o))
                    .transpose()
                    .map_err(|_| bad_cursor())?;
                if a.live_only.is_some_and(|l| l != live)
                    || a.mine.is_some_and(|m| m != owner.is_some())
                {
                    return Err(ToolError::validation(
                        "the cursor belongs to a page with other filters",
                    )
                    .with_hint(
                        "omit live_only and mine when passing a cursor, or start over without one",
                    ));
                }
                (rank, live, owner)
            }
            Some(Ok(_)) | Some(Err(_)) => return Err(bad_cursor()),
            None => {
                let owner = if a.mine.unwrap_or(false) {
                    Some(self.wallet()?)
                } else {
                    None
                };
                (0, a.live_only.unwrap_or(false), owner)
            }
        };
        let torii = self.torii()?;
        let fetch = torii
            .leaderboard(&LeaderboardQuery {
                after_rank,
                limit,
                live_only,
                owner,
            })
            .await
            .map_err(|e| indexer_error(&e))?;
        let page = fetch.page;
        let next_cursor = match page.rows.last() {
            Some(last) if page.has_more => Some(
                PageCursor::Leaderboard {
                    rank: last.rank,
                    live: live_only,
                    owner: owner.map(pad_felt),
                }
                .encode(),
            ),
            _ => None,
        };
        let mut indexer = match &fetch.stale_because {
            Some(e) => IndexerInfo {
                source: "stale_cache".into(),
                behind: true,
                error: Some(e.to_string()),
                ..IndexerInfo::default()
            },
            None => {
                let source = if fetch.cache_age.is_some() {
                    "cache"
                } else {
                    "torii"
                };
                IndexerInfo::from_torii(source, torii.indexer_head().await)
            }
        };
        indexer.cache_age_ms = fetch.cache_age.map(|d| d.as_millis() as u64);
        let mut warnings = page.warnings;
        if fetch.stale_because.is_some() {
            warnings.push("Torii is failing; this page is an older cached copy".into());
        }
        Ok(Json(LeaderboardResult {
            ok: true,
            schema_version: SCHEMA_VERSION.into(),
            chain: self.opts.chain.clone(),
            rows: page.rows,
            limit,
            total: page.total,
            next_cursor,
            filters: LeaderboardFilters {
                live_only,
                mine: owner.is_some(),
            },
            indexer,
            warnings,
        }))
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
        let arg_owner = a
            .owner
            .as_deref()
            .map(|o| {
                parse_felt(o).map_err(|e| {
                    ToolError::validation(format!("owner: {e}")).with_detail("field", "owner")
                })
            })
            .transpose()?;
        let (owner, before) = match a.cursor.as_deref().map(decode_cursor) {
            Some(Ok(PageCursor::Owner { owner, before })) => {
                let owner = parse_felt(&owner).map_err(|_| bad_cursor())?;
                if arg_owner.is_some_and(|o| o != owner) {
                    return Err(ToolError::validation("the cursor belongs to another owner")
                        .with_hint("omit owner when passing a cursor"));
                }
                (owner, Some(before))
            }
            Some(_) => return Err(bad_cursor()),
            None => match arg_owner {
                Some(o) => (o, None),
                None => (self.wallet()?, None),
            },
        };
        if let Some(sim) = self.own_index() {
            return self.sim_adventurers(sim, owner, before, limit).map(Json);
        }
        let torii_result = match &self.indexer.torii {
            Some(t) => Some(self.list_from_torii(t, owner, before, limit).await),
            None => None,
        };
        let mut out = match torii_result {
            Some(Ok(list)) => list,
            Some(Err(e)) => {
                let mut list = self.list_from_chain(owner, before, limit).await?;
                if list.adventurers.is_empty() {
                    return Err(indexer_error(&e).with_hint(
                        "Torii is unavailable and this server knows no games of this owner; retry later",
                    ));
                }
                list.indexer.error = Some(e.to_string());
                list.warnings.push(format!(
                    "Torii is unavailable ({e}); only games this server already knows are listed"
                ));
                list
            }
            None => {
                let mut list = self.list_from_chain(owner, before, limit).await?;
                list.indexer.error = Some(ToriiError::NotConfigured.to_string());
                list.warnings.push(
                    "no Torii indexer is configured; only games this server already knows are listed"
                        .into(),
                );
                list
            }
        };
        out.owner = address_string(owner);
        Ok(Json(out))
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
        let id = a.adventurer_id;
        if let Some(sim) = self.own_index() {
            return self.sim_game_events(sim, &a, limit).map(Json);
        }
        let from = match a.cursor.as_deref().map(decode_cursor) {
            Some(Ok(PageCursor::Events {
                id: cid,
                action,
                skip,
            })) if cid == id => EventsFrom {
                action_count: action,
                skip,
            },
            Some(Ok(PageCursor::Events { .. })) => {
                return Err(ToolError::validation(
                    "the cursor belongs to another adventurer",
                ));
            }
            Some(_) => return Err(bad_cursor()),
            None => EventsFrom::default(),
        };
        let torii = self.torii().map_err(|e| {
            e.with_hint("without an indexer, each write tool's result carries that action's events")
        })?;
        let page = torii
            .game_events(id, from, limit)
            .await
            .map_err(|e| indexer_error(&e))?;
        let mut warnings = page.warnings;
        let mut indexer = IndexerInfo::from_torii("torii", torii.indexer_head().await);
        let lag = match self.backend.state(id).await {
            Ok(state) => {
                let chain = u64::from(state.adventurer.action_count);
                let indexed = page.last_action_count.unwrap_or(0);
                (chain > indexed).then(|| ActionLag {
                    adventurer_id: id,
                    indexed_action_count: indexed,
                    chain_action_count: chain,
                    actions_behind: chain - indexed,
                })
            }
            Err(e) => {
                warnings.push(format!(
                    "could not compare with the chain: {}",
                    from_chain(e).message
                ));
                None
            }
        };
        indexer.behind = lag.is_some();
        let next_cursor = page.next.map(|n| {
            PageCursor::Events {
                id,
                action: n.action_count,
                skip: n.skip,
            }
            .encode()
        });
        Ok(Json(GameEventsResult {
            ok: true,
            schema_version: SCHEMA_VERSION.into(),
            chain: self.opts.chain.clone(),
            adventurer_id: id,
            events: page.events,
            limit,
            total: page.total,
            next_cursor,
            indexer,
            lag,
            warnings,
        }))
    }
}

impl LsServer {
    /// The chain's own index, used when no Torii is configured.
    fn own_index(&self) -> Option<&crate::chain::sim::SimChain> {
        match self.indexer.torii {
            Some(_) => None,
            None => self.backend.own_index(),
        }
    }

    fn torii(&self) -> Result<&ToriiClient, ToolError> {
        self.indexer
            .torii
            .as_deref()
            .ok_or_else(|| indexer_error(&ToriiError::NotConfigured))
    }

    pub(super) fn wallet(&self) -> Result<Felt, ToolError> {
        self.indexer.wallet.ok_or_else(|| {
            ToolError::validation("this server has no wallet address; give an owner")
                .with_detail("field", "owner")
        })
    }

    /// One page of the owner's games from Torii, completed with the games this server knows that
    /// Torii has not indexed yet and corrected where the chain is ahead.
    async fn list_from_torii(
        &self,
        torii: &ToriiClient,
        owner: Felt,
        before: Option<u64>,
        limit: u32,
    ) -> Result<AdventurerListResult, ToriiError> {
        let page = torii.owner_games(owner, before, limit).await?;
        let ids: Vec<u64> = page.games.iter().map(|g| g.adventurer_id).collect();
        self.indexer.listed.remember(ids.iter().copied());
        let mut warnings = Vec::new();
        let packed = match torii.packed_adventurers(&ids).await {
            Ok(p) => {
                warnings.extend(p.warnings);
                p.by_id
            }
            Err(e) => {
                warnings.push(format!("adventurer states unavailable: {e}"));
                BTreeMap::new()
            }
        };
        let mut rows: BTreeMap<u64, AdventurerSummary> = page
            .games
            .iter()
            .map(|g| {
                (
                    g.adventurer_id,
                    torii_summary(g, packed.get(&g.adventurer_id)),
                )
            })
            .collect();
        // The id range this page covers: known ids in it that Torii lacks are added from the chain.
        let lower = if page.has_more {
            ids.iter().min().copied().unwrap_or(0)
        } else {
            0
        };
        let mut lag = Vec::new();
        let mut from_chain_rows = 0;
        for id in self
            .indexer
            .played
            .newest_first(before)
            .into_iter()
            .take(MAX_CHAIN_SCAN)
        {
            if id < lower {
                break;
            }
            let listed = rows.get(&id);
            if listed.is_none() && !self.owned_by(id, owner).await {
                continue;
            }
            let Ok(state) = self.backend.state(id).await else {
                continue;
            };
            let chain_ac = u64::from(state.adventurer.action_count);
            let indexed_ac = listed.and_then(|r| r.action_count).map(u64::from);
            if listed.is_some() && indexed_ac.is_none_or(|i| i >= chain_ac) {
                continue;
            }
            if let Some(i) = indexed_ac {
                lag.push(ActionLag {
                    adventurer_id: id,
                    indexed_action_count: i,
                    chain_action_count: chain_ac,
                    actions_behind: chain_ac - i,
                });
            }
            let name = listed.and_then(|r| r.player_name.clone());
            let mut row = chain_summary(id, &state.adventurer);
            row.player_name = name;
            rows.insert(id, row);
            from_chain_rows += 1;
        }
        let mut adventurers: Vec<AdventurerSummary> = rows.into_values().rev().collect();
        let truncated = adventurers.len() > limit as usize;
        adventurers.truncate(limit as usize);
        let next_cursor = owner_cursor(owner, &adventurers, page.has_more || truncated);
        let source = if from_chain_rows > 0 {
            "torii+chain"
        } else {
            "torii"
        };
        let mut indexer = IndexerInfo::from_torii(source, torii.indexer_head().await);
        indexer.behind = !lag.is_empty() || from_chain_rows > 0;
        Ok(AdventurerListResult {
            ok: true,
            schema_version: SCHEMA_VERSION.into(),
            chain: self.opts.chain.clone(),
            owner: address_string(owner),
            adventurers,
            limit,
            total: page.total,
            next_cursor,
            indexer,
            lag,
            warnings,
        })
    }

    /// One page of the owner's games among the ids this server knows, read from the chain.
    async fn list_from_chain(
        &self,
        owner: Felt,
        before: Option<u64>,
        limit: u32,
    ) -> Result<AdventurerListResult, ToolError> {
        let mut adventurers = Vec::new();
        let mut warnings = Vec::new();
        let mut has_more = false;
        let mut first_error = None;
        for id in self
            .indexer
            .known_newest_first(before)
            .into_iter()
            .take(MAX_CHAIN_SCAN)
        {
            match self.backend.owner(id).await {
                Ok(Some(o)) if o == owner => {}
                Ok(_) => continue,
                Err(e) => {
                    first_error.get_or_insert(e);
                    continue;
                }
            }
            if adventurers.len() == limit as usize {
                has_more = true;
                break;
            }
            match self.backend.state(id).await {
                Ok(state) => adventurers.push(chain_summary(id, &state.adventurer)),
                Err(e) => {
                    warnings.push(format!(
                        "adventurer {id}: {}",
                        from_chain(e.clone()).message
                    ));
                    first_error.get_or_insert(e);
                }
            }
        }
        if let (true, Some(e)) = (adventurers.is_empty(), first_error) {
            return Err(from_chain(e));
        }
        let next_cursor = owner_cursor(owner, &adventurers, has_more);
        Ok(AdventurerListResult {
            ok: true,
            schema_version: SCHEMA_VERSION.into(),
            chain: self.opts.chain.clone(),
            owner: address_string(owner),
            adventurers,
            limit,
            total: None,
            next_cursor,
            indexer: IndexerInfo {
                source: "chain".into(),
                ..IndexerInfo::default()
            },
            lag: Vec::new(),
            warnings,
        })
    }

    async fn owned_by(&self, id: u64, owner: Felt) -> bool {
        matches!(self.backend.owner(id).await, Ok(Some(o)) if o == owner)
    }
}

/// The page size: default 50, capped at 200, at least 1.
pub fn page_limit(limit: Option<u64>) -> Result<u32, ToolError> {
    match limit {
        None => Ok(DEFAULT_LIMIT),
        Some(0) => Err(ToolError::validation("limit must be at least 1")
            .with_detail("field", "limit")
            .with_detail("max", MAX_LIMIT)),
        Some(n) => Ok(n.min(u64::from(MAX_LIMIT)) as u32),
    }
}

pub(super) fn decode_cursor(token: &str) -> Result<PageCursor, ()> {
    PageCursor::decode(token).ok_or(())
}

pub(super) fn bad_cursor() -> ToolError {
    ToolError::validation("cursor is not a next_cursor this tool returned")
        .with_detail("field", "cursor")
        .with_hint(
            "pass next_cursor from the previous page unchanged, or omit cursor to start over",
        )
}

/// Maps a Torii failure that no fallback can cover to `INDEXER_ERROR`.
fn indexer_error(e: &ToriiError) -> ToolError {
    let hint = match e {
        ToriiError::NotConfigured => "set torii.url in the profile or LS_TORII_URL",
        _ if e.is_transient() => "the indexer is down or busy; retry in a moment",
        _ => "the indexer answered something this server cannot read; report it",
    };
    ToolError::new(ErrorCode::IndexerError, e.to_string())
        .retryable(e.is_transient())
        .with_detail("kind", e.kind())
        .with_hint(hint)
}

fn torii_summary(g: &OwnedGame, packed: Option<&Adventurer>) -> AdventurerSummary {
    let xp = packed
        .map(|a| a.xp)
        .unwrap_or_else(|| u16::try_from(g.score).unwrap_or(u16::MAX));
    AdventurerSummary {
        adventurer_id: g.adventurer_id,
        phase: packed.map(phase),
        level: level_from_xp(xp),
        xp,
        health: packed.map(|a| a.health),
        gold: packed.map(|a| a.gold),
        action_count: packed.map(|a| a.action_count),
        player_name: g.player_name.clone(),
        game_over: g.game_over || packed.is_some_and(|a| phase(a) == Phase::Dead),
        source: "torii".into(),
    }
}

/// The cursor of the page after `page` of an owner's games (newest first), when there is one.
pub(super) fn owner_cursor(
    owner: Felt,
    page: &[AdventurerSummary],
    has_more: bool,
) -> Option<String> {
    let last = page.last().filter(|_| has_more)?;
    Some(
        PageCursor::Owner {
            owner: address_string(owner),
            before: last.adventurer_id,
        }
        .encode(),
    )
}

pub(super) fn chain_summary(id: u64, a: &Adventurer) -> AdventurerSummary {
    let p = phase(a);
    AdventurerSummary {
        adventurer_id: id,
        phase: Some(p),
        level: a.level(),
        xp: a.xp,
        health: Some(a.health),
        gold: Some(a.gold),
        action_count: Some(a.action_count),
        player_name: None,
        game_over: p == Phase::Dead,
        source: "chain".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_default_cap_and_floor() {
        assert_eq!(page_limit(None).unwrap(), 50);
        assert_eq!(page_limit(Some(1)).unwrap(), 1);
        assert_eq!(page_limit(Some(200)).unwrap(), 200);
        assert_eq!(page_limit(Some(201)).unwrap(), 200);
        assert_eq!(page_limit(Some(u64::MAX)).unwrap(), 200);
        let e = page_limit(Some(0)).unwrap_err();
        assert_eq!(e.code, ErrorCode::ValidationError);
    }

    #[test]
    fn indexer_errors_say_whether_to_retry() {
        let e = indexer_error(&ToriiError::Timeout(5));
        assert_eq!(e.code, ErrorCode::IndexerError);
        assert!(e.retryable);
        assert_eq!(e.details["kind"], "timeout");
        let e = indexer_error(&ToriiError::Malformed("x".into()));
        assert!(!e.retryable);
        let e = indexer_error(&ToriiError::NotConfigured);
        assert!(!e.retryable);
        assert!(e.hint.unwrap().contains("LS_TORII_URL"));
    }
}
