//! MCP conventions through a real rmcp client: resources (rules guide, catalogues, an adventurer
//! by template; unknown ones are `resource_not_found`) and the "play a game" prompt. Logging is
//! `mcp_logging`'s, against a server process of its own: log forwarding is process-wide.

use crate::common;

use common::mcp::{ok, practice, read_text};
use rmcp::model::GetPromptRequestParams;
use serde_json::{Value, json};

#[tokio::test]
async fn resources_list_and_read_every_kind() {
    let c = practice(false).await;
    let listed: Vec<String> = c
        .list_all_resources()
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.uri.clone())
        .collect();
    assert_eq!(
        listed,
        [
            "ls://rules",
            "ls://catalogue/items",
            "ls://catalogue/beasts",
            "ls://catalogue/obstacles",
            "ls://leaderboard",
            "ui://loot-survivor/adventurer-card"
        ]
    );
    let templates = c.list_all_resource_templates().await.unwrap();
    assert_eq!(templates[0].uri_template, "ls://adventurer/{id}");

    let (rules, mime) = read_text(&c, "ls://rules").await.unwrap();
    assert_eq!(mime.as_deref(), Some("text/markdown"));
    assert!(
        rules.contains("ls_new_game") && rules.len() < 8_000,
        "{}",
        rules.len()
    );
    for (uri, rows, first) in [
        ("ls://catalogue/items", 101, "Pendant"),
        ("ls://catalogue/beasts", 75, "Warlock"),
        ("ls://catalogue/obstacles", 75, "Demonic Alter"),
    ] {
        let (text, mime) = read_text(&c, uri).await.unwrap();
        assert_eq!(mime.as_deref(), Some("application/json"));
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["rows"].as_array().unwrap().len(), rows, "{uri}");
        assert_eq!(v["rows"][0][1], first, "{uri}");
        assert_eq!(v["columns"][0], "id");
    }

    let started = ok(&c, "ls_new_game", json!({"weapon": "Book"})).await;
    let id = started["adventurer_id"].as_u64().unwrap();
    let (text, _) = read_text(&c, &format!("ls://adventurer/{id}"))
        .await
        .unwrap();
    let adv: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(adv["adventurer_id"], id);
    assert_eq!(adv["phase"], "in_battle");
    assert_eq!(adv["equipment"][0]["name"], "Book");

    for uri in ["ls://adventurer/999", "ls://adventurer/x", "ls://nothing"] {
        let e = read_text(&c, uri).await.unwrap_err();
        let rmcp::ServiceError::McpError(e) = e else {
            panic!("{uri}: {e}")
        };
        assert_eq!(e.code, rmcp::model::ErrorCode::RESOURCE_NOT_FOUND, "{uri}");
        assert!(e.message.contains(uri), "{uri}: {}", e.message);
    }
    c.cancel().await.ok();
}

#[tokio::test]
async fn the_play_prompt_lists_and_renders() {
    let c = practice(false).await;
    let prompts = c.list_all_prompts().await.unwrap();
    assert_eq!(prompts.len(), 1);
    assert_eq!(prompts[0].name, "play_game");
    let arg = &prompts[0].arguments.as_ref().unwrap()[0];
    assert_eq!((arg.name.as_str(), arg.required), ("weapon", Some(false)));

    let mut args = serde_json::Map::new();
    args.insert("weapon".into(), "club".into());
    let got = c
        .get_prompt(GetPromptRequestParams::new("play_game").with_arguments(args))
        .await
        .unwrap();
    let text = serde_json::to_value(&got.messages[0].content).unwrap()["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        text.contains("\"Club\"") && text.contains("ls_new_game"),
        "{text}"
    );
    let plain = c
        .get_prompt(GetPromptRequestParams::new("play_game"))
        .await
        .unwrap();
    assert_eq!(plain.messages.len(), 1);

    let mut bad = serde_json::Map::new();
    bad.insert("weapon".into(), "Katana".into());
    assert!(
        c.get_prompt(GetPromptRequestParams::new("play_game").with_arguments(bad))
            .await
            .is_err()
    );
    assert!(
        c.get_prompt(GetPromptRequestParams::new("nope"))
            .await
            .is_err()
    );
    c.cancel().await.ok();
}
