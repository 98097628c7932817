//! The leaderboard: ranked with SQL over the game-token models (score, owner, player name and the
//! game filter live in different models, which only SQL can join, as the official client does),
//! then each row's health read from the game's packed adventurer model over GraphQL. Pages are
//! cached for a short TTL, and a recent page is served (flagged) when Torii fails.

use game::AdventurerId;
use std::time::Duration;

use schemars::JsonSchema;
use serde::Serialize;
use starknet_types_core::felt::Felt;

use super::client::sql_template;
use super::values::{self, pad_felt};
use super::{ToriiClient, ToriiError};
use crate::IndexError;
use game::rules::level_from_xp;

const LEADERBOARD_SQL: &str = include_str!("queries/leaderboard.sql");

/// Which games a leaderboard ranks.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, serde::Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// Only games minted by the profile's dungeon, as the official leaderboard counts them.
    Dungeon,
    /// Every game token of the game contract, whoever minted it.
    #[default]
    All,
}

impl Scope {
    /// The name agents pass and see.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Dungeon => "dungeon",
            Self::All => "all",
        }
    }
}

/// One leaderboard request.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LeaderboardQuery {
    /// Which games are ranked.
    pub scope: Scope,
    /// Last rank already returned (0 for the first page).
    pub after_rank: u64,
    /// Rows wanted.
    pub limit: u32,
    /// Only games that are not over.
    pub live_only: bool,
    /// Only this owner's games.
    pub owner: Option<Felt>,
}

/// One ranked game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct LeaderboardRow {
    /// Rank among all games of this deployment (1 = best), whatever the filters.
    pub rank: u64,
    /// Adventurer (game token) id.
    pub adventurer_id: AdventurerId,
    /// Player name given at mint, when set.
    pub player_name: Option<String>,
    /// Score: the adventurer's xp.
    pub score: u64,
    /// Level derived from the xp.
    pub level: u8,
    /// Current health from the indexed adventurer (null when Torii has no adventurer state).
    pub health: Option<u16>,
    /// Owner address of the game token (0x hex), when indexed.
    pub owner: Option<String>,
    /// Whether the game is over (the adventurer died).
    pub game_over: bool,
}

/// One page of the leaderboard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaderboardPage {
    /// The rows, best first.
    pub rows: Vec<LeaderboardRow>,
    /// Rows matching the filters in all pages.
    pub total: Option<u64>,
    /// Whether more rows follow.
    pub has_more: bool,
    /// What could not be read (e.g. health when the GraphQL lookup failed).
    pub warnings: Vec<String>,
    /// Where the next page starts, for an index that pages by offset (Denshokan); `None` for
    /// one that pages by rank, and on the last page.
    pub next_offset: Option<u64>,
}

/// A page and where it came from; `E` is why a cached copy is served (the index's error:
/// [`IndexError`] through [`GameIndex`](crate::GameIndex), [`ToriiError`] from Torii's client).
#[derive(Debug, Clone)]
pub struct LeaderboardFetch<E = IndexError> {
    /// The page.
    pub page: LeaderboardPage,
    /// Age of the page when it came from the cache.
    pub cache_age: Option<Duration>,
    /// Set when the index failed and an older cached page is served instead.
    pub stale_because: Option<E>,
}

impl From<LeaderboardFetch<ToriiError>> for LeaderboardFetch {
    fn from(f: LeaderboardFetch<ToriiError>) -> Self {
        Self {
            page: f.page,
            cache_age: f.cache_age,
            stale_because: f.stale_because.map(IndexError::Torii),
        }
    }
}

impl ToriiClient {
    /// A leaderboard page: from the cache when fresh, else from Torii, else (Torii failing) a
    /// cached page up to a few minutes old, else the error.
    pub async fn leaderboard(
        &self,
        q: &LeaderboardQuery,
    ) -> Result<LeaderboardFetch<ToriiError>, ToriiError> {
        if let Some(c) = self.leaderboard_cache.fresh(q) {
            return Ok(LeaderboardFetch {
                page: c.value,
                cache_age: Some(c.age),
                stale_because: None,
            });
        }
        match self.fetch_leaderboard(q).await {
            Ok((page, complete)) => {
                if complete {
                    self.leaderboard_cache.put(q.clone(), page.clone());
                }
                Ok(LeaderboardFetch {
                    page,
                    cache_age: None,
                    stale_because: None,
                })
            }
            Err(e) => match self.leaderboard_cache.stale(q) {
                Some(c) => Ok(LeaderboardFetch {
                    page: c.value,
                    cache_age: Some(c.age),
                    stale_because: Some(e),
                }),
                None => Err(e),
            },
        }
    }

