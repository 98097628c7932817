//! A request that comes before `initialize`. rmcp 3.9 reads such a request as the start of the
//! 2026-07-28 inline lifecycle and refuses it for missing `_meta` keys (-32602), which tells a
//! client of the classic lifecycle nothing it can act on. Unless the request does carry the
//! inline lifecycle's protocol version, it is answered here with what to do instead.

use serde_json::{Value, json};

use crate::transport::INVALID_REQUEST;

/// The `_meta` key that marks a request of the inline (initialize-free) lifecycle.
const INLINE_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";

/// Whether `message` (a parsed JSON-RPC object) starts a session: an `initialize`, a
/// `server/discover`, or a request of the inline lifecycle (its `_meta` names the protocol
/// version), after which the client's notifications (a cancellation) are the session's too.
pub(crate) fn starts_session(message: &Value) -> bool {
    let Some(method) = message.get("method").and_then(Value::as_str) else {
        return false;
    };
    let inline = message
        .get("params")
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(INLINE_PROTOCOL_VERSION))
        .is_some();
    message.get("id").is_some() && (matches!(method, "initialize" | "server/discover") || inline)
}

/// What a session that has not been initialized answers `message` (a parsed JSON-RPC object):
/// `None` when it goes on to the server (an `initialize`, a `ping` (allowed before it), a
/// discovery, a request of the inline lifecycle, or anything that is not a request).
pub(crate) fn refuse_before_initialize(message: &Value) -> Option<Value> {
    let id = message.get("id")?;
    let method = message.get("method")?.as_str()?;
    if method == "ping" || starts_session(message) {
        return None;
    }
    Some(json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {
            "code": INVALID_REQUEST,
            "message": format!(
                "`{method}` before `initialize`: start the session with an `initialize` request, \
                 then send `notifications/initialized`, then this request"
            ),
        },
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_call_before_initialize_is_told_to_initialize_with_its_id() {
        let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
            "params": {"name": "ls_get_adventurer", "arguments": {"adventurer_id": 1}}});
        let answer = refuse_before_initialize(&call).expect("refused");
        assert_eq!(answer["id"], 7);
        assert_eq!(answer["error"]["code"], -32600);
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("`tools/call` before `initialize`"),
            "{message}"
        );
    }

    #[test]
    fn initialize_discovery_inline_requests_and_notifications_go_on() {
        for message in [
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}),
            json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover"}),
            json!({"jsonrpc": "2.0", "id": "up", "method": "ping"}),
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
                "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}}),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        ] {
            assert_eq!(refuse_before_initialize(&message), None, "{message}");
        }
    }

    #[test]
    fn a_discovery_or_an_inline_request_starts_a_session_and_a_ping_or_notification_does_not() {
        let inline = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
            "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}});
        assert!(starts_session(&inline));
        assert!(starts_session(
            &json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover"})
        ));
        assert!(starts_session(
            &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}})
        ));
        for not in [
            json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": 2}}),
        ] {
            assert!(!starts_session(&not), "{not}");
        }
    }
}
