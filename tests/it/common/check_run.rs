//! `check` through the real binary on a v2 deployment known only by its addresses, as mainnet's
//! profile knows it: the shared runner of the devnet tests that read a deployment's VRF rule.

use std::path::Path;

use loot_survivor_mcp::deploy::v2::V2Deployment;
use serde_json::Value;

/// What one `check --json` run printed and returned.
pub struct Run {
    /// The exit code.
    pub code: i32,
    /// The JSON report.
    pub report: Value,
    /// What it wrote to stderr.
    pub stderr: String,
}

/// `check --profile devnet` on `url` with data directory `home` and `env`, to add arguments to.
pub fn command(url: &url::Url, home: &Path, env: &[(String, String)]) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(super::BIN);
    cmd.args(["check", "--profile", "devnet", "--rpc-url"])
        .arg(url.as_str())
        .env("LS_HOME", home)
        .env("RUST_LOG", "warn")
        .envs(env.iter().map(|(k, v)| (k, v)));
    cmd
}

/// `check --profile devnet --json` on `url` with data directory `home`, `args` and `env`.
pub async fn check(url: &url::Url, home: &Path, args: &[&str], env: &[(String, String)]) -> Run {
    let out = command(url, home, env)
        .arg("--json")
        .args(args)
        .output()
        .await
        .expect("run check");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    Run {
        code: out.status.code().expect("an exit code"),
        report: serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout} {stderr}")),
        stderr,
    }
}

/// The environment of a v2 profile that names `d`'s addresses and no deployment file nor VRF
/// source, with the Denshokan API at `denshokan_url`.
pub fn address_env(d: &V2Deployment, denshokan_url: &str) -> Vec<(String, String)> {
    let hex = |f: starknet::core::types::Felt| format!("{f:#x}");
    [
        ("LS_GENERATION", "v2".to_string()),
        ("LS_DEPLOYMENT__DEPLOYMENT_FILE", String::new()),
        ("LS_DEPLOYMENT__GAME_CORE", hex(d.game)),
        ("LS_DEPLOYMENT__GAME_TOKEN", hex(d.token)),
        ("LS_DEPLOYMENT__DENSHOKAN", hex(d.denshokan)),
        ("LS_DEPLOYMENT__VRF_PROVIDER", hex(d.vrf)),
        ("LS_DENSHOKAN_URL", denshokan_url.to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// The first check of `section` in `report`: (status, detail).
pub fn first(report: &Value, section: &str) -> (String, String) {
    let s = report["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == section)
        .unwrap_or_else(|| panic!("no {section} section: {report}"));
    let c = &s["checks"][0];
    (
        c["status"].as_str().unwrap().to_string(),
        c["detail"].as_str().unwrap().to_string(),
    )
}
