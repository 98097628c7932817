//! Write latency and RPC cost on devnet: our server (real binary, MCP over stdio) next to a plain
//! starknet-rs client doing the same game calls, both through a counting proxy. Prints p50/p95 per
//! action and JSON-RPC requests per write. A benchmark, not a test: run `scripts/bench-writes.sh`.

#[path = "../tests/common/mod.rs"]
mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use starknet::accounts::{Account, ConnectedAccount, ExecutionEncoding, SingleOwnerAccount};
use starknet::core::types::{Call, ExecutionResult, Felt};
use starknet::providers::Provider;
use starknet::providers::jsonrpc::{HttpTransport, JsonRpcClient};
use starknet::signers::{LocalWallet, SigningKey};

const GAMES: usize = 10;
const KEY_0: &str = "0x71d7bb07b9a64f6f78ac4c816aff4da9";

fn percentile(v: &mut [Duration], p: f64) -> Duration {
    v.sort();
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    v[i]
}

fn print_row(who: &str, action: &str, v: &mut [Duration]) {
    println!(
        "{who:<12} {action:<10} n={:<3} p50={:>7.1} ms  p95={:>7.1} ms",
        v.len(),
        percentile(v, 0.5).as_secs_f64() * 1e3,
        percentile(v, 0.95).as_secs_f64() * 1e3
    );
}

fn total_requests(f: &common::proxy::Faults) -> usize {
    f.seen.lock().unwrap().len()
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let world = common::world().await;
    let (proxy_url, faults) = common::proxy::start(world.devnet.url.clone()).await;

    // Our server.
    let client = world
        .client_at(&proxy_url, (), &[("RUST_LOG", "warn")])
        .await;
    let (mut attack, mut upgrade) = (Vec::new(), Vec::new());
    let mut ours_requests = 0;
    for _ in 0..GAMES {
        let id = client.ok("ls_new_game", json!({"weapon": "Wand"})).await["adventurer_id"]
            .as_u64()
            .unwrap();
        let before = total_requests(&faults);
        let t = Instant::now();
        client.ok("ls_attack", json!({"adventurer_id": id})).await;
        attack.push(t.elapsed());
        let t = Instant::now();
        client
            .ok("ls_upgrade", json!({"adventurer_id": id, "strength": 1}))
            .await;
        upgrade.push(t.elapsed());
        ours_requests += total_requests(&faults) - before;
    }
    client.shutdown().await;

    // A plain starknet-rs client: estimate inside send(), then poll the receipt.
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&world.manifest).unwrap()).unwrap();
    let game = Felt::from_hex(manifest["world"]["address"].as_str().unwrap()).unwrap();
    let provider = Arc::new(JsonRpcClient::new(HttpTransport::new(proxy_url.clone())));
    let signer = LocalWallet::from(SigningKey::from_secret_scalar(
        Felt::from_hex(KEY_0).unwrap(),
    ));
    let address = Felt::from_hex(common::ACCOUNT).unwrap();
    let chain_id = provider.chain_id().await.unwrap();
    let account = SingleOwnerAccount::new(
        provider.clone(),
        signer,
        address,
        chain_id,
        ExecutionEncoding::New,
    );
    let call = |name: &str, calldata: Vec<Felt>| Call {
        to: game,
        selector: starknet::core::utils::get_selector_from_name(name).unwrap(),
        calldata,
    };
    let send = |calls: Vec<Call>| {
        let account = &account;
        let provider = provider.clone();
        async move {
            let hash = account
                .execute_v3(calls)
                .send()
                .await
                .unwrap()
                .transaction_hash;
            loop {
                if let Ok(r) = provider.get_transaction_receipt(hash).await {
                    assert!(matches!(
                        r.receipt.execution_result(),
                        ExecutionResult::Succeeded
                    ));
                    return r;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    };
    let (mut plain_attack, mut plain_upgrade) = (Vec::new(), Vec::new());
    let mut plain_requests = 0;
    let transfer = starknet::core::utils::get_selector_from_name("Transfer").unwrap();
    for _ in 0..GAMES {
        let mint = send(vec![call(
            "mint_game",
            vec![
                Felt::ONE,
                Felt::ZERO,
                Felt::ZERO,
                Felt::ONE,
                Felt::ONE,
                Felt::ONE,
                Felt::ONE,
                Felt::ONE,
                Felt::ONE,
                account.address(),
                Felt::ZERO,
            ],
        )])
        .await;
        let id = mint
            .receipt
            .events()
            .iter()
            .find(|e| e.keys.first() == Some(&transfer))
            .map(|e| e.keys[3])
            .unwrap();
        send(vec![call("start_game", vec![id, Felt::from(12u8)])]).await;
        let before = total_requests(&faults);
        let t = Instant::now();
        send(vec![call("attack", vec![id, Felt::ZERO])]).await;
        plain_attack.push(t.elapsed());
        let t = Instant::now();
        let stats = [1u8, 0, 0, 0, 0, 0, 0].map(Felt::from);
        send(vec![call(
            "select_stat_upgrades",
            [vec![id], stats.to_vec()].concat(),
        )])
        .await;
        plain_upgrade.push(t.elapsed());
        plain_requests += total_requests(&faults) - before;
    }

    println!("per-action latency on starknet-devnet (one block per transaction), {GAMES} games");
    print_row("our server", "attack", &mut attack);
    print_row("our server", "upgrade", &mut upgrade);
    print_row("starknet-rs", "attack", &mut plain_attack);
    print_row("starknet-rs", "upgrade", &mut plain_upgrade);
    println!(
        "JSON-RPC requests per write: our server {:.1} (incl. simulation, status polling and the state read-back), plain starknet-rs {:.1} (send + receipt polling, no state read)",
        ours_requests as f64 / (2 * GAMES) as f64,
        plain_requests as f64 / (2 * GAMES) as f64
    );
    let _ = account.provider();
}
