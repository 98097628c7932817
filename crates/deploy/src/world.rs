//! Declares and deploys the practice world on any Starknet node (starknet-devnet, katana, a
//! testnet) and writes a Dojo-format manifest with the deployed addresses. Idempotent: a class
//! already declared or a contract already deployed at its deterministic address is reused.
//! The node's UDC and compiled-class-hash function come from a [`DeployTarget`] (per profile).

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use chain::ChainError;
use chain::node::NodeTransport;
use chain::revert::NodeRefusal;
use game::felt::parse_felt;
use serde_json::{Value, json};
use starknet::accounts::{Account, ConnectedAccount, ExecutionEncoding, SingleOwnerAccount};
use starknet::contract::{ContractFactory, UdcSelector};
use starknet::core::types::contract::SierraClass;
use starknet::core::types::{BlockId, BlockTag, Felt, StarknetError};
use starknet::providers::jsonrpc::{HttpTransport, JsonRpcClient};
use starknet::providers::{Provider, ProviderError};
use wallet::SecretSigner;

use crate::DeployError;
use crate::dungeon::deploy_practice_dungeon;
use crate::target::{CasmHash, DeployTarget};

/// The deployer's JSON-RPC client: HTTP to the node, through chain's node transport.
type Rpc = Arc<JsonRpcClient<NodeTransport>>;

/// Salt of the practice world's UDC deployment ('ls_practice_world'), fixed so the address is
/// the same on every fresh devnet.
const SALT: Felt = Felt::from_hex_unchecked("0x6c735f70726163746963655f776f726c64");

/// The committed build outputs of `scripts/build-contracts.sh`, compiled into the binary so that
/// `devnet deploy` works from any directory (an installed or copied binary has no source tree).
#[derive(Debug, Clone)]
pub struct Artifacts {
    /// Sierra class JSON.
    pub sierra: &'static str,
    /// One-line file with the Blake2s compiled (CASM) class hash (Starknet >= 0.14.1, devnet).
    pub compiled_class_hash: &'static str,
    /// One-line file with the Poseidon compiled class hash (Starknet < 0.14.1, katana).
    pub compiled_class_hash_poseidon: &'static str,
    /// Dojo manifest template (ABIs and tags, no addresses).
    pub template: &'static str,
}

impl Artifacts {
    /// The artifacts embedded from `abi/` at build time.
    pub fn embedded() -> Self {
        Self {
            sierra: include_str!("../../../abi/practice_world.sierra.json"),
            compiled_class_hash: include_str!("../../../abi/practice_world.compiled_class_hash"),
            compiled_class_hash_poseidon: include_str!(
                "../../../abi/practice_world.compiled_class_hash.poseidon"
            ),
            template: include_str!("../../../abi/practice_world.json"),
        }
    }

    /// The compiled class hash computed with `function`.
    pub fn casm_hash(&self, function: CasmHash) -> Result<Felt, DeployError> {
        let text = match function {
            CasmHash::Blake2s => self.compiled_class_hash,
            CasmHash::Poseidon => self.compiled_class_hash_poseidon,
        };
        parse_felt(text.trim()).map_err(|reason| DeployError::CasmHash { function, reason })
    }
}

/// Where the world ended up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deployed {
    /// Sierra class hash.
    pub class_hash: Felt,
    /// Contract address (every system tag points here).
    pub address: Felt,
    /// Whether this run declared the class.
    pub declared_now: bool,
    /// Whether this run deployed the contract.
    pub deployed_now: bool,
    /// The UDC and hash function used.
    pub target: DeployTarget,
}

