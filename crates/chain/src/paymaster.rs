//! The paymaster seam: who relays a signed outside execution and pays for it. The Cartridge
//! paymaster (`cartridge_addExecuteOutsideTransaction` on a Cartridge RPC) is the one in use; the
//! write pipeline's unit tests relay through scripted ones.

use starknet::core::types::Felt;

use crate::ChainError;
use crate::cartridge;
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

impl OutsideRequest<'_> {
    /// The JSON-RPC request that submits it (`id` 1).
    pub fn body(&self) -> serde_json::Value {
        match *self {
            OutsideRequest::V2(signed) => cartridge::request_body(signed, 1),
            OutsideRequest::V3 {
                account,
                execution,
                signature,
            } => cartridge::request_body_v3(account, execution, signature, 1),
        }
    }
}

/// Relays signed outside executions.
#[async_trait::async_trait]
pub trait Paymaster: Send + Sync {
    /// Submits `request` and returns the hash of the transaction that carries it; no sponsor is
    /// [`ChainError::Unsponsored`], no paymaster at all [`ChainError::NoPaymaster`].
    async fn submit(&self, request: OutsideRequest<'_>) -> Result<Felt, ChainError>;
}

/// The Cartridge paymaster at a Cartridge RPC URL.
#[derive(Debug, Clone)]
pub struct CartridgePaymaster {
    http: reqwest::Client,
    url: url::Url,
}

impl CartridgePaymaster {
    /// The paymaster at `url`, reached with `http`.
    pub fn new(http: reqwest::Client, url: url::Url) -> Self {
        Self { http, url }
    }
}

#[async_trait::async_trait]
impl Paymaster for CartridgePaymaster {
    async fn submit(&self, request: OutsideRequest<'_>) -> Result<Felt, ChainError> {
        cartridge::post(&self.http, &self.url, &request.body()).await
    }
}
