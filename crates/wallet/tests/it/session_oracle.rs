//! Our Controller session signatures against an independent implementation: npm
//! `@cartridge/controller-wasm` 0.10.0 (Cartridge's own signer compiled to wasm), installed by
//! `scripts/controller-oracle.sh` and driven offline by `oracle/session-sign.mjs` (beside this file)
//! (`CartridgeSessionAccount.newAsRegistered(...).sign(hash, calls)`). Each vector differs in
//! policy count, contract count, entrypoint names (sort order) and call count.
//!
//! Skipped, with a message, when node or npm is missing or the package cannot be installed.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};
use starknet::core::types::{Call, Felt};
use starknet::core::utils::get_selector_from_name;
use starknet_types_core::felt::secret_felt::SecretFelt;
use wallet::SecretSigner;
use wallet::session::{SessionPolicies, SessionSigner, stark_signer_guid};

/// One signing case: who signs, what is allowed, what is signed.
#[derive(Clone)]
struct Vector {
    name: &'static str,
    private_key: &'static str,
    address: &'static str,
    owner_guid: &'static str,
    chain_id: Felt,
    expires_at: u64,
    hash: &'static str,
    policies: Vec<(&'static str, Vec<&'static str>)>,
    calls: Vec<(&'static str, &'static str, Vec<u64>)>,
    /// The spender and amount the keychain is given for `approve` policies (an `ApprovalPolicy`
    /// on the wasm side; our signer knows only the call policy).
    approve_limit: Option<(&'static str, &'static str)>,
}

const GAME: &str = "0x023f86f5b4702f6ba114b82fb73448c58aad8f37a28b508b80bf129ee1edc405";
const VRF: &str = "0x051fea4450da9d6aee758bdeba88b2f665bcbf549d2c61421aa724e9ac0ced8f";
const TOKEN: &str = "0x0000000000000000000000000000000000000000000000000000000000000abc";

fn vectors() -> Vec<Vector> {
    let sepolia = Felt::from_bytes_be_slice(b"SN_SEPOLIA");
    let main = Felt::from_bytes_be_slice(b"SN_MAIN");
    let nine = Vector {
        name: "three contracts, nine policies, three calls",
        private_key: "0x5a1e5a1e5a1e5a1e5a1e5a1e5a1e5a1e",
        address: "0x04f1b0ba8e0a7c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d",
        owner_guid: "0x1",
        chain_id: sepolia,
        expires_at: 4_102_444_800,
        hash: "0x1",
        policies: vec![
            (
                GAME,
                vec![
                    "select_stat_upgrades",
                    "buy_items",
                    "getx",
                    "get_x",
                    "a1",
                    "a_b",
                ],
            ),
            (TOKEN, vec!["approve", "transfer"]),
            (VRF, vec!["request_random"]),
        ],
        approve_limit: None,
        calls: vec![
            (TOKEN, "approve", vec![5, 6, 0]),
            (GAME, "get_x", vec![]),
            (GAME, "buy_items", vec![1, 2, 3, 4]),
        ],
    };
    vec![
        Vector {
            name: "two contracts, four policies, two calls",
            private_key: "0x1234567890abcdef1234567890abcdef",
            address: "0x0123456789abcdef",
            owner_guid: "0x5555",
            chain_id: sepolia,
            expires_at: 2_000_000_000,
            hash: "0xabc",
            policies: vec![
                (VRF, vec!["request_random"]),
                (GAME, vec!["flee", "explore", "attack"]),
            ],
            approve_limit: None,
            calls: vec![
                (VRF, "request_random", vec![7, 0, 9]),
                (GAME, "explore", vec![7, 0]),
            ],
        },
        Vector {
            name: "one policy, one call (single-leaf tree, empty proof)",
            private_key: "0x2dccce1da22003777062ee0870e9881b460a8b7eca276870f57c601f182136c",
            address: "0x6a0d4b1a1e6bd6c4b7b5d4b4b1fb9ae1c2c7e7d1f6b7e0a4d3b2c1f0e9d8c7b",
            owner_guid: "0x3c1a8d1e0e6f6b7f5e3c7e4d2b1a0f9e8d7c6b5a4938271605f4e3d2c1b0a99",
            chain_id: main,
            expires_at: 1_900_000_000,
            hash: "0x7f3e1b2a9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2",
            policies: vec![(GAME, vec!["explore"])],
            approve_limit: None,
            calls: vec![(GAME, "explore", vec![1, 1])],
        },
        nine.clone(),
        Vector {
            name: "an approve with its spender and amount (the keychain's ApprovalPolicy)",
            approve_limit: Some(("0xd0", "0xde0b6b3a7640000")),
            ..nine
        },
    ]
}

