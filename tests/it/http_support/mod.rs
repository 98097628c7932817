//! Helpers of the `serve --http` tests: a server process on a free loopback port with a token
//! file, and a minimal MCP-over-HTTP client (reqwest, SSE parsed by hand) for the raw checks
//! (status codes, headers, a client that hangs up mid-call); its tool results are read by the
//! shared parse (`common::mcp`), so a test file with `mod http_support;` also has `mod common;`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use loot_survivor_mcp::devnet::free_port;
use serde_json::{Value, json};
use tokio::io::AsyncReadExt;

use crate::common::BIN;
use crate::common::mcp::{Outcome, parse_json_result};

/// A token and the identity it names.
#[derive(Debug, Clone)]
pub struct Token {
    pub identity: String,
    pub token: String,
}

/// `n` identities with fresh random tokens, written to `dir/tokens.toml` (hashes only) and
/// `dir/tokens.json` (the tokens, for the Python client).
pub fn make_tokens(dir: &Path, n: usize) -> Vec<Token> {
    let mut toml = String::new();
    let mut tokens = Vec::new();
    for i in 0..n {
        let identity = format!("agent-{i}");
        let out = std::process::Command::new(BIN)
            .args(["token", "new", "--identity", &identity])
            .output()
            .expect("run token new");
        assert!(out.status.success(), "token new failed");
        let text = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let token = lines[1].trim().to_string();
        assert!(token.len() >= 64, "a short token: {token}");
        assert!(!text.contains(&format!("sha256 = \"{token}\"")));
        for l in &lines[4..7] {
            toml.push_str(l);
            toml.push('\n');
        }
        tokens.push(Token { identity, token });
    }
    std::fs::write(dir.join("tokens.toml"), toml).unwrap();
    let list: Vec<Value> = tokens
        .iter()
        .map(|t| json!({"identity": t.identity, "token": t.token}))
        .collect();
    std::fs::write(dir.join("tokens.json"), Value::Array(list).to_string()).unwrap();
    tokens
}

/// A running `serve --http` process; its stderr (the log) is collected.
pub struct Server {
    pub child: tokio::process::Child,
    pub url: String,
    pub base: String,
    stderr: tokio::task::JoinHandle<String>,
}

