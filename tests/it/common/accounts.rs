//! Plain starknet-rs accounts on devnet, for tests that call contracts without the server: a
//! predeployed account, read-only calls, and a send that waits for a successful receipt.

use std::sync::Arc;
use std::time::Duration;

use starknet::accounts::{Account, ConnectedAccount, ExecutionEncoding, SingleOwnerAccount};
use starknet::core::types::{
    BlockId, BlockTag, Call, ExecutionResult, Felt, FunctionCall, TransactionReceipt,
};
use starknet::providers::jsonrpc::{HttpTransport, JsonRpcClient};
use starknet::providers::{Provider, ProviderError};
use starknet::signers::{LocalWallet, SigningKey};

/// A JSON-RPC client over HTTP.
pub type Rpc = Arc<JsonRpcClient<HttpTransport>>;
/// A devnet account signing with its local key.
pub type DevAccount = SingleOwnerAccount<Rpc, LocalWallet>;

/// The account at `address` (hex) signing with `key` (hex), reading at the pre-confirmed block.
pub fn dev_account(provider: &Rpc, chain_id: Felt, address: &str, key: &str) -> DevAccount {
    let mut account = SingleOwnerAccount::new(
        provider.clone(),
        LocalWallet::from(SigningKey::from_secret_scalar(Felt::from_hex(key).unwrap())),
        Felt::from_hex(address).unwrap(),
        chain_id,
        ExecutionEncoding::New,
    );
    account.set_block_id(BlockId::Tag(BlockTag::PreConfirmed));
    account
}

/// A read-only call at the pre-confirmed block.
pub async fn view(provider: &JsonRpcClient<HttpTransport>, call: Call) -> Vec<Felt> {
    provider
        .call(
            FunctionCall {
                contract_address: call.to,
                entry_point_selector: call.selector,
                calldata: call.calldata,
            },
            BlockId::Tag(BlockTag::PreConfirmed),
        )
        .await
        .unwrap()
}

/// Sends `calls` from `from`, waits for the receipt and checks the transaction succeeded.
pub async fn send(from: &DevAccount, calls: Vec<Call>) -> TransactionReceipt {
    let sent = from.execute_v3(calls).send().await.unwrap();
    for _ in 0..200 {
        match from
            .provider()
            .get_transaction_receipt(sent.transaction_hash)
            .await
        {
            Ok(r) => {
                assert!(
                    matches!(r.receipt.execution_result(), ExecutionResult::Succeeded),
                    "{:?}",
                    r.receipt.execution_result()
                );
                return r.receipt;
            }
            Err(ProviderError::StarknetError(_)) => {
                tokio::time::sleep(Duration::from_millis(50)).await
            }
            Err(e) => panic!("{e}"),
        }
    }
    panic!("no receipt");
}
