//! An adventurer's game-event history, from Torii's historical event-message table (SQL: the
//! GraphQL model root only holds the latest event per adventurer), decoded into the same
//! [`GameEvent`] values the write tools return.

use serde_json::Value;

use super::client::strip_comments;
use super::event_json::decode_event;
use super::values::{self, pad_felt};
use super::{ToriiClient, ToriiError};
use crate::game::events::GameEvent;

const EVENTS_SQL: &str = include_str!("queries/game_events.sql");

/// Where an events page starts: at `action_count`, skipping `skip` events of that action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EventsFrom {
    /// First action count wanted.
    pub action_count: u64,
    /// Events with that action count already returned.
    pub skip: u64,
}

/// One page of events.
#[derive(Debug, Clone, PartialEq)]
pub struct EventsPage {
    /// Decoded events in chain order.
    pub events: Vec<GameEvent>,
    /// Where the next page starts, when more events follow.
    pub next: Option<EventsFrom>,
    /// Events Torii holds for the adventurer.
    pub total: Option<u64>,
    /// The highest action count Torii has indexed for the adventurer.
    pub last_action_count: Option<u64>,
    /// Rows that could not be decoded (skipped).
    pub warnings: Vec<String>,
}

impl ToriiClient {
    /// A page of the adventurer's events in chain order.
    pub async fn game_events(
        &self,
        adventurer_id: u64,
        from: EventsFrom,
        limit: u32,
    ) -> Result<EventsPage, ToriiError> {
        let keys = format!(
            "{}/",
            pad_felt(starknet_types_core::felt::Felt::from(adventurer_id))
        );
        let query = strip_comments(EVENTS_SQL)
            .replace("__KEYS__", &keys)
            .replace("__FROM__", &from.action_count.to_string())
            .replace("__LIMIT__", &(u64::from(limit) + 1).to_string())
            .replace("__SKIP__", &from.skip.to_string());
        let rows = self.sql(&query).await?;
        let first = rows.first();
        let total = first.and_then(|r| r.get("total")).and_then(values::u64_of);
        let last_action_count = first
            .and_then(|r| r.get("last_action_count"))
            .and_then(values::u64_of);
        let has_more = rows.len() > limit as usize;
        let rows = &rows[..rows.len().min(limit as usize)];
        let mut counts = Vec::with_capacity(rows.len());
        for r in rows {
            let ac = r
                .get("action_count")
                .and_then(values::u64_of)
                .ok_or_else(|| ToriiError::Malformed("event row has no action_count".into()))?;
            if counts.last().is_some_and(|&prev| ac < prev) || ac < from.action_count {
                return Err(ToriiError::Malformed(
                    "event rows are not in chain order".into(),
                ));
            }
            counts.push(ac);
        }
        let mut events = Vec::with_capacity(rows.len());
        let mut warnings = Vec::new();
        for (r, ac) in rows.iter().zip(&counts) {
            match decode_event(r.get("data").unwrap_or(&Value::Null)) {
                Ok(e) if e.adventurer_id == adventurer_id => events.push(e),
                Ok(e) => warnings.push(format!(
                    "skipped an event of adventurer {} filed under {adventurer_id}",
                    e.adventurer_id
                )),
                Err(e) => warnings.push(format!("skipped an event of action {ac}: {e}")),
            }
        }
        let next = match counts.last() {
            Some(&last) if has_more => {
                let same = counts.iter().filter(|&&c| c == last).count() as u64;
                let skip = if last == from.action_count {
                    from.skip + same
                } else {
                    same
                };
                Some(EventsFrom {
                    action_count: last,
                    skip,
                })
            }
            _ => None,
        };
        Ok(EventsPage {
            events,
            next,
            total,
            last_action_count,
            warnings,
        })
    }
}
