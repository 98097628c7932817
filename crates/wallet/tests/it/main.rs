//! The wallet crate's integration tests, one binary (`cargo test -p loot-survivor-wallet --test
//! it`): our Controller session signatures against Cartridge's own signer (`session_oracle`, with
//! its Node script in `oracle/`).

// The binary links every dependency of the crate and names only those its tests use.
#![allow(unused_crate_dependencies)]

/// The crate under test by its layer's name, as the other crates write it: `wallet::session`.
extern crate loot_survivor_wallet as wallet;

mod session_oracle;
