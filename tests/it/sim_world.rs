//! The embedded chain as a complete world: hidden randomness per game (and the deterministic
//! dungeon by setting), the world saved across server processes in the data directory (`LS_HOME`
//! points at a temporary folder), `--fresh`, parallel processes on one state file, and the
//! indexer tools answered from the sim's own games. Driven by an rmcp client over the real binary
//! (stdio) or in process.

use crate::common;

use std::ops::Deref;
use std::path::Path;

use common::BIN;
use common::mcp::{agent_error, call, err, full, ok, sim_server};
use loot_survivor_mcp::agent::Agent;
use loot_survivor_mcp::mcp::LsServer;
use loot_survivor_mcp::sim::sim_account;
use rmcp::service::{RoleClient, RunningService};
use serde_json::{Value, json};

/// A server process on the sim profile with its data directory at `home`; the tests ask it for
/// the full result shape (`full`).
struct Server(RunningService<RoleClient, ()>);

impl Deref for Server {
    type Target = RunningService<RoleClient, ()>;

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl Server {
    async fn start(home: &Path, args: &[&str], env: &[(&str, &str)]) -> Self {
        Self(sim_server(BIN, home, args, env).await.0)
    }

    async fn stop(self) {
        self.0.cancel().await.expect("stop");
    }
}

/// The same choices on a new game: start, attack the starter beast, all points to vitality,
/// explore; returns every result's events and the final adventurer.
async fn same_choices(s: &Server) -> Value {
    let start = ok(s, "ls_new_game", full(json!({"weapon": 46}))).await;
    let id = start["adventurer_id"].clone();
    let mut trace = vec![start["events"].clone()];
    let hit = ok(s, "ls_attack", full(json!({"adventurer_id": id}))).await;
    trace.push(hit["events"].clone());
    let up = ok(
        s,
        "ls_upgrade",
        full(json!({"adventurer_id": id, "vitality": 1})),
    )
    .await;
    trace.push(up["events"].clone());
    for _ in 0..3 {
        let r = call(s, "ls_explore", full(json!({"adventurer_id": id}))).await;
        if r.is_error {
            break;
        }
        trace.push(r.json["events"].clone());
    }
    json!({"id": id, "trace": trace})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hidden_seeds_differ_per_fresh_world_and_the_deterministic_dungeon_repeats() {
    let mut runs = Vec::new();
    for env in [
        &[][..],
        &[][..],
        &[("LS_SIM__DETERMINISTIC", "true")][..],
        &[("LS_SIM__DETERMINISTIC", "true")][..],
    ] {
        let home = tempfile::tempdir().unwrap();
        let s = Server::start(home.path(), &[], env).await;
        runs.push(same_choices(&s).await);
        if env.is_empty() {
            let preview = call(&s, "ls_battle_preview", json!({"adventurer_id": 1})).await;
            if !preview.is_error {
                let p = preview.json;
                assert_eq!(p["exactness"], "odds", "{p}");
                assert!(p["exact"].is_null());
            }
        }
        s.stop().await;
    }
    assert_eq!(runs[0]["id"], runs[1]["id"], "the same adventurer id");
    assert_ne!(runs[0]["trace"], runs[1]["trace"], "two hidden seeds");
    assert_eq!(
        runs[2]["trace"], runs[3]["trace"],
        "sim.deterministic replays"
    );
    assert_ne!(runs[0]["trace"], runs[2]["trace"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_world_survives_a_restart_and_fresh_starts_over() {
    let home = tempfile::tempdir().unwrap();
    let s = Server::start(home.path(), &[], &[]).await;
    let id = ok(&s, "ls_new_game", full(json!({"weapon": "club"}))).await["adventurer_id"].clone();
    ok(&s, "ls_attack", full(json!({"adventurer_id": id}))).await;
    let before = ok(&s, "ls_get_adventurer", full(json!({"adventurer_id": id}))).await;
    s.stop().await;
    assert!(home.path().join("sim").join("world.sqlite3").is_file());

    let s = Server::start(home.path(), &["serve"], &[]).await;
    let after = ok(&s, "ls_get_adventurer", full(json!({"adventurer_id": id}))).await;
    assert_eq!(after["adventurer"], before["adventurer"]);
    assert_eq!(after["adventurer"]["level"], 2);
    let r = ok(
        &s,
        "ls_upgrade",
        full(json!({"adventurer_id": id, "strength": 1})),
    )
    .await;
    assert_eq!(r["adventurer"]["stat_upgrades_available"], 0);
    let next = ok(&s, "ls_new_game", full(json!({"weapon": "wand"}))).await;
    assert_eq!(next["adventurer_id"], id.as_u64().unwrap() + 1);
    s.stop().await;

    let s = Server::start(home.path(), &["serve", "--fresh"], &[]).await;
    err(
        &s,
        "ls_get_adventurer",
        full(json!({"adventurer_id": id})),
        "NOT_FOUND",
    )
    .await;
    let first = ok(&s, "ls_new_game", full(json!({"weapon": "wand"}))).await;
    assert_eq!(first["adventurer_id"], 1, "ids start over");
    s.stop().await;

    // persist = false never touches the saved world.
    let s = Server::start(home.path(), &[], &[("LS_SIM__PERSIST", "false")]).await;
    err(
        &s,
        "ls_get_adventurer",
        full(json!({"adventurer_id": 1})),
        "NOT_FOUND",
    )
    .await;
    s.stop().await;
    let s = Server::start(home.path(), &[], &[]).await;
    ok(&s, "ls_get_adventurer", full(json!({"adventurer_id": 1}))).await;
    s.stop().await;
}

/// Six new games, each attacking its starter beast; returns their ids.
async fn six_games(s: &Server) -> Vec<u64> {
    let mut ids = Vec::new();
    for _ in 0..6 {
        let r = ok(s, "ls_new_game", full(json!({"weapon": "wand"}))).await;
        let id = r["adventurer_id"].as_u64().unwrap();
        ok(s, "ls_attack", full(json!({"adventurer_id": id}))).await;
        ids.push(id);
    }
    ids
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parallel_processes_share_one_world_without_losing_an_action() {
    let home = tempfile::tempdir().unwrap();
    let a = Server::start(home.path(), &[], &[]).await;
    let b = Server::start(home.path(), &[], &[]).await;
    let (x, y) = tokio::join!(six_games(&a), six_games(&b));
    let mut ids: Vec<u64> = x.into_iter().chain(y).collect();
    ids.sort_unstable();
    assert_eq!(ids, (1..=12).collect::<Vec<_>>(), "every mint landed once");
    for s in [&a, &b] {
        let list = ok(s, "ls_list_adventurers", json!({"limit": 200})).await;
        assert_eq!(list["total"], 12);
        for g in list["adventurers"].as_array().unwrap() {
            assert_eq!(g["level"], 2, "each process sees the other's attacks: {g}");
        }
    }
    a.stop().await;
    b.stop().await;
}

async fn in_process() -> Agent {
    let server = LsServer::practice(false).with_wallet(sim_account());
    Agent::connect(server).await.expect("connect")
}

#[tokio::test]
async fn leaderboard_list_and_events_answer_from_the_sim() {
    let a = in_process().await;
    for weapon in ["wand", "club", "book"] {
        a.call("ls_new_game", json!({"weapon": weapon}))
            .await
            .unwrap();
    }
    // Games 2 and 3 kill the starter beast; game 3 also explores.
    a.call("ls_attack", json!({"adventurer_id": 2}))
        .await
        .unwrap();
    a.call("ls_attack", json!({"adventurer_id": 3}))
        .await
        .unwrap();
    a.call("ls_upgrade", json!({"adventurer_id": 3, "vitality": 1}))
        .await
        .unwrap();
    a.call("ls_explore", json!({"adventurer_id": 3}))
        .await
        .unwrap();

    let lb = a.call("ls_get_leaderboard", json!({})).await.unwrap();
    assert_eq!(lb["indexer"]["source"], "sim");
    assert_eq!(lb["total"], 3);
    let rows = lb["rows"].as_array().unwrap();
    let scores: Vec<u64> = rows.iter().map(|r| r["score"].as_u64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    assert_eq!(rows[0]["rank"], 1);
    assert_eq!(rows[2]["adventurer_id"], 1, "game 1 never scored");
    let page = a
        .call("ls_get_leaderboard", json!({"limit": 2}))
        .await
        .unwrap();
    assert_eq!(page["rows"].as_array().unwrap().len(), 2);
    let rest = a
        .call(
            "ls_get_leaderboard",
            json!({"cursor": page["next_cursor"].as_str().unwrap()}),
        )
        .await
        .unwrap();
    assert_eq!(rest["rows"][0]["rank"], 3);
    assert!(rest["next_cursor"].is_null());

    let list = a
        .call("ls_list_adventurers", json!({"limit": 2}))
        .await
        .unwrap();
    let ids: Vec<u64> = list["adventurers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["adventurer_id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, [3, 2], "newest first");
    assert_eq!(list["total"], 3);
    let older = a
        .call(
            "ls_list_adventurers",
            json!({"cursor": list["next_cursor"].as_str().unwrap()}),
        )
        .await
        .unwrap();
    assert_eq!(older["adventurers"][0]["adventurer_id"], 1);
    assert_eq!(older["adventurers"][0]["phase"], "in_battle");
    let none = a
        .call("ls_list_adventurers", json!({"owner": "0x1234"}))
        .await
        .unwrap();
    assert_eq!(none["total"], 0);

    let all = a
        .call(
            "ls_get_game_events",
            json!({"adventurer_id": 3, "limit": 200}),
        )
        .await
        .unwrap();
    let events = all["events"].as_array().unwrap();
    assert_eq!(all["total"].as_u64().unwrap() as usize, events.len());
    let counts: Vec<u64> = events
        .iter()
        .map(|e| e["action_count"].as_u64().unwrap())
        .collect();
    assert!(
        counts.windows(2).all(|w| w[0] <= w[1]),
        "chain order {counts:?}"
    );
    assert_eq!(events[0]["details"]["type"], "beast");
    // Paging by 1 walks the same events.
    let mut paged = Vec::new();
    let mut cursor = Value::Null;
    loop {
        let mut args = json!({"adventurer_id": 3, "limit": 1});
        if let Some(c) = cursor.as_str() {
            args["cursor"] = json!(c);
        }
        let p = a.call("ls_get_game_events", args).await.unwrap();
        paged.extend(p["events"].as_array().unwrap().iter().cloned());
        cursor = p["next_cursor"].clone();
        if cursor.is_null() {
            break;
        }
    }
    assert_eq!(&paged, events);
}

#[tokio::test]
async fn a_missing_game_is_not_found_for_every_tool() {
    let a = in_process().await;
    let id = 77;
    let calls = [
        ("ls_get_adventurer", json!({"adventurer_id": id})),
        ("ls_battle_preview", json!({"adventurer_id": id})),
        ("ls_get_game_events", json!({"adventurer_id": id})),
        (
            "ls_new_game",
            json!({"adventurer_id": id, "weapon": "wand"}),
        ),
        ("ls_explore", json!({"adventurer_id": id})),
        ("ls_attack", json!({"adventurer_id": id})),
        ("ls_flee", json!({"adventurer_id": id})),
        ("ls_upgrade", json!({"adventurer_id": id, "strength": 1})),
        ("ls_buy_item", json!({"adventurer_id": id, "potions": 1})),
        ("ls_equip", json!({"adventurer_id": id, "items": ["wand"]})),
        ("ls_drop", json!({"adventurer_id": id, "items": ["wand"]})),
    ];
    for (tool, args) in calls {
        let e = agent_error(a.call(tool, args).await.unwrap_err());
        assert_eq!(e["error"]["code"], "NOT_FOUND", "{tool}: {e}");
        assert_eq!(e["error"]["details"]["adventurer_id"], id, "{tool}");
    }
}
