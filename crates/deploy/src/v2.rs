//! Declares and deploys the v2 practice world (docs/practice-v2.md) on a Starknet node: the VRF
//! stand-in, the Denshokan-like ERC721, GameCore with a randomness mode, and GameToken, then writes
//! their addresses as a [`V2Deployment`] JSON file. Idempotent like the world's deployment.

use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;

use chain::{ChainError, SaltRecipe, V2Contracts, VrfSource};
use serde::{Deserialize, Serialize};
use starknet::accounts::{Account, ConnectedAccount};
use starknet::core::types::{Call, Felt};
use starknet::core::utils::cairo_short_string_to_felt;
use wallet::SecretSigner;

use crate::DeployError;
use crate::dungeon::{ContractArtifact, declare_and_deploy};
use crate::target::DeployTarget;
use crate::world::{deployer, require_udc, wait};

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

/// The v2 contracts' committed build outputs and their ABI file, compiled into the binary.
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
    /// The randomness subsystem a variant's GameCore draws through.
    pub randomness: ContractArtifact,
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
            randomness: artifact!("practice_v2_randomness"),
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
    /// GameCore's randomness mode (of settings 0, or of the first settings a variant names).
    pub vrf_mode: VrfMode,
    /// The randomness subsystem that consumes the VRF for GameCore (`None`: GameCore itself).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vrf_consumer: Option<Felt>,
    /// The game settings that exist, each with its randomness (empty: settings 0 alone, in
    /// `vrf_mode`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub settings: Vec<SettingsMode>,
}

/// Game settings of the v2 practice world and the randomness its games draw by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettingsMode {
    /// The settings id (bits 70-99 of a token id minted with them).
    pub id: u32,
    /// How games with these settings draw their randomness.
    pub vrf_mode: VrfMode,
}

/// A v2 practice world shaped like what only a live read settles on mainnet: which settings
/// exist and how each draws randomness, and whether a subsystem contract consumes the VRF.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct V2Variant {
    /// The settings that exist (empty: settings 0 alone, in the deployment's `vrf_mode`); settings
    /// 0 exists only when listed.
    pub settings: Vec<SettingsMode>,
    /// Whether the randomness subsystem, not GameCore, calls `consume_random`.
    pub subsystem_consumer: bool,
}

impl V2Variant {
    /// Whether this is the plain practice world.
    pub fn is_plain(&self) -> bool {
        self.settings.is_empty() && !self.subsystem_consumer
    }

    /// GameCore's deployment salt: the plain world's, or one per variant (so a variant never
    /// reuses a plain world's GameCore at the same constructor arguments).
    fn game_salt(&self) -> Felt {
        let base = cairo_short_string_to_felt("ls_v2_game").expect("a short string");
        if self.is_plain() {
            return base;
        }
        let mut parts = vec![base, Felt::from(u8::from(self.subsystem_consumer))];
        for s in &self.settings {
            parts.extend([Felt::from(s.id), Felt::from(s.vrf_mode.code())]);
        }
        starknet_crypto::poseidon_hash_many(&parts)
    }

    /// The `set_settings(settings_id, exists, vrf_mode)` calls that shape GameCore's table.
    fn settings_calls(&self, game: Felt) -> Vec<Call> {
        let set = |id: u32, exists: bool, mode: u8| Call {
            to: game,
            selector: starknet::macros::selector!("set_settings"),
            calldata: vec![
                Felt::from(id),
                Felt::from(u8::from(exists)),
                Felt::from(mode),
            ],
        };
        let mut calls: Vec<Call> = self
            .settings
            .iter()
            .map(|s| set(s.id, true, s.vrf_mode.code()))
            .collect();
        if !self.settings.is_empty() && !self.settings.iter().any(|s| s.id == 0) {
            calls.push(set(0, false, 0));
        }
        calls
    }
}

impl FromStr for SettingsMode {
    type Err = DeployError;

    /// `<id>:<mode>`, e.g. `1:salt`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || DeployError::BadSettings(s.to_string());
        let (id, mode) = s.split_once(':').ok_or_else(bad)?;
        Ok(SettingsMode {
            id: id.trim().parse().map_err(|_| bad())?,
            vrf_mode: mode.trim().parse()?,
        })
    }
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
            vrf_consumer: d.vrf_consumer,
            vrf_settings: d.settings.first().map(|s| s.id),
            legacy_envelope_until: None,
        }
    }
}

