//! Declares and deploys the practice dungeon beside the practice world: its ticket ERC20, its
//! golden pass ERC721 and the dungeon itself (Beast Mode's ticket booth interface, minting through
//! the world's `mint_game`), and adds the three to the manifest under the tags `practice-ticket`,
//! `practice-golden_pass` and `practice-dungeon` (read as the `chain.contracts` keys `ticket`,
//! `golden_pass` and `dungeon`). Idempotent like the world's deployment: fixed salts, and a class
//! already declared or a contract already deployed is reused.

use std::sync::Arc;

use chain::ChainError;
use chain::entry::ONE_TICKET;
use game::felt::parse_felt;
use serde_json::{Value, json};
use starknet::accounts::ConnectedAccount;
use starknet::contract::{ContractFactory, UdcSelector};
use starknet::core::types::contract::SierraClass;
use starknet::core::types::{BlockId, BlockTag, Felt, StarknetError};
use starknet::providers::{Provider, ProviderError};

use crate::DeployError;
use crate::target::{CasmHash, DeployTarget};
use crate::world::wait;

/// How long a golden pass rests between two games: 7 days, as the mainnet dungeon configures the
/// Golden Token (loot-survivor-beast-mode scripts/deploy_mainnet.sh @5832693).
pub const GOLDEN_PASS_COOLDOWN_SECS: u64 = 7 * 24 * 3600;

/// One contract's committed build outputs (`scripts/build-contracts.sh`).
#[derive(Debug, Clone, Copy)]
pub struct ContractArtifact {
    /// Sierra class JSON.
    pub sierra: &'static str,
    /// The compiled class hash with Blake2s (Starknet >= 0.14.1).
    pub compiled_class_hash: &'static str,
    /// The compiled class hash with Poseidon (katana; see [`CasmHash`]).
    pub compiled_class_hash_poseidon: &'static str,
}

impl ContractArtifact {
    /// The compiled class hash computed with `function`.
    fn casm_hash(&self, function: CasmHash) -> Result<Felt, DeployError> {
        let text = match function {
            CasmHash::Blake2s => self.compiled_class_hash,
            CasmHash::Poseidon => self.compiled_class_hash_poseidon,
        };
        parse_felt(text.trim()).map_err(|reason| DeployError::CasmHash { function, reason })
    }
}

/// The practice dungeon's three contracts and its manifest template, compiled into the binary.
#[derive(Debug, Clone, Copy)]
pub struct DungeonArtifacts {
    /// The ticket ERC20.
    pub ticket: ContractArtifact,
    /// The golden pass ERC721.
    pub golden_pass: ContractArtifact,
    /// The dungeon.
    pub dungeon: ContractArtifact,
    /// Manifest template: the three ABIs by tag, without addresses.
    pub template: &'static str,
}

impl DungeonArtifacts {
    /// The artifacts embedded from `abi/` at build time.
    pub fn embedded() -> Self {
        Self {
            ticket: ContractArtifact {
                sierra: include_str!("../../../abi/practice_ticket.sierra.json"),
                compiled_class_hash: include_str!(
                    "../../../abi/practice_ticket.compiled_class_hash"
                ),
                compiled_class_hash_poseidon: include_str!(
                    "../../../abi/practice_ticket.compiled_class_hash.poseidon"
                ),
            },
            golden_pass: ContractArtifact {
                sierra: include_str!("../../../abi/practice_golden_pass.sierra.json"),
                compiled_class_hash: include_str!(
                    "../../../abi/practice_golden_pass.compiled_class_hash"
                ),
                compiled_class_hash_poseidon: include_str!(
                    "../../../abi/practice_golden_pass.compiled_class_hash.poseidon"
                ),
            },
            dungeon: ContractArtifact {
                sierra: include_str!("../../../abi/practice_dungeon.sierra.json"),
                compiled_class_hash: include_str!(
                    "../../../abi/practice_dungeon.compiled_class_hash"
                ),
                compiled_class_hash_poseidon: include_str!(
                    "../../../abi/practice_dungeon.compiled_class_hash.poseidon"
                ),
            },
            template: include_str!("../../../abi/practice_dungeon.json"),
        }
    }
}

/// Where the dungeon and its tokens ended up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DungeonAddresses {
    /// The dungeon.
    pub dungeon: Felt,
    /// Its ticket ERC20.
    pub ticket: Felt,
    /// Its golden pass ERC721.
    pub golden_pass: Felt,
}

