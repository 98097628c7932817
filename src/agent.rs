//! The built-in agent behind `loot-survivor-mcp play`. It plays whole games through the MCP tool
//! layer, as any client would (an in-process rmcp client over a pipe), and narrates them.
//!
//! The strategy, in full:
//! * In battle: at level 1 attack. Otherwise ask `ls_battle_preview`; attack if the win chance is
//!   at least 50%, or at least the chance of escaping alive by fleeing, or fleeing is impossible;
//!   else flee. Either goes to the death when its chance is at least 90%, else one round.
//! * Stat points go to charisma until twice charisma reaches the level (potions then cost 1 gold),
//!   then to dexterity until it reaches the level (fleeing always works), then to vitality.
//! * Out of battle: drop bagged non-jewelry when the bag is nearly full; buy, equipped, the market
//!   items that most raise a slot's attack or armor while keeping gold for potions; buy potions up
//!   to full health; explore (until a beast when at full health, else one step).
//!
//! It never reads the `exact` outcomes of deterministic worlds, so it plays the same way on every
//! chain.

use std::time::Duration;

use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde::Serialize;
use serde_json::{Value, json};

use crate::game::events::{Discovery, GameEvent, GameEventDetails};
use crate::game::model::Stats;
use crate::game::phase::Phase;
use crate::game::view::AdventurerView;
use crate::mcp::LsServer;

/// Win chance from which the agent fights rather than flees.
const FIGHT_THRESHOLD: f64 = 0.5;
/// Win (or escape) chance from which the agent attacks (or flees) to the death in one call.
const TO_THE_DEATH_THRESHOLD: f64 = 0.9;
/// Bag fill from which bagged non-jewelry is dropped.
const BAG_DROP_AT: usize = 12;

/// How the agent plays.
#[derive(Debug, Clone)]
pub struct AgentOptions {
    /// Starting weapon (id or name: Wand, Book, Short Sword, Club).
    pub weapon: String,
    /// Most tool calls that change the game, per game (the cap).
    pub max_actions: u32,
}

impl Default for AgentOptions {
    fn default() -> Self {
        Self {
            weapon: "Short Sword".into(),
            max_actions: 3000,
        }
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// The adventurer died.
    Died,
    /// The action cap was reached first.
    ActionCap,
}

/// The result of one game.
#[derive(Debug, Clone, Serialize)]
pub struct GameSummary {
    /// The adventurer played.
    pub adventurer_id: u64,
    /// Final level.
    pub level: u8,
    /// Final xp.
    pub xp: u16,
    /// Final gold.
    pub gold: u16,
    /// Game-changing tool calls made.
    pub actions: u32,
    /// How it ended.
    pub ending: Ending,
    /// What killed the adventurer.
    pub cause_of_death: Option<String>,
}

/// A failed tool call (the agent stops on the first one: its moves should always be legal).
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    /// The MCP exchange itself failed.
    #[error("MCP error calling {tool}: {message}")]
    Protocol {
        /// Tool called.
        tool: String,
        /// What went wrong.
        message: String,
    },
    /// The tool answered with an error envelope.
    #[error("{tool} failed: {error}")]
    Tool {
        /// Tool called.
        tool: String,
        /// The error envelope.
        error: Value,
    },
}

/// An MCP client connected in-process to a server.
pub struct Agent {
    client: RunningService<RoleClient, ()>,
}

fn protocol(tool: &str, e: impl std::fmt::Display) -> AgentError {
    AgentError::Protocol {
        tool: tool.to_string(),
        message: e.to_string(),
    }
}

impl Agent {
    /// Serves `server` on one end of an in-memory pipe and connects a client to the other.
    pub async fn connect(server: LsServer) -> Result<Self, AgentError> {
        let (client_io, server_io) = tokio::io::duplex(1 << 20);
        tokio::spawn(async move {
            if let Ok(running) = server.serve(server_io).await {
                let _ = running.waiting().await;
            }
        });
        let client = ().serve(client_io).await.map_err(|e| protocol("initialize", e))?;
        Ok(Self { client })
    }

