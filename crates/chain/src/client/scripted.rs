//! A scripted chain for the write pipeline's unit tests: one in-process Starknet node and one
//! paymaster over shared state (an account nonce, a game token's minted count, receipts). The node
//! answers in the JSON-RPC 0.9 wire format, written out literally (starkware-libs/starknet-specs
//! v0.9.0 `api/starknet_api_openrpc.json`: felts as `0x` hex, `FEE_ESTIMATE`, `INVOKE_TXN_RECEIPT`
//! with `execution_resources` as integers, error codes 24, 29, 52); the paymaster answers as
//! Cartridge's `cartridge_addExecuteOutsideTransaction` does (`{"transaction_hash"}`, or error
//! -32003 with Cartridge's message). Every request is logged by method, in order.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use starknet::core::types::Felt;
use starknet::macros::selector;
use starknet_crypto::poseidon_hash_many;

use crate::CartridgeError;
use crate::controller::cartridge::{parse_response, request};
use crate::node::RpcNode;
use crate::paymaster::{OutsideRequest, Paymaster};

/// `SN_SEPOLIA` as the node writes its chain id.
pub(super) const CHAIN_ID: &str = "0x534e5f5345504f4c4941";
/// The account the tests sign for.
pub(super) const ACCOUNT: &str = "0xacc0";
/// The game token (Denshokan) the mints go to.
pub(super) const TOKEN: &str = "0x70c3";
/// The game contracts.
pub(super) const GAME_SYSTEMS: &str = "0x9a3e";
pub(super) const GAME_TOKEN_SYSTEMS: &str = "0x70c0";
/// A v2 GameCore: the only contract that answers `load_assets`.
pub(super) const GAME_CORE: &str = "0x6a3e";
/// A game of a third generation, built by a unit test: one address for the game and the mint,
/// whose only view is `adventurer_state` (health, xp).
pub(super) const ONE_ADDRESS: &str = "0x3a3e";
/// The Controller v1.0.9 class (cartridge-gg/controller-rs `account_sdk/artifacts/metadata.json`
/// @addbf831).
const CONTROLLER_V1_0_9: &str = "0x743c83c41ce99ad470aa308823f417b2141e02e04571f5c0004e743556e7faf";

/// How the paymaster answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sponsor {
    /// It relays and pays.
    Relays,
    /// It does not pay for these calls (-32003).
    Declines,
    /// The session is revoked on chain as the request arrives, and the paymaster answers an
    /// internal error that names no session.
    RevokedMeanwhile,
}

/// The chain's state and what was asked of it.
#[derive(Debug)]
pub(super) struct State {
    /// Every request, by method (`paymaster` for a relay request), in order.
    pub(super) log: Vec<String>,
    /// The account's nonce on chain.
    pub(super) nonce: u64,
    /// The next this many `starknet_getNonce` answers are one behind (a lagging node).
    pub(super) lagging_nonce_reads: u32,
    /// Tokens minted so far.
    pub(super) minted: u64,
    /// Sent transactions never get a receipt (they stay `RECEIVED`).
    pub(super) withhold_receipts: bool,
    /// How the paymaster answers.
    pub(super) sponsor: Sponsor,
    /// The session is revoked on chain (`is_session_revoked`).
    pub(super) revoked: bool,
    /// Every transaction the node accepted from the account, as (nonce, hash).
    pub(super) sent: Vec<(u64, Felt)>,
    /// The calls of every transaction, as (selector, calldata) lists.
    pub(super) executed: Vec<Vec<(Felt, Vec<Felt>)>>,
    receipts: HashMap<Felt, Value>,
    relayed: u64,
}

/// The node and the paymaster, over one [`State`].
#[derive(Debug, Clone)]
pub(super) struct ScriptedChain(Arc<Mutex<State>>);

fn felt(v: &Value) -> Felt {
    Felt::from_hex(v.as_str().unwrap_or_default()).expect("a felt in 0x hex")
}

/// A JSON array of `0x` felts.
fn felts(v: &Value) -> Vec<Felt> {
    v.as_array()
        .expect("an array of felts")
        .iter()
        .map(felt)
        .collect()
}

fn hex(f: Felt) -> String {
    format!("{f:#x}")
}

