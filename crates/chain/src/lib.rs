//! Starknet I/O: the provider, the generated bindings, transaction submission and receipts, and
//! the decoding of receipt events into game events.

mod abi_refusal;
pub mod archive;
pub mod bindings;
mod client;
pub mod controller;
mod convert;
pub mod entry;
mod error;
pub mod follow;
pub mod gate;
pub mod generation;
mod identity;
pub mod journal;
pub mod ledger;
pub mod manifest;
mod new_game;
pub mod node;
pub mod outside;
pub mod paymaster;
mod progress;
pub mod retry;
pub mod revert;
mod signing;
mod status;
mod submit;
pub mod subscribe;
pub mod token_id;
/// The syntax of Cairo ABI type names (generic arguments, tuple members), shared by the binding
/// generator and the ABI check.
pub mod type_syntax;
pub mod vrf;
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
pub use gate::{AbiGate, AbiRecheck, AbiRefusal, AbiUnchecked};
pub use generation::{Deployment, Generation, SaltRecipe, V2Contracts, VrfSource};
pub use manifest::GameAddresses;
pub use new_game::MintedGame;
pub use progress::{Hooks, Progress};
pub use signing::SigningError;
pub use status::Confirm;
pub use status::{Execution, TxStatus};
pub use submit::wait_until_accepted;
pub use subscribe::Follow;
