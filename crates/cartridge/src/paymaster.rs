//! The paymaster seam: who relays a signed outside execution and pays for it. The Cartridge
//! paymaster ([`crate::rpc::CartridgePaymaster`]) is the one in use; the chain's write pipeline's
//! unit tests relay through scripted ones.

use starknet::core::types::Felt;

use crate::CartridgeError;
use crate::outside::SignedOutsideExecution;
use crate::outside_v3::OutsideExecutionV3;

/// A signed outside execution, in the SNIP-9 version its signer speaks.
#[derive(Debug, Clone, Copy)]
pub enum OutsideRequest<'a> {
    /// SNIP-9 v2, signed by the account's own key.
    V2(&'a SignedOutsideExecution),
    /// SNIP-9 v3, signed by a Controller session.
    V3 {
        /// The Controller account.
        account: Felt,
        /// The execution.
        execution: &'a OutsideExecutionV3,
        /// The session's signature of it.
        signature: &'a [Felt],
    },
}

/// Relays signed outside executions.
#[async_trait::async_trait]
pub trait Paymaster: Send + Sync {
    /// Submits `request` and returns the hash of the transaction that carries it; no sponsor is
    /// [`CartridgeError::Unsponsored`], no paymaster at all [`CartridgeError::NoPaymaster`].
    async fn submit(&self, request: OutsideRequest<'_>) -> Result<Felt, CartridgeError>;
}
