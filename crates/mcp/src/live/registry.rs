//! Every session's subscriptions, and the fan-out of a change to them: a resource subscription
//! gets `notifications/resources/updated` on its session, a `subscriptions/listen` stream gets it
//! on its stream, and a tool subscription is marked changed until the session collects it. A
//! session holds at most [`MAX_PER_SESSION`]; a session whose transport closed is dropped whole.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use tokio::sync::Notify;

use rmcp::RoleServer;
use rmcp::service::{Peer, SubscriptionSink};
use serde::Serialize;

use super::target::Target;

/// What one session may follow at once (its resource, listen and tool subscriptions together).
pub const MAX_PER_SESSION: usize = 100;

/// How a subscription was made, and so how its changes reach the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Via {
    /// `resources/subscribe`: a notification on the session.
    Resource,
    /// `subscriptions/listen`: a notification on the listen stream.
    Listen,
    /// A subscription tool: collected by the session.
    Tool,
}

/// One subscription as the session sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct SubscriptionInfo {
    /// Its id in this session.
    pub subscription_id: u64,
    /// The followed resource.
    pub uri: String,
    /// How it was made.
    pub via: Via,
    /// Whether its target changed since the session last collected it (tool subscriptions).
    pub changed: bool,
}

/// Why a subscription was not made or removed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SubscribeError {
    /// The session already follows [`MAX_PER_SESSION`] things.
    #[error("this session already follows {MAX_PER_SESSION} things, the most it may")]
    Limit,
    /// No such subscription in this session.
    #[error("this session has no subscription {0}")]
    NotSubscribed(String),
}

struct Sub {
    id: u64,
    uri: String,
    target: Target,
    via: Via,
    changed: bool,
}

struct Listener {
    id: u64,
    targets: Vec<(Target, String)>,
    sink: SubscriptionSink,
}

#[derive(Default)]
struct Session {
    peer: Option<Peer<RoleServer>>,
    subs: Vec<Sub>,
    listeners: Vec<Listener>,
}

impl Session {
    fn size(&self) -> usize {
        self.subs.len()
            + self
                .listeners
                .iter()
                .map(|l| l.targets.len())
                .sum::<usize>()
    }

    fn closed(&self) -> bool {
        self.peer.as_ref().is_some_and(Peer::is_transport_closed)
    }
}

/// The subscriptions of every session of this server.
pub struct Live {
    sessions: Mutex<HashMap<String, Session>>,
    next_id: AtomicU64,
    /// Told of every new subscription (the change feed's poller looks at once).
    wake: Arc<Notify>,
    /// Whether the change feed's poller runs.
    polling: AtomicBool,
    /// Every published change, for watchers inside this process (a page's event stream).
    changes: tokio::sync::broadcast::Sender<Target>,
    /// How many such watchers there are (they keep the change feed polled).
    watchers: Arc<AtomicUsize>,
    /// The transactions already told of.
    pub(super) told: super::told::Told,
}

impl Default for Live {
    fn default() -> Self {
        Self {
            sessions: Mutex::default(),
            next_id: AtomicU64::default(),
            wake: Arc::default(),
            polling: AtomicBool::default(),
            changes: tokio::sync::broadcast::channel(256).0,
            watchers: Arc::default(),
            told: Default::default(),
        }
    }
}

/// A watcher inside this process: every change published while it lives (the feed is polled
/// meanwhile). Dropping it stops it.
pub struct Watcher {
    /// The changes, in order; a watcher that falls more than 256 behind is told it lagged.
    pub changes: tokio::sync::broadcast::Receiver<Target>,
    count: Arc<AtomicUsize>,
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.count.fetch_sub(1, Ordering::SeqCst);
    }
}

impl std::fmt::Debug for Live {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Live")
            .field("subscriptions", &self.count())
            .finish()
    }
}

