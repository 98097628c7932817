//! The transactions whose changes followers were already told of: a write tells them when it
//! lands, and the chain's change feed names the same transaction again (or names one twice after
//! a reconnect); whichever comes first tells, the other is dropped. Bounded: the oldest of
//! [`KEPT`] transactions are forgotten first.

use std::collections::{HashSet, VecDeque};
use std::sync::Mutex;

use starknet::core::types::Felt;

use super::{Live, Target};
use game::AdventurerId;

/// Transactions remembered at most.
const KEPT: usize = 4096;

/// The transactions told of, oldest first.
#[derive(Default)]
pub(super) struct Told(Mutex<(HashSet<Felt>, VecDeque<Felt>)>);

impl Told {
    /// Whether `tx` was not told of before (it is from now on).
    fn first(&self, tx: Felt) -> bool {
        let mut guard = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let (set, order) = &mut *guard;
        if !set.insert(tx) {
            return false;
        }
        order.push_back(tx);
        if order.len() > KEPT
            && let Some(old) = order.pop_front()
        {
            set.remove(&old);
        }
        true
    }
}

impl Live {
    /// Tells the followers of `ids` and of the leaderboard that transaction `tx` changed them,
    /// unless `tx` was told of already (`None`: a change without a known transaction, always told).
    pub fn publish_tx(&self, tx: Option<Felt>, ids: &[AdventurerId]) {
        if ids.is_empty() || tx.is_some_and(|tx| !self.told.first(tx)) {
            return;
        }
        for id in ids {
            self.publish(Target::Adventurer(*id));
        }
        self.publish(Target::Leaderboard);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transaction_is_told_once_and_the_oldest_are_forgotten() {
        let told = Told::default();
        assert!(told.first(Felt::ONE));
        assert!(!told.first(Felt::ONE));
        for i in 0..KEPT as u64 {
            assert!(told.first(Felt::from(i + 2)));
        }
        assert!(told.first(Felt::ONE), "forgotten past the bound");
        assert_eq!(told.0.lock().unwrap().1.len(), KEPT);
    }
}
