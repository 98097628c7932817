//! The Denshokan API as a [`GameIndex`] of one game: the leaderboard (`/tokens` by score, the
//! dungeon's scope by its minter address) and an owner's games (`/tokens?owner=`, newest mint
//! first), paged by offset. Ranks mean what Torii's mean: the place among the scope's games
//! whatever the filters, so a filtered page asks `/tokens/:id/rank` for each row. Event histories
//! are not in the API: they come from a [`GameEventsSource`] (the chain's events) when one is given.

use std::sync::Arc;

use game::AdventurerId;
use game::rules::level_from_xp;
use starknet_types_core::felt::Felt;

use super::{
    DenshokanClient, DenshokanError, LAG_NOTE, Paging, RankScope, SortBy, SortOrder, Token,
    TokenPage, TokensQuery,
};
use crate::game_index::{GameEventsSource, GameIndex, IndexError};
use crate::torii::values::address_string;
use crate::torii::{
    EventsFrom, EventsPage, LeaderboardFetch, LeaderboardPage, LeaderboardQuery, LeaderboardRow,
    OwnedGame, OwnedGamesPage, Scope,
};

/// Death Mountain's id in the game registry the API indexes.
pub const DEATH_MOUNTAIN_GAME_ID: u32 = 1;
/// Rank requests sent at once for a filtered leaderboard page.
const RANK_BATCH: usize = 8;
/// The index's name, as results report it.
const NAME: &str = "denshokan";

/// The Denshokan API read as the index of one game, the dungeon's games being the official scope.
#[derive(Clone)]
pub struct DenshokanIndex {
    /// `None`: the deployment names no API; the leaderboard and owners' games are refused.
    client: Option<Arc<DenshokanClient>>,
    game_id: u32,
    dungeon: Option<Felt>,
    events: Option<Arc<dyn GameEventsSource>>,
}

impl std::fmt::Debug for DenshokanIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DenshokanIndex")
            .field("game_id", &self.game_id)
            .field("api", &self.client.is_some())
            .field("dungeon", &self.dungeon)
            .field("events", &self.events.is_some())
            .finish_non_exhaustive()
    }
}

impl DenshokanIndex {
    /// The index of game `game_id` ([`DEATH_MOUNTAIN_GAME_ID`]); `dungeon` is the official
    /// dungeon's contract, the `minter_address` of the games the `dungeon` scope ranks.
    pub fn new(client: Arc<DenshokanClient>, game_id: u32, dungeon: Option<Felt>) -> Self {
        Self {
            client: Some(client),
            game_id,
            dungeon,
            events: None,
        }
    }

    /// The index of a deployment no Denshokan API indexes: its leaderboard and owners' games
    /// are [`DenshokanError::NotConfigured`], its histories come from [`Self::with_events`].
    pub fn without_api(game_id: u32, dungeon: Option<Felt>) -> Self {
        Self {
            client: None,
            game_id,
            dungeon,
            events: None,
        }
    }

    /// Whether a Denshokan API answers the leaderboard and owners' games.
    pub fn has_api(&self) -> bool {
        self.client.is_some()
    }

    /// The API's client, or `NotConfigured`.
    fn api(&self) -> Result<&DenshokanClient, IndexError> {
        self.client
            .as_deref()
            .ok_or(IndexError::Denshokan(DenshokanError::NotConfigured))
    }

    /// Answers event histories from `source` (without one they are not served).
    pub fn with_events(mut self, source: Arc<dyn GameEventsSource>) -> Self {
        self.events = Some(source);
        self
    }

    /// The minter a scope filters on: the dungeon's for `dungeon`, none for `all`.
    fn minter(&self, scope: Scope) -> Result<Option<Felt>, IndexError> {
        match (scope, self.dungeon) {
            (Scope::All, _) => Ok(None),
            (Scope::Dungeon, Some(d)) => Ok(Some(d)),
            (Scope::Dungeon, None) => Err(IndexError::NotServed {
                index: NAME,
                what: "the dungeon scope without the dungeon's address",
            }),
        }
    }