    /// Calls a tool; returns its structured result, or the error envelope as an error.
    pub async fn call(&self, tool: &str, args: Value) -> Result<Value, AgentError> {
        let Value::Object(mut map) = args else {
            return Err(protocol(tool, "arguments must be an object"));
        };
        if crate::mcp::DETAIL_TOOLS.contains(&tool) {
            map.insert("detail".into(), Value::from("full"));
        }
        let r = self
            .client
            .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(map))
            .await
            .map_err(|e| protocol(tool, e))?;
        let text: String = r
            .content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.clone()))
            .collect();
        let value = match r.structured_content {
            Some(v) => v,
            None => serde_json::from_str(&text).map_err(|e| protocol(tool, e))?,
        };
        if r.is_error == Some(true) {
            return Err(AgentError::Tool {
                tool: tool.to_string(),
                error: value,
            });
        }
        Ok(value)
    }

    /// Closes the connection.
    pub async fn close(self) {
        let client = self.client;
        let _ = tokio::time::timeout(Duration::from_secs(5), client.cancel()).await;
    }

    /// Plays one game from mint to death (or the action cap), passing a line per event to
    /// `narrate`.
    pub async fn play(
        &self,
        opts: &AgentOptions,
        narrate: &mut (dyn FnMut(String) + Send),
    ) -> Result<GameSummary, AgentError> {
        let mut game = GameRun::default();
        let mut started = self
            .call("ls_new_game", json!({ "weapon": opts.weapon }))
            .await?;
        let id = started["adventurer_id"]
            .as_u64()
            .ok_or_else(|| protocol("ls_new_game", "no adventurer_id"))?;
        narrate(format!(
            "adventurer {id} enters Death Mountain with a {}",
            opts.weapon
        ));
        game.absorb(&mut started, narrate)?;
        let mut actions = 1u32;
        while let Some(view) = game.view.clone() {
            if view.phase == Phase::Dead || actions >= opts.max_actions {
                break;
            }
            let (tool, args) = self.next_move(id, &view).await?;
            let mut result = self.call(tool, args).await?;
            actions += 1;
            game.absorb(&mut result, narrate)?;
        }
        let view = game
            .view
            .ok_or_else(|| protocol("ls_new_game", "no adventurer"))?;
        let ending = if view.phase == Phase::Dead {
            Ending::Died
        } else {
            Ending::ActionCap
        };
        let summary = GameSummary {
            adventurer_id: id,
            level: view.level,
            xp: view.xp,
            gold: view.gold,
            actions,
            ending,
            cause_of_death: (ending == Ending::Died).then(|| game.last_threat.clone()),
        };
        narrate(match ending {
            Ending::Died => format!(
                "adventurer {id} died at level {} with {} xp: {}",
                summary.level,
                summary.xp,
                summary.cause_of_death.as_deref().unwrap_or("unknown")
            ),
            Ending::ActionCap => format!(
                "adventurer {id} stopped at the cap of {} actions: level {}, {} xp",
                opts.max_actions, summary.level, summary.xp
            ),
        });
        Ok(summary)
    }

    /// Chooses the next tool call for this state.
    async fn next_move(
        &self,
        id: u64,
        view: &AdventurerView,
    ) -> Result<(&'static str, Value), AgentError> {
        Ok(match view.phase {
            Phase::InBattle => self.battle_move(id, view).await?,
            Phase::StatUpgrade => (
                "ls_upgrade",
                upgrade_args(id, view.level, &view.stats, view.stat_upgrades_available),
            ),
            _ => {
                if let Some(drop) = drop_move(id, view) {
                    return Ok(drop);
                }
                if let Some(buy) = shopping(id, view) {
                    return Ok(buy);
                }
                (
                    "ls_explore",
                    json!({ "adventurer_id": id, "till_beast": view.health >= view.max_health }),
                )
            }
        })
    }

    async fn battle_move(
        &self,
        id: u64,
        view: &AdventurerView,
    ) -> Result<(&'static str, Value), AgentError> {
        if view.level <= 1 {
            return Ok(("ls_attack", json!({ "adventurer_id": id })));
        }
        let p = self
            .call("ls_battle_preview", json!({ "adventurer_id": id }))
            .await?;
        let win = p["preview"]["win_probability"].as_f64().unwrap_or(0.0);
        let flee = p["preview"]["flee_to_the_death_probability"].as_f64();
        let fight = match flee {
            None => true,
            Some(escape) => win >= FIGHT_THRESHOLD || win >= escape,
        };
        Ok(if fight {
            (
                "ls_attack",
                json!({ "adventurer_id": id, "to_the_death": win >= TO_THE_DEATH_THRESHOLD }),
            )
        } else {
            let escape = flee.unwrap_or(0.0);
            (
                "ls_flee",
                json!({ "adventurer_id": id, "to_the_death": escape >= TO_THE_DEATH_THRESHOLD }),
            )
        })
    }
}

