//! The stdio transport: our own line reader in front of rmcp, so every line gets an answer.
//!
//! rmcp 3.9's `AsyncRwTransport` (the one behind `rmcp::transport::stdio()`) accepts lines up to
//! 16 MiB, silently drops lines that are not JSON (nesting deeper than 128, NaN, invalid UTF-8),
//! answers well-formed but invalid messages with an error that has no `id`, and hands a
//! notification that arrives before `initialize` to the handshake, which then fails and ends the
//! process. This transport implements rmcp's [`Transport`] itself: it reads lines with a size
//! bound, answers what cannot be a message (-32700 parse error, -32600 invalid request, with the
//! `id` whenever one can be read, see [`IdScanner`]), refuses batches with an error per id (MCP
//! has no batches since 2025-06-18), turns non-object tool `arguments` into a `VALIDATION_ERROR`
//! result, drops notifications and responses before `initialize`, and passes the rest to rmcp
//! already parsed. Our answers and rmcp's go through the same writer lock, one whole line each.

use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{
    CallToolResult, ClientJsonRpcMessage, ClientRequest, IntoContents, ServerJsonRpcMessage,
    ServerResult,
};
use rmcp::transport::Transport;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

use crate::error::ToolError;

/// Longest line (one JSON-RPC message) read from the client, in bytes. The largest legitimate
/// message is a few kilobytes; this bounds parsing work and memory per message.
pub const MAX_LINE_BYTES: usize = 1024 * 1024;

/// JSON-RPC "parse error": the line is not JSON.
const PARSE_ERROR: i32 = -32700;
/// JSON-RPC "invalid request": JSON, but not a message we accept.
const INVALID_REQUEST: i32 = -32600;
/// Longest error detail we copy from a parser into an answer (never the input itself).
const MAX_DETAIL_CHARS: usize = 160;

/// The server side of MCP over the process's stdin and stdout through [`GuardedTransport`].
pub fn stdio() -> GuardedTransport<tokio::io::Stdin, tokio::io::Stdout> {
    GuardedTransport::new(tokio::io::stdin(), tokio::io::stdout())
}

/// A newline-delimited JSON-RPC transport that answers every line it cannot pass on.
pub struct GuardedTransport<R, W> {
    read: BufReader<R>,
    line: Vec<u8>,
    max_line: usize,
    /// Set while skipping the rest of an oversized line; the scanner looks for its `id`.
    oversized: Option<IdScanner>,
    write: Arc<Mutex<Option<W>>>,
    /// Whether an `initialize` request has been passed on (before it, rmcp's handshake ends the
    /// process on a notification or response).
    initialized: bool,
}

