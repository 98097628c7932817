//! Cost of the durable journal on a write's path: recording a transaction before it is sent (a
//! WAL commit; its sync runs on the journal's writer thread), a status change, a spending record
//! and a replay store (queued for the writer thread: the caller's cost), the same with the queue
//! settled (the writer's cost, sync included), the policy's usage query, and a replay lookup; on
//! disk and in memory. Prints mean, p50 and p99 per case.
//! A benchmark, not a test: `cargo bench --profile dev --bench journal` (I/O-bound: the
//! optimized build changes little).

use std::time::{Duration, Instant, SystemTime};

use loot_survivor_mcp::chain::journal::{Journal, now_ms};
use loot_survivor_mcp::chain::ledger::TxRecord;
use loot_survivor_mcp::wallet::SpendingLog;
use starknet::core::types::Felt;

const ROUNDS: u32 = 300;

fn report(name: &str, mut samples: Vec<Duration>) {
    samples.sort();
    let mean = samples.iter().sum::<Duration>() / samples.len() as u32;
    let at = |p: f64| samples[((samples.len() - 1) as f64 * p).round() as usize];
    println!(
        "{name:<40} mean {:>8.1} µs  p50 {:>8.1} µs  p99 {:>8.1} µs",
        mean.as_secs_f64() * 1e6,
        at(0.5).as_secs_f64() * 1e6,
        at(0.99).as_secs_f64() * 1e6
    );
}

fn time(mut f: impl FnMut(u32)) -> Vec<Duration> {
    (0..ROUNDS)
        .map(|i| {
            let t = Instant::now();
            f(i);
            t.elapsed()
        })
        .collect()
}

fn run(label: &str, j: &Journal) {
    let record = |i: u32| TxRecord {
        tx_hash: Felt::from(i + 1),
        adventurer_id: Some(u64::from(i % 7).into()),
        action: "explore".into(),
        nonce: format!("{i:#x}"),
        signed_at: 0,
        max_fee: "1000000000000000".into(),
        last_status: loot_survivor_mcp::chain::TxStatus::Signed,
        from_another_chain: false,
    };
    report(
        &format!("{label}: record a tx before sending"),
        time(|i| j.record_tx(&record(i), now_ms()).unwrap()),
    );
    report(
        &format!("{label}: record, then its sync done"),
        time(|i| {
            j.record_tx(&record(ROUNDS + i), now_ms()).unwrap();
            j.tx_count();
        }),
    );
    report(
        &format!("{label}: status change"),
        time(|i| {
            j.set_status(
                Felt::from(i + 1),
                loot_survivor_mcp::chain::TxStatus::AcceptedOnL2,
            )
        }),
    );
    report(
        &format!("{label}: status change, landed"),
        time(|i| {
            j.set_status(
                Felt::from(i + 1),
                loot_survivor_mcp::chain::TxStatus::AcceptedOnL1,
            );
            j.tx_count();
        }),
    );
    report(
        &format!("{label}: spending record"),
        time(|i| j.record(Felt::from(i + 1), 1_000_000, SystemTime::now())),
    );
    report(
        &format!("{label}: policy usage ({ROUNDS} txs today)"),
        time(|_| {
            j.usage(SystemTime::now());
        }),
    );
    report(
        &format!("{label}: replay store"),
        time(|i| j.put_replay(1.into(), i as u16, "Explore", "{\"ok\":true}")),
    );
    report(
        &format!("{label}: replay lookup"),
        time(|i| {
            j.replay(1.into(), i as u16, "Explore");
        }),
    );
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let disk = Journal::open(dir.path(), Felt::from(0xacc_u32)).unwrap();
    run("disk", &disk);
    run("memory", &Journal::in_memory());
}