/// Declares (if needed) and deploys (if needed) the practice world through `target`'s UDC, then
/// writes the manifest.
pub async fn deploy_practice_world(
    rpc_url: url::Url,
    account_address: Felt,
    signer: Arc<SecretSigner>,
    artifacts: &Artifacts,
    target: DeployTarget,
    manifest_out: &Path,
) -> Result<Deployed, DeployError> {
    let account = deployer(rpc_url, account_address, signer).await?;
    let provider = account.provider().clone();

    let sierra: SierraClass = serde_json::from_str(artifacts.sierra)
        .map_err(|e| ChainError::json("the practice world's Sierra class", e))?;
    let flat = sierra.flatten().map_err(|source| DeployError::Flatten {
        class: "the Sierra class",
        source,
    })?;
    let class_hash = flat.class_hash();
    let casm_hash = artifacts.casm_hash(target.casm_hash)?;
    require_udc(&provider, target.udc).await?;

    let declared_now = match provider
        .get_class(BlockId::Tag(BlockTag::PreConfirmed), class_hash)
        .await
    {
        Ok(_) => false,
        Err(ProviderError::StarknetError(StarknetError::ClassHashNotFound)) => {
            let sent = account
                .declare_v3(Arc::new(flat), casm_hash)
                .send()
                .await
                .map_err(|e| declare_error(e, target.casm_hash))?;
            wait(&provider, sent.transaction_hash).await?;
            tracing::info!(class_hash = %format!("{class_hash:#x}"), "practice world declared");
            true
        }
        Err(e) => return Err(ChainError::from_provider(e).into()),
    };

    let factory =
        ContractFactory::new_with_udc(class_hash, &account, UdcSelector::Custom(target.udc));
    let deployment = factory.deploy_v3(vec![], SALT, false);
    let address = deployment.deployed_address();
    let deployed_now = match provider
        .get_class_hash_at(BlockId::Tag(BlockTag::PreConfirmed), address)
        .await
    {
        Ok(existing) if existing == class_hash => false,
        Ok(other) => {
            return Err(DeployError::OtherClass { address, other });
        }
        Err(ProviderError::StarknetError(StarknetError::ContractNotFound)) => {
            let sent = deployment.send().await.map_err(ChainError::from_account)?;
            wait(&provider, sent.transaction_hash).await?;
            tracing::info!(address = %format!("{address:#x}"), "practice world deployed");
            true
        }
        Err(e) => return Err(ChainError::from_provider(e).into()),
    };

    let template: Value = serde_json::from_str(artifacts.template)
        .map_err(|e| ChainError::json("the practice world's manifest template", e))?;
    let mut manifest = fill_manifest(template, class_hash, address);
    deploy_practice_dungeon(&account, address, target, &mut manifest).await?;
    if let Some(dir) = manifest_out.parent() {
        std::fs::create_dir_all(dir).map_err(|e| ChainError::io(dir.display().to_string(), e))?;
    }
    let text = serde_json::to_string_pretty(&manifest).expect("a JSON value serializes");
    std::fs::write(manifest_out, text + "\n")
        .map_err(|e| ChainError::io(manifest_out.display().to_string(), e))?;
    Ok(Deployed {
        class_hash,
        address,
        declared_now,
        deployed_now,
        target,
    })
}

/// The account that declares and deploys, on the node at `rpc_url` (its chain id asked from the
/// node), reading at the pre-confirmed block so one deployment step sees the previous one.
pub(crate) async fn deployer(
    rpc_url: url::Url,
    account_address: Felt,
    signer: Arc<SecretSigner>,
) -> Result<SingleOwnerAccount<Rpc, Arc<SecretSigner>>, DeployError> {
    let provider = provider(rpc_url, Duration::from_secs(60))?;
    let chain_id = provider
        .chain_id()
        .await
        .map_err(ChainError::from_provider)?;
    let mut account = SingleOwnerAccount::new(
        provider,
        signer,
        account_address,
        chain_id,
        ExecutionEncoding::New,
    );
    account.set_block_id(BlockId::Tag(BlockTag::PreConfirmed));
    Ok(account)
}

