//! The Cartridge paymaster's JSON-RPC method `cartridge_addExecuteOutsideTransaction`: it takes a
//! signed SNIP-9 outside execution (v2, or the Controller's v3), wraps the multicall with the VRF
//! `submit_random` / `assert_consumed` calls and submits it from its own account (docs/vrf.md).
//! The request shape follows Cartridge's controller SDK (controller-rs
//! `account_sdk/src/provider.rs` @ `addbf831`: `OutsideExecutionParams {address,
//! outside_execution, signature}` answered by `{transaction_hash}`); its errors are mapped into
//! [`CartridgeError`].

use serde::Deserialize;
use serde_json::{Value, json};
use starknet::core::types::Felt;

use base::redact::Redacted;

use crate::CartridgeError;
use crate::outside::{OutsideExecutionJson, SignedOutsideExecution, hex};
use crate::outside_v3::{OutsideExecutionV3, OutsideExecutionV3Json};
use crate::paymaster::{OutsideRequest, Paymaster};
use crate::revert::{classify, has_phrase, node_refusal, words};

/// The method name.
pub const METHOD: &str = "cartridge_addExecuteOutsideTransaction";

/// The paymaster's codes for "no sponsor for these calls" (-32003, e.g. "insufficient credits and
/// no applicable paymaster found") and "not supported" (-32004); the SDK then runs the calls
/// with a direct `__execute__` (controller-rs `provider.rs`, `ExecuteFromOutsideNotSupported`).
pub const UNSPONSORED_CODES: [i64; 2] = [-32003, -32004];

/// JSON-RPC's "method not found": the RPC is not Cartridge's.
const METHOD_NOT_FOUND: i64 = -32601;

/// The paymaster's rate-limit code: worth retrying later.
pub const RATE_LIMITED_CODE: i64 = -32005;

/// The JSON-RPC envelope shared by v2 and v3: `outside_execution` is already in its JSON form.
fn envelope(account: Felt, outside_execution: Value, signature: &[Felt], id: u64) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": METHOD,
        "params": {
            "address": hex(&account),
            "outside_execution": outside_execution,
            "signature": signature.iter().map(hex).collect::<Vec<_>>(),
        },
    })
}

/// The JSON-RPC request body for a signed v2 outside execution (`id` is the request id).
pub fn request_body(signed: &SignedOutsideExecution, id: u64) -> Value {
    let e = &signed.execution;
    // v2's request writes the time bounds as plain numbers.
    let outside_execution = OutsideExecutionJson::new(
        &e.caller,
        hex(&e.nonce),
        e.execute_after,
        e.execute_before,
        &e.calls,
    );
    envelope(
        signed.account,
        json!(outside_execution),
        &signed.signature,
        id,
    )
}

/// The JSON-RPC request body for a v3 outside execution of `account` with its `signature` (for
/// a Controller session, the full session signature).
pub fn request_body_v3(
    account: Felt,
    execution: &OutsideExecutionV3,
    signature: &[Felt],
    id: u64,
) -> Value {
    let outside_execution = json!(OutsideExecutionV3Json::from(execution));
    envelope(account, outside_execution, signature, id)
}

#[derive(Deserialize)]
struct RpcError {
    code: i64,
    message: String,
    #[serde(default)]
    data: Option<Value>,
}

#[derive(Deserialize)]
struct AddResult {
    transaction_hash: Felt,
}

/// Reads the answer: the transaction hash, or the error mapped into the taxonomy.
pub fn parse_response(body: &Value) -> Result<Felt, CartridgeError> {
    if let Some(err) = body.get("error") {
        let err: RpcError = serde_json::from_value(err.clone())
            .map_err(|e| CartridgeError::decode_json("Cartridge error object", e))?;
        return Err(map_error(&err));
    }
    let result = body.get("result").ok_or_else(|| {
        CartridgeError::Decode("Cartridge answer has neither result nor error".into())
    })?;
    let r: AddResult = serde_json::from_value(result.clone())
        .map_err(|e| CartridgeError::decode_json("Cartridge result", e))?;
    Ok(r.transaction_hash)
}

