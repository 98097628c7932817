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
    CallToolResult, ClientJsonRpcMessage, IntoContents, ServerJsonRpcMessage, ServerResult,
};
use rmcp::transport::Transport;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

use super::transport_id::{IdScanner, scan_id};
use crate::error::ToolError;
use crate::lifecycle::refuse_before_initialize;

/// Longest line (one JSON-RPC message) read from the client, in bytes. The largest legitimate
/// message is a few kilobytes; this bounds parsing work and memory per message.
pub const MAX_LINE_BYTES: usize = 1024 * 1024;

/// JSON-RPC "parse error": the line is not JSON.
const PARSE_ERROR: i32 = -32700;
/// JSON-RPC "invalid request": JSON, but not a message we accept.
pub(crate) const INVALID_REQUEST: i32 = -32600;
/// Longest error detail we copy from a parser into an answer (never the input itself).
const MAX_DETAIL_CHARS: usize = 160;

/// The server side of MCP over the process's stdin and stdout through [`GuardedTransport`].
pub fn stdio() -> GuardedTransport<super::stdio::Reader, super::stdio::Writer> {
    GuardedTransport::new(super::stdio::reader(), super::stdio::writer())
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
        if !self.initialized
            && let Some(answer) = refuse_before_initialize(&value)
        {
            self.answer(answer);
            return None;
        }
        let starts = crate::lifecycle::starts_session(&value);
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
            ClientJsonRpcMessage::Request(_) if starts => self.initialized = true,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn details_are_shortened() {
        let long = "x".repeat(10_000);
        assert!(short(&long).chars().count() <= MAX_DETAIL_CHARS + 1);
    }
}