fn felt(hex: &str) -> Felt {
    Felt::from_hex(hex).unwrap()
}

fn selector(name: &str) -> Felt {
    get_selector_from_name(name).unwrap()
}

/// The vector in the oracle script's input shape.
fn to_json(v: &Vector) -> Value {
    let policies: serde_json::Map<String, Value> = v
        .policies
        .iter()
        .map(|(contract, names)| {
            let methods: Vec<String> = names
                .iter()
                .map(|n| match v.approve_limit {
                    Some((spender, amount)) if *n == "approve" => {
                        format!("{n}:{:#x}:{spender}:{amount}", selector(n))
                    }
                    _ => format!("{n}:{:#x}", selector(n)),
                })
                .collect();
            (contract.to_string(), json!(methods))
        })
        .collect();
    let calls: Vec<Value> = v
        .calls
        .iter()
        .map(|(to, entrypoint, data)| {
            let calldata: Vec<String> = data.iter().map(|d| format!("{d:#x}")).collect();
            json!({"to": to, "entrypoint": entrypoint, "calldata": calldata})
        })
        .collect();
    json!({
        "name": v.name,
        "private_key": v.private_key,
        "address": v.address,
        "owner_guid": v.owner_guid,
        "chain_id": format!("{:#x}", v.chain_id),
        "expires_at": v.expires_at,
        "hash": v.hash,
        "policies": policies,
        "calls": calls,
    })
}

/// Our signer for the vector, and its signature.
async fn ours(v: &Vector) -> (Felt, Vec<Felt>) {
    let mut key = felt(v.private_key);
    let key = SecretSigner::new(SecretFelt::from_felt(&mut key));
    let guid = stark_signer_guid(key.public_key());
    let pairs = v
        .policies
        .iter()
        .flat_map(|(contract, names)| names.iter().map(move |n| (felt(contract), *n)));
    let policies = SessionPolicies::new(pairs).unwrap();
    let signer = SessionSigner::new_as_registered(
        key,
        felt(v.address),
        felt(v.owner_guid),
        v.chain_id,
        policies,
        v.expires_at,
    );
    let calls: Vec<Call> = v
        .calls
        .iter()
        .map(|(to, entrypoint, data)| Call {
            to: felt(to),
            selector: selector(entrypoint),
            calldata: data.iter().copied().map(Felt::from).collect(),
        })
        .collect();
    (guid, signer.sign(felt(v.hash), &calls).await.unwrap())
}

/// The installed package directory, or `None` (with a message) when it cannot be had.
fn oracle_package() -> Option<PathBuf> {
    for tool in ["node", "npm"] {
        if Command::new(tool).arg("--version").output().is_err() {
            eprintln!("SKIPPED: {tool} is not on PATH; install Node.js to run the session oracle");
            return None;
        }
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/controller-oracle.sh");
    let out = Command::new("bash")
        .arg(&script)
        .output()
        .expect("run scripts/controller-oracle.sh");
    if !out.status.success() {
        eprintln!(
            "SKIPPED: @cartridge/controller-wasm could not be installed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        return None;
    }
    Some(PathBuf::from(String::from_utf8(out.stdout).unwrap().trim()))
}

/// Runs the oracle script on all vectors; its results in input order.
fn oracle(package: &Path, input: &Value) -> Vec<Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/oracle/session-sign.mjs");
    let mut child = Command::new("node")
        .arg(&script)
        .arg(package)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start node");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "oracle failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("oracle output is JSON");
    v["results"].as_array().expect("results").clone()
}

#[tokio::test]
async fn session_signatures_match_controller_wasm() {
    let Some(package) = oracle_package() else {
        return;
    };
    let vectors = vectors();
    let input = json!({ "vectors": vectors.iter().map(to_json).collect::<Vec<_>>() });
    let results = oracle(&package, &input);
    assert_eq!(results.len(), vectors.len());
    for (v, r) in vectors.iter().zip(&results) {
        assert_eq!(r["name"], v.name);
        let (guid, signature) = ours(v).await;
        assert_eq!(
            guid,
            felt(r["session_key_guid"].as_str().unwrap()),
            "{}",
            v.name
        );
        let theirs: Vec<Felt> = r["signature"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| felt(f.as_str().unwrap()))
            .collect();
        assert_eq!(signature, theirs, "{}", v.name);
        // 18 fixed felts, the call count, then one length-prefixed proof per call.
        assert!(signature.len() >= 19 + v.calls.len(), "{}", v.name);
        assert_eq!(signature[18], Felt::from(v.calls.len()), "{}", v.name);
    }
}
