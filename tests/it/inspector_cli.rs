//! A whole game through the MCP Inspector CLI (npm `@modelcontextprotocol/inspector`, installed
//! by `scripts/setup-node-client.sh`), one process per call, as a one-shot client uses the server:
//! every call starts our binary on `sim`, and the game carries over through the state file in
//! `LS_HOME` (a temporary folder). Simple rules: attack to the death, spend points on vitality,
//! explore until a beast; stops at death or after `MAX_ACTIONS`.
//!
//! The Inspector CLI parses each `--tool-arg k=v` value as JSON first (so `adventurer_id=3` is the
//! number 3 and `to_the_death=true` the boolean), falling back to a string ("wand"), so our
//! tools receive typed arguments and need no string coercion; `numbers_and_booleans_arrive_typed`
//! checks that.
//!
//! Skipped, with a message, when node is not on PATH.

use crate::common;
use crate::inspector_support;

use std::path::Path;
use std::process::Command;

use common::BIN;
use common::mcp::{Outcome, parse_json_result};
use inspector_support::inspector;
use loot_survivor_mcp::mcp::DETAIL_TOOLS;
use serde_json::Value;
/// The sim's master seed, pinned so the dungeon (hidden from the agent) is the same on every run.
/// With the OS's seeds the simple rules below sometimes die in the second fight (seed 2026 does,
/// with 120 health at level 2), so the progress check would depend on luck; seed 1 gets past it.
const SIM_SEED: &str = "LS_SIM__SEED=1";
/// Game actions played at most (each is one Inspector process, a few seconds each).
const MAX_ACTIONS: usize = 14;

/// One `tools/call` in its own Inspector process (which starts its own server); its result as
/// the agent sees it.
fn call(launcher: &Path, home: &Path, tool: &str, args: &[(&str, &str)]) -> Outcome {
    let mut cmd = Command::new("node");
    cmd.arg(launcher)
        .args(["--cli", BIN, "-e"])
        .arg(format!("LS_HOME={}", home.display()))
        .args([
            "-e",
            "RUST_LOG=warn",
            "-e",
            SIM_SEED,
            "--method",
            "tools/call",
            "--tool-name",
            tool,
        ])
        .env("LS_HOME", home)
        .env_remove("LS_CHAIN");
    // Full results (the compact default may leave fields out), from the tools that have them:
    // the server refuses keys a tool does not define.
    let detail: &[(&str, &str)] = if DETAIL_TOOLS.contains(&tool) {
        &[("detail", "full")]
    } else {
        &[]
    };
    for (k, v) in args.iter().chain(detail) {
        cmd.arg("--tool-arg").arg(format!("{k}={v}"));
    }
    let out = cmd.output().expect("run the Inspector CLI");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{tool}: inspector failed: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let result: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{tool}: not JSON ({e}): {stdout}"));
    parse_json_result(format!("{tool} {args:?}"), &result)
}

fn ok(launcher: &Path, home: &Path, tool: &str, args: &[(&str, &str)]) -> Value {
    call(launcher, home, tool, args).into_ok()
}

#[test]
fn a_whole_game_one_process_per_call() {
    let Some(launcher) = inspector() else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let started = ok(&launcher, h, "ls_new_game", &[("weapon", "wand")]);
    let id = started["adventurer_id"].as_u64().expect("adventurer id");
    let id_arg = id.to_string();
    assert!(
        h.join("sim").join("world.sqlite3").is_file(),
        "the world is saved"
    );
    let mut adv = started["adventurer"].clone();
    let mut actions = 1;
    let mut xp_seen = vec![0u64];
    while actions < MAX_ACTIONS {
        let phase = adv["phase"].as_str().expect("phase").to_string();
        let points = adv["stat_upgrades_available"]
            .as_u64()
            .unwrap_or(0)
            .to_string();
        let (tool, extra): (&str, Vec<(&str, &str)>) = match phase.as_str() {
            "dead" => break,
            "in_battle" => ("ls_attack", vec![("to_the_death", "true")]),
            "stat_upgrade" => ("ls_upgrade", vec![("vitality", points.as_str())]),
            "exploring" => ("ls_explore", vec![("till_beast", "true")]),
            other => panic!("unexpected phase {other}"),
        };
        let mut args = vec![("adventurer_id", id_arg.as_str())];
        args.extend(extra);
        let before = adv["action_count"].as_u64().unwrap();
        let r = ok(&launcher, h, tool, &args);
        adv = r["adventurer"].clone();
        assert_eq!(
            adv["action_count"].as_u64().unwrap(),
            before + 1,
            "{tool} continued the saved game"
        );
        xp_seen.push(adv["xp"].as_u64().unwrap());
        actions += 1;
    }
    assert!(
        xp_seen.windows(2).all(|w| w[0] <= w[1]) && xp_seen.last() > Some(&4),
        "the adventurer made progress: xp {xp_seen:?}"
    );
    // A fresh process reads the same game, and the sim answers the indexer tools from it.
    let read = ok(
        &launcher,
        h,
        "ls_get_adventurer",
        &[("adventurer_id", &id_arg)],
    );
    assert_eq!(read["adventurer"]["action_count"], adv["action_count"]);
    assert_eq!(read["adventurer"]["xp"], adv["xp"]);
    let events = ok(
        &launcher,
        h,
        "ls_get_game_events",
        &[("adventurer_id", &id_arg), ("limit", "200")],
    );
    assert!(
        events["total"].as_u64().unwrap() >= actions as u64,
        "{events}"
    );
    let lb = ok(&launcher, h, "ls_get_leaderboard", &[]);
    assert_eq!(lb["rows"][0]["adventurer_id"], id);
    assert_eq!(lb["rows"][0]["score"], adv["xp"]);
}

#[test]
fn numbers_and_booleans_arrive_typed() {
    let Some(launcher) = inspector() else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    ok(&launcher, h, "ls_new_game", &[("weapon", "12")]);
    // `true` and `1` reach the tool as a boolean and a number.
    let r = ok(
        &launcher,
        h,
        "ls_attack",
        &[("adventurer_id", "1"), ("to_the_death", "true")],
    );
    assert_eq!(r["adventurer"]["level"], 2);
    call(&launcher, h, "ls_explore", &[("adventurer_id", "2")]).into_err("NOT_FOUND");
}
