//! Following a transaction by push instead of polling: `starknet_subscribeTransactionStatus`
//! (JSON-RPC 0.8+) over a WebSocket. The node answers with the subscription id, then sends the
//! current status at once and every change after it, so a transaction already in a block is
//! known after one round trip and a pending one without polling. starknet-rs 0.17 has no
//! WebSocket client, so this speaks the two messages it needs over tokio-tungstenite. Plain
//! `ws://` only (local nodes: devnet serves `ws://host:port/ws`); anything else is polled.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use starknet::core::types::Felt;
use tokio_tungstenite::tungstenite::Message;

use super::Confirm;
use super::progress::{Hooks, Progress};
use super::revert::classify;
use super::{ChainError, TxStatus};

/// How a sent transaction is followed (setting `tx.follow`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Follow {
    /// Subscribe where a WebSocket endpoint is known (`tx.ws_url`, or `/ws` on a loopback RPC
    /// URL), polling when it fails.
    #[default]
    Auto,
    /// Always subscribe (needs an endpoint); polling only when the subscription fails.
    Subscribe,
    /// Always poll.
    Poll,
}

/// How long connecting and subscribing may take before the write falls back to polling.
const SUBSCRIBE_TIMEOUT: Duration = Duration::from_secs(2);

/// The WebSocket endpoint to follow transactions on, if any: `ws_url` when set, else (for
/// `Auto` and `Subscribe`) `ws://host:port/ws` for an `http://` RPC URL on a loopback host.
pub fn endpoint(follow: Follow, rpc_url: &url::Url, ws_url: Option<&url::Url>) -> Option<url::Url> {
    if follow == Follow::Poll {
        return None;
    }
    if let Some(ws) = ws_url {
        return (ws.scheme() == "ws").then(|| ws.clone());
    }
    let loopback = matches!(
        rpc_url.host(),
        Some(url::Host::Ipv4(ip)) if ip.is_loopback()
    ) || matches!(rpc_url.host(), Some(url::Host::Ipv6(ip)) if ip.is_loopback())
        || rpc_url.host_str() == Some("localhost");
    if rpc_url.scheme() != "http" || !loopback {
        return None;
    }
    let mut ws = rpc_url.clone();
    ws.set_scheme("ws").ok()?;
    ws.set_path("/ws");
    Some(ws)
}

/// Why a subscription could not follow a transaction (the caller polls instead).
#[derive(Debug, thiserror::Error)]
#[error("transaction subscription unavailable: {0}")]
pub struct Unavailable(String);

/// A WebSocket endpoint to follow transactions on, remembered as broken after a failure in
/// `Auto` mode (so a node without subscriptions costs one failed attempt per run, not per write).
#[derive(Debug)]
pub struct Subscriber {
    url: url::Url,
    follow: Follow,
    broken: std::sync::atomic::AtomicBool,
}

impl Subscriber {
    /// A subscriber for `follow` on the endpoint [`endpoint`] derives, if any.
    pub fn new(follow: Follow, rpc_url: &url::Url, ws_url: Option<&url::Url>) -> Option<Self> {
        endpoint(follow, rpc_url, ws_url).map(|url| Self {
            url,
            follow,
            broken: Default::default(),
        })
    }

    /// The WebSocket endpoint.
    pub fn url(&self) -> &url::Url {
        &self.url
    }

    /// Follows `hash` by subscription; `None` when the endpoint cannot (poll instead).
    pub async fn wait(&self, hash: Felt, confirm: Confirm, hooks: &Hooks) -> Option<Seen> {
        use std::sync::atomic::Ordering;
        if self.broken.load(Ordering::Relaxed) {
            return None;
        }
        match wait_for_status(&self.url, hash, confirm, hooks).await {
            Ok(seen) => Some(seen),
            Err(e) => {
                tracing::info!("{e}; polling instead");
                if self.follow == Follow::Auto {
                    self.broken.store(true, Ordering::Relaxed);
                }
                None
            }
        }
    }
}

/// What the subscription saw.
pub enum Seen {
    /// The transaction reached the level asked for and executed successfully; its last status.
    Reached(TxStatus),
    /// The transaction reverted (an error at every level).
    Failed(ChainError),
}

