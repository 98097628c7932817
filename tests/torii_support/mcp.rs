//! Calling tools through a real rmcp client and reading results the way an agent sees them.

use rmcp::RoleClient;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use serde_json::Value;

/// A tool result: error flag and the JSON text (the structured content on success).
#[derive(Debug, Clone)]
pub struct Outcome {
    pub is_error: bool,
    pub json: Value,
}

/// Calls a tool and parses its result.
pub async fn call(client: &RunningService<RoleClient, ()>, tool: &str, args: Value) -> Outcome {
    let Value::Object(args) = args else {
        panic!("arguments must be an object")
    };
    let r: CallToolResult = client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args))
        .await
        .unwrap_or_else(|e| panic!("{tool}: protocol error {e}"));
    let text: String = r
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect();
    let json: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{tool}: result is not JSON ({e}): {text}"));
    let is_error = r.is_error == Some(true);
    if !is_error {
        assert_eq!(
            r.structured_content.as_ref(),
            Some(&json),
            "{tool}: structured = text"
        );
    }
    Outcome { is_error, json }
}

/// Calls a tool that must succeed.
pub async fn ok(client: &RunningService<RoleClient, ()>, tool: &str, args: Value) -> Value {
    let o = call(client, tool, args.clone()).await;
    assert!(!o.is_error, "{tool} {args} failed: {}", o.json);
    assert_eq!(o.json["ok"], true);
    o.json
}

/// Calls a tool that must fail with `code`; returns the error object.
pub async fn err(
    client: &RunningService<RoleClient, ()>,
    tool: &str,
    args: Value,
    code: &str,
) -> Value {
    let o = call(client, tool, args.clone()).await;
    assert!(o.is_error, "{tool} {args} should fail: {}", o.json);
    assert_eq!(o.json["ok"], false);
    assert_eq!(o.json["error"]["code"], code, "{tool} {args}: {}", o.json);
    o.json["error"].clone()
}

/// Follows `next_cursor` from page to page (at most `max_pages`), returning every page.
pub async fn all_pages(
    client: &RunningService<RoleClient, ()>,
    tool: &str,
    mut args: Value,
    max_pages: usize,
) -> Vec<Value> {
    let mut pages = Vec::new();
    loop {
        assert!(
            pages.len() < max_pages,
            "{tool}: more than {max_pages} pages"
        );
        let page = ok(client, tool, args.clone()).await;
        let next = page["next_cursor"].clone();
        pages.push(page);
        match next {
            Value::String(c) => {
                args = serde_json::json!({"cursor": c, "adventurer_id": args.get("adventurer_id")})
                    .as_object()
                    .unwrap()
                    .iter()
                    .filter(|(_, v)| !v.is_null())
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect::<serde_json::Map<_, _>>()
                    .into();
                if let Some(l) = pages[0].get("limit") {
                    args["limit"] = l.clone();
                }
            }
            Value::Null => return pages,
            other => panic!("{tool}: next_cursor is {other}"),
        }
    }
}
