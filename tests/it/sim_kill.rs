//! The saved sim world across a `kill -9`: the real binary plays a stream of writes (new games,
//! attacks, explores, upgrades) on the sim profile, is killed with SIGKILL while a write is in
//! flight, and a new server on the same data directory must hold every write that was answered:
//! each adventurer's state as its last answer reported it (the one write in flight may have
//! landed too), and an event for each answered action in its history.

use crate::common;

use std::collections::BTreeMap;
use std::time::Duration;

use common::BIN;
use common::mcp::{full, ok, sim_server, try_call};
use rmcp::service::{RoleClient, RunningService};
use serde_json::{Value, json};

/// Answered writes before the kill.
const ANSWERED: usize = 40;

/// The fields of an adventurer a write changes.
fn key(adventurer: &Value) -> Value {
    json!({
        "xp": adventurer["xp"],
        "health": adventurer["health"],
        "gold": adventurer["gold"],
        "action_count": adventurer["action_count"],
        "stat_upgrades_available": adventurer["stat_upgrades_available"],
    })
}

/// Plays writes until the server stops answering; sends each answered write's adventurer id,
/// its adventurer and the action counts of its events.
async fn stream(
    s: RunningService<RoleClient, ()>,
    answers: tokio::sync::mpsc::UnboundedSender<(u64, Value)>,
) {
    loop {
        let Ok(r) = try_call(&s, "ls_new_game", full(json!({"weapon": "wand"}))).await else {
            return;
        };
        let game = r.into_ok();
        let id = game["adventurer_id"].as_u64().expect("an id");
        if answers.send((id, game["adventurer"].clone())).is_err() {
            return;
        }
        let mut adventurer = game["adventurer"].clone();
        for _ in 0..12 {
            let (tool, args) = if adventurer["health"] == 0 {
                break;
            } else if adventurer["stat_upgrades_available"].as_u64() > Some(0) {
                (
                    "ls_upgrade",
                    json!({"adventurer_id": id, "vitality": adventurer["stat_upgrades_available"]}),
                )
            } else if adventurer["beast_health"].as_u64() > Some(0) {
                ("ls_attack", json!({"adventurer_id": id}))
            } else {
                ("ls_explore", json!({"adventurer_id": id}))
            };
            let Ok(r) = try_call(&s, tool, full(args)).await else {
                return;
            };
            if r.is_error {
                break;
            }
            adventurer = r.json["adventurer"].clone();
            if answers.send((id, adventurer.clone())).is_err() {
                return;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answered_write_survives_a_kill_9() {
    let home = tempfile::tempdir().unwrap();
    let (server, pid) = sim_server(BIN, home.path(), &[], &[]).await;
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let writer = tokio::spawn(stream(server, tx));
    let mut answered: Vec<(u64, Value)> = Vec::new();
    while answered.len() < ANSWERED {
        answered.push(rx.recv().await.expect("the stream answers"));
    }
    // The stream sends its next write as soon as one is answered: one is in flight now.
    // SAFETY: `kill` only sends a signal to the process this test started.
    assert_eq!(
        unsafe { libc::kill(pid as i32, libc::SIGKILL) },
        0,
        "kill -9"
    );
    tokio::time::timeout(Duration::from_secs(20), writer)
        .await
        .expect("the stream ends with the server")
        .expect("the stream task");
    while let Ok(a) = rx.try_recv() {
        answered.push(a);
    }

    let mut last: BTreeMap<u64, Value> = BTreeMap::new();
    for (id, adventurer) in &answered {
        last.insert(*id, adventurer.clone());
    }
    let in_flight = answered.last().expect("answers").0;
    let (s, _) = sim_server(BIN, home.path(), &[], &[]).await;
    for (id, answer) in &last {
        let now = ok(&s, "ls_get_adventurer", full(json!({"adventurer_id": id}))).await;
        let now = &now["adventurer"];
        if key(now) == key(answer) {
            continue;
        }
        // Only the adventurer of the write in flight may have moved on, by that one write.
        assert_eq!(
            *id,
            in_flight,
            "adventurer {id}: {} vs answered {}",
            key(now),
            key(answer)
        );
        assert_eq!(
            now["action_count"].as_u64().unwrap(),
            answer["action_count"].as_u64().unwrap() + 1,
            "adventurer {id}: {} vs answered {}",
            key(now),
            key(answer)
        );
    }
    // Each answered action is in its adventurer's history.
    for (id, answer) in &last {
        let events = ok(
            &s,
            "ls_get_game_events",
            json!({"adventurer_id": id, "limit": 500}),
        )
        .await;
        let counts: Vec<u64> = events["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["action_count"].as_u64().unwrap())
            .collect();
        let answered_counts = answered
            .iter()
            .filter(|(i, _)| i == id)
            .filter_map(|(_, a)| a["action_count"].as_u64())
            .filter(|&c| c > 0);
        for c in answered_counts {
            assert!(
                counts.contains(&c),
                "adventurer {id}: action {c} in {counts:?} ({answer})"
            );
        }
    }
    // The world plays on: a new game gets the next id.
    let newest = *last.keys().max().unwrap();
    let next = ok(&s, "ls_new_game", full(json!({"weapon": "club"}))).await;
    assert!(next["adventurer_id"].as_u64().unwrap() > newest);
    s.cancel().await.unwrap();
}
