//! The built-in agent's planner as a pure policy: a game state in, a move (an engine [`Action`])
//! and its reason out. No I/O, no async, no randomness: the same state and history give the same
//! move. It sees only what any player may know: the state `get_game_state` returns (adventurer,
//! bag, beast, market) and the advisors' odds over uniform randomness, never a game's hidden seed
//! nor an exact outcome.
//!
//! In battle it swaps to a bagged weapon when the weapon advice shows a clearly better win chance
//! after the free hit, else fights or flees on the battle preview's odds ([`fight`]). Stat points
//! go first to a stat below its floor, else to the advisor's best ([`stats`]). Out of battle it
//! drops spare gear when the bag fills, heals with potions ([`healing`]), first buys a stronger
//! weapon when the market has one that will hit much harder a few levels on ([`weapon`]), then
//! the items the market advice values above a bar per gold, keeping ten potions' worth of gold
//! for healing ([`shopping`]), and explores. The market advice is the market's as first seen,
//! valued only for the items a decision could buy ([`AdviceCache`]); the figures are rounded as
//! the MCP advisor tools give them ([`tables`]), so an agent reading those tools would decide the
//! same.

pub mod cache;
pub mod ceiling;
mod combined;
pub mod fight;
pub mod healing;
pub mod lookahead;
#[cfg(test)]
mod lookahead_tests;
mod params;
pub mod rollout;
pub mod shopping;
pub mod stats;
pub mod steps;
pub mod tables;
#[cfg(test)]
mod tests;
pub mod weapon;

pub use cache::AdviceCache;
pub use ceiling::Ceiling;
pub use combined::MoveDecision;
pub use lookahead::{Budget, Lookahead};
pub use params::{Floors, ParamError, Params};

use crate::engine::{Action, EngineSettings};
use crate::model::GameState;
use crate::phase::Phase;
use crate::view::AdventurerView;

/// A probability as a whole percentage ("23 %").
pub fn pct(p: f64) -> String {
    format!("{:.0} %", p * 100.0)
}

/// One move and why ("win 23 %, flee 98 %: fleeing").
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// The action to send.
    pub action: Action,
    /// Why, for the narration.
    pub reason: String,
}

impl Decision {
    fn new(action: Action, reason: impl Into<String>) -> Self {
        Self {
            action,
            reason: reason.into(),
        }
    }
}

/// The planner for one game: its parameters, the world's public rules and the market advice it
/// has computed (start a new one for each game).
#[derive(Debug, Clone)]
pub struct Policy {
    params: Params,
    settings: EngineSettings,
    cache: AdviceCache,
}

impl Policy {
    /// A planner with these parameters, for a world with these rules (what the advisors assume:
    /// the default settings on a world whose randomness is hidden).
    pub fn new(params: Params, settings: EngineSettings) -> Self {
        Self {
            params,
            settings,
            cache: AdviceCache::default(),
        }
    }

    /// The next move for `state` (as `get_game_state` returns it) and `view`, the adventurer view
    /// of that same state.
    pub fn decide(&mut self, state: &GameState, view: &AdventurerView) -> Decision {
        let (p, settings) = (&self.params, &self.settings);
        match view.phase {
            Phase::InBattle if view.level <= 1 => steps::starter_attack(),
            Phase::InBattle => steps::has_spare_weapon(view)
                .then(|| steps::swap(&tables::weapon_wins(state, settings), p))
                .flatten()
                .unwrap_or_else(|| steps::fight(tables::fight_odds(state, settings), p)),
            Phase::StatUpgrade => steps::upgrade(view, p, || {
                self.cache.stat_options(&state.adventurer, settings)
            }),
            _ => {
                let (potions, gold) = match steps::drop_or_potions(view, p) {
                    Ok(shop) => shop,
                    Err(drop) => return drop,
                };
                let mut items = Vec::new();
                if steps::shops(view) {
                    self.cache.see(state, view);
                    let weapons = self.cache.weapons();
                    items = steps::purchases(view, p, gold, &weapons, |budget| {
                        self.cache.values_within(budget, settings)
                    });
                }
                steps::buy_or_explore(view, p, potions, &items)
            }
        }
    }
}