impl Live {
    fn sessions(&self) -> std::sync::MutexGuard<'_, HashMap<String, Session>> {
        let mut sessions = self
            .sessions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        sessions.retain(|_, s| !s.closed() && (s.size() > 0 || s.peer.is_some()));
        sessions
    }

    /// Follows `target` (named `uri` by the client) for session `key`; the same target by the
    /// same route is one subscription.
    pub fn subscribe(
        &self,
        key: &str,
        peer: Option<Peer<RoleServer>>,
        uri: &str,
        target: Target,
        via: Via,
    ) -> Result<SubscriptionInfo, SubscribeError> {
        let mut sessions = self.sessions();
        let session = sessions.entry(key.to_string()).or_default();
        if peer.is_some() {
            session.peer = peer;
        }
        if let Some(s) = session
            .subs
            .iter()
            .find(|s| s.target == target && s.via == via)
        {
            return Ok(info(s));
        }
        if session.size() >= MAX_PER_SESSION {
            return Err(SubscribeError::Limit);
        }
        let sub = Sub {
            id: self.next_id.fetch_add(1, Ordering::Relaxed) + 1,
            uri: uri.to_string(),
            target,
            via,
            changed: false,
        };
        let shown = info(&sub);
        session.subs.push(sub);
        self.wake.notify_one();
        Ok(shown)
    }

    /// Stops following `target` by `via` for session `key`.
    pub fn unsubscribe_target(
        &self,
        key: &str,
        target: Target,
        via: Via,
    ) -> Result<(), SubscribeError> {
        let mut sessions = self.sessions();
        let removed = sessions.get_mut(key).and_then(|s| {
            let at = s
                .subs
                .iter()
                .position(|x| x.target == target && x.via == via)?;
            Some(s.subs.remove(at))
        });
        removed
            .map(|_| ())
            .ok_or_else(|| SubscribeError::NotSubscribed(target.uri()))
    }

    /// Removes subscription `id` of session `key`.
    pub fn unsubscribe_id(&self, key: &str, id: u64) -> Result<SubscriptionInfo, SubscribeError> {
        let mut sessions = self.sessions();
        let removed = sessions.get_mut(key).and_then(|s| {
            let at = s.subs.iter().position(|x| x.id == id)?;
            Some(s.subs.remove(at))
        });
        removed
            .map(|s| info(&s))
            .ok_or_else(|| SubscribeError::NotSubscribed(id.to_string()))
    }

    /// Session `key`'s subscriptions; with `collect`, its tool subscriptions' changes are taken
    /// (the next call shows only what changed since).
    pub fn list(&self, key: &str, collect: bool) -> Vec<SubscriptionInfo> {
        let mut sessions = self.sessions();
        let Some(session) = sessions.get_mut(key) else {
            return Vec::new();
        };
        let mut out: Vec<SubscriptionInfo> = session.subs.iter().map(info).collect();
        if collect {
            session.subs.iter_mut().for_each(|s| s.changed = false);
        }
        for l in &session.listeners {
            out.extend(l.targets.iter().map(|(_, uri)| SubscriptionInfo {
                subscription_id: l.id,
                uri: uri.clone(),
                via: Via::Listen,
                changed: false,
            }));
        }
        out
    }

    /// Adds a `subscriptions/listen` stream of session `key` following `targets` (each with the
    /// URI the client named); returns its id, to remove it when the stream ends.
    pub fn listen(
        &self,
        key: &str,
        peer: Peer<RoleServer>,
        targets: Vec<(Target, String)>,
        sink: SubscriptionSink,
    ) -> Result<u64, SubscribeError> {
        let mut sessions = self.sessions();
        let session = sessions.entry(key.to_string()).or_default();
        session.peer = Some(peer);
        if session.size() + targets.len() > MAX_PER_SESSION {
            return Err(SubscribeError::Limit);
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        session.listeners.push(Listener { id, targets, sink });
        self.wake.notify_one();
        Ok(id)
    }

    /// Removes listen stream `id` of session `key`.
    pub fn end_listen(&self, key: &str, id: u64) {
        if let Some(s) = self.sessions().get_mut(key) {
            s.listeners.retain(|l| l.id != id);
        }
    }

    /// A watcher of every change from now on (start the feed with `LsServer::watch_feed`).
    pub fn watch(&self) -> Watcher {
        self.watchers.fetch_add(1, Ordering::SeqCst);
        self.wake.notify_one();
        Watcher {
            changes: self.changes.subscribe(),
            count: self.watchers.clone(),
        }
    }

    /// Tells every session following `target`, and every watcher, that it changed.
    pub fn publish(&self, target: Target) {
        // No receiver is not an error: nobody watches.
        let _ = self.changes.send(target);
        let mut sessions = self.sessions();
        for session in sessions.values_mut() {
            for sub in session.subs.iter_mut().filter(|s| s.target == target) {
                sub.changed = true;
                if let (Via::Resource, Some(peer)) = (sub.via, &session.peer) {
                    let (peer, uri) = (peer.clone(), sub.uri.clone());
                    tokio::spawn(async move {
                        if let Err(e) = peer
                            .notify_resource_updated(
                                rmcp::model::ResourceUpdatedNotificationParam::new(uri),
                            )
                            .await
                        {
                            tracing::debug!(error = %e, "a resource update was not delivered");
                        }
                    });
                }
            }
            for l in &session.listeners {
                for (_, uri) in l.targets.iter().filter(|(t, _)| *t == target) {
                    let (sink, uri) = (l.sink.clone(), uri.clone());
                    tokio::spawn(async move {
                        if let Err(e) = sink.notify_resource_updated(uri).await {
                            tracing::debug!(error = %e, "a listen update was not delivered");
                        }
                    });
                }
            }
        }
    }

    /// What a new subscription wakes, and whether the poller is to be started (true once).
    pub(crate) fn start_polling(&self) -> Option<Arc<Notify>> {
        (!self.polling.swap(true, Ordering::SeqCst)).then(|| self.wake.clone())
    }

    /// How many things every session follows together.
    pub fn count(&self) -> usize {
        self.sessions().values().map(Session::size).sum()
    }

    /// How many watchers live (open page streams).
    pub fn watchers(&self) -> usize {
        self.watchers.load(Ordering::SeqCst)
    }

    /// Whether anything is followed or watched (the change feed is polled only then).
    pub fn active(&self) -> bool {
        self.watchers.load(Ordering::SeqCst) > 0 || self.count() > 0
    }
}

