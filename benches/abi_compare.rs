//! The ABI check's comparison of one class with the bindings, for the practice GameCore (honest)
//! and for a hostile class (an argument whose struct nests four members of the next forty deep,
//! beside a struct that contains itself): the median time per comparison over every entrypoint
//! the bindings call, and the process's peak resident memory after each. Before shapes were
//! built once per type and capped, the hostile class grew without bound (887 MB after 15 s).
//! The hostile edits are the devnet test's (tests/it/common/hostile_abi.rs). A benchmark, not a
//! test: `cargo bench --bench abi_compare`.

use std::time::{Duration, Instant};

use loot_survivor_mcp::check::abi::{Abi, compare};
use serde_json::Value;

#[path = "../tests/it/common/hostile_abi.rs"]
mod hostile_abi;

const ROUNDS: usize = 20;

/// The process's peak resident memory so far (`VmHWM`), in MiB.
fn peak_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

fn main() {
    let practice = hostile_abi::practice_game_abi();
    let mut hostile = practice.clone();
    hostile_abi::explode_and_loop(&mut hostile);
    let ours = Abi::parse(&Value::Array(practice.clone())).unwrap();
    let names: Vec<&str> = loot_survivor_mcp::chain::bindings::v2::ENTRYPOINTS
        .iter()
        .filter(|e| e.tag_suffix == "game")
        .map(|e| e.name)
        .collect();
    println!(
        "{:<10} {:>14} {:>12} {:>16}",
        "class", "median", "differ", "peak RSS after"
    );
    for (label, deployed) in [("honest", practice), ("hostile", hostile)] {
        let deployed = Abi::parse(&Value::Array(deployed)).unwrap();
        let mut samples: Vec<Duration> = Vec::new();
        let mut differ = 0;
        for _ in 0..ROUNDS {
            let t = Instant::now();
            differ = names
                .iter()
                .filter(|n| compare(&ours, &deployed, n, true).is_some())
                .count();
            samples.push(t.elapsed());
        }
        samples.sort();
        println!(
            "{label:<10} {:>11.1} µs {:>9}/{:<2} {:>12.1} MiB",
            samples[ROUNDS / 2].as_secs_f64() * 1e6,
            differ,
            names.len(),
            peak_mib()
        );
    }
}
