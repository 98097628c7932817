//! The second generation's reads (docs/generations.md#reads): the state is GameCore's
//! `load_assets` with the beast and the market taken from the adventurer's newest `beast` and
//! `market_items` events, read with `starknet_getEvents` on GameCore filtered by the current
//! envelope's keys `[GameEvent, adventurer_id]` (and the earlier envelope's, by block range,
//! where the deployment says when it ended); receipts decode GameCore's events. v2 keeps no
//! action count, so the state's `action_count` is the number of the adventurer's transactions
//! that emitted game events (start included, as v1 counts), which the same events give.

use std::sync::Arc;

use starknet::core::types::{BlockId, BlockTag, EmittedEvent, Event, EventFilter, Felt};
use starknet::macros::selector;
use starknet::providers::Provider;

use super::V2Contracts;
use crate::bindings::v2::game_core;
use crate::generation::reads::ChainReads;
use crate::retry::read_with_retries;
use crate::{BadAnswer, ChainError};
use game::AdventurerId;
use game::events::{GameEvent, GameEventDetails};
use game::model::GameState;
use game::v2::{Assets, GAME_CORE_EVENT_SELECTOR, decode_game_core_event};

/// Events asked for per `starknet_getEvents` page (the most nodes serve in one).
pub(crate) const EVENTS_PAGE: u64 = 1024;

/// Pages read at most for one state: a game's whole history fits in the first on the practice
/// world; a longer one is paged to its end, up to this bound.
const MAX_EVENT_PAGES: usize = 16;

/// Pages of every adventurer's earlier-envelope events read at most for one game (that envelope
/// cannot be filtered by id); what lies beyond is left out, with a warning.
const MAX_LEGACY_PAGES: usize = 64;

/// A v2 deployment's reads through the chain client.
pub(super) struct V2Reads<'a>(pub(super) &'a dyn ChainReads);

impl V2Reads<'_> {
    /// `load_assets`, then the adventurer's events for its newest beast and market: two requests
    /// while its history fits one page of [`EVENTS_PAGE`].
    pub(super) async fn v2_game_state(
        &self,
        c: &V2Contracts,
        adventurer_id: AdventurerId,
    ) -> Result<GameState, ChainError> {
        let call = game_core::load_assets(c.game_core, &adventurer_id.felt());
        let felts = self.0.call(call).await?;
        let assets =
            Assets::from_felts(&felts).map_err(|e| ChainError::Decode(BadAnswer::Assets(e)))?;
        let history = self.history(c, adventurer_id).await?;
        let mut state = GameState {
            adventurer: assets.adventurer,
            bag: assets.bag,
            ..GameState::default()
        };
        // The count of its transactions is the last event's ordinal.
        state.adventurer.action_count = history.last().map_or(0, |e| e.action_count);
        for e in &history {
            match &e.details {
                GameEventDetails::Beast(b) => state.beast = b.to_beast_event(),
                GameEventDetails::MarketItems { items } => {
                    state.market = items.iter().map(|i| i.id).collect();
                }
                _ => {}
            }
        }
        Ok(state)
    }

    /// The adventurer's GameCore events in chain order, each with the ordinal of its transaction
    /// among the adventurer's (1 for `start_game`) as its action count: those of the current
    /// envelope by their keys `[GameEvent, adventurer_id]`, after those of the earlier one (the
    /// id in `data[0]`, not filterable by key) when the deployment names the block that envelope
    /// ended at and the game was minted by then.
    pub(super) async fn history(
        &self,
        c: &V2Contracts,
        adventurer_id: AdventurerId,
    ) -> Result<Vec<GameEvent>, ChainError> {
        let mut raw = Vec::new();
        if let Some(until) = c.legacy_envelope_until {
            raw.extend(
                self.legacy_events(c, adventurer_id, until)
                    .await?
                    .iter()
                    .cloned(),
            );
        }
        let filter = EventFilter {
            from_block: Some(BlockId::Number(0)),
            to_block: Some(BlockId::Tag(BlockTag::PreConfirmed)),
            address: Some(c.game_core),
            keys: Some(vec![
                vec![GAME_CORE_EVENT_SELECTOR],
                vec![adventurer_id.felt()],
            ]),
        };
        let current = self.events(filter, MAX_EVENT_PAGES).await?;
        if current.truncated {
            return Err(ChainError::Decode(BadAnswer::LongHistory {
                adventurer_id,
                pages: MAX_EVENT_PAGES,
            }));
        }
        // Only two-key events: a node may also match shorter keys to the filter (starknet-devnet
        // 0.10.1 returns the earlier envelope's one-key events here).
        raw.extend(current.events.into_iter().filter(|e| e.keys.len() == 2));
        let mut events = Vec::new();
        let (mut actions, mut last_tx) = (0u16, None);
        for e in &raw {
            let Some(details) = newest_detail(e, adventurer_id)? else {
                continue;
            };
            if last_tx != Some(e.transaction_hash) {
                last_tx = Some(e.transaction_hash);
                actions = actions.wrapping_add(1);
            }
            events.push(GameEvent {
                adventurer_id,
                action_count: actions,
                details,
            });
        }
        Ok(events)
    }

    /// The adventurer's events of the earlier envelope, from its mint block to `until`: paged
    /// once, then kept (those blocks are done); empty for a game minted after `until`.
    async fn legacy_events(
        &self,
        c: &V2Contracts,
        adventurer_id: AdventurerId,
        until: u64,
    ) -> Result<Arc<Vec<EmittedEvent>>, ChainError> {
        if let Some(kept) = self.0.kept_events().get(adventurer_id) {
            return Ok(kept);
        }
        let Some(minted) = self.mint_block(c, adventurer_id).await? else {
            // Not minted (yet): nothing to keep.
            return Ok(Arc::default());
        };
        let mut mine = Vec::new();
        if minted <= until {
            let filter = EventFilter {
                from_block: Some(BlockId::Number(minted)),
                to_block: Some(BlockId::Number(until)),
                address: Some(c.game_core),
                keys: Some(vec![vec![GAME_CORE_EVENT_SELECTOR]]),
            };
            let every = self.events(filter, MAX_LEGACY_PAGES).await?;
            if every.truncated {
                tracing::warn!(
                    %adventurer_id,
                    "the earlier envelope's events after {MAX_LEGACY_PAGES} pages were not read"
                );
            }
            // The filter's one key also matches the current envelope's events: those are left to
            // the keyed read; of the rest, this adventurer's.
            mine = every
                .events
                .into_iter()
                .filter(|e| e.keys.len() == 1 && e.data.first() == Some(&adventurer_id.felt()))
                .collect();
        }
        Ok(self.0.kept_events().keep(adventurer_id, mine))
    }

    /// Every event `filter` matches, page after page, up to `max_pages` pages.
    async fn events(&self, filter: EventFilter, max_pages: usize) -> Result<Events, ChainError> {
        let mut events = Vec::new();
        let mut token = None;
        for _ in 0..max_pages {
            let page = read_with_retries(|| {
                self.0
                    .provider()
                    .get_events(filter.clone(), token.clone(), EVENTS_PAGE)
            })
            .await
            .map_err(ChainError::from_provider)?;
            events.extend(page.events);
            token = page.continuation_token;
            if token.is_none() {
                return Ok(Events {
                    events,
                    truncated: false,
                });
            }
        }
        Ok(Events {
            events,
            truncated: true,
        })
    }

    /// The block of the adventurer's mint: Denshokan's ERC721 `Transfer` from 0 keyed by the
    /// token id (`keys = [Transfer, from, to, id.low, id.high]`); `None` if it has none.
    async fn mint_block(
        &self,
        c: &V2Contracts,
        adventurer_id: AdventurerId,
    ) -> Result<Option<u64>, ChainError> {
        let (low, high) = adventurer_id.u256_words();
        let filter = EventFilter {
            from_block: Some(BlockId::Number(0)),
            to_block: Some(BlockId::Tag(BlockTag::PreConfirmed)),
            address: Some(c.denshokan),
            keys: Some(vec![
                vec![selector!("Transfer")],
                vec![Felt::ZERO],
                vec![],
                vec![Felt::from(low)],
                vec![Felt::from(high)],
            ]),
        };
        let page = read_with_retries(|| self.0.provider().get_events(filter.clone(), None, 1))
            .await
            .map_err(ChainError::from_provider)?;
        Ok(page.events.first().and_then(|e| e.block_number))
    }
}

