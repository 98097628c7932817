//! The MCP tool surface: parameters, descriptions, annotations and result envelopes, over a
//! [`GameBackend`].

mod advice_result;
mod advisor_tools;
mod arg_schema;
mod args;
mod backend;
mod bounded_map;
mod compact_result;
mod drain;
mod envelopes;
pub mod error;
mod errors;
mod existence;
mod game_tools;
pub mod http;
mod in_memory;
mod indexer;
mod indexer_types;
mod lifecycle;
pub mod live;
pub mod logging;
mod malformed;
mod params;
mod pending_chain;
pub mod present;
mod prompts;
mod replay;
pub mod resources;
mod revert_hints;
mod schema;
mod server;
pub mod sheet;
mod shown_memory;
pub mod stdio;
mod torii_tools;
pub mod transport;
mod transport_id;
mod tx_tools;
mod write;

pub use advice_result::{AdviceResult, AdviceTopic, AdviseArgs, advice_result};
pub use advisor_tools::{
    BattlePreviewResult, ExactOutcomes, Exactness, LookupArgs, LookupResult, lookup_result,
    preview_result,
};
pub use backend::GameBackend;
pub use compact_result::{
    CompactActionResult, CompactAdventurerResult, DETAIL_TOOLS, Detailed, WRITE_TOOLS,
};
pub use drain::Drain;
pub use envelopes::{ActionResult, AdventurerResult};
pub use errors::from_chain;
pub use in_memory::connect_in_memory;
pub use pending_chain::{Connect, PendingChain};
pub use present::compact::Detail;
pub use present::tool_call::{short_call, tool_call};
pub use schema::tool_definition;
pub use server::{LsServer, ServerOptions};
pub use torii_tools::{
    AdventurerListResult, DEFAULT_LIMIT, GameEventsResult, IndexerInfo, LeaderboardResult,
    MAX_LIMIT,
};
