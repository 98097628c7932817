//! `ls_list_adventurers`: an owner's games from Torii, completed and corrected from the chain for
//! games this server played, and read from the chain alone (for the ids this server knows) when
//! Torii is down or not configured.

use std::collections::BTreeMap;

use starknet::core::types::Felt;

use crate::error::{SCHEMA_VERSION, ToolError};
use crate::errors::from_chain;
use crate::indexer_types::{
    ActionLag, AdventurerListResult, AdventurerSummary, IndexerInfo, ListAdventurersArgs,
};
use crate::server::LsServer;
use game::felt::parse_felt;
use game::model::Adventurer;
use game::phase::{Phase, phase};
use game::rules::level_from_xp;
use indexer::torii::values::address_string;
use indexer::torii::{OwnedGame, PageCursor, ToriiClient, ToriiError};

use super::common::{
    MAX_CHAIN_SCAN, bad_cursor, chain_summary, decode_cursor, indexer_error, owner_cursor,
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
            return self.sim_adventurers(sim, owner, before, limit);
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
        Ok(out)
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
            total: page.total,
            lag,
            warnings,
            ..self.owner_page(owner, adventurers, limit, next_cursor, indexer)
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

    async fn owned_by(&self, id: u64, owner: Felt) -> bool {
        matches!(self.backend.owner(id).await, Ok(Some(o)) if o == owner)
    }
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
