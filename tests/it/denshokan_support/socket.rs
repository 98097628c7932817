//! The stand-in's WebSocket, `GET /ws` as Provable-Games/denshokan at `aa8eb22` mounts it
//! (`api/src/index.ts`) and speaks it (`api/src/ws/subscriptions.ts`, `handleWSConnection`): a
//! `subscribe` naming channels is answered `{"type":"subscribed","channels":[…]}` with the
//! server's channel names (its `CHANNEL_MAP`), `ping` with `{"type":"pong"}`, `unsubscribe` with
//! `{"type":"unsubscribed","channels":[…]}`, and text that is not JSON with
//! `{"type":"error","message":"Invalid message format"}`. What it pushes is written out by the
//! test itself ([`super::FakeDenshokan::push`]) and sent as is to every subscribed connection.
//! Each connection is counted, what it sent is kept, and its close is seen; the test may drop
//! every connection at once.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::extract::State as Shared;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::State;

/// `CHANNEL_MAP` of `api/src/ws/subscriptions.ts`: the friendly names clients send, and the
/// Postgres channels the server's answers name.
const CHANNEL_MAP: [(&str, &str); 8] = [
    ("tokens", "token_updates"),
    ("scores", "score_updates"),
    ("game_over", "game_over_events"),
    ("mints", "new_tokens"),
    ("games", "new_games"),
    ("minters", "new_minters"),
    ("settings", "new_settings"),
    ("objectives", "new_objectives"),
];

/// `GET /ws`: logged like every request; upgraded unless the stand-in plays an API without the
/// route (Hono's default 404 then).
pub(crate) async fn route(
    Shared(s): Shared<Arc<State>>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    s.log
        .lock()
        .unwrap()
        .push(super::routes::logged("/ws".into(), Vec::new(), &headers));
    if s.no_socket.load(Ordering::SeqCst) {
        return super::routes::text(404, "404 Not Found");
    }
    ws.on_upgrade(move |socket| connection(socket, s))
        .into_response()
}

/// One connection: answers its messages, forwards the pushes once it subscribed, and counts it
/// open until it closes.
async fn connection(mut socket: WebSocket, s: Arc<State>) {
    s.sockets_opened.fetch_add(1, Ordering::SeqCst);
    s.sockets_open.fetch_add(1, Ordering::SeqCst);
    let mut pushes = s.pushes.0.subscribe();
    let mut subscribed: Vec<&'static str> = Vec::new();
    loop {
        tokio::select! {
            got = socket.recv() => {
                let text = match got {
                    Some(Ok(Message::Text(t))) => t.to_string(),
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => continue,
                };
                s.socket_received.lock().unwrap().push(text.clone());
                let was = !subscribed.is_empty();
                let Some(answer) = answer(&text, &mut subscribed) else {
                    continue;
                };
                match (was, !subscribed.is_empty()) {
                    (false, true) => s.sockets_subscribed.fetch_add(1, Ordering::SeqCst),
                    (true, false) => s.sockets_subscribed.fetch_sub(1, Ordering::SeqCst),
                    _ => 0,
                };
                if socket.send(Message::text(answer.to_string())).await.is_err() {
                    break;
                }
            }
            () = s.kick.notified() => break,
            push = pushes.recv() => {
                let Ok(text) = push else { continue };
                if !subscribed.is_empty() && socket.send(Message::text(text)).await.is_err() {
                    break;
                }
            }
        }
    }
    if !subscribed.is_empty() {
        s.sockets_subscribed.fetch_sub(1, Ordering::SeqCst);
    }
    s.sockets_open.fetch_sub(1, Ordering::SeqCst);
}

/// The answer to one message (`ws.on("message")`), if it gets one; `subscribed` keeps the
/// server's channel names this connection follows.
fn answer(text: &str, subscribed: &mut Vec<&'static str>) -> Option<Value> {
    let Ok(msg) = serde_json::from_str::<Value>(text) else {
        return Some(json!({ "type": "error", "message": "Invalid message format" }));
    };
    let channels: Vec<&'static str> = msg["channels"]
        .as_array()
        .map(|names| {
            names
                .iter()
                .filter_map(|n| CHANNEL_MAP.iter().find(|(f, _)| Some(*f) == n.as_str()))
                .map(|(_, pg)| *pg)
                .collect()
        })
        .unwrap_or_default();
    match msg["type"].as_str() {
        Some("subscribe") if msg["channels"].is_array() => {
            for c in channels {
                if !subscribed.contains(&c) {
                    subscribed.push(c);
                }
            }
            Some(json!({ "type": "subscribed", "channels": subscribed }))
        }
        Some("ping") => Some(json!({ "type": "pong" })),
        Some("unsubscribe") if msg["channels"].is_array() => {
            subscribed.retain(|c| !channels.contains(c));
            Some(json!({ "type": "unsubscribed", "channels": subscribed }))
        }
        _ => None,
    }
}
