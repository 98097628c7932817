//! The first minute of a new user: the built binary, copied away from its build directory and
//! started as the README's Claude config starts it (no arguments, another working directory, a
//! fresh data directory), serves a sim game over stdio; rmcp's handshake dump stays out of the
//! default log; started by hand in a terminal, it says how to connect a client.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ReadResourceRequestParams};
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};
use tokio::io::AsyncReadExt;

const BIN: &str = env!("CARGO_BIN_EXE_loot-survivor-mcp");

/// The binary copied into a fresh directory, as a user would copy or install it.
fn copied_binary(dir: &Path) -> PathBuf {
    let exe = dir.join("loot-survivor-mcp");
    std::fs::copy(BIN, &exe).expect("copy the binary");
    exe
}

fn args(v: Value) -> serde_json::Map<String, Value> {
    v.as_object().unwrap().clone()
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

    let started = client
        .call_tool(
            CallToolRequestParams::new("ls_new_game")
                .with_arguments(args(json!({"weapon": "Wand"}))),
        )
        .await
        .unwrap();
    assert_ne!(started.is_error, Some(true), "{started:?}");
    let s = started.structured_content.unwrap();
    assert_eq!(s["chain"], "sim");
    let id = s["adventurer_id"].as_u64().unwrap();
    let hit = client
        .call_tool(
            CallToolRequestParams::new("ls_attack")
                .with_arguments(args(json!({"adventurer_id": id}))),
        )
        .await
        .unwrap();
    assert_ne!(hit.is_error, Some(true), "{hit:?}");
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
