//! The Cartridge paymaster's JSON-RPC method `cartridge_addExecuteOutsideTransaction`: it takes a
//! signed SNIP-9 outside execution, wraps the multicall with the VRF `submit_random` /
//! `assert_consumed` calls and submits it from its own account (docs/vrf.md). The request shape
//! follows Cartridge's controller SDK (`OutsideExecutionParams {address, outside_execution,
//! signature}` answered by `{transaction_hash}`); its errors are mapped into [`ChainError`].

use serde::Deserialize;
use serde_json::{Value, json};
use starknet::core::types::Felt;

use super::ChainError;
use super::outside::{OutsideExecutionJson, SignedOutsideExecution, hex};
use super::revert::classify;

/// The method name.
pub const METHOD: &str = "cartridge_addExecuteOutsideTransaction";

/// The JSON-RPC request body for a signed outside execution (`id` is the request id).
pub fn request_body(signed: &SignedOutsideExecution, id: u64) -> Value {
    let e = OutsideExecutionJson::from(&signed.execution);
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": METHOD,
        "params": {
            "address": hex(&signed.account),
            "outside_execution": {
                "caller": e.caller,
                "nonce": e.nonce,
                "execute_after": signed.execution.execute_after,
                "execute_before": signed.execution.execute_before,
                "calls": e.calls,
            },
            "signature": signed.signature.iter().map(hex).collect::<Vec<_>>(),
        },
    })
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
pub fn parse_response(body: &Value) -> Result<Felt, ChainError> {
    if let Some(err) = body.get("error") {
        let err: RpcError = serde_json::from_value(err.clone())
            .map_err(|e| ChainError::Decode(format!("Cartridge error object: {e}")))?;
        return Err(map_error(&err));
    }
    let result = body.get("result").ok_or_else(|| {
        ChainError::Decode("Cartridge answer has neither result nor error".into())
    })?;
    let r: AddResult = serde_json::from_value(result.clone())
        .map_err(|e| ChainError::Decode(format!("Cartridge result: {e}")))?;
    Ok(r.transaction_hash)
}

/// Maps a Cartridge JSON-RPC error: game failures become reverts (decoded like node reverts),
/// configuration mistakes `Config`, the rest (rate limits, time window, outages) `Rpc`.
fn map_error(err: &RpcError) -> ChainError {
    let data = err.data.as_ref().map(|d| d.to_string()).unwrap_or_default();
    let text = crate::redact::redact_urls(&format!("{} {}", err.message, data));
    let lower = text.to_ascii_lowercase();
    let revert = classify(&text);
    if revert.code != "UNKNOWN_REVERT" {
        return ChainError::Revert {
            revert,
            tx_hash: None,
        };
    }
    if lower.contains("not supported")
        || lower.contains("invalid caller")
        || lower.contains("method not found")
        || err.code == -32601
    {
        return ChainError::Config(format!(
            "the Cartridge paymaster refused the outside execution ({}): {text}; check the profile's \
             chain.rpc_url (it must be a Cartridge RPC) and that the account supports SNIP-9 v2",
            err.code
        ));
    }
    if lower.contains("execution")
        && (lower.contains("failed") || lower.contains("revert") || lower.contains("failure"))
        && !lower.contains("time")
    {
        return ChainError::Revert {
            revert,
            tx_hash: None,
        };
    }
    ChainError::Rpc(format!("Cartridge paymaster ({}): {text}", err.code))
}

/// Sends a signed outside execution to `url` and returns the paymaster's transaction hash.
pub async fn submit(
    http: &reqwest::Client,
    url: &url::Url,
    signed: &SignedOutsideExecution,
) -> Result<Felt, ChainError> {
    let body = request_body(signed, 1);
    let resp = http
        .post(url.clone())
        .json(&body)
        .send()
        .await
        .map_err(|e| ChainError::Rpc(crate::redact::redact_urls(&format!("Cartridge RPC: {e}"))))?;
    let status = resp.status();
    let text = resp
        .text()
        .await
        .map_err(|e| ChainError::Rpc(crate::redact::redact_urls(&format!("Cartridge RPC: {e}"))))?;
    let value: Value = serde_json::from_str(&text).map_err(|_| {
        ChainError::Rpc(format!(
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
            Err(ChainError::Decode(_))
        ));
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
            Err(ChainError::Revert { revert, tx_hash }) => {
                assert_eq!(tx_hash, None);
                assert!(revert.reason.contains("Not in battle"), "{revert:?}");
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse_response(&rpc_error(-32601, "Method not found", None)),
            Err(ChainError::Config(_))
        ));
        assert!(matches!(
            parse_response(&rpc_error(1, "Invalid caller for this transaction", None)),
            Err(ChainError::Config(_))
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
                    Err(ChainError::Rpc(_))
                ),
                "{m}"
            );
        }
        match parse_response(&rpc_error(
            500,
            "boom at https://api.cartridge.gg/x/starknet/mainnet?key=SECRET",
            None,
        )) {
            Err(ChainError::Rpc(m)) => assert!(!m.contains("SECRET"), "{m}"),
            other => panic!("{other:?}"),
        }
    }
}
