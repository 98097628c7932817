//! The plain starknet-rs client the server is measured against.

use std::sync::Arc;
use std::time::Duration;

use starknet::accounts::{Account, ExecutionEncoding, SingleOwnerAccount};
use starknet::core::types::{
    BlockId, BlockTag, Call, ExecutionResult, Felt, TransactionReceiptWithBlockInfo,
};
use starknet::providers::jsonrpc::{HttpTransport, JsonRpcClient};
use starknet::providers::{Provider, ProviderError};
use starknet::signers::{LocalWallet, SigningKey};

use crate::policy::Rpc;

/// A plain starknet-rs client: a local nonce, the fee estimate inside `send()` (zero tip, as
/// ours), then `getTransactionReceipt` until it is there (100 ms apart).
pub(crate) struct Plain {
    provider: Rpc,
    pub(crate) account: SingleOwnerAccount<Rpc, LocalWallet>,
    pub(crate) nonce: Felt,
}

impl Plain {
    pub(crate) async fn new(rpc: &url::Url, (address, key): (Felt, Felt)) -> Self {
        let provider: Rpc = Arc::new(JsonRpcClient::new(HttpTransport::new(rpc.clone())));
        let signer = LocalWallet::from(SigningKey::from_secret_scalar(key));
        let chain_id = provider.chain_id().await.unwrap();
        let account = SingleOwnerAccount::new(
            provider.clone(),
            signer,
            address,
            chain_id,
            ExecutionEncoding::New,
        );
        let nonce = provider
            .get_nonce(BlockId::Tag(BlockTag::PreConfirmed), address)
            .await
            .unwrap();
        Self {
            provider,
            account,
            nonce,
        }
    }

    pub(crate) async fn send(&mut self, calls: Vec<Call>) -> TransactionReceiptWithBlockInfo {
        let hash = self
            .account
            .execute_v3(calls)
            .nonce(self.nonce)
            .tip(0)
            .send()
            .await
            .unwrap()
            .transaction_hash;
        self.nonce += Felt::ONE;
        self.receipt(hash).await
    }

    /// Polls `getTransactionReceipt` until the transaction is there; it must have succeeded.
    pub(crate) async fn receipt(&self, hash: Felt) -> TransactionReceiptWithBlockInfo {
        loop {
            match self.provider.get_transaction_receipt(hash).await {
                Ok(r) => {
                    assert!(matches!(
                        r.receipt.execution_result(),
                        ExecutionResult::Succeeded
                    ));
                    return r;
                }
                Err(ProviderError::StarknetError(_)) => {}
                Err(e) => panic!("receipt: {e}"),
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}
