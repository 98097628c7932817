//! Compact results (the default) and the full shape on request, through a real rmcp client on the
//! embedded sim chain: what a compact result carries in each phase (no constant fields, no made-up
//! hashes on sim, the planner's advice), the market shown once per market with owned items left
//! out and downgrades summarized, unchanged stats and equipment left out, `detail: "full"`
//! unchanged, and the slim tool list.

use crate::common;

use common::BIN;
use common::mcp::ok;
use loot_survivor_mcp::mcp::Detail;
use loot_survivor_mcp::mcp::{LsServer, connect_in_memory};
use rmcp::service::{RoleClient, RunningService};
use serde_json::{Value, json};

type Client = RunningService<RoleClient, ()>;

/// The strict practice server, with `detail` as its default when given.
fn server(detail: Option<Detail>) -> LsServer {
    let s = LsServer::practice(true);
    match detail {
        Some(d) => s.with_detail(d),
        None => s,
    }
}

async fn connect(server: LsServer) -> Client {
    connect_in_memory(server, ()).await.expect("initialize")
}

fn keys(v: &Value) -> Vec<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

/// Plays until the market is open (attack the starter, spend the points on vitality).
async fn to_open_market(c: &Client) -> (u64, Vec<Value>) {
    let mut results = vec![ok(c, "ls_new_game", json!({"weapon": "Wand"})).await];
    let id = results[0]["adventurer_id"].as_u64().unwrap();
    results.push(ok(c, "ls_attack", json!({"adventurer_id": id})).await);
    let points = results[1]["state"]["stat_points"].as_u64().unwrap();
    results.push(
        ok(
            c,
            "ls_upgrade",
            json!({"adventurer_id": id, "vitality": points}),
        )
        .await,
    );
    (id, results)
}

#[tokio::test]
async fn compact_results_carry_phase_state_odds_and_the_market_once() {
    let c = connect(server(None)).await;
    let (id, r) = to_open_market(&c).await;

    let started = &r[0];
    assert!(started.get("adventurer").is_none(), "compact by default");
    assert_eq!(
        keys(started),
        ["actions", "adventurer_id", "advice", "events", "state"],
        "no constant fields and no made-up hashes on sim: {started}"
    );
    assert!(
        started["advice"]
            .as_str()
            .unwrap()
            .starts_with("ls_attack {"),
        "the fight as one move: {started}"
    );
    assert!(started["state"]["stats"].is_string() && started["state"]["equipment"].is_array());
    assert_eq!(started["state"]["phase"], "in_battle");
    assert_eq!(started["state"]["health"], 90);
    let beast = &started["state"]["beast"];
    assert!(beast["name"].as_str().is_some_and(|n| !n.is_empty()));
    assert!(beast["level"].as_u64().is_some() && beast["health"].as_u64().unwrap() > 0);
    assert_eq!(keys(beast).len(), 3, "name, level, health only: {beast}");
    assert!(
        started["events"][0]
            .as_str()
            .unwrap()
            .starts_with("beast: ")
    );
    assert!(
        started["actions"][0]
            .as_str()
            .unwrap()
            .starts_with("ls_attack: ")
    );
    assert!(started.get("market").is_none(), "no market in battle");

    let hit = &r[1];
    assert!(
        hit.get("adventurer_id").is_none(),
        "only ls_new_game names it"
    );
    assert!(
        hit["state"]["stats"].is_string(),
        "the level-up placed stat points: {hit}"
    );
    assert!(
        hit["advice"].as_str().unwrap().starts_with("ls_upgrade {"),
        "{hit}"
    );
    assert_eq!(hit["state"]["phase"], "stat_upgrade");
    assert_eq!(hit["state"]["level"], 2);
    assert!(hit["state"].get("beast").is_none());
    let hit_events: Vec<&str> = hit["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        hit_events.iter().any(|e| e.starts_with("defeated ")),
        "{hit_events:?}"
    );
    assert!(
        hit["actions"][0]
            .as_str()
            .unwrap()
            .starts_with("ls_upgrade: spend exactly")
    );

    // The level-up shows the market: its purchases go with the points.
    let market = &hit["market"];
    let items = market["items"]
        .as_array()
        .expect("the market, shown the first time");
    let up = &r[2];
    assert_eq!(up["state"]["phase"], "exploring");
    assert!(up.get("market").is_none(), "shown once: {up}");
    assert!(up["state"]["stats"].is_string(), "changed stats are shown");
    let downgrades = market["downgrades"].as_str().map_or(0, |d| {
        let (count, ids) = d.split_once(" downgrades: ").expect("N downgrades: ids");
        assert_eq!(ids.split(", ").count().to_string(), count, "{d}");
        count.parse().unwrap()
    });
    assert!(
        items
            .iter()
            .all(|l| !l.as_str().unwrap().contains("DOWNGRADE")),
        "{items:?}"
    );
    let full = ok(
        &c,
        "ls_get_adventurer",
        json!({"adventurer_id": id, "detail": "full"}),
    )
    .await;
    let full_market = full["adventurer"]["market"].as_array().unwrap();
    let not_owned = full_market.iter().filter(|m| m["owned"] == false).count();
    let more = market["more"].as_str().map_or(0, |m| {
        let (count, ids) = m.split_once(" more: ").expect("N more: ids");
        assert_eq!(ids.split(", ").count().to_string(), count, "{m}");
        count.parse().unwrap()
    });
    assert!(
        items.len() <= 5,
        "at most 5 lines in a write's result: {market}"
    );
    assert_eq!(
        items.len() + more + downgrades,
        not_owned,
        "owned items left out, the rest and the downgrades by id: {market}"
    );
    for m in full_market.iter().filter(|m| m["owned"] == true) {
        let prefix = format!("{} ", m["id"]);
        assert!(
            !items
                .iter()
                .any(|l| l.as_str().unwrap().starts_with(&prefix)),
            "{m}"
        );
    }

    let bought = ok(
        &c,
        "ls_buy_item",
        json!({"adventurer_id": id, "potions": 1}),
    )
    .await;
    assert!(
        bought.get("market").is_none(),
        "the same market is not shown twice: {bought}"
    );
    assert!(bought["events"][0].as_str().unwrap().starts_with("bought "));
    for same in ["stats", "equipment"] {
        assert!(
            bought["state"].get(same).is_none(),
            "unchanged {same} is left out: {bought}"
        );
    }

    let read = ok(&c, "ls_get_adventurer", json!({"adventurer_id": id})).await;
    assert!(read.get("adventurer").is_none());
    let all = read["market"]["items"].as_array().unwrap();
    assert_eq!(
        all[..items.len()],
        items[..],
        "the read shows the market again, every item: {read}"
    );
    assert_eq!(all.len(), items.len() + more);
    assert_eq!(read["state"]["phase"], "exploring");

    let other = connect(server(None)).await;
    let (_, r2) = to_open_market(&other).await;
    assert!(
        r2[1]["market"]["items"].is_array(),
        "another server, another memory"
    );
    c.cancel().await.unwrap();
    other.cancel().await.unwrap();
}

