//! `ls_list_adventurers`: an owner's games from the index; from Torii, completed and corrected from
//! the chain for games this server played, and read from the chain alone (for the ids this server
//! knows) when Torii is down or no index is there; from an index that pages by offset
//! (Denshokan) as it lists them, cursors carrying the offset.

use game::AdventurerId;
use std::collections::BTreeMap;

use starknet::core::types::Felt;

use crate::error::{SCHEMA_VERSION, ToolError};
use crate::errors::from_chain;
use crate::indexer_types::{
    ActionLag, AdventurerListResult, AdventurerSummary, IndexerInfo, ListAdventurersArgs,
};
use crate::server::LsServer;
use game::felt::parse_felt;
use game::phase::{Phase, phase};
use game::rules::level_from_xp;
use indexer::torii::values::address_string;
use indexer::torii::{OwnedGame, OwnedGamesPage, PageCursor, ToriiError};
use indexer::{GameIndex, IndexError};

use super::common::{
    MAX_CHAIN_SCAN, bad_cursor, chain_summary, decode_cursor, index_error, indexer_error,
    owner_cursor, owner_offset_cursor,
};

impl LsServer {
    /// One page of an owner's games, from wherever can answer.
    pub(crate) async fn list_adventurers(
        &self,
        a: &ListAdventurersArgs,
        limit: u32,
    ) -> Result<AdventurerListResult, ToolError> {
        let arg_owner = a
            .owner
            .as_deref()
            .map(|o| {
                parse_felt(o).map_err(|e| {
                    ToolError::validation(format!("owner: {e}")).with_detail("field", "owner")
                })
            })
            .transpose()?;
        let (owner, from) = match a.cursor.as_deref().map(decode_cursor) {
            Some(Ok(PageCursor::Owner { owner, before })) => {
                (cursor_owner(&owner, arg_owner)?, OwnerFrom::Before(before))
            }
            Some(Ok(PageCursor::OwnerOffset { owner, offset })) => {
                (cursor_owner(&owner, arg_owner)?, OwnerFrom::Offset(offset))
            }
            Some(_) => return Err(bad_cursor()),
            None => match arg_owner {
                Some(o) => (o, OwnerFrom::First),
                None => (self.wallet()?, OwnerFrom::First),
            },
        };
        let before = match from {
            OwnerFrom::Before(b) => Some(b),
            OwnerFrom::First | OwnerFrom::Offset(_) => None,
        };
        let read = match self.game_index() {
            Some(index) => {
                let page = match from {
                    OwnerFrom::Offset(offset) => index.owner_games_at(owner, offset, limit).await,
                    OwnerFrom::First | OwnerFrom::Before(_) => {
                        index.owner_games(owner, before, limit).await
                    }
                };
                Some((index, page))
            }
            None => None,
        };
        let mut out = match read {
            Some((index, Ok(page))) if index.pages_by_offset() => {
                self.list_by_offset(index, page, owner, limit).await
            }
            Some((index, Ok(page))) => {
                self.list_from_index(index, page, owner, before, limit)
                    .await
            }
            Some((_, Err(IndexError::Torii(e)))) => {
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
            Some((_, Err(e))) => return Err(index_error(e)),
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
        Ok(out)
    }

    /// One page of the owner's games from an index that pages by offset (Denshokan), in its order:
    /// the chain is not merged in, since its ids do not say where they fall in that order.
    async fn list_by_offset(
        &self,
        index: &dyn GameIndex,
        page: OwnedGamesPage,
        owner: Felt,
        limit: u32,
    ) -> AdventurerListResult {
        let adventurers = page
            .games
            .iter()
            .map(|g| index_summary(g, index.name()))
            .collect();
        let next_cursor = owner_offset_cursor(owner, page.next_offset);
        let indexer = IndexerInfo::from_index(index.name(), index.head().await);
        AdventurerListResult {
            total: page.total,
            warnings: page.warnings,
            ..self.owner_page(owner, adventurers, limit, next_cursor, indexer)
        }
    }

    /// One page of the owner's games from the index; an index that follows the chain (Torii) is
    /// completed with the games this server knows that it has not indexed yet and corrected where
    /// the chain is ahead.
    async fn list_from_index(
        &self,
        index: &dyn GameIndex,
        page: OwnedGamesPage,
        owner: Felt,
        before: Option<AdventurerId>,
        limit: u32,
    ) -> AdventurerListResult {
        let ids: Vec<AdventurerId> = page.games.iter().map(|g| g.adventurer_id).collect();
        let follows = index.follows_chain();
        // A chain's own index lists the chain's rows.
        let row_source = if follows { index.name() } else { "chain" };
        let mut rows: BTreeMap<AdventurerId, AdventurerSummary> = page
            .games
            .iter()
            .map(|g| (g.adventurer_id, index_summary(g, row_source)))
            .collect();
        let (lag, from_chain_rows) = if follows {
            self.indexer.listed.remember(ids.iter().copied());
            // The id range this page covers: known ids in it that the index lacks are added.
            let lower = if page.has_more {
                ids.iter().min().copied().unwrap_or_default()
            } else {
                AdventurerId::default()
            };
            self.complete_from_chain(&mut rows, owner, before, lower)
                .await
        } else {
            (Vec::new(), 0)
        };
        let mut adventurers: Vec<AdventurerSummary> = rows.into_values().rev().collect();
        let truncated = adventurers.len() > limit as usize;
        adventurers.truncate(limit as usize);
        let next_cursor = owner_cursor(owner, &adventurers, page.has_more || truncated);
        let source = if from_chain_rows > 0 {
            format!("{}+chain", index.name())
        } else {
            index.name().to_string()
        };
        let mut indexer = IndexerInfo::from_index(&source, index.head().await);
        indexer.behind = !lag.is_empty() || from_chain_rows > 0;
        AdventurerListResult {
            total: page.total,
            lag,
            warnings: page.warnings,
            ..self.owner_page(owner, adventurers, limit, next_cursor, indexer)
        }
    }

    /// Adds to `rows` the games this server played in `lower..before` that the index lacks or
    /// holds at an older action, read from the chain; returns the lag found and how many rows
    /// came from the chain.
    async fn complete_from_chain(
        &self,
        rows: &mut BTreeMap<AdventurerId, AdventurerSummary>,
        owner: Felt,
        before: Option<AdventurerId>,
        lower: AdventurerId,
    ) -> (Vec<ActionLag>, usize) {
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
        (lag, from_chain_rows)
    }

    /// One page of the owner's games among the ids this server knows, read from the chain.
    async fn list_from_chain(
        &self,
        owner: Felt,
        before: Option<AdventurerId>,
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
        let indexer = IndexerInfo {
            source: "chain".into(),
            ..IndexerInfo::default()
        };
        Ok(AdventurerListResult {
            warnings,
            ..self.owner_page(owner, adventurers, limit, next_cursor, indexer)
        })
    }

    /// A page of an owner's games, with no total, lag or warning yet.
    fn owner_page(
        &self,
        owner: Felt,
        adventurers: Vec<AdventurerSummary>,
        limit: u32,
        next_cursor: Option<String>,
        indexer: IndexerInfo,
    ) -> AdventurerListResult {
        AdventurerListResult {
            ok: true,
            schema_version: SCHEMA_VERSION.into(),
            chain: self.opts.chain.clone(),
            owner: address_string(owner),
            adventurers,
            limit,
            total: None,
            next_cursor,
            indexer,
            lag: Vec::new(),
            warnings: Vec::new(),
        }
    }

    async fn owned_by(&self, id: AdventurerId, owner: Felt) -> bool {
        matches!(self.backend.owner(id).await, Ok(Some(o)) if o == owner)
    }
}

/// Where a page of an owner's games starts, as the cursor says.
#[derive(Clone, Copy)]
enum OwnerFrom {
    /// The newest games.
    First,
    /// Ids below this one (Torii, the sim, the chain).
    Before(AdventurerId),
    /// After this many rows (an offset-paged index).
    Offset(u64),
}

/// The owner a cursor names, refused when the arguments name another.
fn cursor_owner(owner: &str, arg_owner: Option<Felt>) -> Result<Felt, ToolError> {
    let owner = parse_felt(owner).map_err(|_| bad_cursor())?;
    if arg_owner.is_some_and(|o| o != owner) {
        return Err(ToolError::validation("the cursor belongs to another owner")
            .with_hint("omit owner when passing a cursor"));
    }
    Ok(owner)
}

/// One game as the index lists it, its numbers from its adventurer where the index holds it.
fn index_summary(g: &OwnedGame, source: &str) -> AdventurerSummary {
    let packed = g.adventurer.as_ref();
    let xp = packed
        .map(|a| a.xp)
        .unwrap_or_else(|| u16::try_from(g.score).unwrap_or(u16::MAX));
    AdventurerSummary {
        adventurer_id: g.adventurer_id,
        token: game::token_fields::TokenInfo::of(g.adventurer_id),
        phase: packed.map(phase),
        level: level_from_xp(xp),
        xp,
        health: packed.map(|a| a.health),
        gold: packed.map(|a| a.gold),
        action_count: packed.map(|a| a.action_count),
        player_name: g.player_name.clone(),
        game_over: g.game_over || packed.is_some_and(|a| phase(a) == Phase::Dead),
        source: source.into(),
    }
}
