//! The embedded sim chain as its own index, read from its games and transaction history in the
//! same shapes and cursors as Torii's answers: the leaderboard ranked by xp (ties by id, as the
//! Torii query ranks), an owner's games newest first, an adventurer's events in chain order. The
//! sim chain has no dungeon, so the leaderboard ranks every game whatever the scope.

use game::AdventurerId;
use starknet_types_core::felt::Felt;

use crate::game_index::{GameIndex, IndexError};
use crate::history_page::{events_page, page_of};
use crate::torii::values::address_string;
use crate::torii::{
    EventsFrom, EventsPage, LeaderboardFetch, LeaderboardPage, LeaderboardQuery, LeaderboardRow,
    OwnedGame, OwnedGamesPage,
};
use game::phase::{Phase, phase};
use sim::{REMEMBERED_TXS, SimChain};

#[async_trait::async_trait]
impl GameIndex for SimChain {
    fn name(&self) -> &'static str {
        "sim"
    }

    fn follows_chain(&self) -> bool {
        false
    }

    async fn leaderboard(&self, q: &LeaderboardQuery) -> Result<LeaderboardFetch, IndexError> {
        let mut games = self.games()?;
        games.sort_by(|x, y| {
            y.adventurer
                .xp
                .cmp(&x.adventurer.xp)
                .then(x.adventurer_id.cmp(&y.adventurer_id))
        });
        // Ranks count every game; the filters then pick rows, as the Torii query does.
        let matching: Vec<LeaderboardRow> = games
            .iter()
            .enumerate()
            .filter(|(_, g)| {
                (!q.live_only || phase(&g.adventurer) != Phase::Dead)
                    && q.owner.is_none_or(|o| o == g.owner)
            })
            .map(|(i, g)| LeaderboardRow {
                rank: i as u64 + 1,
                adventurer_id: g.adventurer_id.into(),
                player_name: None,
                score: u64::from(g.adventurer.xp),
                level: g.adventurer.level(),
                health: Some(g.adventurer.health),
                owner: Some(address_string(g.owner)),
                game_over: phase(&g.adventurer) == Phase::Dead,
            })
            .collect();
        let total = matching.len() as u64;
        let (rows, has_more) = page_of(
            matching.into_iter().filter(|r| r.rank > q.after_rank),
            q.limit,
        );
        Ok(LeaderboardFetch {
            page: LeaderboardPage {
                rows,
                total: Some(total),
                has_more,
                warnings: Vec::new(),
                next_offset: None,
            },
            cache_age: None,
            stale_because: None,
        })
    }

    async fn owner_games(
        &self,
        owner: Felt,
        before: Option<AdventurerId>,
        limit: u32,
    ) -> Result<OwnedGamesPage, IndexError> {
        let owned: Vec<_> = self
            .games()?
            .into_iter()
            .filter(|g| g.owner == owner)
            .collect();
        let total = owned.len() as u64;
        let (games, has_more) = page_of(
            owned
                .into_iter()
                .rev()
                .filter(|g| before.is_none_or(|b| AdventurerId::from(g.adventurer_id) < b))
                .map(|g| OwnedGame {
                    adventurer_id: g.adventurer_id.into(),
                    game_over: phase(&g.adventurer) == Phase::Dead,
                    score: u64::from(g.adventurer.xp),
                    player_name: None,
                    adventurer: Some(g.adventurer),
                }),
            limit,
        );
        Ok(OwnedGamesPage {
            games,
            total: Some(total),
            has_more,
            warnings: Vec::new(),
            next_offset: None,
        })
    }

    async fn game_events(
        &self,
        adventurer_id: AdventurerId,
        from: EventsFrom,
        limit: u32,
    ) -> Result<EventsPage, IndexError> {
        let missing = IndexError::NoSuchAdventurer(adventurer_id);
        let id = adventurer_id.to_u64().ok_or(missing.clone())?;
        let (all, pruned) = SimChain::game_events(self, id)?.ok_or(missing)?;
        let mut page = events_page(all, from, limit);
        if pruned {
            page.warnings.push(format!(
                "the sim chain keeps its last {REMEMBERED_TXS} transactions; this adventurer's earliest events are gone"
            ));
        }
        Ok(page)
    }
}

#[cfg(test)]
mod tests;
