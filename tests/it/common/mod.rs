//! Shared harness of the integration tests: tool calls through an MCP client and the JSON the
//! agent sees (`mcp`), the real binary (`BIN`), and for the devnet tests a fresh starknet-devnet
//! with the practice world deployed by the real binary and an MCP client driving the real binary
//! over stdio.

#![allow(dead_code)]

pub mod accounts;
pub mod advice_game;
pub mod check_run;
pub mod controller;
pub mod hostile_abi;
pub mod mcp;
pub mod paymaster;
pub mod proxy;
pub mod v2;
pub mod v2_replay;

use std::path::PathBuf;
use std::process::Stdio;

use loot_survivor_mcp::devnet::{Devnet, devnet_binary, free_port};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::Value;
use tokio::io::AsyncReadExt;

use self::mcp::Outcome;

/// The real server binary built by cargo for this test run.
pub const BIN: &str = env!("CARGO_BIN_EXE_loot-survivor-mcp");

/// A devnet with the practice world deployed, plus the manifest written by `devnet deploy`.
pub struct World {
    pub devnet: Devnet,
    pub manifest: PathBuf,
    _dir: tempfile::TempDir,
}

/// Starts devnet and deploys the practice world with `loot-survivor-mcp devnet deploy`.
pub async fn world() -> World {
    world_with(&[]).await
}

/// A fresh starknet-devnet (seed 0) with `devnet_args`, on a free port (three tries).
pub async fn start_devnet(devnet_args: &[&str]) -> Devnet {
    devnet_binary().expect(
        "starknet-devnet is required for this test: run scripts/install-devnet.sh (the README test command does)",
    );
    for _ in 0..3 {
        let port = free_port().expect("free port");
        match Devnet::start_with(port, devnet_args).await {
            Ok(d) => return d,
            Err(e) => eprintln!("devnet on port {port}: {e}; trying another port"),
        }
    }
    panic!("devnet does not start");
}

/// Like [`world`], with extra devnet arguments (e.g. `--block-generation-on 2`).
pub async fn world_with(devnet_args: &[&str]) -> World {
    let devnet = start_devnet(devnet_args).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let manifest = dir.path().join("manifest.json");
    devnet_deploy(&devnet.url, &[], &manifest).await;
    World {
        devnet,
        manifest,
        _dir: dir,
    }
}