/// Waits on `ws` until `hash` reaches `confirm` (reporting each new status), without a deadline
/// of its own: the caller bounds it. Fails with [`Unavailable`] when the endpoint cannot serve.
pub async fn wait_for_status(
    ws: &url::Url,
    hash: Felt,
    confirm: Confirm,
    hooks: &Hooks,
) -> Result<Seen, Unavailable> {
    let unavailable =
        |e: &dyn std::fmt::Display| Unavailable(base::redact::redact_urls(&e.to_string()));
    let (mut socket, _) = tokio::time::timeout(
        SUBSCRIBE_TIMEOUT,
        tokio_tungstenite::connect_async(ws.as_str()),
    )
    .await
    .map_err(|e| unavailable(&e))?
    .map_err(|e| unavailable(&e))?;
    let request = json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "starknet_subscribeTransactionStatus",
        "params": {"transaction_hash": format!("{hash:#x}")},
    });
    socket
        .send(Message::text(request.to_string()))
        .await
        .map_err(|e| unavailable(&e))?;
    let mut subscribed = false;
    let mut last = TxStatus::NotReceived;
    loop {
        let next = if subscribed {
            socket.next().await
        } else {
            tokio::time::timeout(SUBSCRIBE_TIMEOUT, socket.next())
                .await
                .map_err(|e| unavailable(&e))?
        };
        let message = match next {
            Some(Ok(m)) => m,
            Some(Err(e)) => return Err(unavailable(&e)),
            None => return Err(Unavailable("the node closed the subscription".into())),
        };
        let Message::Text(text) = message else {
            continue;
        };
        let v: Value = serde_json::from_str(&text).map_err(|e| unavailable(&e))?;
        if v.get("id") == Some(&json!(1)) {
            if let Some(e) = v.get("error") {
                return Err(Unavailable(format!("subscribe refused: {e}")));
            }
            subscribed = true;
            continue;
        }
        let status = &v["params"]["result"]["status"];
        let Some(finality) = status["finality_status"].as_str() else {
            continue;
        };
        let seen = TxStatus::parse(finality);
        if let Some(name) = seen
            && name != last
        {
            hooks.report(Progress::Status {
                tx_hash: hash,
                status: name,
            });
            last = name;
        }
        if status["execution_status"] == "REVERTED" {
            let reason = status["failure_reason"].as_str().unwrap_or("reverted");
            let _ = socket.close(None).await;
            return Ok(Seen::Failed(ChainError::Revert {
                revert: classify(reason),
                tx_hash: Some(hash),
            }));
        }
        let executed = status["execution_status"] == "SUCCEEDED";
        let reached = seen
            .is_some_and(|s| s.finality_rank() >= TxStatus::reached_by(confirm).finality_rank());
        if executed && reached {
            let _ = socket.close(None).await;
            return Ok(Seen::Reached(last));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> url::Url {
        s.parse().unwrap()
    }

    #[test]
    fn endpoints_are_derived_only_for_local_http_nodes() {
        let local = url("http://127.0.0.1:5050/");
        assert_eq!(
            endpoint(Follow::Auto, &local, None).unwrap().as_str(),
            "ws://127.0.0.1:5050/ws"
        );
        assert_eq!(endpoint(Follow::Poll, &local, None), None);
        let remote = url("https://api.cartridge.gg/x/starknet/mainnet");
        assert_eq!(endpoint(Follow::Auto, &remote, None), None);
        let given = url("ws://10.0.0.2:9545/ws");
        assert_eq!(
            endpoint(Follow::Subscribe, &remote, Some(&given)),
            Some(given)
        );
        assert_eq!(
            endpoint(Follow::Auto, &remote, Some(&url("wss://x/ws"))),
            None,
            "no TLS: wss is polled"
        );
    }

    #[test]
    fn follow_parses_from_snake_case() {
        let f: Follow = serde_json::from_str("\"subscribe\"").unwrap();
        assert_eq!(f, Follow::Subscribe);
        assert_eq!(Follow::default(), Follow::Auto);
    }
}
