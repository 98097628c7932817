//! The index's own changes beside the chain's feed: on the second generation the Denshokan API
//! pushes its tokens' changes over a WebSocket (`indexer::denshokan::DenshokanStream`), connected
//! only while something is followed. Each change tells the leaderboard's followers, and the
//! game's when the change names it; the API names no transaction, so nothing is de-duplicated
//! against the chain's feed (the API's copy comes once it has indexed the change, which is when
//! its leaderboard shows it).

use std::sync::{Arc, Weak};

use indexer::{ChangeSink, ChangeStream, IndexChange};

use super::{Live, Target};

/// The followers of one server, as the index's stream sees them.
struct Followers(Weak<Live>);

impl ChangeSink for Followers {
    fn wanted(&self) -> Option<bool> {
        self.0.upgrade().map(|live| live.active())
    }

    fn changed(&self, change: IndexChange) {
        let Some(live) = self.0.upgrade() else {
            return;
        };
        tracing::debug!(kind = ?change.kind, id = ?change.adventurer_id, "the index pushed a change");
        match change.adventurer_id {
            Some(id) => live.publish_tx(None, &[id]),
            None => live.publish(Target::Leaderboard),
        }
    }
}

/// Follows `stream` for `live` in a task of its own, until the server is gone or the index does
/// not speak the stream's protocol.
pub(crate) fn spawn(stream: Arc<dyn ChangeStream>, live: Weak<Live>) {
    tokio::spawn(async move { stream.run(Arc::new(Followers(live))).await });
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::AdventurerId;
    use indexer::ChangeKind;

    #[test]
    fn a_change_tells_the_leaderboard_and_the_game_it_names() {
        let live = Arc::new(Live::default());
        let followers = Followers(Arc::downgrade(&live));
        assert_eq!(followers.wanted(), Some(false));
        let mut w = live.watch();
        assert_eq!(followers.wanted(), Some(true));
        let id = AdventurerId::from(77u64);
        for _ in 0..2 {
            followers.changed(IndexChange {
                kind: ChangeKind::Score,
                adventurer_id: Some(id),
            });
        }
        followers.changed(IndexChange {
            kind: ChangeKind::Many,
            adventurer_id: None,
        });
        let told: Vec<Target> = std::iter::from_fn(|| w.changes.try_recv().ok()).collect();
        let once = [Target::Adventurer(id), Target::Leaderboard];
        assert_eq!(
            told,
            [&once[..], &once[..], &[Target::Leaderboard]].concat()
        );
        drop((w, live));
        assert_eq!(followers.wanted(), None, "gone with the server");
    }
}
