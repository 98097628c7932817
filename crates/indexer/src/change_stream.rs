//! An index's own stream of changes (the Denshokan API's WebSocket): what it pushes, typed, and
//! the two sides of following it, the stream that connects while something is followed and the
//! sink (the server's followers) it tells.

use std::sync::Arc;

use game::AdventurerId;

/// What kind of change an index pushed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeKind {
    /// A game's score changed.
    Score,
    /// A game ended.
    GameOver,
    /// A game was minted.
    Minted,
    /// More changes came at once than are told one by one: the leaderboard as a whole changed.
    Many,
}

/// One change an index pushed: its kind and, when the message names one, the game's token id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexChange {
    /// What changed.
    pub kind: ChangeKind,
    /// The game (token id) that changed, when the message names it.
    pub adventurer_id: Option<AdventurerId>,
}

/// Whom a change stream tells: the server's followers.
pub trait ChangeSink: Send + Sync {
    /// Whether anything is followed now (the stream is connected only then); `None` once the
    /// followers are gone for good (the stream ends).
    fn wanted(&self) -> Option<bool>;
    /// Tells the followers of one change.
    fn changed(&self, change: IndexChange);
}

/// An index's change stream; [`GameIndex::change_stream`](crate::GameIndex::change_stream) gives it.
#[async_trait::async_trait]
pub trait ChangeStream: Send + Sync {
    /// Follows the index for `sink`, one connection at a time and only while `sink` wants it,
    /// until `sink` is gone or the index does not speak the stream's protocol.
    async fn run(&self, sink: Arc<dyn ChangeSink>);
}
