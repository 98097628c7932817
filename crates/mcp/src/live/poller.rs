//! Changes other writers make (another process on the same sim world, another server's account
//! on the same chain): while anything is followed, the backend's change feed is asked every
//! [`POLL`] for the adventurers changed since the last ask, one ask for every subscriber
//! together, and each transaction's changes are published once (a write of this server's may
//! have told them already). When nothing is followed the feed is stopped. A backend without a
//! feed is not polled.

use std::sync::{Arc, Weak};
use std::time::Duration;

use tokio::sync::Notify;

use chain::Change;
use game::AdventurerId;
use starknet::core::types::Felt;

use super::Live;
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
                    Ok(Some((next, changes))) => {
                        if cursor.is_some() {
                            publish(&registry, changes);
                        }
                        cursor = Some(next);
                    }
                    Err(e) => tracing::debug!(error = %e, "the change feed could not be read"),
                }
            } else if cursor.take().is_some() {
                // Nothing followed: the feed stops, and starts again from now when something is.
                backend.stop_changes().await;
            }
            drop(registry);
            tokio::select! {
                () = tokio::time::sleep(POLL) => {}
                () = wake.notified() => {}
            }
        }
    });
}

/// Publishes the changes grouped by transaction (those without one together), each
/// transaction's once (see [`Live::publish_tx`]).
fn publish(live: &Live, changes: Vec<Change>) {
    let mut by_tx: Vec<(Option<Felt>, Vec<AdventurerId>)> = Vec::new();
    for c in changes {
        match by_tx.iter_mut().find(|(tx, _)| *tx == c.tx_hash) {
            Some((_, ids)) if ids.contains(&c.adventurer_id) => {}
            Some((_, ids)) => ids.push(c.adventurer_id),
            None => by_tx.push((c.tx_hash, vec![c.adventurer_id])),
        }
    }
    for (tx, ids) in by_tx {
        live.publish_tx(tx, &ids);
    }
}
