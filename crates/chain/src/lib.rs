//! Starknet I/O: the provider, the generated bindings, transaction submission and receipts, and
//! the decoding of receipt events into game events.

pub mod archive;
pub mod bindings;
pub mod check;
mod client;
pub mod controller;
mod convert;
pub mod deploy;
pub mod deploy_dungeon;
pub mod deploy_target;
pub mod deploy_v2;
pub mod entry;
mod error;
pub mod follow;
pub mod generation;
mod identity;
pub mod journal;
pub mod ledger;
pub mod manifest;
mod new_game;
pub mod node;
pub mod outside;
pub mod paymaster;
pub mod retry;
pub mod revert;
mod status;
mod submit;
pub mod subscribe;
pub mod token_id;
pub mod vrf;
pub mod vrf_rule;
pub mod wallet_account;
pub mod write_behind;

pub use archive::{Archive, ArchivedEntry};
pub use client::{
    ChainClient, ChainReader, ConnectOptions, TokenBalance, TxLookup, TxReport, WalletReport,
    WriteOptions,
};
pub use controller::slot::SessionReport;
pub use convert::v1_id;
pub use error::{ChainError, Redacted};
pub use generation::{Deployment, Generation, SaltRecipe, V2Contracts, VrfSource};
pub use manifest::GameAddresses;
pub use new_game::MintedGame;
pub use status::{Execution, TxStatus};
pub use submit::{Confirm, Hooks, Progress};
pub use subscribe::Follow;
