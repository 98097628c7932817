//! The indexer tools' answers on the embedded sim chain, read from its own games and transaction
//! history, in the same shapes as the Torii answers: the leaderboard ranked by xp (ties by id,
//! as the Torii query ranks), an owner's games newest first, an adventurer's events in chain
//! order. Pages use the same cursors. The sim chain mints every game itself, so the leaderboard's
//! scope is `all` (`dungeon` is refused as on any profile without a dungeon).

use starknet::core::types::Felt;

use super::errors::{from_chain, missing_adventurer};
use super::indexer::{bad_cursor, chain_summary, decode_cursor, owner_cursor};
use super::indexer_types::{
    AdventurerListResult, GameEventsArgs, GameEventsResult, IndexerInfo, LeaderboardArgs,
    LeaderboardFilters, LeaderboardResult,
};
use super::server::LsServer;
use crate::error::{SCHEMA_VERSION, ToolError};
use chain::sim::{REMEMBERED_TXS, SimChain};
use game::phase::{Phase, phase};
use indexer::torii::values::{address_string, pad_felt};
use indexer::torii::{LeaderboardRow, PageCursor};

fn sim_info() -> IndexerInfo {
    IndexerInfo {
        source: "sim".into(),
        ..IndexerInfo::default()
    }
}

impl LsServer {
    /// `ls_get_leaderboard` on the sim chain.
    pub(super) fn sim_leaderboard(
        &self,
        sim: &SimChain,
        a: &LeaderboardArgs,
        limit: u32,
    ) -> Result<LeaderboardResult, ToolError> {
        // The sim chain mints every game itself: no dungeon, so scope "dungeon" is refused and
        // the default is "all", as on any profile without a dungeon.
        let q = self.leaderboard_query(a, limit)?;
        let (after_rank, live_only, owner, scope) = (q.after_rank, q.live_only, q.owner, q.scope);
        let mut games = sim.games().map_err(from_chain)?;
        games.sort_by(|x, y| {
            y.adventurer
                .xp
                .cmp(&x.adventurer.xp)
                .then(x.adventurer_id.cmp(&y.adventurer_id))
        });
        let matching: Vec<LeaderboardRow> = games
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let over = phase(&g.adventurer) == Phase::Dead;
                LeaderboardRow {
                    rank: i as u64 + 1,
                    adventurer_id: g.adventurer_id,
                    player_name: None,
                    score: u64::from(g.adventurer.xp),
                    level: g.adventurer.level(),
                    health: Some(g.adventurer.health),
                    owner: Some(address_string(g.owner)),
                    game_over: over,
                }
            })
            .zip(&games)
            .filter(|(row, g)| (!live_only || !row.game_over) && owner.is_none_or(|o| o == g.owner))
            .map(|(row, _)| row)
            .collect();
        let total = matching.len() as u64;
        let mut rows: Vec<LeaderboardRow> = matching
            .into_iter()
            .filter(|r| r.rank > after_rank)
            .take(limit as usize + 1)
            .collect();
        let has_more = rows.len() > limit as usize;
        rows.truncate(limit as usize);
        let next_cursor = match rows.last() {
            Some(last) if has_more => Some(
                PageCursor::Leaderboard {
                    rank: last.rank,
                    live: live_only,
                    owner: owner.map(pad_felt),
                    scope,
                }
                .encode(),
            ),
            _ => None,
        };
        Ok(LeaderboardResult {
            ok: true,
            schema_version: SCHEMA_VERSION.into(),
            chain: self.opts.chain.clone(),
            rows,
            limit,
            total: Some(total),
            next_cursor,
            filters: LeaderboardFilters {
                live_only,
                mine: owner.is_some(),
                scope,
            },
            indexer: sim_info(),
            warnings: Vec::new(),
        })
    }

    /// `ls_list_adventurers` on the sim chain.
    pub(super) fn sim_adventurers(
        &self,
        sim: &SimChain,
        owner: Felt,
        before: Option<u64>,
        limit: u32,
    ) -> Result<AdventurerListResult, ToolError> {
        let owned: Vec<_> = sim
            .games()
            .map_err(from_chain)?
            .into_iter()
            .filter(|g| g.owner == owner)
            .collect();
        let total = owned.len() as u64;
        let mut page: Vec<_> = owned
            .iter()
            .rev()
            .filter(|g| before.is_none_or(|b| g.adventurer_id < b))
            .take(limit as usize + 1)
            .map(|g| chain_summary(g.adventurer_id, &g.adventurer))
            .collect();
        let has_more = page.len() > limit as usize;
        page.truncate(limit as usize);
        let next_cursor = owner_cursor(owner, &page, has_more);
        Ok(AdventurerListResult {
            ok: true,
            schema_version: SCHEMA_VERSION.into(),
            chain: self.opts.chain.clone(),
            owner: address_string(owner),
            adventurers: page,
            limit,
            total: Some(total),
            next_cursor,
            indexer: sim_info(),
            lag: Vec::new(),
            warnings: Vec::new(),
        })
    }

    /// `ls_get_game_events` on the sim chain.
    pub(super) fn sim_game_events(
        &self,
        sim: &SimChain,
        a: &GameEventsArgs,
        limit: u32,
    ) -> Result<GameEventsResult, ToolError> {
        let id = a.adventurer_id;
        let (from_action, skip) = match a.cursor.as_deref().map(decode_cursor) {
            Some(Ok(PageCursor::Events {
                id: cid,
                action,
                skip,
            })) if cid == id => (action, skip),
            Some(Ok(PageCursor::Events { .. })) => {
                return Err(ToolError::validation(
                    "the cursor belongs to another adventurer",
                ));
            }
            Some(_) => return Err(bad_cursor()),
            None => (0, 0),
        };
        let (all, pruned) = sim
            .game_events(id)
            .map_err(from_chain)?
            .ok_or_else(|| missing_adventurer(id))?;
        // (action count, index among that action's events) of each event, in chain order.
        let mut seen_of_action = 0u64;
        let mut last_action = None;
        let positioned: Vec<_> = all
            .into_iter()
            .map(|e| {
                let ac = u64::from(e.action_count);
                if last_action != Some(ac) {
                    last_action = Some(ac);
                    seen_of_action = 0;
                }
                seen_of_action += 1;
                (ac, seen_of_action, e)
            })
            .collect();
        let total = positioned.len() as u64;
        let mut page: Vec<_> = positioned
            .into_iter()
            .filter(|(ac, k, _)| *ac > from_action || (*ac == from_action && *k > skip))
            .take(limit as usize + 1)
            .collect();
        let has_more = page.len() > limit as usize;
        page.truncate(limit as usize);
        let next_cursor = match page.last() {
            Some((ac, k, _)) if has_more => Some(
                PageCursor::Events {
                    id,
                    action: *ac,
                    skip: *k,
                }
                .encode(),
            ),
            _ => None,
        };
        let mut warnings = Vec::new();
        if pruned {
            warnings.push(format!(
                "the sim chain keeps its last {REMEMBERED_TXS} transactions; this adventurer's earliest events are gone"
            ));
        }
        Ok(GameEventsResult {
            ok: true,
            schema_version: SCHEMA_VERSION.into(),
            chain: self.opts.chain.clone(),
            adventurer_id: id,
            events: page.into_iter().map(|(_, _, e)| e).collect(),
            limit,
            total: Some(total),
            next_cursor,
            indexer: sim_info(),
            lag: None,
            warnings,
        })
    }
}
