//! The MCP tool surface: parameters, descriptions, annotations and result envelopes, over a
//! [`GameBackend`].

mod advice_result;
mod advisor_tools;
mod args;
mod backend;
mod errors;
mod params;
mod replay;
mod server;
mod torii_tools;

pub use advice_result::{AdviceResult, AdviceTopic, AdviseArgs, advice_result};
pub use advisor_tools::{
    BattlePreviewResult, ExactOutcomes, Exactness, LookupArgs, LookupResult, lookup_result,
    preview_result,
};
pub use backend::GameBackend;
pub use errors::from_chain;
pub use server::{ActionResult, AdventurerResult, LsServer, ServerOptions};
pub use torii_tools::{
    AdventurerListResult, DEFAULT_LIMIT, GameEventsResult, IndexerInfo, LeaderboardResult,
    MAX_LIMIT,
};
