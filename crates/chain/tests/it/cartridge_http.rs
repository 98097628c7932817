//! The request sent to `cartridge_addExecuteOutsideTransaction`, captured by a local HTTP server
//! on 127.0.0.1: a JSON-RPC 2.0 POST whose params are Cartridge's `OutsideExecutionParams`
//! (`address`, `outside_execution {caller, nonce, execute_after, execute_before, calls [{to,
//! selector, calldata}]}`, `signature`), felts as 0x-hex, time bounds as numbers; the signature
//! in it verifies against the SNIP-12 hash recomputed from the captured JSON. Answers and errors
//! over HTTP map into the taxonomy.

#[path = "../../../../tests/it/torii_support/http.rs"]
#[allow(dead_code)]
mod http;

use std::sync::{Arc, Mutex};

use chain::controller::cartridge::CartridgePaymaster;
use chain::outside::{ANY_CALLER, OutsideExecution};
use chain::paymaster::{OutsideRequest, Paymaster};
use chain::{CartridgeError, vrf};
use game::model::Adventurer;
use game::random::explore_salt;
use serde_json::{Value, json};
use starknet::core::types::{Call, Felt};
use starknet_types_core::felt::secret_felt::SecretFelt;
use tokio::net::TcpListener;
use wallet::{CARTRIDGE_VRF_PROVIDER, REQUEST_RANDOM_SELECTOR, SecretSigner};

const KEY: &str = "0x71d7bb07b9a64f6f78ac4c816aff4da9";
const ACCOUNT: &str = "0x64b48806902a367c8598f4f95c305e8c1a1acba5f082d294a43793113115691";
const GAME: &str = "0x6f7c4350d6d5ee926b3ac4fa0c9c351055456e75c92227468d84232fc493a9c";

type Captured = Arc<Mutex<Vec<(String, String, Value)>>>;

async fn server(answer: http::Response) -> (url::Url, Captured) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = url::Url::parse(&format!(
        "http://{}/x/starknet/mainnet",
        listener.local_addr().unwrap()
    ))
    .unwrap();
    let captured: Captured = Arc::default();
    let seen = captured.clone();
    let handler: http::Handler = Arc::new(move |req: http::Request| {
        let seen = seen.clone();
        let answer = answer.clone();
        Box::pin(async move {
            let body: Value = serde_json::from_slice(&req.body).unwrap_or(Value::Null);
            seen.lock().unwrap().push((req.method, req.path, body));
            answer
        })
    });
    tokio::spawn(http::serve(listener, handler));
    (url, captured)
}

async fn signed_explore() -> chain::outside::SignedOutsideExecution {
    let game = Felt::from_hex(GAME).unwrap();
    let adventurer = Adventurer {
        health: 100,
        xp: 5,
        action_count: 3,
        ..Adventurer::default()
    };
    let action = game::engine::Action::Explore { till_beast: true };
    let game_call = Call {
        to: game,
        selector: starknet::macros::selector!("explore"),
        calldata: vec![Felt::from(42), Felt::ONE],
    };
    let (calls, bundled) = vrf::bundle(
        game,
        game::AdventurerId::from(42u64),
        &adventurer,
        &action,
        game_call,
    );
    assert!(bundled);
    let signer = SecretSigner::new(SecretFelt::from_hex_string(&mut KEY.to_string()).unwrap());
    OutsideExecution {
        caller: ANY_CALLER,
        nonce: Felt::from(0xabcdef_u64),
        execute_after: 0,
        execute_before: 1_900_000_000,
        calls,
    }
    .sign(
        &signer,
        Felt::from_hex(ACCOUNT).unwrap(),
        Felt::from_hex("0x534e5f4d41494e").unwrap(),
    )
    .await
    .unwrap()
}

