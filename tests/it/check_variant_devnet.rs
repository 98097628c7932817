//! `check` and the server on a v2 practice world shaped like what only a live read settles on
//! mainnet: a subsystem contract, not GameCore, consumes the VRF; games of settings 1 draw salted
//! randomness and games of settings 2 none; there is no settings 0. Two players play settings-1
//! games and one a settings-2 game; then a profile that knows only the addresses is told that
//! settings 0 do not exist (and its server refuses a new game before signing), reads and settles
//! the rule of settings 1 with its consumer, plays a whole game with it, refuses an action that
//! draws on the settings-2 game before signing, and a profile whose requests name GameCore is a
//! mismatch.

use crate::common;
use crate::common::check_run::{address_env, check, first};
use crate::common::v2_replay::next_move;
use crate::denshokan_support;

use std::path::Path;

use loot_survivor_mcp::deploy::v2::V2Deployment;
use serde_json::{Value, json};
use starknet::core::types::Felt;

use denshokan_support::FakeDenshokan;

/// Devnet's predeployed account #1 (seed 0) and its key: a second player.
const ACCOUNT_1: &str = "0x078662e7352d062084b0010068b99288486c2d8b914f6e2a55ce945f8792c8b1";
const KEY_1: &str = "0xe1406455b7d66b1690803be066cbe5e";

/// Actions a whole game gets at most.
const MAX_ACTIONS: usize = 300;

