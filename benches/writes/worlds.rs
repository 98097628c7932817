//! The worlds the runs play in (one copy of the practice world each) and devnet's accounts.

use serde_json::{Value, json};
use starknet::contract::{ContractFactory, UdcSelector};
use starknet::core::types::Felt;

use crate::common;
use crate::plain::Plain;

pub(crate) fn world_address(world: &common::World) -> Felt {
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(&world.manifest).unwrap()).unwrap();
    Felt::from_hex(manifest["world"]["address"].as_str().unwrap()).unwrap()
}

/// Deploys `n` more instances of the practice world's class (other salts, deployed by `account`)
/// and writes a manifest for each (the original's, every address swapped); returns (world
/// address, manifest) for the original and the copies.
pub(crate) async fn world_copies(
    world: &common::World,
    account: (Felt, Felt),
    n: usize,
    dir: &std::path::Path,
) -> Vec<(Felt, std::path::PathBuf)> {
    let text = std::fs::read_to_string(&world.manifest).unwrap();
    let manifest: Value = serde_json::from_str(&text).unwrap();
    let original = world_address(world);
    let class_hash = Felt::from_hex(manifest["world"]["class_hash"].as_str().unwrap()).unwrap();
    let deployer = Plain::new(&world.devnet.url, account).await;
    let factory = ContractFactory::new_with_udc(
        class_hash,
        &deployer.account,
        UdcSelector::Custom(loot_survivor_mcp::deploy::target::NEW_UDC),
    );
    let mut worlds = vec![(original, world.manifest.clone())];
    for i in 1..=n {
        let deployment = factory
            .deploy_v3(vec![], Felt::from(0xbe_ac00 + i as u64), false)
            .nonce(deployer.nonce + Felt::from(i as u64 - 1));
        let address = deployment.deployed_address();
        let hash = deployment.send().await.unwrap().transaction_hash;
        deployer.receipt(hash).await;
        let copy = text.replace(
            &original.to_fixed_hex_string(),
            &address.to_fixed_hex_string(),
        );
        let path = dir.join(format!("manifest-{i}.json"));
        std::fs::write(&path, copy).unwrap();
        worlds.push((address, path));
    }
    worlds
}

/// Devnet's predeployed accounts (address, public development key), one per run so that no two
/// runs share a nonce.
pub(crate) async fn predeployed_accounts(rpc: &url::Url) -> Vec<(Felt, Felt)> {
    common::rpc(rpc, "devnet_getPredeployedAccounts", json!({}))
        .await
        .as_array()
        .expect("predeployed accounts")
        .iter()
        .map(|a| {
            let felt = |k: &str| Felt::from_hex(a[k].as_str().unwrap()).unwrap();
            (felt("address"), felt("private_key"))
        })
        .collect()
}