#[tokio::test]
async fn a_new_market_after_a_level_up_is_shown_again() {
    let c = connect(server(None)).await;
    let (id, r) = to_open_market(&c).await;
    let first = r[1]["market"]["items"].clone();
    assert!(first.is_array());
    for _ in 0..200 {
        let out = ok(
            &c,
            "ls_get_adventurer",
            json!({"adventurer_id": id, "detail": "full"}),
        )
        .await;
        let adv = &out["adventurer"];
        let (tool, args) = match adv["phase"].as_str().unwrap() {
            "in_battle" => (
                "ls_attack",
                json!({"adventurer_id": id, "to_the_death": true}),
            ),
            "stat_upgrade" => (
                "ls_upgrade",
                json!({"adventurer_id": id, "vitality": adv["stat_upgrades_available"]}),
            ),
            "exploring" => ("ls_explore", json!({"adventurer_id": id})),
            _ => break,
        };
        let res = ok(&c, tool, args).await;
        if tool != "ls_upgrade" && res["state"]["phase"] == "stat_upgrade" {
            let items = &res["market"]["items"];
            assert!(items.is_array(), "a new level's market is shown: {res}");
            assert_ne!(items, &first, "a new market");
            c.cancel().await.unwrap();
            return;
        }
    }
    panic!("no second level-up with an open market in 200 moves");
}

