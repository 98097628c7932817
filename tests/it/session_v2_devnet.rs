//! A Controller session on the second generation: starknet-devnet with the v1 world and the v2
//! practice world deployed side by side (VRF source `salt:adventurer_state`, whose seed does not
//! depend on who submits the transaction, as the practice `nonce` source's does on a relayed
//! one), the real Controller v1.0.9 class, the real binary serving v2 with `LS_WALLET__KIND=session` as the player's guide says. First a
//! session approved for the v1 world's contracts (registered on chain) is offered to the v2
//! server: it is reported as approved for the v1 world at start, by `ls_wallet`, by a write
//! (`SESSION_INVALID`, `other_deployment`, nothing signed) and by `session status`, never as "not
//! registered". Then a session whose policies are built from the v2 deployment is approved while
//! the server runs, and a whole v2 game is played through MCP by the advice line's combined moves (a
//! level-up's points, purchases and first step in one execution), signed only by that session key:
//! the mint as a session-signed `__execute__` (the paymaster stand-in declines it), every other
//! write, VRF request included, as a session-signed outside execution the stand-in relays.
//!
//! Skipped, with a message, without the Controller class fixture. Needs starknet-devnet.

use crate::common;

use std::time::{SystemTime, UNIX_EPOCH};

use common::advice_game::follow;
use common::controller::{DeployedController, class_dir, deploy_controller};
use common::paymaster::{self, Relayer};
use loot_survivor_mcp::chain::controller::policies::{deployment_uses_vrf, session_policy_pairs};
use loot_survivor_mcp::chain::manifest::{GameAddresses, read_manifest};
use loot_survivor_mcp::chain::{Deployment, V2Contracts};
use loot_survivor_mcp::deploy::v2::V2Deployment;
use loot_survivor_mcp::wallet::ScryptCost;
use loot_survivor_mcp::wallet::session::SessionStore;
use serde_json::json;
use starknet::core::types::Felt;
use starknet::macros::selector;

const PASSWORD: &str = "correct horse battery staple";
/// Most actions before the game is surrendered instead of played to its end.
const MAX_ACTIONS: usize = 400;

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// The environment the guide gives the server (and `session status`) for a v2 profile.
fn v2_env<'a>(home: &'a str, file: &'a str) -> Vec<(&'a str, &'a str)> {
    vec![
        ("LS_HOME", home),
        ("LS_WALLET__KIND", "session"),
        ("LS_KEYSTORE_PASSWORD", PASSWORD),
        ("LS_GENERATION", "v2"),
        ("LS_DEPLOYMENT__DEPLOYMENT_FILE", file),
    ]
}

