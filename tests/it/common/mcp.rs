//! Calling tools the way an agent does and reading the JSON it sees, for every test that drives an
//! MCP client: an rmcp client in process or over a child's stdio (both deref to the
//! [`Peer<RoleClient>`] these helpers take), or a tool result that arrived as raw JSON (JSON-RPC
//! lines, HTTP, the Inspector CLI's output), read by the same parse. Every panic names the call
//! (the tool and its arguments).

use loot_survivor_mcp::agent::{Agent, AgentError};
use loot_survivor_mcp::mcp::{LsServer, connect_in_memory};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ReadResourceRequestParams, ResourceContents,
};
use rmcp::service::{Peer, RunningService, ServiceError};
use rmcp::{ClientHandler, RoleClient};
use serde_json::{Value, json};

/// A tool call's outcome: the error flag, the text content (the JSON the agent reads), that JSON
/// parsed, and the structured content.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The call, for messages: the tool and its arguments.
    pub call: String,
    pub is_error: bool,
    pub text: String,
    pub json: Value,
    pub structured: Option<Value>,
}

impl Outcome {
    /// The result of a call that must succeed: no error, the structured content equal to the
    /// text, no `"ok": false` (compact results leave the constant `ok` out).
    pub fn into_ok(self) -> Value {
        let call = &self.call;
        assert!(!self.is_error, "{call} failed: {}", self.text);
        let structured = self
            .structured
            .as_ref()
            .unwrap_or_else(|| panic!("{call}: no structuredContent on success: {}", self.text));
        assert_eq!(
            structured, &self.json,
            "{call}: text and structured content agree"
        );
        assert_ne!(self.json["ok"], false, "{call}: {}", self.text);
        self.json
    }

    /// The error object of a call that must fail with `code`.
    pub fn into_err(self, code: &str) -> Value {
        let call = &self.call;
        assert!(
            self.is_error,
            "{call} should fail with {code}: {}",
            self.text
        );
        assert_eq!(self.json["ok"], false, "{call}: {}", self.text);
        assert_eq!(self.json["error"]["code"], code, "{call}: {}", self.text);
        self.json["error"].clone()
    }
}

/// Names a call in messages: `tool {arguments}`.
fn describe(tool: &str, args: &Value) -> String {
    format!("{tool} {args}")
}

/// Calls a tool; `Err` only when the MCP exchange itself fails (e.g. the server was killed).
pub async fn try_call(
    client: &Peer<RoleClient>,
    tool: &str,
    args: Value,
) -> Result<Outcome, ServiceError> {
    let call = describe(tool, &args);
    let Value::Object(map) = args else {
        panic!("{call}: arguments must be an object")
    };
    let r = client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(map))
        .await?;
    Ok(parse_result(call, r))
}

/// Calls a tool and parses its result (panics on a protocol error).
pub async fn call(client: &Peer<RoleClient>, tool: &str, args: Value) -> Outcome {
    let call = describe(tool, &args);
    try_call(client, tool, args)
        .await
        .unwrap_or_else(|e| panic!("{call}: protocol error {e}"))
}

/// Calls a tool that must succeed; returns its result (see [`Outcome::into_ok`]).
pub async fn ok(client: &Peer<RoleClient>, tool: &str, args: Value) -> Value {
    call(client, tool, args).await.into_ok()
}

/// Calls a tool that must fail with `code`; returns the error object.
pub async fn err(client: &Peer<RoleClient>, tool: &str, args: Value, code: &str) -> Value {
    call(client, tool, args).await.into_err(code)
}

/// Follows `next_cursor` from page to page (at most `max_pages`), returning every page. Later
/// pages are asked with the cursor alone (plus `adventurer_id`, and the first page's `limit`).
pub async fn all_pages(
    client: &Peer<RoleClient>,
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
                let mut later = json!({"cursor": c});
                if let Some(id) = args.get("adventurer_id").filter(|v| !v.is_null()) {
                    later["adventurer_id"] = id.clone();
                }
                if let Some(l) = pages[0].get("limit") {
                    later["limit"] = l.clone();
                }
                args = later;
            }
            Value::Null => return pages,
            other => panic!("{tool}: next_cursor is {other}"),
        }
    }
}

