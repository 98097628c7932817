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
pub mod fight;
pub mod healing;
mod outlook;
pub mod outlooks;
mod params;
pub mod shopping;
pub mod stats;
pub mod tables;
#[cfg(test)]
mod tests;
pub mod weapon;

pub use cache::AdviceCache;
pub use params::{Floors, ParamError, Params};

use crate::advice::Stat;
use crate::catalogue::{self, Slot};
use crate::engine::{Action, EngineSettings};
use crate::model::{GameState, ItemPurchase};
use crate::phase::Phase;
use crate::view::AdventurerView;
use fight::BattleChoice;

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
        match view.phase {
            Phase::InBattle => self.battle(state, view),
            Phase::StatUpgrade => self.upgrade(state, view),
            _ => self.explore_or_shop(state, view),
        }
    }

    fn battle(&self, state: &GameState, view: &AdventurerView) -> Decision {
        if view.level <= 1 {
            return Decision::new(
                Action::Attack {
                    to_the_death: false,
                },
                "the starter beast: attacking",
            );
        }
        let has_spare_weapon = view.bag.iter().any(|i| i.slot == Slot::Weapon);
        if has_spare_weapon && let Some(d) = self.swap(state) {
            return d;
        }
        let odds = tables::fight_odds(state, &self.settings);
        let (choice, reason) = fight::decide(odds, &self.params.fight);
        let action = match choice {
            BattleChoice::Attack { to_the_death } => Action::Attack { to_the_death },
            BattleChoice::Flee { to_the_death } => Action::Flee { to_the_death },
        };
        Decision::new(action, reason)
    }

    fn swap(&self, state: &GameState) -> Option<Decision> {
        let weapons = tables::weapon_wins(state, &self.settings);
        let current = weapons.iter().find(|w| w.equipped).map_or(0.0, |w| w.win);
        weapons
            .iter()
            .filter(|w| !w.equipped)
            .max_by(|a, b| a.win.total_cmp(&b.win))
            .filter(|b| b.win >= current + self.params.swap_gain)
            .map(|b| {
                Decision::new(
                    Action::Equip { items: vec![b.id] },
                    format!(
                        "win {} with the {} after its free hit, {} as armed: swapping",
                        pct(b.win),
                        b.name,
                        pct(current)
                    ),
                )
            })
    }

    fn upgrade(&mut self, state: &GameState, view: &AdventurerView) -> Decision {
        let points = view.stat_upgrades_available;
        let behind =
            self.params
                .floors
                .most_behind(&view.stats, view.level)
                .map(|(stat, have, floor)| {
                    (
                        stat,
                        format!(
                            "{points} stat point(s): {} {have} is below its floor {floor:.0}",
                            stat.name()
                        ),
                    )
                });
        let (stat, reason) = behind.unwrap_or_else(|| {
            let options = self.cache.stat_options(&state.adventurer, &self.settings);
            match stats::best(&options, self.params.stat_risk_weight) {
                Some((o, _)) => (
                    o.stat,
                    format!(
                        "{points} stat point(s): {} is worth {:.0} health over 20 steps (death risk per step {:.1} %)",
                        o.stat.name(),
                        o.value,
                        o.death_risk * 100.0
                    ),
                ),
                None => (Stat::Vitality, "stat points: vitality".to_string()),
            }
        });
        Decision::new(
            Action::Upgrade {
                stats: stats::points_in(stat, points),
            },
            reason,
        )
    }

    fn explore_or_shop(&mut self, state: &GameState, view: &AdventurerView) -> Decision {
        let p = &self.params;
        if view.level > 1 {
            let spare = shopping::spare_items(view, p.drop_at);
            if !spare.is_empty() {
                return Decision::new(
                    Action::Drop { items: spare },
                    "the bag is nearly full: dropping spare gear",
                );
            }
        }
        let price = view.potion_price.max(1);
        let potions =
            healing::potions_to_buy(view.health, view.max_health, view.gold, price, &p.heal);
        let gold = view
            .gold
            .saturating_sub((potions * u32::from(price)) as u16);
        let mut items = Vec::new();
        if !view.market.is_empty() && view.level > 1 {
            self.cache.see(state, view);
            let mut taken = Vec::new();
            let mut gold = gold;
            if let Some((w, cost)) = weapon::upgrade(
                &self.cache.weapons(),
                gold,
                view.bag.len() < 15,
                p.weapon_gain,
            ) {
                items.push((w, catalogue::item_name(w)));
                taken.push(Slot::Weapon);
                gold -= cost;
            }
            let budget = gold.saturating_sub(healing::reserve(price, &p.heal));
            let values = self.cache.values_within(budget, &self.settings);
            items.extend(shopping::choose(
                view,
                &values,
                budget,
                p.min_item_per_gold,
                p.risk_weight,
                &taken,
            ));
        }
        if potions > 0 || !items.is_empty() {
            let names: Vec<&str> = items.iter().map(|(_, n)| n.as_str()).collect();
            let reason = match (names.is_empty(), potions) {
                (true, n) => format!("health {}/{}: {n} potions", view.health, view.max_health),
                (false, 0) => format!("best buys for the gold: {}", names.join(", ")),
                (false, n) => format!("best buys for the gold: {}; {n} potions", names.join(", ")),
            };
            return Decision::new(
                Action::BuyItems {
                    potions: u8::try_from(potions).unwrap_or(u8::MAX),
                    items: items
                        .iter()
                        .map(|&(item_id, _)| ItemPurchase {
                            item_id,
                            equip: true,
                        })
                        .collect(),
                },
                reason,
            );
        }
        let till_beast =
            f64::from(view.health) >= p.heal.till_beast_from * f64::from(view.max_health);
        Decision::new(
            Action::Explore { till_beast },
            if till_beast {
                "exploring until a beast"
            } else {
                "exploring one step"
            },
        )
    }
}
