//! Adventurer ids this server already knows (games it played, games Torii listed before), so
//! `ls_list_adventurers` can still answer from the chain when Torii is down or behind.

use std::collections::BTreeSet;
use std::sync::Mutex;

use game::AdventurerId;

/// At most this many ids are remembered; the smallest (oldest) go first.
const MAX_KNOWN: usize = 10_000;

/// A bounded, thread-safe set of adventurer ids.
#[derive(Debug, Default)]
pub struct KnownIds {
    ids: Mutex<BTreeSet<AdventurerId>>,
}

impl KnownIds {
    /// Remembers ids.
    pub fn remember(&self, ids: impl IntoIterator<Item = AdventurerId>) {
        let mut set = self.ids.lock().unwrap_or_else(|p| p.into_inner());
        set.extend(ids);
        while set.len() > MAX_KNOWN {
            set.pop_first();
        }
    }

    /// Known ids below `before` (all when `None`), newest (highest) first.
    pub fn newest_first(&self, before: Option<AdventurerId>) -> Vec<AdventurerId> {
        let set = self.ids.lock().unwrap_or_else(|p| p.into_inner());
        match before {
            Some(b) => set.range(..b).rev().copied().collect(),
            None => set.iter().rev().copied().collect(),
        }
    }

    /// Whether an id is known.
    pub fn contains(&self, id: AdventurerId) -> bool {
        self.ids
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains(&id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newest_first_below_a_bound() {
        let k = KnownIds::default();
        k.remember([5u64, 1, 9, 5].map(AdventurerId::from));
        assert_eq!(k.newest_first(None), vec![9, 5, 1]);
        assert_eq!(k.newest_first(Some(AdventurerId::from(9u64))), vec![5, 1]);
        assert!(k.contains(AdventurerId::from(9u64)) && !k.contains(AdventurerId::from(2u64)));
    }

    #[test]
    fn bounded() {
        let k = KnownIds::default();
        k.remember((0..(MAX_KNOWN as u64 + 5)).map(AdventurerId::from));
        assert_eq!(k.newest_first(None).len(), MAX_KNOWN);
        assert!(!k.contains(AdventurerId::from(0u64)));
    }
}
