//! Which market each adventurer was last shown, so a compact result shows a market once and then
//! only says it is unchanged. Bounded: at most [`CAPACITY`] adventurers, the least recently seen
//! evicted first, and entries idle longer than [`IDLE`] forgotten. Hand-rolled (a map and a
//! timestamp) because an LRU crate would be more code to wire than this.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Adventurers remembered at most.
pub const CAPACITY: usize = 1024;

/// How long an adventurer's last market is remembered without being touched.
pub const IDLE: Duration = Duration::from_secs(3600);

/// Per adventurer: the market last shown and when it was last touched.
#[derive(Debug, Default)]
pub struct MarketMemory {
    shown: Mutex<HashMap<u64, (Vec<u8>, Instant)>>,
}

impl MarketMemory {
    /// Records that `market` is being shown to `adventurer_id`; returns true if that very market
    /// was the last one shown to it (so the caller may leave it out).
    pub fn seen_before(&self, adventurer_id: u64, market: &[u8]) -> bool {
        self.seen_before_at(adventurer_id, market, Instant::now())
    }

    fn seen_before_at(&self, adventurer_id: u64, market: &[u8], now: Instant) -> bool {
        let mut shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
        shown.retain(|_, (_, at)| now.saturating_duration_since(*at) < IDLE);
        let before = shown
            .get(&adventurer_id)
            .is_some_and(|(last, _)| last.as_slice() == market);
        if !shown.contains_key(&adventurer_id)
            && shown.len() >= CAPACITY
            && let Some(oldest) = shown.iter().min_by_key(|(_, (_, at))| *at).map(|(k, _)| *k)
        {
            shown.remove(&oldest);
        }
        shown.insert(adventurer_id, (market.to_vec(), now));
        before
    }

    /// Number of adventurers remembered.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.shown.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_market_is_new_once_and_a_different_one_is_new_again() {
        let m = MarketMemory::default();
        assert!(!m.seen_before(1, &[3, 4]));
        assert!(m.seen_before(1, &[3, 4]));
        assert!(!m.seen_before(2, &[3, 4]), "per adventurer");
        assert!(!m.seen_before(1, &[5]));
        assert!(m.seen_before(1, &[5]));
    }

    #[test]
    fn bounded_and_idle_entries_are_forgotten() {
        let m = MarketMemory::default();
        let t0 = Instant::now();
        for id in 0..(CAPACITY as u64 + 10) {
            m.seen_before_at(id, &[1], t0 + Duration::from_millis(id));
        }
        assert_eq!(m.len(), CAPACITY);
        assert!(
            !m.seen_before_at(0, &[1], t0 + Duration::from_secs(1)),
            "the oldest was evicted"
        );
        assert!(!m.seen_before_at(5000, &[1], t0 + IDLE + Duration::from_secs(5)));
        assert_eq!(m.len(), 1, "idle entries dropped");
    }
}
