//! Watching a game: what changed in this server's world (an adventurer, the leaderboard) fanned
//! out to the sessions that follow it, by MCP notification (`resources/subscribe` in the 2025
//! revisions, `subscriptions/listen` in 2026-07-28) or for collection by the subscription tools.
//! Every session's subscriptions live in one [`Live`] registry, bounded per session and released
//! when the session's transport closes.

mod handler;
mod index_feed;
mod poller;
mod registry;
mod target;
mod told;
mod tools;

pub use registry::{Live, MAX_PER_SESSION, SubscribeError, SubscriptionInfo, Via, Watcher};
pub use target::{LEADERBOARD_URI, Target};
pub use tools::SubscriptionsResult;

use rmcp::RoleServer;
use rmcp::service::RequestContext;

/// The session a request belongs to: its streamable-HTTP session id, else the one session of a
/// stdio (or in-memory) connection.
pub fn session_key(ctx: &RequestContext<RoleServer>) -> String {
    ctx.extensions
        .get::<axum::http::request::Parts>()
        .and_then(|p| p.headers.get("mcp-session-id"))
        .and_then(|v| v.to_str().ok())
        .map_or_else(|| "local".to_string(), |id| format!("http:{id}"))
}
