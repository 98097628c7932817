//! The trap suite: a client plays whole games on `sim` (hidden seeds) from the compact text alone,
//! as a model would, and walks into every trap a text-only model fell into: arguments wrapped in
//! a key the tool does not have, `id` for `item`, quoted numbers and booleans, a move in the wrong
//! phase, more potions than fit, a move after death. After an error it does only what the error's
//! text says (the tool its hint names, or the keys its message names) and fails when that next
//! call fails too. Between traps it follows the advice line (the single steps': a combined move
//! explores on past the phases some traps need).

use crate::common;

use common::mcp::{Outcome, call};
use loot_survivor_mcp::agent::advice_follower::advised_call;
use loot_survivor_mcp::game::engine::EngineSettings;
use loot_survivor_mcp::mcp::{LsServer, connect_in_memory};
use loot_survivor_mcp::sim::{SimChain, SimRandomness};
use rmcp::RoleClient;
use rmcp::service::Peer;
use serde_json::{Map, Value, json};

/// Games played, the four starting weapons in turn.
const GAMES: usize = 4;
/// Most calls per game (a game of the planner takes about a hundred).
const MAX_CALLS: usize = 2000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Trap {
    WrappedKeys,
    IdForItem,
    QuotedValues,
    WrongPhase,
    TooManyPotions,
    AfterDeath,
}

/// The text-only player: the last result it read and what happened.
struct Player<'a> {
    peer: &'a Peer<RoleClient>,
    id: u64,
    last: Value,
    sprung: std::collections::BTreeMap<Trap, u32>,
    errors: Vec<String>,
}

fn tool_of(line: &str) -> &str {
    line.split([':', ' ']).next().unwrap_or_default()
}

/// The tools the last result lists as callable now.
fn actions(v: &Value) -> Vec<String> {
    v["actions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|l| tool_of(l).to_string())
        .collect()
}

/// "up to N" in the ls_buy_item line.
fn potion_cap(v: &Value) -> Option<u64> {
    let line = v["actions"]
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .find(|l| l.starts_with("ls_buy_item"))?;
    line.split("up to ").nth(1)?.split(' ').next()?.parse().ok()
}

impl Player<'_> {
    async fn send(&self, tool: &str, args: Value) -> Outcome {
        call(self.peer, tool, args).await
    }

    /// The advice line's call, with the adventurer.
    fn advised(&self) -> (String, Map<String, Value>) {
        let advice = self.last["advice"].as_str().unwrap_or_default();
        let (tool, mut args) =
            advised_call(advice).unwrap_or_else(|| panic!("no call in the advice: {}", self.last));
        args.insert("adventurer_id".into(), self.id.into());
        (tool, args)
    }

    /// A call to `tool` that the last result says will work: the advice's when it names that
    /// tool, else the plainest one (all points on vitality, one potion).
    fn plain_call(&self, tool: &str) -> Map<String, Value> {
        let (advised, args) = self.advised();
        if advised == tool {
            return args;
        }
        let mut args = Map::new();
        args.insert("adventurer_id".into(), self.id.into());
        match tool {
            "ls_upgrade" => {
                args.insert("vitality".into(), self.last["state"]["stat_points"].clone());
            }
            "ls_buy_item" => {
                args.insert("potions".into(), 1.into());
            }
            _ => {}
        }
        args
    }

    /// Takes a successful result as the one to decide from.
    fn read(&mut self, out: Outcome) {
        assert!(!out.is_error, "{}: {}", out.call, out.text);
        self.last = out.json;
    }

    /// Sends a trapped call; on an error, does what its text says, once, and that must work.
    async fn spring(&mut self, trap: Trap, tool: &str, args: Value) {
        *self.sprung.entry(trap).or_default() += 1;
        let out = self.send(tool, args.clone()).await;
        if !out.is_error {
            self.read(out);
            return;
        }
        let error = out.json["error"].clone();
        let (tool, args) = self.recovery(tool, &args, &error);
        let again = self.send(&tool, args).await;
        if again.is_error {
            self.errors.push(format!(
                "{trap:?}: {} answered {}; following it, {} answered {}",
                out.call, out.text, again.call, again.text
            ));
            return;
        }
        self.read(again);
    }

    /// What the error's text says to do: resend without the unknown keys' mistakes (its keys
    /// unwrapped, or renamed to the key it suggests), else call the first tool the hint names
    /// that the last result lists, else start a new game when the hint says so.
    fn recovery(&self, tool: &str, args: &Value, error: &Value) -> (String, Value) {
        let message = error["message"].as_str().unwrap_or_default();
        let hint = error["hint"].as_str().unwrap_or_default();
        if let Some(unknown) = error["details"]["unknown"].as_array() {
            let mut args = args.clone();
            for path in unknown.iter().filter_map(Value::as_str) {
                fix_key(&mut args, path, message);
            }
            return (tool.to_string(), args);
        }
        if hint.contains("ls_buy_item line") && tool == "ls_buy_item" {
            let mut args = args.clone();
            args["potions"] = potion_cap(&self.last).unwrap_or_default().into();
            return (tool.to_string(), args);
        }
        let mut callable = actions(&self.last);
        callable.push("ls_get_adventurer".into());
        let named: Vec<&str> = hint
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| w.starts_with("ls_"))
            .collect();
        if named.contains(&"ls_new_game") {
            return ("ls_new_game".into(), json!({"weapon": "Wand"}));
        }
        let next = named
            .iter()
            .find(|t| callable.iter().any(|c| c == *t))
            .unwrap_or_else(|| {
                panic!("the hint names no callable tool: {error} (can: {callable:?})")
            });
        let args = match *next {
            "ls_get_adventurer" => json!({"adventurer_id": self.id}),
            _ => Value::Object(self.plain_call(next)),
        };
        (next.to_string(), args)
    }
}

