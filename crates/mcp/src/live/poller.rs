//! Changes other writers make (another process on the same sim world): while anything is
//! followed, the backend's change feed is asked every [`POLL`] for the adventurers changed since
//! the last ask, one read for every subscriber together, and each is published. A backend
//! without a feed is not polled.

use std::sync::{Arc, Weak};
use std::time::Duration;

use tokio::sync::Notify;

use super::{Live, Target};
use crate::backend::GameBackend;

/// How often the feed is asked while something is followed.
const POLL: Duration = Duration::from_millis(250);

/// Polls `backend`'s change feed for `live` until the server is gone or the backend has none;
/// `wake` (a new subscription) makes it look at once.
pub(crate) fn spawn(backend: Arc<dyn GameBackend>, live: Weak<Live>, wake: Arc<Notify>) {
    tokio::spawn(async move {
        let mut cursor = None;
        loop {
            let Some(registry) = live.upgrade() else {
                return;
            };
            if registry.active() {
                match backend.changed_since(cursor).await {
                    Ok(None) => return,
                    Ok(Some((next, ids))) => {
                        if cursor.is_some() && !ids.is_empty() {
                            for id in ids {
                                registry.publish(Target::Adventurer(id));
                            }
                            registry.publish(Target::Leaderboard);
                        }
                        cursor = Some(next);
                    }
                    Err(e) => tracing::debug!(error = %e, "the change feed could not be read"),
                }
            } else {
                // Nothing followed: start again from now when something is.
                cursor = None;
            }
            drop(registry);
            tokio::select! {
                () = tokio::time::sleep(POLL) => {}
                () = wake.notified() => {}
            }
        }
    });
}
