//! `loot-survivor-mcp check` and the server's ABI check on a real node: starknet-devnet with the
//! practice worlds (v1 and v2) deployed by the real binary, the Denshokan stand-in
//! (tests/it/denshokan_support), and a GameCore class whose declared `attack` takes a u8. That
//! class is the practice GameCore's Sierra with its ABI entry for `attack` edited before the
//! declare: the node compiles the same program (so its compiled class hash is the committed
//! one) and serves the edited ABI, a class whose interface differs from the bindings' in
//! exactly one argument type. Classes are counted at a JSON-RPC proxy (tests/it/common/proxy.rs).

use crate::common;
use crate::common::hostile_abi::{explode_and_loop, function};
use crate::denshokan_support;
use crate::torii_support;

use std::path::Path;
use std::sync::Arc;

use loot_survivor_mcp::deploy::target::NEW_UDC;
use loot_survivor_mcp::deploy::v2::{V2Deployment, VrfMode};
use serde_json::{Value, json};
use starknet::accounts::{Account, ConnectedAccount};
use starknet::contract::{ContractFactory, UdcSelector};
use starknet::core::types::contract::SierraClass;
use starknet::core::types::{BlockId, BlockTag, Felt};
use starknet::providers::Provider;
use starknet::providers::jsonrpc::{HttpTransport, JsonRpcClient};

use denshokan_support::{FakeDenshokan, Row};

/// Devnet's account #0 (seed 0), the devnet profile's wallet, and its key.
const KEY_0: &str = "0x71d7bb07b9a64f6f78ac4c816aff4da9";

/// What one `check` run printed and returned.
struct Run {
    code: i32,
    stdout: String,
}

/// Runs `loot-survivor-mcp check --profile devnet` on `url` with data directory `home`.
async fn check(url: &url::Url, home: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let out = tokio::process::Command::new(common::BIN)
        .args(["check", "--profile", "devnet", "--rpc-url", url.as_str()])
        .args(args)
        .env("LS_HOME", home)
        .env("RUST_LOG", "warn")
        .envs(env.iter().copied())
        .output()
        .await
        .expect("run check");
    Run {
        code: out.status.code().expect("an exit code"),
        stdout: String::from_utf8(out.stdout).unwrap(),
    }
}

/// The v2 environment of deployment file `file`, with the Denshokan API at `indexer`.
fn v2_env<'a>(file: &'a str, indexer: &'a str) -> [(&'static str, &'a str); 3] {
    [
        ("LS_GENERATION", "v2"),
        ("LS_DEPLOYMENT__DEPLOYMENT_FILE", file),
        ("LS_DENSHOKAN_URL", indexer),
    ]
}

