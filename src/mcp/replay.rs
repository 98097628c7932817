//! Protection against double sends: one write at a time per adventurer, and the results of
//! writes made with `expected_action_count`, so a client retry of an action that already landed
//! gets the earlier result instead of acting twice.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use super::server::ActionResult;
use crate::chain::GameAction;

/// How many earlier results are kept.
const CAPACITY: usize = 512;

type Key = (u64, u16, String);

/// Per-adventurer write locks and recent results keyed by (adventurer, action_count, action).
#[derive(Debug, Default)]
pub struct ReplayCache {
    locks: Mutex<HashMap<u64, Arc<tokio::sync::Mutex<()>>>>,
    results: Mutex<(HashMap<Key, ActionResult>, VecDeque<Key>)>,
}

fn key(id: u64, action_count: u16, action: &GameAction) -> Key {
    (id, action_count, format!("{action:?}"))
}

impl ReplayCache {
    /// Serializes writes on one adventurer (a retry waits for the call it repeats).
    pub async fn lock_adventurer(&self, id: u64) -> tokio::sync::OwnedMutexGuard<()> {
        let lock = {
            let mut locks = self.locks.lock().unwrap_or_else(|p| p.into_inner());
            locks.entry(id).or_default().clone()
        };
        lock.lock_owned().await
    }

    /// The result of `action` taken at `action_count`, if this server already did it.
    pub fn get(&self, id: u64, action_count: u16, action: &GameAction) -> Option<ActionResult> {
        let results = self.results.lock().unwrap_or_else(|p| p.into_inner());
        results.0.get(&key(id, action_count, action)).cloned()
    }

    /// Remembers the result of `action` taken at `action_count`.
    pub fn put(&self, id: u64, action_count: u16, action: &GameAction, result: ActionResult) {
        let mut guard = self.results.lock().unwrap_or_else(|p| p.into_inner());
        let (map, order) = &mut *guard;
        let k = key(id, action_count, action);
        if map.insert(k.clone(), result).is_none() {
            order.push_back(k);
        }
        while order.len() > CAPACITY {
            if let Some(old) = order.pop_front() {
                map.remove(&old);
            }
        }
    }
}
