//! `devnet up` and `devnet deploy`: starknet-devnet with the practice world (or the v2 practice
//! world) on it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::Settings;
use anyhow::Context as _;
use base::devnet::{Devnet, is_alive};
use deploy::v2::{V2Artifacts, V2Variant, VrfMode, deploy_practice_v2_variant};
use deploy::world::{Artifacts, deploy_practice_world};
use game::felt::parse_felt;
use wallet::{SecretSigner, load_signer};

use super::args::{DeployGeneration, SettingsArgs};

/// The v2 deployment file's default path, relative to the data directory (beside the v1 manifest).
const V2_DEPLOYMENT: &str = "devnet/v2.json";

/// The account address and signer the settings name (the key stays inside the signer).
pub(crate) fn account_and_signer(
    settings: &Settings,
    env: &HashMap<String, String>,
) -> anyhow::Result<(starknet::core::types::Felt, Arc<SecretSigner>)> {
    let address = settings
        .wallet
        .account_address
        .as_deref()
        .context("no account address: set LS_ACCOUNT_ADDRESS or wallet.account_address")?;
    let address = parse_felt(address).map_err(anyhow::Error::msg)?;
    let signer = load_signer(&settings.wallet, settings.is_mainnet(), env)?;
    Ok((address, Arc::new(signer)))
}

/// `devnet deploy`: the practice world of `generation` on the profile's node (`chain.rpc_url`,
/// which `--rpc-url` sets), the v2 one with GameCore's randomness in `vrf`, shaped as `variant`
/// says.
pub(crate) async fn deploy_generation(
    settings: &Settings,
    env: &HashMap<String, String>,
    out: Option<PathBuf>,
    generation: DeployGeneration,
    vrf: Option<VrfMode>,
    variant: &V2Variant,
) -> anyhow::Result<()> {
    let rpc = settings.chain.rpc_url.clone();
    match generation {
        DeployGeneration::V1 if vrf.is_some() || !variant.is_plain() => {
            anyhow::bail!("--vrf, --settings and --vrf-consumer apply to --generation v2 only")
        }
        DeployGeneration::V1 => deploy(settings, env, rpc, out).await,
        DeployGeneration::V2 => {
            let vrf = vrf.unwrap_or(VrfMode::Off);
            deploy_v2(settings, env, rpc, out, vrf, variant).await
        }
    }
}

/// Declares and deploys the practice world on `rpc` and writes its manifest.
pub(crate) async fn deploy(
    settings: &Settings,
    env: &HashMap<String, String>,
    rpc: url::Url,
    out: Option<PathBuf>,
) -> anyhow::Result<()> {
    let (address, signer) = account_and_signer(settings, env)?;
    let out = out
        .or_else(|| settings.manifest_path())
        .context("no manifest path: pass --out")?;
    let target = settings.deploy_target()?;
    let d =
        deploy_practice_world(rpc, address, signer, &Artifacts::embedded(), target, &out).await?;
    eprintln!(
        "practice world at {:#x} (class {:#x}; declared now: {}, deployed now: {}; UDC {:#x}, {} \
         compiled class hash); manifest: {}",
        d.address,
        d.class_hash,
        d.declared_now,
        d.deployed_now,
        d.target.udc,
        d.target.casm_hash.name(),
        out.display()
    );
    Ok(())
}

/// Declares and deploys the v2 practice world on `rpc` with GameCore's randomness in `vrf`, and
/// writes its deployment file (default `devnet/v2.json` in the data directory).
pub(crate) async fn deploy_v2(
    settings: &Settings,
    env: &HashMap<String, String>,
    rpc: url::Url,
    out: Option<PathBuf>,
    vrf: VrfMode,
    variant: &V2Variant,
) -> anyhow::Result<()> {
    let (address, signer) = account_and_signer(settings, env)?;
    let out = out.unwrap_or_else(|| base::home::resolve(Path::new(V2_DEPLOYMENT)));
    let target = settings.deploy_target()?;
    let d = deploy_practice_v2_variant(
        rpc,
        address,
        signer,
        &V2Artifacts::embedded(),
        target,
        vrf,
        variant,
        &out,
    )
    .await?;
    if let Some(consumer) = d.vrf_consumer {
        eprintln!("randomness subsystem (the VRF consumer): {consumer:#x}");
    }
    for s in &d.settings {
        eprintln!("settings {}: {}", s.id, s.vrf_mode.name());
    }
    eprintln!(
        "v2 practice world: GameCore {:#x}, GameToken {:#x}, Denshokan {:#x}, VRF {:#x} (mode {}); \
         deployment: {}",
        d.game,
        d.token,
        d.denshokan,
        d.vrf,
        d.vrf_mode.name(),
        out.display()
    );
    Ok(())
}

/// Starts devnet on `port` unless one answers there; returns the child when started here.
pub(crate) async fn ensure_devnet(port: u16) -> anyhow::Result<(Option<Devnet>, url::Url)> {
    let url: url::Url = format!("http://127.0.0.1:{port}/").parse()?;
    if is_alive(&url).await {
        tracing::info!(%url, "using the devnet already running");
        return Ok((None, url));
    }
    let devnet = Devnet::start(port).await?;
    tracing::info!(%url, "started starknet-devnet");
    Ok((Some(devnet), url))
}

/// `devnet up`: devnet (started unless one answers on `port`) with the practice world on it, until
/// Ctrl-C.
pub(crate) async fn devnet_up(args: &SettingsArgs, port: u16) -> anyhow::Result<()> {
    let (settings, env) = args.load()?;
    let (devnet, url) = ensure_devnet(port).await?;
    deploy(&settings, &env, url.clone(), None).await?;
    match devnet {
        Some(mut d) => {
            eprintln!("devnet running at {url}; Ctrl-C to stop");
            tokio::select! {
                _ = tokio::signal::ctrl_c() => d.stop().await,
                _ = d.wait() => anyhow::bail!("starknet-devnet exited"),
            }
        }
        None => eprintln!("devnet already running at {url}"),
    }
    Ok(())
}