impl Server {
    /// Starts `serve --http 127.0.0.1:<free port>` with `LS_HOME = home`, the token file in
    /// `home/tokens.toml` if present, extra args and env; waits until `/readyz` answers.
    pub async fn start(home: &Path, args: &[&str], env: &[(&str, &str)]) -> Server {
        let port = free_port().expect("free port");
        let addr = format!("127.0.0.1:{port}");
        let mut cmd = tokio::process::Command::new(BIN);
        cmd.arg("serve")
            .args(["--http", &addr])
            .args(args)
            .env("LS_HOME", home)
            .env("RUST_LOG", "info")
            .env_remove("LS_HTTP_TOKENS")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        if home.join("tokens.toml").exists() {
            cmd.env("LS_HTTP__TOKENS_FILE", home.join("tokens.toml"));
        }
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("start the server");
        let mut err = child.stderr.take().unwrap();
        let stderr = tokio::spawn(async move {
            let mut s = String::new();
            let _ = err.read_to_string(&mut s).await;
            s
        });
        let base = format!("http://{addr}");
        let mut server = Server {
            child,
            url: format!("{base}/mcp"),
            base,
            stderr,
        };
        let http = reqwest::Client::new();
        for _ in 0..600 {
            if let Ok(Some(status)) = server.child.try_wait() {
                panic!("the HTTP server exited ({status}): {}", server.stop().await);
            }
            if let Ok(r) = http.get(format!("{}/readyz", server.base)).send().await
                && r.status().is_success()
            {
                return server;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!(
            "the HTTP server did not become ready: {}",
            server.stop().await
        );
    }

    /// SIGTERM, wait, and the whole log.
    pub async fn stop(mut self) -> String {
        if let Some(pid) = self.child.id() {
            let _ = std::process::Command::new("kill")
                .args(["-TERM", &pid.to_string()])
                .status();
        }
        let _ = tokio::time::timeout(Duration::from_secs(40), self.child.wait()).await;
        let _ = self.child.kill().await;
        self.stderr.await.unwrap_or_default()
    }
}

/// One MCP session over HTTP, by hand.
pub struct Session {
    http: reqwest::Client,
    url: String,
    /// The bearer token sent (tests swap it to act as another identity in this session).
    pub token: Option<String>,
    session: Option<String>,
    next_id: u64,
}

impl Session {
    /// `initialize` + `notifications/initialized` with `token` (none: no Authorization header).
    pub async fn open(url: &str, token: Option<&str>) -> Session {
        let mut s = Session {
            http: reqwest::Client::new(),
            url: url.to_string(),
            token: token.map(String::from),
            session: None,
            next_id: 1,
        };
        let init = json!({"protocolVersion": "2025-06-18", "capabilities": {},
                          "clientInfo": {"name": "http-test", "version": "1"}});
        let msg = s.message("initialize", init);
        let r = s.post(&msg).await;
        assert!(r.status().is_success(), "initialize: {}", r.status());
        s.session = r
            .headers()
            .get("mcp-session-id")
            .map(|v| v.to_str().unwrap().to_string());
        let body = r.text().await.unwrap();
        assert!(body.contains("\"result\""), "initialize: {body}");
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let r = s.post(&note).await;
        assert!(r.status().is_success(), "initialized: {}", r.status());
        s
    }

    fn message(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
    }

    /// POSTs one JSON-RPC message with this session's headers.
    pub async fn post(&self, body: &Value) -> reqwest::Response {
        let mut req = self
            .http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-06-18")
            .body(body.to_string());
        if let Some(t) = &self.token {
            req = req.bearer_auth(t);
        }
        if let Some(sid) = &self.session {
            req = req.header("mcp-session-id", sid);
        }
        req.send().await.expect("POST /mcp")
    }

    /// Closes the session (`DELETE /mcp`) and returns the HTTP status.
    pub async fn close(&self) -> reqwest::StatusCode {
        let mut req = self.http.delete(&self.url);
        if let Some(t) = &self.token {
            req = req.bearer_auth(t);
        }
        if let Some(sid) = &self.session {
            req = req.header("mcp-session-id", sid);
        }
        req.send().await.expect("DELETE /mcp").status()
    }

    /// `tools/call`; its result as the agent sees it.
    pub async fn call(&mut self, tool: &str, args: Value) -> Outcome {
        let call = format!("{tool} {args}");
        let msg = self.message("tools/call", json!({"name": tool, "arguments": args}));
        let r = self.post(&msg).await;
        assert!(r.status().is_success(), "{call}: HTTP {}", r.status());
        let body = r.text().await.unwrap();
        let answer = response_of(&body, &msg["id"])
            .unwrap_or_else(|| panic!("{call}: no response in {body}"));
        let result = answer
            .get("result")
            .unwrap_or_else(|| panic!("{call}: expected a tool result, got {answer}"));
        parse_json_result(call, result)
    }

    /// A request other than a tool call (`resources/subscribe`, …); its JSON-RPC answer.
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        let msg = self.message(method, params);
        let r = self.post(&msg).await;
        assert!(r.status().is_success(), "{method}: HTTP {}", r.status());
        let body = r.text().await.unwrap();
        response_of(&body, &msg["id"]).unwrap_or_else(|| panic!("{method}: no answer in {body}"))
    }

    /// The URIs of the `notifications/resources/updated` this session's GET stream carries, as
    /// they arrive (the stream is open when this returns).
    pub async fn updates(&self) -> tokio::sync::mpsc::UnboundedReceiver<String> {
        let mut req = self
            .http
            .get(&self.url)
            .header("accept", "text/event-stream")
            .header("mcp-protocol-version", "2025-06-18");
        if let Some(t) = &self.token {
            req = req.bearer_auth(t);
        }
        if let Some(sid) = &self.session {
            req = req.header("mcp-session-id", sid);
        }
        let mut r = req.send().await.expect("GET /mcp");
        assert!(r.status().is_success(), "GET /mcp: HTTP {}", r.status());
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(async move {
            let mut buf = String::new();
            while let Ok(Some(chunk)) = r.chunk().await {
                buf.push_str(&String::from_utf8_lossy(&chunk));
                while let Some(end) = buf.find('\n') {
                    let line: String = buf.drain(..=end).collect();
                    let Some(data) = line.trim_end().strip_prefix("data:") else {
                        continue;
                    };
                    let Ok(v) = serde_json::from_str::<Value>(data.trim()) else {
                        continue;
                    };
                    if v["method"] == "notifications/resources/updated"
                        && let Some(uri) = v["params"]["uri"].as_str()
                        && tx.send(uri.to_string()).is_err()
                    {
                        return;
                    }
                }
            }
        });
        rx
    }

    /// `tools/call` that must succeed; its result.
    pub async fn ok(&mut self, tool: &str, args: Value) -> Value {
        self.call(tool, args).await.into_ok()
    }

    /// `tools/call` that must fail with `code`; the error object.
    pub async fn err(&mut self, tool: &str, args: Value, code: &str) -> Value {
        self.call(tool, args).await.into_err(code)
    }

    /// Starts `tools/call` with a progress token and hangs up as soon as the progress says the
    /// transaction was submitted; returns its hash.
    pub async fn call_and_hang_up(&mut self, tool: &str, args: Value) -> String {
        let msg = self.message(
            "tools/call",
            json!({"name": tool, "arguments": args, "_meta": {"progressToken": "p1"}}),
        );
        let mut r = self.post(&msg).await;
        assert!(r.status().is_success(), "{tool}: HTTP {}", r.status());
        let mut seen = String::new();
        while let Some(chunk) = tokio::time::timeout(Duration::from_secs(60), r.chunk())
            .await
            .expect("progress in time")
            .expect("read the stream")
        {
            seen.push_str(&String::from_utf8_lossy(&chunk));
            if let Some(at) = seen.find("submitted 0x") {
                let hash: String = seen[at + "submitted ".len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_hexdigit() || *c == 'x')
                    .collect();
                drop(r);
                return hash;
            }
        }
        panic!("{tool}: the stream ended before a 'submitted' progress: {seen}");
    }
}

/// The JSON-RPC response with `id` among the SSE `data:` lines (or a plain JSON body).
pub fn response_of(body: &str, id: &Value) -> Option<Value> {
    if let Ok(v) = serde_json::from_str::<Value>(body) {
        return Some(v);
    }
    body.lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
        .find(|v| &v["id"] == id && (v.get("result").is_some() || v.get("error").is_some()))
}

/// The venv python with `mcp` installed (scripts/setup-python-client.sh).
pub fn python() -> PathBuf {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/setup-python-client.sh");
    let out = std::process::Command::new("bash")
        .arg(&script)
        .output()
        .expect("run scripts/setup-python-client.sh");
    assert!(
        out.status.success(),
        "setup-python-client.sh failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
}

/// Runs tests/python/http_fleet.py against `server` and returns its JSON summary (asserting it
/// exited 0).
pub async fn fleet(url: &str, tokens: &Path, sessions: usize, extra: &[&str]) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/http_fleet.py");
    let out = tokio::time::timeout(
        Duration::from_secs(900),
        tokio::process::Command::new(python())
            .arg(&script)
            .args(["--url", url, "--sessions", &sessions.to_string()])
            .arg("--tokens")
            .arg(tokens)
            .args(extra)
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .stdin(Stdio::null())
            .kill_on_drop(true)
            .output(),
    )
    .await
    .expect("the fleet finished in time")
    .expect("run http_fleet.py");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    let summary: Value = serde_json::from_str(last).unwrap_or_else(|e| {
        panic!(
            "http_fleet.py printed no summary ({e}); stderr:\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert!(out.status.success(), "http_fleet.py failed: {summary}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("Session termination failed"),
        "the Python client logged a failed session close:\n{stderr}"
    );
    summary
}

/// Asserts that no token appears anywhere in `log`.
pub fn assert_no_token(log: &str, tokens: &[&str]) {
    for t in tokens {
        assert!(!log.contains(t), "a token appears in the server log");
    }
}

/// A server-sent event stream (`GET` with `Accept: text/event-stream`), read by hand.
pub struct EventStream {
    response: reqwest::Response,
    buf: String,
}

impl EventStream {
    /// Opens `url`; the response itself when it is not a 200 stream.
    pub async fn open(url: &str, token: Option<&str>) -> Result<EventStream, reqwest::Response> {
        let mut req = reqwest::Client::new()
            .get(url)
            .header("accept", "text/event-stream");
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let response = req.send().await.expect("GET an event stream");
        let sse = response
            .headers()
            .get("content-type")
            .is_some_and(|v| v.to_str().unwrap_or("").starts_with("text/event-stream"));
        if response.status() != 200 || !sse {
            return Err(response);
        }
        Ok(EventStream {
            response,
            buf: String::new(),
        })
    }

    /// The next event's name and data, `None` when none comes within `wait` or the stream ends;
    /// comments (keep-alives) are skipped.
    pub async fn next(&mut self, wait: Duration) -> Option<(String, String)> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            if let Some(end) = self.buf.find("\n\n") {
                let block: String = self.buf.drain(..end + 2).collect();
                let (mut name, mut data) = (String::from("message"), Vec::new());
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("event:") {
                        name = v.trim().to_string();
                    } else if let Some(v) = line.strip_prefix("data:") {
                        data.push(v.strip_prefix(' ').unwrap_or(v).to_string());
                    }
                }
                if data.is_empty() {
                    continue;
                }
                return Some((name, data.join("\n")));
            }
            let chunk = tokio::time::timeout_at(deadline, self.response.chunk())
                .await
                .ok()?
                .ok()??;
            self.buf.push_str(&String::from_utf8_lossy(&chunk));
        }
    }

    /// The next `state` event's model.
    pub async fn state(&mut self, wait: Duration) -> Option<Value> {
        let (name, data) = self.next(wait).await?;
        assert_eq!(name, "state", "{data}");
        Some(serde_json::from_str(&data).expect("a state event is JSON"))
    }
}
