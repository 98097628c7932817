//! The first-contact checks of loot-survivor-mcp, run against a node before anything is signed:
//! the ABI check of a deployment's contracts against our bindings ([`contracts`]), which fills
//! the chain client's write gate, and the VRF rule of a v2 deployment read off its own
//! transactions ([`vrf_rule`]). They sit above the chain layer: they read through it and hand it
//! what they found.

pub mod abi;
mod cache;
mod classes;
pub mod contracts;
mod error;
pub mod probe;
mod recheck;
pub mod report;
pub mod vrf_rule;

pub use classes::{ClassError, ClassSource, rpc};
pub use contracts::{AbiCheck, ContractCheck, Outcome, check_abi, node_section};
pub use error::CheckError;
pub use recheck::Recheck;
pub use report::{Check, Difference, Report, Section, Status};
pub use vrf_rule::read_vrf_rule;

use starknet::core::types::Felt;

/// A chain id as its short string (`SN_MAIN`), else in hex.
fn short_string(f: Felt) -> String {
    starknet::core::utils::parse_cairo_short_string(&f).unwrap_or_else(|_| format!("{f:#x}"))
}