    /// The page, and whether every part of it could be read (only complete pages are cached).
    async fn fetch_leaderboard(
        &self,
        q: &LeaderboardQuery,
    ) -> Result<(LeaderboardPage, bool), ToriiError> {
        let mut filter = String::new();
        if q.live_only {
            filter.push_str("AND COALESCE(game_over, 0) = 0 ");
        }
        if let Some(owner) = q.owner {
            filter.push_str(&format!("AND owner_key = '{}' ", pad_felt(owner)));
        }
        let scope = match (q.scope, self.dungeon) {
            (Scope::All, _) => String::new(),
            (Scope::Dungeon, Some(d)) => format!(
                "AND {} = '{}'",
                values::num_key("mr.minter_address"),
                pad_felt(d)
            ),
            (Scope::Dungeon, None) => {
                return Err(ToriiError::Unsupported(
                    "the dungeon scope needs the profile's dungeon address".into(),
                ));
            }
        };
        let query = sql_template(LEADERBOARD_SQL)
            .replace("__TOK__", &self.token_namespace)
            .replace("__GAME__", &pad_felt(self.game_address))
            .replace("__SCOPE__", &scope)
            .replace("__FILTER__", filter.trim_end())
            .replace("__AFTER__", &q.after_rank.to_string())
            .replace("__LIMIT__", &(u64::from(q.limit) + 1).to_string());
        let rows = self.sql(&query).await?;
        let total = rows
            .first()
            .and_then(|r| r.get("total"))
            .and_then(values::u64_of);
        let mut out =
            rows.iter()
                .map(|r| {
                    let rank = r.get("rank").and_then(values::u64_of).ok_or_else(|| {
                        ToriiError::Malformed("leaderboard row has no rank".into())
                    })?;
                    let adventurer_id =
                        r.get("token_id").and_then(values::u64_of).ok_or_else(|| {
                            ToriiError::Malformed("leaderboard row has no valid token_id".into())
                        })?;
                    let score = r.get("score").and_then(values::u64_of).unwrap_or(0);
                    Ok(LeaderboardRow {
                        rank,
                        adventurer_id: adventurer_id.into(),
                        player_name: r.get("player_name").and_then(values::short_string),
                        score,
                        level: level_from_xp(u16::try_from(score).unwrap_or(u16::MAX)),
                        health: None,
                        owner: r
                            .get("owner")
                            .and_then(values::felt)
                            .map(values::address_string),
                        game_over: r
                            .get("game_over")
                            .and_then(values::bool_of)
                            .unwrap_or(false),
                    })
                })
                .collect::<Result<Vec<_>, ToriiError>>()?;
        if out.windows(2).any(|w| w[1].rank <= w[0].rank) {
            return Err(ToriiError::Malformed(
                "leaderboard rows are not in rank order".into(),
            ));
        }
        let has_more = out.len() > q.limit as usize;
        out.truncate(q.limit as usize);
        let mut warnings = Vec::new();
        let ids: Vec<u64> = out
            .iter()
            .filter_map(|r| r.adventurer_id.to_u64())
            .collect();
        let complete = match self.packed_adventurers(&ids).await {
            Ok(packed) => {
                for row in &mut out {
                    row.health = row
                        .adventurer_id
                        .to_u64()
                        .and_then(|id| packed.by_id.get(&id))
                        .map(|a| a.health);
                }
                warnings.extend(packed.warnings);
                true
            }
            Err(e) => {
                warnings.push(format!("health unavailable: {e}"));
                false
            }
        };
        let page = LeaderboardPage {
            rows: out,
            total,
            has_more,
            warnings,
            next_offset: None,
        };
        Ok((page, complete))
    }
}
