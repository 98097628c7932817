//! The `katana` profile's deploy path on starknet-devnet set up as far as devnet allows like
//! katana: chain id `KATANA`, the practice world deployed through the legacy (Cairo 0) Universal
//! Deployer at the address katana predeploys, fee tokens read at the katana profile's addresses,
//! then a short game played through the real server with `--profile katana`.
//!
//! What differs from katana (so this does not prove it): the node checks the Blake2s compiled
//! class hash where katana records the Poseidon one unchecked, so the deployment overrides
//! `chain.casm_hash` (the test first shows the profile's own Poseidon hash is what gets sent);
//! the wallet is devnet's predeployed OpenZeppelin account, not katana's dev account (its class
//! is built by katana's own build and is not published as an artifact); JSON-RPC is 0.10.2.

use crate::common;

use std::collections::BTreeSet;

use loot_survivor_mcp::deploy::target::{LEGACY_UDC, NEW_UDC};
use loot_survivor_mcp::devnet::{Devnet, devnet_binary, free_port};
use serde_json::{Value, json};
use starknet::core::types::Felt;
use starknet::core::utils::get_selector_from_name;

/// Devnet's account #0 key (`--seed 0`), a public development key.
const DEVNET_KEY_0: &str = "0x71d7bb07b9a64f6f78ac4c816aff4da9";

/// Class hash of katana's legacy UDC (`crates/contracts/build/legacy/universal_deployer.json`,
/// identical in dojoengine/katana v1.7.1 and v1.8.0-rc.9), computed from that file.
const KATANA_LEGACY_UDC_CLASS: &str =
    "0x7b3e05f48f0c69e4a65ce5e076a66271a527aff2c34ce1083ec6e1526997a69";

/// The katana profile's fee tokens (config/katana.toml), in the order ls_wallet lists them.
const KATANA_FEE_TOKENS: [(&str, &str); 2] = [
    (
        "STRK",
        "0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d",
    ),
    (
        "ETH",
        "0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7",
    ),
];

/// Starts devnet with katana's chain id on a free port.
async fn katana_like_devnet() -> Devnet {
    devnet_binary().expect(
        "starknet-devnet is required for this test: run scripts/install-devnet.sh (the README test command does)",
    );
    for _ in 0..3 {
        let port = free_port().expect("free port");
        match Devnet::start_with(port, &["--chain-id", "KATANA"]).await {
            Ok(d) => return d,
            Err(e) => eprintln!("devnet on port {port}: {e}; trying another port"),
        }
    }
    panic!("devnet did not start");
}

/// The environment that puts the katana profile's wallet on devnet's account #0.
fn wallet_env(home: &std::path::Path) -> Vec<(String, String)> {
    vec![
        ("LS_ACCOUNT_ADDRESS".into(), common::ACCOUNT.into()),
        ("LS_PRIVATE_KEY".into(), DEVNET_KEY_0.into()),
        ("LS_HOME".into(), home.display().to_string()),
        ("RUST_LOG".into(), "warn".into()),
    ]
}

