//! The Cartridge Controller's deployment-agnostic parts: SNIP-9 outside executions (v2 signed by
//! an account's key, [`outside`]; v3 signed by a Controller session, [`outside_v3`]), the
//! paymaster seam that relays them ([`paymaster`]) and Cartridge's JSON-RPC for it ([`rpc`]),
//! what the chain says of a session ([`state`]), and the decoding of a refusal's words into a
//! revert ([`revert`]), which the paymaster's answers need as much as the node's. Its failures are
//! [`CartridgeError`]; the chain layer wraps them.

mod error;
pub mod outside;
pub mod outside_v3;
pub mod paymaster;
mod problem;
pub mod revert;
pub mod rpc;
pub mod state;

pub use error::CartridgeError;