/// Decodes a Cartridge JSON-RPC error where the answer is read: no sponsor becomes
/// `Unsponsored`, no paymaster `NoPaymaster`, game failures reverts (decoded like node reverts),
/// a refused session or nonce `Refused`, configuration mistakes `Config`, the rest (rate limits,
/// time window, outages) `Rpc`.
fn map_error(err: &RpcError) -> CartridgeError {
    if UNSPONSORED_CODES.contains(&err.code) {
        return CartridgeError::Unsponsored(base::redact::redact_urls(&err.message));
    }
    if err.code == METHOD_NOT_FOUND || has_phrase(&words(&err.message), &["method", "not", "found"])
    {
        return CartridgeError::NoPaymaster(base::redact::redact_urls(&err.message));
    }
    let data = err.data.as_ref().map(|d| d.to_string()).unwrap_or_default();
    let text = base::redact::redact_urls(&format!("{} {}", err.message, data));
    let words = words(&text);
    let revert = classify(&text);
    let said = |part: &str| words.iter().any(|w| w.contains(part));
    let execution_failed =
        said("execution") && (said("failed") || said("revert") || said("failure")) && !said("time");
    if revert.is_known() || execution_failed {
        return CartridgeError::Revert(revert);
    }
    let message = format!("Cartridge paymaster ({}): {text}", err.code);
    if let Some(refusal) = node_refusal(&text, false) {
        return CartridgeError::Refused { refusal, message };
    }
    if has_phrase(&words, &["not", "supported"]) || has_phrase(&words, &["invalid", "caller"]) {
        return CartridgeError::Config(format!(
            "the Cartridge paymaster refused the outside execution ({}): {text}; check the profile's \
             chain.rpc_url (it must be a Cartridge RPC) and that the account supports SNIP-9 v2",
            err.code
        ));
    }
    CartridgeError::Rpc(message)
}

/// The JSON-RPC request that submits `request` (`id` 1).
pub fn request(request: &OutsideRequest<'_>) -> Value {
    match *request {
        OutsideRequest::V2(signed) => request_body(signed, 1),
        OutsideRequest::V3 {
            account,
            execution,
            signature,
        } => request_body_v3(account, execution, signature, 1),
    }
}

/// The Cartridge paymaster at a Cartridge RPC URL.
#[derive(Debug, Clone)]
pub struct CartridgePaymaster {
    http: reqwest::Client,
    url: url::Url,
}

impl CartridgePaymaster {
    /// The paymaster at `url`, reached with `http`.
    pub fn new(http: reqwest::Client, url: url::Url) -> Self {
        Self { http, url }
    }
}

#[async_trait::async_trait]
impl Paymaster for CartridgePaymaster {
    async fn submit(&self, outside: OutsideRequest<'_>) -> Result<Felt, CartridgeError> {
        post(&self.http, &self.url, &request(&outside)).await
    }
}