/// Deploys the ticket, the golden pass and the dungeon (selling games of `world` for one ticket,
/// free games open to anyone) through `udc`, and adds them to `manifest`'s contracts.
pub async fn deploy_practice_dungeon<A>(
    account: &A,
    world: Felt,
    target: DeployTarget,
    manifest: &mut Value,
) -> Result<DungeonAddresses, DeployError>
where
    A: ConnectedAccount + Sync,
    A::SignError: 'static,
{
    let artifacts = DungeonArtifacts::embedded();
    let salt = |s: &str| starknet::core::utils::cairo_short_string_to_felt(s).expect("short");
    let (ticket_class, ticket) = declare_and_deploy(
        account,
        &artifacts.ticket,
        vec![],
        salt("ls_practice_ticket"),
        target,
    )
    .await?;
    let (pass_class, golden_pass) = declare_and_deploy(
        account,
        &artifacts.golden_pass,
        vec![],
        salt("ls_practice_golden_pass"),
        target,
    )
    .await?;
    // constructor(game_token_address, payment_token, cost_to_play, ticket_receiver_address,
    //             golden_pass_address, golden_pass_cooldown, free_games_claimer_address)
    let constructor = vec![
        world,
        ticket,
        Felt::from(ONE_TICKET),
        Felt::ZERO,
        golden_pass,
        Felt::from(GOLDEN_PASS_COOLDOWN_SECS),
        Felt::ZERO,
    ];
    let (dungeon_class, dungeon) = declare_and_deploy(
        account,
        &artifacts.dungeon,
        constructor,
        salt("ls_practice_dungeon"),
        target,
    )
    .await?;
    let template: Value = serde_json::from_str(artifacts.template)
        .map_err(|e| ChainError::json("the practice dungeon's manifest template", e))?;
    let placed = [
        ("practice-ticket", ticket_class, ticket),
        ("practice-golden_pass", pass_class, golden_pass),
        ("practice-dungeon", dungeon_class, dungeon),
    ];
    add_to_manifest(manifest, &template, &placed);
    tracing::info!(
        dungeon = %format!("{dungeon:#x}"),
        ticket = %format!("{ticket:#x}"),
        golden_pass = %format!("{golden_pass:#x}"),
        "practice dungeon ready"
    );
    Ok(DungeonAddresses {
        dungeon,
        ticket,
        golden_pass,
    })
}

/// Appends the template's contracts, with their class hashes and addresses, to the manifest's
/// (replacing entries with the same tag, so a redeploy does not duplicate them).
pub fn add_to_manifest(manifest: &mut Value, template: &Value, placed: &[(&str, Felt, Felt)]) {
    if !manifest["contracts"].is_array() {
        manifest["contracts"] = json!([]);
    }
    let contracts = manifest["contracts"].as_array_mut().expect("an array");
    for (tag, class_hash, address) in placed {
        let abi = template["contracts"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|c| c["tag"] == *tag)
            .map_or(Value::Null, |c| c["abi"].clone());
        contracts.retain(|c| c["tag"] != *tag);
        contracts.push(json!({
            "tag": tag,
            "address": address.to_fixed_hex_string(),
            "class_hash": class_hash.to_fixed_hex_string(),
            "abi": abi,
        }));
    }
}

/// Declares the class unless the node has it, then deploys it at its salt's address unless a
/// contract of that class is already there. Returns (class hash, address).
pub(crate) async fn declare_and_deploy<A>(
    account: &A,
    artifact: &ContractArtifact,
    constructor: Vec<Felt>,
    salt: Felt,
    target: DeployTarget,
) -> Result<(Felt, Felt), DeployError>
where
    A: ConnectedAccount + Sync,
    A::SignError: 'static,
{
    let provider = account.provider();
    let pending = BlockId::Tag(BlockTag::PreConfirmed);
    let sierra: SierraClass = serde_json::from_str(artifact.sierra)
        .map_err(|e| ChainError::json("a practice Sierra class", e))?;
    let flat = sierra.flatten().map_err(|source| DeployError::Flatten {
        class: "a Sierra class",
        source,
    })?;
    let class_hash = flat.class_hash();
    let casm_hash = artifact.casm_hash(target.casm_hash)?;
    match provider.get_class(pending, class_hash).await {
        Ok(_) => {}
        Err(ProviderError::StarknetError(StarknetError::ClassHashNotFound)) => {
            let sent = account
                .declare_v3(Arc::new(flat), casm_hash)
                .send()
                .await
                .map_err(ChainError::from_account)?;
            wait(provider, sent.transaction_hash).await?;
        }
        Err(e) => return Err(ChainError::from_provider(e).into()),
    }
    let factory =
        ContractFactory::new_with_udc(class_hash, account, UdcSelector::Custom(target.udc));
    let deployment = factory.deploy_v3(constructor, salt, false);
    let address = deployment.deployed_address();
    match provider.get_class_hash_at(pending, address).await {
        Ok(existing) if existing == class_hash => {}
        Ok(other) => {
            return Err(DeployError::OtherClass { address, other });
        }
        Err(ProviderError::StarknetError(StarknetError::ContractNotFound)) => {
            let sent = deployment.send().await.map_err(ChainError::from_account)?;
            wait(provider, sent.transaction_hash).await?;
        }
        Err(e) => return Err(ChainError::from_provider(e).into()),
    }
    Ok((class_hash, address))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_dungeon_artifacts_parse() {
        let a = DungeonArtifacts::embedded();
        for c in [a.ticket, a.golden_pass, a.dungeon] {
            let sierra: SierraClass = serde_json::from_str(c.sierra).unwrap();
            assert!(sierra.flatten().is_ok());
            assert!(parse_felt(c.compiled_class_hash.trim()).is_ok());
        }
        let t: Value = serde_json::from_str(a.template).unwrap();
        let tags: Vec<_> = t["contracts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["tag"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(
            tags,
            [
                "practice-dungeon",
                "practice-ticket",
                "practice-golden_pass"
            ]
        );
    }

    #[test]
    fn the_manifest_gains_each_contract_once() {
        let template = json!({"contracts": [{"tag": "practice-dungeon", "abi": [1]}]});
        let mut m = json!({"world": {}, "contracts": [{"tag": "ls_0_0_9-game_systems"}]});
        let placed = [("practice-dungeon", Felt::from(2u8), Felt::from(3u8))];
        add_to_manifest(&mut m, &template, &placed);
        add_to_manifest(&mut m, &template, &placed);
        let contracts = m["contracts"].as_array().unwrap();
        assert_eq!(contracts.len(), 2);
        assert_eq!(contracts[1]["address"], format!("0x{:064x}", 3));
        assert_eq!(contracts[1]["abi"], json!([1]));
    }
}
