//! `ls_get_leaderboard`: arguments and cursor reconciled, the scope chosen (the dungeon's games
//! where the index knows one), the page read from the index (from a rank, or from an offset on
//! an index that pages by offset; Torii and Denshokan may serve a recent cached page when they
//! fail) and its freshness reported.

use crate::error::{SCHEMA_VERSION, ToolError};
use crate::indexer_types::{IndexerInfo, LeaderboardArgs, LeaderboardFilters, LeaderboardResult};
use crate::server::LsServer;
use game::felt::parse_felt;
use indexer::torii::values::pad_felt;
use indexer::torii::{LeaderboardQuery, PageCursor};

use super::common::{bad_cursor, cursor_mismatch, decode_cursor, index_error};

impl LsServer {
    /// One leaderboard page from the index.
    pub(crate) async fn leaderboard_page(
        &self,
        a: &LeaderboardArgs,
        limit: u32,
    ) -> Result<LeaderboardResult, ToolError> {
        let (q, offset) = self.leaderboard_query(a, limit)?;
        let index = self.index()?;
        let fetch = match offset {
            Some(offset) => index.leaderboard_at(&q, offset).await,
            None => index.leaderboard(&q).await,
        }
        .map_err(index_error)?;
        let page = fetch.page;
        let next_cursor = match page.rows.last() {
            Some(last) if page.has_more => Some(
                PageCursor::Leaderboard {
                    rank: last.rank,
                    live: q.live_only,
                    owner: q.owner.map(pad_felt),
                    scope: q.scope,
                    offset: page.next_offset,
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
                    index.name()
                };
                IndexerInfo::from_index(source, index.head().await)
            }
        };
        indexer.cache_age_ms = fetch.cache_age.map(|d| d.as_millis() as u64);
        let mut warnings = page.warnings;
        if let Some(e) = &fetch.stale_because {
            warnings.push(format!(
                "{} is failing; this page is an older cached copy",
                e.service()
            ));
        }
        Ok(LeaderboardResult {
            ok: true,
            schema_version: SCHEMA_VERSION.into(),
            chain: self.opts.chain.clone(),
            rows: page.rows,
            limit,
            total: page.total,
            next_cursor,
            filters: LeaderboardFilters {
                live_only: q.live_only,
                mine: q.owner.is_some(),
                scope: q.scope,
            },
            indexer,
            warnings,
        })
    }

    /// The query a leaderboard request stands for: the first page's filters from the arguments,
    /// later pages' from the cursor (arguments that contradict it are refused), and the cursor's
    /// offset when an offset-paged index issued it.
    pub(crate) fn leaderboard_query(
        &self,
        a: &LeaderboardArgs,
        limit: u32,
    ) -> Result<(LeaderboardQuery, Option<u64>), ToolError> {
        match a.cursor.as_deref().map(decode_cursor) {
            Some(Ok(PageCursor::Leaderboard {
                rank,
                live,
                owner,
                scope,
                offset,
            })) => {
                let owner = owner
                    .map(|o| parse_felt(&o))
                    .transpose()
                    .map_err(|_| bad_cursor())?;
                if a.live_only.is_some_and(|l| l != live)
                    || a.mine.is_some_and(|m| m != owner.is_some())
                    || a.scope.is_some_and(|s| s != scope)
                {
                    return Err(cursor_mismatch());
                }
                let q = LeaderboardQuery {
                    scope: self.leaderboard_scope(Some(scope))?,
                    after_rank: rank,
                    limit,
                    live_only: live,
                    owner,
                };
                Ok((q, offset))
            }
            Some(_) => Err(bad_cursor()),
            None => {
                let q = LeaderboardQuery {
                    scope: self.leaderboard_scope(a.scope)?,
                    after_rank: 0,
                    limit,
                    live_only: a.live_only.unwrap_or(false),
                    owner: if a.mine.unwrap_or(false) {
                        Some(self.wallet()?)
                    } else {
                        None
                    },
                };
                Ok((q, None))
            }
        }
    }
}