    /// Each token's rank in the scope (all its games, finished or not), a few requests at a time.
    async fn ranks(&self, tokens: &[Token], minter: Option<Felt>) -> Result<Vec<u64>, IndexError> {
        let scope = RankScope {
            game_id: Some(self.game_id),
            minter_address: minter,
            game_over: None,
        };
        let api = self.api()?;
        let mut ranks = Vec::with_capacity(tokens.len());
        for batch in tokens.chunks(RANK_BATCH) {
            let asks = batch.iter().map(|t| api.rank(t.token_id, &scope));
            for r in futures_util::future::join_all(asks).await {
                ranks.push(r?.rank);
            }
        }
        Ok(ranks)
    }
}

/// Whether a leaderboard query hides some of the scope's games (its ranks are then asked for).
fn filtered(q: &LeaderboardQuery) -> bool {
    q.live_only || q.owner.is_some()
}

/// One ranked token as a leaderboard row (health is not indexed: null).
fn row(t: &Token, rank: u64) -> LeaderboardRow {
    LeaderboardRow {
        rank,
        adventurer_id: AdventurerId::from(t.token_id),
        player_name: t.player_name.clone(),
        score: t.current_score,
        level: level_from_xp(u16::try_from(t.current_score).unwrap_or(u16::MAX)),
        health: None,
        owner: Some(address_string(t.owner_address)),
        game_over: t.game_over,
    }
}

/// The lag note, and a note that the page is an older copy when the API failed (the leaderboard
/// says that from its `stale_because`).
fn owner_warnings(page: &TokenPage) -> Vec<String> {
    let mut out = vec![LAG_NOTE.to_string()];
    if let Some(e) = &page.stale_because {
        out.push(format!(
            "the Denshokan API is failing ({e}); this page is an older cached copy"
        ));
    }
    out
}