/// Declares and deploys the plain v2 practice world (see [`deploy_practice_v2_variant`]).
pub async fn deploy_practice_v2(
    rpc_url: url::Url,
    account_address: Felt,
    signer: Arc<SecretSigner>,
    artifacts: &V2Artifacts,
    target: DeployTarget,
    vrf_mode: VrfMode,
    out: &Path,
) -> Result<V2Deployment, DeployError> {
    let plain = V2Variant::default();
    deploy_practice_v2_variant(
        rpc_url,
        account_address,
        signer,
        artifacts,
        target,
        vrf_mode,
        &plain,
        out,
    )
    .await
}

/// Declares and deploys the v2 practice world through `target`'s UDC with GameCore in `vrf_mode`,
/// shaped as `variant` says, and writes the deployment to `out`. The VRF stand-in and Denshokan
/// have fixed addresses; GameCore and GameToken get one per mode and variant, so several can share
/// a node, each GameToken registered with Denshokan as the next game id.
#[allow(clippy::too_many_arguments)]
pub async fn deploy_practice_v2_variant(
    rpc_url: url::Url,
    account_address: Felt,
    signer: Arc<SecretSigner>,
    artifacts: &V2Artifacts,
    target: DeployTarget,
    vrf_mode: VrfMode,
    variant: &V2Variant,
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
        variant.game_salt(),
        target,
    )
    .await?;
    let mut calls = variant.settings_calls(game);
    let vrf_consumer = if variant.subsystem_consumer {
        // constructor(game, vrf)
        let (_, randomness) = declare_and_deploy(
            &account,
            &artifacts.randomness,
            vec![game, vrf],
            salt("ls_v2_randomness"),
            target,
        )
        .await?;
        calls.push(Call {
            to: game,
            selector: starknet::macros::selector!("set_vrf_consumer"),
            calldata: vec![randomness],
        });
        Some(randomness)
    } else {
        None
    };
    if !calls.is_empty() {
        let sent = account
            .execute_v3(calls)
            .send()
            .await
            .map_err(ChainError::from_account)?;
        wait(account.provider(), sent.transaction_hash).await?;
    }
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
        vrf_mode: variant.settings.first().map_or(vrf_mode, |s| s.vrf_mode),
        vrf_consumer,
        settings: variant.settings.clone(),
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
        for c in [a.vrf, a.denshokan, a.game, a.token, a.randomness] {
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
            vrf_consumer: None,
            settings: vec![],
        };
        let v = serde_json::to_value(&d).unwrap();
        assert_eq!(v["vrf_mode"], json!("off"));
        assert_eq!(v["denshokan"], json!("0x3"));
        assert_eq!(serde_json::from_value::<V2Deployment>(v).unwrap(), d);
    }

    #[test]
    fn a_variant_names_its_settings_and_gets_a_game_of_its_own() {
        let plain = V2Variant::default();
        assert!(plain.is_plain());
        assert!(plain.settings_calls(Felt::ONE).is_empty());
        let s: SettingsMode = "1:salt".parse().unwrap();
        assert_eq!(
            s,
            SettingsMode {
                id: 1,
                vrf_mode: VrfMode::Salt
            }
        );
        for bad in ["1", "x:salt", "1:fast"] {
            assert!(bad.parse::<SettingsMode>().is_err(), "{bad}");
        }
        let v = V2Variant {
            settings: vec![s, "2:off".parse().unwrap()],
            subsystem_consumer: true,
        };
        assert_ne!(v.game_salt(), plain.game_salt());
        let calls = v.settings_calls(Felt::from(7u8));
        let data: Vec<Vec<u64>> = calls
            .iter()
            .map(|c| {
                c.calldata
                    .iter()
                    .map(|f| u64::try_from(*f).unwrap())
                    .collect()
            })
            .collect();
        // settings 1 (salt) and 2 (off) exist; settings 0, not listed, is removed.
        assert_eq!(data, vec![vec![1, 1, 2], vec![2, 1, 0], vec![0, 0, 0]]);
        assert!(calls.iter().all(|c| c.to == Felt::from(7u8)));
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
            vrf_consumer: None,
            settings: vec![],
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