/// What a paged event read found, and whether it stopped at its page bound.
struct Events {
    events: Vec<EmittedEvent>,
    truncated: bool,
}

/// An emitted event's details when it is a GameCore event of this adventurer.
fn newest_detail(
    e: &EmittedEvent,
    adventurer_id: AdventurerId,
) -> Result<Option<GameEventDetails>, ChainError> {
    let decoded = decode_game_core_event(&e.keys, &e.data).map_err(|source| {
        ChainError::Decode(BadAnswer::Event {
            event: "GameEvent",
            source,
        })
    })?;
    Ok(decoded
        .filter(|d| d.adventurer_id == adventurer_id)
        .map(|d| d.details))
}

/// A receipt's game events on a v2 deployment: GameCore's `GameEvent`s in order (in either
/// envelope), each with action count 0 (v2 keeps none: a reader of the receipt alone cannot
/// know it; the state's count comes from the history).
pub(super) fn receipt_events(c: &V2Contracts, raw: &[Event]) -> Result<Vec<GameEvent>, ChainError> {
    let mut events = Vec::new();
    for e in raw.iter().filter(|e| e.from_address == c.game_core) {
        let decoded = decode_game_core_event(&e.keys, &e.data).map_err(|source| {
            ChainError::Decode(BadAnswer::Event {
                event: "game event",
                source,
            })
        })?;
        if let Some(d) = decoded {
            events.push(GameEvent {
                adventurer_id: d.adventurer_id,
                action_count: 0,
                details: d.details,
            });
        }
    }
    Ok(events)
}

#[cfg(test)]
mod tests {
    use super::*;
    use starknet::core::types::Felt;

    #[test]
    fn receipt_events_keep_gamecore_events_of_either_envelope() {
        // GameCore at 0x6a.
        let c = V2Contracts::numbered(None);
        let level_up = |from: u8, keys: Vec<Felt>, data: Vec<Felt>| Event {
            from_address: Felt::from(from),
            keys,
            data,
        };
        let id = Felt::from(0x1234_u16);
        let raw = vec![
            level_up(
                0x6a,
                vec![GAME_CORE_EVENT_SELECTOR, id],
                vec![Felt::from(11u8), Felt::from(3u8)],
            ),
            level_up(
                0x6b,
                vec![GAME_CORE_EVENT_SELECTOR, id],
                vec![Felt::from(11u8), Felt::from(4u8)],
            ),
            level_up(
                0x6a,
                vec![GAME_CORE_EVENT_SELECTOR],
                vec![id, Felt::from(11u8), Felt::from(5u8)],
            ),
        ];
        let events = receipt_events(&c, &raw).unwrap();
        let levels: Vec<_> = events
            .iter()
            .map(|e| (e.adventurer_id, e.action_count, e.details.clone()))
            .collect();
        assert_eq!(
            levels,
            vec![
                (id.into(), 0, GameEventDetails::LevelUp { level: 3 }),
                (id.into(), 0, GameEventDetails::LevelUp { level: 5 }),
            ]
        );
    }
}
