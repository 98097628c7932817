//! The adventurer card, an MCP App (SEP-1865), through an rmcp client: `resources/list` names it
//! with its MIME type, `resources/read` returns its HTML, and the tools that return a state (every
//! write and `ls_get_adventurer`) link to it with `_meta.ui.resourceUri`; no other tool does.

use crate::common;

use common::mcp::{practice, read_text};
use loot_survivor_mcp::mcp::DETAIL_TOOLS;
use loot_survivor_mcp::mcp::sheet::{APP_MIME, CARD_URI};
use rmcp::model::{ReadResourceRequestParams, ResourceContents};
use serde_json::json;

#[tokio::test]
async fn the_card_is_listed_readable_and_linked_from_the_state_tools() {
    let c = practice(true).await;
    let listed = c.list_all_resources().await.unwrap();
    let card = listed
        .iter()
        .find(|r| r.uri == CARD_URI)
        .unwrap_or_else(|| panic!("{CARD_URI} not in resources/list: {listed:?}"));
    assert_eq!(card.mime_type.as_deref(), Some("text/html;profile=mcp-app"));
    assert_eq!(APP_MIME, "text/html;profile=mcp-app");
    // The server declares the MCP Apps extension with the card's MIME type.
    let info = c.peer_info().expect("initialized");
    let apps = info
        .capabilities
        .extensions
        .as_ref()
        .and_then(|e| e.get("io.modelcontextprotocol/ui"))
        .expect("the io.modelcontextprotocol/ui extension is declared");
    assert_eq!(apps["mimeTypes"], json!(["text/html;profile=mcp-app"]));

    let (html, mime) = read_text(&c, CARD_URI).await.unwrap();
    assert_eq!(mime.as_deref(), Some(APP_MIME));
    assert!(html.starts_with("<!doctype html>"), "{}", &html[..80]);
    assert!(html.contains("ui/initialize") && html.contains("ui/notifications/tool-result"));
    assert!(
        html.contains("connect-src 'none'"),
        "the card opens no connection"
    );
    let read = c
        .read_resource(ReadResourceRequestParams::new(CARD_URI))
        .await
        .unwrap();
    let ResourceContents::TextResourceContents { meta, .. } = &read.contents[0] else {
        panic!("not text: {read:?}")
    };
    let ui = &meta.as_ref().expect("_meta on the contents").0["ui"];
    assert_eq!(ui["prefersBorder"], true);
    assert!(ui.get("csp").is_none(), "no outside origin declared: {ui}");

    let tools = c.list_all_tools().await.unwrap();
    let mut linked = Vec::new();
    for t in &tools {
        let json = serde_json::to_value(t).unwrap();
        let uri = &json["_meta"]["ui"]["resourceUri"];
        if DETAIL_TOOLS.contains(&t.name.as_ref()) {
            assert_eq!(uri, &json!(CARD_URI), "{}: {json}", t.name);
            linked.push(t.name.to_string());
        } else {
            assert!(
                json.get("_meta").is_none(),
                "{} needs no card: {json}",
                t.name
            );
        }
    }
    assert!(
        linked.contains(&"ls_get_adventurer".to_string()),
        "{linked:?}"
    );
    assert_eq!(
        linked.len(),
        10,
        "nine writes and ls_get_adventurer: {linked:?}"
    );
    c.cancel().await.ok();
}
