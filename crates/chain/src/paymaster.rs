//! The paymaster seam: who relays a signed outside execution and pays for it. The Cartridge
//! paymaster ([`crate::controller::cartridge::CartridgePaymaster`]) is the one in use; the write
//! pipeline's unit tests relay through scripted ones.

use starknet::core::types::Felt;

use crate::ChainError;
use crate::controller::outside_v3::OutsideExecutionV3;
use crate::outside::SignedOutsideExecution;

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
    /// [`ChainError::Unsponsored`], no paymaster at all [`ChainError::NoPaymaster`].
    async fn submit(&self, request: OutsideRequest<'_>) -> Result<Felt, ChainError>;
}
