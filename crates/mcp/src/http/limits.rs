//! Per-identity write limits over HTTP, on top of the account's policy (which every identity
//! shares): transactions per minute and per UTC day, and fees per UTC day. The day's counters are
//! kept in the data directory (a small JSON map, rewritten through a temporary file and a rename
//! after each change) so a restart does not reset them; the minute window lives in memory.
//!
//! A write is let through only when the identity's fees today plus the worst case of the write
//! (the account policy's `max_fee_per_tx` per transaction it may send) fit its daily fee budget;
//! afterwards the fee the chain actually charged is added. On sim there are no fees: the worst
//! case is zero and the budget never refuses.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::tokens::Identity;
use crate::error::{ErrorCode, ToolError};

/// What is kept on disk for one identity: its counts for one UTC day.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
struct Day {
    /// Days since the Unix epoch (UTC).
    day: u64,
    /// Transactions counted that day.
    tx: u32,
    /// Fees charged that day, in the fee token's smallest unit, as a decimal string.
    #[serde(with = "decimal")]
    fee: u128,
}

#[derive(Debug, Default)]
struct Window {
    minute: VecDeque<Instant>,
    today: Day,
}

impl Window {
    fn roll(&mut self, day: u64) {
        if self.today.day != day {
            self.today = Day {
                day,
                ..Day::default()
            };
        }
    }
}

/// Write counters per identity.
#[derive(Debug, Default)]
pub struct Limits {
    path: Option<PathBuf>,
    max_fee_per_tx: u128,
    windows: Mutex<HashMap<String, Window>>,
}

/// The largest counters file read.
const MAX_FILE_BYTES: u64 = 16 << 20;