fn success(id: u64, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

fn failure(id: u64, code: i64, message: &str, data: Option<Value>) -> Value {
    let mut error = json!({"code": code, "message": message});
    if let Some(data) = data {
        error["data"] = data;
    }
    json!({"jsonrpc": "2.0", "id": id, "error": error})
}

/// The calls of a Cairo 1 account's `__execute__` calldata: `[n, (to, selector, len, data…)…]`.
fn decode_calls(calldata: &[Felt]) -> Vec<(Felt, Vec<Felt>)> {
    let n = u64::try_from(calldata[0]).unwrap_or_default() as usize;
    let mut at = 1;
    let mut calls = Vec::new();
    for _ in 0..n {
        let selector = calldata[at + 1];
        let len = u64::try_from(calldata[at + 2]).unwrap_or_default() as usize;
        calls.push((selector, calldata[at + 3..at + 3 + len].to_vec()));
        at += 3 + len;
    }
    calls
}

/// An invoke v3's hash as the node computes it from the wire form (SNIP-8: the tip and the
/// three resource bounds, empty paymaster and deployment data, L1 data availability).
fn invoke_v3_hash(tx: &Value) -> Felt {
    let bound = |name: &[u8], key: &str| {
        let b = &tx["resource_bounds"][key];
        Felt::from_bytes_be_slice(name) * Felt::TWO.pow(192u32)
            + felt(&b["max_amount"]) * Felt::TWO.pow(128u32)
            + felt(&b["max_price_per_unit"])
    };
    let fees = poseidon_hash_many(&[
        felt(&tx["tip"]),
        bound(b"L1_GAS", "l1_gas"),
        bound(b"L2_GAS", "l2_gas"),
        bound(b"L1_DATA", "l1_data_gas"),
    ]);
    poseidon_hash_many(&[
        Felt::from_bytes_be_slice(b"invoke"),
        Felt::THREE,
        felt(&tx["sender_address"]),
        fees,
        poseidon_hash_many(&[]),
        Felt::from_hex(CHAIN_ID).unwrap(),
        felt(&tx["nonce"]),
        Felt::ZERO,
        poseidon_hash_many(&[]),
        poseidon_hash_many(&felts(&tx["calldata"])),
    ])
}

impl State {
    /// Runs the calls of one transaction: a mint mints the next token to the account; a start
    /// must name the token its transaction minted. The receipt is kept under `hash`.
    fn execute(&mut self, hash: Felt, calls: Vec<(Felt, Vec<Felt>)>) {
        let mut events = Vec::new();
        let mut minted_here = None;
        let mut revert = None;
        for (selector, calldata) in &calls {
            if *selector == selector!("mint_game") {
                self.minted += 1;
                minted_here = Some(self.minted);
                events.push(json!({
                    "from_address": TOKEN,
                    "keys": [hex(selector!("Transfer")), "0x0", ACCOUNT, hex(Felt::from(self.minted)), "0x0"],
                    "data": [],
                }));
            } else if *selector == selector!("start_game")
                && minted_here != Some(u64::try_from(calldata[0]).unwrap_or_default())
            {
                revert = Some("Not token owner");
            }
        }
        let mut receipt = json!({
            "type": "INVOKE",
            "transaction_hash": hex(hash),
            "actual_fee": {"amount": "0x1000", "unit": "FRI"},
            "execution_status": "SUCCEEDED",
            "finality_status": "ACCEPTED_ON_L2",
            "block_hash": "0xb10c",
            "block_number": 7,
            "messages_sent": [],
            "events": events,
            "execution_resources": {"l1_gas": 0, "l1_data_gas": 128, "l2_gas": 1048576},
        });
        if let Some(reason) = revert {
            receipt["execution_status"] = json!("REVERTED");
            receipt["revert_reason"] = json!(reason);
            receipt["events"] = json!([]);
        }
        self.executed.push(calls);
        self.receipts.insert(hash, receipt);
    }

    fn call(&self, id: u64, request: &Value) -> Value {
        let selector = felt(&request["entry_point_selector"]);
        let at = felt(&request["contract_address"]);
        if selector == selector!("load_assets") && at == Felt::from_hex_unchecked(GAME_CORE) {
            success(id, json!(vec!["0x0"; 62]))
        } else if selector == selector!("get_game_state")
            && at == Felt::from_hex_unchecked(GAME_SYSTEMS)
        {
            success(id, json!(vec!["0x0"; 70]))
        } else if selector == selector!("adventurer_state")
            && at == Felt::from_hex_unchecked(ONE_ADDRESS)
        {
            success(id, json!(["0x64", "0x5"]))
        } else if selector == selector!("token_address") {
            success(id, json!([TOKEN]))
        } else if selector == selector!("is_session_registered") {
            success(id, json!(["0x1"]))
        } else if selector == selector!("is_session_revoked") {
            success(id, json!([if self.revoked { "0x1" } else { "0x0" }]))
        } else {
            failure(
                id,
                -32603,
                "the scripted node has no answer for this call",
                None,
            )
        }
    }

    fn answer(&mut self, id: u64, method: &str, params: &Value) -> Value {
        self.log.push(method.to_string());
        let stale = |id, got: Felt, want: u64| {
            failure(
                id,
                52,
                "Invalid transaction nonce",
                Some(json!(format!("Account nonce: {want:#x}; got: {got:#x}."))),
            )
        };
        match method {
            "starknet_chainId" => success(id, json!(CHAIN_ID)),
            "starknet_specVersion" => success(id, json!("0.9.0")),
            "starknet_getBlockWithTxHashes" => failure(id, 24, "Block not found", None),
            "starknet_getNonce" => {
                let behind = u64::from(self.lagging_nonce_reads > 0);
                self.lagging_nonce_reads = self.lagging_nonce_reads.saturating_sub(1);
                success(id, json!(hex(Felt::from(self.nonce - behind))))
            }
            "starknet_call" => self.call(id, &params["request"]),
            "starknet_getStorageAt" => success(id, json!(hex(Felt::from(self.minted)))),
            "starknet_getClassHashAt" => success(id, json!(CONTROLLER_V1_0_9)),
            "starknet_estimateFee" => {
                let nonce = felt(&params["request"][0]["nonce"]);
                if nonce != Felt::from(self.nonce) {
                    return stale(id, nonce, self.nonce);
                }
                success(
                    id,
                    json!([{
                        "l1_gas_consumed": "0x0",
                        "l1_gas_price": "0x2",
                        "l2_gas_consumed": "0x100000",
                        "l2_gas_price": "0x3",
                        "l1_data_gas_consumed": "0x80",
                        "l1_data_gas_price": "0x4",
                        "overall_fee": "0x300200",
                        "unit": "FRI",
                    }]),
                )
            }
            "starknet_addInvokeTransaction" => {
                let tx = &params["invoke_transaction"];
                let nonce = felt(&tx["nonce"]);
                if nonce != Felt::from(self.nonce) {
                    return stale(id, nonce, self.nonce);
                }
                let hash = invoke_v3_hash(tx);
                self.sent.push((self.nonce, hash));
                self.nonce += 1;
                self.execute(hash, decode_calls(&felts(&tx["calldata"])));
                success(id, json!({"transaction_hash": hex(hash)}))
            }
            "starknet_getTransactionReceipt" => {
                let hash = felt(&params["transaction_hash"]);
                match self.receipts.get(&hash) {
                    Some(receipt) if !self.withhold_receipts => success(id, receipt.clone()),
                    _ => failure(id, 29, "Transaction hash not found", None),
                }
            }
            "starknet_getTransactionStatus" => {
                let hash = felt(&params["transaction_hash"]);
                if !self.receipts.contains_key(&hash) {
                    failure(id, 29, "Transaction hash not found", None)
                } else if self.withhold_receipts {
                    success(id, json!({"finality_status": "RECEIVED"}))
                } else {
                    success(
                        id,
                        json!({"finality_status": "ACCEPTED_ON_L2", "execution_status": "SUCCEEDED"}),
                    )
                }
            }
            _ => failure(id, -32601, "Method not found", None),
        }
    }

    /// The paymaster's answer to a relay request (its JSON body as sent).
    fn relay(&mut self, body: &Value) -> Value {
        self.log.push("paymaster".into());
        match self.sponsor {
            Sponsor::Relays => {}
            Sponsor::Declines => {
                return failure(
                    1,
                    -32003,
                    "insufficient credits and no applicable paymaster found",
                    None,
                );
            }
            Sponsor::RevokedMeanwhile => {
                self.revoked = true;
                return failure(1, -32603, "Internal error", None);
            }
        }
        let calls = body["params"]["outside_execution"]["calls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let data = felts(&c["calldata"]);
                (felt(&c["selector"]), data)
            })
            .collect();
        self.relayed += 1;
        let hash =
            poseidon_hash_many(&[Felt::from_bytes_be_slice(b"relayed"), self.relayed.into()]);
        self.execute(hash, calls);
        success(1, json!({"transaction_hash": hex(hash)}))
    }
}