#[tokio::test]
async fn detail_full_is_the_whole_shape_and_equals_a_fresh_read() {
    let c = connect(server(None)).await;
    let started = ok(
        &c,
        "ls_new_game",
        json!({"weapon": "Club", "detail": "full"}),
    )
    .await;
    assert_eq!(
        keys(&started),
        [
            "adventurer",
            "adventurer_id",
            "block_number",
            "chain",
            "events",
            "fee_paid",
            "mint_tx_hash",
            "ok",
            "replayed",
            "schema_version",
            "status",
            "tx_hash"
        ]
    );
    assert_eq!(started["events"][0]["details"]["type"], "beast");
    let id = started["adventurer_id"].as_u64().unwrap();
    let read = ok(
        &c,
        "ls_get_adventurer",
        json!({"adventurer_id": id, "detail": "full"}),
    )
    .await;
    assert_eq!(keys(&read), ["adventurer", "chain", "ok", "schema_version"]);
    assert_eq!(read["adventurer"], started["adventurer"]);
    assert!(read["adventurer"]["legal_actions"][0]["args_hint"].is_object());

    let full_server = connect(server(Some(Detail::Full))).await;
    let s = ok(&full_server, "ls_new_game", json!({"weapon": "Club"})).await;
    assert_eq!(
        s["adventurer"], started["adventurer"],
        "server.detail = full"
    );
    let compact = ok(
        &full_server,
        "ls_attack",
        json!({"adventurer_id": id, "detail": "compact"}),
    )
    .await;
    assert!(compact["state"].is_object() && compact.get("adventurer").is_none());
    c.cancel().await.unwrap();
    full_server.cancel().await.unwrap();
}

#[tokio::test]
async fn tools_list_is_small_standard_and_titled() {
    let c = connect(server(None)).await;
    let tools = c.list_all_tools().await.unwrap();
    for t in &tools {
        assert!(
            t.title.as_deref().is_some_and(|s| !s.is_empty()),
            "{} has no title",
            t.name
        );
        let input = serde_json::to_string(&t.input_schema).unwrap();
        assert!(!input.contains("\"format\""), "{}: {input}", t.name);
        assert!(!input.contains("\"null\""), "{}: {input}", t.name);
        let output = serde_json::to_string(t.output_schema.as_ref().unwrap()).unwrap();
        assert!(
            !output.contains("\"format\"") && !output.contains("$ref"),
            "{}",
            t.name
        );
    }
    let attack = tools.iter().find(|t| t.name == "ls_attack").unwrap();
    let props = &attack.input_schema["properties"];
    assert_eq!(props["detail"]["enum"], json!(["compact", "full"]));
    // The shared options are typed; their meaning and bounds are in the server instructions.
    assert_eq!(props["expected_action_count"], json!({"type": "integer"}));
    c.cancel().await.unwrap();
}

/// The official Python SDK validates every structuredContent against the tool's outputSchema on
/// its own: play on sim through the binary in both details (tests/python/validate_sim.py).
#[test]
fn python_sdk_validates_compact_and_full_results() {
    let python = loot_survivor_mcp::devnet::cache_dir()
        .join("py-mcp")
        .join("bin")
        .join("python");
    if !python.is_file() {
        eprintln!(
            "skipped: no Python MCP client at {} (run scripts/setup-python-client.sh)",
            python.display()
        );
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/validate_sim.py");
    let out = std::process::Command::new(&python)
        .arg(script)
        .arg(BIN)
        .env("LS_HOME", home.path())
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("run python");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert!(report["validated"].as_u64().unwrap() >= 20, "{report}");
    assert!(report["tools"].as_u64().unwrap() >= 16, "{report}");
    assert_eq!(
        report["with_output_schema"], report["tools"],
        "every tool has an output schema: {report}"
    );
}

#[tokio::test]
async fn advice_follows_the_planner_and_turns_off() {
    let c = connect(server(None)).await;
    let started = ok(&c, "ls_new_game", json!({"weapon": "Book"})).await;
    let id = started["adventurer_id"].as_u64().unwrap();
    let advice = started["advice"].as_str().unwrap();
    let (tool, mut args) =
        loot_survivor_mcp::agent::advice_follower::advised_call(advice).expect("a call");
    args.insert("adventurer_id".into(), id.into());
    let next = ok(&c, &tool, Value::Object(args)).await;
    assert!(next["advice"].is_string(), "{next}");

    let quiet = connect(server(None).with_advice(false)).await;
    let started = ok(&quiet, "ls_new_game", json!({"weapon": "Book"})).await;
    assert!(
        started.get("advice").is_none(),
        "server.advice = false: {started}"
    );
    let read = ok(
        &quiet,
        "ls_get_adventurer",
        json!({"adventurer_id": started["adventurer_id"]}),
    )
    .await;
    assert!(read.get("advice").is_none(), "{read}");
    c.cancel().await.unwrap();
    quiet.cancel().await.unwrap();
}
