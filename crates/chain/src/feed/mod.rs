//! The chain's change feed: which adventurers any writer changed, so followers hear of other
//! servers' writes too. One WebSocket subscription to the game's events where the node serves
//! one ([`socket`]), else, and while that socket is down, `starknet_getEvents` by block
//! ([`poll`]); both generations alike, through the generation's [`EventSource`] and its receipt
//! decoding. It costs the node nothing until the first [`ChangeFeed::changed_since`] and again
//! after [`ChangeFeed::stop`].

mod poll;
mod socket;

use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use starknet::core::types::{Event, Felt};
use starknet::providers::Provider;

use crate::ChainError;
use crate::generation::{Deployment, EventSource};
use crate::node::Rpc;
use game::AdventurerId;

/// How often the feed polls the node at most while it has no live subscription.
const POLL_EVERY: Duration = Duration::from_millis(500);

/// An adventurer that a transaction changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Change {
    /// The adventurer.
    pub adventurer_id: AdventurerId,
    /// The transaction, where the feed knows it (a chain's always does).
    pub tx_hash: Option<Felt>,
}

/// One event of the game's source as the node gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Emitted {
    /// Its block, when the node says.
    block: Option<u64>,
    tx_hash: Felt,
    event: Event,
}

/// The change feed of one deployment on one node, for one reader (the server's poller).
pub struct ChangeFeed {
    provider: Rpc,
    deployment: Deployment,
    endpoint: Option<url::Url>,
    running: tokio::sync::Mutex<Option<Running>>,
}

/// A started feed.
struct Running {
    /// The first block whose events are not all known yet.
    floor: u64,
    socket: Option<socket::Handle>,
    /// Subscriptions seen made so far (a new one: poll once for the gap before it).
    subscriptions: u64,
    last_poll: Option<Instant>,
}

impl std::fmt::Debug for ChangeFeed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChangeFeed")
            .field("subscribes", &self.endpoint.is_some())
            .finish_non_exhaustive()
    }
}

impl ChangeFeed {
    /// A feed of `deployment`'s changes read through `provider`, subscribed on `endpoint` (a
    /// `ws://` URL) when there is one.
    pub fn new(provider: Rpc, deployment: Deployment, endpoint: Option<url::Url>) -> Self {
        Self {
            provider,
            deployment,
            endpoint,
            running: tokio::sync::Mutex::default(),
        }
    }

    /// The adventurers changed since `cursor`, and the cursor to ask from next. A feed not
    /// running (or `cursor` `None`) starts at the latest block and names nothing yet.
    pub async fn changed_since(
        &self,
        cursor: Option<u64>,
    ) -> Result<(u64, Vec<Change>), ChainError> {
        let mut running = self.running.lock().await;
        let run = match running.as_mut() {
            Some(run) if cursor.is_some() => run,
            Some(run) => return Ok((run.floor, Vec::new())),
            None => {
                let run = self.start().await?;
                let floor = run.floor;
                *running = Some(run);
                return Ok((floor, Vec::new()));
            }
        };
        let events = self.next_events(run).await?;
        Ok((run.floor, self.changes(&events)))
    }

    /// Stops the feed: its socket is closed and the node is no longer asked.
    pub async fn stop(&self) {
        if self.running.lock().await.take().is_some() {
            tracing::debug!("the change feed stopped: nothing is followed");
        }
    }

    async fn start(&self) -> Result<Running, ChainError> {
        let latest = self
            .provider
            .block_number()
            .await
            .map_err(ChainError::from_provider)?;
        let socket = self
            .endpoint
            .clone()
            .map(|url| socket::spawn(url, self.source()));
        tracing::debug!(
            from_block = latest + 1,
            subscribes = socket.is_some(),
            "the change feed started"
        );
        Ok(Running {
            floor: latest + 1,
            socket,
            subscriptions: 0,
            last_poll: None,
        })
    }

    fn source(&self) -> EventSource {
        self.deployment.game().event_source()
    }

    /// The socket's events since the last call, and a poll where the socket is not live or
    /// something may have been missed (a new subscription's gap, a full channel).
    async fn next_events(&self, run: &mut Running) -> Result<Vec<Emitted>, ChainError> {
        let mut events = Vec::new();
        let mut catch_up = false;
        if let Some(s) = run.socket.as_mut() {
            while events.len() < socket::CAPACITY {
                match s.events.try_recv() {
                    Ok(e) => events.push(e),
                    Err(_) => break,
                }
            }
            let status = &s.status;
            let lost = status.lost_from.swap(u64::MAX, Ordering::SeqCst);
            let made = status.subscriptions.load(Ordering::SeqCst);
            let up = status.up.load(Ordering::SeqCst);
            if status.given_up.load(Ordering::SeqCst) {
                run.socket = None;
            }
            events = accept(&mut run.floor, events);
            if lost != u64::MAX {
                run.floor = run.floor.min(lost);
            }
            catch_up = made != run.subscriptions || lost != u64::MAX;
            run.subscriptions = made;
            if up && !catch_up {
                return Ok(events);
            }
        }
        let due = run.last_poll.is_none_or(|t| t.elapsed() >= POLL_EVERY);
        if catch_up || due {
            let read = poll::read(&self.provider, &self.source(), run.floor).await?;
            run.last_poll = Some(Instant::now());
            run.floor = run.floor.max(read.floor);
            events.extend(read.events);
        }
        Ok(events)
    }

    /// The adventurers `events` changed, once per transaction, through the generation's own
    /// receipt decoding; an event that does not decode is skipped.
    fn changes(&self, events: &[Emitted]) -> Vec<Change> {
        let game = self.deployment.game();
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for e in events {
            match game.receipt_events(std::slice::from_ref(&e.event)) {
                Ok(decoded) => {
                    for g in decoded {
                        let change = Change {
                            adventurer_id: g.adventurer_id,
                            tx_hash: Some(e.tx_hash),
                        };
                        if seen.insert(change) {
                            out.push(change);
                        }
                    }
                }
                Err(error) => tracing::debug!(%error, "a game event the feed cannot read; skipped"),
            }
        }
        out
    }
}

/// The socket's events from `floor` on (older ones were read by a poll), moving `floor` up to the
/// newest block seen (that block may still have events to come).
fn accept(floor: &mut u64, events: Vec<Emitted>) -> Vec<Emitted> {
    let mut kept = Vec::with_capacity(events.len());
    for e in events {
        match e.block {
            Some(b) if b < *floor => continue,
            Some(b) => *floor = b,
            None => {}
        }
        kept.push(e);
    }
    kept
}

#[cfg(test)]
mod tests;
