//! Torii, the Dojo indexer: leaderboard, an owner's games and an adventurer's event history.
//!
//! GraphQL (`POST /graphql`) is used where it can answer: the packed adventurer model of a set of
//! ids, paged with Torii's cursors. SQL (`GET /sql?query=`) is used only where GraphQL cannot, as
//! the official client does: the leaderboard and an owner's games join several game-token models
//! (score, owner, player name, game registry), and the event history lives in the historical
//! event-message table (the GraphQL model root keeps only the latest event per adventurer).
//! Queries are kept in `queries/` and their placeholders are filled only with values the client
//! formats itself (numbers, padded hex, validated namespaces).

mod adventurers;
mod cache;
mod client;
pub mod cursor;
mod error;
pub mod event_json;
mod events;
mod head;
mod known;
mod leaderboard;
pub mod namespace;
pub mod values;

pub use adventurers::{OwnedGame, OwnedGamesPage, PACKED_PAGE, PackedAdventurers};
pub use cache::{Cached, TtlCache};
pub use client::{ToriiClient, ToriiOptions};
pub(crate) use client::{endpoint, snippet};
pub use cursor::PageCursor;
pub use error::ToriiError;
pub use events::{EventsFrom, EventsPage, KeyFormat};
pub use head::IndexerHead;
pub use known::KnownIds;
pub use leaderboard::{LeaderboardFetch, LeaderboardPage, LeaderboardQuery, LeaderboardRow, Scope};
