//! A whole game played as a model that trusts the advice line plays it: each compact result's
//! `advice` names the next call (the tool and its arguments), which is made as shown. Counts the
//! calls and every transaction the results report by hash (`mint_tx`, `earlier_txs`, `tx`).

use std::collections::BTreeMap;

use loot_survivor_mcp::agent::advice_follower::advised_call;
use rmcp::ClientHandler;
use serde_json::{Value, json};

use super::Client;

/// One followed game.
#[derive(Debug)]
pub struct AdviceGame {
    /// The adventurer (as the results write it).
    pub id: Value,
    /// Tool calls, `ls_new_game` included.
    pub calls: usize,
    /// Every transaction hash the results reported, in order.
    pub txs: Vec<String>,
    /// Calls per tool.
    pub tools: BTreeMap<String, usize>,
    /// Whether the adventurer died (else the call cap stopped the game).
    pub died: bool,
    /// The last compact result.
    pub last: Value,
}

impl AdviceGame {
    /// The line a test prints: calls, transactions and the tools used.
    pub fn summary(&self, label: &str) -> String {
        format!(
            "{label}: {} calls, {} transactions, level {}, {} ({:?})",
            self.calls,
            self.txs.len(),
            self.last["state"]["level"],
            if self.died { "died" } else { "stopped" },
            self.tools
        )
    }
}

/// Plays a game with `weapon` by the advice line, at most `max_calls` calls, every result asked
/// compact. A tool error fails the test (the advice must always lead to a call that works).
pub async fn play_by_advice<H: ClientHandler>(
    client: &Client<H>,
    weapon: &str,
    max_calls: usize,
) -> AdviceGame {
    let started = client
        .ok(
            "ls_new_game",
            json!({"weapon": weapon, "detail": "compact"}),
        )
        .await;
    follow(client, started, max_calls).await
}

/// Goes on from `started`, the compact result of `ls_new_game`, by the advice line.
pub async fn follow<H: ClientHandler>(
    client: &Client<H>,
    started: Value,
    max_calls: usize,
) -> AdviceGame {
    let mut result = started;
    let id = result["adventurer_id"].clone();
    let mut game = AdviceGame {
        id: id.clone(),
        calls: 1,
        txs: Vec::new(),
        tools: BTreeMap::from([("ls_new_game".to_string(), 1)]),
        died: false,
        last: Value::Null,
    };
    loop {
        game.txs.extend(hashes(&result));
        if result["state"]["phase"] == "dead" || game.calls >= max_calls {
            game.died = result["state"]["phase"] == "dead";
            game.last = result;
            return game;
        }
        let advice = result["advice"].as_str().unwrap_or_default().to_string();
        let (tool, mut args) =
            advised_call(&advice).unwrap_or_else(|| panic!("no call in the advice: {result}"));
        args.insert("adventurer_id".into(), id.clone());
        args.insert("detail".into(), json!("compact"));
        result = client.ok(&tool, Value::Object(args)).await;
        *game.tools.entry(tool).or_default() += 1;
        game.calls += 1;
    }
}

/// The transactions a compact result reports, in the order they were sent.
fn hashes(result: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(h) = result["mint_tx"].as_str() {
        out.push(h.to_string());
    }
    for h in result["earlier_txs"].as_array().into_iter().flatten() {
        out.extend(h.as_str().map(String::from));
    }
    if let Some(h) = result["tx"].as_str() {
        out.push(h.to_string());
    }
    out
}
