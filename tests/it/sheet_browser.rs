//! The adventurer sheet in a real browser: Debian's chromium, driven by PyPI `playwright`
//! (`scripts/install-chromium.sh`; no browser download), runs `tests/python/sheet_browser.py`.
//! A game is played on the practice server; the MCP App card, read through MCP, is given the
//! real tool results the way a host gives them (a full `ls_get_adventurer`; a compact write that
//! the card completes with `resources/read` when the host offers it, and shows alone when not);
//! the server-rendered page reads without JavaScript and its script renders the same markup. The
//! screenshot is kept in the test's output directory and copied to docs/img/adventurer-card.png.
//! Skipped, with a message, when chromium or playwright cannot be installed.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::mcp::practice;
use loot_survivor_mcp::mcp::sheet::{CARD_URI, page_html};
use rmcp::RoleClient;
use rmcp::model::{CallToolRequestParams, ReadResourceRequestParams};
use rmcp::service::Peer;
use serde_json::{Value, json};

/// The venv python with playwright, installing chromium and playwright on demand; `None`, with a
/// message, when that fails.
pub(crate) fn playwright() -> Option<PathBuf> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/install-chromium.sh");
    match Command::new("bash").arg(&script).output() {
        Ok(out) if out.status.success() => Some(PathBuf::from(
            String::from_utf8(out.stdout).unwrap().trim().to_string(),
        )),
        Ok(out) => {
            eprintln!(
                "SKIPPED: chromium or playwright could not be installed (scripts/install-chromium.sh): {}",
                String::from_utf8_lossy(&out.stderr).trim()
            );
            None
        }
        Err(e) => {
            eprintln!("SKIPPED: cannot run scripts/install-chromium.sh: {e}");
            None
        }
    }
}

/// A tool call's raw result (what a host hands the card), as JSON.
async fn raw(c: &Peer<RoleClient>, tool: &str, args: Value) -> Value {
    let Value::Object(map) = args else {
        panic!("{args}")
    };
    let r = c
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(map))
        .await
        .unwrap_or_else(|e| panic!("{tool}: {e}"));
    assert_ne!(r.is_error, Some(true), "{tool}: {r:?}");
    serde_json::to_value(r).unwrap()
}

/// The call a compact result's advice names: `tool {args}: reason` or `tool: reason`.
pub(crate) fn advised(result: &Value) -> (String, Value) {
    let advice = result["structuredContent"]["advice"]
        .as_str()
        .unwrap_or_else(|| panic!("no advice: {result}"));
    let end = advice.find([' ', ':']).unwrap();
    let tool = advice[..end].to_string();
    let args = if advice[end..].starts_with(" {") {
        let mut stream = serde_json::Deserializer::from_str(&advice[end + 1..]).into_iter();
        stream.next().unwrap().unwrap()
    } else {
        json!({})
    };
    (tool, args)
}

/// A game on the practice server, played by the planner's advice until it has fought and shopped
/// and faces a beast at level 3: its id, the last result, the last that opened the market, and
/// every event line.
struct Game {
    id: Value,
    last: Value,
    with_market: Value,
    events: Vec<String>,
}

