//! The ABI check's comparison of one class with the bindings, for the practice GameCore (honest)
//! and for a hostile class (an argument whose struct nests four members of the next forty deep,
//! beside a struct that contains itself): the median time per comparison over every entrypoint
//! the bindings call, and the process's peak resident memory after each. Before shapes were
//! built once per type and capped, the hostile class grew without bound (887 MB after 15 s).
//! A benchmark, not a test: `cargo bench --bench abi_compare`.

use std::time::{Duration, Instant};

use loot_survivor_mcp::check::abi::{Abi, compare};
use serde_json::{Value, json};

const ROUNDS: usize = 20;

/// The practice GameCore's ABI, from the committed practice world.
fn practice() -> Value {
    let file: Value = serde_json::from_str(include_str!("../abi/practice_v2.json")).unwrap();
    file["contracts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["tag"] == "practice_v2-game")
        .unwrap()["abi"]
        .clone()
}

/// `abi` with `attack` taking the exploding struct and `flee` the one that contains itself.
fn hostile(mut abi: Value) -> Value {
    fn retype(v: &mut Value, name: &str, ty: &str) {
        match v {
            Value::Array(items) => items.iter_mut().for_each(|i| retype(i, name, ty)),
            Value::Object(o)
                if o.get("name") == Some(&Value::from(name)) && o.contains_key("inputs") =>
            {
                o["inputs"][1]["type"] = Value::from(ty);
            }
            Value::Object(o) => o.values_mut().for_each(|i| retype(i, name, ty)),
            _ => {}
        }
    }
    retype(&mut abi, "attack", "t::S0");
    retype(&mut abi, "flee", "t::Loop");
    let entries = abi.as_array_mut().unwrap();
    for i in 0..40 {
        let next = if i == 39 {
            "core::felt252".to_string()
        } else {
            format!("t::S{}", i + 1)
        };
        let members: Vec<Value> = (0..4)
            .map(|m| json!({"name": format!("m{m}"), "type": next}))
            .collect();
        entries.push(json!({"type": "struct", "name": format!("t::S{i}"), "members": members}));
    }
    entries.push(json!({"type": "struct", "name": "t::Loop", "members": [
        {"name": "again", "type": "t::Loop"}, {"name": "more", "type": "t::Loop"}]}));
    abi
}

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
    let ours = Abi::parse(&practice()).unwrap();
    let names: Vec<&str> = loot_survivor_mcp::chain::bindings::v2::ENTRYPOINTS
        .iter()
        .filter(|e| e.tag_suffix == "game")
        .map(|e| e.name)
        .collect();
    println!(
        "{:<10} {:>14} {:>12} {:>16}",
        "class", "median", "differ", "peak RSS after"
    );
    for (label, deployed) in [("honest", practice()), ("hostile", hostile(practice()))] {
        let deployed = Abi::parse(&deployed).unwrap();
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
