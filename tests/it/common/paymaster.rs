//! A local stand-in for Cartridge's RPC on 127.0.0.1 in front of a devnet: it plays the paymaster
//! for `cartridge_addExecuteOutsideTransaction` (relays the signed outside execution, v3 or v2,
//! through a funded devnet account and answers `{transaction_hash}`, or -32003 for calls it is
//! told not to sponsor) and forwards every other JSON-RPC request to the devnet. Like controller-rs
//! `account_sdk/src/tests/runners/cartridge.rs`, minus the VRF wrapping devnet cannot do; a test
//! may stand in for that wrapping with a [`Rewrite`] hook that decides what is relayed instead.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use loot_survivor_mcp::chain::controller::cartridge::METHOD;
use loot_survivor_mcp::chain::controller::outside_v3::OutsideExecutionV3;
use loot_survivor_mcp::chain::outside::{OutsideExecution, SignedOutsideExecution};
use serde_json::{Value, json};
use starknet::accounts::{Account, ExecutionEncoding, SingleOwnerAccount};
use starknet::core::types::{BlockId, BlockTag, Call, Felt};
use starknet::providers::Provider;
use starknet::providers::jsonrpc::{HttpTransport, JsonRpcClient};
use starknet::signers::{LocalWallet, SigningKey};
use tokio::net::TcpListener;

/// Devnet's predeployed account #1 (seed 0) and its public dev key.
pub const ACCOUNT_1: Felt =
    Felt::from_hex_unchecked("0x078662e7352d062084b0010068b99288486c2d8b914f6e2a55ce945f8792c8b1");
pub const KEY_1: &str = "0xe1406455b7d66b1690803be066cbe5e";

/// The message of the paymaster's -32003, as controller-rs `provider.rs` tests quote it.
pub const UNSPONSORED_MESSAGE: &str = "insufficient credits and no applicable paymaster found";

/// The funded account that submits the relayed executions.
#[derive(Debug, Clone, Copy)]
pub struct Relayer {
    pub address: Felt,
    pub key: Felt,
}

impl Relayer {
    /// Devnet's predeployed account #1.
    pub fn devnet_account_1() -> Self {
        Self {
            address: ACCOUNT_1,
            key: Felt::from_hex(KEY_1).unwrap(),
        }
    }
}

/// Looks at one request's params before it is relayed: `Ok(Some(call))` has the relayer send
/// `call` instead of the received execution, `Ok(None)` relays the execution as received, and
/// `Err(reason)` refuses the request (-32602 with the reason in its message).
pub type Rewrite = Arc<
    dyn Fn(Value) -> Pin<Box<dyn Future<Output = Result<Option<Call>, String>> + Send>>
        + Send
        + Sync,
>;

/// A [`Rewrite`] from an async function.
pub fn rewrite<F, Fut>(f: F) -> Rewrite
where
    F: Fn(Value) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Option<Call>, String>> + Send + 'static,
{
    Arc::new(move |params| Box::pin(f(params)))
}

/// The running stand-in: what it received, and which calls it refuses to sponsor.
pub struct Paymaster {
    shared: Arc<Shared>,
    task: tokio::task::JoinHandle<()>,
}

struct Shared {
    devnet: url::Url,
    relayer: Relayer,
    requests: Mutex<Vec<Value>>,
    unsponsored: Mutex<Vec<(Felt, Felt)>>,
    rewrite: Mutex<Option<Rewrite>>,
    relaying: tokio::sync::Mutex<()>,
}

impl Paymaster {
    /// Every `cartridge_addExecuteOutsideTransaction` body received, in order.
    pub fn requests(&self) -> Vec<Value> {
        self.shared.requests.lock().unwrap().clone()
    }

    /// From now on, answers -32003 to any execution with a call to `(contract, selector)`.
    pub fn refuse(&self, contract: Felt, selector: Felt) {
        self.shared
            .unsponsored
            .lock()
            .unwrap()
            .push((contract, selector));
    }

    /// From now on, every sponsored request goes through `rewrite` first.
    pub fn rewrite_with(&self, rewrite: Rewrite) {
        *self.shared.rewrite.lock().unwrap() = Some(rewrite);
    }

    /// Sponsors everything again.
    pub fn sponsor_all(&self) {
        self.shared.unsponsored.lock().unwrap().clear();
    }
}

impl Drop for Paymaster {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Starts the stand-in in front of `devnet`; its URL serves as the profile's RPC URL.
pub async fn start(devnet: url::Url, relayer: Relayer) -> (url::Url, Paymaster) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = url::Url::parse(&format!("http://{}/", listener.local_addr().unwrap())).unwrap();
    let shared = Arc::new(Shared {
        devnet,
        relayer,
        requests: Mutex::default(),
        unsponsored: Mutex::default(),
        rewrite: Mutex::default(),
        relaying: tokio::sync::Mutex::new(()),
    });
    let app = axum::Router::new()
        .fallback(handle)
        .with_state(shared.clone());
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (url, Paymaster { shared, task })
}

/// One JSON-RPC request: the paymaster method is answered here, the rest by the devnet.
async fn handle(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    let Ok(body) = serde_json::from_slice::<Value>(&body) else {
        return (StatusCode::BAD_REQUEST, "not JSON").into_response();
    };
    let answer = if body["method"] == METHOD {
        shared.requests.lock().unwrap().push(body.clone());
        let refused = shared.unsponsored.lock().unwrap().clone();
        let rewrite = shared.rewrite.lock().unwrap().clone();
        let _one_at_a_time = shared.relaying.lock().await;
        paymaster(&shared.devnet, shared.relayer, &body, &refused, rewrite).await
    } else {
        match forward(&shared.devnet, &body).await {
            Ok(answer) => answer,
            Err(e) => return (StatusCode::BAD_GATEWAY, e.to_string()).into_response(),
        }
    };
    (
        [(header::CONTENT_TYPE, "application/json")],
        answer.to_string(),
    )
        .into_response()
}

