//! One MCP session over streamable HTTP, spoken by hand (the following benchmarks open many):
//! requests answered on SSE, notifications read off the session's GET stream.

use serde_json::{Value, json};

/// One MCP session over streamable HTTP, by hand.
pub struct Session {
    http: reqwest::Client,
    url: String,
    id: String,
    next: u64,
}

impl Session {
    pub async fn open(url: &str) -> Session {
        let http = reqwest::Client::new();
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "live-cost", "version": "1"}}});
        let r = post(&http, url, None, &init).await;
        let id = r.headers()["mcp-session-id"].to_str().unwrap().to_string();
        let _ = r.text().await;
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let _ = post(&http, url, Some(&id), &note).await.text().await;
        Session {
            http,
            url: url.to_string(),
            id,
            next: 1,
        }
    }

    /// Sends a request and returns its result (the SSE body parsed by hand).
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let msg = json!({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params});
        let body = post(&self.http, &self.url, Some(&self.id), &msg)
            .await
            .text()
            .await
            .unwrap();
        let answer = body
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
            .find(|v| v["id"] == json!(self.next))
            .unwrap_or_else(|| panic!("{method}: no answer in {body}"));
        assert!(answer.get("error").is_none(), "{method}: {answer}");
        answer["result"].clone()
    }

    pub async fn tool(&mut self, name: &str, args: Value) -> Value {
        let r = self
            .request("tools/call", json!({"name": name, "arguments": args}))
            .await;
        assert_ne!(r["isError"], true, "{name}: {r}");
        r["structuredContent"].clone()
    }

    /// Keeps the session's GET stream open, reading (and dropping) what arrives on it.
    pub fn drain_notifications(&self) -> tokio::task::JoinHandle<usize> {
        let req = self
            .http
            .get(&self.url)
            .header("accept", "text/event-stream")
            .header("mcp-session-id", &self.id);
        tokio::spawn(async move {
            let Ok(mut r) = req.send().await else {
                return 0;
            };
            let mut seen = 0;
            while let Ok(Some(chunk)) = r.chunk().await {
                seen += chunk.windows(8).filter(|w| w == b"updated\"").count();
            }
            seen
        })
    }
}

async fn post(
    http: &reqwest::Client,
    url: &str,
    session: Option<&str>,
    body: &Value,
) -> reqwest::Response {
    let mut req = http
        .post(url)
        .header("accept", "application/json, text/event-stream")
        .json(body);
    if let Some(id) = session {
        req = req.header("mcp-session-id", id);
    }
    req.send().await.expect("post")
}

/// Waits until the server at `addr` answers `/readyz` (at most 30 s).
pub async fn wait_ready(addr: &str) {
    for _ in 0..300 {
        if reqwest::get(format!("http://{addr}/readyz"))
            .await
            .is_ok_and(|r| r.status().is_success())
        {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}
