//! The last state this server knows of each adventurer (from a read or derived from a write's
//! events), so a write can validate and build its result without a read round trip.
//!
//! It is trusted because only the token's owner can act and one server holds each account (the
//! journal's lock): every change of an adventurer this server plays passes through it. Any write
//! failure forgets the adventurer (the chain may have moved in a way this server did not see), and
//! a read never replaces a newer state with an older one (a lagging node). Bounded
//! ([`BoundedMap`]): at most [`CAPACITY`] adventurers, the least recently touched evicted first.

use game::AdventurerId;
use std::sync::Mutex;
use std::time::Instant;

use game::model::GameState;

use crate::bounded_map::BoundedMap;

/// Adventurers remembered at most.
pub(super) const CAPACITY: usize = 1024;

/// Per adventurer: the last known state and when it was last touched.
#[derive(Debug, Default)]
pub(crate) struct KnownStates {
    states: Mutex<BoundedMap<AdventurerId, GameState, CAPACITY>>,
}

/// Whether action count `a` is older than `b` (u16 counts wrap).
fn older(a: u16, b: u16) -> bool {
    a != b && b.wrapping_sub(a) < u16::MAX / 2
}

impl KnownStates {
    /// The last known state of an adventurer.
    pub(crate) fn get(&self, id: AdventurerId) -> Option<GameState> {
        let mut states = self.states.lock().unwrap_or_else(|e| e.into_inner());
        states.get_mut(&id, Instant::now()).cloned()
    }

    /// Remembers a state, unless a newer one is already known (a read from a lagging node).
    /// A game that never started is not remembered (it may not even exist).
    pub(crate) fn put(&self, id: AdventurerId, state: &GameState) {
        if state.adventurer.action_count == 0 {
            return;
        }
        let mut states = self.states.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(known) = states.peek(&id)
            && older(state.adventurer.action_count, known.adventurer.action_count)
        {
            return;
        }
        states.insert(id, state.clone(), Instant::now());
    }

    /// Forgets an adventurer (after a failed write).
    pub(crate) fn forget(&self, id: AdventurerId) {
        self.states
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(count: u16) -> GameState {
        let mut s = GameState::default();
        s.adventurer.action_count = count;
        s
    }

    #[test]
    fn an_older_read_does_not_replace_a_newer_state() {
        let k = KnownStates::default();
        let (one, two) = (AdventurerId::from(1u64), AdventurerId::from(2u64));
        k.put(one, &at(5));
        k.put(one, &at(4));
        assert_eq!(k.get(one).unwrap().adventurer.action_count, 5);
        k.put(one, &at(6));
        assert_eq!(k.get(one).unwrap().adventurer.action_count, 6);
        k.put(two, &at(u16::MAX));
        k.put(two, &at(1));
        assert_eq!(k.get(two).unwrap().adventurer.action_count, 1, "wrapped");
    }

    #[test]
    fn unstarted_games_and_forgotten_ones_are_unknown() {
        let k = KnownStates::default();
        let one = AdventurerId::from(1u64);
        k.put(one, &at(0));
        assert!(k.get(one).is_none());
        k.put(one, &at(3));
        k.forget(one);
        assert!(k.get(one).is_none());
    }

    #[test]
    fn it_is_bounded() {
        let k = KnownStates::default();
        for id in 0..(CAPACITY as u64 + 10) {
            k.put(id.into(), &at(1));
        }
        assert_eq!(k.states.lock().unwrap().len(), CAPACITY);
    }
}
