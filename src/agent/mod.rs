//! The built-in agent behind `loot-survivor-mcp play`. It plays whole games through the MCP tool
//! layer, as any client would (an in-process rmcp client over a pipe), and narrates them with
//! the reason for each decision.
//!
//! Two strategies share the same tools and the same game loop:
//! * [`Strategy::Planner`] (the default) asks `ls_advise` what market items and stat points are
//!   worth and `ls_battle_preview` for the odds of each fight, and plans over those distributions
//!   (see [`planner`]).
//! * [`Strategy::Baseline`] is the first agent and [`Strategy::Previous`] the planner before its
//!   last tuning, kept to measure progress on the same dungeons.
//!
//! Neither reads the `exact` outcomes of deterministic worlds, so they play the same way on every
//! chain.

pub mod baseline;
mod client;
pub mod fight;
pub mod healing;
mod narration;
pub mod planner;
pub mod report;
pub mod shopping;
pub mod stats;
pub mod weapon;

use serde::Serialize;
use serde_json::{Value, json};

pub use client::{Agent, AgentError};
pub use planner::Params;
pub use report::{GameSummary, Summary};

use crate::game::phase::Phase;
use crate::game::view::AdventurerView;
use narration::GameRun;

/// Which strategy plays.
#[derive(Debug, Clone, PartialEq)]
pub enum Strategy {
    /// The first agent: fixed thresholds, power-ranked shopping, charisma/dexterity/vitality.
    Baseline,
    /// Plans over the advisors' odds (item values, stat effects, fight odds).
    Planner(Params),
    /// The planner as it was before the last tuning ([`Params::previous`]), kept to measure
    /// progress on the same dungeons.
    Previous,
}

impl Strategy {
    /// The strategy's name as `play --strategy` takes it.
    pub fn name(&self) -> &'static str {
        match self {
            Strategy::Baseline => "baseline",
            Strategy::Planner(_) => "planner",
            Strategy::Previous => "previous",
        }
    }
}

/// How the agent plays.
#[derive(Debug, Clone)]
pub struct AgentOptions {
    /// Starting weapon (id or name: Wand, Book, Short Sword, Club).
    pub weapon: String,
    /// Most tool calls that change the game, per game (the cap).
    pub max_actions: u32,
    /// The strategy.
    pub strategy: Strategy,
}

impl Default for AgentOptions {
    fn default() -> Self {
        Self {
            weapon: "Short Sword".into(),
            max_actions: 3000,
            strategy: Strategy::Planner(Params::default()),
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

/// What killed an adventurer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DeathCause {
    /// A beast's ambush as it appeared.
    Ambush,
    /// An obstacle.
    Obstacle,
    /// A beast's hit in a fight (attacking, fleeing or swapping).
    Beast,
    /// Anything else.
    Other,
}

/// One decision: the tool call and why.
#[derive(Debug, Clone)]
pub struct Move {
    /// Tool to call.
    pub tool: &'static str,
    /// Its arguments.
    pub args: Value,
    /// Why, for the narration ("win 23 %, flee 98 %: fleeing").
    pub reason: String,
}

impl Move {
    /// A move with its reason.
    pub fn new(tool: &'static str, args: Value, reason: impl Into<String>) -> Self {
        Self {
            tool,
            args,
            reason: reason.into(),
        }
    }
}

/// A probability as a whole percentage ("23 %").
pub fn pct(p: f64) -> String {
    format!("{:.0} %", p * 100.0)
}

impl Agent {
    /// Plays one game from mint to death (or the action cap), passing a line per decision and
    /// event to `narrate`.
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
            .ok_or_else(|| client::protocol("ls_new_game", "no adventurer_id"))?;
        narrate(format!(
            "adventurer {id} enters Death Mountain with a {} ({} strategy)",
            opts.weapon,
            opts.strategy.name()
        ));
        game.absorb(&mut started, narrate)?;
        let mut actions = 1u32;
        let mut planner = match &opts.strategy {
            Strategy::Planner(p) => Some(planner::Planner::new(p.clone())),
            Strategy::Previous => Some(planner::Planner::new(Params::previous())),
            Strategy::Baseline => None,
        };
        while let Some(view) = game.view.clone() {
            if view.phase == Phase::Dead || actions >= opts.max_actions {
                break;
            }
            let m = match planner.as_mut() {
                None => baseline::next_move(self, id, &view).await?,
                Some(p) => p.next_move(self, id, &view).await?,
            };
            narrate(format!("{} {}", game.status(), m.reason));
            let mut result = self.call(m.tool, m.args).await?;
            actions += 1;
            game.absorb(&mut result, narrate)?;
        }
        let view = game
            .view
            .clone()
            .ok_or_else(|| client::protocol("ls_new_game", "no adventurer"))?;
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
            cause: (ending == Ending::Died).then_some(game.threat),
            killed_by: (ending == Ending::Died).then(|| game.last_threat.clone()),
        };
        narrate(match ending {
            Ending::Died => format!(
                "adventurer {id} died at level {} with {} xp: {}",
                summary.level,
                summary.xp,
                summary.killed_by.as_deref().unwrap_or("unknown")
            ),
            Ending::ActionCap => format!(
                "adventurer {id} stopped at the cap of {} actions: level {}, {} xp",
                opts.max_actions, summary.level, summary.xp
            ),
        });
        Ok(summary)
    }

    /// The current view, fetched in full (`detail: full`).
    pub async fn view(&self, id: u64) -> Result<AdventurerView, AgentError> {
        let mut v = self
            .call(
                "ls_get_adventurer",
                json!({ "adventurer_id": id, "detail": "full" }),
            )
            .await?;
        serde_json::from_value(v["adventurer"].take())
            .map_err(|e| client::protocol("ls_get_adventurer", e))
    }
}