/// Runs `loot-survivor-mcp devnet deploy --profile devnet` with `args` on `url`, writing to `out`.
pub async fn devnet_deploy(url: &url::Url, args: &[&str], out: &std::path::Path) {
    let run = tokio::process::Command::new(BIN)
        .args(["devnet", "deploy", "--profile", "devnet"])
        .args(args)
        .arg("--rpc-url")
        .arg(url.as_str())
        .arg("--out")
        .arg(out)
        .env("RUST_LOG", "warn")
        .output()
        .await
        .expect("run devnet deploy");
    assert!(
        run.status.success(),
        "devnet deploy {args:?} failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
}

/// An MCP client connected to the real binary over stdio, with the server's stderr captured.
pub struct Client<H: ClientHandler = ()> {
    pub service: RunningService<RoleClient, H>,
    /// The server's process id.
    pub pid: u32,
    stderr: tokio::task::JoinHandle<String>,
    /// The server's data directory (`LS_HOME`) when the harness made one.
    _home: Option<tempfile::TempDir>,
}

impl World {
    /// Launches `loot-survivor-mcp serve` against this devnet and connects an MCP client.
    pub async fn client(&self, extra_env: &[(&str, &str)]) -> Client {
        self.client_with((), extra_env).await
    }

    /// Like [`World::client`], with a custom client handler (e.g. to observe progress).
    pub async fn client_with<H: ClientHandler>(
        &self,
        handler: H,
        extra_env: &[(&str, &str)],
    ) -> Client<H> {
        self.client_at(&self.devnet.url.clone(), handler, extra_env)
            .await
    }

    /// Like [`World::client_with`], with the server talking to `rpc_url` (e.g. a fault proxy).
    /// The server gets a fresh temporary `LS_HOME` (its journal) unless `extra_env` sets one.
    pub async fn client_at<H: ClientHandler>(
        &self,
        rpc_url: &url::Url,
        handler: H,
        extra_env: &[(&str, &str)],
    ) -> Client<H> {
        serve_profile("devnet", rpc_url, &self.manifest, handler, extra_env).await
    }
}

/// Launches `loot-survivor-mcp serve --profile <profile>` against `rpc_url` with `manifest` and
/// connects an MCP client; a fresh temporary `LS_HOME` unless `extra_env` sets one.
pub async fn serve_profile<H: ClientHandler>(
    profile: &str,
    rpc_url: &url::Url,
    manifest: &std::path::Path,
    handler: H,
    extra_env: &[(&str, &str)],
) -> Client<H> {
    let mut cmd = tokio::process::Command::new(BIN);
    cmd.args(["serve", "--profile", profile, "--rpc-url"])
        .arg(rpc_url.as_str())
        .env("LS_MANIFEST", manifest)
        .env("RUST_LOG", "info");
    let home = if extra_env.iter().any(|(k, _)| *k == "LS_HOME") {
        None
    } else {
        let dir = tempfile::tempdir().expect("tempdir");
        cmd.env("LS_HOME", dir.path());
        Some(dir)
    };
    for (k, v) in extra_env {
        cmd.env(k, v);
    }
    let (transport, stderr) = TokioChildProcess::builder(cmd)
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn the server");
    let pid = transport.id().expect("server pid");
    let mut stderr = stderr.expect("piped stderr");
    // Drain stderr continuously so the server never blocks on a full pipe.
    let stderr = tokio::spawn(async move {
        let mut out = String::new();
        let _ = stderr.read_to_string(&mut out).await;
        out
    });
    let service = handler.serve(transport).await.expect("MCP handshake");
    Client {
        service,
        pid,
        stderr,
        _home: home,
    }
}

/// [`serve_profile`] on the devnet profile playing the v2 practice world of deployment `file`
/// (`devnet deploy --generation v2` writes it), with `extra_env`.
pub async fn serve_v2(
    url: &url::Url,
    file: &std::path::Path,
    extra_env: &[(&str, &str)],
) -> Client {
    let file_env = file.display().to_string();
    let mut env = vec![
        ("LS_GENERATION", "v2"),
        ("LS_DEPLOYMENT__DEPLOYMENT_FILE", file_env.as_str()),
    ];
    env.extend_from_slice(extra_env);
    serve_profile("devnet", url, file, (), &env).await
}

impl<H: ClientHandler> Client<H> {
    /// Calls a tool and parses its result.
    /// The tools that return adventurer state are asked for the full shape (`detail: "full"`)
    /// unless the arguments say otherwise: these tests check every field of it.
    pub async fn call(&self, tool: &str, args: Value) -> Outcome {
        let args = if loot_survivor_mcp::mcp::DETAIL_TOOLS.contains(&tool) {
            mcp::full(args)
        } else {
            args
        };
        mcp::call(&self.service, tool, args).await
    }

    /// Calls a tool that must succeed and returns its structured content.
    pub async fn ok(&self, tool: &str, args: Value) -> Value {
        self.call(tool, args).await.into_ok()
    }

    /// Calls a tool that must fail with `code` and returns the error object.
    pub async fn err(&self, tool: &str, args: Value, code: &str) -> Value {
        self.call(tool, args).await.into_err(code)
    }

    /// The adventurer `id` as `ls_get_adventurer` shows it in full.
    pub async fn adventurer(&self, id: &Value) -> Value {
        self.ok(
            "ls_get_adventurer",
            serde_json::json!({"adventurer_id": id}),
        )
        .await["adventurer"]
            .clone()
    }

    /// Kills the server with SIGKILL (no chance to clean up) and returns its stderr.
    pub async fn kill(self) -> String {
        let status = std::process::Command::new("kill")
            .args(["-KILL", &self.pid.to_string()])
            .status()
            .expect("run kill");
        assert!(status.success(), "kill -KILL {}", self.pid);
        let out = self.stderr.await.expect("stderr reader");
        drop(self.service);
        out
    }

    /// Stops the server and returns everything it wrote to stderr.
    pub async fn shutdown(self) -> String {
        self.service.cancel().await.expect("client shutdown");
        self.stderr.await.expect("stderr reader")
    }
}

/// Raw JSON-RPC to devnet, for facts the server does not report (nonce, balance, block control).
pub async fn rpc(url: &url::Url, method: &str, params: Value) -> Value {
    let body = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let r: Value = reqwest::Client::new()
        .post(url.clone())
        .json(&body)
        .send()
        .await
        .expect("rpc request")
        .json()
        .await
        .expect("rpc json");
    assert!(r.get("error").is_none(), "{method}: {r}");
    r["result"].clone()
}

/// Devnet's predeployed account #0 (seed 0), the devnet profile's wallet.
pub const ACCOUNT: &str = "0x064b48806902a367c8598f4f95c305e8c1a1acba5f082d294a43793113115691";

/// The account's nonce and STRK balance.
pub async fn nonce_and_balance(url: &url::Url, account: &str) -> (Value, Value) {
    let nonce = rpc(
        url,
        "starknet_getNonce",
        serde_json::json!({"block_id": "pre_confirmed", "contract_address": account}),
    )
    .await;
    let balance = rpc(
        url,
        "devnet_getAccountBalance",
        serde_json::json!({"address": account, "unit": "FRI", "block_id": "pre_confirmed"}),
    )
    .await;
    (nonce, balance["amount"].clone())
}

/// A chain client on devnet (`SN_SEPOLIA`) behind `rpc` with `vrf = true`, for `account` signing
/// with `signer` under `policy`: the VRF path's tests, with a paymaster stand-in as `rpc`.
pub async fn vrf_client(
    rpc: &url::Url,
    addresses: &loot_survivor_mcp::chain::GameAddresses,
    account: starknet::core::types::Felt,
    signer: loot_survivor_mcp::chain::wallet_account::AccountSigner,
    policy: &loot_survivor_mcp::wallet::PolicySettings,
) -> loot_survivor_mcp::chain::ChainClient {
    use std::sync::Arc;
    use std::time::Duration;

    use loot_survivor_mcp::chain::{ChainClient, ConnectOptions};
    use loot_survivor_mcp::wallet::PolicyGuard;

    ChainClient::connect(ConnectOptions {
        rpc_url: rpc.clone(),
        request_timeout: Duration::from_secs(20),
        chain_id: starknet::core::types::Felt::from_bytes_be_slice(b"SN_SEPOLIA"),
        spec_versions: vec!["0.".into()],
        deployment: loot_survivor_mcp::chain::Deployment::V1(addresses.clone()),
        account_address: account,
        signer,
        settings_id: 0,
        poll: Duration::from_millis(100),
        fee_multiplier: 1.5,
        policy: Arc::new(PolicyGuard::new(
            policy,
            true,
            addresses.signable_entrypoints(),
        )),
        vrf: true,
    })
    .await
    .unwrap()
}
