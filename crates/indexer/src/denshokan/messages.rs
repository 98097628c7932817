//! The messages of the Denshokan API's WebSocket, as Provable-Games/denshokan at commit
//! `aa8eb22` speaks them (`api/src/ws/subscriptions.ts`, `handleWSConnection` and `broadcast`;
//! the pushed `data` is the trigger's payload in `indexer/migrations/0008_fix_ws_numeric_precision.sql`).
//! A client sends `{"type":"subscribe","channels":[…],"gameIds":[…]}` and is answered
//! `{"type":"subscribed","channels":[…]}` naming the server's own channel names (`token_updates`
//! for `tokens`); each change then comes as `{"channel":"tokens","data":{…},"_timing":{…}}`, its
//! `data` holding `token_id` (a decimal string), `game_id` and `type` (`score_update`,
//! `game_over` or `minted`). Anything else is read as not ours.

use game::AdventurerId;
use serde_json::{Value, json};

use crate::change_stream::{ChangeKind, IndexChange};
use crate::torii::snippet;

/// The channel followed: one message per score update, game over and mint of a token.
pub(super) const CHANNEL: &str = "tokens";
/// The server's name for [`CHANNEL`], as its `subscribed` answer lists it.
const SERVER_CHANNEL: &str = "token_updates";
/// The longest message read; the API's are a few hundred bytes, a longer one is skipped.
pub(super) const MAX_MESSAGE: usize = 16 << 10;

/// What one message from the API says.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Parsed {
    /// The answer to our `subscribe`: the channel is followed.
    Subscribed,
    /// A change of one of this game's tokens.
    Change(IndexChange),
    /// The API said our message was not understood (its `error` message).
    Refused(String),
}

/// A message that is not one of ours, or not as the API writes it; skipped.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum BadMessage {
    /// Longer than [`MAX_MESSAGE`].
    #[error("a message of {0} bytes, past the bound of {MAX_MESSAGE}")]
    TooLarge(usize),
    /// Not JSON, or a change whose fields are not as the API writes them.
    #[error("a malformed message: {0}")]
    Malformed(String),
    /// Well-formed, but nothing this client asked for (another channel, kind or game).
    #[error("a message not followed: {0}")]
    Other(String),
}

/// The `subscribe` message for game `game_id`'s token changes (`gameIds` are strings upstream).
pub(super) fn subscribe(game_id: u32) -> String {
    json!({"type": "subscribe", "channels": [CHANNEL], "gameIds": [game_id.to_string()]})
        .to_string()
}

/// Reads one text message for game `game_id`, within the bounds.
pub(super) fn parse(text: &str, game_id: u32) -> Result<Parsed, BadMessage> {
    if text.len() > MAX_MESSAGE {
        return Err(BadMessage::TooLarge(text.len()));
    }
    let v: Value = serde_json::from_str(text).map_err(|e| BadMessage::Malformed(e.to_string()))?;
    let Some(obj) = v.as_object() else {
        return Err(BadMessage::Malformed("not a JSON object".into()));
    };
    if let Some(kind) = obj.get("type") {
        return match kind.as_str() {
            Some("subscribed") if lists_our_channel(&v) => Ok(Parsed::Subscribed),
            Some("subscribed") => Err(BadMessage::Malformed(format!(
                "subscribed without `{SERVER_CHANNEL}`"
            ))),
            Some("error") => Ok(Parsed::Refused(snippet(
                v["message"].as_str().unwrap_or("(no message)"),
            ))),
            _ => Err(BadMessage::Other(format!("type {}", shown(kind)))),
        };
    }
    match obj.get("channel").and_then(Value::as_str) {
        Some(CHANNEL) => {}
        Some(other) => return Err(BadMessage::Other(format!("channel {}", snippet(other)))),
        None => return Err(BadMessage::Other("neither `type` nor `channel`".into())),
    }
    let data = obj
        .get("data")
        .filter(|d| d.is_object())
        .ok_or_else(|| BadMessage::Malformed("a change without a `data` object".into()))?;
    if let Some(g) = data.get("game_id").filter(|g| !g.is_null())
        && !same_game(g, game_id)
    {
        return Err(BadMessage::Other(format!("game {}", shown(g))));
    }
    let kind = match data.get("type").and_then(Value::as_str) {
        Some("score_update") => ChangeKind::Score,
        Some("game_over") => ChangeKind::GameOver,
        Some("minted") => ChangeKind::Minted,
        _ => return Err(BadMessage::Other(format!("kind {}", shown(&data["type"])))),
    };
    let adventurer_id = match data.get("token_id").filter(|t| !t.is_null()) {
        Some(t) => Some(
            AdventurerId::from_json(t)
                .map_err(|e| BadMessage::Malformed(format!("token_id: {e}")))?,
        ),
        None => None,
    };
    Ok(Parsed::Change(IndexChange {
        kind,
        adventurer_id,
    }))
}

/// Whether a `subscribed` answer lists the channel we asked for.
fn lists_our_channel(v: &Value) -> bool {
    v["channels"]
        .as_array()
        .is_some_and(|c| c.iter().any(|c| c == SERVER_CHANNEL))
}

