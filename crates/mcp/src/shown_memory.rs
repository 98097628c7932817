//! What each adventurer's results last showed, so a compact result leaves out what has not
//! changed (the market, stats, equipment and bag), and the planner that advises that adventurer
//! (its market advice is computed once per market). Bounded ([`BoundedMap`]): at most
//! [`CAPACITY`] adventurers, the least recently seen evicted first, and entries idle longer than
//! [`IDLE`] forgotten.

use game::AdventurerId;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::present::compact::{CompactMarket, CompactState};
use game::policy::Policy;

use crate::bounded_map::BoundedMap;

/// Adventurers remembered at most.
pub(crate) const CAPACITY: usize = 1024;

/// How long an adventurer's last result is remembered without being touched.
pub(crate) const IDLE: Duration = Duration::from_secs(3600);

/// One adventurer's last shown facts and its advising planner.
#[derive(Debug, Default)]
pub(crate) struct Recall {
    market: Option<Vec<u8>>,
    stats: Option<String>,
    equipment: Option<Vec<String>>,
    bag: Option<Vec<String>>,
    /// The planner advising this adventurer, once advice was asked for (taken out while it
    /// decides, so no decision holds the lock).
    pub policy: Option<Policy>,
}

impl Recall {
    /// Leaves out of a write's result what was shown last time, and remembers what it shows.
    pub(crate) fn leave_out_shown(
        &mut self,
        state: &mut CompactState,
        market: &mut Option<CompactMarket>,
        market_ids: Vec<u8>,
    ) {
        only_if_new(&mut self.stats, &mut state.stats);
        only_if_new(&mut self.equipment, &mut state.equipment);
        only_if_new(&mut self.bag, &mut state.bag);
        if market.is_some() {
            if self.market.as_ref() == Some(&market_ids) {
                *market = None;
            } else {
                self.market = Some(market_ids);
            }
        }
    }

    /// Remembers a result that shows everything (the adventurer read).
    pub(crate) fn shown_all(&mut self, state: &CompactState, market_ids: Option<Vec<u8>>) {
        self.stats.clone_from(&state.stats);
        self.equipment.clone_from(&state.equipment);
        self.bag.clone_from(&state.bag);
        if market_ids.is_some() {
            self.market = market_ids;
        }
    }
}

/// Clears `now` when it equals what was last shown; else remembers it.
fn only_if_new<T: PartialEq + Clone>(last: &mut Option<T>, now: &mut Option<T>) {
    if let Some(v) = now {
        if last.as_ref() == Some(v) {
            *now = None;
        } else {
            *last = Some(v.clone());
        }
    }
}

/// Per adventurer: its [`Recall`] and when it was last touched.
#[derive(Debug, Default)]
pub(crate) struct ShownMemory {
    entries: Mutex<BoundedMap<AdventurerId, Recall, CAPACITY>>,
}

impl ShownMemory {
    /// Runs `f` on the adventurer's recall (a new one when it is not remembered).
    pub(crate) fn with<R>(
        &self,
        adventurer_id: AdventurerId,
        f: impl FnOnce(&mut Recall) -> R,
    ) -> R {
        self.with_at(adventurer_id, Instant::now(), f)
    }

    fn with_at<R>(
        &self,
        adventurer_id: AdventurerId,
        now: Instant,
        f: impl FnOnce(&mut Recall) -> R,
    ) -> R {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.forget_idle(now, IDLE);
        f(entries.get_or_insert_with(adventurer_id, now, Recall::default))
    }

    /// Number of adventurers remembered.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::compact::compact_state;
    use game::model::GameState;

    fn shown(m: &ShownMemory, id: AdventurerId, ids: &[u8]) -> bool {
        let mut state = compact_state(&GameState::default());
        let mut market = Some(CompactMarket {
            items: vec![],
            more: None,
            downgrades: None,
        });
        m.with(id, |r| {
            r.leave_out_shown(&mut state, &mut market, ids.to_vec())
        });
        market.is_some()
    }

    #[test]
    fn a_market_is_shown_once_and_a_different_one_again() {
        let m = ShownMemory::default();
        assert!(shown(&m, AdventurerId::from(1u64), &[3, 4]));
        assert!(!shown(&m, AdventurerId::from(1u64), &[3, 4]));
        assert!(
            shown(&m, AdventurerId::from(2u64), &[3, 4]),
            "per adventurer"
        );
        assert!(shown(&m, AdventurerId::from(1u64), &[5]));
        assert!(!shown(&m, AdventurerId::from(1u64), &[5]));
    }

    #[test]
    fn unchanged_stats_equipment_and_bag_are_left_out_until_they_change() {
        let m = ShownMemory::default();
        let mut first = compact_state(&GameState::default());
        let mut none = None;
        m.with(AdventurerId::from(1u64), |r| {
            r.leave_out_shown(&mut first, &mut none, vec![])
        });
        assert!(first.stats.is_some() && first.equipment.is_some());
        let mut again = compact_state(&GameState::default());
        m.with(AdventurerId::from(1u64), |r| {
            r.leave_out_shown(&mut again, &mut none, vec![])
        });
        assert_eq!(
            (again.stats, again.equipment, again.bag),
            (None, None, None)
        );
        let mut changed = compact_state(&GameState::default());
        changed.stats = Some("STR 1 DEX 0 VIT 0 INT 0 WIS 0 CHA 0 LUCK 0".into());
        m.with(AdventurerId::from(1u64), |r| {
            r.leave_out_shown(&mut changed, &mut none, vec![])
        });
        assert!(changed.stats.is_some(), "a changed line is shown");
        assert!(changed.equipment.is_none());
    }

    #[test]
    fn bounded_and_idle_entries_are_forgotten() {
        let m = ShownMemory::default();
        let t0 = Instant::now();
        for id in 0..(CAPACITY as u64 + 10) {
            m.with_at(id.into(), t0 + Duration::from_millis(id), |r| {
                r.market = Some(vec![1]);
            });
        }
        assert_eq!(m.len(), CAPACITY);
        let kept = m.with_at(AdventurerId::from(0u64), t0 + Duration::from_secs(1), |r| {
            r.market.clone()
        });
        assert_eq!(kept, None, "the oldest was evicted");
        m.with_at(
            AdventurerId::from(5000u64),
            t0 + IDLE + Duration::from_secs(5),
            |_| (),
        );
        assert_eq!(m.len(), 1, "idle entries dropped");
    }
}
