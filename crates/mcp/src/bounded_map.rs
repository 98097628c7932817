//! A map of at most `CAP` entries, each stamped with when it was last touched: a new key in a full
//! map evicts the least recently touched entry first. The per-adventurer memories (what results
//! showed, the last known states) use it; hand-rolled because an LRU crate would be more code to
//! wire than this.

use std::collections::HashMap;
use std::hash::Hash;
use std::time::{Duration, Instant};

/// At most `CAP` values by key, each with the instant it was last touched.
#[derive(Debug)]
pub(crate) struct BoundedMap<K, V, const CAP: usize> {
    entries: HashMap<K, (V, Instant)>,
}

impl<K, V, const CAP: usize> Default for BoundedMap<K, V, CAP> {
    fn default() -> Self {
        Self {
            entries: HashMap::new(),
        }
    }
}

impl<K: Copy + Eq + Hash, V, const CAP: usize> BoundedMap<K, V, CAP> {
    /// The value of `key`, touched at `now`.
    pub(crate) fn get_mut(&mut self, key: &K, now: Instant) -> Option<&mut V> {
        self.entries.get_mut(key).map(|(value, at)| {
            *at = now;
            value
        })
    }

    /// The value of `key`, left untouched.
    pub(crate) fn peek(&self, key: &K) -> Option<&V> {
        self.entries.get(key).map(|(value, _)| value)
    }

    /// Sets `key`'s value, touched at `now`.
    pub(crate) fn insert(&mut self, key: K, value: V, now: Instant) {
        self.make_room_for(&key);
        self.entries.insert(key, (value, now));
    }

    /// The value of `key`, made by `make` when it has none (inserted as [`Self::insert`] does),
    /// touched at `now`.
    pub(crate) fn get_or_insert_with(
        &mut self,
        key: K,
        now: Instant,
        make: impl FnOnce() -> V,
    ) -> &mut V {
        self.make_room_for(&key);
        let entry = self.entries.entry(key).or_insert_with(|| (make(), now));
        entry.1 = now;
        &mut entry.0
    }

    /// Forgets `key`.
    pub(crate) fn remove(&mut self, key: &K) {
        self.entries.remove(key);
    }

    /// Forgets every entry last touched `idle` or longer before `now`.
    pub(crate) fn forget_idle(&mut self, now: Instant, idle: Duration) {
        self.entries
            .retain(|_, (_, at)| now.saturating_duration_since(*at) < idle);
    }

    /// Number of entries.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Evicts the least recently touched entry when `key` is new and the map is full.
    fn make_room_for(&mut self, key: &K) {
        if !self.entries.contains_key(key)
            && self.entries.len() >= CAP
            && let Some(oldest) = self
                .entries
                .iter()
                .min_by_key(|(_, (_, at))| *at)
                .map(|(k, _)| *k)
        {
            self.entries.remove(&oldest);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(t0: Instant, ms: u64) -> Instant {
        t0 + Duration::from_millis(ms)
    }

    #[test]
    fn a_new_key_in_a_full_map_evicts_the_least_recently_touched() {
        let t0 = Instant::now();
        let mut m = BoundedMap::<u64, &str, 3>::default();
        m.insert(1, "a", at(t0, 1));
        m.insert(2, "b", at(t0, 2));
        m.insert(3, "c", at(t0, 3));
        assert_eq!(m.get_mut(&1, at(t0, 4)), Some(&mut "a"), "1 touched");
        m.insert(4, "d", at(t0, 5));
        assert_eq!(m.len(), 3);
        assert_eq!(m.peek(&2), None, "2 was the least recently touched");
        assert_eq!(
            (m.peek(&1), m.peek(&3), m.peek(&4)),
            (Some(&"a"), Some(&"c"), Some(&"d"))
        );
        m.insert(5, "e", at(t0, 6));
        assert_eq!(m.peek(&3), None, "then 3");
    }

    #[test]
    fn a_known_key_replaces_its_value_without_evicting() {
        let t0 = Instant::now();
        let mut m = BoundedMap::<u64, u32, 2>::default();
        m.insert(1, 10, at(t0, 1));
        m.insert(2, 20, at(t0, 2));
        m.insert(1, 11, at(t0, 3));
        *m.get_or_insert_with(2, at(t0, 4), || 0) += 1;
        assert_eq!((m.peek(&1), m.peek(&2), m.len()), (Some(&11), Some(&21), 2));
        assert_eq!(*m.get_or_insert_with(3, at(t0, 5), || 30), 30);
        assert_eq!(m.peek(&1), None, "1 was touched before 2");
    }

    #[test]
    fn peeking_does_not_touch_and_removed_keys_are_gone() {
        let t0 = Instant::now();
        let mut m = BoundedMap::<u64, u32, 2>::default();
        m.insert(1, 10, at(t0, 1));
        m.insert(2, 20, at(t0, 2));
        assert_eq!(m.peek(&1), Some(&10));
        m.insert(3, 30, at(t0, 3));
        assert_eq!(m.peek(&1), None, "a peek is not a touch");
        m.remove(&2);
        assert_eq!((m.peek(&2), m.len()), (None, 1));
        assert_eq!(m.get_mut(&2, at(t0, 4)), None);
    }

    #[test]
    fn idle_entries_are_forgotten() {
        let t0 = Instant::now();
        let mut m = BoundedMap::<u64, u32, 8>::default();
        m.insert(1, 10, at(t0, 0));
        m.insert(2, 20, at(t0, 500));
        m.forget_idle(at(t0, 1000), Duration::from_millis(501));
        assert_eq!((m.peek(&1), m.peek(&2)), (None, Some(&20)));
        m.forget_idle(at(t0, 1000), Duration::from_millis(500));
        assert_eq!(m.len(), 0, "touched exactly `idle` ago is idle");
    }
}