/// Fixes one unknown key at `path` as the message says: "its keys … are arguments themselves"
/// unwraps it, "did you mean `x`" renames it.
fn fix_key(args: &mut Value, path: &str, message: &str) {
    let (parent, key) = path.rsplit_once('.').unwrap_or(("", path));
    let pointer = parent.replace(['.', '['], "/").replace(']', "");
    let object = match pointer.as_str() {
        "" => args.as_object_mut(),
        p => args
            .pointer_mut(&format!("/{p}"))
            .and_then(Value::as_object_mut),
    }
    .unwrap_or_else(|| panic!("no object at {path}"));
    let value = object.remove(key).expect("the unknown key");
    let said = message
        .split(&format!("`{path}` ("))
        .nth(1)
        .unwrap_or_default();
    if said.contains("are arguments themselves") {
        let Value::Object(inner) = value else {
            panic!("{path} wraps no object")
        };
        object.extend(inner);
    } else if let Some(suggested) = said
        .strip_prefix("did you mean `")
        .and_then(|s| s.split('`').next())
    {
        object.insert(suggested.to_string(), value);
    } else {
        panic!("the message says nothing of {path}: {message}");
    }
}

/// Quotes every number and boolean at the top level: `7` → `"7"`.
fn quoted(args: &Map<String, Value>) -> Value {
    Value::Object(
        args.iter()
            .map(|(k, v)| match v {
                Value::Number(_) | Value::Bool(_) => (k.clone(), Value::String(v.to_string())),
                _ => (k.clone(), v.clone()),
            })
            .collect(),
    )
}

