//! `ls_get_game_events`: a page of the adventurer's history from the index; an index that
//! follows the chain from outside (Torii) is compared with the adventurer's action count on the
//! chain, so one that is behind says so.

use crate::error::{SCHEMA_VERSION, ToolError};
use crate::errors::from_chain;
use crate::indexer_types::{ActionLag, GameEventsArgs, GameEventsResult, IndexerInfo};
use crate::server::LsServer;
use indexer::torii::{EventsFrom, KeyFormat, PageCursor};

use super::common::{bad_cursor, decode_cursor, index_error};

impl LsServer {
    /// One page of an adventurer's events from the index.
    pub(crate) async fn game_events_page(
        &self,
        a: &GameEventsArgs,
        limit: u32,
    ) -> Result<GameEventsResult, ToolError> {
        let id = a.adventurer_id;
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
        let index = self.index().map_err(|e| {
            e.with_hint("without an indexer, each write tool's result carries that action's events")
        })?;
        let page = index
            .game_events(id, from, limit)
            .await
            .map_err(index_error)?;
        let mut warnings = page.warnings;
        if page.key_format == Some(KeyFormat::Unpadded) {
            warnings.push(
                "this Torii writes unpadded keys (version 1.7.3 or older): read correctly, but \
                 only Torii 1.7.5 and later are supported"
                    .into(),
            );
        }
        let mut indexer = IndexerInfo::from_index(index.name(), index.head().await);
        // The chain's own index is never behind it: only an index following it is compared.
        let chain_state = if index.follows_chain() {
            Some(self.backend.state(id).await)
        } else {
            None
        };
        let lag = match chain_state {
            Some(Ok(state)) => {
                let chain = u64::from(state.adventurer.action_count);
                let indexed = page.last_action_count.unwrap_or(0);
                (chain > indexed).then(|| ActionLag {
                    adventurer_id: id,
                    indexed_action_count: indexed,
                    chain_action_count: chain,
                    actions_behind: chain - indexed,
                })
            }
            Some(Err(e)) => {
                warnings.push(format!(
                    "could not compare with the chain: {}",
                    from_chain(e).message
                ));
                None
            }
            None => None,
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
        Ok(GameEventsResult {
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
        })
    }
}
