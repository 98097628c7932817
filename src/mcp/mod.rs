//! The MCP tool surface: parameters, descriptions, annotations and result envelopes, over a
//! [`GameBackend`].

mod advisor_tools;
mod args;
mod backend;
mod compact_result;
mod errors;
mod market_memory;
mod params;
mod replay;
mod schema;
mod server;
mod torii_tools;

pub use advisor_tools::{
    BattlePreviewResult, ExactOutcomes, LookupArgs, LookupResult, lookup_result, preview_result,
};
pub use backend::GameBackend;
pub use compact_result::{
    CompactActionResult, CompactAdventurerResult, DETAIL_TOOLS, Detailed, MARKET_UNCHANGED,
};
pub use errors::from_chain;
pub use server::{ActionResult, AdventurerResult, LsServer, ServerOptions};
pub use torii_tools::{
    AdventurerListResult, DEFAULT_LIMIT, GameEventsResult, IndexerInfo, LeaderboardResult,
    MAX_LIMIT,
};
