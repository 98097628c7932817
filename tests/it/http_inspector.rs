//! The MCP Inspector CLI (npm `@modelcontextprotocol/inspector`, `scripts/setup-node-client.sh`)
//! in streamable HTTP mode (`--transport http --header "Authorization: Bearer …"`) plays a whole
//! game on one `serve --http` sim server, one Inspector process per call; a wrong token is
//! refused. Skipped, with a message, when node is not on PATH.

use crate::common;
use crate::http_support;
use crate::inspector_support;

use std::path::Path;
use std::process::Command;

use common::mcp::parse_json_result;
use http_support::{Server, assert_no_token, make_tokens};
use inspector_support::inspector;
use serde_json::Value;

/// Most game actions before stopping (each is one node process, about a second).
const MAX_ACTIONS: usize = 60;

/// One `tools/call` through the Inspector CLI over HTTP: (exit ok, stdout, stderr).
fn run(
    launcher: &Path,
    url: &str,
    token: &str,
    tool: &str,
    args: &[(&str, String)],
) -> (bool, String, String) {
    let mut cmd = Command::new("node");
    cmd.arg(launcher)
        .args(["--cli", url, "--transport", "http", "--header"])
        .arg(format!("Authorization: Bearer {token}"))
        .args(["--method", "tools/call", "--tool-name", tool]);
    for (k, v) in args {
        cmd.arg("--tool-arg").arg(format!("{k}={v}"));
    }
    let out = cmd.output().expect("run the Inspector CLI");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn ok(launcher: &Path, url: &str, token: &str, tool: &str, args: &[(&str, String)]) -> Value {
    let (success, out, err) = run(launcher, url, token, tool, args);
    assert!(success, "{tool}: the Inspector failed: {out}{err}");
    let result: Value = serde_json::from_str(out.trim())
        .unwrap_or_else(|e| panic!("{tool}: not JSON ({e}): {out}"));
    parse_json_result(format!("{tool} {args:?}"), &result).into_ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_inspector_cli_plays_a_whole_game_over_http() {
    let Some(launcher) = inspector() else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let tokens = make_tokens(home.path(), 1);
    let server = Server::start(home.path(), &[], &[("LS_SIM__SEED", "1")]).await;
    let (url, token) = (server.url.clone(), tokens[0].token.clone());
    let (launcher2, url2, token2) = (launcher.clone(), url.clone(), token.clone());
    let (actions, end) = tokio::task::spawn_blocking(move || {
        let (launcher, url, token) = (launcher2, url2, token2);
        let started = ok(
            &launcher,
            &url,
            &token,
            "ls_new_game",
            &[("weapon", "wand".into())],
        );
        let id = started["adventurer_id"]
            .as_u64()
            .expect("adventurer id")
            .to_string();
        let mut state = started["state"].clone();
        let mut actions = 1;
        let mut vitality = true;
        while state["phase"] != "dead" && actions < MAX_ACTIONS {
            let idarg = ("adventurer_id", id.clone());
            let out = match state["phase"].as_str().unwrap() {
                "in_battle" => ok(
                    &launcher,
                    &url,
                    &token,
                    "ls_attack",
                    &[idarg, ("to_the_death", "true".into())],
                ),
                "stat_upgrade" => {
                    let points = state["stat_points"].as_u64().unwrap().to_string();
                    let stat = if vitality { "vitality" } else { "strength" };
                    vitality = !vitality;
                    ok(
                        &launcher,
                        &url,
                        &token,
                        "ls_upgrade",
                        &[idarg, (stat, points)],
                    )
                }
                "exploring" => ok(
                    &launcher,
                    &url,
                    &token,
                    "ls_explore",
                    &[idarg, ("till_beast", "true".into())],
                ),
                other => panic!("unexpected phase {other}"),
            };
            state = out["state"].clone();
            actions += 1;
        }
        (actions, state)
    })
    .await
    .unwrap();
    eprintln!("inspector over HTTP: {actions} actions, end state {end}");
    assert_eq!(
        end["phase"], "dead",
        "a whole game within {MAX_ACTIONS} actions: {end}"
    );
    assert!(actions >= 3, "{actions}");
    let bad = "lsmcp_not-a-valid-token";
    let (success, out, err) = run(&launcher, &url, bad, "ls_wallet", &[]);
    assert!(!success, "a bad token was accepted: {out}");
    assert!(err.contains("Unauthorized"), "{err}");
    let log = server.stop().await;
    assert!(
        log.contains("refused an HTTP request: unknown bearer token"),
        "{log}"
    );
    assert_no_token(&log, &[&token, bad]);
}