/// Whether a payload's `game_id` (an integer column, as a number or its text) is `game_id`.
fn same_game(g: &Value, game_id: u32) -> bool {
    match g {
        Value::Number(n) => n.as_u64() == Some(u64::from(game_id)),
        Value::String(s) => s.trim() == game_id.to_string(),
        _ => false,
    }
}

/// A JSON value, short and without control characters, for a log line.
fn shown(v: &Value) -> String {
    snippet(&v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `tokens` push as `broadcast` writes it for the `token_updates` trigger payload.
    fn push(data: &str) -> String {
        format!(r#"{{"channel":"tokens","data":{data},"_timing":{{"serverTs":1761955200000}}}}"#)
    }

    fn change(kind: ChangeKind, id: Option<u64>) -> Result<Parsed, BadMessage> {
        Ok(Parsed::Change(IndexChange {
            kind,
            adventurer_id: id.map(AdventurerId::from),
        }))
    }

    #[test]
    fn the_subscription_asks_for_token_changes_of_one_game() {
        let v: Value = serde_json::from_str(&subscribe(1)).unwrap();
        assert_eq!(
            v,
            json!({"type": "subscribe", "channels": ["tokens"], "gameIds": ["1"]})
        );
        let answer = r#"{"type":"subscribed","channels":["token_updates"]}"#;
        assert_eq!(parse(answer, 1), Ok(Parsed::Subscribed));
        let other = r#"{"type":"subscribed","channels":["score_updates"]}"#;
        assert!(matches!(parse(other, 1), Err(BadMessage::Malformed(_))));
        let refused = r#"{"type":"error","message":"Invalid message format"}"#;
        assert_eq!(
            parse(refused, 1),
            Ok(Parsed::Refused("Invalid message format".into()))
        );
        assert!(matches!(
            parse(r#"{"type":"pong"}"#, 1),
            Err(BadMessage::Other(_))
        ));
    }

    #[test]
    fn each_kind_of_token_change_is_read_with_its_id() {
        let big = "1809251394333065553493296641359414133978688967941018027463383199922813665281";
        let text = push(&format!(
            r#"{{"token_id":"{big}","game_id":1,"type":"score_update","score":"42"}}"#
        ));
        let Ok(Parsed::Change(c)) = parse(&text, 1) else {
            panic!("a change: {text}");
        };
        assert_eq!(c.kind, ChangeKind::Score);
        assert_eq!(c.adventurer_id, Some(AdventurerId::parse(big).unwrap()));
        let over = push(r#"{"token_id":"77","game_id":1,"type":"game_over","score":"9"}"#);
        assert_eq!(parse(&over, 1), change(ChangeKind::GameOver, Some(77)));
        let minted =
            push(r#"{"token_id":"78","game_id":1,"type":"minted","owner_address":"0xa11ce"}"#);
        assert_eq!(parse(&minted, 1), change(ChangeKind::Minted, Some(78)));
        let no_id = push(r#"{"game_id":null,"type":"score_update"}"#);
        assert_eq!(parse(&no_id, 1), change(ChangeKind::Score, None));
    }

    #[test]
    fn bad_foreign_and_oversized_messages_are_told_apart() {
        let bad = [
            "not json",
            "[1,2]",
            r#"{"channel":"tokens"}"#,
            r#"{"channel":"tokens","data":"x"}"#,
        ];
        for text in bad {
            assert!(
                matches!(parse(text, 1), Err(BadMessage::Malformed(_))),
                "{text}"
            );
        }
        let bad_ids = [r#""zz""#, "-1", r#""0x""#, "1.5", "9007199254740993"];
        for id in bad_ids {
            let text = push(&format!(
                r#"{{"token_id":{id},"game_id":1,"type":"minted"}}"#
            ));
            assert!(
                matches!(parse(&text, 1), Err(BadMessage::Malformed(_))),
                "{id}"
            );
        }
        let above_prime = format!("\"{}\"", "9".repeat(80));
        let text = push(&format!(
            r#"{{"token_id":{above_prime},"game_id":1,"type":"minted"}}"#
        ));
        assert!(matches!(parse(&text, 1), Err(BadMessage::Malformed(_))));
        let foreign = [
            push(r#"{"token_id":"5","game_id":2,"type":"minted"}"#),
            push(r#"{"token_id":"5","game_id":1,"type":"burned"}"#),
            r#"{"channel":"scores","data":{"token_id":"5","game_id":1}}"#.to_string(),
            r#"{"hello":1}"#.to_string(),
        ];
        for text in foreign {
            assert!(
                matches!(parse(&text, 1), Err(BadMessage::Other(_))),
                "{text}"
            );
        }
        let padded = push(&format!(
            r#"{{"token_id":"5","game_id":1,"type":"minted","pad":"{}"}}"#,
            "x".repeat(MAX_MESSAGE)
        ));
        assert_eq!(parse(&padded, 1), Err(BadMessage::TooLarge(padded.len())));
        let escaped = r#"{"type":"\u001b[2Jboom"}"#;
        let Err(BadMessage::Other(why)) = parse(escaped, 1) else {
            panic!("not ours");
        };
        assert!(!why.contains('\u{1b}'), "{why}");
    }
}