/// Stat points: charisma to half the level, dexterity to the level, then vitality (each stat
/// stays within 31).
fn upgrade_args(id: u64, level: u8, stats: &Stats, points: u8) -> Value {
    let mut s = *stats;
    let mut up = Stats::default();
    for _ in 0..points {
        if 2 * u16::from(s.charisma) < u16::from(level) && s.charisma < 31 {
            s.charisma += 1;
            up.charisma += 1;
        } else if s.dexterity < level && s.dexterity < 31 {
            s.dexterity += 1;
            up.dexterity += 1;
        } else if s.vitality < 31 {
            s.vitality += 1;
            up.vitality += 1;
        } else {
            s.strength = s.strength.saturating_add(1);
            up.strength += 1;
        }
    }
    json!({
        "adventurer_id": id,
        "strength": up.strength,
        "dexterity": up.dexterity,
        "vitality": up.vitality,
        "charisma": up.charisma,
    })
}

/// Drops every bagged item but jewelry when the bag is nearly full.
fn drop_move(id: u64, view: &AdventurerView) -> Option<(&'static str, Value)> {
    if view.bag.len() < BAG_DROP_AT || view.level <= 1 {
        return None;
    }
    let items: Vec<u8> = view
        .bag
        .iter()
        .filter(|i| {
            !matches!(
                i.slot,
                crate::game::catalogue::Slot::Neck | crate::game::catalogue::Slot::Ring
            )
        })
        .map(|i| i.id)
        .take(8)
        .collect();
    (!items.is_empty()).then(|| ("ls_drop", json!({ "adventurer_id": id, "items": items })))
}

/// Upgrades first (largest power gain first), keeping gold for potions to full health; then
/// potions. None when there is nothing worth buying.
fn shopping(id: u64, view: &AdventurerView) -> Option<(&'static str, Value)> {
    let price = u32::from(view.potion_price.max(1));
    let potions_for = |health: u16| -> u32 {
        (u32::from(view.max_health) + 9).saturating_sub(u32::from(health)) / 10
    };
    let reserve = potions_for(view.health) * price;
    let mut gold = u32::from(view.gold);
    let mut candidates: Vec<_> = view
        .market
        .iter()
        .filter(|m| !m.owned && m.effect.power > m.effect.current_power)
        .collect();
    candidates.sort_by_key(|m| std::cmp::Reverse(m.effect.power - m.effect.current_power));
    let mut slots = Vec::new();
    let mut items = Vec::new();
    let free_bag = 15 - view.bag.len();
    for m in candidates {
        let cost = u32::from(m.price);
        let replaces = m.effect.replaces.is_some();
        if slots.contains(&m.slot) || cost + reserve > gold {
            continue;
        }
        if replaces && items.iter().filter(|(_, r)| *r).count() >= free_bag {
            continue;
        }
        gold -= cost;
        slots.push(m.slot);
        items.push((m.id, replaces));
    }
    let potions = potions_for(view.health).min(gold / price).min(255);
    if items.is_empty() && potions == 0 {
        return None;
    }
    let items: Vec<Value> = items
        .iter()
        .map(|(id, _)| json!({ "item": id, "equip": true }))
        .collect();
    Some((
        "ls_buy_item",
        json!({ "adventurer_id": id, "items": items, "potions": potions }),
    ))
}

/// What the agent has seen of the current game.
#[derive(Default)]
struct GameRun {
    view: Option<AdventurerView>,
    beast_name: String,
    last_threat: String,
}

