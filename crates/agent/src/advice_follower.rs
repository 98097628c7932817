//! A client that plays from the compact text alone and follows only the advice line, as a model
//! that trusts it would: it reads each result's text content (never the structured content, never
//! `detail: "full"`), calls the tool the `advice` names with the arguments it shows, and stops at
//! death. It shows that the advice line carries the built-in planner's whole play.

use game::AdventurerId;
use serde_json::{Map, Value, json};

use super::client::{Agent, AgentError, protocol};

/// One game played by following the advice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FollowedGame {
    /// The adventurer.
    pub adventurer_id: AdventurerId,
    /// Level at the end.
    pub level: u64,
    /// Experience at the end.
    pub xp: u64,
    /// Actions sent, the start included.
    pub actions: u32,
    /// Whether the adventurer died (else the action cap stopped it).
    pub died: bool,
}

/// The tool and arguments an advice line names: `ls_attack {"to_the_death":true}: why` gives
/// `ls_attack` and `{"to_the_death": true}`; `ls_explore: why` gives no arguments.
pub fn advised_call(advice: &str) -> Option<(String, Map<String, Value>)> {
    let end = advice.find([' ', ':']).unwrap_or(advice.len());
    let (tool, rest) = advice.split_at(end);
    if !tool.starts_with("ls_") {
        return None;
    }
    let args = match rest.strip_prefix(' ') {
        Some(json) if json.starts_with('{') => {
            let mut values = serde_json::Deserializer::from_str(json).into_iter::<Value>();
            match values.next()? {
                Ok(Value::Object(map)) => map,
                _ => return None,
            }
        }
        _ => Map::new(),
    };
    Some((tool.to_string(), args))
}

impl Agent {
    /// Plays one game with `weapon` by following each result's `advice` line, at most
    /// `max_actions` actions.
    pub async fn follow_advice(
        &self,
        weapon: &str,
        max_actions: u32,
    ) -> Result<FollowedGame, AgentError> {
        let mut result = self
            .call_text("ls_new_game", json!({ "weapon": weapon }))
            .await?;
        let id = AdventurerId::from_json(&result["adventurer_id"]).map_err(|e| {
            protocol(
                "ls_new_game",
                format!("no adventurer_id in the result: {e}"),
            )
        })?;
        let mut actions = 1;
        while result["state"]["phase"] != "dead" && actions < max_actions {
            let advice = result["advice"].as_str().unwrap_or_default();
            let (tool, mut args) = advised_call(advice)
                .ok_or_else(|| protocol("advice", format!("no call in '{advice}'")))?;
            args.insert("adventurer_id".into(), json!(id));
            result = self.call_text(&tool, Value::Object(args)).await?;
            actions += 1;
        }
        let state = &result["state"];
        Ok(FollowedGame {
            adventurer_id: id,
            level: state["level"].as_u64().unwrap_or_default(),
            xp: state["xp"].as_u64().unwrap_or_default(),
            actions,
            died: state["phase"] == "dead",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advice_lines_give_their_calls() {
        let (tool, args) =
            advised_call(r#"ls_flee {"to_the_death":true}: win 23 %, flee 98 %: fleeing"#).unwrap();
        assert_eq!(tool, "ls_flee");
        assert_eq!(Value::Object(args), json!({"to_the_death": true}));
        let (tool, args) = advised_call("ls_explore: exploring one step").unwrap();
        assert_eq!((tool.as_str(), args.len()), ("ls_explore", 0));
        let (tool, args) = advised_call(r#"ls_upgrade {"vitality":2}"#).unwrap();
        assert_eq!(tool, "ls_upgrade");
        assert_eq!(args["vitality"], 2);
        assert!(advised_call("explore now").is_none());
        assert!(advised_call(r#"ls_attack {"to_the_death":"#).is_none());
    }
}
