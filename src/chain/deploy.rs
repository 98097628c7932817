//! Declares and deploys the practice world on any Starknet node (starknet-devnet, katana, a
//! testnet) and writes a Dojo-format manifest with the deployed addresses. Idempotent: a class
//! already declared or a contract already deployed at its deterministic address is reused.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use starknet::accounts::{Account, ExecutionEncoding, SingleOwnerAccount};
use starknet::contract::{ContractFactory, UdcSelector};
use starknet::core::types::contract::SierraClass;
use starknet::core::types::{BlockId, BlockTag, Felt, StarknetError};
use starknet::providers::{Provider, ProviderError};

use super::ChainError;
use super::client::provider;
use super::submit::{Confirm, wait_for_receipt};
use crate::config::parse_felt;
use crate::wallet::SecretSigner;

/// Salt of the practice world's UDC deployment ('ls_practice_world'), fixed so the address is
/// the same on every fresh devnet.
const SALT: Felt = Felt::from_hex_unchecked("0x6c735f70726163746963655f776f726c64");

/// The committed build outputs of `scripts/build-contracts.sh`, compiled into the binary so that
/// `devnet deploy` works from any directory (an installed or copied binary has no source tree).
#[derive(Debug, Clone)]
pub struct Artifacts {
    /// Sierra class JSON.
    pub sierra: &'static str,
    /// One-line file with the compiled (CASM) class hash the node expects.
    pub compiled_class_hash: &'static str,
    /// Dojo manifest template (ABIs and tags, no addresses).
    pub template: &'static str,
}

impl Artifacts {
    /// The artifacts embedded from `abi/` at build time.
    pub fn embedded() -> Self {
        Self {
            sierra: include_str!("../../abi/practice_world.sierra.json"),
            compiled_class_hash: include_str!("../../abi/practice_world.compiled_class_hash"),
            template: include_str!("../../abi/practice_world.json"),
        }
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
}

/// Declares (if needed) and deploys (if needed) the practice world, then writes the manifest.
pub async fn deploy_practice_world(
    rpc_url: url::Url,
    account_address: Felt,
    signer: Arc<SecretSigner>,
    artifacts: &Artifacts,
    manifest_out: &Path,
) -> Result<Deployed, ChainError> {
    let provider = provider(rpc_url, Duration::from_secs(60))?;
    let chain_id = provider
        .chain_id()
        .await
        .map_err(|e| ChainError::from_provider(&e))?;
    let mut account = SingleOwnerAccount::new(
        provider.clone(),
        signer,
        account_address,
        chain_id,
        ExecutionEncoding::New,
    );
    account.set_block_id(BlockId::Tag(BlockTag::PreConfirmed));

    let sierra: SierraClass = serde_json::from_str(artifacts.sierra)
        .map_err(|e| ChainError::Config(format!("the practice world's Sierra class: {e}")))?;
    let flat = sierra
        .flatten()
        .map_err(|e| ChainError::Config(format!("cannot flatten the Sierra class: {e}")))?;
    let class_hash = flat.class_hash();
    let casm_hash = parse_felt(artifacts.compiled_class_hash.trim())
        .map_err(|e| ChainError::Config(format!("compiled class hash: {e}")))?;

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
                .map_err(deploy_error)?;
            wait(&provider, sent.transaction_hash).await?;
            tracing::info!(class_hash = %format!("{class_hash:#x}"), "practice world declared");
            true
        }
        Err(e) => return Err(ChainError::from_provider(&e)),
    };

    let factory = ContractFactory::new_with_udc(class_hash, &account, UdcSelector::New);
    let deployment = factory.deploy_v3(vec![], SALT, false);
    let address = deployment.deployed_address();
    let deployed_now = match provider
        .get_class_hash_at(BlockId::Tag(BlockTag::PreConfirmed), address)
        .await
    {
        Ok(existing) if existing == class_hash => false,
        Ok(other) => {
            return Err(ChainError::Config(format!(
                "address {address:#x} holds another class ({other:#x})"
            )));
        }
        Err(ProviderError::StarknetError(StarknetError::ContractNotFound)) => {
            let sent = deployment.send().await.map_err(deploy_error)?;
            wait(&provider, sent.transaction_hash).await?;
            tracing::info!(address = %format!("{address:#x}"), "practice world deployed");
            true
        }
        Err(e) => return Err(ChainError::from_provider(&e)),
    };

    let template: Value = serde_json::from_str(artifacts.template)
        .map_err(|e| ChainError::Config(format!("the practice world's manifest template: {e}")))?;
    let manifest = fill_manifest(template, class_hash, address);
    if let Some(dir) = manifest_out.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| ChainError::Config(format!("{}: {e}", dir.display())))?;
    }
    let text = serde_json::to_string_pretty(&manifest).expect("a JSON value serializes");
    std::fs::write(manifest_out, text + "\n")
        .map_err(|e| ChainError::Config(format!("{}: {e}", manifest_out.display())))?;
    Ok(Deployed {
        class_hash,
        address,
        declared_now,
        deployed_now,
    })
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

async fn wait<P: Provider + Sync>(provider: &P, hash: Felt) -> Result<(), ChainError> {
    wait_for_receipt(
        provider,
        hash,
        Confirm::Accepted,
        Duration::from_secs(120),
        Duration::from_millis(200),
        &Default::default(),
        None,
    )
    .await
    .map(|_| ())
}

fn deploy_error<S: std::fmt::Display>(e: starknet::accounts::AccountError<S>) -> ChainError {
    match e {
        starknet::accounts::AccountError::Provider(p) => ChainError::from_provider(&p),
        other => ChainError::Rpc(super::redact_urls(&other.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_artifacts_parse() {
        let a = Artifacts::embedded();
        let sierra: SierraClass = serde_json::from_str(a.sierra).unwrap();
        assert!(sierra.flatten().is_ok());
        assert!(parse_felt(a.compiled_class_hash.trim()).is_ok());
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
