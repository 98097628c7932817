//! The first minute of a new user: the built binary, copied away from its build directory and
//! started as the README's Claude config starts it (no arguments, another working directory, a
//! fresh data directory), serves a sim game over stdio; rmcp's handshake dump stays out of the
//! default log; started by hand in a terminal, it says how to connect a client.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Stdio;

use common::BIN;
use common::mcp::ok;
use rmcp::ServiceExt;
use rmcp::model::ReadResourceRequestParams;
use rmcp::transport::TokioChildProcess;
use serde_json::json;
use tokio::io::AsyncReadExt;

/// The binary copied into a fresh directory, as a user would copy or install it.
fn copied_binary(dir: &Path) -> PathBuf {
    let exe = dir.join("loot-survivor-mcp");
    std::fs::copy(BIN, &exe).expect("copy the binary");
    exe
}

#[tokio::test]
async fn a_copied_binary_serves_a_sim_game_from_anywhere() {
    let bin_dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    let exe = copied_binary(bin_dir.path());

    let command = || {
        let mut cmd = tokio::process::Command::new(&exe);
        cmd.current_dir(cwd.path())
            .env("LS_HOME", home.path())
            .env_remove("RUST_LOG")
            .env_remove("LS_CHAIN")
            .env_remove("LS_CONFIG_DIR");
        cmd
    };
    // A process forked by another test while the copy was open for writing holds it until its
    // exec: "text file busy" for a moment. Retry that, nothing else.
    let mut attempts = 0;
    let (transport, stderr) = loop {
        match TokioChildProcess::builder(command())
            .stderr(Stdio::piped())
            .spawn()
        {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && attempts < 50 => {
                attempts += 1;
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
            spawned => break spawned.expect("spawn the copied binary"),
        }
    };
    let mut stderr = stderr.expect("piped stderr");
    let log = tokio::spawn(async move {
        let mut out = String::new();
        let _ = stderr.read_to_string(&mut out).await;
        out
    });
    let client = ().serve(transport).await.expect("MCP handshake");

    let s = ok(&client, "ls_new_game", json!({"weapon": "Wand"})).await;
    assert_eq!(s["state"]["phase"], "in_battle", "{s}");
    assert!(s.get("tx").is_none(), "no made-up hash on sim: {s}");
    let id = s["adventurer_id"].as_u64().unwrap();
    ok(&client, "ls_attack", json!({"adventurer_id": id})).await;
    let rules = client
        .read_resource(ReadResourceRequestParams::new("ls://rules"))
        .await
        .unwrap();
    assert!(!rules.contents.is_empty());
    client.cancel().await.ok();

    let log = log.await.unwrap();
    assert!(
        !log.contains("Service initialized") && !log.contains("rmcp::service"),
        "rmcp's handshake dump is not in the default log:\n{log}"
    );
    assert!(
        log.contains("serving MCP") && log.contains("transport=\"stdio\""),
        "our own start line still is:\n{log}"
    );
    assert!(
        !log.contains("claude mcp add"),
        "no terminal note when a client owns stdin"
    );
}

#[test]
fn in_a_terminal_the_server_says_how_to_connect_a_client() {
    let bin_dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let exe = copied_binary(bin_dir.path());
    // `script` gives the server a pseudo-terminal for stdin, stdout and stderr; closing our end
    // (stdin from /dev/null) ends the session.
    let out = std::process::Command::new("timeout")
        .args(["20", "script", "-qec"])
        .arg(exe.display().to_string())
        .arg("/dev/null")
        .env("LS_HOME", home.path())
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .output();
    let Ok(out) = out else {
        eprintln!("skipped: `script` (util-linux) or `timeout` is not installed");
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout).replace('\r', "");
    let exe = exe.display().to_string();
    assert!(
        text.contains(&format!("claude mcp add loot-survivor -- {exe}")),
        "{text}"
    );
    assert!(text.contains(&format!("{exe} play")), "{text}");
    assert!(text.contains("embedded practice chain"), "{text}");
}

/// `devnet deploy` takes its node as every other command does: the shared `--rpc-url` (or its
/// alias `--rpc`), else the profile's `chain.rpc_url` (here from `STARKNET_RPC_URL`). On a closed
/// port each fails reaching that port, not for a missing option.
#[test]
fn devnet_deploy_goes_to_the_node_the_shared_settings_name() {
    let port = loot_survivor_mcp::devnet::free_port().expect("a free port");
    let url = format!("http://127.0.0.1:{port}/");
    let home = tempfile::tempdir().unwrap();
    let out = home.path().join("manifest.json");
    for (args, env) in [
        (vec!["--rpc-url", url.as_str()], None),
        (vec!["--rpc", url.as_str()], None),
        (vec![], Some(url.as_str())),
    ] {
        let mut cmd = std::process::Command::new(common::BIN);
        cmd.args(["devnet", "deploy", "--profile", "devnet"])
            .args(&args)
            .arg("--out")
            .arg(&out)
            .env("LS_HOME", home.path())
            .env("RUST_LOG", "warn")
            .env_remove("STARKNET_RPC_URL");
        if let Some(url) = env {
            cmd.env("STARKNET_RPC_URL", url);
        }
        let run = cmd.output().expect("run devnet deploy");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success(), "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!("127.0.0.1:{port}")) && !stderr.contains("required"),
            "{args:?} {env:?}: {stderr}"
        );
    }
    assert!(!out.exists(), "nothing deployed, no manifest");
}
