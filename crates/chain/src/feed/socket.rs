//! The feed's one WebSocket subscription: `starknet_subscribeEvents` on the game's event source,
//! its notifications handed to the feed through a bounded channel. Params and notification as
//! the WebSocket API says (starknet-specs v0.8.0, `api/starknet_ws_api.json`: params
//! `from_address`, `keys`, `block_id`; notification `starknet_subscriptionEvents` with
//! `params.result` an `EMITTED_EVENT`), as starknet-devnet 0.10.1 serves them at `/ws`. A dropped
//! socket is subscribed again after a bounded backoff (the feed polls meanwhile); a refused
//! subscription, or one never made after [`MAX_FAILED_CONNECTS`] tries, leaves the feed polling.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use starknet::core::types::{Event, Felt};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use super::Emitted;
use crate::generation::EventSource;

/// The largest message read from the node; a bigger one closes the socket.
const MAX_MESSAGE: usize = 1 << 20;
/// Keys and data felts an event may have to be read (game events have far fewer).
const MAX_KEYS: usize = 16;
const MAX_DATA: usize = 4096;
/// Events held for the feed at most; past that they are counted lost and polled for.
pub(super) const CAPACITY: usize = 1024;
/// How long connecting and the subscription's answer may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
/// The wait before subscribing again, doubled after each failure up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(500);
const MAX_BACKOFF: Duration = Duration::from_secs(30);
/// Connection attempts in a row that never subscribe before the feed gives the socket up.
const MAX_FAILED_CONNECTS: u32 = 5;

/// Why the subscription stopped.
#[derive(Debug, thiserror::Error)]
pub(super) enum SocketError {
    /// Connecting, reading or writing failed, or the node closed the socket.
    #[error("the event subscription's socket failed: {0}")]
    Dropped(String),
    /// The node answered the subscription with an error.
    #[error("the node refused the event subscription: {0}")]
    Refused(String),
}

/// A message from the node that is not one of ours, or not as the API says.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum BadMessage {
    /// Not JSON, or an event notification whose fields are not as the API says.
    #[error("malformed message from the node: {0}")]
    Malformed(String),
    /// An event with more keys or data than any game event has.
    #[error("an event with {keys} keys and {data} data felts is past the bound")]
    TooLarge {
        /// Its keys.
        keys: usize,
        /// Its data felts.
        data: usize,
    },
}

/// What one message from the node says.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Parsed {
    /// The answer to our subscription request: its error, if refused.
    Answer(Option<String>),
    /// An event notification.
    Event(Emitted),
    /// Anything else (a reorg, another method): nothing to do.
    Other,
}

/// One event of an `starknet_subscriptionEvents` notification (`EMITTED_EVENT`).
#[derive(Deserialize)]
struct Notified {
    from_address: Felt,
    keys: Vec<Felt>,
    data: Vec<Felt>,
    #[serde(default)]
    block_number: Option<u64>,
    transaction_hash: Felt,
}

/// Reads one text message from the node, within the bounds.
pub(super) fn parse(text: &str) -> Result<Parsed, BadMessage> {
    let v: Value = serde_json::from_str(text).map_err(|e| BadMessage::Malformed(e.to_string()))?;
    if v.get("id") == Some(&json!(1)) {
        return Ok(Parsed::Answer(v.get("error").map(Value::to_string)));
    }
    if v.get("method").and_then(Value::as_str) != Some("starknet_subscriptionEvents") {
        return Ok(Parsed::Other);
    }
    let result = v
        .get("params")
        .and_then(|p| p.get("result"))
        .cloned()
        .ok_or_else(|| BadMessage::Malformed("an event notification without a result".into()))?;
    let n: Notified =
        serde_json::from_value(result).map_err(|e| BadMessage::Malformed(e.to_string()))?;
    if n.keys.len() > MAX_KEYS || n.data.len() > MAX_DATA {
        return Err(BadMessage::TooLarge {
            keys: n.keys.len(),
            data: n.data.len(),
        });
    }
    Ok(Parsed::Event(Emitted {
        block: n.block_number,
        tx_hash: n.transaction_hash,
        event: Event {
            from_address: n.from_address,
            keys: n.keys,
            data: n.data,
        },
    }))
}

