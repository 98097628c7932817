//! Starknet I/O: the provider, the generated bindings, transaction submission and receipts, and
//! the decoding of receipt events into game events. The journal and the Cartridge Controller's
//! deployment-agnostic parts are crates below this one, re-exported under their old paths
//! (`chain::journal`, `chain::ledger`, `chain::outside`, `chain::paymaster`, `chain::revert`,
//! `chain::controller::{cartridge, outside_v3, state}`).

mod abi_refusal;
pub mod archive;
pub mod bindings;
mod client;
pub mod controller;
mod convert;
pub mod entry;
mod error;
mod failure;
pub mod feed;
pub mod follow;
pub mod gate;
pub mod generation;
mod identity;
pub mod manifest;
mod new_game;
pub mod node;
mod progress;
pub mod retry;
mod signing;
mod submit;
pub mod subscribe;
pub mod token_id;
/// The syntax of Cairo ABI type names (generic arguments, tuple members), shared by the binding
/// generator and the ABI check.
pub mod type_syntax;
pub mod vrf;
pub mod wallet_account;

pub use cartridge::{CartridgeError, outside, paymaster, revert};
pub use journal;
pub use journal::{Confirm, Execution, TxStatus, ledger};

pub use archive::{Archive, ArchivedEntry};
pub use base::redact::Redacted;
pub use client::{
    ChainClient, ChainReader, ConnectOptions, TokenBalance, TxLookup, TxReport, WalletReport,
    WriteOptions,
};
pub use controller::slot::SessionReport;
pub use convert::v1_id;
pub use error::ChainError;
pub use failure::{BadAnswer, Misconfigured, NetworkMismatch, RpcFailure, Unservable};
pub use feed::{Change, ChangeFeed};
pub use gate::{AbiGate, AbiRecheck, AbiRefusal, AbiUnchecked};
pub use generation::{Deployment, Generation, SaltRecipe, V2Contracts, VrfSource};
pub use manifest::GameAddresses;
pub use new_game::MintedGame;
pub use progress::{Hooks, Progress};
pub use signing::SigningError;
pub use submit::wait_until_accepted;
pub use subscribe::Follow;
