//! The built-in agent behind `loot-survivor-mcp play`. It plays whole games and narrates them
//! with the reason for each decision.
//!
//! The strategies:
//! * [`Strategy::Planner`] (the default) plans over the advisors' odds: what market items and stat
//!   points are worth, the odds of each fight (the pure policy [`game::policy`]).
//! * [`Strategy::Baseline`] is the first agent and [`Strategy::Previous`] the planner before its
//!   last tuning, kept to measure progress on the same dungeons.
//! * [`Strategy::Lookahead`] is the planner with rollouts on copies of the game under sampled
//!   seeds; [`Strategy::Ceiling`] (research only) cheats with the hidden seed, an upper bound.
//!
//! On the embedded sim chain, handed over by the caller, the planner decides on the engine
//! directly ([`direct`]): the state read from the chain, the policy's move applied to it, no tool
//! call per decision. Elsewhere, and always for the baseline, the agent plays through the MCP tool
//! layer as any client would (an in-process rmcp client over a pipe); [`Agent::play_over_mcp`]
//! plays the planner that way too ([`mcp_planner`]), the reference the direct path is checked
//! against.
//!
//! None but the ceiling reads the `exact` outcomes of deterministic worlds or a game's hidden
//! seed, so they play the same way on every chain.

pub mod advice_follower;
pub mod baseline;
mod client;
pub mod direct;
pub mod mcp_planner;
mod narration;
pub mod report;

use game::AdventurerId;
use serde::Serialize;
use serde_json::{Value, json};

pub use client::{Agent, AgentError};
pub use game::policy::{Budget, Floors, ParamError, Params, pct};
pub use mcp::tool_call;
pub use report::{GameSummary, Summary};

use std::time::Instant;

use game::phase::Phase;
use game::view::AdventurerView;
use narration::GameRun;
use sim::SimChain;

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
    /// The planner with rollouts where a decision matters ([`game::policy::Lookahead`]),
    /// under hidden seeds it samples itself; on the sim chain only.
    Lookahead(Params, Budget),
    /// Research only, it cheats: the lookahead on exact copies of the stored game, hidden seed
    /// included ([`game::policy::Ceiling`]), an upper bound; on the sim chain only.
    Ceiling(Params, Budget),
}

impl Strategy {
    /// The strategy's name as `play --strategy` takes it.
    pub fn name(&self) -> &'static str {
        match self {
            Strategy::Baseline => "baseline",
            Strategy::Planner(_) => "planner",
            Strategy::Previous => "previous",
            Strategy::Lookahead(..) => "lookahead",
            Strategy::Ceiling(..) => "ceiling",
        }
    }

    /// The planner's parameters, `None` for the baseline.
    pub fn params(&self) -> Option<Params> {
        match self {
            Strategy::Baseline => None,
            Strategy::Planner(p) => Some(p.clone()),
            Strategy::Previous => Some(Params::previous()),
            Strategy::Lookahead(p, _) | Strategy::Ceiling(p, _) => Some(p.clone()),
        }
    }

    /// Whether the strategy plays only on the sim chain's engine (it needs copies of the game).
    pub fn needs_sim(&self) -> bool {
        matches!(self, Strategy::Lookahead(..) | Strategy::Ceiling(..))
    }
}

/// How the agent plays.
#[derive(Debug, Clone)]
pub struct AgentOptions {
    /// Starting weapon (id or name: Wand, Book, Short Sword, Club).
    pub weapon: String,
    /// Most actions that change the game, per game (the cap).
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

impl Agent {
    /// Plays one game from mint to death (or the action cap), passing a line per decision and
    /// event to `narrate`: the planner on the engine of `sim` directly when the caller gives the
    /// sim chain this agent's server runs on, else through the tools.
    pub async fn play(
        &self,
        sim: Option<&SimChain>,
        opts: &AgentOptions,
        narrate: &mut (dyn FnMut(String) + Send),
    ) -> Result<GameSummary, AgentError> {
        match (sim, opts.strategy.params()) {
            (Some(sim), Some(params)) => direct::play_on_sim(sim, opts, params, narrate),
            (None, _) if opts.strategy.needs_sim() => {
                Err(AgentError::NeedsSim(opts.strategy.name()))
            }
            _ => self.play_over_mcp(opts, narrate).await,
        }
    }

    /// Plays one game as [`Agent::play`] does, but every decision through the MCP tools (the
    /// advisors asked, their JSON read back), as an outside client would.
    pub async fn play_over_mcp(
        &self,
        opts: &AgentOptions,
        narrate: &mut (dyn FnMut(String) + Send),
    ) -> Result<GameSummary, AgentError> {
        let mut game = GameRun::default();
        let mut started = self
            .call("ls_new_game", json!({ "weapon": opts.weapon }))
            .await?;
        let id = AdventurerId::from_json(&started["adventurer_id"])
            .map_err(|e| client::protocol("ls_new_game", format!("no adventurer_id: {e}")))?;
        narrate(entering(id, opts));
        game.absorb(&mut started, narrate)?;
        let mut tally = Tally::default();
        let mut planner = opts.strategy.params().map(mcp_planner::McpPlanner::new);
        while let Some(view) = game.view.clone() {
            if view.phase == Phase::Dead || tally.actions >= opts.max_actions {
                break;
            }
            let clock = Instant::now();
            let m = match planner.as_mut() {
                None => baseline::next_move(self, id, &view).await?,
                Some(p) => p.next_move(self, id, &view).await?,
            };
            tally.decided(clock);
            narrate(format!("{} {}", game.status(), m.reason));
            let mut result = self.call(m.tool, m.args).await?;
            game.absorb(&mut result, narrate)?;
        }
        let view = game
            .view
            .clone()
            .ok_or_else(|| client::protocol("ls_new_game", "no adventurer"))?;
        Ok(finish(id, &view, &game, opts, tally, narrate))
    }
    /// The current view, fetched in full (`detail: full`).
    pub async fn view(&self, id: AdventurerId) -> Result<AdventurerView, AgentError> {
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

/// "adventurer 7 enters Death Mountain with a Wand (planner strategy)".
fn entering(id: AdventurerId, opts: &AgentOptions) -> String {
    format!(
        "adventurer {id} enters Death Mountain with a {} ({} strategy)",
        opts.weapon,
        opts.strategy.name()
    )
}

/// The actions a game has made (the start counts as one) and the time each decision took.
struct Tally {
    actions: u32,
    decision_us: Vec<f64>,
}

impl Default for Tally {
    fn default() -> Self {
        Self {
            actions: 1,
            decision_us: Vec::new(),
        }
    }
}

impl Tally {
    /// Counts one decision, timed from `clock`, and the action it makes.
    fn decided(&mut self, clock: Instant) {
        self.decision_us.push(clock.elapsed().as_secs_f64() * 1e6);
        self.actions += 1;
    }
}

/// The game's summary, narrated as its last line.
fn finish(
    id: AdventurerId,
    view: &AdventurerView,
    game: &GameRun,
    opts: &AgentOptions,
    tally: Tally,
    narrate: &mut dyn FnMut(String),
) -> GameSummary {
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
        actions: tally.actions,
        ending,
        cause: (ending == Ending::Died).then_some(game.threat),
        killed_by: (ending == Ending::Died).then(|| game.last_threat.clone()),
        decision_us: tally.decision_us,
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
    summary
}
