//! `check`'s VRF rule on a real node: starknet-devnet with the v2 practice world drawing salted
//! randomness, a few actions played through the real binary, then `check` on a profile that
//! names GameCore's addresses but no VRF source: it finds the salt recipe from those
//! transactions (and a server on that profile, refusing to draw, logs it at start),
//! `--settle-vrf` keeps it in the data directory, the next `check` agrees with it,
//! a server started on that data directory plays with it, and a profile saying otherwise is a
//! mismatch.

use crate::common;
use crate::common::check_run::{address_env, check, command, first};
use crate::denshokan_support;

use std::path::Path;

use loot_survivor_mcp::deploy::v2::V2Deployment;
use serde_json::{Value, json};

use denshokan_support::FakeDenshokan;

/// `check --settle-vrf` that must keep nothing: its exit code and stderr.
async fn refused_settle(url: &url::Url, home: &Path, env: &[(String, String)]) -> (i32, String) {
    let out = command(url, home, env)
        .arg("--settle-vrf")
        .output()
        .await
        .expect("run check");
    assert!(
        !home.join("settled").join("devnet.toml").exists(),
        "nothing is kept"
    );
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Devnet's predeployed account #1 (seed 0) and its key: a second player.
const ACCOUNT_1: &str = "0x078662e7352d062084b0010068b99288486c2d8b914f6e2a55ce945f8792c8b1";
const KEY_1: &str = "0xe1406455b7d66b1690803be066cbe5e";

/// The `vrf` section's one check: (status, detail).
fn vrf(report: &Value) -> (String, String) {
    first(report, "vrf")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_vrf_rule_is_found_settled_agreed_with_and_played() {
    let devnet = common::start_devnet(&[]).await;
    let url = &devnet.url;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("v2.json");
    common::devnet_deploy(url, &["--generation", "v2", "--vrf", "salt"], &file).await;
    let d = V2Deployment::load(&file).unwrap();
    let fake = FakeDenshokan::start().await;

    // A few actions that draw randomness, played by a server that knows the world's source.
    let player = common::serve_v2(url, &file, &[]).await;
    let started = player
        .ok("ls_new_game", json!({"weapon": "Short Sword"}))
        .await;
    let id = started["adventurer_id"].clone();
    let after = player.ok("ls_attack", json!({"adventurer_id": id})).await;
    let points = after["adventurer"]["stat_upgrades_available"].clone();
    player.shutdown().await;

    // A profile with GameCore's addresses and no VRF source, as mainnet's is.
    let env = address_env(&d, &fake.url);
    let home = dir.path().join("home");

    let found = check(url, &home, &[], &env).await;
    let (status, detail) = vrf(&found.report);
    assert_eq!(status, "ok", "{detail}");
    assert!(
        detail.contains("salt:adventurer_state") && detail.contains("--settle-vrf"),
        "{detail}"
    );
    assert_eq!(found.code, 0, "{}", found.report);
    assert_eq!(found.report["vrf_rule"]["conclusion"]["rule"], "found");
    assert!(
        !found.report["vrf_rule"]["findings"]
            .as_array()
            .unwrap()
            .is_empty(),
        "the evidence goes with the report"
    );

    // A server on that profile looks for the rule at start and says how to keep it.
    let env_refs: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let unset = common::serve_profile("devnet", url, &file, (), &env_refs).await;
    let refused = unset
        .err("ls_explore", json!({"adventurer_id": id}), "RPC_ERROR")
        .await;
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("check --settle-vrf"),
        "{refused}"
    );
    let log = unset.shutdown().await;
    assert!(
        log.contains("salt:adventurer_state")
            && log.contains("loot-survivor-mcp check --profile devnet --settle-vrf"),
        "the start-up log names the rule found and the command that keeps it:\n{log}"
    );

    // One player's actions settle nothing, nor does a report whose node is not the profile's chain.
    let (code, why) = refused_settle(url, &home, &env).await;
    assert_ne!(code, 0);
    assert!(why.contains("by 1 player(s)"), "{why}");
    let other = common::serve_v2(
        url,
        &file,
        &[("LS_PRIVATE_KEY", KEY_1), ("LS_ACCOUNT_ADDRESS", ACCOUNT_1)],
    )
    .await;
    let theirs = other.ok("ls_new_game", json!({"weapon": "Wand"})).await;
    other
        .ok(
            "ls_attack",
            json!({"adventurer_id": theirs["adventurer_id"].clone()}),
        )
        .await;
    other.shutdown().await;
    let mut elsewhere = env.clone();
    elsewhere.push(("LS_CHAIN__CHAIN_ID".into(), "SN_MAIN".into()));
    let (code, why) = refused_settle(url, &home, &elsewhere).await;
    assert_ne!(code, 0);
    assert!(why.contains("the node check is not ok"), "{why}");

    let settled = check(url, &home, &["--settle-vrf"], &env).await;
    assert_eq!(settled.code, 0, "{}", settled.stderr);
    let kept = std::fs::read_to_string(home.join("settled").join("devnet.toml"))
        .unwrap_or_else(|e| panic!("{e}: {}", settled.stderr));
    assert!(
        kept.contains("vrf_source = \"salt:adventurer_state\"")
            && kept.contains(&format!("game_core = \"{}\"", d.game.to_fixed_hex_string())),
        "{kept}"
    );

    let again = check(url, &home, &[], &env).await;
    let (status, detail) = vrf(&again.report);
    assert_eq!(status, "ok", "{detail}");
    assert!(detail.contains("the profile says the same"), "{detail}");

    let home_env = home.display().to_string();
    let mut serve_env = env_refs.clone();
    serve_env.push(("LS_HOME", &home_env));
    let settled_player = common::serve_profile("devnet", url, &file, (), &serve_env).await;
    if points.as_u64() > Some(0) {
        settled_player
            .ok(
                "ls_upgrade",
                json!({"adventurer_id": id, "vitality": points}),
            )
            .await;
    }
    let out = settled_player
        .ok("ls_explore", json!({"adventurer_id": id}))
        .await;
    assert_eq!(
        out["status"], "ACCEPTED_ON_L2",
        "the settled source is played"
    );
    settled_player.shutdown().await;

    let mut nonce = env.clone();
    nonce.push(("LS_DEPLOYMENT__VRF_SOURCE".into(), "nonce".into()));
    let wrong = check(url, &home, &[], &nonce).await;
    let (status, detail) = vrf(&wrong.report);
    assert_eq!(status, "mismatch", "{detail}");
    assert!(detail.contains("the profile says nonce"), "{detail}");
    assert_eq!(wrong.code, 1);
}