#[tokio::test]
async fn the_request_has_cartridge_s_shape_and_a_valid_signature() {
    let (url, captured) = server(http::Response::json(
        200,
        &json!({"jsonrpc": "2.0", "id": 1, "result": {"transaction_hash": "0x0123abc"}}),
    ))
    .await;
    let signed = signed_explore().await;
    let hash = CartridgePaymaster::new(reqwest::Client::new(), url.clone())
        .submit(OutsideRequest::V2(&signed))
        .await
        .unwrap();
    assert_eq!(hash, Felt::from(0x123abc));

    let seen = captured.lock().unwrap().clone();
    assert_eq!(seen.len(), 1);
    let (method, path, body) = &seen[0];
    assert_eq!(method, "POST");
    assert_eq!(path, "/x/starknet/mainnet");
    let salt = format!("{:#x}", explore_salt(game::AdventurerId::from(42u64), 5));
    let sig: Vec<String> = signed.signature.iter().map(|f| format!("{f:#x}")).collect();
    let want = json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "cartridge_addExecuteOutsideTransaction",
        "params": {
            "address": ACCOUNT,
            "outside_execution": {
                "caller": "0x414e595f43414c4c4552",
                "nonce": "0xabcdef",
                "execute_after": 0,
                "execute_before": 1_900_000_000u64,
                "calls": [
                    {
                        "to": format!("{CARTRIDGE_VRF_PROVIDER:#x}"),
                        "selector": format!("{REQUEST_RANDOM_SELECTOR:#x}"),
                        "calldata": [GAME, "0x1", salt],
                    },
                    {
                        "to": GAME,
                        "selector": format!("{:#x}", starknet::macros::selector!("explore")),
                        "calldata": ["0x2a", "0x1"],
                    },
                ],
            },
            "signature": sig,
        },
    });
    assert_eq!(body, &want);

    // Rebuild the execution from the captured JSON alone and check the signature against it.
    let p = &body["params"];
    let felt = |v: &Value| Felt::from_hex(v.as_str().unwrap()).unwrap();
    let oe = &p["outside_execution"];
    let rebuilt = OutsideExecution {
        caller: felt(&oe["caller"]),
        nonce: felt(&oe["nonce"]),
        execute_after: oe["execute_after"].as_u64().unwrap(),
        execute_before: oe["execute_before"].as_u64().unwrap(),
        calls: oe["calls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| Call {
                to: felt(&c["to"]),
                selector: felt(&c["selector"]),
                calldata: c["calldata"].as_array().unwrap().iter().map(felt).collect(),
            })
            .collect(),
    };
    let h = rebuilt.message_hash(
        Felt::from_hex("0x534e5f4d41494e").unwrap(),
        felt(&p["address"]),
    );
    let public = starknet_crypto::get_public_key(&Felt::from_hex(KEY).unwrap());
    let sig = p["signature"].as_array().unwrap();
    assert!(starknet_crypto::verify(&public, &h, &felt(&sig[0]), &felt(&sig[1])).unwrap());
}

#[tokio::test]
async fn answers_over_http_map_into_the_taxonomy() {
    let signed = signed_explore().await;
    let http_client = reqwest::Client::new();
    let cases = [
        (
            http::Response::json(
                200,
                &json!({"jsonrpc": "2.0", "id": 1, "error": {"code": 41, "message": "Transaction execution error",
                    "data": {"execution_error": "Failure reason: 0x4e6f7420696e20626174746c65 ('Not in battle')."}}}),
            ),
            "revert",
        ),
        (
            http::Response::json(
                200,
                &json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}}),
            ),
            "no paymaster",
        ),
        (
            http::Response::json(
                200,
                &json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32000, "message": "Rate limit exceeded"}}),
            ),
            "rpc",
        ),
        (http::Response::text(502, "bad gateway"), "rpc"),
        (
            http::Response::json(
                200,
                &json!({"jsonrpc": "2.0", "id": 1, "result": {"hash": "0x1"}}),
            ),
            "decode",
        ),
    ];
    for (answer, want) in cases {
        let (url, _) = server(answer).await;
        let got = CartridgePaymaster::new(http_client.clone(), url.clone())
            .submit(OutsideRequest::V2(&signed))
            .await
            .unwrap_err();
        let kind = match got {
            CartridgeError::Revert(_) => "revert",
            CartridgeError::Config(_) => "config",
            CartridgeError::NoPaymaster(_) => "no paymaster",
            CartridgeError::Rpc(_) | CartridgeError::Http(_) => "rpc",
            CartridgeError::Decode(_) | CartridgeError::DecodeJson { .. } => "decode",
            _ => "other",
        };
        assert_eq!(kind, want, "{got}");
    }
    // Nothing listening: an RPC error, its typed source kept, that names no URL key.
    let closed = url::Url::parse("http://127.0.0.1:9/?key=SECRET").unwrap();
    let e = CartridgePaymaster::new(http_client.clone(), closed.clone())
        .submit(OutsideRequest::V2(&signed))
        .await
        .unwrap_err();
    let CartridgeError::Http(source) = &e else {
        panic!("{e:?}")
    };
    assert!(source.inner().is_connect(), "{e}");
    for shown in [e.to_string(), format!("{e:?}")] {
        assert!(!shown.contains("SECRET"), "{shown}");
    }
}
