//! Declares and deploys the v2 practice world (docs/practice-v2.md) on a Starknet node: the VRF
//! stand-in, the Denshokan-like ERC721, GameCore with a randomness mode, and GameToken, then writes
//! their addresses as a [`V2Deployment`] JSON file. Idempotent like the world's deployment.

use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;

use chain::{ChainError, SaltRecipe, V2Contracts, VrfSource};
use serde::{Deserialize, Serialize};
use starknet::accounts::ConnectedAccount;
use starknet::core::types::Felt;
use starknet::core::utils::cairo_short_string_to_felt;
use wallet::SecretSigner;

use crate::DeployError;
use crate::dungeon::{ContractArtifact, declare_and_deploy};
use crate::target::DeployTarget;
use crate::world::{deployer, require_udc};

/// Where GameCore's randomness comes from (its constructor's `vrf_mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VrfMode {
    /// No VRF: the seed is `poseidon([xp, adventurer_id])`, computed by the game.
    Off,
    /// `consume_random(Source::Nonce(account))`, the transaction's account.
    Nonce,
    /// `consume_random(Source::Salt(poseidon([adventurer_id, xp, health, beast_health])))`.
    Salt,
}

impl VrfMode {
    /// Every mode, in constructor-code order.
    pub const ALL: [VrfMode; 3] = [VrfMode::Off, VrfMode::Nonce, VrfMode::Salt];

    /// The constructor's `vrf_mode` code: 0 off, 1 nonce, 2 salt.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The mode's name, as the CLI and the deployment file spell it.
    pub fn name(self) -> &'static str {
        match self {
            VrfMode::Off => "off",
            VrfMode::Nonce => "nonce",
            VrfMode::Salt => "salt",
        }
    }
}

impl FromStr for VrfMode {
    type Err = DeployError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        VrfMode::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| DeployError::UnknownVrfMode(s.to_string()))
    }
}

impl From<VrfMode> for VrfSource {
    /// The source the v2 practice world's GameCore was deployed with.
    fn from(mode: VrfMode) -> Self {
        match mode {
            VrfMode::Off => VrfSource::Off,
            VrfMode::Nonce => VrfSource::Nonce,
            VrfMode::Salt => VrfSource::Salt(SaltRecipe::AdventurerState),
        }
    }
}

/// The four v2 contracts' committed build outputs and their ABI file, compiled into the binary.
#[derive(Debug, Clone, Copy)]
pub struct V2Artifacts {
    /// The VRF provider stand-in.
    pub vrf: ContractArtifact,
    /// The Denshokan-like ERC721.
    pub denshokan: ContractArtifact,
    /// GameCore.
    pub game: ContractArtifact,
    /// GameToken.
    pub token: ContractArtifact,
    /// `abi/practice_v2.json`: the four ABIs by tag.
    pub abi: &'static str,
}

/// One contract's artifact from `abi/<name>.*`.
macro_rules! artifact {
    ($name:literal) => {
        ContractArtifact {
            sierra: include_str!(concat!("../../../abi/", $name, ".sierra.json")),
            compiled_class_hash: include_str!(concat!(
                "../../../abi/",
                $name,
                ".compiled_class_hash"
            )),
            compiled_class_hash_poseidon: include_str!(concat!(
                "../../../abi/",
                $name,
                ".compiled_class_hash.poseidon"
            )),
        }
    };
}

impl V2Artifacts {
    /// The artifacts embedded from `abi/` at build time.
    pub fn embedded() -> Self {
        Self {
            vrf: artifact!("practice_vrf"),
            denshokan: artifact!("practice_denshokan"),
            game: artifact!("practice_v2_game"),
            token: artifact!("practice_v2_token"),
            abi: include_str!("../../../abi/practice_v2.json"),
        }
    }
}

/// Where the v2 practice world ended up: the JSON written beside the v1 manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct V2Deployment {
    /// GameCore: every player entrypoint, `load_assets`, the `GameEvent`s.
    pub game: Felt,
    /// GameToken: `mint_game`, `score`, `game_over`.
    pub token: Felt,
    /// The Denshokan-like ERC721 whose token ids are the adventurer ids.
    pub denshokan: Felt,
    /// The VRF provider stand-in.
    pub vrf: Felt,
    /// GameCore's randomness mode.
    pub vrf_mode: VrfMode,
}

impl V2Deployment {
    /// Reads a deployment file written by [`deploy_practice_v2`].
    pub fn load(path: &Path) -> Result<Self, DeployError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ChainError::io(path.display().to_string(), e))?;
        Ok(serde_json::from_str(&text).map_err(|e| ChainError::json("a v2 deployment file", e))?)
    }
}

impl From<&V2Deployment> for V2Contracts {
    /// The contracts `devnet deploy --generation v2` wrote, with their known VRF source.
    fn from(d: &V2Deployment) -> Self {
        V2Contracts {
            game_core: d.game,
            game_token: d.token,
            denshokan: d.denshokan,
            vrf_provider: d.vrf,
            dungeon: None,
            minter: None,
            vrf_source: Some(d.vrf_mode.into()),
            legacy_envelope_until: None,
        }
    }
}

