//! Where the policy guard's spending and rate counters live: the durable journal on real chains
//! (so limits survive a restart), or memory (tests, and guards built without a journal).

use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use starknet::core::types::Felt;

/// Length of the rate-limit window.
pub const RATE_WINDOW: Duration = Duration::from_secs(60);

/// One day, the period of `policy.daily_fee_budget` (UTC days).
const DAY_MS: u64 = 86_400_000;

/// What was spent, as the policy guard sees it at one moment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Usage {
    /// Fees counted in this server run.
    pub run_spent: u128,
    /// Transactions sent in this server run.
    pub run_tx: u64,
    /// Fees counted since 00:00 UTC today (every run).
    pub day_spent: u128,
    /// Transactions sent since 00:00 UTC today (every run).
    pub day_tx: u64,
    /// Send times within the rate window, oldest first.
    pub window: Vec<SystemTime>,
}

/// A store of sent transactions' fees. `record` is an upsert by key (the transaction hash): a
/// send is recorded at its max-fee bound, then corrected to the fee actually paid.
pub trait SpendingLog: Send + Sync + std::fmt::Debug {
    /// Records (or corrects the fee of) a sent transaction; the first `at` is kept.
    fn record(&self, key: Felt, fee: u128, at: SystemTime);
    /// The run's, the day's and the rate window's counters as of `now`.
    fn usage(&self, now: SystemTime) -> Usage;
}

/// Milliseconds since the Unix epoch.
pub fn unix_ms(t: SystemTime) -> u64 {
    t.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// The start of the UTC day holding `t`, in Unix milliseconds.
pub fn day_start_ms(t: SystemTime) -> u64 {
    let ms = unix_ms(t);
    ms - ms % DAY_MS
}

/// Whether a send at `at` is inside the rate window ending at `now`.
pub fn in_window(at: SystemTime, now: SystemTime) -> bool {
    now.duration_since(at).map_or(true, |d| d < RATE_WINDOW)
}

/// Counters in memory: everything recorded belongs to this run.
#[derive(Debug, Default)]
pub struct MemorySpending {
    entries: Mutex<Vec<(Felt, u128, SystemTime)>>,
}

impl SpendingLog for MemorySpending {
    fn record(&self, key: Felt, fee: u128, at: SystemTime) {
        let mut e = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        match e.iter_mut().find(|(k, _, _)| *k == key) {
            Some(entry) => entry.1 = fee,
            None => e.push((key, fee, at)),
        }
    }

    fn usage(&self, now: SystemTime) -> Usage {
        let e = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        let day = day_start_ms(now);
        let mut u = Usage::default();
        for &(_, fee, at) in e.iter() {
            u.run_spent = u.run_spent.saturating_add(fee);
            u.run_tx += 1;
            if unix_ms(at) >= day {
                u.day_spent = u.day_spent.saturating_add(fee);
                u.day_tx += 1;
            }
            if in_window(at, now) {
                u.window.push(at);
            }
        }
        u.window.sort();
        u
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upsert_keeps_the_first_time_and_the_last_fee() {
        let log = MemorySpending::default();
        let t = SystemTime::UNIX_EPOCH + Duration::from_secs(86_400 * 10 + 5);
        log.record(Felt::ONE, 100, t);
        log.record(Felt::ONE, 40, t + Duration::from_secs(90));
        log.record(Felt::TWO, 1, t - Duration::from_secs(10));
        let u = log.usage(t + Duration::from_secs(30));
        assert_eq!((u.run_spent, u.run_tx), (41, 2));
        // The second send was the day before (UTC).
        assert_eq!((u.day_spent, u.day_tx), (40, 1));
        assert_eq!(u.window.len(), 2);
        assert_eq!(log.usage(t + Duration::from_secs(61)).window.len(), 0);
    }
}