async fn play(c: &Peer<RoleClient>) -> Game {
    let mut last = raw(c, "ls_new_game", json!({"weapon": "Short Sword"})).await;
    let id = last["structuredContent"]["adventurer_id"].clone();
    let mut events: Vec<String> = Vec::new();
    let mut with_market = None;
    for _ in 0..80 {
        let state = &last["structuredContent"]["state"];
        if state["phase"] == "in_battle" && state["level"].as_u64() >= Some(3) {
            break;
        }
        assert_ne!(state["phase"], "dead", "the scripted game died: {last}");
        let (tool, mut args) = advised(&last);
        args["adventurer_id"] = id.clone();
        last = raw(c, &tool, args).await;
        if last["structuredContent"]["market"]["items"].is_array() {
            with_market = Some(last.clone());
        }
        for e in last["structuredContent"]["events"]
            .as_array()
            .into_iter()
            .flatten()
        {
            events.push(e.as_str().unwrap().to_string());
        }
    }
    Game {
        id,
        last,
        with_market: with_market.expect("a market opened during the game"),
        events,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_card_and_the_page_show_the_sheet_in_chromium() {
    let Some(python) = playwright() else { return };
    let c = practice(true).await;
    let card = common::mcp::read_text(&c, CARD_URI).await.unwrap().0;

    let game = play(&c).await;
    let (id, compact, with_market, events) = (game.id, game.last, game.with_market, game.events);
    let on_sale = with_market["structuredContent"]["market"]["items"][0]
        .as_str()
        .unwrap()
        .split(", ")
        .next()
        .unwrap()
        .split_once(' ')
        .unwrap()
        .1
        .to_string();
    assert_eq!(
        compact["structuredContent"]["state"]["phase"], "in_battle",
        "{compact}"
    );
    let full = raw(
        &c,
        "ls_get_adventurer",
        json!({"adventurer_id": id, "detail": "full"}),
    )
    .await;
    let view = full["structuredContent"]["adventurer"].clone();
    let uri = format!("ls://adventurer/{id}");
    let read = c
        .read_resource(ReadResourceRequestParams::new(&uri))
        .await
        .unwrap();
    let beast = view["beast"]["name"].as_str().unwrap().to_string();
    let gear: Vec<String> = view["equipment"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["name"].as_str().unwrap().to_string())
        .collect();
    assert!(gear.len() >= 2, "the game bought gear: {gear:?}");
    let health = format!("Health {} / {}", view["health"], view["max_health"]);

    let input = json!({
        "card": card,
        "page": page_html(&view, &events),
        "cases": [
            {"name": "full", "arguments": {"adventurer_id": id, "detail": "full"}, "result": full,
             "server_resources": false, "wait_for": beast},
            {"name": "compact_read", "arguments": {"adventurer_id": id}, "result": compact,
             "server_resources": true, "resources": {uri.clone(): read}, "wait_for": gear[1]},
            {"name": "compact_alone", "arguments": {"adventurer_id": id}, "result": compact,
             "server_resources": false, "wait_for": beast},
            {"name": "market", "arguments": {"adventurer_id": id}, "result": with_market,
             "server_resources": false, "wait_for": on_sale, "theme": "dark"},
        ],
    });
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sheet_browser");
    std::fs::create_dir_all(&out).unwrap();
    let input_file = out.join("input.json");
    std::fs::write(&input_file, input.to_string()).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/sheet_browser.py");
    let run = tokio::process::Command::new(&python)
        .arg(&script)
        .arg("--input")
        .arg(&input_file)
        .arg("--out")
        .arg(&out)
        .output()
        .await
        .unwrap();
    assert!(
        run.status.success(),
        "sheet_browser.py: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let report: Value = serde_json::from_slice(&run.stdout).unwrap();

    let cases = report["cases"].as_object().unwrap();
    assert_eq!(cases.len(), 4);
    for (name, case) in cases {
        assert_eq!(case["errors"], json!([]), "{name}: console errors");
        let sent = case["sent"].to_string();
        for method in [
            "ui/initialize",
            "ui/notifications/initialized",
            "ui/notifications/size-changed",
        ] {
            assert!(
                sent.contains(method),
                "{name}: the card never sent {method}: {sent}"
            );
        }
        let text = case["text"].as_str().unwrap();
        assert!(
            text.contains("Health") && text.contains("Level"),
            "{name}: {text}"
        );
        if name == "market" {
            continue;
        }
        let level = format!("Level{}", compact["structuredContent"]["state"]["level"]);
        for part in [health.as_str(), level.as_str(), beast.as_str()] {
            assert!(text.contains(part), "{name}: {part} missing from {text}");
        }
        let gear_known = name != "compact_alone"
            || compact["structuredContent"]["state"]["equipment"].is_array();
        let shown = if gear_known {
            gear[0].as_str()
        } else {
            "Gearnot in this result"
        };
        assert!(text.contains(shown), "{name}: {shown} missing from {text}");
    }
    assert_ne!(
        cases["market"]["background"], cases["full"]["background"],
        "the host's dark theme is followed"
    );
    let market = cases["market"]["text"].as_str().unwrap();
    assert!(
        market.contains("Market") && market.contains(&on_sale),
        "{market}"
    );
    let full_text = report["cases"]["full"]["text"].as_str().unwrap();
    for name in &gear {
        assert!(
            full_text.contains(name.as_str()),
            "{name} missing from {full_text}"
        );
    }
    let read_case = &report["cases"]["compact_read"];
    assert!(
        !read_case["text"].to_string().contains("not in this result"),
        "the read completed the sheet: {read_case}"
    );
    assert!(
        read_case["sent"].to_string().contains("resources/read"),
        "{read_case}"
    );
    assert!(
        read_case["text"]
            .as_str()
            .unwrap()
            .contains(gear[1].as_str())
    );
    let alone = &report["cases"]["compact_alone"];
    assert!(
        !alone["sent"].to_string().contains("resources/read"),
        "{alone}"
    );

    let page = &report["page"];
    assert_eq!(page["errors"], json!([]), "page: console errors");
    let nojs = page["nojs_text"].as_str().unwrap();
    for part in [
        health.as_str(),
        beast.as_str(),
        &gear[0],
        events.last().unwrap(),
    ] {
        assert!(
            nojs.contains(part),
            "page without JavaScript: {part} missing from {nojs}"
        );
    }
    assert!(
        page["same_markup"] == true,
        "the script renders other markup than the server:\nserver {}\nscript {}",
        page["server_markup"],
        page["script_markup"]
    );

    let shot = out.join("compact_read.png");
    let png = std::fs::read(&shot).unwrap();
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 10_000,
        "{}",
        shot.display()
    );
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/img/adventurer-card.png");
    std::fs::create_dir_all(docs.parent().unwrap()).unwrap();
    std::fs::copy(&shot, &docs).unwrap();
    eprintln!(
        "screenshot: {} (copied to {})",
        shot.display(),
        docs.display()
    );
    c.cancel().await.ok();
}