/// `args` asking for the full result shape (`detail: "full"`) unless they choose a detail.
pub fn full(args: Value) -> Value {
    let Value::Object(mut map) = args else {
        panic!("arguments must be an object: {args}")
    };
    map.entry("detail").or_insert(json!("full"));
    Value::Object(map)
}

/// Parses a tool result into the JSON the agent sees (the text content, all of it).
pub fn parse_result(call: impl Into<String>, r: CallToolResult) -> Outcome {
    let call = call.into();
    let text: String = r
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.as_str()))
        .collect();
    let json = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{call}: result text is not JSON ({e}): {text}"));
    Outcome {
        call,
        is_error: r.is_error == Some(true),
        json,
        structured: r.structured_content,
        text,
    }
}

/// Parses a tool result that arrived as JSON (the `result` of a `tools/call` answer).
pub fn parse_json_result(call: impl Into<String>, result: &Value) -> Outcome {
    let call = call.into();
    let r: CallToolResult = serde_json::from_value(result.clone())
        .unwrap_or_else(|e| panic!("{call}: not a tool result ({e}): {result}"));
    parse_result(call, r)
}

/// Reads a text resource: its text and MIME type.
pub async fn read_text(
    client: &Peer<RoleClient>,
    uri: &str,
) -> Result<(String, Option<String>), ServiceError> {
    let r = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await?;
    match &r.contents[0] {
        ResourceContents::TextResourceContents {
            text, mime_type, ..
        } => Ok((text.clone(), mime_type.clone())),
        other => panic!("{uri}: not text: {other:?}"),
    }
}

/// The binary `bin` serving its default profile (the sim chain) over stdio with `args`: its data
/// directory at `home`, no configuration directory, warnings logged, `env` on top; the client
/// and the server's process id.
pub async fn sim_server(
    bin: &str,
    home: &std::path::Path,
    args: &[&str],
    env: &[(&str, &str)],
) -> (RunningService<RoleClient, ()>, u32) {
    sim_server_with(bin, home, args, env, ()).await
}

/// Like [`sim_server`], with a custom client handler (e.g. one that keeps the log messages).
pub async fn sim_server_with<H: ClientHandler>(
    bin: &str,
    home: &std::path::Path,
    args: &[&str],
    env: &[(&str, &str)],
    handler: H,
) -> (RunningService<RoleClient, H>, u32) {
    use rmcp::ServiceExt;
    let mut cmd = tokio::process::Command::new(bin);
    cmd.args(args)
        .env_remove("LS_CHAIN")
        .env("LS_CONFIG_DIR", "/nonexistent")
        .env("LS_HOME", home)
        .env("RUST_LOG", "warn");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let transport = rmcp::transport::TokioChildProcess::new(cmd).expect("spawn the server");
    let pid = transport.id().expect("server pid");
    (handler.serve(transport).await.expect("MCP handshake"), pid)
}

/// An rmcp client connected in process to the practice server (the sim chain, first id 1).
pub async fn practice(strict: bool) -> RunningService<RoleClient, ()> {
    connect_in_memory(LsServer::practice(strict), ())
        .await
        .expect("the client connects")
}

/// The product's agent client connected in process to the strict practice server.
pub async fn practice_agent() -> Agent {
    Agent::connect(LsServer::practice(true))
        .await
        .expect("connect")
}

/// The error envelope of an agent call that failed with a tool error.
pub fn agent_error(e: AgentError) -> Value {
    match e {
        AgentError::Tool { error, .. } => error,
        other => panic!("expected a tool error, got {other}"),
    }
}
