//! The chain crate's integration tests, one binary (`cargo test -p loot-survivor-chain --test it`):
//! the request the Cartridge paymaster is sent and the mapping of its answers (`cartridge_http`,
//! against a local HTTP server), and the generated bindings checked against the practice world's
//! and, when `LS_MAINNET_MANIFEST` names it, mainnet's interface (`interface`).

// The binary links every dependency of the crate and names only those its tests use; the HTTP
// server it shares with the facade's tests has `pub` items, and a test binary exports nothing.
#![allow(unused_crate_dependencies, unreachable_pub)]

/// The crate under test by its layer's name, as the other crates write it: `chain::outside`.
extern crate loot_survivor_chain as chain;

mod cartridge_http;
mod interface;
