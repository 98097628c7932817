//! Shared harness of the devnet integration tests: a fresh starknet-devnet with the practice world
//! deployed by the real binary, and an MCP client driving the real binary over stdio.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Stdio;

use loot_survivor_mcp::devnet::{Devnet, devnet_binary, free_port};
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;
use tokio::io::AsyncReadExt;

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
    devnet_binary().expect(
        "starknet-devnet is required for this test: run scripts/install-devnet.sh (the README test command does)",
    );
    let port = free_port().expect("free port");
    let devnet = Devnet::start(port).await.expect("devnet starts");
    let dir = tempfile::tempdir().expect("tempdir");
    let manifest = dir.path().join("manifest.json");
    let out = tokio::process::Command::new(BIN)
        .args(["devnet", "deploy", "--profile", "devnet", "--rpc"])
        .arg(devnet.url.as_str())
        .arg("--out")
        .arg(&manifest)
        .env("RUST_LOG", "warn")
        .output()
        .await
        .expect("run devnet deploy");
    assert!(
        out.status.success(),
        "devnet deploy failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    World {
        devnet,
        manifest,
        _dir: dir,
    }
}

/// An MCP client connected to the real binary over stdio, with the server's stderr captured.
pub struct Client {
    pub service: RunningService<RoleClient, ()>,
    stderr: tokio::task::JoinHandle<String>,
}

impl World {
    /// Launches `loot-survivor-mcp serve` against this devnet and connects an MCP client.
    pub async fn client(&self, extra_env: &[(&str, &str)]) -> Client {
        let mut cmd = tokio::process::Command::new(BIN);
        cmd.args(["serve", "--profile", "devnet", "--rpc-url"])
            .arg(self.devnet.url.as_str())
            .env("LS_MANIFEST", &self.manifest)
            .env("RUST_LOG", "info");
        for (k, v) in extra_env {
            cmd.env(k, v);
        }
        let (transport, stderr) = TokioChildProcess::builder(cmd)
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn the server");
        let mut stderr = stderr.expect("piped stderr");
        // Drain stderr continuously so the server never blocks on a full pipe.
        let stderr = tokio::spawn(async move {
            let mut out = String::new();
            let _ = stderr.read_to_string(&mut out).await;
            out
        });
        let service = ().serve(transport).await.expect("MCP handshake");
        Client { service, stderr }
    }
}

/// A tool call's outcome, parsed from the JSON the agent sees.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub is_error: bool,
    pub json: Value,
    pub structured: Option<Value>,
    pub text: String,
}

impl Client {
    /// Calls a tool and parses its result.
    pub async fn call(&self, tool: &str, args: Value) -> Outcome {
        let Value::Object(args) = args else {
            panic!("arguments must be an object")
        };
        let r: CallToolResult = self
            .service
            .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args))
            .await
            .unwrap_or_else(|e| panic!("{tool}: protocol error {e}"));
        let text = r
            .content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.clone()))
            .collect::<Vec<_>>()
            .join("");
        let json = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{tool}: result text is not JSON ({e}): {text}"));
        Outcome {
            is_error: r.is_error == Some(true),
            json,
            structured: r.structured_content.clone(),
            text,
        }
    }

    /// Calls a tool that must succeed and returns its structured content.
    pub async fn ok(&self, tool: &str, args: Value) -> Value {
        let o = self.call(tool, args.clone()).await;
        assert!(!o.is_error, "{tool} {args} failed: {}", o.text);
        let s = o.structured.expect("structuredContent on success");
        assert_eq!(s, o.json, "text and structured content agree");
        assert_eq!(s["ok"], true);
        s
    }

    /// Stops the server and returns everything it wrote to stderr.
    pub async fn shutdown(self) -> String {
        self.service.cancel().await.expect("client shutdown");
        self.stderr.await.expect("stderr reader")
    }
}
