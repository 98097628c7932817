//! The indexer crate's integration tests, one binary (`cargo test -p loot-survivor-indexer --test
//! it`): the Torii client (`torii_client`, `torii_events`, `torii_failures`) and the Denshokan API
//! client (`denshokan_client`), each against a local stand-in speaking the service's wire format.
//!
//! The stand-ins stay in the facade's `tests/it/` (`torii_support/`, `denshokan_support/`), where
//! the tool tests over the `mcp` layer use them too; this binary includes the same files.

// The binary links every dependency of the crate and names only those its tests use; the
// stand-ins' items are `pub` so each test module can import them, and a test binary exports
// nothing.
#![allow(unused_crate_dependencies, unreachable_pub)]

/// The crate under test by its layer's name, as the other crates and the facade's tests (and so
/// the shared stand-ins) write it: `indexer::torii`, `indexer::denshokan`.
extern crate loot_survivor_indexer as indexer;

#[path = "../../../../tests/it/denshokan_support/mod.rs"]
mod denshokan_support;
#[path = "../../../../tests/it/torii_support/mod.rs"]
mod torii_support;

mod denshokan_client;
mod torii_client;
mod torii_events;
mod torii_failures;
