//! Graceful stop: once stopping, new calls are refused, and the stop waits (up to a grace
//! period) for the writes in flight to reach their answer.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use crate::error::{ErrorCode, ToolError};

/// Counts the writes in flight and refuses new ones once stopping.
#[derive(Debug, Default)]
pub struct Drain {
    stopping: AtomicBool,
    active: AtomicUsize,
    idle: tokio::sync::Notify,
}

/// One write in flight; dropping it ends the write.
#[derive(Debug)]
pub struct Busy(Arc<Drain>);

impl Drop for Busy {
    fn drop(&mut self) {
        if self.0.active.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

impl Drain {
    /// Starts a call, unless the server is stopping.
    pub fn enter(self: &Arc<Self>) -> Result<Busy, ToolError> {
        self.active.fetch_add(1, Ordering::SeqCst);
        let busy = Busy(self.clone());
        if self.stopping.load(Ordering::SeqCst) {
            return Err(ToolError::new(
                ErrorCode::RpcError,
                "the server is stopping and takes no new calls",
            )
            .with_hint("retry once the server has restarted"));
        }
        Ok(busy)
    }

    /// Stops taking calls and waits until none is in flight or `grace` has passed; returns how
    /// many were still in flight.
    pub async fn stop(&self, grace: Duration) -> usize {
        self.stopping.store(true, Ordering::SeqCst);
        let deadline = tokio::time::Instant::now() + grace;
        loop {
            let idle = self.idle.notified();
            let active = self.active.load(Ordering::SeqCst);
            if active == 0 {
                return 0;
            }
            if tokio::time::timeout_at(deadline, idle).await.is_err() {
                return self.active.load(Ordering::SeqCst);
            }
        }
    }

    /// Whether a stop was asked for.
    pub fn stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn stop_waits_for_calls_in_flight_and_refuses_new_ones() {
        let drain = Arc::new(Drain::default());
        assert_eq!(drain.stop(Duration::ZERO).await, 0);
        let drain = Arc::new(Drain::default());
        let busy = drain.enter().unwrap();
        let d = drain.clone();
        let stop = tokio::spawn(async move { d.stop(Duration::from_secs(30)).await });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(drain.stopping());
        assert!(drain.enter().is_err(), "no new calls while stopping");
        assert!(!stop.is_finished(), "the call in flight is waited for");
        drop(busy);
        assert_eq!(stop.await.unwrap(), 0);
    }

    #[tokio::test(start_paused = true)]
    async fn stop_gives_up_after_the_grace_period() {
        let drain = Arc::new(Drain::default());
        let _busy = drain.enter().unwrap();
        assert_eq!(drain.stop(Duration::from_secs(5)).await, 1);
    }
}
