//! Per-identity write limits over HTTP, on top of the account's policy (which every identity
//! shares): transactions per minute and per UTC day. Counted in memory for this run; the
//! account's own daily fee budget still holds across restarts (the journal).

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::tokens::Identity;
use crate::error::{ErrorCode, ToolError};

#[derive(Debug, Default)]
struct Window {
    minute: VecDeque<Instant>,
    day: u64,
    today: u32,
}

/// Write counters per identity.
#[derive(Debug, Default)]
pub struct Limits {
    windows: Mutex<HashMap<String, Window>>,
}

impl Limits {
    /// Takes room for `txs` transactions of `identity`, or refuses with `POLICY_DENIED` naming
    /// the limit (nothing is counted then).
    pub fn take(&self, identity: &Identity, txs: u32) -> Result<(), ToolError> {
        let now = Instant::now();
        let day = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() / 86_400);
        let mut windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        let w = windows.entry(identity.name.clone()).or_default();
        while w
            .minute
            .front()
            .is_some_and(|t| now.duration_since(*t) >= Duration::from_secs(60))
        {
            w.minute.pop_front();
        }
        if w.day != day {
            w.day = day;
            w.today = 0;
        }
        if w.minute.len() + txs as usize > identity.max_tx_per_minute as usize {
            return Err(
                denied(identity, "max_tx_per_minute", identity.max_tx_per_minute).retryable(true),
            );
        }
        if w.today + txs > identity.max_tx_per_day {
            return Err(denied(identity, "max_tx_per_day", identity.max_tx_per_day));
        }
        w.minute.extend(std::iter::repeat_n(now, txs as usize));
        w.today += txs;
        Ok(())
    }
}

fn denied(identity: &Identity, rule: &str, limit: u32) -> ToolError {
    ToolError::new(
        ErrorCode::PolicyDenied,
        format!(
            "identity '{}' reached its limit of {limit} transactions ({rule})",
            identity.name
        ),
    )
    .with_detail("rule", rule)
    .with_detail("limit", limit)
    .with_hint(format!(
        "the server operator sets {rule} per token (token file) or in [http]"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_identity_has_its_own_minute() {
        let limits = Limits::default();
        let mut a = Identity::local(&Default::default());
        a.name = "a".into();
        a.max_tx_per_minute = 3;
        let mut b = a.clone();
        b.name = "b".into();
        limits.take(&a, 2).unwrap();
        let e = limits.take(&a, 2).unwrap_err();
        assert_eq!(e.code, ErrorCode::PolicyDenied);
        limits.take(&a, 1).unwrap();
        assert!(limits.take(&a, 1).is_err());
        limits.take(&b, 3).unwrap();
    }

    #[test]
    fn the_day_budget_counts_too() {
        let limits = Limits::default();
        let mut a = Identity::local(&Default::default());
        a.max_tx_per_day = 2;
        limits.take(&a, 2).unwrap();
        let e = limits.take(&a, 1).unwrap_err();
        assert!(e.message.contains("max_tx_per_day"), "{}", e.message);
    }
}