impl ScriptedChain {
    /// A chain where the account's nonce is `nonce`, nothing is minted and the paymaster pays.
    pub(super) fn new(nonce: u64) -> Self {
        Self(Arc::new(Mutex::new(State {
            log: Vec::new(),
            nonce,
            lagging_nonce_reads: 0,
            minted: 0,
            withhold_receipts: false,
            sponsor: Sponsor::Relays,
            revoked: false,
            sent: Vec::new(),
            executed: Vec::new(),
            receipts: HashMap::new(),
            relayed: 0,
        })))
    }

    /// Reads or changes the state.
    pub(super) fn with<T>(&self, f: impl FnOnce(&mut State) -> T) -> T {
        f(&mut self.0.lock().unwrap())
    }
}

#[async_trait::async_trait]
impl RpcNode for ScriptedChain {
    async fn answer(&self, id: u64, method: &str, params: Value) -> Value {
        // Each request is a point where another task of the test may run, as over a network.
        tokio::task::yield_now().await;
        self.with(|s| s.answer(id, method, &params))
    }
}

#[async_trait::async_trait]
impl Paymaster for ScriptedChain {
    async fn submit(&self, outside: OutsideRequest<'_>) -> Result<Felt, CartridgeError> {
        tokio::task::yield_now().await;
        let answer = self.with(|s| s.relay(&request(&outside)));
        parse_response(&answer)
    }
}
