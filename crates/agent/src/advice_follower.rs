//! A client that plays from the compact text alone and follows only the advice line, as a model
//! that trusts it would: it reads each result's text content (never the structured content, never
//! `detail: "full"`), calls the tool the `advice` names with the arguments it shows, and stops at
//! death. It shows that the advice line carries the built-in planner's whole play; a recorder can
//! see each call's request and result text, what a host would send its model.

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
    /// Calls made, the start and an error result included.
    pub actions: u32,
    /// Whether the adventurer died (else the action cap or an error result stopped it).
    pub died: bool,
    /// The error envelope of the result that stopped the game, if one did.
    pub error: Option<Value>,
}

/// One call the follower made, as a host would see it: the request and the result's text.
#[derive(Debug, Clone, Copy)]
pub struct FollowedCall<'a> {
    /// The tool called.
    pub tool: &'a str,
    /// Its arguments, as sent.
    pub args: &'a Map<String, Value>,
    /// The result's text content, what the host hands the model.
    pub text: &'a str,
    /// Whether the result is an error.
    pub error: bool,
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
    /// `max_actions` calls.
    pub async fn follow_advice(
        &self,
        weapon: &str,
        max_actions: u32,
    ) -> Result<FollowedGame, AgentError> {
        self.follow_advice_recorded(weapon, max_actions, &mut |_| {})
            .await
    }

    /// [`Agent::follow_advice`], handing each call to `record` as it is made. An error result
    /// stops the game ([`FollowedGame::error`]); one from `ls_new_game` is an error.
    pub async fn follow_advice_recorded(
        &self,
        weapon: &str,
        max_actions: u32,
        record: &mut (dyn FnMut(FollowedCall<'_>) + Send),
    ) -> Result<FollowedGame, AgentError> {
        let start = Map::from_iter([("weapon".to_string(), json!(weapon))]);
        let mut result = self
            .followed_call("ls_new_game", start, record)
            .await?
            .map_err(|error| AgentError::Tool {
                tool: "ls_new_game".into(),
                error,
            })?;
        let id = AdventurerId::from_json(&result["adventurer_id"]).map_err(|e| {
            protocol(
                "ls_new_game",
                format!("no adventurer_id in the result: {e}"),
            )
        })?;
        let mut actions = 1;
        let mut error = None;
        while result["state"]["phase"] != "dead" && actions < max_actions {
            let advice = result["advice"].as_str().unwrap_or_default();
            let (tool, mut args) = advised_call(advice)
                .ok_or_else(|| protocol("advice", format!("no call in '{advice}'")))?;
            args.insert("adventurer_id".into(), json!(id));
            actions += 1;
            match self.followed_call(&tool, args, record).await? {
                Ok(next) => result = next,
                Err(envelope) => {
                    error = Some(envelope);
                    break;
                }
            }
        }
        let state = &result["state"];
        Ok(FollowedGame {
            adventurer_id: id,
            level: state["level"].as_u64().unwrap_or_default(),
            xp: state["xp"].as_u64().unwrap_or_default(),
            actions,
            died: state["phase"] == "dead",
            error,
        })
    }

    /// Calls `tool` as a model would and hands the call to `record`; returns the result's text
    /// parsed as JSON, or as the error envelope when the result is an error.
    async fn followed_call(
        &self,
        tool: &str,
        args: Map<String, Value>,
        record: &mut (dyn FnMut(FollowedCall<'_>) + Send),
    ) -> Result<Result<Value, Value>, AgentError> {
        let r = self.call_text(tool, args.clone()).await?;
        record(FollowedCall {
            tool,
            args: &args,
            text: &r.text,
            error: r.is_error,
        });
        let value = serde_json::from_str(&r.text).map_err(|e| protocol(tool, e))?;
        Ok(if r.is_error { Err(value) } else { Ok(value) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::engine::EngineSettings;
    use mcp::LsServer;
    use sim::{SimChain, SimRandomness};

    /// A server on a world whose hidden seeds come from `seed`.
    fn server(seed: u64) -> LsServer {
        let sim =
            SimChain::with_randomness(EngineSettings::default(), 1, SimRandomness::Master(seed));
        LsServer::on_sim(sim, true)
    }

    #[tokio::test]
    async fn a_followed_game_records_every_call() {
        let agent = Agent::connect(server(3)).await.unwrap();
        let mut calls = Vec::new();
        let game = agent
            .follow_advice_recorded("Wand", 3000, &mut |c| {
                calls.push((
                    c.tool.to_string(),
                    c.args.clone(),
                    c.text.to_string(),
                    c.error,
                ));
            })
            .await
            .unwrap();
        assert!(game.died && game.error.is_none(), "{game:?}");
        assert_eq!(calls.len(), game.actions as usize);
        assert_eq!(calls[0].0, "ls_new_game");
        assert_eq!(calls[0].1["weapon"], "Wand");
        assert!(calls.iter().all(|c| !c.3));
        for (tool, args, _, _) in &calls[1..] {
            assert_eq!(args["adventurer_id"], json!(game.adventurer_id), "{tool}");
        }
        let last: Value = serde_json::from_str(&calls.last().unwrap().2).unwrap();
        assert_eq!(last["state"]["phase"], "dead");
        agent.close().await;
    }

    #[tokio::test]
    async fn an_error_result_is_recorded_then_returned() {
        let agent = Agent::connect(server(3)).await.unwrap();
        let mut calls = Vec::new();
        let r = agent
            .follow_advice_recorded("Spoon", 3000, &mut |c| {
                calls.push((c.tool.to_string(), c.error))
            })
            .await;
        assert!(
            matches!(r, Err(AgentError::Tool { ref tool, .. }) if tool == "ls_new_game"),
            "{r:?}"
        );
        assert_eq!(calls, [("ls_new_game".to_string(), true)]);
        agent.close().await;
    }

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