/// The statuses of a JSON report's section, by check name.
fn statuses(report: &Value, section: &str) -> Vec<(String, String)> {
    report["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == section)
        .unwrap_or_else(|| panic!("no section {section}: {report}"))["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let (name, status) = (c["name"].as_str(), c["status"].as_str());
            (name.unwrap().to_string(), status.unwrap().to_string())
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_practice_worlds_pass_and_an_unanswering_indexer_is_exit_two() {
    let devnet = common::start_devnet(&[]).await;
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("manifest.json");
    common::devnet_deploy(&devnet.url, &[], &manifest).await;
    let file = dir.path().join("v2.json");
    common::devnet_deploy(&devnet.url, &["--generation", "v2"], &file).await;
    let fake = FakeDenshokan::start().await;
    fake.add([Row::new("7", "0xa11ce", 40, 10)]);
    fake.set_health(true, Some(812));
    let home = dir.path().join("home");

    let manifest_env = manifest.display().to_string();
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
    let token_systems = written["contracts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["tag"] == "ls_0_0_9-game_token_systems")
        .unwrap()["address"]
        .as_str()
        .unwrap();
    let torii = torii_support::FakeTorii::start(Felt::from_hex(token_systems).unwrap()).await;
    let v1_env = [
        ("LS_MANIFEST", manifest_env.as_str()),
        ("LS_TORII_URL", &torii.url),
    ];
    let v1 = check(&devnet.url, &home, &[], &v1_env).await;
    assert_eq!(v1.code, 0, "{}", v1.stdout);
    let lines: Vec<&str> = v1.stdout.lines().collect();
    assert!(lines[0].starts_with("check") && lines[0].ends_with("detail"));
    for name in [
        "node/chain id",
        "abi/game_systems",
        "abi/adventurer_systems",
    ] {
        let line = lines.iter().find(|l| l.starts_with(name)).unwrap();
        assert!(line.contains(" ok "), "{line}");
    }
    let generation = lines.iter().find(|l| l.starts_with("generation/")).unwrap();
    assert!(generation.contains("speaks v1"), "{generation}");
    let indexer = lines.iter().find(|l| l.starts_with("indexer/")).unwrap();
    assert!(
        indexer.starts_with("indexer/torii leaderboard")
            && indexer.ends_with("ok           0 rows on the first page"),
        "{indexer}"
    );

    let file_env = file.display().to_string();
    let v2 = check(
        &devnet.url,
        &home,
        &["--json"],
        &v2_env(&file_env, &fake.url),
    )
    .await;
    assert_eq!(v2.code, 0, "{}", v2.stdout);
    let report: Value = serde_json::from_str(&v2.stdout).unwrap();
    assert_eq!(
        (&report["profile"], &report["generation"], &report["status"]),
        (&json!("devnet"), &json!("v2"), &json!("ok"))
    );
    let sections: Vec<&str> = report["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        sections,
        ["node", "abi", "generation", "settings", "vrf", "indexer"]
    );
    assert_eq!(
        statuses(&report, "settings"),
        [("settings 0".to_string(), "ok".to_string())],
        "the practice GameCore's settings_exist says settings 0 exist"
    );
    assert_eq!(
        statuses(&report, "vrf"),
        [("vrf rule".to_string(), "skipped".to_string())],
        "no action has drawn randomness on a fresh world"
    );
    for s in report["sections"].as_array().unwrap() {
        for c in s["checks"].as_array().unwrap() {
            let keys: Vec<&String> = c.as_object().unwrap().keys().collect();
            assert_eq!(keys, ["detail", "name", "status"], "{c}");
        }
    }
    let abi = statuses(&report, "abi");
    let roles: Vec<&str> = abi
        .iter()
        .map(|(n, _)| n.split(' ').next().unwrap())
        .collect();
    assert_eq!(
        roles,
        ["game_core", "game_token", "denshokan", "vrf_provider"]
    );
    assert!(abi.iter().all(|(_, s)| s == "ok"), "{abi:?}");
    let generation: Vec<String> = statuses(&report, "generation")
        .into_iter()
        .map(|(name, status)| format!("{} {status}", name.split(' ').next().unwrap()))
        .collect();
    assert_eq!(
        generation,
        ["game ok", "game skipped", "denshokan skipped"],
        "no SRC5 in the practice GameCore nor in its Denshokan"
    );
    let indexer = &report["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "indexer")
        .unwrap()["checks"];
    assert_eq!(
        indexer[0]["detail"],
        "status ok, database up, latest block 812"
    );
    assert_eq!(indexer[1]["detail"], "1 rows on the first page of 1");
    assert!(fake.log().iter().any(|l| l.path == "/health"));

    let closed = format!(
        "http://127.0.0.1:{}",
        loot_survivor_mcp::devnet::free_port().unwrap()
    );
    let down = check(&devnet.url, &home, &["--json"], &v2_env(&file_env, &closed)).await;
    assert_eq!(down.code, 2, "{}", down.stdout);
    let report: Value = serde_json::from_str(&down.stdout).unwrap();
    assert_eq!(report["status"], "unreachable");
    assert!(statuses(&report, "abi").iter().all(|(_, s)| s == "ok"));
    let indexer = statuses(&report, "indexer");
    assert!(
        indexer.iter().all(|(_, s)| s == "unreachable"),
        "{indexer:?}"
    );
}

/// Declares the practice GameCore with `attack`'s `to_the_death` declared a u8 and deploys it
/// beside deployment `d`, with a GameToken of its own; returns the deployment of the two.
async fn deploy_u8_attack(url: &url::Url, d: &V2Deployment) -> V2Deployment {
    deploy_game_variant(url, d, |abi| {
        let attack = function(abi, "attack");
        assert_eq!(attack["inputs"][1]["type"], "core::bool");
        attack["inputs"][1]["type"] = json!("core::integer::u8");
    })
    .await
}

/// Declares the practice GameCore with its ABI edited by `edit` (the program is the same, so the
/// node compiles it to the committed compiled class) and deploys it beside deployment `d`, with a
/// GameToken of its own; returns the deployment of the two.
async fn deploy_game_variant(
    url: &url::Url,
    d: &V2Deployment,
    edit: impl FnOnce(&mut Vec<Value>),
) -> V2Deployment {
    let provider = Arc::new(JsonRpcClient::new(HttpTransport::new(url.clone())));
    let chain_id = Felt::from_bytes_be_slice(b"SN_SEPOLIA");
    let account = common::accounts::dev_account(&provider, chain_id, common::ACCOUNT, KEY_0);
    let mut sierra: Value =
        serde_json::from_str(include_str!("../../abi/practice_v2_game.sierra.json")).unwrap();
    edit(sierra["abi"].as_array_mut().unwrap());
    let class: SierraClass = serde_json::from_value(sierra).unwrap();
    let flat = class.flatten().unwrap();
    let class_hash = flat.class_hash();
    let casm = include_str!("../../abi/practice_v2_game.compiled_class_hash");
    let declared = account
        .declare_v3(Arc::new(flat), Felt::from_hex(casm.trim()).unwrap())
        .send()
        .await
        .expect("declare the edited GameCore");
    wait(&provider, declared.transaction_hash).await;
    let game = udc_deploy(
        &account,
        class_hash,
        vec![d.denshokan, d.vrf, Felt::ZERO],
        0x5a,
    )
    .await;
    let pending = BlockId::Tag(BlockTag::PreConfirmed);
    let token_class = account
        .provider()
        .get_class_hash_at(pending, d.token)
        .await
        .unwrap();
    let token = udc_deploy(&account, token_class, vec![d.denshokan, game], 0x5b).await;
    V2Deployment {
        game,
        token,
        denshokan: d.denshokan,
        vrf: d.vrf,
        vrf_mode: VrfMode::Off,
        vrf_consumer: None,
        settings: vec![],
    }
}

/// Deploys `class` through the UDC with `args` at `salt`, and waits for it.
async fn udc_deploy(
    account: &common::accounts::DevAccount,
    class: Felt,
    args: Vec<Felt>,
    salt: u8,
) -> Felt {
    let factory = ContractFactory::new_with_udc(class, account, UdcSelector::Custom(NEW_UDC));
    let deployment = factory.deploy_v3(args, Felt::from(salt), false);
    let sent = deployment.send().await.expect("deploy");
    wait(account.provider(), sent.transaction_hash).await;
    deployment.deployed_address()
}

async fn wait(provider: &JsonRpcClient<HttpTransport>, hash: Felt) {
    for _ in 0..200 {
        if provider.get_transaction_receipt(hash).await.is_ok() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("no receipt for {hash:#x}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_attack_taking_a_u8_is_caught_kept_and_refused_before_signing() {
    let devnet = common::start_devnet(&[]).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("v2.json");
    common::devnet_deploy(&devnet.url, &["--generation", "v2"], &file).await;
    let practice = V2Deployment::load(&file).unwrap();
    let variant = deploy_u8_attack(&devnet.url, &practice).await;
    let variant_file = dir.path().join("v2-u8.json");
    std::fs::write(&variant_file, serde_json::to_string(&variant).unwrap()).unwrap();
    let (proxy, seen) = common::proxy::start(devnet.url.clone()).await;
    let fake = FakeDenshokan::start().await;
    let home = dir.path().join("home");
    let variant_env = variant_file.display().to_string();
    let env = v2_env(&variant_env, &fake.url);

    let first = check(&proxy, &home, &[], &env).await;
    assert_eq!(first.code, 1, "{}", first.stdout);
    let line = first
        .stdout
        .lines()
        .find(|l| l.starts_with("abi/game_core"))
        .unwrap();
    assert!(line.contains("mismatch") && line.contains("1 of 10 entrypoints differ (attack)"));
    let diff = first
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with("- attack"))
        .unwrap();
    assert!(
        diff.ends_with(
            "- attack: ours attack(adventurer_id: felt252, to_the_death: bool), \
             deployed attack(adventurer_id: felt252, to_the_death: u8)"
        ),
        "{diff}"
    );
    // Four classes read once each, then kept by class hash: the next run reads none.
    assert_eq!(seen.count("starknet_getClassAt"), 4);
    let provider = JsonRpcClient::new(HttpTransport::new(devnet.url.clone()));
    let pending = BlockId::Tag(BlockTag::PreConfirmed);
    let u8_class = provider
        .get_class_hash_at(pending, variant.game)
        .await
        .unwrap();
    let kept = home.join(format!(
        "checks/abi-{}.json",
        u8_class.to_fixed_hex_string()
    ));
    assert!(kept.exists(), "{}", kept.display());
    let again = check(&proxy, &home, &[], &env).await;
    assert_eq!((again.code, seen.count("starknet_getClassAt")), (1, 4));
    assert_eq!(seen.count("starknet_getClassHashAt"), 8);
    // The practice GameCore is another class hash: only it is read.
    let practice_env = file.display().to_string();
    let practice_run = check(&proxy, &home, &[], &v2_env(&practice_env, &fake.url)).await;
    assert_eq!(
        (practice_run.code, seen.count("starknet_getClassAt")),
        (0, 5)
    );

    // The server runs the same check at start (its classes kept: none is read) and refuses the
    // attack before signing; the reads and the other writes keep working.
    let server = common::serve_v2(
        &proxy,
        &variant_file,
        &[("LS_HOME", &home.display().to_string())],
    )
    .await;
    assert_eq!(seen.count("starknet_getClassAt"), 5);
    let started = server.ok("ls_new_game", json!({"weapon": "Wand"})).await;
    let id = started["adventurer_id"].clone();
    assert_eq!(started["adventurer"]["phase"], "in_battle", "{started}");
    let (nonce, _) = common::nonce_and_balance(&devnet.url, common::ACCOUNT).await;
    let sends = [
        "starknet_estimateFee",
        "starknet_simulateTransactions",
        "starknet_addInvokeTransaction",
    ];
    let before: Vec<usize> = sends.iter().map(|m| seen.count(m)).collect();
    let refused = server
        .err("ls_attack", json!({"adventurer_id": id}), "POLICY_DENIED")
        .await;
    assert_eq!(refused["details"]["entrypoint"], "attack");
    assert_eq!(refused["details"]["contract"], "game_core");
    assert!(
        refused["details"]["ours"]
            .as_str()
            .unwrap()
            .ends_with("to_the_death: bool)")
    );
    assert!(
        refused["details"]["deployed"]
            .as_str()
            .unwrap()
            .ends_with("to_the_death: u8)")
    );
    let hint = refused["hint"].as_str().unwrap();
    assert!(
        hint.contains("`loot-survivor-mcp check --profile devnet`"),
        "{hint}"
    );
    let after: Vec<usize> = sends.iter().map(|m| seen.count(m)).collect();
    assert_eq!(before, after, "nothing was simulated or sent");
    assert_eq!(
        common::nonce_and_balance(&devnet.url, common::ACCOUNT)
            .await
            .0,
        nonce
    );
    let read = server
        .ok("ls_get_adventurer", json!({"adventurer_id": id}))
        .await;
    assert_eq!(read["adventurer"]["phase"], "in_battle");
    assert_eq!(
        read["adventurer"]["health"],
        started["adventurer"]["health"]
    );
    let gone = server
        .ok(
            "ls_surrender",
            json!({"adventurer_id": id, "confirm_surrender": true}),
        )
        .await;
    assert!(
        gone["tx_hash"].is_string(),
        "another write still lands: {gone}"
    );
    let (later, _) = common::nonce_and_balance(&devnet.url, common::ACCOUNT).await;
    assert_ne!(later, nonce, "{gone}");
    let log = server.shutdown().await;
    assert!(
        log.contains("ABI check: the deployed entrypoint differs from the bindings"),
        "{log}"
    );
}

/// A hostile class: `attack` and `flee` take the exploding and the self-containing structs
/// ([`explode_and_loop`]), and `load_assets` answers one member more than the bindings decode.
fn hostile(abi: &mut Vec<Value>) {
    explode_and_loop(abi);
    let load = function(abi, "load_assets");
    let answer = load["outputs"][0]["type"].as_str().unwrap().to_string();
    let (open, rest) = answer.split_at(1);
    assert_eq!(open, "(", "load_assets answers a tuple: {answer}");
    load["outputs"][0]["type"] = json!(format!("(core::felt252, {rest}"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hostile_class_is_compared_at_once_and_a_view_that_differs_is_not_read() {
    let devnet = common::start_devnet(&[]).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("v2.json");
    common::devnet_deploy(&devnet.url, &["--generation", "v2"], &file).await;
    let practice = V2Deployment::load(&file).unwrap();
    let variant = deploy_game_variant(&devnet.url, &practice, hostile).await;
    let variant_file = dir.path().join("v2-hostile.json");
    std::fs::write(&variant_file, serde_json::to_string(&variant).unwrap()).unwrap();
    let fake = FakeDenshokan::start().await;
    let home = dir.path().join("home");
    let variant_env = variant_file.display().to_string();
    let env = v2_env(&variant_env, &fake.url);

    // Before, the first run grew without bound and kept the class, so every later run hung too.
    for run in ["first", "kept"] {
        let started = std::time::Instant::now();
        let report = tokio::time::timeout(
            std::time::Duration::from_secs(60),
            check(&devnet.url, &home, &[], &env),
        )
        .await
        .unwrap_or_else(|_| panic!("the {run} check does not finish"));
        assert_eq!(report.code, 1, "{}", report.stdout);
        let line = report
            .stdout
            .lines()
            .find(|l| l.starts_with("abi/game_core"))
            .unwrap();
        assert!(
            line.contains("mismatch")
                && line.contains("3 of 10 entrypoints differ (attack, flee, load_assets)"),
            "{line}"
        );
        assert!(
            report
                .stdout
                .contains("deployed attack(adventurer_id: felt252, to_the_death: S0)"),
            "{}",
            report.stdout
        );
        eprintln!("{run} check: {:?}", started.elapsed());
    }

    let server = common::serve_v2(
        &devnet.url,
        &variant_file,
        &[("LS_HOME", &home.display().to_string())],
    )
    .await;
    let refused = server
        .err(
            "ls_get_adventurer",
            json!({"adventurer_id": 1}),
            "POLICY_DENIED",
        )
        .await;
    assert_eq!(refused["details"]["entrypoint"], "load_assets");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .starts_with("not read: game_core's load_assets"),
        "{refused}"
    );
    server.shutdown().await;
}
