//! Protection against double sends: one write at a time per adventurer (locks freed when idle),
//! and the results of writes made with `expected_action_count`, kept in the journal so a client
//! retry of an action that already landed gets the earlier result instead of acting twice, even
//! after a restart. A write also notes its intent first, so a retry after a crash between send
//! and receipt finds the transaction of the interrupted attempt.

use game::AdventurerId;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::envelopes::ActionResult;
use chain::journal::Journal;
use chain::ledger::TxRecord;
use game::engine::Action;

type Locks = Arc<Mutex<HashMap<AdventurerId, Arc<tokio::sync::Mutex<()>>>>>;

/// Per-adventurer write locks and the journal's replay results.
#[derive(Debug)]
pub(crate) struct ReplayCache {
    locks: Locks,
    journal: Arc<Journal>,
}

impl Default for ReplayCache {
    fn default() -> Self {
        Self::new(Arc::new(Journal::in_memory()))
    }
}

/// Holds one adventurer's write lock; the lock's entry is freed when nobody holds or awaits it.
pub(crate) struct AdventurerGuard {
    id: AdventurerId,
    guard: Option<tokio::sync::OwnedMutexGuard<()>>,
    locks: Locks,
}

impl Drop for AdventurerGuard {
    fn drop(&mut self) {
        // Under the map lock no one can pick up the entry between the release and the check.
        let mut locks = self.locks.lock().unwrap_or_else(|p| p.into_inner());
        self.guard.take();
        if locks
            .get(&self.id)
            .is_some_and(|l| Arc::strong_count(l) == 1)
        {
            locks.remove(&self.id);
        }
    }
}

/// The journal key of an action. A purchase keeps the `(item, equip)` pair form journals have
/// always stored, so a note written before an upgrade still matches its retry.
fn key(action: &Action) -> String {
    match action {
        Action::BuyItems { potions, items } => {
            let pairs: Vec<(u8, bool)> = items.iter().map(|p| (p.item_id, p.equip)).collect();
            format!("BuyItems {{ potions: {potions}, items: {pairs:?} }}")
        }
        other => format!("{other:?}"),
    }
}

impl ReplayCache {
    /// Replays kept in `journal`.
    pub(crate) fn new(journal: Arc<Journal>) -> Self {
        Self {
            locks: Locks::default(),
            journal,
        }
    }

    /// Serializes writes on one adventurer (a retry waits for the call it repeats).
    pub(crate) async fn lock_adventurer(&self, id: AdventurerId) -> AdventurerGuard {
        let lock = {
            let mut locks = self.locks.lock().unwrap_or_else(|p| p.into_inner());
            locks.entry(id).or_default().clone()
        };
        AdventurerGuard {
            id,
            guard: Some(lock.lock_owned().await),
            locks: self.locks.clone(),
        }
    }

    /// How many adventurers have a write lock entry (held or awaited).
    #[cfg(test)]
    pub(crate) fn lock_entries(&self) -> usize {
        self.locks.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// The result of `action` taken at `action_count`, if this account already did it.
    pub(crate) fn get(
        &self,
        id: AdventurerId,
        action_count: u16,
        action: &Action,
    ) -> Option<ActionResult> {
        let stored = self.journal.replay(id, action_count, &key(action))?;
        serde_json::from_str(&stored)
            .inspect_err(|e| tracing::warn!(%id, "unreadable replay result: {e}"))
            .ok()
    }

    /// Remembers the result of `action` taken at `action_count`.
    pub(crate) fn put(
        &self,
        id: AdventurerId,
        action_count: u16,
        action: &Action,
        result: &ActionResult,
    ) {
        match serde_json::to_string(result) {
            Ok(json) => self
                .journal
                .put_replay(id, action_count, &key(action), &json),
            Err(e) => tracing::error!(%id, "cannot store a replay result: {e}"),
        }
    }

    /// Notes that `action` at `action_count` is about to be sent (the first attempt is kept).
    pub(crate) fn begin(&self, id: AdventurerId, action_count: u16, action: &Action) {
        self.journal.begin_intent(id, action_count, &key(action));
    }

    /// The transaction of an earlier attempt of `action` at `action_count` that may have landed
    /// without its result being stored (the server stopped between send and receipt).
    pub(crate) fn interrupted(
        &self,
        id: AdventurerId,
        action_count: u16,
        action: &Action,
    ) -> Option<TxRecord> {
        let since = self.journal.intent(id, action_count, &key(action))?;
        self.journal.tx_after(id, action.entrypoint(), since)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn idle_write_locks_are_freed() {
        let cache = Arc::new(ReplayCache::default());
        for id in 0..1000 {
            let _g = cache.lock_adventurer(id.into()).await;
            assert_eq!(cache.lock_entries(), 1);
        }
        assert_eq!(cache.lock_entries(), 0, "no lock outlives its writes");

        // A waiter keeps the entry until it is done; the lock still serializes.
        let first = cache.lock_adventurer(AdventurerId::from(7u64)).await;
        let c = cache.clone();
        let waiter = tokio::spawn(async move {
            let _g = c.lock_adventurer(AdventurerId::from(7u64)).await;
            c.lock_entries()
        });
        tokio::task::yield_now().await;
        assert_eq!(cache.lock_entries(), 1);
        drop(first);
        assert_eq!(waiter.await.unwrap(), 1, "the waiter got the same entry");
        assert_eq!(cache.lock_entries(), 0);
    }

    #[test]
    fn replay_results_are_kept_in_the_journal() {
        let journal = Arc::new(Journal::in_memory());
        let cache = ReplayCache::new(journal.clone());
        let explore = Action::Explore { till_beast: false };
        assert!(cache.get(AdventurerId::from(3u64), 1, &explore).is_none());
        journal.put_replay(AdventurerId::from(3u64), 1, &key(&explore), "not json");
        assert!(
            cache.get(AdventurerId::from(3u64), 1, &explore).is_none(),
            "unreadable rows are ignored"
        );
        cache.begin(AdventurerId::from(3u64), 2, &explore);
        assert!(
            cache
                .interrupted(AdventurerId::from(3u64), 2, &explore)
                .is_none(),
            "nothing signed yet"
        );
        assert!(
            cache
                .interrupted(AdventurerId::from(3u64), 3, &explore)
                .is_none()
        );
    }
}