fn info(s: &Sub) -> SubscriptionInfo {
    SubscriptionInfo {
        subscription_id: s.id,
        uri: s.uri.clone(),
        via: s.via,
        changed: s.changed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::AdventurerId;

    fn adventurer(n: u64) -> Target {
        Target::Adventurer(AdventurerId::from(n))
    }

    #[test]
    fn a_session_follows_at_most_its_limit_and_collects_what_changed() {
        let live = Live::default();
        for n in 0..MAX_PER_SESSION as u64 {
            let uri = adventurer(n).uri();
            live.subscribe("a", None, &uri, adventurer(n), Via::Tool)
                .unwrap();
        }
        let again = live
            .subscribe("a", None, "ls://adventurer/0", adventurer(0), Via::Tool)
            .unwrap();
        assert_eq!(
            again.subscription_id, 1,
            "the same target is one subscription"
        );
        assert_eq!(
            live.subscribe(
                "a",
                None,
                "ls://leaderboard",
                Target::Leaderboard,
                Via::Tool
            ),
            Err(SubscribeError::Limit)
        );
        // Another session has a limit of its own.
        live.subscribe(
            "b",
            None,
            "ls://leaderboard",
            Target::Leaderboard,
            Via::Tool,
        )
        .unwrap();
        assert_eq!(live.count(), MAX_PER_SESSION + 1);

        live.publish(adventurer(3));
        let changed: Vec<String> = live
            .list("a", true)
            .into_iter()
            .filter(|s| s.changed)
            .map(|s| s.uri)
            .collect();
        assert_eq!(changed, ["ls://adventurer/3"]);
        assert!(live.list("a", true).iter().all(|s| !s.changed), "collected");
        assert!(live.list("b", false).iter().all(|s| !s.changed));

        let gone = live.unsubscribe_id("a", 4).unwrap();
        assert_eq!(gone.uri, "ls://adventurer/3");
        assert_eq!(
            live.unsubscribe_id("a", 4),
            Err(SubscribeError::NotSubscribed("4".into()))
        );
        assert_eq!(
            live.unsubscribe_target("b", adventurer(1), Via::Tool),
            Err(SubscribeError::NotSubscribed("ls://adventurer/1".into()))
        );
        live.unsubscribe_target("b", Target::Leaderboard, Via::Tool)
            .unwrap();
        assert_eq!(live.count(), MAX_PER_SESSION - 1);
    }

    #[test]
    fn a_watcher_sees_every_change_while_it_lives() {
        let live = Live::default();
        assert!(!live.active());
        let mut w = live.watch();
        assert!(live.active());
        live.publish(adventurer(7));
        live.publish(Target::Leaderboard);
        assert_eq!(w.changes.try_recv(), Ok(adventurer(7)));
        assert_eq!(w.changes.try_recv(), Ok(Target::Leaderboard));
        drop(w);
        assert!(!live.active(), "released when dropped");
    }
}
