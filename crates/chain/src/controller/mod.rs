//! The Cartridge Controller wing: everything that lets a player's Controller account play through a
//! session key the player approved. The write pipeline reaches it only through its seams: the
//! signer ([`crate::wallet_account::AccountSigner::Session`], a reloadable [`slot::SessionSlot`]
//! that checks its session on chain before signing) and the paymaster ([`cartridge`], which relays
//! SNIP-9 v3 outside executions, [`outside_v3`]). The session's policies for a deployment are
//! [`policies`]; what the chain says of a session (class, registration, revocation) is [`state`].
//! The parts that know no deployment are the `cartridge` crate's, re-exported here.

pub use ::cartridge::rpc as cartridge;
pub use ::cartridge::{outside_v3, state};
pub mod policies;
pub mod slot;
