//! Reading a deployed class for the ABI check: what the check asks the node ([`ClassSource`]),
//! and a class's ABI, verified to be the class its hash names before it is compared or kept.

use std::path::Path;
use std::time::Duration;

use starknet::core::types::contract::AbiEntry;
use starknet::core::types::{
    BlockId, BlockTag, ContractClass, Felt, FlattenedSierraClass, StarknetError,
};
use starknet::providers::jsonrpc::{JsonRpcClient, JsonRpcTransport};
use starknet::providers::{Provider, ProviderError};

use chain::ChainError;
use chain::retry::read_with_retries;

use crate::CheckError;
use crate::abi::Abi;
use crate::cache::{self, CachedClass};

/// Why a class could not be read.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ClassError {
    /// No contract is deployed at the address.
    #[error("no contract is deployed at this address")]
    NotDeployed,
    /// The node did not answer.
    #[error("{0}")]
    Unreachable(String),
    /// The class the node sent does not hash to the class hash it gave for the address: the
    /// node's answer is not the deployed class.
    #[error("the class the node sent hashes to {computed:#x}, not to the class hash it gave")]
    NotItsHash {
        /// The hash of the class that was sent.
        computed: Felt,
    },
    /// The class's ABI is not one that can be compared.
    #[error("{0}")]
    Unreadable(String),
}

/// What the check asks the node (classes, the chain id, a view): any starknet-rs JSON-RPC
/// client, or a stand-in.
#[async_trait::async_trait]
pub trait ClassSource: Send + Sync {
    /// `starknet_getClassHashAt`.
    async fn class_hash_at(&self, address: Felt) -> Result<Felt, ClassError>;
    /// `starknet_getClassAt`.
    async fn class_at(&self, address: Felt) -> Result<ContractClass, ClassError>;
    /// `starknet_chainId`.
    async fn chain_id(&self) -> Result<Felt, ClassError>;
    /// `starknet_call` of a view.
    async fn call(
        &self,
        address: Felt,
        selector: Felt,
        calldata: Vec<Felt>,
    ) -> Result<Vec<Felt>, ClassError>;
}

/// Reads through starknet-rs, transient failures retried as every read of the chain client is.
#[async_trait::async_trait]
impl<T: JsonRpcTransport + Send + Sync + 'static> ClassSource for JsonRpcClient<T> {
    async fn class_hash_at(&self, address: Felt) -> Result<Felt, ClassError> {
        read_with_retries(|| Provider::get_class_hash_at(self, PRE_CONFIRMED, address))
            .await
            .map_err(class_error)
    }

    async fn class_at(&self, address: Felt) -> Result<ContractClass, ClassError> {
        read_with_retries(|| Provider::get_class_at(self, PRE_CONFIRMED, address))
            .await
            .map_err(class_error)
    }

    async fn chain_id(&self) -> Result<Felt, ClassError> {
        read_with_retries(|| Provider::chain_id(self))
            .await
            .map_err(class_error)
    }

    async fn call(
        &self,
        address: Felt,
        selector: Felt,
        calldata: Vec<Felt>,
    ) -> Result<Vec<Felt>, ClassError> {
        let request = starknet::core::types::FunctionCall {
            contract_address: address,
            entry_point_selector: selector,
            calldata,
        };
        read_with_retries(|| Provider::call(self, request.clone(), PRE_CONFIRMED))
            .await
            .map_err(class_error)
    }
}

const PRE_CONFIRMED: BlockId = BlockId::Tag(BlockTag::PreConfirmed);

fn class_error(e: ProviderError) -> ClassError {
    match e {
        ProviderError::StarknetError(StarknetError::ContractNotFound) => ClassError::NotDeployed,
        e => ClassError::Unreachable(ChainError::from_provider(e).to_string()),
    }
}

/// The node at `rpc_url` (no account, no chain id check), whose requests give up after `timeout`:
/// a class source for the ABI check and a provider for the VRF rule.
pub fn rpc(
    rpc_url: url::Url,
    timeout: Duration,
) -> Result<JsonRpcClient<starknet::providers::jsonrpc::HttpTransport>, CheckError> {
    let http = reqwest::Client::builder()
        .timeout(timeout)
        .build()
        .map_err(CheckError::HttpClient)?;
    let transport = starknet::providers::jsonrpc::HttpTransport::new_with_client(rpc_url, http);
    Ok(JsonRpcClient::new(transport))
}

/// A deployed ABI as the check reads it: `Ok(None)` for a legacy class, `Err` (why) for one that
/// does not parse.
pub(crate) type DeployedAbi = Result<Option<Abi>, String>;

/// The class at `address` (hash `class_hash`): its Sierra ABI, or `None` for a legacy class,
/// and whether it came from the cache. A Sierra class is kept only once it hashes to
/// `class_hash`, and its ABI is parsed before it is kept, so a kept file is one that was read.
pub(crate) async fn deployed_abi(
    source: &dyn ClassSource,
    address: Felt,
    class_hash: Felt,
    cache: Option<&Path>,
) -> Result<(DeployedAbi, bool), ClassError> {
    let parse = |abi: Option<&serde_json::Value>| abi.map(Abi::parse).transpose();
    if let Some(kept) = cache.and_then(|dir| cache::load(dir, class_hash)) {
        return Ok((parse(kept.abi.as_ref()), true));
    }
    let abi = match source.class_at(address).await? {
        ContractClass::Sierra(c) => {
            is_its_class(&c, class_hash)?;
            Some(
                serde_json::from_str::<serde_json::Value>(&c.abi).map_err(|e| {
                    ClassError::Unreadable(format!("the class's ABI is not JSON: {e}"))
                })?,
            )
        }
        ContractClass::Legacy(_) => None,
    };
    let parsed = parse(abi.as_ref());
    if let (Some(dir), Ok(_)) = (cache, &parsed) {
        cache::store(
            dir,
            &CachedClass {
                class_hash,
                abi: abi.clone(),
            },
        );
    }
    Ok((parsed, false))
}

/// Whether `class` is the class `class_hash` names. A node may send the ABI re-serialized
/// (starknet-devnet 0.10.1 sends it compact, while the declared string, which the hash covers,
/// has Python's separators: seen here), so a class that does not hash as sent is hashed again
/// with its ABI written as declaring tools write it (starknet-rs's `SierraClass::flatten`).
pub(crate) fn is_its_class(
    class: &FlattenedSierraClass,
    class_hash: Felt,
) -> Result<(), ClassError> {
    let computed = class.class_hash();
    if computed == class_hash {
        return Ok(());
    }
    let declared = serde_json::from_str::<Vec<AbiEntry>>(&class.abi)
        .ok()
        .and_then(|entries| serde_json_pythonic::to_string_pythonic(&entries).ok());
    if let Some(abi) = declared {
        let rewritten = FlattenedSierraClass {
            abi,
            ..class.clone()
        };
        if rewritten.class_hash() == class_hash {
            return Ok(());
        }
    }
    Err(ClassError::NotItsHash { computed })
}