/// The subscription request for `source`.
pub(super) fn request(source: &EventSource) -> Value {
    let hex = |f: &Felt| format!("{f:#x}");
    let keys: Vec<Vec<String>> = source
        .keys
        .iter()
        .map(|k| k.iter().map(hex).collect())
        .collect();
    json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "starknet_subscribeEvents",
        "params": {"from_address": hex(&source.address), "keys": keys},
    })
}

/// What the socket's task shares with the feed beside the events.
#[derive(Debug, Default)]
pub(super) struct Status {
    /// Whether a subscription is live now.
    pub(super) up: AtomicBool,
    /// How many subscriptions were made (a new one: the feed polls once for the gap).
    pub(super) subscriptions: AtomicU64,
    /// The socket was given up: the feed polls from now on.
    pub(super) given_up: AtomicBool,
    /// The lowest block of an event dropped on a full channel (`u64::MAX`: none).
    pub(super) lost_from: AtomicU64,
}

/// The running subscription; dropping it ends the task and closes the socket.
pub(super) struct Handle {
    pub(super) events: mpsc::Receiver<Emitted>,
    pub(super) status: Arc<Status>,
    task: tokio::task::AbortHandle,
}

impl Drop for Handle {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Subscribes to `source` on `url` in a task of its own, again after each drop.
pub(super) fn spawn(url: url::Url, source: EventSource) -> Handle {
    let (tx, events) = mpsc::channel(CAPACITY);
    let status = Arc::new(Status {
        lost_from: AtomicU64::new(u64::MAX),
        ..Status::default()
    });
    let task = tokio::spawn(run(url, source, tx, status.clone())).abort_handle();
    Handle {
        events,
        status,
        task,
    }
}

async fn run(url: url::Url, source: EventSource, tx: mpsc::Sender<Emitted>, status: Arc<Status>) {
    let shown = base::redact::shown_url(&url);
    let (mut backoff, mut failed) = (FIRST_BACKOFF, 0);
    loop {
        let subscribed_before = status.subscriptions.load(Ordering::SeqCst);
        let ended = session(&url, &source, &tx, &status).await;
        status.up.store(false, Ordering::SeqCst);
        if tx.is_closed() {
            return;
        }
        if status.subscriptions.load(Ordering::SeqCst) > subscribed_before {
            (backoff, failed) = (FIRST_BACKOFF, 0);
        } else {
            failed += 1;
        }
        match ended {
            Err(SocketError::Refused(e)) => {
                tracing::info!(endpoint = %shown, "{e}; the game's changes are polled");
                status.given_up.store(true, Ordering::SeqCst);
                return;
            }
            Err(e) if failed >= MAX_FAILED_CONNECTS => {
                tracing::info!(endpoint = %shown, "{e}; gave the socket up after {failed} tries, the game's changes are polled");
                status.given_up.store(true, Ordering::SeqCst);
                return;
            }
            Err(e) => {
                tracing::info!(endpoint = %shown, "{e}; polling, subscribing again in {backoff:?}");
            }
            Ok(()) => return,
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(MAX_BACKOFF);
    }
}

/// One connection: subscribes, then forwards events until the socket fails; `Ok` when the feed
/// is gone.
async fn session(
    url: &url::Url,
    source: &EventSource,
    tx: &mpsc::Sender<Emitted>,
    status: &Status,
) -> Result<(), SocketError> {
    let dropped =
        |e: &dyn std::fmt::Display| SocketError::Dropped(base::redact::redact_urls(&e.to_string()));
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE));
    let (mut socket, _) = tokio::time::timeout(
        CONNECT_TIMEOUT,
        tokio_tungstenite::connect_async_with_config(url.as_str(), Some(config), false),
    )
    .await
    .map_err(|e| dropped(&e))?
    .map_err(|e| dropped(&e))?;
    socket
        .send(Message::text(request(source).to_string()))
        .await
        .map_err(|e| dropped(&e))?;
    let mut subscribed = false;
    loop {
        let next = if subscribed {
            socket.next().await
        } else {
            tokio::time::timeout(CONNECT_TIMEOUT, socket.next())
                .await
                .map_err(|e| dropped(&e))?
        };
        let text = match next {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Close(_))) | None => {
                return Err(SocketError::Dropped("the node closed the socket".into()));
            }
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(dropped(&e)),
        };
        match parse(&text) {
            Ok(Parsed::Answer(Some(error))) => return Err(SocketError::Refused(error)),
            Ok(Parsed::Answer(None)) => {
                subscribed = true;
                status.subscriptions.fetch_add(1, Ordering::SeqCst);
                status.up.store(true, Ordering::SeqCst);
            }
            Ok(Parsed::Event(e)) => match tx.try_send(e) {
                Ok(()) => {}
                Err(mpsc::error::TrySendError::Full(e)) => {
                    let block = e.block.unwrap_or(0);
                    status.lost_from.fetch_min(block, Ordering::SeqCst);
                }
                Err(mpsc::error::TrySendError::Closed(_)) => return Ok(()),
            },
            Ok(Parsed::Other) => {}
            Err(e) => tracing::debug!("{e}; skipped"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_notification_is_read_with_its_block_and_transaction() {
        let text = r#"{"jsonrpc":"2.0","method":"starknet_subscriptionEvents","params":{
            "subscription_id":"0x5","result":{"from_address":"0x12","keys":["0x1","0x2"],
            "data":["0x3"],"block_hash":"0xab","block_number":7,"transaction_hash":"0x99",
            "finality_status":"ACCEPTED_ON_L2"}}}"#;
        let Ok(Parsed::Event(e)) = parse(text) else {
            panic!("an event");
        };
        assert_eq!(e.block, Some(7));
        assert_eq!(e.tx_hash, Felt::from(0x99u32));
        assert_eq!(e.event.from_address, Felt::from(0x12u32));
        assert_eq!(e.event.keys, vec![Felt::ONE, Felt::TWO]);
        assert_eq!(e.event.data, vec![Felt::THREE]);
    }

    #[test]
    fn answers_other_methods_and_bad_messages_are_told_apart() {
        assert_eq!(
            parse(r#"{"jsonrpc":"2.0","id":1,"result":"0x7"}"#),
            Ok(Parsed::Answer(None))
        );
        let Ok(Parsed::Answer(Some(e))) =
            parse(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}"#)
        else {
            panic!("a refusal");
        };
        assert!(e.contains("-32601"), "{e}");
        let reorg = r#"{"jsonrpc":"2.0","method":"starknet_subscriptionReorg","params":{}}"#;
        assert_eq!(parse(reorg), Ok(Parsed::Other));
        assert!(matches!(parse("not json"), Err(BadMessage::Malformed(_))));
        let no_hash = r#"{"method":"starknet_subscriptionEvents","params":{"result":
            {"from_address":"0x1","keys":[],"data":[]}}}"#;
        assert!(matches!(parse(no_hash), Err(BadMessage::Malformed(_))));
        let bad_felt = r#"{"method":"starknet_subscriptionEvents","params":{"result":
            {"from_address":"zz","keys":[],"data":[],"transaction_hash":"0x1"}}}"#;
        assert!(matches!(parse(bad_felt), Err(BadMessage::Malformed(_))));
    }

    #[test]
    fn events_past_the_bounds_are_refused() {
        let keys: Vec<String> = (0..=MAX_KEYS).map(|i| format!("{i:#x}")).collect();
        let text = json!({"method": "starknet_subscriptionEvents", "params": {"result": {
            "from_address": "0x1", "keys": keys, "data": [], "transaction_hash": "0x2"}}})
        .to_string();
        assert_eq!(
            parse(&text),
            Err(BadMessage::TooLarge {
                keys: MAX_KEYS + 1,
                data: 0
            })
        );
    }

    #[test]
    fn the_request_names_the_source_and_its_keys() {
        let source = EventSource {
            address: Felt::from(0xabu32),
            keys: vec![vec![Felt::ONE], vec![Felt::TWO, Felt::THREE]],
        };
        assert_eq!(
            request(&source)["params"],
            json!({"from_address": "0xab", "keys": [["0x1"], ["0x2", "0x3"]]})
        );
        assert_eq!(request(&source)["method"], "starknet_subscribeEvents");
    }
}