async fn forward(devnet: &url::Url, body: &Value) -> reqwest::Result<Value> {
    reqwest::Client::new()
        .post(devnet.clone())
        .json(body)
        .send()
        .await?
        .json()
        .await
}

fn felt(v: &Value) -> Option<Felt> {
    Felt::from_hex(v.as_str()?).ok()
}

/// A time bound written as a number (our v2 body) or a hex string (the SDK's v3 body).
fn bound(v: &Value) -> Option<u64> {
    v.as_u64()
        .or_else(|| u64::try_from(felt(v)?.to_biguint()).ok())
}

fn calls_of(v: &Value) -> Option<Vec<Call>> {
    v.as_array()?
        .iter()
        .map(|c| {
            Some(Call {
                to: felt(&c["to"])?,
                selector: felt(&c["selector"])?,
                calldata: c["calldata"]
                    .as_array()?
                    .iter()
                    .map(felt)
                    .collect::<Option<_>>()?,
            })
        })
        .collect()
}

/// The account, v3 execution and signature of a request's params (`None` unless well-formed v3).
pub fn execution_v3(params: &Value) -> Option<(Felt, OutsideExecutionV3, Vec<Felt>)> {
    let oe = &params["outside_execution"];
    let nonce = oe["nonce"].as_array()?;
    let execution = OutsideExecutionV3 {
        caller: felt(&oe["caller"])?,
        nonce: (
            felt(nonce.first()?)?,
            u128::try_from(felt(nonce.get(1)?)?.to_biguint()).ok()?,
        ),
        execute_after: bound(&oe["execute_after"])?,
        execute_before: bound(&oe["execute_before"])?,
        calls: calls_of(&oe["calls"])?,
    };
    let signature = params["signature"]
        .as_array()?
        .iter()
        .map(felt)
        .collect::<Option<_>>()?;
    Some((felt(&params["address"])?, execution, signature))
}

/// The `execute_from_outside_v3` (nonce `[channel, mask]`) or `_v2` (nonce a felt) call the
/// request asks for, with its calls.
fn relay_call(params: &Value) -> Option<(Call, Vec<Call>)> {
    let account = felt(&params["address"])?;
    let oe = &params["outside_execution"];
    let signature: Vec<Felt> = params["signature"]
        .as_array()?
        .iter()
        .map(felt)
        .collect::<Option<_>>()?;
    let calls = calls_of(&oe["calls"])?;
    let (caller, after, before) = (
        felt(&oe["caller"])?,
        bound(&oe["execute_after"])?,
        bound(&oe["execute_before"])?,
    );
    let call = if oe["nonce"].is_array() {
        let (_, execution, _) = execution_v3(params)?;
        execution.execute_call(account, &signature)
    } else {
        let execution = OutsideExecution {
            caller,
            nonce: felt(&oe["nonce"])?,
            execute_after: after,
            execute_before: before,
            calls: calls.clone(),
        };
        SignedOutsideExecution {
            account,
            execution,
            hash: Felt::ZERO,
            signature,
        }
        .execute_call()
    };
    Some((call, calls))
}

fn error(id: &Value, code: i64, message: &str, data: Option<Value>) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message, "data": data}})
}

/// Answers one paymaster request: -32602 when malformed, -32003 when a call is refused, the
/// node's failure as "Transaction execution error", or the relayed transaction's hash.
async fn paymaster(
    devnet: &url::Url,
    relayer: Relayer,
    body: &Value,
    refused: &[(Felt, Felt)],
    rewrite: Option<Rewrite>,
) -> Value {
    let id = &body["id"];
    let Some((mut call, calls)) = relay_call(&body["params"]) else {
        return error(id, -32602, "Invalid params", None);
    };
    if calls.iter().any(|c| refused.contains(&(c.to, c.selector))) {
        return error(id, -32003, UNSPONSORED_MESSAGE, None);
    }
    if let Some(rewrite) = rewrite {
        match rewrite(body["params"].clone()).await {
            Ok(Some(instead)) => call = instead,
            Ok(None) => {}
            Err(reason) => return error(id, -32602, &format!("Invalid params: {reason}"), None),
        }
    }
    let provider = JsonRpcClient::new(HttpTransport::new(devnet.clone()));
    let chain_id = match provider.chain_id().await {
        Ok(c) => c,
        Err(e) => return error(id, -32603, &e.to_string(), None),
    };
    let mut account = SingleOwnerAccount::new(
        provider,
        LocalWallet::from(SigningKey::from_secret_scalar(relayer.key)),
        relayer.address,
        chain_id,
        ExecutionEncoding::New,
    );
    account.set_block_id(BlockId::Tag(BlockTag::PreConfirmed));
    match account.execute_v3(vec![call]).send().await {
        Ok(sent) => json!({"jsonrpc": "2.0", "id": id,
            "result": {"transaction_hash": format!("{:#x}", sent.transaction_hash)}}),
        Err(e) => error(
            id,
            41,
            "Transaction execution error",
            Some(json!({"execution_error": e.to_string()})),
        ),
    }
}
