//! The ceiling agent, for research only: the lookahead's search with exact copies of the stored
//! game, its hidden seed included, so each candidate's rollout is the very outcome. It cheats,
//! so it is never used by the advice nor the tools; it bounds what the game allows.

use super::lookahead::{Budget, Lookahead, Looks};
use super::rollout::{Horizon, Replica};
use super::{Decision, ParamError, Params};
use crate::engine::{EngineSettings, Game};
use crate::model::GameState;
use crate::view::AdventurerView;

/// One exact rollout per candidate, three levels ahead (a death costs 100 xp), every fight
/// looked at. Rollouts to the end of the game (`ceil_levels=255`) cost about a minute a game.
pub const EXACT: Budget = Budget {
    min_rollouts: 1,
    max_rollouts: 1,
    z: 0.0,
    horizon: Horizon {
        levels: 3,
        steps: 1000,
        death_cost: 100.0,
    },
    sure: 1.0,
    looks: Looks::ALL,
};

/// Sets the ceiling's horizon by its `--param` name (`ceil_levels`, `ceil_steps`,
/// `ceil_death`), or the decisions it looks at (`ceil_battle`, `ceil_stats`, `ceil_gold` at 0 or 1).
pub fn set(budget: &mut Budget, name: &str, value: &str) -> Result<(), ParamError> {
    let v = ParamError::number(name, value)?;
    match name {
        "ceil_levels" => budget.horizon.levels = v as u8,
        "ceil_steps" => budget.horizon.steps = v as u32,
        "ceil_death" => budget.horizon.death_cost = v,
        _ => match name.strip_prefix("ceil_") {
            Some(kind) => budget.looks.set(kind, name, v)?,
            None => return Err(ParamError::Unknown(name.to_string())),
        },
    }
    Ok(())
}

/// The ceiling agent for one game (start a new one for each game).
#[derive(Debug, Clone)]
pub struct Ceiling(Lookahead);

impl Ceiling {
    /// The ceiling over the planner with `params` (assuming `advisor` rules, as the planner
    /// does), its copies playing by the `world`'s rules within `budget` (usually [`EXACT`]).
    pub fn new(
        params: Params,
        advisor: EngineSettings,
        world: EngineSettings,
        budget: Budget,
    ) -> Self {
        Self(Lookahead::with_rules(params, advisor, world, budget))
    }

    /// Rollouts played so far in this game.
    pub fn rollouts(&self) -> u64 {
        self.0.rollouts()
    }

    /// The next move for the stored `game` of adventurer `id` (hidden seed included), whose
    /// state and view are `state` and `view`.
    pub fn decide(
        &mut self,
        game: &Game,
        id: u64,
        state: &GameState,
        view: &AdventurerView,
    ) -> Decision {
        self.0
            .decide_on(state, view, |_| Replica::exact(game.clone(), id))
    }
}