/// Runs `devnet deploy --profile katana` with `extra` settings; returns (success, stderr).
async fn deploy(
    devnet: &Devnet,
    manifest: &std::path::Path,
    home: &std::path::Path,
    extra: &[(&str, &str)],
) -> (bool, String) {
    let out = tokio::process::Command::new(common::BIN)
        .args(["devnet", "deploy", "--profile", "katana", "--rpc"])
        .arg(devnet.url.as_str())
        .arg("--out")
        .arg(manifest)
        .envs(wallet_env(home))
        .envs(extra.iter().copied())
        .output()
        .await
        .expect("run devnet deploy");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn felt(v: &Value) -> Felt {
    Felt::from_hex(v.as_str().expect("hex string")).expect("felt")
}

/// Every invoke transaction the account sent, with its receipt.
async fn account_invokes(url: &url::Url) -> Vec<(Value, Value)> {
    let latest = common::rpc(url, "starknet_blockNumber", json!([]))
        .await
        .as_u64()
        .unwrap();
    let account = Felt::from_hex(common::ACCOUNT).unwrap();
    let mut out = Vec::new();
    for n in 0..=latest {
        let block = common::rpc(
            url,
            "starknet_getBlockWithTxs",
            json!({"block_id": {"block_number": n}}),
        )
        .await;
        for tx in block["transactions"].as_array().unwrap() {
            if tx["type"] == "INVOKE" && felt(&tx["sender_address"]) == account {
                let receipt = common::rpc(
                    url,
                    "starknet_getTransactionReceipt",
                    json!({"transaction_hash": tx["transaction_hash"]}),
                )
                .await;
                out.push((tx.clone(), receipt));
            }
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn katana_profile_deploys_through_the_legacy_udc_and_plays_a_game() {
    let devnet = katana_like_devnet().await;
    let url = devnet.url.clone();
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path().join("home");
    let manifest = dir.path().join("manifest.json");

    // The node hosts katana's legacy UDC class at katana's address.
    let udc_class = common::rpc(
        &url,
        "starknet_getClassHashAt",
        json!({"block_id": "latest", "contract_address": format!("{LEGACY_UDC:#x}")}),
    )
    .await;
    assert_eq!(
        felt(&udc_class),
        Felt::from_hex(KATANA_LEGACY_UDC_CLASS).unwrap()
    );

    // A UDC the node lacks is a clear error, before anything is signed.
    let (ok, err) = deploy(&devnet, &manifest, &home, &[("LS_CHAIN__UDC", "0x1234")]).await;
    assert!(!ok);
    assert!(err.contains("no Universal Deployer at 0x1234"), "{err}");
    assert!(err.contains("chain.udc"), "{err}");

    // The profile as shipped declares with the Poseidon hash, which this node refuses.
    let (ok, err) = deploy(&devnet, &manifest, &home, &[]).await;
    assert!(!ok, "devnet accepted a Poseidon compiled class hash: {err}");
    assert!(
        err.contains("poseidon compiled class hash") && err.contains("chain.casm_hash"),
        "{err}"
    );
    assert!(!manifest.exists());

    // Blake2s for this node; everything else is the katana profile.
    let blake = [("LS_CHAIN__CASM_HASH", "blake2s")];
    let (ok, err) = deploy(&devnet, &manifest, &home, &blake).await;
    assert!(ok, "katana deploy failed: {err}");
    assert!(
        err.contains("declared now: true, deployed now: true"),
        "{err}"
    );
    assert!(err.contains(&format!("UDC {LEGACY_UDC:#x}")), "{err}");
    let m: Value = serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
    let world = felt(&m["world"]["address"]);

    // The deployment went through the legacy UDC and nothing called the new one.
    let invokes = account_invokes(&url).await;
    let targets: Vec<Felt> = invokes
        .iter()
        .map(|(tx, _)| felt(&tx["calldata"][1]))
        .collect();
    // Four deploy calls: the world, then the practice dungeon's ticket, golden pass and dungeon.
    assert_eq!(
        targets,
        vec![LEGACY_UDC; 4],
        "every deploy call went to the legacy UDC"
    );
    assert!(!targets.contains(&NEW_UDC));
    let deployed = invokes[0].1["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| felt(&e["from_address"]) == LEGACY_UDC)
        .expect("the legacy UDC's ContractDeployed event");
    assert_eq!(felt(&deployed["data"][0]), world);

    // Idempotent: a second run reuses the class and the contract.
    let (ok, err) = deploy(&devnet, &manifest, &home, &blake).await;
    assert!(ok, "{err}");
    assert!(
        err.contains("declared now: false, deployed now: false"),
        "{err}"
    );

    // The server on the katana profile: chain id, fee tokens, and a short game.
    let env = wallet_env(&home);
    let env: Vec<(&str, &str)> = env
        .iter()
        .filter(|(k, _)| k != "RUST_LOG")
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let client = common::serve_profile("katana", &url, &manifest, (), &env).await;
    let wallet = client.ok("ls_wallet", json!({})).await;
    assert_eq!(wallet["wallet"]["chain_id"], "KATANA", "{wallet}");
    let balances = wallet["wallet"]["balances"].as_array().expect("balances");
    let listed: Vec<(&str, &str)> = balances
        .iter()
        .map(|b| (b["token"].as_str().unwrap(), b["address"].as_str().unwrap()))
        .collect();
    assert_eq!(listed, KATANA_FEE_TOKENS);
    assert!(
        balances.iter().all(|b| b["amount"] != "0"),
        "devnet's account holds both tokens: {wallet}"
    );

    let started = client
        .ok(
            "ls_new_game",
            json!({"weapon": "Short Sword", "player_name": "katana-bot"}),
        )
        .await;
    let id = started["adventurer_id"].as_u64().expect("adventurer id");
    assert_eq!(started["adventurer"]["phase"], "in_battle");

    let mut txs: BTreeSet<String> = BTreeSet::new();
    txs.insert(started["tx_hash"].as_str().unwrap().to_string());
    let mut actions = 0;
    while actions < 6 {
        let adv = client
            .ok("ls_get_adventurer", json!({"adventurer_id": id}))
            .await;
        let (tool, args) = match adv["adventurer"]["phase"].as_str().unwrap() {
            "dead" => break,
            "in_battle" => ("ls_attack", json!({"adventurer_id": id})),
            "exploring" => ("ls_explore", json!({"adventurer_id": id})),
            "stat_upgrade" => (
                "ls_upgrade",
                json!({"adventurer_id": id, "strength":
                    adv["adventurer"]["stat_upgrades_available"]}),
            ),
            other => panic!("unexpected phase {other}"),
        };
        let out = client.ok(tool, args).await;
        assert_eq!(out["status"], "ACCEPTED_ON_L2", "{tool}: {out}");
        assert!(
            !out["events"].as_array().unwrap().is_empty(),
            "{tool} produced no game events"
        );
        assert!(txs.insert(out["tx_hash"].as_str().unwrap().to_string()));
        actions += 1;
    }
    assert!(actions >= 1, "no action was played");
    let end = client
        .ok("ls_get_adventurer", json!({"adventurer_id": id}))
        .await;
    assert!(end["adventurer"]["action_count"].as_u64().unwrap() >= 1);

    // Every game transaction (after the four deploys) went to the world the katana deploy wrote
    // in the manifest.
    let invokes = account_invokes(&url).await;
    let game_targets: BTreeSet<Felt> = invokes
        .iter()
        .skip(4)
        .map(|(tx, _)| felt(&tx["calldata"][1]))
        .collect();
    assert_eq!(game_targets, BTreeSet::from([world]));
    for (tx, receipt) in &invokes {
        let selector = felt(&tx["calldata"][2]);
        let name = [
            "deployContract",
            "mint_game",
            "start_game",
            "explore",
            "attack",
            "select_stat_upgrades",
        ]
        .into_iter()
        .find(|n| get_selector_from_name(n).unwrap() == selector)
        .unwrap_or("other");
        eprintln!(
            "fee paid on devnet: {name} {} FRI",
            receipt["actual_fee"]["amount"]
        );
    }
    client.shutdown().await;
    the_guides_session_recipe_starts_on_the_katana_profile(&url, &manifest).await;
    devnet.stop().await;
}

/// The player's guide's Controller recipe on the katana profile, whose `wallet.account_address`
/// names katana's dev account: `LS_WALLET__KIND=session` and the password, nothing else. The
/// stored session's account signs (ls_wallet names it, a new game is sent from it), and the log
/// shows both addresses in full (public, not hidden as key-like). Skipped without the
/// Controller class fixture.
async fn the_guides_session_recipe_starts_on_the_katana_profile(
    url: &url::Url,
    manifest: &std::path::Path,
) {
    let Some(dir) = common::controller::class_dir() else {
        return;
    };
    const PASSWORD: &str = "katana session password";
    let controller = common::controller::deploy_controller(&dir, url, 31).await;
    let home = controller
        .v1_session_home(manifest, "katana", PASSWORD)
        .await;
    let env = [
        ("LS_HOME", home.path().to_str().unwrap()),
        ("LS_WALLET__KIND", "session"),
        ("LS_KEYSTORE_PASSWORD", PASSWORD),
    ];
    let client = common::serve_profile("katana", url, manifest, (), &env).await;
    let address = format!("{:#x}", controller.address);
    let wallet = client.ok("ls_wallet", json!({})).await["wallet"].clone();
    assert_eq!(wallet["account_address"], address.as_str(), "{wallet}");
    assert!(wallet["session"].get("problem").is_none(), "{wallet}");
    let started = client
        .ok("ls_new_game", json!({"weapon": "Short Sword"}))
        .await;
    let tx = common::rpc(
        url,
        "starknet_getTransactionByHash",
        json!({"transaction_hash": started["tx_hash"]}),
    )
    .await;
    assert_eq!(
        felt(&tx["sender_address"]),
        controller.address,
        "the Controller sent the new game"
    );
    let log = client.shutdown().await;
    let katana_account = "0x127fd5f1fe78a71f8bcd1fec63e3fe2f0486b6ecd5c86a0466c3a21fa5cfcec";
    assert!(
        log.contains(&address) && log.contains(katana_account),
        "both accounts are named in the log: {log}"
    );
}
