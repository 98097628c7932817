//! The MCP `logging` capability: after `logging/setLevel`, the server's own log events at or above
//! that level also go to the client as `notifications/message`, through a `tracing` layer; stderr
//! logging is unchanged. Every subscribed client of the process gets the process's events (one
//! client per stdio process). Nothing is sent before the client asks (results already fill a model's
//! context). rmcp marks MCP logging deprecated (SEP-2577) but clients still use it, hence the
//! `allow(deprecated)`.
#![allow(deprecated)]

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, Weak};

use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};
use rmcp::{Peer, RoleServer};
use serde_json::{Map, Value};
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::Layer;
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::util::SubscriberInitExt;

/// Our crates' events (every target under `loot_survivor_`) are the only ones forwarded (never
/// rmcp's own, which would loop).
const TARGET: &str = "loot_survivor_";

/// Clients that asked for log messages, each with its level.
static SINKS: Mutex<Vec<Weak<Sink>>> = Mutex::new(Vec::new());
/// Whether any client ever asked (a cheap check on every event).
static ANY: AtomicBool = AtomicBool::new(false);

struct Sink {
    level: AtomicU8,
    tx: tokio::sync::mpsc::UnboundedSender<LoggingMessageNotificationParam>,
}

/// One connection's log subscription; dropped with the connection's server.
#[derive(Clone, Default)]
pub struct ClientLog {
    sink: Arc<Mutex<Option<Arc<Sink>>>>,
}

impl ClientLog {
    /// Sends this client our log messages at `level` and above (from now on).
    pub fn set_level(&self, level: LoggingLevel, peer: Peer<RoleServer>) {
        let mut current = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(sink) = current.as_ref() {
            sink.level.store(rank(level), Ordering::Relaxed);
            return;
        }
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let sink = Arc::new(Sink {
            level: AtomicU8::new(rank(level)),
            tx,
        });
        tokio::spawn(async move {
            while let Some(message) = rx.recv().await {
                if peer.notify_logging_message(message).await.is_err() {
                    break;
                }
            }
        });
        let mut sinks = SINKS.lock().unwrap_or_else(|e| e.into_inner());
        sinks.retain(|s| s.strong_count() > 0);
        sinks.push(Arc::downgrade(&sink));
        ANY.store(true, Ordering::Relaxed);
        *current = Some(sink);
    }
}

fn rank(level: LoggingLevel) -> u8 {
    level as u8
}

fn level_of(level: &Level) -> LoggingLevel {
    match *level {
        Level::ERROR => LoggingLevel::Error,
        Level::WARN => LoggingLevel::Warning,
        Level::INFO => LoggingLevel::Info,
        _ => LoggingLevel::Debug,
    }
}

/// The `tracing` layer that forwards our events to the subscribed clients.
#[derive(Debug, Default, Clone, Copy)]
pub struct ForwardToClients;

impl<S: Subscriber> Layer<S> for ForwardToClients {
    fn on_event(&self, event: &Event<'_>, _ctx: Context<'_, S>) {
        let meta = event.metadata();
        if !ANY.load(Ordering::Relaxed) || !meta.target().starts_with(TARGET) {
            return;
        }
        let level = level_of(meta.level());
        let sinks: Vec<Arc<Sink>> = SINKS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter_map(Weak::upgrade)
            .filter(|s| rank(level) >= s.level.load(Ordering::Relaxed))
            .collect();
        if sinks.is_empty() {
            return;
        }
        let mut fields = Fields(Map::new());
        event.record(&mut fields);
        let message = LoggingMessageNotificationParam::new(level, Value::Object(fields.0))
            .with_logger(meta.target());
        for sink in sinks {
            let _ = sink.tx.send(message.clone());
        }
    }
}

struct Fields(Map<String, Value>);

impl Visit for Fields {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let text = format!("{value:?}");
        self.0.insert(
            field.name().to_string(),
            Value::String(base::redact::hide_credentials(&text).into_owned()),
        );
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(
            field.name().to_string(),
            base::redact::hide_credentials(value).into_owned().into(),
        );
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.0.insert(field.name().to_string(), value.into());
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.0.insert(field.name().to_string(), value.into());
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.0.insert(field.name().to_string(), value.into());
    }
}

/// The stderr filter when `RUST_LOG` is unset: `default` for everything, but rmcp's handshake and
/// notification dumps (target `rmcp::service`, at INFO) only from WARN.
pub fn default_filter(default: &str) -> String {
    format!("{default},rmcp=warn")
}

/// Installs the process's logging: stderr (filtered by `RUST_LOG`, else [`default_filter`]) plus
/// the forwarding to MCP clients. Does nothing if a subscriber is already installed.
pub fn init(default: &str) {
    let stderr = tracing_subscriber::fmt::layer()
        .with_writer(|| HidingWriter(std::io::stderr()))
        .with_ansi(false)
        .with_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default_filter(default))),
        );
    let forward = ForwardToClients.with_filter(tracing_subscriber::filter::filter_fn(|m| {
        m.target().starts_with(TARGET)
    }));
    let _ = tracing_subscriber::registry()
        .with(stderr)
        .with(forward)
        .try_init();
}

/// Stderr with URL credentials hidden in every line, whichever crate logged it (a dependency
/// may log a request line or a URL at DEBUG or TRACE): one formatted event per write.
struct HidingWriter<W>(W);

impl<W: std::io::Write> std::io::Write for HidingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let text = String::from_utf8_lossy(buf);
        match base::redact::hide_credentials(&text) {
            std::borrow::Cow::Borrowed(_) => self.0.write_all(buf)?,
            std::borrow::Cow::Owned(hidden) => self.0.write_all(hidden.as_bytes())?,
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_rank_like_syslog() {
        assert!(rank(LoggingLevel::Debug) < rank(LoggingLevel::Info));
        assert!(rank(LoggingLevel::Info) < rank(LoggingLevel::Warning));
        assert!(rank(LoggingLevel::Warning) < rank(LoggingLevel::Error));
        assert_eq!(level_of(&Level::TRACE), LoggingLevel::Debug);
        assert_eq!(level_of(&Level::WARN), LoggingLevel::Warning);
    }

    #[test]
    fn the_log_writer_hides_url_credentials() {
        use std::io::Write;
        let mut w = HidingWriter(Vec::new());
        w.write_all(b"endpoint=ws://127.0.0.1:9/ws?apikey=KEY123 ok\n")
            .unwrap();
        let out = String::from_utf8(w.0).unwrap();
        assert_eq!(out, "endpoint=ws://127.0.0.1:9/ws?apikey=<hidden> ok\n");
    }

    #[test]
    fn rmcp_is_quiet_by_default() {
        let f = default_filter("info");
        assert!(f.starts_with("info") && f.contains("rmcp=warn"), "{f}");
        assert!(tracing_subscriber::EnvFilter::try_new(&f).is_ok());
    }
}