impl<R: AsyncRead + Unpin, W: AsyncWrite + Unpin + Send + 'static> GuardedTransport<R, W> {
    /// Reads messages from `read` and writes answers to `write`.
    pub fn new(read: R, write: W) -> Self {
        Self {
            read: BufReader::new(read),
            line: Vec::new(),
            max_line: MAX_LINE_BYTES,
            oversized: None,
            write: Arc::new(Mutex::new(Some(write))),
            initialized: false,
        }
    }

    /// Overrides [`MAX_LINE_BYTES`].
    pub fn with_max_line(mut self, bytes: usize) -> Self {
        self.max_line = bytes;
        self
    }

    /// Reads the next line into `self.line`. Cancel-safe: all state lives on `self`, and bytes
    /// are consumed from the reader only after they are copied or scanned.
    async fn read_line(&mut self) -> std::io::Result<Option<LineRead>> {
        loop {
            let (consumed, done) = {
                let buf = self.read.fill_buf().await?;
                if buf.is_empty() {
                    return Ok(None);
                }
                let newline = buf.iter().position(|&b| b == b'\n');
                let take = newline.map_or(buf.len(), |i| i + 1);
                let chunk = &buf[..take];
                if let Some(scanner) = self.oversized.as_mut() {
                    scanner.feed(chunk);
                } else if self.line.len() + take > self.max_line {
                    let mut scanner = IdScanner::default();
                    scanner.feed(&self.line);
                    scanner.feed(chunk);
                    self.line.clear();
                    self.oversized = Some(scanner);
                } else {
                    self.line.extend_from_slice(chunk);
                }
                (take, newline.is_some())
            };
            self.read.consume(consumed);
            if done {
                return Ok(Some(match self.oversized.take() {
                    Some(scanner) => LineRead::Oversized(scanner.id()),
                    None => LineRead::Line,
                }));
            }
        }
    }

    /// Writes one answer line from a spawned task, so that a cancelled `receive` never leaves
    /// half a line on stdout.
    fn answer(&self, message: Value) {
        let write = self.write.clone();
        tokio::spawn(async move {
            let bytes = serde_json::to_vec(&message).unwrap_or_default();
            if let Err(e) = write_line(&write, bytes).await {
                tracing::warn!("cannot write an answer: {e}");
            }
        });
    }

    /// Classifies one complete line: a message for rmcp, or an answer of ours (or nothing).
    fn classify(&mut self, line: &[u8]) -> Option<ClientJsonRpcMessage> {
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            return None;
        }
        if std::str::from_utf8(line).is_err() {
            self.answer(error_line(
                scan_id(line),
                PARSE_ERROR,
                "parse error: the message is not valid UTF-8",
            ));
            return None;
        }
        let value: Value = match serde_json::from_slice(line) {
            Ok(v) => v,
            Err(e) => {
                self.answer(error_line(
                    scan_id(line),
                    PARSE_ERROR,
                    &format!("parse error: {}", short(&e.to_string())),
                ));
                return None;
            }
        };
        match value {
            Value::Object(_) => self.message(value),
            Value::Array(items) => {
                self.batch(&items);
                None
            }
            _ => {
                self.answer(error_line(
                    Value::Null,
                    INVALID_REQUEST,
                    "invalid request: a message is a JSON object",
                ));
                None
            }
        }
    }

    fn message(&mut self, value: Value) -> Option<ClientJsonRpcMessage> {
        let id = readable_id(&value);
        let has_id = value.get("id").is_some();
        let has_method = value.get("method").is_some();
        if has_id
            && value.get("method").and_then(Value::as_str) == Some("tools/call")
            && let Some(args) = value.get("params").and_then(|p| p.get("arguments"))
            && !(args.is_object() || args.is_null())
        {
            let error = ToolError::validation("arguments must be a JSON object")
                .with_detail("got", json_type(args))
                .with_hint("pass the tool's arguments as an object, e.g. {\"adventurer_id\": 1}");
            let result = ServerResult::CallToolResult(CallToolResult::error(error.into_contents()));
            self.answer(json!({"jsonrpc": "2.0", "id": id, "result": result}));
            return None;
        }
        let message = match serde_json::from_value::<ClientJsonRpcMessage>(value) {
            Ok(m) => m,
            Err(e) => {
                if !has_id && has_method {
                    tracing::debug!(
                        "ignoring an invalid notification: {}",
                        short(&e.to_string())
                    );
                } else {
                    self.answer(error_line(
                        id,
                        INVALID_REQUEST,
                        &format!("invalid request: {}", short(&e.to_string())),
                    ));
                }
                return None;
            }
        };
        match &message {
            ClientJsonRpcMessage::Request(r)
                if matches!(r.request, ClientRequest::InitializeRequest(_)) =>
            {
                self.initialized = true;
            }
            ClientJsonRpcMessage::Request(_) => {}
            _ if !self.initialized => {
                tracing::debug!("ignoring a notification or response before initialize");
                return None;
            }
            _ => {}
        }
        Some(message)
    }

    /// MCP has no batches: each request in one gets an error with its id, in one array.
    fn batch(&self, items: &[Value]) {
        if items.is_empty() {
            self.answer(error_line(
                Value::Null,
                INVALID_REQUEST,
                "invalid request: empty batch",
            ));
            return;
        }
        let answers: Vec<Value> = items
            .iter()
            .filter(|m| !m.is_object() || m.get("id").is_some())
            .map(|m| {
                error_line(
                    readable_id(m),
                    INVALID_REQUEST,
                    "invalid request: batches are not supported; send one message per line",
                )
            })
            .collect();
        if !answers.is_empty() {
            self.answer(Value::Array(answers));
        }
    }
}