#[async_trait::async_trait]
impl GameIndex for DenshokanIndex {
    fn name(&self) -> &'static str {
        NAME
    }

    fn dungeon(&self) -> Option<Felt> {
        self.dungeon
    }

    /// The minter (`deployment.minter`, or `deployment.dungeon`) whose games the scope ranks.
    fn dungeon_setting(&self) -> &'static str {
        "deployment.minter"
    }

    fn pages_by_offset(&self) -> bool {
        true
    }

    /// The API's WebSocket, filtered to this game, when an API is configured.
    fn change_stream(&self) -> Option<Arc<dyn crate::ChangeStream>> {
        let api = self.client.as_ref()?;
        Some(Arc::new(api.stream(self.game_id)))
    }

    /// The first page, or (unfiltered) the page after a rank: there a rank is an offset.
    async fn leaderboard(&self, q: &LeaderboardQuery) -> Result<LeaderboardFetch, IndexError> {
        match (filtered(q), q.after_rank) {
            (false, after) => self.leaderboard_at(q, after).await,
            (true, 0) => self.leaderboard_at(q, 0).await,
            (true, _) => Err(IndexError::NotServed {
                index: NAME,
                what: "a filtered leaderboard from a rank alone",
            }),
        }
    }

    async fn leaderboard_at(
        &self,
        q: &LeaderboardQuery,
        offset: u64,
    ) -> Result<LeaderboardFetch, IndexError> {
        let minter = self.minter(q.scope)?;
        let query = TokensQuery {
            game_id: Some(self.game_id),
            minter_address: minter,
            owner: q.owner,
            game_over: q.live_only.then_some(false),
            paging: Paging {
                sort_by: Some(SortBy::Score),
                sort_order: Some(SortOrder::Desc),
                limit: Some(q.limit),
                offset,
            },
        };
        let page = self.api()?.tokens(&query).await?;
        let ranks = if filtered(q) {
            self.ranks(&page.tokens, minter).await?
        } else {
            (offset + 1..).take(page.tokens.len()).collect()
        };
        let next_offset = page.next_offset();
        Ok(LeaderboardFetch {
            page: LeaderboardPage {
                rows: page
                    .tokens
                    .iter()
                    .zip(ranks)
                    .map(|(t, r)| row(t, r))
                    .collect(),
                total: Some(page.total),
                has_more: next_offset.is_some(),
                warnings: vec![LAG_NOTE.to_string()],
                next_offset,
            },
            cache_age: page.cache_age,
            stale_because: page.stale_because.map(IndexError::Denshokan),
        })
    }

    /// The first page (a page below an id is Torii's cursor, not this index's).
    async fn owner_games(
        &self,
        owner: Felt,
        before: Option<AdventurerId>,
        limit: u32,
    ) -> Result<OwnedGamesPage, IndexError> {
        match before {
            None => self.owner_games_at(owner, 0, limit).await,
            Some(_) => Err(IndexError::NotServed {
                index: NAME,
                what: "an owner's games below an id",
            }),
        }
    }

    /// The owner's games of this game, whoever minted them, newest mint first.
    async fn owner_games_at(
        &self,
        owner: Felt,
        offset: u64,
        limit: u32,
    ) -> Result<OwnedGamesPage, IndexError> {
        let query = TokensQuery {
            game_id: Some(self.game_id),
            owner: Some(owner),
            paging: Paging {
                sort_by: Some(SortBy::Minted),
                sort_order: Some(SortOrder::Desc),
                limit: Some(limit),
                offset,
            },
            ..TokensQuery::default()
        };
        let page = self.api()?.tokens(&query).await?;
        let next_offset = page.next_offset();
        Ok(OwnedGamesPage {
            games: page
                .tokens
                .iter()
                .map(|t| OwnedGame {
                    adventurer_id: AdventurerId::from(t.token_id),
                    game_over: t.game_over,
                    score: t.current_score,
                    player_name: t.player_name.clone(),
                    adventurer: None,
                })
                .collect(),
            total: Some(page.total),
            has_more: next_offset.is_some(),
            warnings: owner_warnings(&page),
            next_offset,
        })
    }

    /// From the events source when one is given, else not served.
    async fn game_events(
        &self,
        adventurer_id: AdventurerId,
        from: EventsFrom,
        limit: u32,
    ) -> Result<EventsPage, IndexError> {
        match &self.events {
            Some(source) => source.game_events(adventurer_id, from, limit).await,
            None => Err(IndexError::NotServed {
                index: NAME,
                what: "event histories (the second generation's are on the chain)",
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::denshokan::DenshokanOptions;

    /// An index whose client points at a closed port: only answers that need no request work.
    fn index(dungeon: Option<Felt>) -> DenshokanIndex {
        let opts = DenshokanOptions {
            url: "http://127.0.0.1:9".parse().unwrap(),
            ..DenshokanOptions::default()
        };
        let client = Arc::new(DenshokanClient::new(opts).unwrap());
        DenshokanIndex::new(client, DEATH_MOUNTAIN_GAME_ID, dungeon)
    }

    fn query(live_only: bool, owner: Option<Felt>, after_rank: u64) -> LeaderboardQuery {
        LeaderboardQuery {
            scope: Scope::All,
            after_rank,
            limit: 10,
            live_only,
            owner,
        }
    }

    #[test]
    fn a_token_becomes_a_row_with_its_level_and_no_health() {
        let t = Token {
            token_id: Felt::from(7u8) + Felt::TWO.pow(250u32),
            game_id: 1,
            minted_by: 19,
            settings_id: 0,
            minted_at: "2025-10-01T00:00:00.000Z".into(),
            game_over: true,
            completed_at: None,
            owner_address: Felt::from(0xa11ceu32),
            player_name: Some("aragorn".into()),
            current_score: 100,
            last_updated_at: None,
            minter_address: None,
            game_address: None,
            soulbound: false,
        };
        let r = row(&t, 4);
        assert_eq!(r.rank, 4);
        assert_eq!(Felt::from(r.adventurer_id), t.token_id);
        assert_eq!((r.score, r.level, r.health), (100, 10, None));
        assert_eq!(r.owner.as_deref(), Some("0xa11ce"));
        assert!(r.game_over);
        assert_eq!(r.player_name.as_deref(), Some("aragorn"));
    }

    #[test]
    fn only_live_only_and_owner_filter_the_scope() {
        assert!(!filtered(&query(false, None, 0)));
        assert!(filtered(&query(true, None, 0)));
        assert!(filtered(&query(false, Some(Felt::ONE), 0)));
    }

    #[tokio::test]
    async fn what_it_cannot_serve_is_refused_before_any_request() {
        let i = index(None);
        assert_eq!(
            (i.name(), i.pages_by_offset(), i.dungeon()),
            (NAME, true, None)
        );
        let dungeon = LeaderboardQuery {
            scope: Scope::Dungeon,
            ..query(false, None, 0)
        };
        for r in [
            i.leaderboard(&dungeon).await,
            i.leaderboard(&query(true, None, 40)).await,
        ] {
            assert!(matches!(r, Err(IndexError::NotServed { index: NAME, .. })));
        }
        let r = i
            .owner_games(Felt::ONE, Some(AdventurerId::from(9u64)), 5)
            .await;
        assert!(matches!(r, Err(IndexError::NotServed { .. })));
        let r = i
            .game_events(AdventurerId::from(9u64), EventsFrom::default(), 5)
            .await;
        let e = r.unwrap_err();
        assert!(e.to_string().contains("event histories"), "{e}");
        assert_eq!(index(Some(Felt::TWO)).dungeon(), Some(Felt::TWO));
        assert_eq!(i.dungeon_setting(), "deployment.minter");
    }

    /// A source that answers every adventurer with an empty page naming how it was asked.
    struct Echo;

    #[async_trait::async_trait]
    impl GameEventsSource for Echo {
        async fn game_events(
            &self,
            adventurer_id: AdventurerId,
            from: EventsFrom,
            limit: u32,
        ) -> Result<EventsPage, IndexError> {
            Ok(EventsPage {
                events: Vec::new(),
                next: None,
                total: Some(u64::from(limit)),
                last_action_count: Some(from.action_count),
                warnings: vec![adventurer_id.to_string()],
                key_format: None,
            })
        }
    }

    #[tokio::test]
    async fn event_histories_come_from_the_source_given() {
        let i = index(None).with_events(Arc::new(Echo));
        let from = EventsFrom {
            action_count: 4,
            skip: 1,
        };
        let page = i
            .game_events(AdventurerId::from(9u64), from, 25)
            .await
            .unwrap();
        assert_eq!((page.total, page.last_action_count), (Some(25), Some(4)));
        assert_eq!(page.warnings, vec!["9".to_string()]);
    }

    #[tokio::test]
    async fn without_an_api_only_histories_are_served() {
        let i =
            DenshokanIndex::without_api(DEATH_MOUNTAIN_GAME_ID, None).with_events(Arc::new(Echo));
        assert!(!i.has_api() && index(None).has_api());
        let not_configured = |r: Result<_, IndexError>| {
            matches!(r, Err(IndexError::Denshokan(DenshokanError::NotConfigured)))
        };
        assert!(not_configured(
            i.leaderboard(&query(false, None, 0)).await.map(|_| ())
        ));
        assert!(not_configured(
            i.owner_games(Felt::ONE, None, 5).await.map(|_| ())
        ));
        let page = i
            .game_events(AdventurerId::from(9u64), EventsFrom::default(), 3)
            .await
            .unwrap();
        assert_eq!(page.total, Some(3));
    }
}
