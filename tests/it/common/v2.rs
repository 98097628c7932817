//! The v2 practice world from the chain client's side: the devnet profile's settings with
//! `LS_GENERATION=v2` on a deployment file, and a `ChainClient` for devnet account #0 with the
//! deployment and the policy those settings build.

use std::sync::Arc;
use std::time::Duration;

use loot_survivor_mcp::chain::wallet_account::AccountSigner;
use loot_survivor_mcp::chain::{
    ChainClient, ChainError, Confirm, ConnectOptions, Deployment, Hooks, V2Contracts, WriteOptions,
};
use loot_survivor_mcp::config::{LoadOptions, Settings};
use loot_survivor_mcp::deploy::v2::VrfMode;
use loot_survivor_mcp::wallet::SecretSigner;
use starknet::core::types::Felt;
use starknet_types_core::felt::secret_felt::SecretFelt;

/// Devnet's predeployed account #0 (seed 0): the devnet profile's wallet.
pub const ACCOUNT_0: &str = "0x064b48806902a367c8598f4f95c305e8c1a1acba5f082d294a43793113115691";
/// Its key (devnet's public seed-0 key).
pub const KEY_0: &str = "0x71d7bb07b9a64f6f78ac4c816aff4da9";

/// The starter weapon the v2 tests start with.
pub const SHORT_SWORD: u8 = 46;

/// A write that waits for acceptance, up to 30 s.
pub fn opts() -> WriteOptions {
    WriteOptions {
        confirm: Confirm::Accepted,
        timeout: Duration::from_secs(30),
        hooks: Hooks::default(),
    }
}

/// The devnet profile's settings with `LS_GENERATION=v2` and `file` as the deployment file.
pub fn v2_settings(file: &std::path::Path) -> Settings {
    let env = [
        ("LS_GENERATION", "v2".to_string()),
        ("LS_DEPLOYMENT__DEPLOYMENT_FILE", file.display().to_string()),
    ];
    Settings::load(&LoadOptions {
        profile: Some("devnet".into()),
        env: env
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
        ..LoadOptions::default()
    })
    .unwrap()
}

/// A client for account #0 on `rpc`, with the deployment and the policy the profile builds.
pub async fn connect(
    rpc: &url::Url,
    settings: &Settings,
    deployment: Deployment,
) -> Result<ChainClient, ChainError> {
    let account = Felt::from_hex(ACCOUNT_0).unwrap();
    let policy = settings.deployment_policy_guard(&deployment, account);
    let key = SecretSigner::new(SecretFelt::from_hex_string(&mut KEY_0.to_string()).unwrap());
    ChainClient::connect(ConnectOptions {
        rpc_url: rpc.clone(),
        request_timeout: Duration::from_secs(20),
        chain_id: Felt::from_bytes_be_slice(b"SN_SEPOLIA"),
        spec_versions: vec!["0.".into()],
        deployment,
        account_address: account,
        signer: AccountSigner::Key(Arc::new(key)),
        settings_id: 0,
        poll: Duration::from_millis(100),
        fee_multiplier: 1.5,
        policy: Arc::new(policy),
        vrf: false,
    })
    .await
}

/// Deploys the v2 practice world in `mode` with `devnet deploy` (its file in `dir`) and connects
/// account #0's client to it through the profile; returns the contracts, the client and the file.
pub async fn deploy_and_connect(
    url: &url::Url,
    dir: &std::path::Path,
    mode: VrfMode,
) -> (V2Contracts, ChainClient, std::path::PathBuf) {
    let out = dir.join(format!("v2-{}.json", mode.name()));
    super::devnet_deploy(url, &["--generation", "v2", "--vrf", mode.name()], &out).await;
    let settings = v2_settings(&out);
    let deployment = settings.deployment().unwrap();
    let Deployment::V2(c) = deployment.clone() else {
        panic!("not v2")
    };
    let client = connect(url, &settings, deployment).await.unwrap();
    (c, client, out)
}