impl Limits {
    /// The counters kept in `path` (read now when it exists), or in memory only without a path.
    /// `max_fee_per_tx` is the account policy's cap, the most one transaction can cost (0 on sim).
    pub fn open(path: Option<PathBuf>, max_fee_per_tx: u128) -> std::io::Result<Self> {
        let days: HashMap<String, Day> = match &path {
            Some(p) if p.exists() => {
                let text = base::files::read_capped(p, MAX_FILE_BYTES)
                    .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", p.display())))?;
                serde_json::from_str(&text).map_err(|e| {
                    std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!("{}: {e}", p.display()),
                    )
                })?
            }
            _ => HashMap::new(),
        };
        let windows = days
            .into_iter()
            .map(|(name, today)| {
                (
                    name,
                    Window {
                        minute: VecDeque::new(),
                        today,
                    },
                )
            })
            .collect();
        Ok(Self {
            path,
            max_fee_per_tx,
            windows: Mutex::new(windows),
        })
    }

    /// The most one transaction can cost (the account policy's `max_fee_per_tx`; 0 on sim).
    pub fn max_fee_per_tx(&self) -> u128 {
        self.max_fee_per_tx
    }

    /// Where the counters are kept, if on disk.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Takes room for `txs` transactions of `identity`, or refuses with `POLICY_DENIED` naming
    /// the limit (nothing is counted then).
    pub fn take(&self, identity: &Identity, txs: u32) -> Result<(), ToolError> {
        self.take_on(identity, txs, Instant::now(), today())
    }

    fn take_on(
        &self,
        identity: &Identity,
        txs: u32,
        now: Instant,
        day: u64,
    ) -> Result<(), ToolError> {
        let mut windows = self.lock();
        let w = windows.entry(identity.name.clone()).or_default();
        while w
            .minute
            .front()
            .is_some_and(|t| now.duration_since(*t) >= Duration::from_secs(60))
        {
            w.minute.pop_front();
        }
        w.roll(day);
        if w.minute.len() + txs as usize > identity.max_tx_per_minute as usize {
            return Err(
                denied(identity, "max_tx_per_minute", identity.max_tx_per_minute).retryable(true),
            );
        }
        if w.today.tx + txs > identity.max_tx_per_day {
            return Err(denied(identity, "max_tx_per_day", identity.max_tx_per_day));
        }
        if let Some(budget) = identity.max_fee_per_day {
            let worst = self.max_fee_per_tx.saturating_mul(u128::from(txs));
            if w.today.fee.saturating_add(worst) > budget {
                return Err(fee_denied(identity, budget, w.today.fee, worst));
            }
        }
        w.minute.extend(std::iter::repeat_n(now, txs as usize));
        w.today.tx += txs;
        self.save(&windows);
        Ok(())
    }

    /// Adds `fee` (what the chain charged a write of `identity`) to its fees today.
    pub fn charge(&self, identity: &Identity, fee: u128) {
        self.charge_on(identity, fee, today());
    }

    fn charge_on(&self, identity: &Identity, fee: u128, day: u64) {
        let mut windows = self.lock();
        let w = windows.entry(identity.name.clone()).or_default();
        w.roll(day);
        w.today.fee = w.today.fee.saturating_add(fee);
        self.save(&windows);
    }

    /// Fees charged to `identity` today (0 when none).
    pub fn fees_today(&self, identity: &Identity) -> u128 {
        self.lock()
            .get(&identity.name)
            .filter(|w| w.today.day == today())
            .map_or(0, |w| w.today.fee)
    }

    /// Writes the day counters to disk; a failure is logged (the counters stay in memory).
    fn save(&self, windows: &HashMap<String, Window>) {
        let Some(path) = &self.path else {
            return;
        };
        let days: HashMap<&String, &Day> = windows.iter().map(|(k, w)| (k, &w.today)).collect();
        let written = serde_json::to_string(&days)
            .map_err(std::io::Error::other)
            .and_then(|text| base::files::write_atomic(path, text.as_bytes()));
        if let Err(e) = written {
            tracing::error!(path = %path.display(), error = %e, "cannot save the identity counters");
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Window>> {
        self.windows.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Days since the Unix epoch, UTC.
fn today() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400)
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

fn fee_denied(identity: &Identity, budget: u128, spent: u128, worst: u128) -> ToolError {
    ToolError::new(
        ErrorCode::PolicyDenied,
        format!(
            "identity '{}' would exceed its daily fee budget (max_fee_per_day): {spent} spent \
             today + up to {worst} for this write > {budget}",
            identity.name
        ),
    )
    .with_detail("rule", "max_fee_per_day")
    .with_detail("limit", budget.to_string())
    .with_detail("spent_today", spent.to_string())
    .with_hint("the budget resets at 00:00 UTC; the server operator sets max_fee_per_day per token")
}

/// A `u128` as a decimal string (JSON numbers lose precision past 2^53).
mod decimal {
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(v: &u128, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity(name: &str) -> Identity {
        let mut a = Identity::local(&Default::default());
        a.name = name.into();
        a
    }

    #[test]
    fn each_identity_has_its_own_minute() {
        let limits = Limits::default();
        let mut a = identity("a");
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
        let mut a = identity("local");
        a.max_tx_per_day = 2;
        limits.take(&a, 2).unwrap();
        let e = limits.take(&a, 1).unwrap_err();
        assert!(e.message.contains("max_tx_per_day"), "{}", e.message);
    }

    #[test]
    fn the_fee_budget_refuses_what_the_worst_case_would_exceed() {
        let limits = Limits::open(None, 100).unwrap();
        let mut a = identity("alice");
        a.max_fee_per_day = Some(250);
        let b = identity("bob");
        limits.take(&a, 2).unwrap();
        limits.charge(&a, 60);
        limits.take(&a, 1).unwrap();
        limits.charge(&a, 70);
        assert_eq!(limits.fees_today(&a), 130);
        let e = limits.take(&a, 2).unwrap_err();
        assert_eq!(e.code, ErrorCode::PolicyDenied);
        assert!(e.message.contains("max_fee_per_day"), "{}", e.message);
        assert!(e.message.contains("'alice'"), "{}", e.message);
        assert_eq!(e.details["spent_today"], "130");
        limits.take(&a, 1).unwrap();
        limits.charge(&a, 90);
        assert!(limits.take(&a, 1).is_err());
        limits.take(&b, 5).unwrap();
    }

    #[test]
    fn without_fees_the_budget_never_refuses() {
        let limits = Limits::open(None, 0).unwrap();
        let mut a = identity("alice");
        a.max_fee_per_day = Some(0);
        for _ in 0..50 {
            limits.take(&a, 2).unwrap();
            limits.charge(&a, 0);
        }
    }

    #[test]
    fn the_counters_survive_a_reload_from_disk() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("http-limits.json");
        let mut a = identity("alice");
        a.max_tx_per_day = 3;
        a.max_fee_per_day = Some(u128::MAX / 2);
        let limits = Limits::open(Some(path.clone()), 1).unwrap();
        limits.take(&a, 2).unwrap();
        limits.charge(&a, 12_345_678_901_234_567_890);
        drop(limits);
        assert!(!dir.path().join("http-limits.json.tmp").exists());
        let again = Limits::open(Some(path.clone()), 1).unwrap();
        assert_eq!(again.fees_today(&a), 12_345_678_901_234_567_890);
        again.take(&a, 1).unwrap();
        let e = again.take(&a, 1).unwrap_err();
        assert!(e.message.contains("max_tx_per_day"), "{}", e.message);
        std::fs::write(&path, "not json").unwrap();
        assert!(Limits::open(Some(path), 1).is_err());
    }

    #[test]
    fn a_new_utc_day_starts_from_zero() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("http-limits.json");
        let mut a = identity("alice");
        a.max_tx_per_day = 2;
        a.max_fee_per_day = Some(100);
        let limits = Limits::open(Some(path.clone()), 50).unwrap();
        let now = Instant::now();
        limits.take_on(&a, 2, now, 7).unwrap();
        limits.charge_on(&a, 40, 7);
        assert!(limits.take_on(&a, 1, now, 7).is_err());
        drop(limits);
        let again = Limits::open(Some(path), 50).unwrap();
        assert!(again.take_on(&a, 1, now, 7).is_err(), "still day 7");
        again.take_on(&a, 2, now, 8).unwrap();
        again.charge_on(&a, 10, 8);
        let e = again.take_on(&a, 1, now, 8).unwrap_err();
        assert!(e.message.contains("max_tx_per_day"), "{}", e.message);
    }
}
