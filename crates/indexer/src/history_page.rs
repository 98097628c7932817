//! Pages of an adventurer's whole history held in order (the sim chain's, or the second
//! generation's read from the chain): the same cursor as Torii's pages, an action count and how
//! many of that action's events were already returned.

use async_trait::async_trait;
use chain::ChainClient;
use game::AdventurerId;
use game::events::GameEvent;

use crate::game_index::{GameEventsSource, IndexError};
use crate::torii::{EventsFrom, EventsPage};

/// The page of `all` (one adventurer's events in chain order) that starts at `from`.
pub(crate) fn events_page(all: Vec<GameEvent>, from: EventsFrom, limit: u32) -> EventsPage {
    // (action count, position among that action's events from 1) of each event, in order.
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
    let last_action_count = positioned.last().map(|(ac, _, _)| *ac);
    let (page, has_more) = page_of(
        positioned.into_iter().filter(|(ac, k, _)| {
            *ac > from.action_count || (*ac == from.action_count && *k > from.skip)
        }),
        limit,
    );
    let next = match page.last() {
        Some((ac, k, _)) if has_more => Some(EventsFrom {
            action_count: *ac,
            skip: *k,
        }),
        _ => None,
    };
    EventsPage {
        events: page.into_iter().map(|(_, _, e)| e).collect(),
        next,
        total: Some(total),
        last_action_count,
        warnings: Vec::new(),
        key_format: None,
    }
}

/// The first `limit` items, and whether more follow.
pub(crate) fn page_of<T>(items: impl Iterator<Item = T>, limit: u32) -> (Vec<T>, bool) {
    let mut page: Vec<T> = items.take(limit as usize + 1).collect();
    let has_more = page.len() > limit as usize;
    page.truncate(limit as usize);
    (page, has_more)
}

/// A second-generation chain's own events answer the history: GameCore's `GameEvent`s of the
/// adventurer, each numbered by its transaction (`ChainReader::game_history`).
#[async_trait]
impl GameEventsSource for ChainClient {
    async fn game_events(
        &self,
        adventurer_id: AdventurerId,
        from: EventsFrom,
        limit: u32,
    ) -> Result<EventsPage, IndexError> {
        let all = self.game_history(adventurer_id).await?;
        if all.is_empty() && self.owner_of(adventurer_id).await?.is_none() {
            return Err(IndexError::NoSuchAdventurer(adventurer_id));
        }
        Ok(events_page(all, from, limit))
    }
}
