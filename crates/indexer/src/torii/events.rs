//! An adventurer's game-event history, from Torii's historical event-message table (SQL: the
//! GraphQL model root only holds the latest event per adventurer), decoded into the same
//! [`GameEvent`] values the write tools return.
//!
//! Row formats (dojoengine/torii, cited per fact):
//! - `keys`: the event's key felts joined and ended by `/`, unpadded up to v1.7.3 and `0x` with
//!   64 digits from v1.7.4 (crates/sqlite/sqlite/src/utils.rs `felts_to_sql_string`; the digit
//!   count is that of `{:#064x}` under starknet-types-core 0.2.0, see [`values::felt_forms`]);
//! - `model_id`: the Dojo selector in the same forms, and `<world>:<selector>` from v1.8.0
//!   (crates/sqlite/sqlite/src/executor/mod.rs, event-message branch, with
//!   crates/storage/src/utils.rs `format_world_scoped_id`, `{:#064x}:{:#064x}`);
//! - `event_id`: block, transaction hash, emitter, index in the receipt (crates/storage/src/utils.rs
//!   `format_event_id`): the block `{:#064x}` as a u64 (62 digits), the index `{:#04x}`;
//! - `data`: the event as `Ty::to_json_value` (crates/sqlite/sqlite/src/executor/mod.rs): enums
//!   `{"Variant": payload}`, unit payloads `[]`, u64 as decimal strings, small integers as
//!   numbers (dojoengine/dojo crates/dojo/types/src/schema.rs).
//!
//! Every form is matched, bare or scoped by world, so Torii 1.5–1.7.3 and 1.7.4–1.8.16 answer
//! alike; a key in any other form is reported as `Unsupported` instead of an empty history.

use game::AdventurerId;
use serde_json::Value;
use starknet_types_core::felt::Felt;

use super::client::sql_template;
use super::event_json::decode_event;
use super::namespace::dojo_selector;
use super::values;
use super::{ToriiClient, ToriiError};
use game::events::GameEvent;

const EVENTS_SQL: &str = include_str!("queries/game_events.sql");
const PROBE_SQL: &str = include_str!("queries/game_event_probe.sql");

/// How the Torii that answered writes entity keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyFormat {
    /// Unpadded hex: Torii up to v1.7.3.
    Unpadded,
    /// Zero-padded hex: Torii v1.7.4 and later.
    Padded,
}

impl KeyFormat {
    /// Reads the format of one `keys` value; `None` when it is not `0x` hex ended by `/`.
    pub fn of(keys: &str) -> Option<Self> {
        let first = keys.strip_suffix('/')?.split('/').next()?;
        let hex = first.strip_prefix("0x")?;
        if hex.is_empty() || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        Some(
            if (hex.len() > 1 && hex.starts_with('0')) || hex.len() >= 62 {
                Self::Padded
            } else {
                Self::Unpadded
            },
        )
    }
}

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
    /// Events the index holds for the adventurer.
    pub total: Option<u64>,
    /// The highest action count the index holds for the adventurer.
    pub last_action_count: Option<u64>,
    /// Rows that could not be decoded (skipped).
    pub warnings: Vec<String>,
    /// The key format of the rows read, when any were.
    pub key_format: Option<KeyFormat>,
}

impl ToriiClient {
    /// A page of the adventurer's events in chain order.
    pub async fn game_events(
        &self,
        adventurer_id: AdventurerId,
        from: EventsFrom,
        limit: u32,
    ) -> Result<EventsPage, ToriiError> {
        let keys = values::sql_forms(Felt::from(adventurer_id), "/");
        let query = self
            .game_event_filter(EVENTS_SQL)
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
        let key_format = match first.and_then(|r| r.get("keys")).and_then(Value::as_str) {
            Some(k) => Some(KeyFormat::of(k).ok_or_else(|| unsupported_keys(k))?),
            None if from == EventsFrom::default() => self.probe_key_format().await?,
            None => None,
        };
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
            key_format,
        })
    }

    /// A GameEvent query template with the model filter filled in: the selector of
    /// `<namespace>-GameEvent` in each form Torii has written it.
    fn game_event_filter(&self, template: &str) -> String {
        let selector = dojo_selector(&self.namespace, "GameEvent");
        sql_template(template).replace("__MODEL_IDS__", &values::sql_forms(selector, ""))
    }

    /// The key format of any GameEvent row Torii holds (`None` when it holds none), so an empty
    /// answer caused by a key format this server does not know becomes an error, not an empty
    /// history.
    async fn probe_key_format(&self) -> Result<Option<KeyFormat>, ToriiError> {
        let rows = self.sql(&self.game_event_filter(PROBE_SQL)).await?;
        match rows
            .first()
            .and_then(|r| r.get("keys"))
            .and_then(Value::as_str)
        {
            Some(k) => KeyFormat::of(k)
                .map(Some)
                .ok_or_else(|| unsupported_keys(k)),
            None => Ok(None),
        }
    }
}

fn unsupported_keys(keys: &str) -> ToriiError {
    let sample: String = keys.chars().take(80).collect();
    ToriiError::Unsupported(format!(
        "event keys are written as `{sample}`, a form this server does not match; \
         it reads Torii 1.5 to 1.8 (keys as 0x hex, padded from v1.7.4); use Torii >= 1.7.5"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_formats_of_each_torii_version() {
        assert_eq!(KeyFormat::of("0x1ef/"), Some(KeyFormat::Unpadded));
        let padded = format!("{:#064x}/", Felt::from(0x1efu32));
        assert_eq!(KeyFormat::of(&padded), Some(KeyFormat::Padded));
        assert_eq!(
            KeyFormat::of("0x0000000000000000000000000000000000000000000000000000000000001ef/"),
            Some(KeyFormat::Padded)
        );
        assert_eq!(KeyFormat::of("495/"), None);
        assert_eq!(KeyFormat::of("0x1ef"), None);
        assert_eq!(KeyFormat::of("0x/"), None);
    }
}