enum LineRead {
    Line,
    Oversized(Value),
}

impl<R, W> Transport<RoleServer> for GuardedTransport<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let write = self.write.clone();
        async move { write_line(&write, serde_json::to_vec(&item)?).await }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            match self.read_line().await {
                Ok(Some(LineRead::Line)) => {
                    let line = std::mem::take(&mut self.line);
                    let message = self.classify(&line);
                    self.line = line;
                    self.line.clear();
                    if let Some(m) = message {
                        return Some(m);
                    }
                }
                Ok(Some(LineRead::Oversized(id))) => {
                    tracing::warn!(max = self.max_line, "refused an oversized message");
                    self.answer(error_line(
                        id,
                        INVALID_REQUEST,
                        &format!(
                            "invalid request: the message is longer than {} bytes",
                            self.max_line
                        ),
                    ));
                }
                Ok(None) => return None,
                Err(e) => {
                    tracing::error!("cannot read stdin: {e}");
                    return None;
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.write.lock().await.take();
        Ok(())
    }
}

async fn write_line<W: AsyncWrite + Unpin>(
    write: &Mutex<Option<W>>,
    mut bytes: Vec<u8>,
) -> std::io::Result<()> {
    bytes.push(b'\n');
    let mut guard = write.lock().await;
    let w = guard
        .as_mut()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotConnected, "transport closed"))?;
    w.write_all(&bytes).await?;
    w.flush().await
}

