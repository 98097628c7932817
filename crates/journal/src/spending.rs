//! The journal as the wallet's spending log: fees and fee bounds by hash, kept in memory for the
//! budgets' sums and written behind to the `spending` table.

use std::time::SystemTime;

use rusqlite::{Connection, params};
use starknet::core::types::Felt;

use super::{Journal, exec, hex};
use wallet::{SpendingLog, Usage, day_start_ms, in_window, unix_ms};

/// One spending row (a fee, or a send's fee bound until its receipt).
#[derive(Debug, Clone)]
pub(super) struct Spend {
    pub(super) key: String,
    pub(super) fee: u128,
    pub(super) at_ms: i64,
    pub(super) run: i64,
}

impl SpendingLog for Journal {
    fn record(&self, key: Felt, fee: u128, at: SystemTime) {
        let (key, at_ms) = (hex(key), unix_ms(at) as i64);
        // A fee is the run's that signed the transaction: one signed by an earlier run that
        // stopped before its spending was written (a kill) is not this run's.
        let run = self.unspent.get(&key).copied().unwrap_or(self.run);
        {
            let mut rows = self.spending.lock().unwrap_or_else(|p| p.into_inner());
            match rows.iter_mut().rev().find(|r| r.key == key) {
                Some(row) => row.fee = fee,
                None => rows.push(Spend {
                    key: key.clone(),
                    fee,
                    at_ms,
                    run,
                }),
            }
        }
        self.behind.push(move |db: &Connection| {
            let r = exec(
                db,
                "INSERT INTO spending(hash, fee, at_ms, run) VALUES (?1, ?2, ?3, ?4) \
                 ON CONFLICT(hash) DO UPDATE SET fee = excluded.fee",
                params![key, fee.to_string(), at_ms, run],
            );
            if let Err(e) = r {
                tracing::error!("journal: cannot record spending: {e}");
            }
        });
    }

    fn usage(&self, now: SystemTime) -> Usage {
        let day = day_start_ms(now) as i64;
        let rows = self.spending.lock().unwrap_or_else(|p| p.into_inner());
        let mut u = Usage::default();
        for row in rows.iter() {
            if row.run == self.run {
                u.run_spent = u.run_spent.saturating_add(row.fee);
                u.run_tx += 1;
            }
            if row.at_ms >= day {
                u.day_spent = u.day_spent.saturating_add(row.fee);
                u.day_tx += 1;
            }
            let at =
                SystemTime::UNIX_EPOCH + std::time::Duration::from_millis(row.at_ms.max(0) as u64);
            if in_window(at, now) {
                u.window.push(at);
            }
        }
        u.window.sort();
        u
    }
}
