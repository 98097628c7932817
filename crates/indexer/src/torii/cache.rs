//! A small in-memory cache with a freshness window: entries younger than the TTL are served
//! instead of asking Torii again, and older ones (up to a stale limit) are kept as the fallback
//! when Torii fails.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How many entries are kept; the oldest is evicted beyond that.
const MAX_ENTRIES: usize = 128;

/// A cached value and how old it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Cached<V> {
    /// The value.
    pub value: V,
    /// Time since it was fetched.
    pub age: Duration,
}

/// A TTL cache keyed by query.
#[derive(Debug)]
pub struct TtlCache<K, V> {
    ttl: Duration,
    stale_limit: Duration,
    entries: Mutex<HashMap<K, (Instant, V)>>,
}

impl<K: Eq + Hash + Clone, V: Clone> TtlCache<K, V> {
    /// A cache whose entries are fresh for `ttl` and usable as a fallback for `stale_limit`.
    pub fn new(ttl: Duration, stale_limit: Duration) -> Self {
        Self {
            ttl,
            stale_limit: stale_limit.max(ttl),
            entries: Mutex::new(HashMap::new()),
        }
    }

    /// The value if it is younger than the TTL.
    pub fn fresh(&self, key: &K) -> Option<Cached<V>> {
        self.fresh_at(key, Instant::now())
    }

    /// The value if it is younger than the stale limit (for use when Torii fails).
    pub fn stale(&self, key: &K) -> Option<Cached<V>> {
        self.get_within(key, Instant::now(), self.stale_limit)
    }

    /// Stores a value fetched now.
    pub fn put(&self, key: K, value: V) {
        self.put_at(key, value, Instant::now());
    }

    fn fresh_at(&self, key: &K, now: Instant) -> Option<Cached<V>> {
        if self.ttl.is_zero() {
            return None;
        }
        self.get_within(key, now, self.ttl)
    }

    fn get_within(&self, key: &K, now: Instant, window: Duration) -> Option<Cached<V>> {
        let entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        let (at, v) = entries.get(key)?;
        let age = now.saturating_duration_since(*at);
        (age < window).then(|| Cached {
            value: v.clone(),
            age,
        })
    }

    fn put_at(&self, key: K, value: V, now: Instant) {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        entries.retain(|_, (at, _)| now.saturating_duration_since(*at) < self.stale_limit);
        if entries.len() >= MAX_ENTRIES && !entries.contains_key(&key) {
            let oldest = entries
                .iter()
                .min_by_key(|(_, (at, _))| *at)
                .map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                entries.remove(&k);
            }
        }
        entries.insert(key, (now, value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn fresh_then_stale_then_gone() {
        let c = TtlCache::new(100 * MS, 1000 * MS);
        let t0 = Instant::now();
        c.put_at("k", 1, t0);
        assert_eq!(c.fresh_at(&"k", t0 + 50 * MS).map(|c| c.value), Some(1));
        assert_eq!(c.fresh_at(&"k", t0 + 100 * MS), None);
        let stale = c.get_within(&"k", t0 + 500 * MS, 1000 * MS).unwrap();
        assert_eq!((stale.value, stale.age), (1, 500 * MS));
        assert_eq!(c.get_within(&"k", t0 + 1000 * MS, 1000 * MS), None);
        assert_eq!(c.fresh_at(&"other", t0), None);
    }

    #[test]
    fn zero_ttl_disables_fresh_hits() {
        let c = TtlCache::new(Duration::ZERO, 1000 * MS);
        c.put("k", 1);
        assert_eq!(c.fresh(&"k"), None);
        assert!(c.stale(&"k").is_some());
    }

    #[test]
    fn size_is_bounded() {
        let c = TtlCache::new(1000 * MS, 1000 * MS);
        let t0 = Instant::now();
        for i in 0..(MAX_ENTRIES + 10) {
            c.put_at(i, i, t0 + (i as u32) * MS / 10);
        }
        assert_eq!(c.entries.lock().unwrap().len(), MAX_ENTRIES);
        assert!(c.entries.lock().unwrap().contains_key(&(MAX_ENTRIES + 9)));
        assert!(!c.entries.lock().unwrap().contains_key(&0));
    }
}