fn error_line(id: Value, code: i32, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// The message's `id` when it is one JSON-RPC allows (a string or a number), else null.
fn readable_id(message: &Value) -> Value {
    match message.get("id") {
        Some(id @ (Value::String(_) | Value::Number(_))) => id.clone(),
        _ => Value::Null,
    }
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn short(s: &str) -> String {
    match s.char_indices().nth(MAX_DETAIL_CHARS) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// The `id` of a message that does not parse, read by [`IdScanner`] (null when none is found).
fn scan_id(bytes: &[u8]) -> Value {
    let mut s = IdScanner::default();
    s.feed(bytes);
    s.id()
}

/// Finds the top-level `"id"` member of a JSON object without parsing it: one pass over the
/// bytes (fed in pieces of any size), tracking only string state and nesting depth, so it works
/// on lines that are too deep, too long or not UTF-8, in O(length) time and O(1) memory.
#[derive(Default)]
pub struct IdScanner {
    depth: usize,
    started: bool,
    in_string: bool,
    escaped: bool,
    /// At depth 1, the next string is a key.
    expect_key: bool,
    /// Bytes of the depth-1 key being read (only up to 3 are kept; "id" has 2).
    key: Vec<u8>,
    key_len: usize,
    state: IdState,
    value: Vec<u8>,
    found: Option<Value>,
}

#[derive(Default, PartialEq)]
enum IdState {
    #[default]
    Walking,
    /// Read the key `"id"`; expecting `:`.
    Colon,
    /// Expecting the value's first byte.
    Value,
    /// Inside a string value.
    StringValue { escaped: bool },
    /// Inside a number or `null`.
    Bare,
    /// Found, or the message is not an object.
    Done,
}

/// Longest id value kept, in bytes.
const MAX_ID_BYTES: usize = 256;

impl IdScanner {
    /// Scans more bytes of the message.
    pub fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if self.state == IdState::Done {
                return;
            }
            self.step(b);
        }
    }

    /// The id found so far (null when none).
    pub fn id(mut self) -> Value {
        if self.state == IdState::Bare {
            self.finish_value();
        }
        self.found.unwrap_or(Value::Null)
    }

    fn step(&mut self, b: u8) {
        match self.state {
            IdState::Done => {}
            IdState::Colon => match b {
                b':' => self.state = IdState::Value,
                b if b.is_ascii_whitespace() => {}
                _ => self.state = IdState::Done,
            },
            IdState::Value => match b {
                b'"' => {
                    self.value.push(b);
                    self.state = IdState::StringValue { escaped: false };
                }
                b'-' | b'0'..=b'9' | b'n' => {
                    self.value.push(b);
                    self.state = IdState::Bare;
                }
                b if b.is_ascii_whitespace() => {}
                _ => self.state = IdState::Done,
            },
            IdState::StringValue { escaped } => {
                if self.value.len() > MAX_ID_BYTES {
                    self.state = IdState::Done;
                    return;
                }
                self.value.push(b);
                match (escaped, b) {
                    (true, _) => self.state = IdState::StringValue { escaped: false },
                    (false, b'\\') => self.state = IdState::StringValue { escaped: true },
                    (false, b'"') => self.finish_value(),
                    _ => {}
                }
            }
            IdState::Bare => {
                if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.') {
                    if self.value.len() > MAX_ID_BYTES {
                        self.state = IdState::Done;
                    } else {
                        self.value.push(b);
                    }
                } else {
                    self.finish_value();
                }
            }
            IdState::Walking => self.walk(b),
        }
    }

    fn finish_value(&mut self) {
        self.found = serde_json::from_slice::<Value>(&self.value)
            .ok()
            .filter(|v| v.is_string() || v.is_number());
        self.state = IdState::Done;
    }

    fn walk(&mut self, b: u8) {
        if self.in_string {
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
            } else if b == b'"' {
                self.in_string = false;
                if self.depth == 1 && self.expect_key {
                    self.expect_key = false;
                    if self.key_len == 2 && self.key == b"id" {
                        self.state = IdState::Colon;
                    }
                }
            } else if self.depth == 1 && self.expect_key {
                self.key_len += 1;
                if self.key.len() < 3 {
                    self.key.push(b);
                }
            }
            return;
        }
        if !self.started {
            match b {
                b'{' => {
                    self.started = true;
                    self.depth = 1;
                    self.expect_key = true;
                }
                b if b.is_ascii_whitespace() => {}
                _ => self.state = IdState::Done,
            }
            return;
        }
        match b {
            b'"' => {
                self.in_string = true;
                self.key.clear();
                self.key_len = 0;
            }
            b'{' | b'[' => self.depth += 1,
            b'}' | b']' => {
                self.depth = self.depth.saturating_sub(1);
                if self.depth == 0 {
                    self.state = IdState::Done;
                }
            }
            b',' if self.depth == 1 => self.expect_key = true,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scanner_finds_top_level_ids_only() {
        assert_eq!(
            scan_id(br#"{"jsonrpc":"2.0","id":7,"method":"x"}"#),
            json!(7)
        );
        assert_eq!(scan_id(br#"{"id" : "a\"b", "x": NaN}"#), json!("a\"b"));
        assert_eq!(scan_id(br#"{"params":{"id":1},"id":-3}"#), json!(-3));
        assert_eq!(scan_id(br#"{"params":{"id":1}}"#), Value::Null);
        assert_eq!(scan_id(br#"{"x":"\"id\":4","idx":5}"#), Value::Null);
        assert_eq!(scan_id(br#"{"id":null}"#), Value::Null);
        assert_eq!(scan_id(br#"[{"id":1}]"#), Value::Null);
        let deep = format!("{{\"id\":9,\"p\":{}{}}}", "[".repeat(500), "]".repeat(500));
        assert_eq!(scan_id(deep.as_bytes()), json!(9));
        let mut invalid = br#"{"p":""#.to_vec();
        invalid.extend_from_slice(&[0xff, 0xfe]);
        invalid.extend_from_slice(br#"","id":"k"}"#);
        assert_eq!(scan_id(&invalid), json!("k"));
    }

    #[test]
    fn scanner_takes_input_in_pieces() {
        let msg = br#"{"method":"tools/call","params":{"arguments":{"id":0}},"id":12345}"#;
        for cut in 1..msg.len() {
            let mut s = IdScanner::default();
            s.feed(&msg[..cut]);
            s.feed(&msg[cut..]);
            assert_eq!(s.id(), json!(12345), "cut at {cut}");
        }
    }

    #[test]
    fn details_are_shortened() {
        let long = "x".repeat(10_000);
        assert!(short(&long).chars().count() <= MAX_DETAIL_CHARS + 1);
    }
}