/// `loot-survivor-mcp session status --profile devnet` with `env`: its stdout.
fn session_status(rpc: &url::Url, env: &[(&str, &str)]) -> String {
    let out = std::process::Command::new(common::BIN)
        .args(["session", "status", "--profile", "devnet", "--rpc-url"])
        .arg(rpc.as_str())
        .envs(env.iter().copied())
        .env_remove("LS_KEYSTORE_PASSWORD")
        .output()
        .expect("run session status");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The Controller's nonce.
async fn nonce(url: &url::Url, c: &DeployedController) -> u64 {
    let v = common::rpc(
        url,
        "starknet_getNonce",
        json!({"block_id": "pre_confirmed", "contract_address": format!("{:#x}", c.address)}),
    )
    .await;
    u64::from_str_radix(v.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_v2_game_signed_only_by_a_session_built_from_the_v2_deployment() {
    let Some(dir) = class_dir() else {
        return;
    };
    let devnet = common::start_devnet(&[]).await;
    let files = tempfile::tempdir().unwrap();
    let manifest = files.path().join("manifest.json");
    let v2_file = files.path().join("v2.json");
    common::devnet_deploy(&devnet.url, &[], &manifest).await;
    common::devnet_deploy(
        &devnet.url,
        &["--generation", "v2", "--vrf", "salt"],
        &v2_file,
    )
    .await;
    let v1 = Deployment::V1(GameAddresses::from_map(&read_manifest(&manifest).unwrap()).unwrap());
    let d = V2Deployment::load(&v2_file).unwrap();
    let v2 = Deployment::V2(V2Contracts::from(&d));
    let controller = deploy_controller(&dir, &devnet.url, 21).await;

    let home = tempfile::tempdir().unwrap();
    let store = SessionStore::at(home.path().join("devnet")).with_cost(ScryptCost { log_n: 4 });
    let v1_pairs = session_policy_pairs(&v1, false);
    let v1_session = controller
        .store_session(&store, &v1_pairs, now() + 3600, PASSWORD)
        .await;
    assert!(controller.is_registered(v1_session.session_hash()).await);

    let (rpc, stand_in) = paymaster::start(devnet.url.clone(), Relayer::devnet_account_1()).await;
    let home_str = home.path().to_str().unwrap();
    let file_str = v2_file.to_str().unwrap();
    let env = v2_env(home_str, file_str);
    let client = common::serve_profile("devnet", &rpc, &v2_file, (), &env).await;

    // The v1 session, offered to the v2 server: named as such, not as "not registered".
    let game_systems = format!("{:#x}", v1.game_address());
    let game_core = format!("{:#x}", v2.game_address());
    let wallet = client.ok("ls_wallet", json!({})).await["wallet"].clone();
    assert_eq!(
        wallet["account_address"],
        format!("{:#x}", controller.address)
    );
    assert_eq!(wallet["session"]["problem"], "other_deployment", "{wallet}");
    let refused = client
        .err("ls_new_game", json!({"weapon": "Wand"}), "SESSION_INVALID")
        .await;
    let message = refused["message"].as_str().unwrap();
    assert!(
        message.contains(&format!(
            "approved for the v1 world's contracts (game systems {game_systems})"
        )) && message.contains(&format!("plays the v2 contracts (GameCore {game_core})")),
        "{refused}"
    );
    assert_eq!(refused["details"]["problem"], "other_deployment");
    let hint = refused["hint"].as_str().unwrap();
    assert!(
        hint.contains("nothing was signed")
            && hint.contains("`LS_GENERATION=v2 loot-survivor-mcp session new --profile devnet`"),
        "{refused}"
    );
    assert!(
        stand_in.requests().is_empty(),
        "nothing reached the paymaster"
    );
    let status = session_status(&rpc, &env);
    assert!(
        status.contains("approved for the v1 world's contracts")
            && status.contains("[other_deployment]")
            && status.contains("registered true")
            && !status.contains("not_registered"),
        "{status}"
    );

    // The session the v2 deployment asks for, approved while the server runs.
    let vrf = deployment_uses_vrf(&v2, false);
    assert!(vrf, "the salt source asks for request_random");
    let v2_pairs = session_policy_pairs(&v2, vrf);
    assert!(v2_pairs.contains(&(d.vrf, "request_random")));
    assert!(v2_pairs.contains(&(d.game, "surrender")));
    assert!(v2_pairs.contains(&(d.token, "mint_game")));
    let v2_session = controller
        .store_session(&store, &v2_pairs, now() + 3600, PASSWORD)
        .await;
    let status = session_status(&rpc, &env);
    assert!(status.contains("ready"), "{status}");

    // The mint goes from the Controller itself (declined by the stand-in), the rest relayed.
    stand_in.refuse(d.token, selector!("mint_game"));
    let before = nonce(&devnet.url, &controller).await;
    let started = client
        .ok(
            "ls_new_game",
            json!({"weapon": "Wand", "detail": "compact"}),
        )
        .await;
    let id = started["adventurer_id"].clone();
    assert!(id.is_string(), "a v2 id is a decimal string: {started}");
    assert_eq!(
        nonce(&devnet.url, &controller).await,
        before + 1,
        "only the mint was sent by the Controller itself"
    );
    stand_in.sponsor_all();
    let wallet = client.ok("ls_wallet", json!({})).await["wallet"].clone();
    assert!(wallet["session"].get("problem").is_none(), "{wallet}");
    let allowed = wallet["session"]["allowed"].as_array().unwrap();
    for name in ["drop_items", "surrender", "request_random", "mint_game"] {
        assert!(allowed.iter().any(|a| a == name), "{name}: {wallet}");
    }

    // The game by the advice line's combined moves: a level-up is one outside execution.
    let game = follow(&client, started, MAX_ACTIONS).await;
    let actions = game.calls - 1;
    let dead = game.died;
    if !dead {
        client
            .ok(
                "ls_surrender",
                json!({"adventurer_id": id, "confirm_surrender": true}),
            )
            .await;
    }
    eprintln!(
        "{}, then {}",
        game.summary("combined moves through the v2 session"),
        if dead { "died" } else { "surrendered" }
    );
    let end = client
        .ok("ls_get_adventurer", json!({"adventurer_id": id}))
        .await;
    assert_eq!(end["adventurer"]["phase"], "dead", "{end}");

    // Every write after the mint was an outside execution signed by the v2 session key.
    assert_eq!(
        nonce(&devnet.url, &controller).await,
        before + 1,
        "nothing else was sent by the Controller itself"
    );
    let relayed = stand_in.requests();
    assert!(
        relayed.len() >= game.txs.len(),
        "the mint offered, the start and {} transactions of {actions} calls{}: {}",
        game.txs.len() - 2,
        if dead { "" } else { ", the surrender" },
        relayed.len()
    );
    let mut vrf_bundles = 0;
    let mut level_ups = 0;
    let mut declined_mints = 0;
    for body in &relayed {
        let (account, exec, signature) =
            paymaster::execution_v3(&body["params"]).expect("a v3 outside execution");
        assert_eq!(account, controller.address);
        // 'session-token', expires_at, allowed_policies_root, …: the v2 session's tree.
        assert_eq!(
            signature[2],
            v2_session.session().allowed_policies_root,
            "signed with the v2 session"
        );
        let first = &exec.calls[0];
        if first.to == d.token {
            assert_eq!(first.selector, selector!("mint_game"));
            declined_mints += 1;
        } else if first.to == d.vrf {
            assert_eq!(first.selector, selector!("request_random"));
            assert_eq!(first.calldata[..2], [d.game, Felt::ONE], "Source::Salt");
            vrf_bundles += 1;
            let sels: Vec<Felt> = exec.calls.iter().map(|c| c.selector).collect();
            if sels.contains(&selector!("select_stat_upgrades")) {
                assert_eq!(sels.last(), Some(&selector!("explore")), "{sels:?}");
                level_ups += 1;
            }
        } else {
            assert_eq!(first.to, d.game, "{body}");
        }
    }
    assert_eq!(
        declined_mints, 1,
        "the mint was offered to the paymaster once"
    );
    assert!(vrf_bundles > 0, "the actions that draw asked the VRF first");
    assert!(
        level_ups > 0,
        "a level-up's points and first step went as one session-signed execution"
    );
    let log = client.shutdown().await;
    assert!(
        log.contains("this Controller session was approved for the v1 world's contracts"),
        "said at start"
    );
}