/// Posts a request body and reads the answer with [`parse_response`].
async fn post(
    http: &reqwest::Client,
    url: &url::Url,
    body: &Value,
) -> Result<Felt, CartridgeError> {
    let resp = http
        .post(url.clone())
        .json(body)
        .send()
        .await
        .map_err(|e| CartridgeError::Http(Redacted::new(e)))?;
    let status = resp.status();
    let text = resp
        .text()
        .await
        .map_err(|e| CartridgeError::Http(Redacted::new(e)))?;
    let value: Value = serde_json::from_str(&text).map_err(|_| {
        CartridgeError::Rpc(format!(
            "Cartridge RPC answered HTTP {status} with a non-JSON body: {}",
            text.chars().take(200).collect::<String>()
        ))
    })?;
    parse_response(&value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rpc_error(code: i64, message: &str, data: Option<Value>) -> Value {
        json!({"jsonrpc": "2.0", "id": 1, "error": {"code": code, "message": message, "data": data}})
    }

    #[test]
    fn result_yields_the_hash() {
        let v = json!({"jsonrpc": "2.0", "id": 1, "result": {"transaction_hash": "0xabc"}});
        assert_eq!(parse_response(&v).unwrap(), Felt::from(0xabc));
        assert!(matches!(
            parse_response(&json!({"jsonrpc": "2.0", "id": 1})),
            Err(CartridgeError::Decode(_))
        ));
    }

    /// One call of `execution`'s shape, for the request bodies pinned byte for byte.
    fn one_call() -> Vec<starknet::core::types::Call> {
        vec![starknet::core::types::Call {
            to: Felt::from(0x5e2d_u64),
            selector: starknet::macros::selector!("explore"),
            calldata: vec![Felt::from(42), Felt::ONE],
        }]
    }

    #[test]
    fn request_bodies_are_byte_identical_to_the_pinned_ones() {
        let signed = SignedOutsideExecution {
            account: Felt::from(0xacc_u64),
            execution: crate::outside::OutsideExecution {
                caller: crate::outside::ANY_CALLER,
                nonce: Felt::from(0xabcdef_u64),
                execute_after: 5,
                execute_before: 1_900_000_000,
                calls: one_call(),
            },
            hash: Felt::from(0x4a5_u64),
            signature: vec![Felt::from(0x5_u64), Felt::from(0x6_u64)],
        };
        assert_eq!(
            request_body(&signed, 7).to_string(),
            r#"{"id":7,"jsonrpc":"2.0","method":"cartridge_addExecuteOutsideTransaction","params":{"address":"0xacc","outside_execution":{"caller":"0x414e595f43414c4c4552","calls":[{"calldata":["0x2a","0x1"],"selector":"0x1f64d317ff277789ba74de95db50418ab0fa47c09241400b7379b50d6334c3a","to":"0x5e2d"}],"execute_after":5,"execute_before":1900000000,"nonce":"0xabcdef"},"signature":["0x5","0x6"]}}"#
        );
        let v3 = OutsideExecutionV3 {
            caller: crate::outside::ANY_CALLER,
            nonce: (Felt::from(0xc0ffee_u64), 4),
            execute_after: 5,
            execute_before: 1_900_000_000,
            calls: one_call(),
        };
        let signature = [Felt::from(0x5_u64), Felt::from(0x6_u64)];
        assert_eq!(
            request_body_v3(Felt::from(0xacc_u64), &v3, &signature, 8).to_string(),
            r#"{"id":8,"jsonrpc":"2.0","method":"cartridge_addExecuteOutsideTransaction","params":{"address":"0xacc","outside_execution":{"caller":"0x414e595f43414c4c4552","calls":[{"calldata":["0x2a","0x1"],"selector":"0x1f64d317ff277789ba74de95db50418ab0fa47c09241400b7379b50d6334c3a","to":"0x5e2d"}],"execute_after":"0x5","execute_before":"0x713fb300","nonce":["0xc0ffee","0x4"]},"signature":["0x5","0x6"]}}"#
        );
    }

    #[test]
    fn v3_body_is_the_controller_sdk_s() {
        // controller-rs `account_sdk/src/tests/runners/test_data/session_execute_outside.json`
        // @ `addbf831` (its first five signature felts), written out as the SDK sends it.
        let want = json!({
          "id": 1,
          "jsonrpc": "2.0",
          "method": "cartridge_addExecuteOutsideTransaction",
          "params": {
            "address": "0x50302d9f4df7a96567423f64f1271ef07537469d8e8c4dd2409cf3cc4274de4",
            "outside_execution": {
              "caller": "0x414e595f43414c4c4552",
              "execute_before": "0xb2d05e00",
              "execute_after": "0x0",
              "calls": [
                {
                  "to": "0x49d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7",
                  "selector": "0x219209e083275171774dab1df80982e9df2096516f06319c5c6d71ae0a8480c",
                  "calldata": [
                    "0x50302d9f4df7a96567423f64f1271ef07537469d8e8c4dd2409cf3cc4274de4",
                    "0x11c37937e08000",
                    "0x0"
                  ]
                },
                {
                  "to": "0x49d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7",
                  "selector": "0x83afd3f4caedc6eebf44246fe54e38c95e3179a5ec9ea81740eca5b482d12e",
                  "calldata": [
                    "0x50302d9f4df7a96567423f64f1271ef07537469d8e8c4dd2409cf3cc4274de4",
                    "0x11c37937e08000",
                    "0x0"
                  ]
                }
              ],
              "nonce": [
                "0x564b73282b2fb5f201cf2070bf0ca2526871cb7daa06e0e805521ef5d907b33",
                "0x1"
              ]
            },
            "signature": [
              "0x73657373696f6e2d746f6b656e",
              "0xb2d05e00",
              "0x4ddaf4e356d04a3cd82251f980ed36853b1fc21177f37da7589d334f34df81f",
              "0x0",
              "0x438a350f83346ca7baa981c6d96ce6ed7296ffba314eedbb35a71ad564ff545"
            ]
          }
        });
        let f = |s: &str| Felt::from_hex(s).unwrap();
        let account = f("0x50302d9f4df7a96567423f64f1271ef07537469d8e8c4dd2409cf3cc4274de4");
        let eth = f("0x49d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7");
        let calldata = vec![account, f("0x11c37937e08000"), Felt::ZERO];
        let execution = OutsideExecutionV3 {
            caller: crate::outside::ANY_CALLER,
            nonce: (
                f("0x564b73282b2fb5f201cf2070bf0ca2526871cb7daa06e0e805521ef5d907b33"),
                1,
            ),
            execute_after: 0,
            execute_before: 3_000_000_000,
            calls: ["approve", "transfer"]
                .map(|name| starknet::core::types::Call {
                    to: eth,
                    selector: starknet::core::utils::get_selector_from_name(name).unwrap(),
                    calldata: calldata.clone(),
                })
                .to_vec(),
        };
        let signature = [
            f("0x73657373696f6e2d746f6b656e"),
            f("0xb2d05e00"),
            f("0x4ddaf4e356d04a3cd82251f980ed36853b1fc21177f37da7589d334f34df81f"),
            Felt::ZERO,
            f("0x438a350f83346ca7baa981c6d96ce6ed7296ffba314eedbb35a71ad564ff545"),
        ];
        assert_eq!(request_body_v3(account, &execution, &signature, 1), want);
    }

    #[test]
    fn unsponsored_and_rate_limit_codes() {
        // The error controller-rs `provider.rs` tests map to `ExecuteFromOutsideNotSupported`.
        let unsponsored = rpc_error(
            -32003,
            "insufficient credits and no applicable paymaster found",
            None,
        );
        match parse_response(&unsponsored) {
            Err(CartridgeError::Unsponsored(m)) => {
                assert_eq!(m, "insufficient credits and no applicable paymaster found")
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse_response(&rpc_error(-32004, "Paymaster not supported", None)),
            Err(CartridgeError::Unsponsored(_))
        ));
        assert!(matches!(
            parse_response(&rpc_error(RATE_LIMITED_CODE, "Rate limit exceeded", None)),
            Err(CartridgeError::Rpc(_))
        ));
        match parse_response(&rpc_error(
            -32003,
            "no paymaster for https://api.cartridge.gg/x/starknet/mainnet?key=SECRET",
            None,
        )) {
            Err(CartridgeError::Unsponsored(m)) => assert!(!m.contains("SECRET"), "{m}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn errors_map_into_the_taxonomy() {
        let game = rpc_error(
            41,
            "Transaction execution error",
            Some(
                json!({"execution_error": "Failure reason: 0x4e6f7420696e20626174746c65 ('Not in battle')."}),
            ),
        );
        match parse_response(&game) {
            Err(CartridgeError::Revert(revert)) => {
                assert!(revert.reason.contains("Not in battle"), "{revert:?}");
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse_response(&rpc_error(-32601, "Method not found", None)),
            Err(CartridgeError::NoPaymaster(_))
        ));
        assert!(matches!(
            parse_response(&rpc_error(1, "Invalid caller for this transaction", None)),
            Err(CartridgeError::Config(_))
        ));
        for m in [
            "Rate limit exceeded",
            "Execution time has passed",
            "Execution time not yet reached",
            "Internal error",
        ] {
            assert!(
                matches!(
                    parse_response(&rpc_error(-32603, m, None)),
                    Err(CartridgeError::Rpc(_))
                ),
                "{m}"
            );
        }
        match parse_response(&rpc_error(
            500,
            "boom at https://api.cartridge.gg/x/starknet/mainnet?key=SECRET",
            None,
        )) {
            Err(CartridgeError::Rpc(m)) => assert!(!m.contains("SECRET"), "{m}"),
            other => panic!("{other:?}"),
        }
    }
}