/// A new game and one attack on it, by a server on the deployment file with `env`.
async fn play_two(url: &url::Url, file: &Path, env: &[(&str, &str)]) -> Value {
    let player = common::serve_v2(url, file, env).await;
    let started = player
        .ok("ls_new_game", json!({"weapon": "Short Sword"}))
        .await;
    let id = started["adventurer_id"].clone();
    player.ok("ls_attack", json!({"adventurer_id": id})).await;
    player.shutdown().await;
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_variant_world_is_reported_settled_refused_and_played() {
    let devnet = common::start_devnet(&[]).await;
    let url = &devnet.url;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("v2.json");
    common::devnet_deploy(
        url,
        &[
            "--generation",
            "v2",
            "--settings",
            "1:salt,2:off",
            "--vrf-consumer",
            "subsystem",
        ],
        &file,
    )
    .await;
    let d = V2Deployment::load(&file).unwrap();
    let subsystem = d.vrf_consumer.expect("a subsystem consumes the VRF");
    assert_ne!(subsystem, d.game);
    let fake = FakeDenshokan::start().await;

    // Other players' games: two players on settings 1 (salted, through the subsystem, as the
    // deployment file says), one game on settings 2 (no VRF).
    play_two(url, &file, &[("LS_CHAIN__SETTINGS_ID", "1")]).await;
    play_two(
        url,
        &file,
        &[
            ("LS_CHAIN__SETTINGS_ID", "1"),
            ("LS_PRIVATE_KEY", KEY_1),
            ("LS_ACCOUNT_ADDRESS", ACCOUNT_1),
        ],
    )
    .await;
    let two = play_two(
        url,
        &file,
        &[
            ("LS_CHAIN__SETTINGS_ID", "2"),
            ("LS_DEPLOYMENT__VRF_SOURCE", "off"),
            ("LS_DEPLOYMENT__VRF_SETTINGS", "2"),
        ],
    )
    .await;

    // A profile that knows only the addresses, as mainnet's does.
    let env = address_env(&d, &fake.url);
    let hex = |f: Felt| format!("{f:#x}");
    let home = dir.path().join("home");
    let home_env = home.display().to_string();

    // Settings 0 do not exist: reported, and a server minting with them refuses before signing.
    let common::check_run::Run { code, report, .. } = check(url, &home, &[], &env).await;
    let (status, detail) = first(&report, "settings");
    assert_eq!(status, "mismatch", "{detail}");
    assert!(detail.contains("settings 0 do not exist"), "{detail}");
    assert_eq!(code, 1);
    let mut zero: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    zero.push(("LS_HOME", &home_env));
    let before = common::nonce_and_balance(url, common::v2::ACCOUNT_0)
        .await
        .0;
    let server = common::serve_profile("devnet", url, &file, (), &zero).await;
    let refused = server
        .err("ls_new_game", json!({"weapon": "Wand"}), "POLICY_DENIED")
        .await;
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("settings 0 (chain.settings_id) do not exist"),
        "{refused}"
    );
    server.shutdown().await;
    assert_eq!(
        common::nonce_and_balance(url, common::v2::ACCOUNT_0)
            .await
            .0,
        before,
        "nothing was sent"
    );

    // Settings 1: the rule is read off its games only, with the subsystem as the consumer.
    let mut ones = env.clone();
    ones.push(("LS_CHAIN__SETTINGS_ID".into(), "1".into()));
    let common::check_run::Run { code, report, .. } = check(url, &home, &[], &ones).await;
    let (status, detail) = first(&report, "vrf");
    assert_eq!(status, "ok", "{detail}");
    assert!(
        detail.contains("for settings 1: salt:adventurer_state")
            && detail.contains(&format!("consumed by {}", hex(subsystem)))
            && detail.contains("settings 2: off"),
        "{detail}"
    );
    assert_eq!(code, 0, "{report}");
    let common::check_run::Run { code, stderr, .. } =
        check(url, &home, &["--settle-vrf"], &ones).await;
    assert_eq!(code, 0, "{stderr}");
    let kept = std::fs::read_to_string(home.join("settled").join("devnet.toml")).unwrap();
    assert!(
        kept.contains("vrf_source = \"salt:adventurer_state\"")
            && kept.contains(&format!(
                "vrf_consumer = \"{}\"",
                subsystem.to_fixed_hex_string()
            ))
            && kept.contains("vrf_settings = 1"),
        "{kept}"
    );

    // The settled rule plays a whole game, and refuses the settings-2 game's draws unsent.
    let mut settled: Vec<(&str, &str)> =
        ones.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    settled.push(("LS_HOME", &home_env));
    let server = common::serve_profile("devnet", url, &file, (), &settled).await;
    let started = server
        .ok("ls_new_game", json!({"weapon": "Short Sword"}))
        .await;
    let id = started["adventurer_id"].clone();
    let mut actions = 0;
    loop {
        let adv = server.adventurer(&id).await;
        if adv["phase"] == "dead" {
            break;
        }
        assert!(actions < MAX_ACTIONS, "a game ends: {adv}");
        let (tool, args) = next_move(&id, &adv);
        let out = server.ok(tool, args).await;
        assert_eq!(out["status"], "ACCEPTED_ON_L2", "{tool}: {out}");
        actions += 1;
    }
    assert!(actions >= 2, "fights and explores were played");
    // On the settings-2 game, what draws no randomness still works; what draws is refused.
    let mut adv = server.adventurer(&two).await;
    if adv["phase"] == "stat_upgrade" {
        let (tool, args) = next_move(&two, &adv);
        server.ok(tool, args).await;
        adv = server.adventurer(&two).await;
    }
    let (tool, args) = next_move(&two, &adv);
    assert_ne!(tool, "ls_upgrade", "{adv}");
    let before = common::nonce_and_balance(url, common::v2::ACCOUNT_0)
        .await
        .0;
    let other = server.err(tool, args, "VALIDATION_ERROR").await;
    assert!(
        other["message"].as_str().unwrap().contains(
            "minted with game settings 2, while this deployment's VRF source holds for settings 1"
        ),
        "{other}"
    );
    assert_eq!(
        common::nonce_and_balance(url, common::v2::ACCOUNT_0)
            .await
            .0,
        before,
        "nothing was sent"
    );
    server.shutdown().await;

    // A profile whose requests name GameCore, not the consumer the games show, is a mismatch.
    let mut game_core = ones.clone();
    game_core.push((
        "LS_DEPLOYMENT__VRF_SOURCE".into(),
        "salt:adventurer_state".into(),
    ));
    let other_home = dir.path().join("other");
    let common::check_run::Run { code, report, .. } =
        check(url, &other_home, &[], &game_core).await;
    let (status, detail) = first(&report, "vrf");
    assert_eq!(status, "mismatch", "{detail}");
    assert!(
        detail.contains(&format!("name {} as the consumer", hex(d.game))),
        "{detail}"
    );
    assert_eq!(code, 1);
}