/// One game: mostly the advice, with a trap whenever the state offers one (in turn, so each
/// comes up).
async fn play(player: &mut Player<'_>, weapon: &str, game: usize) {
    let started = player.send("ls_new_game", json!({"weapon": weapon})).await;
    player.read(started);
    player.id = player.last["adventurer_id"]
        .as_u64()
        .expect("ls_new_game names the adventurer");
    for step in 0..MAX_CALLS {
        let phase = player.last["state"]["phase"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let (tool, args) = player.advised_or_dead();
        let turn = (step + game) % 5;
        match phase.as_str() {
            "dead" => {
                let args = json!({"adventurer_id": player.id});
                player.spring(Trap::AfterDeath, "ls_explore", args).await;
                return;
            }
            "stat_upgrade" if turn == 0 || turn == 3 => {
                let mut points = args.clone();
                points.remove("adventurer_id");
                let wrapped = json!({"adventurer_id": player.id, "stats": points});
                player
                    .spring(Trap::WrappedKeys, "ls_upgrade", wrapped)
                    .await;
            }
            "stat_upgrade" if turn == 1 => {
                let id = json!({"adventurer_id": player.id});
                player.spring(Trap::WrongPhase, "ls_explore", id).await;
            }
            "in_battle" if turn == 2 => {
                let id = json!({"adventurer_id": player.id});
                player.spring(Trap::WrongPhase, "ls_explore", id).await;
            }
            "exploring" if turn == 3 && tool != "ls_buy_item" => {
                let id = json!({"adventurer_id": player.id});
                player.spring(Trap::WrongPhase, "ls_attack", id).await;
            }
            // Purchases go with a level-up's points (ls_upgrade) or on their own (ls_buy_item).
            "exploring" | "stat_upgrade" if args.contains_key("items") => {
                let mut bad = args.clone();
                for item in bad["items"].as_array_mut().into_iter().flatten() {
                    let id = item.as_object_mut().unwrap().remove("item").unwrap();
                    item["id"] = id;
                }
                player
                    .spring(Trap::IdForItem, &tool, Value::Object(bad))
                    .await;
            }
            "exploring" if turn == 4 && potion_cap(&player.last).is_some_and(|n| n > 0) => {
                let cap = potion_cap(&player.last).unwrap();
                let bad = json!({"adventurer_id": player.id, "potions": cap + 3});
                player
                    .spring(Trap::TooManyPotions, "ls_buy_item", bad)
                    .await;
            }
            _ if step % 3 == 0 => {
                player
                    .spring(Trap::QuotedValues, &tool, quoted(&args))
                    .await;
            }
            _ => {
                let out = player.send(&tool, Value::Object(args)).await;
                player.read(out);
            }
        }
    }
    panic!("game {game} did not end in {MAX_CALLS} calls");
}

impl Player<'_> {
    /// The advice's call, or nothing to call once dead.
    fn advised_or_dead(&self) -> (String, Map<String, Value>) {
        if self.last["state"]["phase"] == "dead" {
            return (String::new(), Map::new());
        }
        self.advised()
    }
}

#[tokio::test]
async fn whole_games_from_text_recover_from_every_trap_in_one_step() {
    let sim = SimChain::with_randomness(EngineSettings::default(), 1, SimRandomness::Master(28));
    // The single steps' advice: its exploring phases and potion line are where the potion trap
    // lives (a combined move explores on past them).
    let server = LsServer::on_sim(sim, true).with_combined_moves(false);
    let client = connect_in_memory(server, ()).await.expect("connect");
    let mut player = Player {
        peer: &client,
        id: 0,
        last: Value::Null,
        sprung: Default::default(),
        errors: Vec::new(),
    };
    for (game, weapon) in ["Wand", "Book", "Short Sword", "Club"]
        .iter()
        .cycle()
        .take(GAMES)
        .enumerate()
    {
        play(&mut player, weapon, game).await;
    }
    println!("traps sprung over {GAMES} games: {:?}", player.sprung);
    assert!(player.errors.is_empty(), "{:#?}", player.errors);
    for trap in [
        Trap::WrappedKeys,
        Trap::IdForItem,
        Trap::QuotedValues,
        Trap::WrongPhase,
        Trap::TooManyPotions,
        Trap::AfterDeath,
    ] {
        assert!(
            player.sprung.get(&trap).is_some_and(|n| *n > 0),
            "{trap:?} never came up: {:?}",
            player.sprung
        );
    }
    client.cancel().await.ok();
}