impl GameRun {
    /// Takes in an action result: narrates its events and keeps the new state.
    fn absorb(
        &mut self,
        result: &mut Value,
        narrate: &mut (dyn FnMut(String) + Send),
    ) -> Result<(), AgentError> {
        let events: Vec<GameEvent> =
            serde_json::from_value(result["events"].take()).map_err(|e| protocol("events", e))?;
        let view: AdventurerView = serde_json::from_value(result["adventurer"].take())
            .map_err(|e| protocol("adventurer", e))?;
        if let Some(b) = &view.beast {
            self.beast_name = b.name.clone();
        }
        for e in &events {
            if let Some(line) = self.describe(&e.details) {
                narrate(format!("  [{}] {line}", e.action_count));
            }
        }
        self.view = Some(view);
        Ok(())
    }

    fn describe(&mut self, d: &GameEventDetails) -> Option<String> {
        let crit = |c: bool| if c { " (critical)" } else { "" };
        Some(match d {
            GameEventDetails::Beast(b) => {
                self.beast_name = b.name.clone();
                format!(
                    "a {} appears: level {}, {} health",
                    b.name, b.level, b.health
                )
            }
            GameEventDetails::Ambush(a) => {
                self.last_threat = format!("ambushed by a {}", self.beast_name);
                format!(
                    "ambushed: -{} health on the {:?}{}",
                    a.damage,
                    a.location,
                    crit(a.critical_hit)
                )
            }
            GameEventDetails::Obstacle(o) => {
                self.last_threat = format!("hit by the obstacle {}", o.name);
                if o.dodged {
                    format!("dodged {} (+{} xp)", o.name, o.xp_reward)
                } else {
                    format!(
                        "{}: -{} health on the {:?}{} (+{} xp)",
                        o.name,
                        o.damage,
                        o.location,
                        crit(o.critical_hit),
                        o.xp_reward
                    )
                }
            }
            GameEventDetails::Discovery { discovery, .. } => match discovery {
                Discovery::Gold { amount } => format!("found {amount} gold"),
                Discovery::Health { amount } => format!("found {amount} health"),
                Discovery::Loot { item } => format!("found a {}", item.name),
            },
            GameEventDetails::Attack(a) => {
                format!("you hit for {}{}", a.damage, crit(a.critical_hit))
            }
            GameEventDetails::BeastAttack(a) => {
                self.last_threat = format!("killed by a {}", self.beast_name);
                format!(
                    "the {} hits your {:?} for {}{}",
                    self.beast_name,
                    a.location,
                    a.damage,
                    crit(a.critical_hit)
                )
            }
            GameEventDetails::DefeatedBeast {
                beast_name,
                gold_reward,
                xp_reward,
                ..
            } => format!("{beast_name} defeated: +{xp_reward} xp, +{gold_reward} gold"),
            GameEventDetails::FledBeast { beast_name, .. } => format!("escaped the {beast_name}"),
            GameEventDetails::Flee { success: false } => "failed to flee".to_string(),
            GameEventDetails::LevelUp { level } => format!("reached level {level}"),
            GameEventDetails::StatUpgrade { stats } => format!(
                "stats +{} str +{} dex +{} vit +{} cha",
                stats.strength, stats.dexterity, stats.vitality, stats.charisma
            ),
            GameEventDetails::BuyItems {
                potions,
                items_purchased,
            } => {
                let names: Vec<&str> = items_purchased.iter().map(|i| i.name.as_str()).collect();
                match (names.is_empty(), *potions) {
                    (true, p) => format!("bought {p} potions"),
                    (false, 0) => format!("bought {}", names.join(", ")),
                    (false, p) => format!("bought {} and {p} potions", names.join(", ")),
                }
            }
            GameEventDetails::Drop { items } => format!(
                "dropped {}",
                items
                    .iter()
                    .map(|i| i.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upgrades_follow_the_stated_priorities() {
        let stats = Stats {
            charisma: 1,
            dexterity: 2,
            ..Stats::default()
        };
        let v = upgrade_args(1, 6, &stats, 3);
        assert_eq!(
            (v["charisma"].as_u64(), v["dexterity"].as_u64()),
            (Some(2), Some(1))
        );
        let stats = Stats {
            charisma: 5,
            dexterity: 9,
            vitality: 31,
            ..Stats::default()
        };
        let v = upgrade_args(1, 9, &stats, 2);
        assert_eq!(v["strength"], 2, "vitality is full");
    }
}