/// Declares and deploys the v2 practice world through `target`'s UDC with GameCore in `vrf_mode`,
/// and writes the deployment to `out`. The VRF stand-in and Denshokan have fixed addresses; GameCore
/// and GameToken get one per mode (their constructor arguments differ), so the three modes can
/// share a node, each GameToken registered with Denshokan as the next game id.
pub async fn deploy_practice_v2(
    rpc_url: url::Url,
    account_address: Felt,
    signer: Arc<SecretSigner>,
    artifacts: &V2Artifacts,
    target: DeployTarget,
    vrf_mode: VrfMode,
    out: &Path,
) -> Result<V2Deployment, DeployError> {
    let account = deployer(rpc_url, account_address, signer).await?;
    require_udc(account.provider(), target.udc).await?;
    let salt = |s: &str| cairo_short_string_to_felt(s).expect("a short string");
    let (_, vrf) =
        declare_and_deploy(&account, &artifacts.vrf, vec![], salt("ls_v2_vrf"), target).await?;
    let (_, denshokan) = declare_and_deploy(
        &account,
        &artifacts.denshokan,
        vec![],
        salt("ls_v2_denshokan"),
        target,
    )
    .await?;
    // constructor(denshokan, vrf, vrf_mode)
    let game_args = vec![denshokan, vrf, Felt::from(vrf_mode.code())];
    let (_, game) = declare_and_deploy(
        &account,
        &artifacts.game,
        game_args,
        salt("ls_v2_game"),
        target,
    )
    .await?;
    // constructor(denshokan, game): registers itself with Denshokan.
    let (_, token) = declare_and_deploy(
        &account,
        &artifacts.token,
        vec![denshokan, game],
        salt("ls_v2_token"),
        target,
    )
    .await?;
    let deployment = V2Deployment {
        game,
        token,
        denshokan,
        vrf,
        vrf_mode,
    };
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir).map_err(|e| ChainError::io(dir.display().to_string(), e))?;
    }
    let text = serde_json::to_string_pretty(&deployment).expect("a deployment serializes");
    std::fs::write(out, text + "\n").map_err(|e| ChainError::io(out.display().to_string(), e))?;
    tracing::info!(
        game = %format!("{game:#x}"),
        token = %format!("{token:#x}"),
        vrf_mode = vrf_mode.name(),
        "v2 practice world ready"
    );
    Ok(deployment)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};
    use starknet::core::types::contract::SierraClass;

    #[test]
    fn the_embedded_v2_artifacts_parse_and_name_their_tags() {
        let a = V2Artifacts::embedded();
        for c in [a.vrf, a.denshokan, a.game, a.token] {
            let sierra: SierraClass = serde_json::from_str(c.sierra).unwrap();
            assert!(sierra.flatten().is_ok());
        }
        let abi: Value = serde_json::from_str(a.abi).unwrap();
        let tags = [
            "practice_v2-vrf",
            "practice_v2-denshokan",
            "practice_v2-game",
            "practice_v2-token",
        ];
        let contracts = abi["contracts"].as_array().unwrap();
        assert_eq!(contracts.len(), tags.len());
        for (contract, tag) in contracts.iter().zip(tags) {
            assert_eq!(contract["tag"], tag);
            assert!(contract["abi"].as_array().is_some_and(|a| !a.is_empty()));
        }
    }

    #[test]
    fn vrf_modes_parse_by_name_and_serialize_lowercase() {
        assert_eq!("salt".parse::<VrfMode>().unwrap(), VrfMode::Salt);
        assert_eq!(VrfMode::Nonce.code(), 1);
        let e = "Nonce".parse::<VrfMode>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown VRF mode \"Nonce\": off, nonce or salt"
        );
        let d = V2Deployment {
            game: Felt::from(1u8),
            token: Felt::from(2u8),
            denshokan: Felt::from(3u8),
            vrf: Felt::from(4u8),
            vrf_mode: VrfMode::Off,
        };
        let v = serde_json::to_value(&d).unwrap();
        assert_eq!(v["vrf_mode"], json!("off"));
        assert_eq!(v["denshokan"], json!("0x3"));
        assert_eq!(serde_json::from_value::<V2Deployment>(v).unwrap(), d);
    }

    #[test]
    fn a_deployment_gives_its_contracts_and_vrf_source() {
        assert_eq!(
            VrfSource::from(VrfMode::Salt).name(),
            "salt:adventurer_state"
        );
        let d = V2Deployment {
            game: Felt::from(1u8),
            token: Felt::from(2u8),
            denshokan: Felt::from(3u8),
            vrf: Felt::from(4u8),
            vrf_mode: VrfMode::Nonce,
        };
        let c = V2Contracts::from(&d);
        assert_eq!(
            (c.game_core, c.game_token, c.denshokan, c.vrf_provider),
            (d.game, d.token, d.denshokan, d.vrf)
        );
        assert_eq!(c.vrf_source, Some(VrfSource::Nonce));
        assert_eq!(
            (c.dungeon, c.minter, c.legacy_envelope_until),
            (None, None, None)
        );
    }
}