/// A JSON-RPC provider with a request timeout (starknet-rs's default client has none).
fn provider(url: url::Url, timeout: Duration) -> Result<Rpc, DeployError> {
    let http = reqwest::Client::builder()
        .timeout(timeout)
        .build()
        .map_err(DeployError::HttpClient)?;
    Ok(Arc::new(JsonRpcClient::new(NodeTransport::Http(
        HttpTransport::new_with_client(url, http),
    ))))
}

/// Fails with a clear message when nothing is deployed at the UDC address (a node that does not
/// predeploy that UDC, e.g. katana 1.7 and the new UDC).
pub(crate) async fn require_udc<P: Provider + Sync>(
    provider: &P,
    udc: Felt,
) -> Result<(), DeployError> {
    match provider
        .get_class_hash_at(BlockId::Tag(BlockTag::PreConfirmed), udc)
        .await
    {
        Ok(_) => Ok(()),
        Err(ProviderError::StarknetError(StarknetError::ContractNotFound)) => {
            Err(DeployError::NoUdc { udc })
        }
        Err(e) => Err(ChainError::from_provider(e).into()),
    }
}

/// Fills the template's world and every contract with the deployed class hash and address.
pub fn fill_manifest(mut template: Value, class_hash: Felt, address: Felt) -> Value {
    let class_hex = class_hash.to_fixed_hex_string();
    let addr_hex = address.to_fixed_hex_string();
    template["world"]["class_hash"] = json!(class_hex);
    template["world"]["address"] = json!(addr_hex);
    if let Some(contracts) = template["contracts"].as_array_mut() {
        for c in contracts {
            c["class_hash"] = json!(class_hex);
            c["address"] = json!(addr_hex);
        }
    }
    template
}

/// Waits until `hash` is accepted on L2 (deploy steps, polled).
pub(crate) async fn wait<P: Provider + Sync>(provider: &P, hash: Felt) -> Result<(), ChainError> {
    chain::wait_until_accepted(
        provider,
        hash,
        Duration::from_secs(120),
        Duration::from_millis(200),
    )
    .await
}

/// A declare error; a compiled-class-hash mismatch says which setting picks the function.
fn declare_error<S: std::error::Error + Send + Sync + 'static>(
    e: starknet::accounts::AccountError<S>,
    function: CasmHash,
) -> DeployError {
    // A node reports it as `CompiledClassHashMismatch` at submission, or (starknet-devnet 0.10.1)
    // as an execution error "Mismatch compiled class hash …" at fee estimation.
    let e = ChainError::from_account(e);
    if e.node_refusal() == Some(NodeRefusal::ClassHashMismatch) {
        return DeployError::CasmHashMismatch {
            sent: function,
            source: e,
        };
    }
    e.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_artifacts_parse() {
        let a = Artifacts::embedded();
        let sierra: SierraClass = serde_json::from_str(a.sierra).unwrap();
        assert!(sierra.flatten().is_ok());
        let blake = a.casm_hash(CasmHash::Blake2s).unwrap();
        let poseidon = a.casm_hash(CasmHash::Poseidon).unwrap();
        assert_ne!(
            blake, poseidon,
            "the two hash functions give different hashes"
        );
        let t: Value = serde_json::from_str(a.template).unwrap();
        assert!(t["contracts"].as_array().is_some_and(|c| !c.is_empty()));
    }

    #[test]
    fn manifest_gets_addresses_everywhere() {
        let t = json!({"world": {"address": null}, "contracts": [{"tag": "a-game_systems"}, {"tag": "a-settings_systems"}]});
        let m = fill_manifest(t, Felt::from(0xabcu32), Felt::from(0x123u32));
        assert_eq!(m["world"]["address"], format!("0x{:064x}", 0x123));
        for c in m["contracts"].as_array().unwrap() {
            assert_eq!(c["address"], format!("0x{:064x}", 0x123));
            assert_eq!(c["class_hash"], format!("0x{:064x}", 0xabc));
        }
    }
}
